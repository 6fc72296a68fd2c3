#!/usr/bin/env python3
"""TFLOP/s by shape for gpucg, cuBLAS and Triton, as a PNG.

    bench/plot.py --gpucg gpucg.csv [--triton triton.csv] --out tflops.png

Reads gpucg-bench's CSV (gpucg and cuBLAS columns) and, when given,
triton_matmul.py's (joined on the case key); draws one horizontal group of
bars per case, in the CSV's order, with the header's GPU and date in the
title. Cases without a number for a column (no gpucg kernel, an error) show
no bar there. A CSV of several variants (gpucg-bench --kernels NAME=DIR
...) gets one gpucg bar per variant.

Exit status: 0 written; 2 bad usage or CSV; 77 skipped: matplotlib cannot
be imported (the reason is printed).
"""

import argparse
import csv
import math
import sys

EXIT_SKIPPED = 77
TOOL = "plot.py"


def read_csv(path, tool=TOOL):
    """(header comment lines, rows as dicts) of a gpucg-bench-style CSV;
    errors are printed as `tool`'s."""
    comments, lines = [], []
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("#"):
                    comments.append(line[1:].strip())
                elif line.strip():
                    lines.append(line)
    except OSError as error:
        print(f"{tool}: cannot read {path}: {error.strerror}", file=sys.stderr)
        sys.exit(2)
    rows = list(csv.DictReader(lines))
    if rows and "key" not in rows[0]:
        print(f"{tool}: {path} has no 'key' column", file=sys.stderr)
        sys.exit(2)
    return comments, rows


def number(row, column):
    try:
        value = float(row.get(column) or "nan")
    except ValueError:
        return math.nan
    return value


def header_value(comments, prefix):
    for line in comments:
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    return ""


def main():
    parser = argparse.ArgumentParser(
        description="Plot TFLOP/s of gpucg, cuBLAS and Triton by shape.")
    parser.add_argument("--gpucg", required=True, metavar="CSV",
                        help="gpucg-bench --csv output")
    parser.add_argument("--triton", metavar="CSV",
                        help="triton_matmul.py --csv output")
    parser.add_argument("--out", required=True, metavar="PNG")
    parser.add_argument("--title", default=None)
    args = parser.parse_args()

    comments, rows = read_csv(args.gpucg)
    triton = {}
    if args.triton:
        _, triton_rows = read_csv(args.triton)
        triton = {row["key"]: row for row in triton_rows}
    if not rows:
        print(f"{TOOL}: {args.gpucg} has no rows", file=sys.stderr)
        return 2

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        print(f"{TOOL}: skipped: cannot import matplotlib ({error})",
              file=sys.stderr)
        return EXIT_SKIPPED

    # One bar group per case (in the CSV's order), one gpucg bar per
    # variant.
    variants = list(dict.fromkeys(row.get("variant") or "" for row in rows))
    cases = {}
    for row in rows:
        cases.setdefault(row["key"], {})[row.get("variant") or ""] = row
    gpucg_series = [f"gpucg {variant}" if variant else "gpucg"
                    for variant in variants]
    labels = []
    series = {name: [] for name in gpucg_series + ["cuBLAS", "Triton"]}
    for key, per_variant in cases.items():
        row = next(iter(per_variant.values()))
        label = f"{row['name']}  {row['m']}x{row['n']}x{row['k']} " \
                f"{row['in_type']}->{row['acc_type']} {row['layout']}"
        if row["name"] == row["key"]:
            label = row["key"]
        labels.append(label)
        for variant, name in zip(variants, gpucg_series):
            series[name].append(number(per_variant.get(variant, {}),
                                       "gpucg_tflops"))
        series["cuBLAS"].append(number(row, "cublas_tflops"))
        series["Triton"].append(number(triton.get(key, {}), "triton_tflops"))
    if not triton:
        del series["Triton"]

    bar = 0.8 / len(series)
    height = max(4.0, 0.12 * len(labels) * len(series) + 1.5)
    figure, axes = plt.subplots(figsize=(12, height))
    palette = ["#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
               "#17becf", "#bcbd22", "#d62728"]
    colors = {name: palette[i % len(palette)]
              for i, name in enumerate(gpucg_series)}
    colors.update({"cuBLAS": "#7f7f7f", "Triton": "#ff7f0e"})
    for index, (name, values) in enumerate(series.items()):
        positions = [i + (index - (len(series) - 1) / 2) * bar
                     for i in range(len(labels))]
        shown = [0.0 if math.isnan(v) else v for v in values]
        axes.barh(positions, shown, height=bar, label=name, color=colors[name])
    axes.set_yticks(range(len(labels)))
    axes.set_yticklabels(labels, fontsize=7)
    axes.set_ylim(len(labels) - 0.5, -0.5)  # first case on top
    axes.set_xlabel("TFLOP/s (median of the timed runs)")
    axes.grid(axis="x", alpha=0.3)
    axes.legend(loc="lower right")
    gpu = header_value(comments, "gpu:")
    date = header_value(comments, "date:")
    commit = header_value(comments, "commit:")
    axes.set_title(args.title or
                   f"gpucg vs cuBLAS{' vs Triton' if triton else ''}\n"
                   f"{gpu}; {date}; gpucg {commit}", fontsize=9)
    figure.tight_layout()
    figure.savefig(args.out, dpi=120)
    print(f"{TOOL}: wrote {args.out} ({len(labels)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
