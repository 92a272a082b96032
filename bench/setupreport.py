#!/usr/bin/env python3
"""Set-up, first and repeated solve times of cases run several times (labels ending in -run<k>), from a firstsolve CSV.

    bench/setupreport.py multi.csv

Groups the rows by label without its -run<k> and by process count, and prints for each group the median, smallest and
largest set-up time, the median first and repeated solve, and the median set-up against the group whose label ends in
-petsc with the same KSP and process count (PETSc's own type): what bench/gamg-setup-cases.txt measures, GAMG's set-up
on a jagged operator against AIJCUSPARSE, with the spread of the runs beside it.
"""
import csv
import re
import statistics
import sys


def main(path):
    groups = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (re.sub(r"-run\d+$", "", row["label"]), int(row["np"]), row["ksp_type"])
            groups.setdefault(key, []).append(row)
    print("| case | ranks | runs | set-up s, median (min-max) | first s | repeated s | set-up vs PETSc's type |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for (label, np_, ksp), rows in groups.items():
        setup = sorted(float(r["setup_s"]) for r in rows)
        med = statistics.median(setup)
        first = statistics.median(float(r["first_s"]) for r in rows)
        repeat = statistics.median(float(r["repeat_s"]) for r in rows)
        base = [k for k in groups if k[1] == np_ and k[2] == ksp and k[0].endswith("-petsc")]
        if not base and ksp == "mpcg":  # MPCG's cases compare the jagged operator with the AIJCUSPARSE one of the same label root
            base = [k for k in groups if k[1] == np_ and k[2] == ksp and groups[k][0]["mat_type"].endswith("aijcusparse")]
        ratio = "-"
        if base:
            ref = statistics.median(float(r["setup_s"]) for r in groups[base[0]])
            ratio = f"{med / ref - 1:+.1%}"
        print(f"| {label} | {np_} | {len(rows)} | {med:.3f} ({setup[0]:.3f}-{setup[-1]:.3f}) | {first:.3f} | {repeat:.4f} | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
