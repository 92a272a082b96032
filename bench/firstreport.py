#!/usr/bin/env python3
"""bench/firstreport.py FIRSTSOLVE.csv GPU.txt

Markdown tables of the first-solve benchmark (scripts/device-bench-first): one table per problem and
process count, each row against the case of the same problem and process count whose label ends in
'-petsc' (PETSc's own solver and matrix type): speed-up of the first solve with the format set-up
(MatAssemblyEnd(), where the jagged formats build theirs; AIJCUSPARSE copies its CSR inside the first
product) and the KSP set-up included, as a user sees it, and of the repeated solve."""
import csv, sys
from collections import OrderedDict

rows = list(csv.DictReader(open(sys.argv[1])))
gpu = open(sys.argv[2]).read().strip() if len(sys.argv) > 2 else "?"
groups = OrderedDict()
for r in rows:
    groups.setdefault((r["problem"], r["n"], r["np"]), []).append(r)
for (problem, n, np), rs in groups.items():
    base = next((r for r in rs if r["label"].endswith("-petsc")), None)
    print(f"\n**{problem}, n = {n} ({int(n) ** 3 / 1e6:.1f} M rows), {np} process(es), {gpu}**\n")
    print("| case | matrix | KSP | PC | its | true rel. res. | assembly s | format s | set-up s | first solve s | format + first solve s | repeated s | first-solve speed-up | repeated speed-up |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rs:
        ok = r["reason"].startswith("CONVERGED")
        f = float(r["first_s"]) + float(r["format_s"]); t = float(r["repeat_s"])
        sf = f"{(float(base['first_s']) + float(base['format_s'])) / f:.2f}x" if base and ok else "-"
        st = f"{float(base['repeat_s']) / t:.2f}x" if base and ok else "-"
        its = r["its"] if ok else f"{r['its']} ({r['reason']})"
        print(f"| {r['label']} | {r['mat_type']} | {r['ksp_type']} | {r['pc_type']} | {its} | {float(r['relres']):.1e} | "
              f"{float(r['assembly_s']):.3f} | {float(r['format_s']):.3f} | {float(r['setup_s']):.3f} | {float(r['first_s']):.3f} | {f:.3f} | {t:.3f} | {sf} | {st} |")
