#!/usr/bin/env python3
"""The Python-vs-C table of scripts/device-bench-python: reads its log (the '== n=N KSP run R: C|Python' headers, each followed
by bench/firstsolve's or examples/python/poisson.py's line) and prints, for each size and solver, the median first and
repeated solve of each program, their ratios (Python / C; 1.00 = as fast) and the iteration counts.

    python3 bench/pythonreport.py python-vs-c.txt
"""

import re
import statistics
import sys
from collections import defaultdict

HEADER = re.compile(r"^== n=(\d+) (\w+) run \d+: (C|Python)$")
TIMES = re.compile(r"first solve ([0-9.]+) s, repeated solve ([0-9.]+) s")
ITS = {"C": re.compile(r", (\d+) its, "), "Python": re.compile(r", (\d+) iterations")}


def parse(lines):
    """{(n, ksp, program): [(first, repeated, its), ...]}, the GPU's name and the example's arrays"""
    runs, gpu, key, arrays = defaultdict(list), "?", None, "CuPy arrays"
    for line in lines:
        if line.startswith("no CuPy"):  # the example's arrays were made on the host and copied up by PETSc
            arrays = "host arrays, no CuPy"
        if line.startswith("GPU: "):
            gpu = line[5:].strip()
        m = HEADER.match(line.strip())
        if m:
            key = (int(m[1]), m[2], m[3])
            continue
        t = TIMES.search(line)
        if key and t and ITS[key[2]].search(line):
            runs[key].append((float(t[1]), float(t[2]), int(ITS[key[2]].search(line)[1])))
            key = None
    return runs, gpu, arrays


def table(runs, gpu, arrays):
    out = [f"Python (petsc4py, {arrays}) against C, the same solve, {gpu}; medians of {{runs}} runs each; ratio Python / C", "",
           "| n (rows) | solver | C first s | Python first s | ratio | C repeated s | Python repeated s | ratio | iterations C / Python |",
           "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    counts = set()
    for n, ksp in sorted({(k[0], k[1]) for k in runs}):
        c, p = runs.get((n, ksp, "C"), []), runs.get((n, ksp, "Python"), [])
        if not c or not p:
            out.append(f"| {n}^3 ({n**3}) | {ksp} | {'no C run' if not c else ''} {'no Python run' if not p else ''} |")
            continue
        counts.update((len(c), len(p)))
        med = [[statistics.median(r[i] for r in runs_) for i in range(2)] for runs_ in (c, p)]
        its = [sorted({r[2] for r in runs_}) for runs_ in (c, p)]
        out.append(f"| {n}^3 ({n**3}) | {ksp} | {med[0][0]:.4f} | {med[1][0]:.4f} | {med[1][0] / med[0][0]:.3f} | {med[0][1]:.4f} | "
                   f"{med[1][1]:.4f} | {med[1][1] / med[0][1]:.3f} | {','.join(map(str, its[0]))} / {','.join(map(str, its[1]))} |")
    out[0] = out[0].format(runs="/".join(map(str, sorted(counts))) or "no")
    return "\n".join(out)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(table(*parse(f)))
