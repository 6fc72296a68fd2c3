#!/usr/bin/env python3
"""A Markdown table of a benchmark run, for docs/performance.md.

    bench/report.py --gpucg gpucg.csv [--triton triton.csv] [--group]
    bench/report.py --gpucg gpucg.csv --variants [--triton triton.csv]

One row per case of gpucg-bench's CSV, in its order: the case, its shape and
types, gpucg's and cuBLAS's TFLOP/s (medians), their ratio, Triton's TFLOP/s
and gpucg's ratio to it when triton_matmul.py's CSV is given (joined on the
case key), gpucg's registers and shared memory, and the check's result.
--group adds a heading line before each run of cases whose names share a
prefix (llama3-8b, square, ...). Numbers are printed as measured; a case
without one shows '-'.

A CSV of several variants (gpucg-bench --kernels NAME=DIR ...) gets a
variant column; --variant NAME keeps one variant's rows; --variants prints
one row per case instead, with cuBLAS (and Triton) once and each variant's
TFLOP/s and ratio to cuBLAS side by side.

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


def group_of(row):
    return row["name"].split(".")[0].split("-")[0]


def print_variants(rows, variants, triton, group_rows):
    """One row per case: cuBLAS (and Triton) once, then each variant's
    TFLOP/s and ratio to cuBLAS; 'check' is the worst of the variants'."""
    by_case = {}
    for row in rows:
        by_case.setdefault(row["key"], {})[row.get("variant") or ""] = row
    columns = ["case", "M x N x K", "types", "cuBLAS TFLOP/s"]
    if triton:
        columns.append("Triton TFLOP/s")
    for variant in variants:
        columns += [f"{variant or 'gpucg'} TFLOP/s",
                    f"{variant or 'gpucg'} / cuBLAS"]
    columns.append("check")
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))
    group = None
    for key, per_variant in by_case.items():
        first = next(iter(per_variant.values()))
        if group_rows and group_of(first) != group:
            group = group_of(first)
            print("| **" + group + "** |" + " |" * (len(columns) - 1))
        cells = [first["name"], f"{first['m']} x {first['n']} x {first['k']}",
                 f"{first['in_type']} -> {first['acc_type']} {first['layout']}",
                 number(first, "cublas_tflops", 2)]
        if triton:
            cells.append(number(triton.get(key), "triton_tflops", 2))
        statuses = []
        for variant in variants:
            row = per_variant.get(variant)
            cells += [number(row, "gpucg_tflops", 2),
                      ratio((row or {}).get("gpucg_tflops"),
                            (row or {}).get("cublas_tflops"))]
            if row:
                statuses.append(row["status"])
        bad = [status for status in statuses if status != "ok"]
        cells.append(", ".join(dict.fromkeys(bad)) if bad else
                     ("ok" if statuses else "-"))
        print("| " + " | ".join(cells) + " |")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpucg", required=True, help="gpucg-bench --csv output")
    parser.add_argument("--triton", help="triton_matmul.py --csv output")
    parser.add_argument("--group", action="store_true",
                        help="a heading row per name prefix")
    parser.add_argument("--variant", metavar="NAME",
                        help="only the rows of this variant")
    parser.add_argument("--variants", action="store_true",
                        help="one row per case, the variants side by side")
    args = parser.parse_args()

    _, rows = read_csv(args.gpucg, TOOL)
    triton = {}
    if args.triton:
        _, triton_rows = read_csv(args.triton, TOOL)
        triton = {row["key"]: row for row in triton_rows}
    variants = list(dict.fromkeys(row.get("variant") or "" for row in rows))
    if args.variant is not None:
        if args.variant not in variants:
            print(f"{TOOL}: {args.gpucg} has no variant '{args.variant}' "
                  f"(it has: {', '.join(v or '(unnamed)' for v in variants)})",
                  file=sys.stderr)
            return 2
        rows = [row for row in rows if (row.get("variant") or "") == args.variant]
        variants = [args.variant]
    if args.variants:
        return print_variants(rows, variants, triton, args.group)

    with_variant = len(variants) > 1
    columns = ["case"] + (["variant"] if with_variant else []) + [
        "M x N x K", "types", "gpucg TFLOP/s", "cuBLAS TFLOP/s",
        "gpucg / cuBLAS"]
    if triton:
        columns += ["Triton TFLOP/s", "gpucg / Triton"]
    columns += ["registers", "shared memory (B)", "check"]
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))
    group = None
    for row in rows:
        prefix = group_of(row)
        if args.group and prefix != group:
            group = prefix
            print("| **" + prefix + "** |" + " |" * (len(columns) - 1))
        shared = "-"
        if row.get("static_shared_bytes", "").isdigit():
            shared = str(int(row["static_shared_bytes"]) +
                         int(row.get("dynamic_shared_bytes") or 0))
        cells = [row["name"]] + ([row.get("variant") or ""]
                                 if with_variant else []) + [
                 f"{row['m']} x {row['n']} x {row['k']}",
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
