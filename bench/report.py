#!/usr/bin/env python3
"""A Markdown table of a benchmark run, for docs/performance.md.

    bench/report.py --gpucg gpucg.csv [--triton triton.csv] [--group]

One row per case of gpucg-bench's CSV, in its order: the case, its shape and
types, gpucg's and cuBLAS's TFLOP/s (medians), their ratio, Triton's TFLOP/s
and gpucg's ratio to it when triton_matmul.py's CSV is given (joined on the
case key), gpucg's registers and shared memory, and the check's result.
--group adds a heading line before each run of cases whose names share a
prefix (llama3-8b, square, ...). Numbers are printed as measured; a case
without one shows '-'.

Exit status: 0 written; 2 bad usage or CSV.
"""

import argparse
import sys

from plot import read_csv

TOOL = "report.py"


def number(row, column, digits):
    value = (row or {}).get(column, "")
    try:
        return f"{float(value):.{digits}f}"
    except ValueError:
        return "-"


def ratio(numerator, denominator):
    try:
        return f"{float(numerator) / float(denominator):.2f}"
    except (ValueError, ZeroDivisionError):
        return "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpucg", required=True, help="gpucg-bench --csv output")
    parser.add_argument("--triton", help="triton_matmul.py --csv output")
    parser.add_argument("--group", action="store_true",
                        help="a heading row per name prefix")
    args = parser.parse_args()

    _, rows = read_csv(args.gpucg, TOOL)
    triton = {}
    if args.triton:
        _, triton_rows = read_csv(args.triton, TOOL)
        triton = {row["key"]: row for row in triton_rows}

    columns = ["case", "M x N x K", "types", "gpucg TFLOP/s", "cuBLAS TFLOP/s",
               "gpucg / cuBLAS"]
    if triton:
        columns += ["Triton TFLOP/s", "gpucg / Triton"]
    columns += ["registers", "shared memory (B)", "check"]
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))
    group = None
    for row in rows:
        prefix = row["name"].split(".")[0].split("-")[0]
        if args.group and prefix != group:
            group = prefix
            print("| **" + prefix + "** |" + " |" * (len(columns) - 1))
        shared = "-"
        if row.get("static_shared_bytes", "").isdigit():
            shared = str(int(row["static_shared_bytes"]) +
                         int(row.get("dynamic_shared_bytes") or 0))
        cells = [row["name"], f"{row['m']} x {row['n']} x {row['k']}",
                 f"{row['in_type']} -> {row['acc_type']} {row['layout']}",
                 number(row, "gpucg_tflops", 2), number(row, "cublas_tflops", 2),
                 ratio(row.get("gpucg_tflops"), row.get("cublas_tflops"))]
        if triton:
            other = triton.get(row["key"])
            cells += [number(other, "triton_tflops", 2),
                      ratio(row.get("gpucg_tflops"),
                            (other or {}).get("triton_tflops"))]
        cells += [row.get("registers") or "-", shared, row["status"]]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
