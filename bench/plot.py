#!/usr/bin/env python3
"""TFLOP/s by shape for gpucg, cuBLAS and Triton, as a PNG.

    bench/plot.py --gpucg gpucg.csv [--triton triton.csv] --out tflops.png

Reads gpucg-bench's CSV (gpucg and cuBLAS columns) and, when given,
triton_matmul.py's (joined on the case key); draws one horizontal group of
bars per case, in the CSV's order, with the header's GPU and date in the
title. Cases without a number for a column (no gpucg kernel, an error) show
no bar there.

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

    labels, series = [], {"gpucg": [], "cuBLAS": [], "Triton": []}
    for row in rows:
        label = f"{row['name']}  {row['m']}x{row['n']}x{row['k']} " \
                f"{row['in_type']}->{row['acc_type']} {row['layout']}"
        if row["name"] == row["key"]:
            label = row["key"]
        labels.append(label)
        series["gpucg"].append(number(row, "gpucg_tflops"))
        series["cuBLAS"].append(number(row, "cublas_tflops"))
        series["Triton"].append(number(triton.get(row["key"], {}),
                                       "triton_tflops"))
    if not triton:
        del series["Triton"]

    bar = 0.8 / len(series)
    height = max(4.0, 0.12 * len(labels) * len(series) + 1.5)
    figure, axes = plt.subplots(figsize=(12, height))
    colors = {"gpucg": "#1f77b4", "cuBLAS": "#7f7f7f", "Triton": "#ff7f0e"}
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
