#!/usr/bin/env python3
"""bench/blocksplot.py FIRSTSOLVE.csv GPU-NAME OUT.png [PROBLEM-SUBSTRING]

Issue 42's chart of a blocked-storage benchmark (bench/blocks-elasticity-cases.txt through scripts/device-bench-multi):
one panel per process count, one group of bars per case that is not a PETSc baseline, two bars each: the speed-up of
the repeated solve and of the first solve with set-up (format_s + first_s) against the case of the same problem, process
count, solver family (MPCG with CG, CA-GMRES with GMRES) and PC whose label ends in '-petsc'; a last group gives MatMult
against AIJCUSPARSE's where the case timed it. Issue 42's targets for the repeated solves are drawn dashed over their
groups. Only the problems whose name holds PROBLEM-SUBSTRING (default 'elas-')."""
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

# issue 42's repeated-solve targets against PETSc's solver with the same PC (KSP type, PC type), and MatMult's
TARGETS = {("cg", "jacobi"): 1.3, ("mpcg", "jacobi"): 2.0, ("cagmres", "jacobi"): 2.0, ("mpcg", "gamg"): 2.0, "MatMult": 1.75}
FAMILY = {"mpcg": "cg", "cagmres": "gmres"}

path, gpu, out = sys.argv[1:4]
sub = sys.argv[4] if len(sys.argv) > 4 else "elas-"
rows = [r for r in csv.DictReader(open(path)) if sub in r["problem"] and r["reason"].startswith("CONVERGED")]
key = lambda r: (r["problem"], r["np"], FAMILY.get(r["ksp_type"], r["ksp_type"]), r["pc_type"])
first = lambda r: float(r["format_s"]) + float(r["first_s"])
bases = {key(r): r for r in rows if r["label"].endswith("-petsc")}
nps = sorted({int(r["np"]) for r in rows})
fig, axes = plt.subplots(1, len(nps), figsize=(8 * len(nps), 5), sharey=True, squeeze=False)
top = 2.0
for ax, np in zip(axes[0], nps):
    rs = [r for r in rows if int(r["np"]) == np and not r["label"].endswith("-petsc") and key(r) in bases]
    names, x = [], 0
    for r in rs:
        b = bases[key(r)]
        rep, fst = float(b["repeat_s"]) / float(r["repeat_s"]), first(b) / first(r)
        top = max(top, rep, fst)
        ax.bar(x - 0.2, rep, 0.4, color="tab:blue", label="repeated solve" if x == 0 else None)
        ax.bar(x + 0.2, fst, 0.4, color="tab:orange", label="first solve with set-up" if x == 0 else None)
        for dx, s in ((-0.2, rep), (0.2, fst)):
            ax.text(x + dx, s, f"{s:.2f}", ha="center", va="bottom", fontsize=7)
        t = TARGETS.get((r["ksp_type"], r["pc_type"]))
        if t:
            ax.hlines(t, x - 0.4, x + 0.4, colors="k", linestyles="--", linewidth=1.2, label="target (repeated)" if "target (repeated)" not in ax.get_legend_handles_labels()[1] else None)
        names.append(f"{r['label'].split('-', 1)[1]}\nvs {b['ksp_type']} + {b['pc_type']}")
        x += 1
    mult = [r for r in rows if int(r["np"]) == np and float(r["mult_ms"]) > 0 and not r["label"].endswith("-petsc")]
    base = next((r for r in rows if int(r["np"]) == np and float(r["mult_ms"]) > 0 and r["label"].endswith("-petsc")), None)
    if base and mult:
        for i, r in enumerate(mult):
            s = float(base["mult_ms"]) / float(r["mult_ms"])
            dx = (i - (len(mult) - 1) / 2) * 0.8 / len(mult)
            ax.bar(x + dx, s, 0.8 / len(mult), color="tab:green", label="MatMult" if i == 0 else None)
            ax.text(x + dx, s, f"{s:.2f}\n{r['label'].split('-', 2)[-1]}", ha="center", va="bottom", fontsize=6)
        ax.hlines(TARGETS["MatMult"], x - 0.4, x + 0.4, colors="k", linestyles="--", linewidth=1.2)
        names.append("MatMult vs\nAIJCUSPARSE")
        x += 1
    ax.axhline(1.0, color="grey", linewidth=1)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, fontsize=7)
    ax.set_title(f"{np} rank, one GPU" if np == 1 else f"{np} ranks, one GPU each", fontsize=10)
    ax.set_ylabel("speed-up over PETSc, same run (x)")
    ax.legend(fontsize=8, loc="upper right")
axes[0][0].set_ylim(0, top * 1.15)
fig.suptitle(f"Blocked jagged storage: {rows[0]['problem'] if rows else sub} ({rows[0]['rows'] if rows else '?'} rows), {gpu}")
fig.tight_layout()
fig.savefig(out, dpi=120)
