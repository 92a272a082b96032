#!/usr/bin/env python3
"""bench/mpcgreport.py HISTORY.csv OUT.png

Residual against time of the mixed-precision CG benchmark (bench/mpcgbench -history): one panel per
problem, one line per solver (needs matplotlib)."""
import csv, sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

series = defaultdict(lambda: defaultdict(lambda: ([], [])))
for r in csv.DictReader(open(sys.argv[1])):
    t, res = series[r["problem"]][r["solver"]]
    t.append(float(r["seconds"]))
    res.append(float(r["relres"]))
problems = list(series)
fig, axes = plt.subplots(1, len(problems), figsize=(5.5 * len(problems), 4.5), squeeze=False)
for ax, p in zip(axes[0], problems):
    for solver, (t, res) in series[p].items():
        ax.semilogy(t, res, label=solver, lw=1.4)
    ax.set_title(p)
    ax.set_xlabel("seconds since the solve began")
    ax.set_ylabel("relative residual norm")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
