#!/usr/bin/env python3
"""bench/mpcgmgplot.py CSV PNG: MPCG + a multigrid PC against CG + the same PC (bench/mpcg-mg-cases.txt run through
scripts/device-bench-multi): the speed-up of the repeated solve (PC and image kept) and of the first solve (their set-ups
included) for each problem and number of ranks, the baseline being each problem's '-petsc' row of the same ranks."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
base = {(r["label"].replace("-cg-", "-").replace("-petsc", ""), r["np"]): r for r in rows if r["label"].endswith("-petsc")}
names, first, repeat = [], [], []
for r in rows:
    if r["label"].endswith("-petsc") or r["ksp_type"] != "mpcg":
        continue
    key = (r["label"].replace("-mpcg-", "-").replace("-nccl", "").replace("-logview", ""), r["np"])
    b = base.get(key)
    if not b:
        continue
    names.append(f'{r["label"]}\n{r["np"]} GPU' + ("s" if r["np"] != "1" else ""))
    first.append(float(b["first_s"]) / float(r["first_s"]))
    repeat.append(float(b["repeat_s"]) / float(r["repeat_s"]))
x = range(len(names))
fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(names)), 4.5))
ax.bar([i - 0.2 for i in x], repeat, 0.4, label="repeated solve (PC kept)")
ax.bar([i + 0.2 for i in x], first, 0.4, label="first solve (set-ups included)")
ax.axhline(1.0, color="black", linewidth=0.8)
ax.axhline(1.6, color="gray", linestyle="--", linewidth=0.8, label="target 1.6x")
ax.set_xticks(list(x))
ax.set_xticklabels(names, fontsize=7)
ax.set_ylabel("speed-up over CG + the same PC")
ax.set_title("MPCG with the single-precision V-cycle against CG, true relative residual 1e-10")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
