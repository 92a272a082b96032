#!/usr/bin/env python3
"""bench/firstreport.py FIRSTSOLVE.csv GPU.txt   (GPU.txt: the GPU's name, then the number of GPUs)

Markdown tables of the first-solve benchmark (scripts/device-bench-first): one table per problem and
process count, each row against the case of the same problem, process count and solver family (MPCG with CG,
CA-GMRES with GMRES) whose label ends in '-petsc' (PETSc's own solver and matrix type): speed-up of the first solve with the format set-up
(MatAssemblyEnd(), where the jagged formats build theirs; AIJCUSPARSE copies its CSR inside the first
product) and the KSP set-up included, as a user sees it, and of the repeated solve."""
import csv, sys
from collections import OrderedDict

rows = list(csv.DictReader(open(sys.argv[1])))
gpuinfo = open(sys.argv[2]).read().split("\n") if len(sys.argv) > 2 else ["?"]
gpu, ngpu = gpuinfo[0].strip(), int(gpuinfo[1]) if len(gpuinfo) > 1 and gpuinfo[1].strip().isdigit() else 1
groups = OrderedDict()
for r in rows:
    groups.setdefault((r["problem"], r["n"], r["np"]), []).append(r)
# each case against the baseline of its solver family: MPCG against CG, CA-GMRES against GMRES
family = {"mpcg": "cg", "cagmres": "gmres"}
fam = lambda r: family.get(r["ksp_type"], r["ksp_type"])
for (problem, n, np), rs in groups.items():
    bases = {fam(r): r for r in rs if r["label"].endswith("-petsc")}
    mult = any(float(r["mult_ms"]) > 0 for r in rs)
    refresh = any(float(r.get("refresh_s", 0)) > 0 for r in rs)
    size = f"n = {n}, " if int(n) else ""
    print(f"\n**{problem}, {size}{int(rs[0]['rows']) / 1e6:.2f} M rows, {np} process(es){(' sharing the GPU' if ngpu < int(np) else ', one GPU each') if int(np) > 1 else ''}, {gpu}**\n")
    print("| case | matrix | KSP | PC | its | true rel. res. | assembly s | format s | set-up s | first solve s | format + first solve s | repeated s | first-solve speed-up | repeated speed-up |"
          + (" MatMult ms | MatMult speed-up |" if mult else "") + (" values-only refresh s |" if refresh else ""))
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if mult else "") + ("---:|" if refresh else ""))
    for r in rs:
        base = bases.get(fam(r))
        ok = r["reason"].startswith("CONVERGED")
        f = float(r["first_s"]) + float(r["format_s"]); t = float(r["repeat_s"])
        sf = f"{(float(base['first_s']) + float(base['format_s'])) / f:.2f}x" if base and ok else "-"
        st = f"{float(base['repeat_s']) / t:.2f}x" if base and ok else "-"
        its = r["its"] if ok else f"{r['its']} ({r['reason']})"
        print(f"| {r['label']} | {r['mat_type']} | {r['ksp_type']} | {r['pc_type']} | {its} | {float(r['relres']):.1e} | "
              f"{float(r['assembly_s']):.3f} | {float(r['format_s']):.3f} | {float(r['setup_s']):.3f} | {float(r['first_s']):.3f} | {f:.3f} | {t:.3f} | {sf} | {st} |"
              + (f" {float(r['mult_ms']):.3f} | {float(base['mult_ms']) / float(r['mult_ms']):.2f}x |" if mult and base and float(r["mult_ms"]) > 0 and float(base["mult_ms"]) > 0 else " - | - |" if mult else "")
              + (f" {float(r.get('refresh_s', 0)):.4f} |" if refresh else ""))
