#!/usr/bin/env python3
#===- run.py - gpucg's compile-time benchmark ------------------------------===#
#
#   bench/compile-time/run.py [options] [KERNEL.mlir ...]
#
# For each kernel (default: examples/matmul_4096_f16.mlir), on one core
# (`taskset -c CPU`), best of N runs:
#   gpucg-opt  seconds of the whole `gpucg-opt` process from source to cubin:
#              gpucg-opt KERNEL --mlir-timing --pass-pipeline=
#                'builtin.module(gpucg-compile{chip=CHIP format=bin output-dir=DIR})'
#              (process start, parsing, every pass, the serialization with the
#              ptxas it runs, printing).
#   passes     the `--mlir-timing` total of that best run (the pass manager's
#              wall time, parser and printer included, process start-up not).
#   ptxas      seconds of ptxas alone on the same kernel's PTX (written once,
#              untimed, by gpucg-compile{format=isa}), with the same flags:
#              the part of `gpucg-opt` that is NVIDIA's, not gpucg's.
# and checks `gpucg-opt` against the target (--target, 0.3 s).
#
# Until gpucg-opt registers gpucg-compile, it measures
# `builtin.module(gpucg-matmul-mma-sync{chip=CHIP})` instead (the gpucg passes,
# no lowering, no serialization, no ptxas) and says so on every line: those
# numbers are not source-to-cubin times.
#
# docs/performance.md says how to run it and holds the results.
#
#===----------------------------------------------------------------------===#
"""gpucg's compile-time benchmark: source to cubin on one core."""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_KERNELS = [os.path.join(ROOT, "examples", "matmul_4096_f16.mlir")]


def parse_args():
    parser = argparse.ArgumentParser(
        description="Seconds from linalg source to cubin, per kernel, on one "
                    "core, best of N runs (see the file's header).")
    parser.add_argument("kernels", nargs="*", default=DEFAULT_KERNELS,
                        help="kernel files (default: examples/matmul_4096_f16.mlir)")
    parser.add_argument("--gpucg-opt", default=os.environ.get(
        "GPUCG_OPT", os.path.join(ROOT, "build", "bin", "gpucg-opt")),
        help="gpucg-opt to measure (default: $GPUCG_OPT, else build/bin/gpucg-opt)")
    parser.add_argument("--ptxas", default=None,
                        help="ptxas to measure (default: PATH's, else "
                             "/usr/local/cuda/bin/ptxas)")
    parser.add_argument("--chip", default="sm_80", help="target chip (default sm_80)")
    parser.add_argument("--runs", type=int, default=5,
                        help="runs per measurement; the best is reported (default 5)")
    parser.add_argument("--cpu", type=int, default=0,
                        help="the one CPU to run on, taskset -c CPU (default 0)")
    parser.add_argument("--target", type=float, default=0.3,
                        help="seconds gpucg-opt may take per kernel (default 0.3)")
    parser.add_argument("--pipeline", choices=["auto", "compile", "mma-sync"],
                        default="auto",
                        help="compile: gpucg-compile; mma-sync: the fallback "
                             "gpucg-matmul-mma-sync; auto: compile when registered")
    parser.add_argument("--timing-report", action="store_true",
                        help="also print the --mlir-timing report of each best run")
    parser.add_argument("--keep", metavar="DIR",
                        help="write the outputs (cubins, PTX) into DIR and keep them")
    return parser.parse_args()


def pinned(cpu, command):
    """`command` pinned to one CPU with taskset (sched_setaffinity without it)."""
    if shutil.which("taskset"):
        return ["taskset", "-c", str(cpu)] + command, None
    return command, lambda: os.sched_setaffinity(0, {cpu})


def best_of(runs, cpu, command):
    """(best wall seconds, that run's stderr) over `runs` runs, or raises."""
    argv, preexec = pinned(cpu, command)
    best, best_err = None, ""
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, preexec_fn=preexec)
        seconds = time.perf_counter() - start
        if result.returncode != 0:
            raise RuntimeError(first_error(result.stderr) or
                               "exit status %d" % result.returncode)
        if best is None or seconds < best:
            best, best_err = seconds, result.stderr
    return best, best_err


def first_error(stderr):
    for line in stderr.splitlines():
        if "error" in line:
            return line.strip()
    lines = stderr.strip().splitlines()
    return lines[0].strip() if lines else ""


def mlir_timing_total(stderr):
    m = re.search(r"^\s*([0-9.]+) \(\s*100\.0%\)\s+Total\s*$", stderr, re.M)
    return float(m.group(1)) if m else None


def has_pass(gpucg_opt, flag):
    try:
        out = subprocess.run([gpucg_opt, "--help"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return re.search(r"^\s*--%s\s" % re.escape(flag), out, re.M) is not None


def find_ptxas(option):
    if option:
        return option
    return shutil.which("ptxas") or (
        "/usr/local/cuda/bin/ptxas" if os.access("/usr/local/cuda/bin/ptxas", os.X_OK)
        else None)


def tool_version(tool):
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return "?"
    m = re.search(r"release [0-9.]+, V([0-9.]+)", out)
    return m.group(1) if m else "?"


def measure(args, kernel, compile_mode, ptxas, workdir):
    """One table row: {name, gpucg, passes, ptxas, note}."""
    name = os.path.splitext(os.path.basename(kernel))[0]
    row = dict(name=name, gpucg=None, passes=None, ptxas=None, note="")
    out_dir = os.path.join(workdir, name)
    os.makedirs(out_dir, exist_ok=True)
    if compile_mode:
        pipeline = ("builtin.module(gpucg-compile{chip=%s format=bin output-dir=%s})"
                    % (args.chip, out_dir))
    else:
        pipeline = "builtin.module(gpucg-matmul-mma-sync{chip=%s})" % args.chip
    command = [args.gpucg_opt, kernel, "--mlir-timing", "--pass-pipeline=" + pipeline,
               "-o", os.devnull]
    try:
        row["gpucg"], stderr = best_of(args.runs, args.cpu, command)
    except RuntimeError as e:
        row["note"] = "gpucg-opt failed: " + str(e)
        return row
    row["passes"] = mlir_timing_total(stderr)
    if args.timing_report:
        print("--- %s: --mlir-timing of the best run\n%s" % (name, stderr.strip()))
    if not compile_mode:
        row["note"] = "FALLBACK gpucg-matmul-mma-sync: no lowering, no ptxas"
        return row
    if not ptxas:
        row["note"] = "no ptxas"
        return row
    # The PTX that the cubin came from, written once, untimed.
    ptx_dir = os.path.join(workdir, name + ".ptx")
    os.makedirs(ptx_dir, exist_ok=True)
    isa = subprocess.run(
        [args.gpucg_opt, kernel, "-o", os.devnull, "--pass-pipeline="
         "builtin.module(gpucg-compile{chip=%s format=isa output-dir=%s})" % (args.chip, ptx_dir)],
        capture_output=True, text=True)
    ptx_files = sorted(f for f in os.listdir(ptx_dir) if f.endswith(".ptx"))
    if isa.returncode != 0 or not ptx_files:
        row["note"] = "no PTX for ptxas: " + (first_error(isa.stderr) or "format=isa wrote none")
        return row
    total = 0.0
    for ptx in ptx_files:
        path = os.path.join(ptx_dir, ptx)
        try:
            seconds, _ = best_of(args.runs, args.cpu, [
                ptxas, "-arch=" + args.chip, "-O3", path, "-o", path[:-4] + ".cubin"])
        except RuntimeError as e:
            row["note"] = "ptxas failed on %s: %s" % (ptx, e)
            return row
        total += seconds
    row["ptxas"] = total
    return row


def seconds(value):
    return "%.3f" % value if value is not None else "-"


def main():
    args = parse_args()
    if not os.access(args.gpucg_opt, os.X_OK):
        sys.exit("run.py: no gpucg-opt at %s (build it: scripts/build.sh, or --gpucg-opt)"
                 % args.gpucg_opt)
    registered = has_pass(args.gpucg_opt, "gpucg-compile")
    if args.pipeline == "compile" and not registered:
        sys.exit("run.py: %s has no gpucg-compile pipeline" % args.gpucg_opt)
    compile_mode = args.pipeline == "compile" or (args.pipeline == "auto" and registered)
    ptxas = find_ptxas(args.ptxas)

    print("gpucg compile-time benchmark: best of %d runs, one core (taskset -c %d), chip %s"
          % (args.runs, args.cpu, args.chip))
    print("machine: %s, %d CPUs online" % (cpu_model(), os.cpu_count() or 0))
    print("gpucg-opt: %s" % args.gpucg_opt)
    if compile_mode:
        print("pipeline: gpucg-compile{chip=%s format=bin output-dir=DIR} (source to cubin)"
              % args.chip)
    else:
        print("pipeline: gpucg-matmul-mma-sync{chip=%s} -- FALLBACK: this gpucg-opt has "
              "no gpucg-compile; gpucg passes only, not source to cubin" % args.chip)
    print("ptxas: %s" % ("%s (V%s)" % (ptxas, tool_version(ptxas)) if ptxas else "none"))
    print()

    workdir = args.keep or tempfile.mkdtemp(prefix="gpucg-compile-time.")
    rows = [measure(args, os.path.abspath(k), compile_mode, ptxas, workdir)
            for k in args.kernels]
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)

    width = max([len("kernel")] + [len(r["name"]) for r in rows])
    print("%-*s  %9s  %8s  %7s  %s" % (width, "kernel", "gpucg-opt", "passes", "ptxas",
                                       "target %.2f s" % args.target))
    failed = over = False
    for r in rows:
        if r["gpucg"] is None:
            verdict = "FAILED"
            failed = True
        elif r["gpucg"] <= args.target:
            verdict = "ok"
        else:
            verdict = "OVER"
            over = True
        if not compile_mode and r["gpucg"] is not None:
            verdict += " (partial)"
        print("%-*s  %9s  %8s  %7s  %s%s" % (
            width, r["name"], seconds(r["gpucg"]), seconds(r["passes"]),
            seconds(r["ptxas"]), verdict, "  " + r["note"] if r["note"] else ""))
    print()
    print("seconds; gpucg-opt: the whole process, source to %s; passes: its --mlir-timing "
          "total; ptxas: ptxas alone on its PTX" % ("cubin" if compile_mode else "tiled IR"))
    return 1 if failed else 0


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
