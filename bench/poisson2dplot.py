#!/usr/bin/env python3
"""bench/poisson2dplot.py CSV PNG: time of the first solve against N for each variant of examples/poisson2d
(CSV columns: variant,N,unknowns,its,time_s,linf; one line per run)."""
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open(sys.argv[1])))
fig, ax = plt.subplots(figsize=(6.5, 4.5))
for v in dict.fromkeys(r["variant"] for r in rows):
    rs = [r for r in rows if r["variant"] == v]
    ax.loglog([int(r["N"]) for r in rs], [float(r["time_s"]) for r in rs], marker="o", label=v)
ns = sorted({int(r["N"]) for r in rows})
ax.set_xticks(ns)
ax.set_xticklabels([str(n) for n in ns])
ax.set_xlabel("N (N x N unknowns)")
ax.set_ylabel("first solve, s")
ax.set_title("2D Poisson (seed 004), CG to 1e-6")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
