#!/usr/bin/env python3
"""bench/plot.py RESULTS.csv OUT.png -- bar chart of SpMV bandwidth (% of copy bandwidth) per matrix and type."""
import csv, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows, title = [], ""
with open(sys.argv[1]) as f:
    lines = f.read().splitlines()
title = lines[0].lstrip("# ")
rows = list(csv.DictReader(lines[1:]))
mats = list(dict.fromkeys(r["matrix"] for r in rows))
types = list(dict.fromkeys(r["type"] for r in rows))
fig, ax = plt.subplots(figsize=(max(8, 1.6 * len(mats)), 5))
w = 0.8 / len(types)
for k, t in enumerate(types):
    vals = [next((float(r["gbs"]) for r in rows if r["matrix"] == m and r["type"] == t), 0.0) for m in mats]
    ax.bar([i + k * w for i in range(len(mats))], vals, w, label=t)
ax.set_xticks([i + 0.4 - w / 2 for i in range(len(mats))])
ax.set_xticklabels(mats, rotation=20, ha="right", fontsize=8)
ax.set_ylabel("GB/s over the minimum bytes")
ax.set_title("SpMV, " + title, fontsize=9)
ax.legend(fontsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
