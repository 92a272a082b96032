#!/usr/bin/env python3
"""bench/multireport.py MULTI.csv[,MORE.csv...] GPU.txt NGPU PLOT.png

Scaling tables of scripts/device-bench-multi, for any set of rank counts (1, 2, 4, 8 ...), one rank a GPU.
Strong scaling (every problem whose label does not begin with 'weak-'): for each problem and case, the
first solve as a user sees it (format set-up + KSP set-up + solve) and the repeated solve at each rank
count, the speed-up against PETSc's own case (label ending in '-petsc', same solver family and PC) at the same rank count, the
speed-up from 1 rank and the parallel efficiency T(1) / (p T(p)) of the repeated solve, and the MatMult()
time. Weak scaling (labels 'weak-...', the size growing with the ranks): the same case at each rank count,
efficiency the repeated solve's time an iteration on 1 rank over that on p (the iterations grow with the size). Several CSV files (runs split over device calls) are read as one. The plot
(matplotlib, when installed) shows time and efficiency against the rank count."""
import csv, sys
from collections import OrderedDict

rows = [r for f in sys.argv[1].split(",") for r in csv.DictReader(open(f))]
gpu = open(sys.argv[2]).read().strip().splitlines()[0] if len(sys.argv) > 2 else "?"
ngpu = int(sys.argv[3]) if len(sys.argv) > 3 else 0
plot = sys.argv[4] if len(sys.argv) > 4 else None


def ok(r):
    return r is not None and r["reason"].startswith("CONVERGED")


def first(r):
    return float(r["format_s"]) + float(r["first_s"])


def repeat(r):
    return float(r["repeat_s"])


def fmt(x, spec=".3f"):
    return "-" if x is None else format(x, spec)


strong, weak = OrderedDict(), OrderedDict()
for r in rows:
    if r["label"].startswith("weak-"):
        weak.setdefault(r["label"], {})[int(r["np"])] = r
    else:
        strong.setdefault((r["problem"], r["n"]), OrderedDict()).setdefault(r["label"], {})[int(r["np"])] = r
nps = sorted({int(r["np"]) for r in rows})
maxnp = max(nps) if nps else 1
where = f"{ngpu} x {gpu}, one rank a GPU" if ngpu >= maxnp else f"{gpu}: {ngpu} GPU(s) for up to {maxnp} ranks (ranks share GPUs: not a scaling measurement)"

FAMILY = {"mpcg": "cg", "cagmres": "gmres"}  # PETSc's solver each of ours is compared with


def family(r):
    """the PETSc case a case is compared with: same solver family and the same preconditioner"""
    return FAMILY.get(r["ksp_type"], r["ksp_type"]), r["pc_type"]


for (problem, n), byl in strong.items():
    bases = {family(next(iter(v.values()))): v for k, v in byl.items() if k.endswith("-petsc")}
    nrows = next(iter(next(iter(byl.values())).values())).get("rows")
    size = f" ({int(nrows) / 1e6:.2f} M rows)" if nrows else ""
    print(f"\n**{problem}, n = {n}{size}, {where}: strong scaling**\n")
    print("| case | matrix | KSP | ranks | its | first s | repeated s | vs PETSc (first / repeated) | 1 -> p (repeated) | efficiency | MatMult ms |")
    print("|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|")
    for label, by in byl.items():
        r1 = by.get(1)
        base = bases.get(family(next(iter(by.values()))), {})
        for p in sorted(by):
            r = by[p]
            b = base.get(p)
            vs = f"{first(b) / first(r):.2f}x / {repeat(b) / repeat(r):.2f}x" if ok(r) and ok(b) else "-"
            sp = repeat(r1) / repeat(r) if ok(r) and ok(r1) else None
            eff = f"{100 * sp / p:.0f} %" if sp else "-"
            mult = float(r["mult_ms"]) if float(r["mult_ms"]) > 0 else None
            print(f"| {label} | {r['mat_type']} | {r['ksp_type']} | {p} | {r['its']} | {fmt(first(r)) if ok(r) else r['reason']} | {fmt(repeat(r)) if ok(r) else '-'} | {vs} | {fmt(sp, '.2f') + 'x' if sp else '-'} | {eff} | {fmt(mult)} |")
if weak:
    print(f"\n**Weak scaling, {where}**\n")
    print("| case | ranks | rows | rows a rank | its | first s | repeated s | efficiency (repeated solve's time an iteration, 1 rank / p ranks) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, by in weak.items():
        r1 = by.get(1)
        for p in sorted(by):
            r = by[p]
            eff = f"{100 * (repeat(r1) / int(r1['its'])) / (repeat(r) / int(r['its'])):.0f} %" if ok(r) and ok(r1) else "-"
            print(f"| {label} | {p} | {int(r.get('rows') or 0) / 1e6:.2f} M | {int(r.get('rows') or 0) / p / 1e6:.2f} M | {r['its']} | {fmt(first(r)) if ok(r) else r['reason']} | {fmt(repeat(r)) if ok(r) else '-'} | {eff} |")
if plot:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"\n(no matplotlib: {plot} not drawn)")
        sys.exit(0)
    panels = list(strong.items()) + ([("weak", weak)] if weak else [])
    fig, axes = plt.subplots(2, len(panels), figsize=(6 * len(panels), 8), squeeze=False)
    for col, (key, byl) in enumerate(panels):
        for label, by in byl.items():
            ps = sorted(p for p, r in by.items() if ok(r))
            if not ps:
                continue
            axes[0][col].plot(ps, [first(by[p]) for p in ps], marker="o", label=label)
            if ok(by.get(1)):
                t1 = repeat(by[1])
                if key == "weak":  # time an iteration
                    eff = [100 * (t1 / int(by[1]["its"])) / (repeat(by[p]) / int(by[p]["its"])) for p in ps]
                else:
                    eff = [100 * t1 / (repeat(by[p]) * p) for p in ps]
                axes[1][col].plot(ps, eff, marker="o", label=label)
        title = "weak scaling" if key == "weak" else (f"{key[0]} {key[1]}^3" if key[1] != "0" else key[0])
        axes[0][col].set_title(f"{title}, {gpu}")
        axes[0][col].set_ylabel("first solve with set-up, s")
        axes[1][col].set_ylabel("parallel efficiency of the repeated solve, %")
        for row in (0, 1):
            axes[row][col].set_xscale("log", base=2)
            axes[row][col].set_xticks(nps, [str(p) for p in nps])
            axes[row][col].set_xlabel("ranks, one GPU each" if ngpu >= maxnp else "ranks (sharing GPUs)")
            axes[row][col].set_ylim(bottom=0)
            axes[row][col].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(plot, dpi=120)
