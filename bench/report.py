#!/usr/bin/env python3
"""bench/report.py SPMV.csv OUT.png [OUT.md]

The SpMV benchmark's CSV as a Markdown table (OUT.md) and a bar chart of the bandwidth each type
reaches per matrix (OUT.png, needs matplotlib)."""
import csv, sys

lines = open(sys.argv[1]).read().splitlines()
title = lines[0].lstrip("# ")
rows = list(csv.DictReader(lines[1:]))


def markdown(path):
    with open(path, "w") as md:
        md.write("| matrix | rows | nnz | type | us/SpMV | GFLOP/s | GB/s | % copy BW | stored overhead | x AIJCUSPARSE | x SELLCUDA | setup s |\n")
        md.write("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            sell = float(r["x_sellcuda"])
            md.write(f"| {r['matrix']} | {int(r['rows']):,} | {int(r['nnz']):,} | {r['type']} | {float(r['us_per_spmv']):.1f} | "
                     f"{float(r['gflops']):.1f} | {float(r['gbs']):.0f} | {float(r['pct_copy']):.1f} | {float(r['overhead_pct']):.1f}% | "
                     f"{float(r['x_aijcusparse']):.2f} | {f'{sell:.2f}' if sell else '-'} | {float(r['setup_s']):.3f} |\n")


def chart(path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
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
    fig.savefig(path, dpi=120)


if len(sys.argv) > 3:
    markdown(sys.argv[3])
chart(sys.argv[2])
