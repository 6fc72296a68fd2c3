#!/usr/bin/env python3
"""One prepared GPU run: everything not yet measured, in a few minutes.

    scripts/gpu-run.sh plan [--smoke]                 the plan: cases, runs, device time
    scripts/gpu-run.sh prepare DIR [--smoke] [-j N]   here (MLIR, no GPU): compile it all
    scripts/gpu-run.sh run DIR [--budget S] [--export OUT]
                                                      there (CUDA, cuBLAS, PyTorch, Triton)
    scripts/gpu-run.sh run DIR --dry-run              here: the whole flow, no GPU
    scripts/gpu-run.sh report DIR                     the summary again, from DIR/results
    scripts/gpu-run.sh record RESULTS                 here: into docs/performance.md

A GPU is lent to a session now and then, for about a quarter of an hour in
all, start-up, transfers and a retry included. `prepare` compiles on the
MLIR machine everything such a run needs into DIR: the GPU tests
(scripts/gpu-bundle.sh prepare), the matmul subset below for six variants
(mma.sync on sm_90; on sm_90a warpgroup MMA plain, on a persistent grid, in
2x1 clusters, with staged stores, with tiles in groups of 8 rows), the
memory-bound kernels and the linear layers with fused epilogues. `run` then does, on the GPU machine, most valuable
first, each step under its share of the budget (the default 480 s of wall
time), which it checks as it goes: a step that reaches the end of its share
stops cleanly, keeps what finished, and what a step leaves unused goes to
the next:

  1. correctness: builds the C side (gpucg-bench in the background while
     the tests that need only the runtime run), every prepared GPU test
     through the bundle (wgmma, fp8 and cluster kernels against cuBLAS),
     compute-sanitizer memcheck on a few small cases of four variants;
  2. matmul: gpucg-bench over every variant in one process (each case's
     inputs made and cuBLAS checked and timed once), then Triton's GEMM on
     the same cases (its kernels compiled into Triton's cache by processes
     started at the beginning, alongside steps 1 and 2);
  3. memory: the memory-bound kernels against the copy bandwidth;
  4. fused: linear layers with fused epilogues (bias, ReLU, GELU, SiLU)
     against the same matmul without one, cuBLASLt's fused epilogues and
     Triton (bench/fused_epilogue.py);
  5. profile: Nsight Compute metrics (DRAM and L2 bytes, SM throughput,
     eligible warps) of the two kernels furthest from cuBLAS.

Timed runs stop early where the spread allows (gpucg-bench --max-seconds,
--spread). Results go to DIR/results: the CSVs, report.md (bench/report.py
tables), tflops.png, summary.md (per family and variant the geometric-mean
ratio to cuBLAS and Triton and the worst case), plan.txt with each step's
estimate, budget and time used, and run.log; --export OUT copies
summary.md, run.log and a tarball of the results into OUT (three files, for
a device call's $OUT). `record` writes a run's results into
docs/performance.md (date, GPU, driver, commit) and bench/results/.

`run --dry-run` executes the same flow here: the same builds, the GPU probe
on the runtime's fake driver, every prepared file checked (gpucg-bench and
memory_bound.py --dry-run read every kernel's .abi file), the profiling
command printed instead of run, and the report skeleton written (no number
is measured). The plan's device-time estimates come from the cases and
runs: the last measured time of a case where bench/results/ has one, else
the chip's rate for its types.

Exit status: 0 done; 1 a test or check failed, or a step failed; 2 bad
usage or input; 77 run without a GPU (and without --dry-run).
"""

import argparse
import csv
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(BENCH_DIR)
sys.path.insert(0, BENCH_DIR)
import benchcases  # noqa: E402

TOOL = "gpu-run"
EXIT_NO_GPU = 77
DEFAULT_BUDGET = 480.0


# ---------------------------------------------------------------------------
# What is measured
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Variant:
    name: str
    chip: str
    compile_args: tuple  # bench/compile_kernels.py options
    what: str


VARIANTS = (
    Variant("sm_90", "sm_90", (), "mma.sync (sm_90)"),
    Variant("sm_90a", "sm_90a", (),
            "sm_90a: warpgroup MMA where the strategy takes it"),
    Variant("sm_90a-persistent", "sm_90a", ("--wgmma-persistent",),
            "sm_90a, a persistent grid of one workgroup per SM"),
    Variant("sm_90a-cluster2x1", "sm_90a", ("--wgmma-cluster", "2x1"),
            "sm_90a, 2x1 thread-block clusters sharing B by TMA multicast"),
    Variant("sm_90a-staged", "sm_90a", ("--wgmma-staged-store",),
            "sm_90a, C stored through shared memory in 16-byte stores"),
    # The default order groups a wgmma matmul's tiles by 8 rows where it
    # has more than one wave (getDefaultWorkgroupOrder): this variant
    # measures the launch order against it.
    Variant("sm_90a-rows", "sm_90a", ("--workgroup-group-size", "1"),
            "sm_90a, tiles started row by row (the launch order)"),
    # Split-K on the small-M layers, whose mma.sync plans already have more
    # tiles than SMs (so no default split): its cost and gain there, for the
    # default rule (getDefaultSplitK) to learn from.
    Variant("sm_90-split4", "sm_90", ("--split-k", "4"),
            "mma.sync (sm_90), each tile's K loop in 4 parts (split-K)"),
    # The Llama layers at M = 128 run 32 to 448 tiles of 128 x 128 on 132
    # SMs; those with fewer tiles than SMs split by default (8 parts for
    # 32 tiles): this measures a fixed 4.
    Variant("sm_90a-split4", "sm_90a", ("--split-k", "4"),
            "sm_90a, each tile's K loop in 4 parts (split-K, staged)"),
    # K whole: the plans before the default split (2026-11-29), to measure
    # the default against: one-warp 16 x 16 tiles at M = 16 on sm_90 (the
    # small-M tiles need the split to fill the SMs), unsplit wgmma tiles
    # on sm_90a.
    Variant("sm_90-split1", "sm_90", ("--split-k", "1"),
            "mma.sync (sm_90), K whole (one-warp tiles at M = 16)"),
    Variant("sm_90a-split1", "sm_90a", ("--split-k", "1"),
            "sm_90a, K whole"),
    # Stream-K on the persistent grid of one workgroup per SM: the tiles'
    # K steps split evenly over the SMs, for the layers at M = 128 (32 to
    # 448 tiles on 132 SMs) and the unaligned set (1000^3: 64 tiles), where
    # whole tiles leave SMs idle; what it gains against split-K and whole
    # tiles, before the strategy chooses it by itself.
    Variant("sm_90a-stream-k", "sm_90a", ("--wgmma-stream-k",),
            "sm_90a, stream-K: the last waves' K steps split evenly over a "
            "persistent grid of one workgroup per SM"),
    # Kernels compiled for sizes known only at run time (M, N and K `?`,
    # the case's passed at launch): what a dynamic size costs against the
    # same case compiled static (the llama-m1024 family runs both).
    Variant("sm_90a-dynamic", "sm_90a", ("--dynamic-sizes",),
            "sm_90a, M, N and K dynamic (passed at launch)"),
    # The same on mma.sync, whose copies of rows of a run-time pitch are
    # register-staged, 16 bytes wide where a run-time check finds a row
    # aligned (gpucg-version-vector-alignment).
    Variant("sm_90-dynamic", "sm_90", ("--dynamic-sizes",),
            "mma.sync (sm_90), M, N and K dynamic (passed at launch)"),
)
VARIANT = {variant.name: variant for variant in VARIANTS}
BOTH = ("sm_90", "sm_90a")
ALL = ("sm_90", "sm_90a", "sm_90a-persistent", "sm_90a-cluster2x1",
       "sm_90a-staged", "sm_90a-rows")
WGMMA = ALL[1:]  # fp8: no mma.sync kernel
SPLIT = ALL + ("sm_90-split4", "sm_90a-split4", "sm_90a-split1",
               "sm_90a-stream-k")


@dataclass(frozen=True)
class Family:
    name: str
    what: str
    shapes: str  # a file of bench/shapes/
    pick: object  # Case -> bool
    variants: tuple


def _square(sizes, types):
    return lambda c: (c.m == c.n == c.k and c.m in sizes and
                      c.in_type in types and c.acc_type != "f16")


# In the order they run: a run that reaches its deadline loses the last.
FAMILIES = (
    Family("square", "squares 4096 and 8192, f16 and bf16 -> f32",
           "squares.txt", _square((4096, 8192), ("f16", "bf16")), ALL),
    Family("llama-m4096", "Llama-3 8B/70B linear layers, M = 4096 (bf16)",
           "llama3.txt", lambda c: c.m == 4096, ALL),
    Family("llama-m128", "Llama-3 8B/70B linear layers, M = 128 (bf16)",
           "llama3.txt", lambda c: c.m == 128, SPLIT),
    Family("unaligned", "the unaligned set (bench/shapes/unaligned.txt)",
           "unaligned.txt", lambda c: True, BOTH + ("sm_90a-stream-k",)),
    Family("fp8", "8-bit floats: squares, Llama-3-8B at M = 4096",
           "fp8.txt", lambda c: not c.name.startswith("check-") and (
               c.name.startswith("square-") or c.m == 4096), WGMMA),
    Family("wgrad-t4096", "Llama-3 8B weight gradients dW = dY^T x, "
           "4096 tokens (bf16, tn)", "weight-gradients.txt",
           lambda c: c.k == 4096, ALL),
    Family("llama-m16", "Llama-3 8B/70B linear layers, M = 16 (bf16)",
           "llama3.txt", lambda c: c.m == 16,
           BOTH + ("sm_90-split1", "sm_90a-split1")),
    Family("layouts", "Llama-3 8B stored nn, tn and tt: qkv at M = 4096, "
           "down at M = 16 (bf16)", "layouts.txt",
           lambda c: (c.m, c.n) in ((4096, 6144), (16, 4096)), BOTH),
    Family("llama-m1", "Llama-3 8B/70B linear layers, M = 1 (bf16)",
           "llama3.txt", lambda c: c.m == 1, BOTH),
    Family("tf32", "f32 as TF32, squares 4096 and 8192", "squares.txt",
           _square((4096, 8192), ("f32",)), BOTH),
    Family("i8", "i8 -> i32, 4096 with B as K x N and N x K", "other-types.txt",
           lambda c: c.in_type == "i8" and c.m == 4096, BOTH),
    Family("llama-m1024", "Llama-3 8B/70B linear layers, M = 1024 (bf16), "
           "compiled static and with M, N and K dynamic", "llama3.txt",
           lambda c: c.m == 1024,
           ("sm_90", "sm_90-dynamic", "sm_90a", "sm_90a-dynamic")),
)

# A few small cases of each kind of step, for the dry run in `make check`.
SMOKE_FAMILIES = (
    Family("square", "check-aligned-f16 (128x128x64)", "check.txt",
           lambda c: c.name == "check-aligned-f16",
           ("sm_90", "sm_90a", "sm_90a-persistent")),
    Family("unaligned", "check-unaligned-bf16 (37x33x32)", "check.txt",
           lambda c: c.name == "check-unaligned-bf16", BOTH),
    Family("fp8", "check-f8-e4m3 (256x256x512)", "fp8.txt",
           lambda c: c.name == "check-f8-e4m3", ("sm_90a",)),
)
MEMORY_SMOKE_FILTER = r"^add_f16_2\^20$"
FUSED_SMOKE_FILTER = r"^linear_1000x1000x1000_(cast|bias_gelu_tanh)$"

# compute-sanitizer memcheck (step 1): small check.txt cases on the
# bundle's kernels of four variants.
MEMCHECK_FILTERS = ("check-aligned-f16", "check-unaligned-f16",
                    "check-aligned-bf16-nt")
MEMCHECK_KERNELS = (("sm_90", "native"), ("sm_90a", "sm90a"),
                    ("sm_90a-persistent", "sm90a-persistent"),
                    ("sm_90a-cluster2x1", "sm90a-cluster2x1"))

# How gpucg-bench and triton_matmul.py time (the plan's estimates use it).
TIMING = {"warmup": 3, "iterations": 100, "min_iterations": 10,
          "max_seconds": 0.2, "spread": 0.01, "batch": 10}

NCU_METRICS = (
    ("gpu__time_duration.sum", "time"),
    ("dram__bytes_read.sum", "DRAM read"),
    ("dram__bytes_write.sum", "DRAM written"),
    ("lts__t_bytes.sum", "L2 bytes"),
    ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM throughput %"),
    ("smsp__warps_eligible.avg.per_cycle_active",
     "eligible warps / scheduler / cycle"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active",
     "achieved occupancy %"),
    ("launch__registers_per_thread", "registers"),
)


@dataclass
class Step:
    name: str
    what: str
    budget: float  # seconds of the run's budget
    estimate: float = 0.0
    detail: str = ""


STEP_SHARES = (  # fractions of the budget, in order
    ("correctness", "build the C side; the GPU tests; compute-sanitizer "
     "memcheck", 0.18),
    ("matmul-gpucg", "gpucg-bench: every variant against cuBLAS", 0.29),
    ("matmul-triton", "Triton's GEMM on the same cases", 0.27),
    ("memory", "memory-bound kernels against the copy bandwidth", 0.05),
    ("fused", "linear layers with fused epilogues against cuBLASLt and "
     "Triton", 0.10),
    ("profile", "Nsight Compute on the two kernels furthest from cuBLAS",
     0.08),
    ("report", "tables, plot, summary, tarball", 0.03),
)


# ---------------------------------------------------------------------------
# The selection
# ---------------------------------------------------------------------------

def select_cases(families):
    """[(family, [Case])] in run order, each case once (first family)."""
    selected, seen = [], set()
    for family in families:
        path = os.path.join(BENCH_DIR, "shapes", family.shapes)
        try:
            cases = benchcases.read_shapes([path])
        except benchcases.ShapesError as error:
            fail(str(error))
        picked = [c for c in cases if family.pick(c) and c.key not in seen]
        seen.update(c.key for c in picked)
        if not picked:
            fail(f"family {family.name} selects no case of {family.shapes}")
        selected.append((family, picked))
    return selected


def shapes_text(selection, variant=None):
    """A shapes file of the selection (of one variant's families)."""
    lines = ["# gpucg-bench shapes written by bench/gpu_run.py "
             "(docs/Benchmark.md#one-prepared-gpu-run)"]
    for family, cases in selection:
        if variant and variant not in family.variants:
            continue
        lines.append(f"\n# {family.name}: {family.what}")
        for c in cases:
            lines.append(f"{c.m} {c.n} {c.k} {c.in_type} {c.acc_type} "
                         f"{c.layout} {c.name}")
    return "\n".join(lines) + "\n"


def memory_cases(smoke):
    import memory_bound
    pattern = MEMORY_SMOKE_FILTER if smoke else ""
    return [c for c in memory_bound.all_cases() if re.search(pattern, c.name)]


def fused_cases(smoke):
    """[(case, variants)]: bench/fused_epilogue.py's linear layers."""
    import fused_epilogue
    pattern = FUSED_SMOKE_FILTER if smoke else ""
    return [c for c in fused_epilogue.all_cases()
            if re.search(pattern, c.name)]


# Seconds per fused kernel on the H100 (the 2026-11-27 run: 40 s for 42,
# Triton's compiles and PyTorch's references included), and the start.
FUSED_SECONDS_PER_KERNEL = 0.8
FUSED_START_SECONDS = 10.0


# ---------------------------------------------------------------------------
# Estimates of device time
# ---------------------------------------------------------------------------

TYPE_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "i32": 4,
              "f8E4M3FN": 1, "f8E5M2": 1}
# cuBLAS's rate (TFLOP/s) on an H100 where no measurement says otherwise.
CUBLAS_TFLOPS = {"f16": 750, "bf16": 750, "f32": 350, "i8": 1000,
                 "f8E4M3FN": 1300, "f8E5M2": 1300}
MEMORY_BANDWIDTH = 2.5e12  # bytes/s, about an H100's copy rate
FLUSH_SECONDS = 45e-6      # gpucg-bench's memset of twice the L2
LAUNCH_SECONDS = 8e-6
HOST_FILL_SECONDS = 3e-9   # per input element: draw, encode
HOST_COPY_RATE = 6e9       # bytes/s, pageable copies
HOST_COMPARE_SECONDS = 1e-9  # per element of C compared
HOST_REFERENCE_LIMIT = 1 << 27


def previous_times():
    """key -> {"gpucg": s, "cublas": s, "triton": s}: the newest measured
    medians in bench/results/*/ (gpucg-bench's default or sm_90 rows)."""
    from plot import read_csv
    times = {}
    for directory in sorted(glob.glob(os.path.join(BENCH_DIR, "results",
                                                   "*"))):
        for name, columns in (("gpucg.csv", ("gpucg", "cublas")),
                              ("triton.csv", ("triton",))):
            path = os.path.join(directory, name)
            if not os.path.exists(path):
                continue
            _, rows = read_csv(path, TOOL)
            for row in rows:
                if (row.get("variant") or "sm_90") != "sm_90":
                    continue
                for column in columns:
                    try:
                        value = float(row.get(f"{column}_ms_median") or "")
                    except ValueError:
                        continue
                    times.setdefault(row["key"], {})[column] = value / 1e3
    return times


def case_bytes(c):
    return ((c.m * c.k + c.k * c.n) * TYPE_BYTES[c.in_type] +
            c.m * c.n * TYPE_BYTES[c.acc_type])


def cublas_seconds(c, previous):
    known = previous.get(c.key, {}).get("cublas")
    if known:
        return known
    rate = CUBLAS_TFLOPS[c.in_type]
    if c.in_type == "i8" and c.layout != "nt":
        # cuBLAS's int8 GEMM is fast only in its TN form, gpucg's `nt`
        # (H100, bench/results/2026-11-24-h100: 1380 TFLOP/s, `nn` 129);
        # shapes files refuse i8 `tn` and `tt`.
        rate = 130
    return max(c.flops / (rate * 1e12), case_bytes(c) / MEMORY_BANDWIDTH)


def gpucg_seconds(c, variant, previous):
    """The last measured time of the mma.sync kernel where there is one (a
    wgmma variant on a case the strategy does not give wgmma runs the same
    plan), else half of cuBLAS's rate."""
    known = previous.get(c.key, {}).get("gpucg")
    if known and variant == "sm_90":
        return known
    guess = cublas_seconds(c, previous) / 0.5
    return max(known or 0.0, guess) if variant != "sm_90" else guess


def timed_seconds(kernel):
    """Warm-up and timed runs of one kernel under TIMING (an upper bound:
    the spread may stop it sooner)."""
    batch = TIMING["batch"]
    runs = math.ceil(TIMING["max_seconds"] / kernel / batch) * batch
    runs = min(TIMING["iterations"], max(TIMING["min_iterations"], runs))
    return (TIMING["warmup"] + runs) * (kernel + FLUSH_SECONDS +
                                        LAUNCH_SECONDS)


def estimate_gpucg_case(c, variants, previous):
    inputs = c.m * c.k + c.k * c.n
    count_c = c.m * c.n
    bytes_c = count_c * TYPE_BYTES[c.acc_type]
    seconds = inputs * HOST_FILL_SECONDS + (
        inputs * TYPE_BYTES[c.in_type]) / HOST_COPY_RATE
    if c.m * c.n * c.k <= HOST_REFERENCE_LIMIT:
        seconds += c.m * c.n * c.k * 1e-9
    cublas = cublas_seconds(c, previous)
    seconds += bytes_c / HOST_COPY_RATE + count_c * HOST_COMPARE_SECONDS
    seconds += timed_seconds(cublas)
    for variant in variants:
        seconds += 0.02  # module load
        seconds += 2 * (bytes_c / HOST_COPY_RATE +
                        2 * count_c * HOST_COMPARE_SECONDS)
        seconds += timed_seconds(gpucg_seconds(c, variant, previous))
    return seconds


def estimate_triton_case(c, previous):
    kernel = previous.get(c.key, {}).get("triton") or cublas_seconds(
        c, previous) / 0.7
    autotune = 10 * max(0.125, 4 * kernel)  # do_bench per configuration
    reference = c.flops / 40e12 + 0.05      # torch.matmul in float64
    return autotune + reference + timed_seconds(kernel)


def triton_specializations(cases):
    import triton_matmul  # torch and Triton only when it runs a case
    keys = set()
    for c in cases:
        scalars = triton_matmul.kernel_scalars(c)
        keys.add((c.in_type, c.acc_type,
                  tuple((v == 1, v % 16 == 0) for v in scalars)))
    return len(keys)


def make_plan(selection, memory, fused, budget, smoke):
    """The steps with their budgets and estimates (seconds)."""
    previous = previous_times()
    steps = [Step(name, what, budget * share)
             for name, what, share in STEP_SHARES]
    by_name = {step.name: step for step in steps}
    cases = [(family, c) for family, picked in selection for c in picked]
    variant_runs = sum(len(family.variants) for family, _ in cases)

    bundle_tests = 6 if smoke else 19
    correctness = 25.0 + 1.5 * bundle_tests + 10.0 + 3.0 * len(MEMCHECK_KERNELS)
    by_name["correctness"].estimate = correctness
    by_name["correctness"].detail = (
        f"{bundle_tests} bundle tests, memcheck on "
        f"{len(MEMCHECK_FILTERS)} cases x {len(MEMCHECK_KERNELS)} variants")

    gpucg = 3.0 + sum(estimate_gpucg_case(c, family.variants, previous)
                      for family, c in cases)
    by_name["matmul-gpucg"].estimate = gpucg
    by_name["matmul-gpucg"].detail = (
        f"{len(cases)} cases, {variant_runs} case x variant kernels, "
        f"{len(cases)} cuBLAS; {TIMING['min_iterations']}-"
        f"{TIMING['iterations']} timed runs each, at most "
        f"{TIMING['max_seconds']} s")

    specializations = triton_specializations(c for _, c in cases)
    triton = 10.0 + sum(estimate_triton_case(c, previous) for _, c in cases)
    by_name["matmul-triton"].estimate = triton
    by_name["matmul-triton"].detail = (
        f"{len(cases)} cases, 10 configurations each; {specializations} "
        "specializations precompiled alongside steps 1-2")

    memory_seconds = 8.0 + sum(
        0.3 + (3 + 20) * (m.bytes_moved() / MEMORY_BANDWIDTH + LAUNCH_SECONDS)
        for m in memory)
    by_name["memory"].estimate = memory_seconds
    by_name["memory"].detail = f"{len(memory)} kernels, 20 timed runs each"

    import fused_epilogue
    fused_kernels = len(fused) * len(fused_epilogue.VARIANTS)
    by_name["fused"].estimate = (FUSED_START_SECONDS +
                                 FUSED_SECONDS_PER_KERNEL * fused_kernels)
    by_name["fused"].detail = (
        f"{len(fused)} cases x {len(fused_epilogue.VARIANTS)} variants "
        f"({fused_kernels} kernels)")

    by_name["profile"].estimate = 2 * 12.0
    by_name["profile"].detail = f"2 kernels, {len(NCU_METRICS)} metrics"
    by_name["report"].estimate = 5.0
    by_name["report"].detail = "report.py, plot.py, summary"
    return steps


def plan_text(plan, budget):
    lines = [f"{'step':14} {'estimate':>9} {'budget':>8}  what",
             f"{'-' * 14} {'-' * 9} {'-' * 8}  {'-' * 40}"]
    for step in plan:
        flag = "" if step.estimate <= step.budget else "  OVER ITS SHARE"
        lines.append(f"{step.name:14} {step.estimate:8.0f}s {step.budget:7.0f}s"
                     f"  {step.what}: {step.detail}{flag}")
    total = sum(step.estimate for step in plan)
    lines.append(f"{'total':14} {total:8.0f}s {budget:7.0f}s  "
                 f"({'fits' if total <= budget else 'DOES NOT FIT'} the "
                 f"budget; a step's unused share goes to the next)")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------

def fail(message, status=2):
    print(f"{TOOL}: error: {message}", file=sys.stderr)
    sys.exit(status)


def git_commit():
    try:
        commit = subprocess.run(
            ["git", "-C", SOURCE_DIR, "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", SOURCE_DIR, "status", "--porcelain",
             "--untracked-files=no"], capture_output=True, text=True,
            check=True).stdout.strip()
        return commit + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def geomean(values):
    values = [v for v in values if v and v > 0 and math.isfinite(v)]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def read_rows(path):
    """(header lines, rows) of a gpucg-bench-style CSV; ([], []) if none."""
    if not os.path.exists(path):
        return [], []
    from plot import read_csv
    return read_csv(path, TOOL)


def as_float(value):
    try:
        result = float(value)
    except (TypeError, ValueError):
        return None
    return result if math.isfinite(result) else None


# ---------------------------------------------------------------------------
# plan
# ---------------------------------------------------------------------------

def command_plan(args):
    families = SMOKE_FAMILIES if args.smoke else FAMILIES
    selection = select_cases(families)
    memory = memory_cases(args.smoke)
    fused = fused_cases(args.smoke)
    plan = make_plan(selection, memory, fused, args.budget, args.smoke)
    print(f"{TOOL}: plan for {'the smoke set' if args.smoke else 'the run'}"
          f", budget {args.budget:.0f} s of wall time on an H100")
    for family, cases in selection:
        print(f"  family {family.name}: {len(cases)} cases x "
              f"{len(family.variants)} variants ({', '.join(family.variants)})"
              f": {family.what}")
    print(f"  memory: {len(memory)} kernels")
    print(f"  fused: {len(fused)} linear layers (bench/fused_epilogue.py)")
    print(plan_text(plan, args.budget))
    total = sum(step.estimate for step in plan)
    return 0 if total <= args.budget else 1


# ---------------------------------------------------------------------------
# prepare
# ---------------------------------------------------------------------------

def run_logged(command, log, env=None, cwd=None):
    """Runs `command`, its output appended to `log`; returns its status."""
    with open(log, "a", encoding="utf-8") as handle:
        handle.write("$ " + " ".join(command) + "\n")
        handle.flush()
        return subprocess.run(command, stdout=handle, stderr=subprocess.STDOUT,
                              env=env, cwd=cwd, check=False).returncode


def command_prepare(args):
    out = os.path.abspath(args.dir)
    os.makedirs(out, exist_ok=True)
    families = SMOKE_FAMILIES if args.smoke else FAMILIES
    selection = select_cases(families)
    memory = memory_cases(args.smoke)
    fused = fused_cases(args.smoke)
    plan = make_plan(selection, memory, fused, args.budget, args.smoke)
    gpucg_opt = os.environ.get("GPUCG_OPT") or os.path.join(
        SOURCE_DIR, "build", "bin", "gpucg-opt")
    if not os.access(gpucg_opt, os.X_OK):
        fail(f"no {gpucg_opt}: build gpucg first (scripts/build.sh), or set "
             "GPUCG_OPT")
    env = dict(os.environ, GPUCG_OPT=gpucg_opt)
    log = os.path.join(out, "prepare.log")
    open(log, "w").close()
    failed = []

    # The GPU tests (step 1).
    bundle = os.path.join(out, "bundle")
    if args.smoke:
        shutil.rmtree(bundle, ignore_errors=True)
        print(f"{TOOL}: --smoke: no GPU test bundle (step 1 runs the "
              "memcheck cases' kernels only)")
        check = os.path.join(bundle, "check")
        os.makedirs(check)
        shutil.copy(os.path.join(BENCH_DIR, "shapes", "check.txt"), check)
        for variant, folder in MEMCHECK_KERNELS:
            status = run_logged(
                [sys.executable, os.path.join(BENCH_DIR, "compile_kernels.py"),
                 "--shapes", os.path.join(check, "check.txt"),
                 *sum((["--filter", f] for f in MEMCHECK_FILTERS[:1]), []),
                 "--chip", VARIANT[variant].chip, "--format", "bin",
                 "--out", os.path.join(check, folder), "--quiet",
                 "-j", str(args.jobs), *VARIANT[variant].compile_args],
                log, env)
            if status:
                failed.append(f"memcheck kernels {variant}")
    else:
        print(f"{TOOL}: the GPU tests (scripts/gpu-bundle.sh prepare)",
              flush=True)
        status = run_logged([os.path.join(SOURCE_DIR, "scripts",
                                          "gpu-bundle.sh"), "prepare",
                             bundle, "--chip", "sm_90"], log, env)
        if status:
            failed.append("gpu-bundle.sh prepare")

    # The matmuls (step 2): one kernels directory per variant.
    matmul = os.path.join(out, "matmul")
    shutil.rmtree(matmul, ignore_errors=True)
    os.makedirs(matmul)
    with open(os.path.join(matmul, "shapes.txt"), "w") as handle:
        handle.write(shapes_text(selection))
    for variant in VARIANTS:
        text = shapes_text(selection, variant.name)
        if "\n# " not in text:
            continue
        shapes = os.path.join(matmul, variant.name + ".shapes.txt")
        with open(shapes, "w") as handle:
            handle.write(text)
        print(f"{TOOL}: matmul kernels, {variant.name} ({variant.what})",
              flush=True)
        status = run_logged(
            [sys.executable, os.path.join(BENCH_DIR, "compile_kernels.py"),
             "--shapes", shapes, "--chip", variant.chip, "--format", "bin",
             "--out", os.path.join(matmul, variant.name), "--quiet",
             "-j", str(args.jobs), *variant.compile_args], log, env)
        if status not in (0, 1):  # 1: some cases failed, listed as such
            failed.append(f"matmul {variant.name}")

    # The memory-bound kernels (step 3).
    print(f"{TOOL}: memory-bound kernels", flush=True)
    memory_dir = os.path.join(out, "memory")
    shutil.rmtree(memory_dir, ignore_errors=True)
    command = [sys.executable, os.path.join(BENCH_DIR, "memory_bound.py"),
               "--compile-only", memory_dir, "--chip", "sm_90",
               "--format", "bin"]
    if args.smoke:
        command += ["--filter", MEMORY_SMOKE_FILTER]
    if run_logged(command, log, env):
        failed.append("memory_bound.py --compile-only")

    # The linear layers with fused epilogues (step 4).
    print(f"{TOOL}: linear layers with fused epilogues", flush=True)
    fused_dir = os.path.join(out, "fused")
    shutil.rmtree(fused_dir, ignore_errors=True)
    command = [sys.executable, os.path.join(BENCH_DIR, "fused_epilogue.py"),
               "--compile-only", fused_dir, "--format", "bin"]
    if args.smoke:
        command += ["--filter", FUSED_SMOKE_FILTER]
    if run_logged(command, log, env):
        failed.append("fused_epilogue.py --compile-only")

    description = {
        "version": 1,
        "smoke": args.smoke,
        "commit": git_commit(),
        "prepared": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "budget": args.budget,
        "families": [{"name": f.name, "what": f.what,
                      "variants": list(f.variants),
                      "cases": [c.key for c in cases]}
                     for f, cases in selection],
        "variants": [{"name": v.name, "chip": v.chip, "what": v.what,
                      "options": list(v.compile_args)} for v in VARIANTS],
        "memory_cases": [m.name for m in memory],
        "fused_cases": [c.name for c in fused],
        "steps": [{"name": s.name, "what": s.what, "budget": s.budget,
                   "estimate": s.estimate, "detail": s.detail}
                  for s in plan],
    }
    with open(os.path.join(out, "plan.json"), "w") as handle:
        json.dump(description, handle, indent=1)
    with open(os.path.join(out, "plan.txt"), "w") as handle:
        handle.write(plan_text(plan, args.budget) + "\n")
    print(plan_text(plan, args.budget))
    size = sum(os.path.getsize(os.path.join(root, name))
               for root, _, names in os.walk(out) for name in names)
    print(f"{TOOL}: prepared {out} ({size / 2**20:.1f} MiB); on the GPU "
          f"machine: scripts/gpu-run.sh run {args.dir}")
    for what in failed:
        print(f"{TOOL}: FAILED: {what} (see {log})")
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------

@dataclass
class Outcome:
    step: str
    status: str  # done, failed, stopped (deadline), skipped, dry-run
    seconds: float
    note: str = ""


class Tee:
    """A log written to several files at once: the results' run.log and,
    with --export, one in the export folder that is there even if the
    device call is cut off before the end."""

    def __init__(self, paths):
        self.files = []
        for path in paths:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            self.files.append(open(path, "a", encoding="utf-8"))

    def write(self, text):
        for handle in self.files:
            handle.write(text)

    def flush(self):
        for handle in self.files:
            handle.flush()


@dataclass
class Runner:
    dir: str
    results: str
    dry_run: bool
    budget: float
    description: dict
    log_path: str
    start: float = field(default_factory=time.monotonic)
    outcomes: list = field(default_factory=list)
    steps: dict = field(default_factory=dict)
    marks: dict = field(default_factory=dict)  # step -> end of its share
    gpu_driver: str = ""  # nvidia-smi's driver version, where it answers

    export: str = ""  # a folder that gets a live copy of the log

    def __post_init__(self):
        self.log = Tee([self.log_path] + (
            [os.path.join(self.export, "run.log")] if self.export else []))
        self.build = os.path.join(self.dir, "build")
        self.env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.env["PYTHONPATH"] = os.pathsep.join(
            [os.path.join(SOURCE_DIR, "python")] +
            ([self.env["PYTHONPATH"]] if self.env.get("PYTHONPATH") else []))
        self.env["GPUCG_RUNTIME_LIB"] = os.path.join(
            self.build, "runtime", "lib", "libgpucg_cuda_runtime.so")
        if self.dry_run:
            self.env["GPUCG_CUDA_DRIVER"] = os.path.join(
                self.build, "runtime", "lib", "libgpucg_fake_cuda.so")
        mark = 0.0
        for step in self.description["steps"]:
            share = step["budget"] * self.budget / self.description["budget"]
            mark += share
            self.steps[step["name"]] = step
            self.marks[step["name"]] = mark

    def elapsed(self):
        return time.monotonic() - self.start

    def say(self, text):
        line = f"[{self.elapsed():6.1f}s] {text}"
        print(line, flush=True)
        self.log.write(line + "\n")
        self.log.flush()

    def left(self, step, reserve=0.0):
        """Seconds until the end of `step`'s share, less `reserve`."""
        return self.marks[step] - self.elapsed() - reserve

    def execute(self, step, command, output=None, reserve=0.0, env=None,
                grace=20.0):
        """Runs a step's command, killed `grace` s after the end of the
        step's share; stdout (and stderr) to the log and `output`."""
        limit = max(5.0, self.left(step, reserve) + grace)
        self.say("$ " + " ".join(command))
        sink = open(output, "w", encoding="utf-8") if output else None
        try:
            process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, env=env or self.env, cwd=SOURCE_DIR)
            timer = threading.Timer(limit, process.kill)
            timer.start()
            for line in process.stdout:
                self.log.write(line)
                if sink:
                    sink.write(line)
            status = process.wait()
            killed = not timer.is_alive() and status < 0
            timer.cancel()
        except OSError as error:
            self.say(f"cannot run {command[0]}: {error}")
            return 127
        finally:
            if sink:
                sink.close()
            self.log.flush()
        if killed:
            self.say(f"{command[0]}: killed at the end of {step}'s share "
                     f"({limit:.0f} s)")
            return 124
        return status

    def record(self, step, status, began, note=""):
        outcome = Outcome(step, status, time.monotonic() - began, note)
        self.outcomes.append(outcome)
        self.say(f"step {step}: {status} in {outcome.seconds:.1f} s"
                 + (f" ({note})" if note else ""))


def start_triton_precompile(runner, shapes):
    """Triton's compiles, in background processes, from the start."""
    output = os.path.join(runner.results, "matmul", "triton-precompile.txt")
    command = [sys.executable, os.path.join(BENCH_DIR, "triton_matmul.py"),
               "--precompile", "-j", "8", "--shapes", shapes]
    runner.say("$ " + " ".join(command) + " &")
    handle = open(output, "w", encoding="utf-8")
    return subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT,
                            env=runner.env, cwd=SOURCE_DIR), handle


def step_correctness(runner):
    began = time.monotonic()
    bundle = os.path.join(runner.dir, "bundle")
    out = os.path.join(runner.results, "correctness")
    os.makedirs(out, exist_ok=True)
    failed = []
    gpu_bundle = os.path.join(SOURCE_DIR, "scripts", "gpu-bundle.sh")
    if os.path.exists(os.path.join(bundle, "chip")):
        command = [gpu_bundle, "run", bundle, "--build-dir", runner.build]
        if runner.dry_run:
            command.append("--dry-run")
        status = runner.execute("correctness", command,
                                os.path.join(out, "gpu-tests.txt"))
        if status == EXIT_NO_GPU:
            runner.record("correctness", "no GPU", began)
            return EXIT_NO_GPU
        if status:
            failed.append(f"gpu-bundle.sh run (status {status})")
    else:
        # --smoke: only the C side and the memcheck cases.
        runner.say("no GPU test bundle (prepared with --smoke): building the "
                   "C side only")
        status = build_c_side(runner)
        if status:
            failed.append("building the C side")
    bench = os.path.join(runner.build, "bench", "bin", "gpucg-bench")
    check = os.path.join(bundle, "check")
    kernels = [f"--kernels={name}={os.path.join(check, folder)}"
               for name, folder in MEMCHECK_KERNELS
               if os.path.exists(os.path.join(check, folder, "manifest.txt"))]
    filters = sum((["--filter", f] for f in MEMCHECK_FILTERS), [])
    if kernels and os.path.exists(bench):
        shapes = ["--shapes", os.path.join(check, "check.txt")]
        if runner.dry_run:
            command = [bench, "--dry-run", *shapes, *filters, *kernels]
            runner.say("(dry run: compute-sanitizer --tool memcheck "
                       "--error-exitcode 99 would run gpucg-bench --check on "
                       "these)")
        else:
            command = ["compute-sanitizer", "--tool", "memcheck",
                       "--error-exitcode", "99", bench, "--check", *shapes,
                       *filters, *kernels]
        status = runner.execute("correctness", command,
                                os.path.join(out, "memcheck.txt"))
        if status:
            failed.append(f"memcheck (status {status})")
    if failed:
        runner.record("correctness", "failed", began, "; ".join(failed))
        return 1
    runner.record("correctness", "dry-run" if runner.dry_run else "done",
                  began)
    return 0


def build_c_side(runner):
    """The runtime and gpucg-bench (what gpu-bundle.sh run builds)."""
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    for source, targets in (("runtime", ["gpucg_cuda_runtime",
                                         "gpucg_fake_cuda",
                                         "gpucg-cuda-probe"]),
                            ("bench", ["gpucg-bench"])):
        build = os.path.join(runner.build, source)
        for command in ([
                "cmake", "-S", os.path.join(SOURCE_DIR, source), "-B", build,
                *generator, "-DCMAKE_BUILD_TYPE=Release"],
                ["cmake", "--build", build, "--target", *targets]):
            status = runner.execute("correctness", command)
            if status:
                return status
    return 0


def timing_options():
    return ["--warmup", str(TIMING["warmup"]),
            "--iterations", str(TIMING["iterations"]),
            "--min-iterations", str(TIMING["min_iterations"]),
            "--max-seconds", str(TIMING["max_seconds"]),
            "--spread", str(TIMING["spread"])]


def step_matmul_gpucg(runner, commit):
    began = time.monotonic()
    matmul = os.path.join(runner.dir, "matmul")
    out = os.path.join(runner.results, "matmul")
    bench = os.path.join(runner.build, "bench", "bin", "gpucg-bench")
    kernels = [f"--kernels={v.name}={os.path.join(matmul, v.name)}"
               for v in VARIANTS
               if os.path.exists(os.path.join(matmul, v.name, "manifest.txt"))]
    command = [bench, "--shapes", os.path.join(matmul, "shapes.txt"), *kernels,
               "--csv", os.path.join(out, "gpucg.csv"), "--commit", commit]
    if runner.dry_run:
        command.append("--dry-run")
    else:
        # Stop starting cases while the largest one still fits.
        deadline = max(1.0, runner.left("matmul-gpucg", reserve=8.0))
        command += [*timing_options(), "--deadline", f"{deadline:.0f}"]
    status = runner.execute("matmul-gpucg", command,
                            os.path.join(out, "gpucg.txt"))
    return finish_timed_step(runner, "matmul-gpucg", status, began,
                             os.path.join(out, "gpucg.txt"))


def finish_timed_step(runner, step, status, began, output):
    text = open(output, encoding="utf-8").read() if os.path.exists(
        output) else ""
    not_run = re.search(r"(\d+) (?:cases )?not run \(deadline\)", text)
    note = f"{not_run.group(1)} cases not run (deadline)" if not_run else ""
    if status == EXIT_NO_GPU:
        runner.record(step, "no GPU", began, note)
        return EXIT_NO_GPU
    if status:
        runner.record(step, "failed", began,
                      f"status {status}" + (f"; {note}" if note else ""))
        return 1
    kind = "dry-run" if runner.dry_run else (
        "stopped (deadline)" if not_run else "done")
    runner.record(step, kind, began, note)
    return 0


def step_matmul_triton(runner, precompile):
    began = time.monotonic()
    matmul = os.path.join(runner.dir, "matmul")
    out = os.path.join(runner.results, "matmul")
    shapes = os.path.join(matmul, "shapes.txt")
    process, handle = precompile
    if process.poll() is None:
        runner.say("waiting for Triton's precompile")
        try:
            process.wait(timeout=max(1.0, runner.left("matmul-triton", 60)))
        except subprocess.TimeoutExpired:
            process.kill()
            runner.say("Triton's precompile killed: the timed run compiles "
                       "what is left")
    handle.close()
    runner.say(f"Triton's precompile: status {process.returncode}")
    command = [sys.executable, os.path.join(BENCH_DIR, "triton_matmul.py"),
               "--shapes", shapes, "--csv", os.path.join(out, "triton.csv")]
    if runner.dry_run:
        command.append("--list")
    else:
        deadline = max(1.0, runner.left("matmul-triton", reserve=8.0))
        command += [*timing_options(), "--deadline", f"{deadline:.0f}"]
    status = runner.execute("matmul-triton", command,
                            os.path.join(out, "triton.txt"))
    if status == EXIT_NO_GPU:
        runner.record("matmul-triton", "skipped", began,
                      "Triton or PyTorch cannot run here (triton.txt says "
                      "why)")
        return 0
    return finish_timed_step(runner, "matmul-triton", status, began,
                             os.path.join(out, "triton.txt"))


def run_kernels_step(runner, step, script, reserve):
    """Step `step`: `script --run-only DIR/step` (memory_bound.py and
    fused_epilogue.py take the same options), its tables copied into the
    results. A directory prepared without the step is skipped, and so is a
    machine where PyTorch or the runtime cannot run (the script says why)."""
    began = time.monotonic()
    kernels = os.path.join(runner.dir, step)
    out = os.path.join(runner.results, step)
    log = os.path.join(out, f"{step}.txt")
    if not os.path.exists(os.path.join(kernels, "manifest.json")):
        runner.record(step, "skipped", began,
                      "not prepared (an older gpu-run directory)")
        return 0
    command = [sys.executable, os.path.join(BENCH_DIR, script), "--run-only",
               kernels]
    if runner.dry_run:
        command.append("--dry-run")
    else:
        deadline = max(1.0, runner.left(step, reserve=reserve))
        command += ["--deadline", f"{deadline:.0f}"]
    status = runner.execute(step, command, log)
    for name in (f"{step}.csv", f"{step}.md"):
        source = os.path.join(kernels, "results", name)
        if os.path.exists(source):
            shutil.copy(source, out)
    if status == EXIT_NO_GPU:
        runner.record(step, "skipped", began,
                      f"PyTorch or the runtime cannot run here ({step}.txt "
                      "says why)")
        return 0
    return finish_timed_step(runner, step, status, began, log)


def step_memory(runner):
    return run_kernels_step(runner, "memory", "memory_bound.py", reserve=3.0)


def step_fused(runner):
    return run_kernels_step(runner, "fused", "fused_epilogue.py", reserve=8.0)


def furthest_from_cublas(rows, count=2):
    """The `count` (row, ratio) furthest below cuBLAS, one per family at
    most; in a dry run (no ratios) the first rows stand in."""
    measured = [(row, as_float(row.get("ratio"))) for row in rows
                if row.get("status") == "ok"]
    measured = [(row, ratio) for row, ratio in measured if ratio]
    if not measured:
        measured = [(row, None) for row in rows]
    else:
        measured.sort(key=lambda item: item[1])
    picked, families = [], set()
    for row, ratio in measured:
        family = row.get("family") or row["name"].split(".")[0]
        if family in families:
            continue
        families.add(family)
        picked.append((row, ratio))
        if len(picked) == count:
            break
    return picked


def kernel_names(kernels_dir, key):
    """The kernel symbols a case launches (its manifest's .abi files)."""
    names = []
    manifest = os.path.join(kernels_dir, "manifest.txt")
    if not os.path.exists(manifest):
        return names
    for line in open(manifest, encoding="utf-8"):
        fields = line.split()
        if len(fields) >= 4 and fields[:3] == ["case", key, "ok"]:
            for abi in fields[3:]:
                for abi_line in open(os.path.join(kernels_dir, abi),
                                     encoding="utf-8"):
                    words = abi_line.split()
                    if len(words) == 2 and words[0] == "kernel":
                        names.append(words[1])
    return names


def step_profile(runner):
    began = time.monotonic()
    out = os.path.join(runner.results, "profile")
    os.makedirs(out, exist_ok=True)
    _, rows = read_rows(os.path.join(runner.results, "matmul", "gpucg.csv"))
    families = {key: family["name"] for family in runner.description[
        "families"] for key in family["cases"]}
    for row in rows:
        row["family"] = families.get(row["key"], "")
    picked = furthest_from_cublas(rows)
    if not picked:
        runner.record("profile", "skipped", began, "no matmul rows")
        return 0
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    bench = os.path.join(runner.build, "bench", "bin", "gpucg-bench")
    metrics = ",".join(metric for metric, _ in NCU_METRICS)
    failed = []
    profiles = []
    for row, ratio in picked:
        variant = row.get("variant") or "sm_90"
        kernels_dir = os.path.join(runner.dir, "matmul", variant)
        names = kernel_names(kernels_dir, row["key"])
        if not names:
            failed.append(f"{row['key']}: no kernel names")
            continue
        output = os.path.join(out, f"ncu-{variant}-{row['key']}.csv")
        profiles.append((row, ratio, variant, output))
        command = [ncu, "--clock-control", "none", "--csv", "--metrics",
                   metrics, "-k", "regex:^(" + "|".join(names) + ")$",
                   "--launch-count", str(len(names)), bench, "--check",
                   "--host-check", "0", "--shapes",
                   os.path.join(runner.dir, "matmul", "shapes.txt"),
                   "--filter", row["key"], f"--kernels={variant}={kernels_dir}"]
        if runner.dry_run:
            runner.say("(dry run: not profiled) $ " + " ".join(command))
            open(output, "w").close()
            continue
        status = runner.execute("profile", command, output)
        if status:
            failed.append(f"ncu on {row['key']} ({variant}): status {status}")
    write_profile_table(profiles, os.path.join(out, "profile.md"),
                        runner.dry_run)
    if failed:
        runner.record("profile", "failed", began, "; ".join(failed))
        return 1
    runner.record("profile", "dry-run" if runner.dry_run else "done", began)
    return 0


def parse_ncu_csv(path):
    """{metric: value text} per kernel name from `ncu --csv` output."""
    kernels = {}
    if not os.path.exists(path):
        return kernels
    lines = [line for line in open(path, encoding="utf-8", errors="replace")
             if line.startswith('"')]
    for row in csv.DictReader(lines):
        name = row.get("Kernel Name", "?")
        metric = row.get("Metric Name")
        if metric:
            unit = row.get("Metric Unit") or ""
            kernels.setdefault(name, {})[metric] = (
                f"{row.get('Metric Value', '')} {unit}".strip())
    return kernels


def write_profile_table(profiles, path, dry_run):
    lines = ["| case | variant | gpucg / cuBLAS | kernel | " +
             " | ".join(label for _, label in NCU_METRICS) + " |",
             "|" + " --- |" * (4 + len(NCU_METRICS))]
    for row, ratio, variant, output in profiles:
        kernels = parse_ncu_csv(output) or {"(not profiled: dry run)"
                                            if dry_run else "(no data)": {}}
        for name, values in kernels.items():
            lines.append(
                f"| {row['name']} | {variant} | "
                f"{'-' if ratio is None else f'{ratio:.2f}'} | {name} | " +
                " | ".join(values.get(metric, "-")
                           for metric, _ in NCU_METRICS) + " |")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def family_summary(description, gpucg_rows, triton_rows):
    """Markdown: per family and variant, the geometric-mean ratio to
    cuBLAS and to Triton and the worst case, over the rows that were
    right (the others are listed as not ok)."""
    triton = {row["key"]: as_float(row.get("triton_ms_median"))
              for row in triton_rows}
    lines = ["| family | variant | cases | gpucg / cuBLAS | gpucg / Triton | "
             "worst (gpucg / cuBLAS) | not ok |",
             "| --- | --- | ---: | ---: | ---: | --- | --- |"]
    by = {}
    for row in gpucg_rows:
        by.setdefault((row["key"], row.get("variant") or ""), row)
    for family in description["families"]:
        for variant in family["variants"]:
            rows = [by[(key, variant)] for key in family["cases"]
                    if (key, variant) in by]
            if not rows:
                continue
            cublas, versus_triton, worst, bad = [], [], None, []
            for row in rows:
                ratio = as_float(row.get("ratio"))
                mine = as_float(row.get("gpucg_ms_median"))
                if row["status"] not in ("ok", "DRY-RUN"):
                    # A wrong or failed kernel's time says nothing.
                    bad.append(f"{row['name']}: {row['status']}")
                    continue
                if ratio:
                    cublas.append(ratio)
                    if worst is None or ratio < worst[1]:
                        worst = (row["name"], ratio)
                if mine and triton.get(row["key"]):
                    versus_triton.append(triton[row["key"]] / mine)
            mean = geomean(cublas)
            mean_triton = geomean(versus_triton)
            lines.append(
                f"| {family['name']} | {variant} | {len(rows)} | "
                f"{'-' if mean is None else f'{mean:.2f}'} | "
                f"{'-' if mean_triton is None else f'{mean_triton:.2f}'} | "
                f"{'-' if worst is None else f'{worst[0]} {worst[1]:.2f}'} | "
                f"{'; '.join(bad[:3]) + (' ...' if len(bad) > 3 else '') or '-'} |")
    return "\n".join(lines)


def memory_summary(rows):
    kinds = {}
    for row in rows:
        kind = re.sub(r"_(f16|bf16|f32).*", "", row["case"])
        kinds.setdefault(kind, []).append(row)
    lines = ["| kernels | count | geometric mean of copy bandwidth | worst | "
             "wrong |", "| --- | ---: | ---: | --- | --- |"]
    for kind, group in kinds.items():
        fractions = [(row["case"], as_float(row.get("fraction_of_copy")))
                     for row in group if row.get("correct") != "NO"]
        known = [(name, value) for name, value in fractions if value]
        mean = geomean([value for _, value in known])
        worst = min(known, key=lambda item: item[1]) if known else None
        wrong = [row["case"] for row in group if row.get("correct") == "NO"]
        lines.append(f"| {kind} | {len(group)} | "
                     f"{'-' if mean is None else f'{mean:.2f}'} | "
                     f"{'-' if worst is None else f'{worst[0]} {worst[1]:.2f}'}"
                     f" | {', '.join(wrong) or '-'} |")
    return "\n".join(lines)


def fused_summary(rows):
    """Per form and variant, over the shapes: the geometric means of gpucg's
    TFLOP/s over its cast form's, over cuBLASLt's and over Triton's, the
    worst of the first, and the shapes not correct."""
    groups = {}
    for row in rows:
        groups.setdefault((row["form"], row["variant"]), []).append(row)
    lines = ["| form | variant | shapes | of cast | of cuBLASLt | of Triton | "
             "worst of cast | not correct |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- | --- |"]
    for (form, variant), group in groups.items():
        good = [row for row in group if row.get("correct") == "yes"]

        def mean(column):
            value = geomean([as_float(row.get(column)) for row in good
                             if as_float(row.get(column))])
            return "-" if value is None else f"{value:.2f}"
        of_cast = [(row["shape"], as_float(row.get("of_cast")))
                   for row in good if as_float(row.get("of_cast"))]
        worst = min(of_cast, key=lambda item: item[1]) if of_cast else None
        bad = [f"{row['shape']}: {row.get('correct')}" for row in group
               if row.get("correct") not in ("yes", "dry-run")]
        lines.append(f"| {form} | {variant} | {len(group)} | "
                     f"{mean('of_cast')} | {mean('of_cublaslt')} | "
                     f"{mean('of_triton')} | "
                     f"{'-' if worst is None else f'{worst[0]} {worst[1]:.2f}'}"
                     f" | {'; '.join(bad) or '-'} |")
    return "\n".join(lines)


def header_of(lines, prefix):
    for line in lines:
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    return ""


def write_report(results, description, meta):
    """results/report.md (the tables) and results/summary.md (one screen:
    the steps, the GPU tests, per family and variant the geometric-mean
    ratios and the worst case, memory, profile); returns the summary."""
    matmul = os.path.join(results, "matmul")
    gpucg_csv = os.path.join(matmul, "gpucg.csv")
    triton_csv = os.path.join(matmul, "triton.csv")
    _, gpucg_rows = read_rows(gpucg_csv)
    _, triton_rows = read_rows(triton_csv)
    report = ["# gpucg prepared GPU run: tables", ""]
    if gpucg_rows:
        triton_args = (["--triton", triton_csv] if os.path.exists(triton_csv)
                       else [])
        table = subprocess.run(
            [sys.executable, os.path.join(BENCH_DIR, "report.py"), "--gpucg",
             gpucg_csv, *triton_args, "--variants", "--group"],
            capture_output=True, text=True, check=False)
        report += ["## Matmuls: every variant against cuBLAS and Triton", "",
                   table.stdout or table.stderr]
        plot = subprocess.run(
            [sys.executable, os.path.join(BENCH_DIR, "plot.py"), "--gpucg",
             gpucg_csv, *triton_args, "--out",
             os.path.join(matmul, "tflops.png")],
            capture_output=True, text=True, check=False)
        print(f"{TOOL}: plot.py: {(plot.stdout or plot.stderr).strip()}")
    memory_csv = os.path.join(results, "memory", "memory.csv")
    memory_rows = []
    if os.path.exists(memory_csv):
        with open(memory_csv, encoding="utf-8") as handle:
            memory_rows = list(csv.DictReader(handle))
        report += ["## Memory-bound kernels", "",
                   open(os.path.join(results, "memory", "memory.md")).read()]
    fused_csv = os.path.join(results, "fused", "fused.csv")
    fused_rows = []
    if os.path.exists(fused_csv):
        with open(fused_csv, encoding="utf-8") as handle:
            fused_rows = list(csv.DictReader(handle))
        fused_md = os.path.join(results, "fused", "fused.md")
        if os.path.exists(fused_md):
            report += ["## Linear layers with fused epilogues", "",
                       open(fused_md).read()]
    profile = os.path.join(results, "profile", "profile.md")
    if os.path.exists(profile):
        report += ["## Nsight Compute: the kernels furthest from cuBLAS", "",
                   open(profile).read()]
    with open(os.path.join(results, "report.md"), "w") as handle:
        handle.write("\n".join(report) + "\n")

    summary = [f"# gpucg prepared GPU run, {meta['date']}", ""]
    if meta["dry_run"]:
        summary += ["**Dry run: no GPU, nothing measured.** The tables "
                    "below are the skeleton a run fills in.", ""]
    summary += [f"- GPU: {meta['gpu']}", f"- driver: {meta['driver']}",
                f"- commit: {meta['commit']} (kernels prepared at "
                f"{meta['prepared_commit']})",
                f"- wall time: {meta['elapsed']:.0f} s of a "
                f"{meta['budget']:.0f} s budget", "",
                "| step | status | seconds | share ends at | note |",
                "| --- | --- | ---: | ---: | --- |"]
    for step in meta["steps"]:
        summary.append(f"| {step['step']} | {step['status']} | "
                       f"{step['seconds']:.1f} | {step['share_ends']:.0f} | "
                       f"{step['note'] or '-'} |")
    tests = os.path.join(results, "correctness", "gpu-tests.txt")
    if os.path.exists(tests):
        lines = [line.strip() for line in open(tests)
                 if re.match(r"(PASS|FAIL|DRY-RUN): ", line)]
        failing = [line for line in lines if line.startswith("FAIL")]
        summary += ["", f"GPU tests: {len(lines) - len(failing)} of "
                    f"{len(lines)} "
                    f"{'prepared (dry run)' if meta['dry_run'] else 'passed'}"
                    + (f"; failed: {', '.join(failing)}" if failing else "")]
    summary += ["", "## Matmuls, per family and variant", "",
                family_summary(description, gpucg_rows, triton_rows)]
    if memory_rows:
        summary += ["", "## Memory-bound kernels (fraction of the copy "
                    "bandwidth)", "", memory_summary(memory_rows)]
    if fused_rows:
        summary += ["", "## Linear layers with fused epilogues (gpucg over "
                    "the same variant's matmul without one, over cuBLASLt, "
                    "over Triton)", "", fused_summary(fused_rows)]
    if os.path.exists(profile):
        summary += ["", "## Nsight Compute", "", open(profile).read()]
    text = "\n".join(summary).rstrip("\n") + "\n"
    with open(os.path.join(results, "summary.md"), "w") as handle:
        handle.write(text)
    return text


def run_meta(runner, commit):
    """What a run's summary and `record` need to know about it."""
    header, _ = read_rows(os.path.join(runner.results, "matmul",
                                       "gpucg.csv"))
    gpu = header_of(header, "gpu:") or "?"
    driver = header_of(header, "driver:") or "?"
    if runner.dry_run:
        gpu, driver = "no GPU (dry run)", "-"
    elif runner.gpu_driver:
        driver = f"{runner.gpu_driver}; {driver}"
    return {"date": header_of(header, "date:") or datetime.now(
                timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
            "gpu": gpu, "driver": driver, "commit": commit,
            "prepared_commit": runner.description.get("commit", "?"),
            "dry_run": runner.dry_run, "budget": runner.budget,
            "elapsed": runner.elapsed(),
            "steps": [dict(vars(outcome),
                           share_ends=runner.marks.get(outcome.step, 0.0))
                      for outcome in runner.outcomes]}


def step_report(runner, commit):
    began = time.monotonic()
    summary = write_report(runner.results, runner.description,
                           run_meta(runner, commit))
    runner.record("report", "done", began)
    meta = run_meta(runner, commit)
    with open(os.path.join(runner.results, "meta.json"), "w") as handle:
        json.dump(meta, handle, indent=1)
    with open(os.path.join(runner.results, "plan.txt"), "w") as handle:
        handle.write(open(os.path.join(runner.dir, "plan.txt")).read())
        handle.write("\nused:\n")
        for outcome in runner.outcomes:
            handle.write(f"  {outcome.step:14} {outcome.seconds:6.1f}s "
                         f"{outcome.status}\n")
    return summary


def command_report(args):
    """Writes report.md and summary.md again from DIR's results."""
    directory = os.path.abspath(args.dir)
    try:
        description = json.load(open(os.path.join(directory, "plan.json")))
        meta = json.load(open(os.path.join(directory, "results",
                                           "meta.json")))
    except (OSError, ValueError) as error:
        fail(f"{directory} has no run's results ({error})")
    print(write_report(os.path.join(directory, "results"), description,
                       meta), end="")
    return 0


def command_run(args):
    directory = os.path.abspath(args.dir)
    try:
        description = json.load(open(os.path.join(directory, "plan.json")))
    except (OSError, ValueError) as error:
        fail(f"{directory}/plan.json: {error} (write it with "
             "`scripts/gpu-run.sh prepare`)")
    results = os.path.join(directory, "results")
    shutil.rmtree(results, ignore_errors=True)
    for sub in ("matmul", "memory", "fused", "profile", "correctness"):
        os.makedirs(os.path.join(results, sub))
    budget = args.budget or description["budget"]
    if args.export:
        os.makedirs(args.export, exist_ok=True)
        stale = os.path.join(args.export, "run.log")
        if os.path.exists(stale):
            os.remove(stale)
    runner = Runner(directory, results, args.dry_run, budget, description,
                    os.path.join(results, "run.log"),
                    export=os.path.abspath(args.export) if args.export else "")
    commit = git_commit()
    if not args.dry_run and shutil.which("nvidia-smi"):
        query = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.sm",
             "--format=csv,noheader", "--id=0"], capture_output=True,
            text=True, check=False)
        fields = [f.strip() for f in query.stdout.split(",")]
        if query.returncode == 0 and len(fields) == 3:
            runner.gpu_driver = (f"driver {fields[1]}, max SM clock "
                                 f"{fields[2]}")
            runner.say(f"nvidia-smi: {query.stdout.strip()}")
    runner.say(f"{TOOL} run {directory}: budget {budget:.0f} s"
               f"{', DRY RUN (no GPU; nothing is measured)' if args.dry_run else ''}"
               f"; commit {commit}")
    runner.say("plan:\n" + open(os.path.join(directory, "plan.txt")).read())

    precompile = start_triton_precompile(
        runner, os.path.join(directory, "matmul", "shapes.txt"))
    status = step_correctness(runner)
    if status == EXIT_NO_GPU:
        precompile[0].kill()
        runner.say("no GPU here: nothing was run (scripts/gpu-run.sh run "
                   "--dry-run shows the flow without one)")
        return EXIT_NO_GPU
    worst = status
    for step in (lambda: step_matmul_gpucg(runner, commit),
                 lambda: step_matmul_triton(runner, precompile),
                 lambda: step_memory(runner),
                 lambda: step_fused(runner),
                 lambda: step_profile(runner)):
        worst = max(worst, step() or 0)
    summary = step_report(runner, commit)
    print(summary)
    if args.export:
        export(results, args.export)
        runner.say(f"exported summary.md, run.log and gpu-run-results.tar.gz "
                   f"to {args.export}")
    runner.say(f"done in {runner.elapsed():.0f} s of {budget:.0f}; results: "
               f"{results}")
    return 1 if worst else 0


def export(results, target):
    os.makedirs(target, exist_ok=True)
    with tarfile.open(os.path.join(target, "gpu-run-results.tar.gz"),
                      "w:gz") as archive:
        archive.add(results, arcname="results")
    shutil.copy(os.path.join(results, "summary.md"), target)


# ---------------------------------------------------------------------------
# record
# ---------------------------------------------------------------------------

BEGIN_MARK = "<!-- gpu-run results: begin (scripts/gpu-run.sh record) -->"
END_MARK = "<!-- gpu-run results: end -->"


def same_run(folder, meta):
    """Whether FOLDER is missing or holds the results of META's run."""
    try:
        recorded = json.load(open(os.path.join(folder, "meta.json")))
    except FileNotFoundError:
        return not os.path.exists(folder)
    except ValueError:
        return False
    return recorded.get("date") == meta["date"]


def command_record(args):
    source = os.path.abspath(args.results)
    scratch = None
    if os.path.isfile(source):
        scratch = os.path.join(os.path.dirname(os.path.abspath(args.docs)),
                               ".gpu-run-record")
        shutil.rmtree(scratch, ignore_errors=True)
        with tarfile.open(source) as archive:
            members = archive.getmembers()
            for member in members:
                parts = member.name.split("/")
                if (member.name.startswith("/") or ".." in parts or
                        parts[0] != "results" or
                        not (member.isfile() or member.isdir())):
                    fail(f"{args.results}: unexpected member {member.name} "
                         "(not a gpu-run results tarball)")
            archive.extractall(scratch, members=members)
        source = os.path.join(scratch, "results")
    try:
        meta = json.load(open(os.path.join(source, "meta.json")))
        summary = open(os.path.join(source, "summary.md")).read()
    except (OSError, ValueError) as error:
        fail(f"{source} is not a run's results ({error})")
    if meta["dry_run"] and not args.allow_dry_run:
        fail("these are a dry run's results: nothing was measured, so "
             "nothing is recorded (--allow-dry-run to test the recording)")
    day = meta["date"][:10]
    slug = re.sub(r"[^a-z0-9]+", "-", meta["gpu"].split(",")[0].lower())
    slug = slug.strip("-") or "gpu"
    target = os.path.join(os.path.abspath(args.results_root),
                          f"{day}-{slug}-gpu-run")
    if not same_run(target, meta):
        # Another run of the same day on the same GPU keeps its folder (the
        # docs link to it); this one's name takes its start time too.
        clock = re.sub(r"[^0-9]", "", meta["date"][11:16])
        target = f"{target}-{clock}"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    docs = os.path.abspath(args.docs)
    text = open(docs, encoding="utf-8").read()
    if BEGIN_MARK not in text or END_MARK not in text:
        fail(f"{docs} has no '{BEGIN_MARK}' ... '{END_MARK}' section")
    head, rest = text.split(BEGIN_MARK, 1)
    body, tail = rest.split(END_MARK, 1)
    link = os.path.relpath(target, os.path.dirname(docs))
    lines = summary.splitlines()
    # The summary's title becomes this run's heading.
    title = (f"### {meta['date']}: {meta['gpu'].split(',')[0]}, "
             f"{meta['driver'].split(';')[0]}, gpucg {meta['commit']}")
    if meta["dry_run"]:
        title = f"### {meta['date']}: gpucg {meta['commit']}"
    if meta["dry_run"]:
        title += " (dry run, not measured)"
    entry = [title, "", *[line.replace("## ", "#### ", 1)
                          if line.startswith("## ") else line
                          for line in "\n".join(lines[1:]).strip(
                              "\n").splitlines()],
             "", f"Raw results: [{link}/]({link}/) (`report.md`, CSVs, "
             "`tflops.png`, `run.log`).", ""]
    body = body.replace("\nNo prepared run has been recorded yet.\n", "\n")
    new = (head + BEGIN_MARK + "\n\n" + "\n".join(entry) +
           body.lstrip("\n") + END_MARK + tail)
    with open(docs, "w", encoding="utf-8") as handle:
        handle.write(new)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{TOOL}: recorded the run of {meta['date']} on {meta['gpu']} in "
          f"{docs} and {target}")
    return 0


# ---------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="scripts/gpu-run.sh",
        description="One prepared GPU run (docs/Benchmark.md).")
    sub = parser.add_subparsers(dest="command", required=True)
    plan = sub.add_parser("plan", help="print the plan and its estimates")
    plan.add_argument("--smoke", action="store_true",
                      help="the few small cases of the dry-run test")
    plan.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    prepare = sub.add_parser("prepare", help="compile everything into DIR")
    prepare.add_argument("dir", metavar="DIR")
    prepare.add_argument("--smoke", action="store_true",
                         help="a few small cases, no GPU test bundle")
    prepare.add_argument("--budget", type=float, default=DEFAULT_BUDGET,
                         help="wall-time budget of the run, seconds "
                         f"(default {DEFAULT_BUDGET:.0f})")
    prepare.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    run = sub.add_parser("run", help="run DIR on this machine's GPU")
    run.add_argument("dir", metavar="DIR")
    run.add_argument("--budget", type=float, default=0,
                     help="wall-time budget, seconds (default: the plan's)")
    run.add_argument("--dry-run", action="store_true",
                     help="no GPU: the whole flow, nothing measured")
    run.add_argument("--export", metavar="OUT",
                     help="also put summary.md, run.log and a tarball of "
                     "the results into OUT")
    report = sub.add_parser("report", help="write DIR/results' report.md "
                            "and summary.md again (after editing its CSVs)")
    report.add_argument("dir", metavar="DIR")
    record = sub.add_parser("record", help="write a run's results into "
                            "docs/performance.md and bench/results/")
    record.add_argument("results", metavar="RESULTS",
                        help="DIR/results, or gpu-run-results.tar.gz")
    record.add_argument("--docs", default=os.path.join(SOURCE_DIR, "docs",
                                                       "performance.md"))
    record.add_argument("--results-root",
                        default=os.path.join(BENCH_DIR, "results"))
    record.add_argument("--allow-dry-run", action="store_true",
                        help="record a dry run (tests only)")
    args = parser.parse_args(argv)
    if getattr(args, "budget", 1) < 0:
        parser.error("--budget must not be negative")
    return {"plan": command_plan, "prepare": command_prepare,
            "run": command_run, "report": command_report,
            "record": command_record}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
