#!/usr/bin/env python3
"""bench/femplot.py FIRSTSOLVE.csv GPU-NAME OUT.png [--problems SUBSTRING ...]

Bar chart of the first-solve benchmark (scripts/device-bench-first) on the finite-element matrices: one panel
per process count, one group of bars per matrix, one bar per case. The height is the speed-up of the first
solve with the format set-up (format_s + first_s) against the case of the same problem, process count and
solver family (MPCG with CG, CA-GMRES with GMRES) whose label ends in '-petsc', as in bench/firstreport.py;
cases that did not converge get their reason in place of a bar. --problems keeps the problems whose name
contains one of the substrings (default: the finite-element matrices, 'fem-' and 'elas-')."""
import csv, re, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

# speed-up each KSP type is meant to reach against PETSc's own solver, drawn dashed over that type's bars
TARGETS = {"cg": 1.3, "mpcg": 1.8, "cagmres": 1.7}

args = sys.argv[1:]
subs = ["fem-", "elas-"]
if "--problems" in args:
    subs = args[args.index("--problems") + 1:]
    args = args[:args.index("--problems")]
path, gpu, out = args
rows = [r for r in csv.DictReader(open(path)) if any(s in r["problem"] for s in subs)]
family = {"mpcg": "cg", "cagmres": "gmres"}
fam = lambda r: family.get(r["ksp_type"], r["ksp_type"])
first = lambda r: float(r["format_s"]) + float(r["first_s"])
case = lambda r: r["label"].split("-", 1)[-1]


def short(problem):
    m = re.search(r"(fem|elas)-q(\d+)-(\d+)", problem)
    return f"Q{m[2]} {'Poisson' if m[1] == 'fem' else 'elasticity'} {m[3]}$^3$" if m else problem


problems = list(dict.fromkeys(r["problem"] for r in rows))
nps = sorted({int(r["np"]) for r in rows})
cases = list(dict.fromkeys(case(r) for r in rows if not r["label"].endswith("-petsc")))
colour = {c: plt.cm.tab10(i) for i, c in enumerate(cases)}
width = 0.8 / max(len(cases), 1)
fig, axes = plt.subplots(1, len(nps), figsize=(7 * len(nps), 5), sharey=True, squeeze=False)
top = 1.0
for ax, np in zip(axes[0], nps):
    labelled = set()
    for g, problem in enumerate(problems):
        rs = [r for r in rows if r["problem"] == problem and int(r["np"]) == np]
        bases = {fam(r): r for r in rs if r["label"].endswith("-petsc")}
        rs = [r for r in rs if not r["label"].endswith("-petsc")]
        spans = {}
        for i, r in enumerate(rs):
            x = g + (i - (len(rs) - 1) / 2) * width
            base = bases.get(fam(r))
            lo, hi = spans.get(r["ksp_type"], (x, x))
            spans[r["ksp_type"]] = (min(lo, x), max(hi, x))
            if not (base and r["reason"].startswith("CONVERGED")):
                ax.text(x, 0.05, r["reason"] if base else "no baseline", rotation=90, ha="center", va="bottom", fontsize=7)
                continue
            s = first(base) / first(r)
            top = max(top, s)
            ax.bar(x, s, width, color=colour[case(r)], label=None if case(r) in labelled else case(r))
            labelled.add(case(r))
            ax.text(x, s, f"{s:.2f}", ha="center", va="bottom", fontsize=7)
        for ksp, (lo, hi) in spans.items():
            if ksp in TARGETS:
                ax.hlines(TARGETS[ksp], lo - width / 2, hi + width / 2, colors="k", linestyles="--", linewidth=1.2, zorder=3,
                          label=None if "target" in labelled else "target: " + ", ".join(f"{k} {v}" for k, v in TARGETS.items()))
                labelled.add("target")
    ax.axhline(1.0, color="grey", linewidth=1, label="PETSc CG / GMRES + AIJCUSPARSE")
    ax.set_xticks(range(len(problems)))
    ax.set_xticklabels([short(p) for p in problems])
    ax.set_title(f"{np} rank" if np == 1 else f"{np} ranks sharing the GPU", fontsize=10)
    ax.set_ylabel("speed-up (x)")
axes[0][0].set_ylim(0, max(top, max(TARGETS.values())) * 1.12)
fig.suptitle(f"First solve with set-up against PETSc's CG/GMRES + AIJCUSPARSE, {gpu}")
handles = {l: h for ax in axes[0] for h, l in zip(*ax.get_legend_handles_labels())}
fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
fig.tight_layout(rect=(0, 0.06, 1, 1))
fig.savefig(out, dpi=120)
