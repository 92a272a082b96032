#!/usr/bin/env python3
"""Compares the events of two PETSc -log_view reports, stage by stage: where one run spends the time the other does not.

    bench/logdiff.py A.txt B.txt [--stage NAME] [--most N]
    bench/logdiff.py RUN.txt --case LABEL_A --case LABEL_B      (two reports inside one file, e.g. a bench's multi.txt)

A report is the text -log_view prints (with -log_view_gpu_time its GPU events have times; without, PETSc prints n/a and
the event counts as 0 s). Inside one file, the reports are taken in order and --case picks them by the "run"/label line
that precedes each (scripts/device-bench-multi prints the case's label before its report), or by number (0, 1, ...).
For the stage asked (default: every stage both reports have) prints each event's count, max time and the bytes it copied
to and from the GPU in both runs, sorted by B - A, so that the events that make B slower come first.
"""
import argparse
import re
import sys

NUMERIC_FIELDS = 26  # the columns after an event's name in PETSc 3.26's -log_view with GPU logging


def number(tok):
    try:
        return float(tok)
    except ValueError:
        return 0.0  # n/a


def parse_reports(text):
    """[(label, {stage: {event: (count, time, h2d_mb, d2h_mb)}})] for each -log_view report in text"""
    reports, stages, stage, last_label = [], None, None, None
    for line in text.splitlines():
        m = re.match(r"^(\S+)\s+\S+\.bin\b|^(\S+)\s+.*\bnp=\d+", line)
        if m and stages is None:
            last_label = m.group(1) or m.group(2)
        if "PETSc Performance Summary" in line:
            stages, stage = {}, None
            reports.append((last_label, stages))
            continue
        if stages is None:
            continue
        m = re.match(r"^--- Event Stage \d+: (.*)$", line)
        if m:
            stage = m.group(1).strip()
            stages[stage] = {}
            continue
        if line.startswith("Object Type"):  # the objects' table, by stage again: the events are done
            stages, stage = None, None
            continue
        if stage is None:
            continue
        toks = line.split()
        if len(toks) <= NUMERIC_FIELDS:
            continue
        name = " ".join(toks[: len(toks) - NUMERIC_FIELDS])
        vals = toks[len(toks) - NUMERIC_FIELDS :]
        if not re.match(r"^\d+$", vals[0]):
            continue
        stages[stage][name] = (int(vals[0]), number(vals[2]), number(vals[22]), number(vals[24]))
    return reports


def pick(reports, key):
    if re.match(r"^\d+$", key):
        return reports[int(key)]
    for r in reports:
        if r[0] == key:
            return r
    sys.exit(f"logdiff: no report labelled {key} (labels: {', '.join(str(r[0]) for r in reports)})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--case", action="append", default=[], help="with one file: the label (or number) of a report; twice")
    ap.add_argument("--stage", help="only this stage")
    ap.add_argument("--most", type=int, default=25, help="events a stage (default 25)")
    args = ap.parse_args()
    if len(args.files) == 2 and not args.case:
        a = parse_reports(open(args.files[0]).read())[0]
        b = parse_reports(open(args.files[1]).read())[0]
    elif len(args.files) == 1 and len(args.case) == 2:
        reports = parse_reports(open(args.files[0]).read())
        a, b = pick(reports, args.case[0]), pick(reports, args.case[1])
    else:
        sys.exit("logdiff: give two reports, or one file and --case twice")
    stages = [s for s in a[1] if s in b[1] and (not args.stage or s == args.stage)]
    if not stages:
        sys.exit(f"logdiff: no stage in common{' named ' + args.stage if args.stage else ''}")
    print(f"A = {a[0]}, B = {b[0]}")
    for s in stages:
        ea, eb = a[1][s], b[1][s]
        names = sorted(set(ea) | set(eb), key=lambda n: -(eb.get(n, (0, 0.0))[1] - ea.get(n, (0, 0.0))[1]))
        print(f"\nstage {s}")
        print(f"{'event':<24} {'count A':>8} {'count B':>8} {'s A':>9} {'s B':>9} {'B - A':>9} {'MB to GPU A/B':>17} {'MB back A/B':>15}")
        for n in names[: args.most]:
            ca, ta, ha, da = ea.get(n, (0, 0.0, 0.0, 0.0))
            cb, tb, hb, db = eb.get(n, (0, 0.0, 0.0, 0.0))
            print(f"{n[:24]:<24} {ca:>8} {cb:>8} {ta:>9.4f} {tb:>9.4f} {tb - ta:>+9.4f} {ha:>8.0f}/{hb:<8.0f} {da:>7.0f}/{db:<7.0f}")


if __name__ == "__main__":
    main()
