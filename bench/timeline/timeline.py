#!/usr/bin/env python3
"""bench/timeline/timeline.py DIR [--skip N] [--kernel SUBSTRING] [--group I] [--product K] [--png FILE]
   bench/timeline/timeline.py --selftest [--png FILE]

Does the halo exchange of the distributed product (MatMPIJaggedMult, src/mat/impls/jagged/mpi/mpijagged.cu)
overlap the diagonal block's product? Reads the traces of one run written by libcuptitrace.so
(bench/timeline/cuptitrace.cpp: DIR/trace-<rank>-<pid>.csv, one a process) and finds the products in each:
  MPI path   the pack kernel (HaloGatherKernel) on the compute stream, its DtoH copy on the halo's copy
             stream, the diagonal block's kernels on the compute stream, the host waiting for the copy and
             in MPI (a gap: CUPTI does not see MPI), the HtoD copy on the copy stream, the off-diagonal
             block's kernels (multadd) on the compute stream
  NCCL path  the same with NCCL's kernel(s) on the copy stream in place of the two copies
The order is the order of issue (CUPTI's correlation ids), so the diagonal kernels are those issued between
the DtoH and the HtoD (MPI) or between the pack and the NCCL kernel; the off-diagonal ones the run of
kernels on the compute stream after the exchange (after a HaloScatterKernel where the ghosts are not
contiguous) named as the diagonal ones or the jagged kernels. A transpose product's reverse exchange ends in
HaloAddKernel and is not counted. Products are grouped by the diagonal kernels' names and the copy stream (one
halo a matrix): the table lists the groups, and the largest group whose kernels are the jagged ones
(jagged::gpu::JaggedRowKernel ...) is reported, or the largest holding a kernel whose name contains
--kernel SUBSTRING (for a matrix type whose product runs other kernels), or group I (--group).

After skipping the first N products (--skip, default 5: warm-up), per process, the median of
  span      pack start -> end of the off-diagonal kernels
  diag      the diagonal block's kernels, first start -> last end
  exchange  pack end -> HtoD end (MPI), or the NCCL kernels' first start -> last end
  overlap   length of exchange ∩ diag over the exchange's length
  idle      the compute stream's gap between the diagonal kernels' end and the off-diagonal ones' start
  host-mpi  (MPI) DtoH end -> HtoD start: the host's wait for the copy, MPI, and the HtoD's issue
then the timeline of one product in µs from its pack's start (the median-span one, or the K-th after
the skip with --product), host CUDA API calls (of the thread that launched the pack) included, and a PNG
(--png, default DIR/timeline.png; matplotlib, left out without it) of that product, one panel a process,
lanes compute stream, copy stream, host (CUDA API).

Before the products, for every process, whatever it ran: the kernels of most GPU time, and where its compute stream
(the one of most GPU records) waits: its idle gaps of at most --gap-max microseconds (longer ones are host phases:
set-up, I/O) summed by the pair of operations around them (an MPCG inner iteration's gaps show there: waits for
another GPU's push or sum, a copy's hand-over, a launch).

--selftest writes synthetic traces with known numbers (an MPI rank, an NCCL rank, decoys) into a temporary
directory, analyses them, and checks the medians, the kernel table and the gap sums.
"""
import argparse
import bisect
import csv
import glob
import os
import re
import signal
import statistics
import sys
import tempfile

JAGGED = {"JaggedRowKernel", "LongRowKernel", "LongChunkKernel", "LongInitKernel"}
PACK, SCATTER = "HaloGather", "HaloScatter"
WINDOW = 4096  # ops of other streams looked past between two ops of one product
# host calls that wait for the GPU (and cudaMemcpyAsync to or from pageable memory: see the copy's name)
SYNC = re.compile(r"Synchronize|^cudaMemcpy(?!.*Async)|^cudaMemset(?!.*Async)|^cudaFree")


class Op:
    __slots__ = ("kind", "name", "start", "end", "stream", "device", "bytes", "corr")

    def __init__(self, kind, name, start, end, stream, device, nbytes, corr):
        self.kind, self.name, self.start, self.end = kind, name, start, end
        self.stream, self.device, self.bytes, self.corr = stream, device, nbytes, corr


def base(name):
    """jagged::gpu::JaggedRowKernel<64, double, ...> -> JaggedRowKernel"""
    head = re.split(r"[<(]", name.replace("(anonymous namespace)::", ""), 1)[0]
    return head.rsplit("::", 1)[-1].strip() or name


def is_nccl(op):
    return op.kind == "kernel" and "nccl" in op.name.lower()


def read_trace(path):
    gpu, api = [], []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            num = lambda k: int(r[k]) if r.get(k) not in (None, "") else -1
            op = Op(r["kind"], r["name"], num("start_ns"), num("end_ns"), num("stream"), num("device"), num("bytes"), num("correlation"))
            if op.kind in ("kernel", "memcpy", "memset"):
                gpu.append(op)
            elif op.kind == "runtime":
                api.append(op)
    # the order of issue: correlation ids grow with each call of a process
    gpu.sort(key=lambda o: (o.corr if o.corr > 0 else 1 << 62, o.start))
    api.sort(key=lambda o: o.start)
    return gpu, api


def find_products(gpu):
    """The products of one process, in order: dicts of the ops of each phase"""
    found = []
    n = len(gpu)
    for i, op in enumerate(gpu):
        mpi = op.kind == "memcpy" and op.name.startswith("DtoH")
        if not (mpi or (is_nccl(op) and (i == 0 or not (is_nccl(gpu[i - 1]) and gpu[i - 1].stream == op.stream)))):
            continue
        x = op.stream
        # back to the pack kernel: the diagonal kernels (NCCL) lie between, on its stream
        k = i - 1
        while k >= max(0, i - WINDOW) and not (gpu[k].kind == "kernel" and gpu[k].stream != x):
            k -= 1
        if k < max(0, i - WINDOW):
            continue
        c = gpu[k].stream
        if mpi:
            if PACK not in gpu[k].name:
                continue
            pack, diag = gpu[k], []
            j = i + 1  # the next op of the copy stream: the HtoD
            while j < min(n, i + WINDOW) and gpu[j].stream != x:
                if gpu[j].kind == "kernel" and gpu[j].stream == c:
                    diag.append(gpu[j])
                j += 1
            if j >= min(n, i + WINDOW) or not (gpu[j].kind == "memcpy" and gpu[j].name.startswith("HtoD")):
                continue
            exch, last = [op, gpu[j]], j
        else:
            diag, pack = [], None
            while k >= max(0, i - WINDOW):
                o = gpu[k]
                if o.stream == c and o.kind == "kernel":
                    if PACK in o.name:
                        pack = o
                        break
                    diag.append(o)
                elif o.stream == x or o.stream == c:
                    break
                k -= 1
            if pack is None:
                continue
            diag.reverse()
            exch, last = [op], i
            while last + 1 < n and is_nccl(gpu[last + 1]) and gpu[last + 1].stream == x:
                last += 1
                exch.append(gpu[last])
        if not diag:
            continue
        # after the exchange: a scatter of the ghosts, then the off-diagonal block's kernels
        names = {base(o.name) for o in diag} | JAGGED
        scatter, off = [], []
        j = last + 1
        while j < min(n, last + WINDOW):
            o = gpu[j]
            j += 1
            if o.stream != c:
                continue
            if o.kind == "kernel" and not off and SCATTER in o.name:
                scatter.append(o)
            elif o.kind == "kernel" and base(o.name) in names:
                off.append(o)
            elif o.kind != "kernel" and not off and not o.name.startswith(("HtoD", "DtoH")):
                continue  # a DtoD copy or a memset of the product's set-up (PETSc's multadd copies y first)
            else:
                break
        if not off:
            continue
        found.append({"path": "mpi" if mpi else "nccl", "pack": pack, "diag": diag, "exch": exch, "scatter": scatter, "off": off,
                      "compute": c, "copy": x, "sig": " + ".join(sorted({base(o.name) for o in diag}))})
    return found


def metrics(p):
    pack, diag, exch, off = p["pack"], p["diag"], p["exch"], p["off"]
    d0, d1 = min(o.start for o in diag), max(o.end for o in diag)
    if p["path"] == "mpi":
        e0, e1 = pack.end, exch[-1].end
    else:
        e0, e1 = min(o.start for o in exch), max(o.end for o in exch)
    inter = max(0, min(e1, d1) - max(e0, d0))
    m = {"span": max(o.end for o in off) - pack.start, "diag": d1 - d0, "exchange": e1 - e0,
         "overlap": inter / (e1 - e0) if e1 > e0 else 1.0, "idle": min(o.start for o in off) - d1}
    if p["path"] == "mpi":
        m["host-mpi"] = exch[1].start - exch[0].end
    return m


def choose(products, kernel, group):
    """Groups (signature, copy stream) by size; the one reported"""
    groups = {}
    for p in products:
        groups.setdefault((p["sig"], p["copy"], p["path"]), []).append(p)
    order = sorted(groups, key=lambda g: -len(groups[g]))
    if group is not None:
        pick = order[group] if group < len(order) else None
    elif kernel:
        pick = next((g for g in order if any(kernel in o.name for p in groups[g] for o in p["diag"])), None)
    else:
        pick = next((g for g in order if set(g[0].split(" + ")) & JAGGED), order[0] if order else None)
    return groups, order, pick


def us(ns):
    return ns / 1000.0


def events(p, api, corr_api, pageable):
    """(start, end, lane, label, role) of one product, host calls of the launching thread included"""
    ev = [(p["pack"].start, p["pack"].end, "compute", base(p["pack"].name), "pack")]
    ev += [(o.start, o.end, "compute", base(o.name), "diag") for o in p["diag"]]
    ev += [(o.start, o.end, "copy", (o.name + " %d B" % o.bytes) if o.kind == "memcpy" else base(o.name), "exchange") for o in p["exch"]]
    ev += [(o.start, o.end, "compute", base(o.name), "scatter") for o in p["scatter"]]
    ev += [(o.start, o.end, "compute", base(o.name), "off") for o in p["off"]]
    launch = corr_api.get(p["pack"].corr)
    w0 = min(p["pack"].start, launch.start if launch else p["pack"].start)
    w1 = max(o.end for o in p["off"])
    lo = bisect.bisect_left([a.start for a in api], w0 - 10**9)  # calls begun up to 1 s before
    for a in api[lo:]:
        if a.start > w1:
            break
        if a.end < w0 or (launch and a.stream != launch.stream):
            continue
        ev.append((a.start, a.end, "host", a.name, "sync" if SYNC.search(a.name) or a.corr in pageable else "api"))
    ev.sort(key=lambda e: (e[0], e[1]))
    return ev


def kernel_table(gpu, n=12):
    """(name with template arguments, launches, total ns) of the n kernels of most GPU time: where a process's time goes
    when it has no distributed product (one GPU: MPCG's inner iterations)"""
    agg = {}
    for o in gpu:
        if o.kind == "kernel":
            k = o.name.replace("(anonymous namespace)::", "").split("(", 1)[0].strip()
            c, t = agg.get(k, (0, 0))
            agg[k] = (c + 1, t + o.end - o.start)
    return sorted(((k, c, t) for k, (c, t) in agg.items()), key=lambda r: (-r[2], r[0]))[:n]


def idle_gaps(gpu, gap_max_ns, n=10):
    """(stream, its records, busy ns, idle ns, rows): the idle gaps of the stream of most GPU records that last at most
    gap_max_ns, summed by the pair of operations around them; rows (previous, next, count, total ns, median ns), most first"""
    counts = {}
    for o in gpu:
        counts[o.stream] = counts.get(o.stream, 0) + 1
    if not counts:
        return None
    stream = max(counts, key=lambda k: (counts[k], -k))
    ops = sorted((o for o in gpu if o.stream == stream), key=lambda o: o.start)
    busy = sum(o.end - o.start for o in ops)
    pairs = {}
    for a, b in zip(ops, ops[1:]):
        g = b.start - a.end
        if 0 < g <= gap_max_ns:
            pairs.setdefault((base(a.name), base(b.name)), []).append(g)
    rows = sorted(((a, b, len(g), sum(g), statistics.median(g)) for (a, b), g in pairs.items()), key=lambda r: (-r[3], r[0], r[1]))
    return stream, len(ops), busy, sum(r[3] for r in rows), rows[:n]


def analyse(trace_dir, skip=5, kernel=None, group=None, product=None, png=None, gap_max_us=1000, out=sys.stdout):
    files = sorted(glob.glob(os.path.join(trace_dir, "trace-*-*.csv")),
                   key=lambda f: tuple(int(x) if x.isdigit() else 0 for x in re.findall(r"trace-(\d+)-(\d+)", f)[0]) if re.search(r"trace-(\d+)-(\d+)", f) else (0, 0))
    if not files:
        print("timeline: no trace-<rank>-<pid>.csv in %s" % trace_dir, file=out)
        return None
    results, shown = {}, []
    for f in files:
        rank, pid = re.findall(r"trace-(\w+)-(\d+)\.csv$", f)[0]
        label = "rank %s (pid %s)" % (rank, pid)
        gpu, api = read_trace(f)
        products = find_products(gpu)
        groups, order, pick = choose(products, kernel, group)
        print("== %s: %d GPU records, %d CUDA API calls, %d products found" % (label, len(gpu), len(api), len(products)), file=out)
        table = kernel_table(gpu)
        total = sum(o.end - o.start for o in gpu if o.kind == "kernel")
        print("   kernels by GPU time (all kernels: %.3f ms):" % (total / 1e6), file=out)
        for k, c, t in table:
            print("   %6d x %9.3f ms %9.1f us each %5.1f %%  %s" % (c, t / 1e6, t / 1e3 / c, 100.0 * t / max(total, 1), k[:110]), file=out)
        gaps = idle_gaps(gpu, gap_max_us * 1000)
        if gaps:
            stream, nops, busy, idle, rows = gaps
            print("   compute stream %d: %d records, busy %.3f ms, idle %.3f ms in gaps of at most %g us; the largest, by the operations around them:" % (stream, nops, busy / 1e6, idle / 1e6, gap_max_us), file=out)
            for a, b, c, t, m in rows:
                print("   %6d x %9.3f ms, median %7.1f us  %s -> %s" % (c, t / 1e6, m / 1e3, a[:50], b[:50]), file=out)
        for i, g in enumerate(order):
            print("   %s group %d: %4d x %-4s diagonal kernels %s, copy stream %d" % ("*" if g == pick else " ", i, len(groups[g]), g[2], g[0], g[1]), file=out)
        if pick is None:
            print("   no product found%s: try --kernel SUBSTRING (a kernel of the diagonal block's product) or --group I" % (" of that kind" if products else ""), file=out)
            continue
        chosen = groups[pick][skip:]
        if not chosen:
            print("   only %d products, none after --skip %d" % (len(groups[pick]), skip), file=out)
            continue
        ms = [metrics(p) for p in chosen]
        med = {k: statistics.median(m[k] for m in ms) for k in ms[0]}
        results[label] = med
        print("   median of %d products after %d skipped (compute stream %d, copy stream %d):" % (len(chosen), skip, chosen[0]["compute"], chosen[0]["copy"]), file=out)
        print("     span %.1f us, diag %.1f us, exchange %.1f us, overlap %.0f %%, idle %.1f us%s" % (
            us(med["span"]), us(med["diag"]), us(med["exchange"]), 100 * med["overlap"], us(med["idle"]),
            ", host-mpi %.1f us" % us(med["host-mpi"]) if "host-mpi" in med else ""), file=out)
        if product is not None:
            k = min(product, len(chosen) - 1)
        else:
            k = min(range(len(chosen)), key=lambda i: abs(ms[i]["span"] - med["span"]))
        p = chosen[k]
        corr_api = {a.corr: a for a in api if a.corr > 0}
        pageable = {o.corr for o in gpu if o.kind == "memcpy" and o.name.endswith("pageable")}  # such a copy blocks the host
        ev = events(p, api, corr_api, pageable)
        t0 = p["pack"].start
        m = ms[k]
        print("   product %d after the skip: span %.1f us, overlap %.0f %%; times in us from the pack's start" % (k, us(m["span"]), 100 * m["overlap"]), file=out)
        print("     %9s %9s %8s  %-8s %-9s %s" % ("start", "end", "length", "lane", "role", "what"), file=out)
        for s, e, lane, what, role in ev:
            print("     %9.1f %9.1f %8.1f  %-8s %-9s %s" % (us(s - t0), us(e - t0), us(e - s), lane, role, what[:90]), file=out)
        shown.append((label, p, ev, m))
    if png and shown:
        draw(shown, png, out)
    return results


def draw(shown, png, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("timeline: no matplotlib, no %s" % png, file=out)
        return
    colors = {"pack": "tab:orange", "diag": "tab:blue", "off": "tab:green", "scatter": "tab:olive", "exchange": "tab:red",
              "api": "0.75", "sync": "0.35"}
    lanes = {"compute": 2, "copy": 1, "host": 0}
    fig, axes = plt.subplots(len(shown), 1, figsize=(11, 1.9 + 1.6 * len(shown)), squeeze=False)
    for ax, (label, p, ev, m) in zip(axes[:, 0], shown):
        t0 = p["pack"].start
        for s, e, lane, what, role in ev:
            ax.broken_barh([(us(s - t0), max(us(e - s), 0.05))], (lanes[lane] - 0.35, 0.7), facecolors=colors[role],
                           edgecolor="black" if lane != "host" else "none", linewidth=0.4)
        d0, d1 = min(o.start for o in p["diag"]), max(o.end for o in p["diag"])
        ax.axvspan(us(d0 - t0), us(d1 - t0), color="tab:blue", alpha=0.07)
        ax.set_yticks([2, 1, 0])
        ax.set_yticklabels(["compute stream %d" % p["compute"], "copy stream %d" % p["copy"], "host (CUDA API)"])
        ax.set_ylim(-0.6, 2.6)
        ax.set_title("%s, %s exchange: span %.1f us, diagonal %.1f us, exchange %.1f us, overlap %.0f %%, idle %.1f us"
                     % (label, p["path"].upper(), us(m["span"]), us(m["diag"]), us(m["exchange"]), 100 * m["overlap"], us(m["idle"])), fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("µs from the pack kernel's start")
    from matplotlib.patches import Patch
    handles = [Patch(color=colors[k], label=v) for k, v in (("pack", "pack (HaloGather)"), ("diag", "diagonal block"), ("exchange", "copies / NCCL"),
                                                              ("scatter", "scatter ghosts"), ("off", "off-diagonal block"), ("api", "CUDA API call"),
                                                              ("sync", "blocking call (synchronize, sync copy)"))]
    fig.legend(handles=handles, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.savefig(png, dpi=130)
    print("timeline: wrote %s" % png, file=out)


# ------------------------------------------------------------------ self-test

def synthetic(trace_dir):
    """Two processes in the tracer's format; the expected medians (ns) of each"""
    header = "kind,name,start_ns,end_ns,stream,device,bytes,correlation,grid,block\n"
    row = lambda kind, name, s, e, stream, dev, b, corr: '%s,"%s",%d,%d,%d,%s,%d,%d,,\n' % (kind, name.replace('"', '""'), s, e, stream, "" if dev < 0 else dev, b, corr)
    pack = "(anonymous namespace)::HaloGatherKernel<unsigned long>"
    row_k = "jagged::gpu::JaggedRowKernel<64, double, double, jagged::gpu::MultTerm<double>>"
    long_k = "jagged::gpu::LongRowKernel<double, double, jagged::gpu::MultTerm<double>>"
    nccl = "ncclDevKernel_SendRecv"
    C, X, TID = 7, 21, 4242
    us_ = 1000

    def process(path, mode, nprod):
        rows, corr = [], [100]

        def launch(t, name="cudaLaunchKernel"):  # a host call at t, the correlation of what it issues
            corr[0] += 1
            rows.append(row("runtime", name, t - 2 * us_, t - 1 * us_, TID, -1, 0, corr[0]))
            return corr[0]

        def host(name, s, e):
            rows.append(row("runtime", name, s, e, TID, -1, 0, 0))

        for p in range(nprod):
            t = 10**9 + p * 1000 * us_
            slow = 3 if p < 3 else 1  # warm-up: three slow products
            # decoys first: a dot product, a staged DtoH on the compute stream, a transpose's reverse exchange
            rows.append(row("kernel", "dot_kernel<double>", t - 300 * us_, t - 290 * us_, C, 0, 0, launch(t - 300 * us_)))
            rows.append(row("memcpy", "DtoH pageable", t - 280 * us_, t - 275 * us_, C, 0, 8, launch(t - 280 * us_, "cudaMemcpyAsync")))
            rows.append(row("kernel", "jagged::gpu::JaggedTransposeKernel<double, double>", t - 250 * us_, t - 240 * us_, C, 0, 0, launch(t - 250 * us_)))
            rows.append(row("kernel", pack, t - 239 * us_, t - 238 * us_, C, 0, 0, launch(t - 239 * us_)))
            rows.append(row("memcpy", "DtoH", t - 237 * us_, t - 236 * us_, X, 0, 800, launch(t - 237 * us_, "cudaMemcpyAsync")))
            rows.append(row("kernel", "jagged::gpu::JaggedTransposeKernel<double, double>", t - 235 * us_, t - 230 * us_, C, 0, 0, launch(t - 235 * us_)))
            rows.append(row("memcpy", "HtoD", t - 220 * us_, t - 219 * us_, X, 0, 800, launch(t - 220 * us_, "cudaMemcpyAsync")))
            rows.append(row("kernel", "(anonymous namespace)::HaloAddKernel", t - 218 * us_, t - 217 * us_, C, 0, 0, launch(t - 218 * us_)))
            # the product
            host("cudaEventSynchronize", t - 6 * us_, t - 5 * us_)
            rows.append(row("kernel", pack, t, t + 4 * us_, C, 0, 0, launch(t)))
            if mode == "mpi":
                rows.append(row("memcpy", "DtoH", t + 5 * us_, t + 9 * us_, X, 0, 8000, launch(t + 3 * us_, "cudaMemcpyAsync")))
                rows.append(row("kernel", row_k, t + 6 * us_, t + 46 * us_, C, 0, 0, launch(t + 4 * us_)))
                rows.append(row("kernel", long_k, t + 46 * us_, t + 50 * us_, C, 0, 0, launch(t + 5 * us_)))
                host("cudaEventSynchronize", t + 6 * us_, t + 9 * us_)
                htod_end = t + 36 * us_ * slow
                rows.append(row("memcpy", "HtoD", htod_end - 6 * us_, htod_end, X, 0, 8000, launch(htod_end - 6 * us_, "cudaMemcpyAsync")))
                off0 = max(t + 52 * us_, htod_end + 1 * us_)
            else:
                rows.append(row("kernel", row_k, t + 5 * us_, t + 45 * us_, C, 0, 0, launch(t + 3 * us_)))
                nccl_end = t + 60 * us_ * slow
                rows.append(row("kernel", nccl, t + 30 * us_, nccl_end, X, 0, 0, launch(t + 4 * us_, "cuLaunchKernelEx")))
                off0 = nccl_end + 1 * us_
            rows.append(row("kernel", row_k, off0, off0 + 8 * us_, C, 0, 0, launch(off0 - 2 * us_)))
            rows.append(row("kernel", "axpy_kernel<double>", off0 + 9 * us_, off0 + 12 * us_, C, 0, 0, launch(off0)))
        rows.reverse()  # CUPTI's order is not the order of issue
        with open(path, "w") as f:
            f.write(header + "".join(rows))

    process(os.path.join(trace_dir, "trace-0-100.csv"), "mpi", 12)
    process(os.path.join(trace_dir, "trace-1-101.csv"), "nccl", 12)
    # MPI: exchange 4 -> 36 (32), diag 6 -> 50, overlap 30 / 32, idle 52 - 50, host-mpi 30 - 9
    # NCCL: exchange 30 -> 60, diag 5 -> 45, overlap 15 / 30, idle 61 - 45
    return {"rank 0 (pid 100)": {"span": 60 * us_, "diag": 44 * us_, "exchange": 32 * us_, "overlap": 30 / 32, "idle": 2 * us_, "host-mpi": 21 * us_},
            "rank 1 (pid 101)": {"span": 69 * us_, "diag": 40 * us_, "exchange": 30 * us_, "overlap": 0.5, "idle": 16 * us_}}


def selftest(png):
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        expected = synthetic(d)
        got = analyse(d, skip=3, png=png)
    for label, exp in expected.items():
        for k, v in exp.items():
            g = (got or {}).get(label, {}).get(k)
            ok = g is not None and abs(g - v) <= 1e-9 * max(1, abs(v))
            passed, failed = passed + ok, failed + (not ok)
            if not ok:
                print("selftest: %s %s: expected %s, got %s" % (label, k, v, g))
    ops = [Op("kernel", n, s0, s0 + d, 7, 0, 0, i) for i, (n, s0, d) in enumerate(
        [("jagged::gpu::(anonymous namespace)::K<3, float>(int)", 0, 10), ("L(double)", 20, 50), ("jagged::gpu::K<3, float>(int)", 80, 12)])]
    ops.append(Op("memcpy", "HtoD", 100, 900, 7, 0, 64, 9))
    exp = [("jagged::gpu::K<3, float>", 2, 22), ("L", 1, 50)]
    got = kernel_table(ops)
    ok = sorted(got, key=lambda r: r[0]) == sorted(exp, key=lambda r: r[0]) and got[0][0] == "L"
    passed, failed = passed + ok, failed + (not ok)
    if not ok:
        print("selftest: kernel table: expected %s (L first), got %s" % (exp, got))
    ops += [Op("kernel", "L(double)", 1000, 1010, 7, 0, 0, 10), Op("kernel", "Z", 0, 5000, 8, 0, 0, 11)]
    exp = (7, 5, 882, 28, [("K", "L", 1, 10, 10), ("L", "K", 1, 10, 10), ("K", "HtoD", 1, 8, 8)])  # stream 7; HtoD -> L's 100 over the limit
    got = idle_gaps(ops, 50)
    ok = got == exp
    passed, failed = passed + ok, failed + (not ok)
    if not ok:
        print("selftest: idle gaps: expected %s, got %s" % (exp, got))
    print("selftest: %d passed, %d failed" % (passed, failed))
    return failed == 0


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under | head
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", help="the directory of the trace-<rank>-<pid>.csv files (PJ_TRACE_DIR)")
    ap.add_argument("--skip", type=int, default=5, help="products skipped at the start of each process (warm-up)")
    ap.add_argument("--kernel", help="a substring of a kernel of the diagonal block's product, where the jagged kernels are not it")
    ap.add_argument("--group", type=int, help="report group I of the table instead")
    ap.add_argument("--product", type=int, help="show the K-th product after the skip instead of the median one")
    ap.add_argument("--png", help="the plot (default DIR/timeline.png; 'none': no plot)")
    ap.add_argument("--gap-max", type=float, default=1000, help="the longest idle gap (us) counted in the compute stream's waits")
    ap.add_argument("--selftest", action="store_true", help="check the analysis on synthetic traces")
    a = ap.parse_args()
    if a.selftest:
        sys.exit(0 if selftest(a.png if a.png != "none" else None) else 1)
    if not a.dir:
        ap.error("the trace directory is required")
    png = None if a.png == "none" else (a.png or os.path.join(a.dir, "timeline.png"))
    res = analyse(a.dir, skip=a.skip, kernel=a.kernel, group=a.group, product=a.product, png=png, gap_max_us=a.gap_max)
    sys.exit(0 if res is not None else 1)


if __name__ == "__main__":
    main()
