#!/usr/bin/env python3
"""bench/multireport.py MULTI.csv GPU.txt NGPU PLOT.png

Strong-scaling tables of scripts/device-bench-multi: for each problem and case, the first solve as a
user sees it (format set-up + KSP set-up + solve) and the MatMult() time on 1 and 2 ranks, the speed-up
against PETSc's own case (label ending in '-petsc') at the same rank count, and the speed-up from 1 to 2
ranks. The plot (matplotlib, when installed) shows the first-solve times against the rank count."""
import csv, sys
from collections import OrderedDict

rows = list(csv.DictReader(open(sys.argv[1])))
gpu = open(sys.argv[2]).read().strip() if len(sys.argv) > 2 else "?"
ngpu = int(sys.argv[3]) if len(sys.argv) > 3 else 0
plot = sys.argv[4] if len(sys.argv) > 4 else None


def first(r):
    return float(r["format_s"]) + float(r["first_s"])


cases = OrderedDict()
for r in rows:
    cases.setdefault((r["problem"], r["n"]), OrderedDict()).setdefault(r["label"], {})[int(r["np"])] = r
where = f"{ngpu} x {gpu}" if ngpu >= 2 else f"{gpu}, 2 ranks sharing it (not a multi-GPU measurement)"
for (problem, n), byl in cases.items():
    base = next((v for k, v in byl.items() if k.endswith("-petsc")), {})
    nrows = int(next(iter(next(iter(byl.values())).values()))["rows"])
    print(f"\n**{problem}, n = {n} ({nrows / 1e6:.2f} M rows), {where}, first solve with set-up**\n")
    print("| case | matrix | KSP | its (1 / 2 ranks) | 1 rank s | 2 ranks s | vs PETSc, 1 rank | vs PETSc, 2 ranks | 1 -> 2 ranks | MatMult ms 1 / 2 ranks |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---|")
    for label, by in byl.items():
        r1, r2 = by.get(1), by.get(2)
        any_r = r1 or r2
        def t(r):
            return f"{first(r):.3f}" if r and r["reason"].startswith("CONVERGED") else (r["reason"] if r else "-")
        def vs(r, p):
            b = base.get(p)
            return f"{first(b) / first(r):.2f}x" if r and b and r["reason"].startswith("CONVERGED") else "-"
        scale = f"{first(r1) / first(r2):.2f}x" if r1 and r2 else "-"
        mult = " / ".join(f"{float(r['mult_ms']):.3f}" if r and float(r["mult_ms"]) > 0 else "-" for r in (r1, r2))
        its = " / ".join(r["its"] if r else "-" for r in (r1, r2))
        print(f"| {label} | {any_r['mat_type']} | {any_r['ksp_type']} | {its} | {t(r1)} | {t(r2)} | {vs(r1, 1)} | {vs(r2, 2)} | {scale} | {mult} |")
if plot:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"\n(no matplotlib: {plot} not drawn)")
        sys.exit(0)
    fig, axes = plt.subplots(1, len(cases), figsize=(6 * len(cases), 4.5), squeeze=False)
    for ax, ((problem, n), byl) in zip(axes[0], cases.items()):
        for label, by in byl.items():
            ps = sorted(p for p, r in by.items() if r["reason"].startswith("CONVERGED"))
            ax.plot(ps, [first(by[p]) for p in ps], marker="o", label=label)
        ax.set_xticks([1, 2])
        ax.set_xlabel("ranks (one GPU each)" if ngpu >= 2 else "ranks (sharing one GPU)")
        ax.set_ylabel("first solve with set-up, s")
        ax.set_title(f"{problem} {n}^3, {gpu}")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(plot, dpi=120)
