#!/usr/bin/env python3
"""The Triton column of gpucg-bench: the project's own Triton GEMM, timed on
the same shapes files with the same method (docs/Benchmark.md).

    bench/triton_matmul.py --shapes bench/shapes/squares.txt --csv triton.csv
    bench/triton_matmul.py --list --shapes FILE      # the parsed cases, no GPU
    bench/triton_matmul.py --precompile -j 8 --shapes FILE   # fill the cache

The kernel is a tiled GEMM (grouped tile order, masked edges, accumulation
in f32, or f16 / i32 for the f16 -> f16 and i8 -> i32 cases, TF32 for f32
inputs) tuned by triton.autotune over a handful of tile configurations per
shape. Inputs are seeded integers in the ranges gpucg-bench uses; every
element of C is compared with torch.matmul in float64, which is exact for
them. Timing: warm-up runs, then --iterations runs, each after an L2 flush
(a memset of twice the L2), each timed alone with CUDA events; median and
quartiles, as gpucg-bench does (also its --max-seconds, --spread,
--min-iterations and --deadline). Rows share gpucg-bench's case keys.

--precompile compiles every tile configuration for every case's argument
specialization (Triton's autotuner `warmup`: no launch, no timing) in -j
processes, which fill Triton's on-disk cache: a timed run afterwards loads
the kernels instead of compiling them one at a time inside its autotuning.
It needs the GPU's driver (the compile target) but not the GPU's time, so
it can run while the GPU does something else.

Exit status: 0 all cases agree; 1 a case mismatched or failed; 2 bad usage
or shapes file; 77 skipped: Triton or PyTorch cannot be imported, or no CUDA
GPU (the reason is printed).
"""

import argparse
import math
import os
import statistics
import sys
import time
import zlib
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchcases  # noqa: E402

EXIT_SKIPPED = 77
TOOL = "triton_matmul.py"


def parse_args():
    parser = argparse.ArgumentParser(
        description="Time the project's Triton GEMM on gpucg-bench's shapes "
                    "(docs/Benchmark.md).")
    parser.add_argument("--shapes", action="append", required=True,
                        metavar="FILE", help="shapes file (repeatable)")
    parser.add_argument("--filter", action="append", default=[],
                        metavar="TEXT",
                        help="only cases whose key or name contains TEXT")
    parser.add_argument("--csv", metavar="FILE", help="write the rows as CSV")
    parser.add_argument("--iterations", type=int, default=100,
                        help="timed runs per case (default 100)")
    parser.add_argument("--warmup", type=int, default=10,
                        help="untimed runs first (default 10)")
    parser.add_argument("--min-iterations", type=int, default=10,
                        help="timed runs before --max-seconds or --spread "
                        "may stop them (default 10)")
    parser.add_argument("--max-seconds", type=float, default=0,
                        help="stop a case's timed runs (in batches of 10) "
                        "once they add up to this many seconds")
    parser.add_argument("--spread", type=float, default=0,
                        help="... or once their interquartile range is at "
                        "most this fraction of their median")
    parser.add_argument("--deadline", type=float, default=0,
                        help="start no case after this many seconds (the "
                        "rest are listed as not run)")
    parser.add_argument("--precompile", action="store_true",
                        help="only compile every configuration of every "
                        "case into Triton's cache (no timing, no check)")
    parser.add_argument("-j", "--jobs", type=int, default=8,
                        help="processes for --precompile (default 8)")
    parser.add_argument("--seed", type=int, default=1,
                        help="input seed (default 1)")
    parser.add_argument("--no-flush", action="store_true",
                        help="do not flush L2 between runs")
    parser.add_argument("--check", action="store_true",
                        help="correctness only: no timing")
    parser.add_argument("--list", action="store_true",
                        help="print the parsed cases and exit (no GPU)")
    args = parser.parse_args()
    if args.iterations < 1 or args.warmup < 0:
        parser.error("--iterations must be at least 1, --warmup at least 0")
    if args.min_iterations < 1 or args.jobs < 1:
        parser.error("--min-iterations and -j must be at least 1")
    if args.max_seconds < 0 or args.spread < 0 or args.deadline < 0:
        parser.error("--max-seconds, --spread and --deadline must not be "
                     "negative")
    args.min_iterations = min(args.min_iterations, args.iterations)
    return args


def import_gpu_stack():
    """(torch, triton, tl), or exits with EXIT_SKIPPED and the reason."""
    try:
        import torch
        import triton
        import triton.language as tl
    except ImportError as error:
        print(f"{TOOL}: skipped: cannot import Triton and PyTorch ({error}); "
              "the Triton column needs both", file=sys.stderr)
        sys.exit(EXIT_SKIPPED)
    if not torch.cuda.is_available():
        print(f"{TOOL}: skipped: PyTorch sees no CUDA GPU", file=sys.stderr)
        sys.exit(EXIT_SKIPPED)
    return torch, triton, tl


# The autotuned tile configurations: BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M,
# num_stages, num_warps.
CONFIGS = [
    (128, 256, 64, 8, 3, 8),
    (256, 128, 64, 8, 3, 8),
    (128, 128, 64, 8, 4, 8),
    (128, 128, 32, 8, 4, 4),
    (64, 256, 32, 8, 4, 4),
    (128, 64, 32, 8, 4, 4),
    (64, 128, 64, 8, 4, 4),
    (64, 64, 64, 8, 4, 4),
    (16, 128, 128, 1, 4, 4),  # few rows: decode-sized M
    (32, 64, 128, 1, 4, 4),
]


def build_kernel(triton, tl):
    """The GEMM kernel and its autotuned configurations."""

    configs = [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                              "GROUP_M": group},
                             num_stages=stages, num_warps=warps)
               for bm, bn, bk, group, stages, warps in CONFIGS]

    @triton.autotune(configs=configs, key=["M", "N", "K", "ACC_KIND", "TF32"])
    @triton.jit
    def gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                    stride_am, stride_ak, stride_bk, stride_bn,
                    stride_cm, stride_cn,
                    ACC_KIND: tl.constexpr,  # 0: f32, 1: f16, 2: i32
                    TF32: tl.constexpr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
        # Grouped order: GROUP_M rows of tiles share their B columns in L2.
        pid = tl.program_id(0)
        num_pid_m = tl.cdiv(M, BLOCK_M)
        num_pid_n = tl.cdiv(N, BLOCK_N)
        num_pid_in_group = GROUP_M * num_pid_n
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m

        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
        if ACC_KIND == 1:
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float16)
        elif ACC_KIND == 2:
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
        else:
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k_step in range(0, tl.cdiv(K, BLOCK_K)):
            k_left = K - k_step * BLOCK_K
            # A float zero: Triton casts it to every input type, the 8-bit
            # floats included, which it has no cast from an integer 0 to.
            a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) &
                        (offs_k[None, :] < k_left), other=0.0)
            b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) &
                        (offs_n[None, :] < N), other=0.0)
            if TF32:
                acc = tl.dot(a, b, acc, input_precision="tf32")
            elif ACC_KIND == 1:
                acc = tl.dot(a, b, acc, out_dtype=tl.float16)
            elif ACC_KIND == 2:
                acc = tl.dot(a, b, acc, out_dtype=tl.int32)
            else:
                acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K * stride_ak
            b_ptrs += BLOCK_K * stride_bk
        c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
        tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

    return gemm_kernel


class Runner:
    def __init__(self, torch, triton, tl, args):
        self.torch = torch
        self.triton = triton
        self.args = args
        self.kernel = build_kernel(triton, tl)
        self.dtypes = {"f16": torch.float16, "bf16": torch.bfloat16,
                       "f32": torch.float32, "i8": torch.int8,
                       "i32": torch.int32,
                       "f8E4M3FN": torch.float8_e4m3fn,
                       "f8E5M2": torch.float8_e5m2}
        props = torch.cuda.get_device_properties(0)
        self.props = props
        l2_bytes = getattr(props, "L2_cache_size", 0) or 0
        self.flush = None
        if not args.no_flush and not args.check:
            flush_bytes = 2 * l2_bytes if l2_bytes else 256 << 20
            self.flush = torch.empty(flush_bytes, dtype=torch.uint8,
                                     device="cuda")
        self.flush_counter = 0

    def inputs(self, case):
        """Seeded integers in [-r, r]: exact in every type (docs/Benchmark.md)."""
        torch = self.torch
        seed = (self.args.seed * 1000003 + zlib.crc32(case.key.encode())) % (1 << 63)
        generator = torch.Generator(device="cuda").manual_seed(seed)
        r = case.value_range
        a = torch.randint(-r, r + 1, case.a_shape, generator=generator,
                          device="cuda", dtype=torch.int32)
        b = torch.randint(-r, r + 1, case.b_shape, generator=generator,
                          device="cuda", dtype=torch.int32)
        dtype = self.dtypes[case.in_type]
        if case.in_type.startswith("f8"):
            # Integers convert to 8-bit floats through a wider float.
            return a.float().to(dtype), b.float().to(dtype)
        return a.to(dtype), b.to(dtype)

    def launch(self, case, a, b, c):
        # A as M x K and B as K x N through their strides (kernel_scalars):
        # the kernel takes the tensors as stored, K x M for a `tn` or `tt`
        # A, N x K for an `nt` or `tt` B (no copy).
        grid = lambda meta: (  # noqa: E731
            self.triton.cdiv(case.m, meta["BLOCK_M"]) *
            self.triton.cdiv(case.n, meta["BLOCK_N"]),)
        self.kernel[grid](a, b, c, *kernel_scalars(case),
                          **kernel_constants(case))

    def precompile(self, case):
        """Compiles every configuration for the case's specialization (the
        autotuner's warmup: dtypes for the pointers, no memory, no launch)."""
        dtype = self.dtypes[case.in_type]
        self.kernel.warmup(dtype, dtype, self.dtypes[case.acc_type],
                           *kernel_scalars(case), **kernel_constants(case),
                           grid=(1,))

    def time(self, run):
        """Median, quartiles, min and max in ms, as gpucg-bench times."""
        torch = self.torch
        stream = torch.cuda.current_stream()
        args = self.args
        for _ in range(args.warmup):
            self._flush()
            run()
        adaptive = args.max_seconds > 0 or args.spread > 0
        batch = 10 if adaptive else args.iterations
        samples = []
        while len(samples) < args.iterations:
            count = min(batch, args.iterations - len(samples))
            starts = [torch.cuda.Event(enable_timing=True)
                      for _ in range(count)]
            stops = [torch.cuda.Event(enable_timing=True)
                     for _ in range(count)]
            for start, stop in zip(starts, stops):
                self._flush()
                start.record(stream)
                run()
                stop.record(stream)
            torch.cuda.synchronize()
            samples += [start.elapsed_time(stop)
                        for start, stop in zip(starts, stops)]
            ordered = sorted(samples)
            median = statistics.median(ordered)
            spread = percentile(ordered, 0.75) - percentile(ordered, 0.25)
            if adaptive and len(samples) >= args.min_iterations and (
                    (args.max_seconds > 0 and
                     sum(samples) >= 1000 * args.max_seconds) or
                    (args.spread > 0 and spread <= args.spread * median)):
                break
        samples.sort()
        return {"median": statistics.median(samples),
                "min": samples[0], "max": samples[-1],
                "p25": percentile(samples, 0.25),
                "p75": percentile(samples, 0.75), "runs": len(samples)}

    def _flush(self):
        if self.flush is not None:
            self.flush.fill_(self.flush_counter & 0xFF)
            self.flush_counter += 1

    def run_case(self, case):
        torch = self.torch
        row = {"key": case.key, "name": case.name, "m": case.m, "n": case.n,
               "k": case.k, "in_type": case.in_type,
               "acc_type": case.acc_type, "layout": case.layout,
               "status": "ok", "message": "", "config": ""}
        try:
            a, b = self.inputs(case)
            # A value no result can have, so that an unwritten element shows.
            fill = 0x7F7F7F7F if case.acc_type == "i32" else math.nan
            c = torch.full((case.m, case.n), fill,
                           dtype=self.dtypes[case.acc_type], device="cuda")
            self.launch(case, a, b, c)
            a_mk, b_kn = operands_mk_kn(case, a, b)
            reference = torch.matmul(a_mk.double(), b_kn.double())
            got = c.double()
            differ = got != reference
            mismatches = int(differ.sum().item())
            max_error = float((got - reference).abs().max().item()) if got.numel() else 0.0
            if math.isnan(max_error):
                max_error = math.inf
            row["mismatches"] = mismatches
            row["max_abs_error"] = max_error
            if mismatches:
                row["status"] = "MISMATCH"
                index = int(differ.flatten().nonzero()[0].item())
                i, j = divmod(index, case.n)
                row["message"] = (f"{mismatches} elements differ from "
                                  f"torch.matmul in float64; C[{i}][{j}] = "
                                  f"{got[i, j].item()}, expected "
                                  f"{reference[i, j].item()}")
            del reference, got, differ
            best = getattr(self.kernel, "best_config", None)
            row["config"] = str(best).replace(",", ";") if best else ""
            if not self.args.check:
                timing = self.time(lambda: self.launch(case, a, b, c))
                row["triton_runs"] = timing.pop("runs")
                row.update({f"triton_ms_{name}": value
                            for name, value in timing.items()})
                row["triton_tflops"] = case.flops / (timing["median"] * 1e9)
        except Exception as error:  # a Triton compile or CUDA error: one row
            row["status"] = "ERROR"
            row["message"] = f"{type(error).__name__}: {error}".splitlines()[0]
        finally:
            torch.cuda.empty_cache()
        return row


def operands_mk_kn(case, a, b):
    """A as M x K and B as K x N: the transposed views of a stored K x M A
    and a stored N x K B, no copy."""
    return (a.t() if case.transpose_a else a,
            b.t() if case.transpose_b else b)


def kernel_scalars(case):
    """M, N, K and the strides of A (as M x K), B (as K x N) and C, each
    stored row-major: a stored-transposed operand swaps its strides."""
    a_strides = (1, case.m) if case.transpose_a else (case.k, 1)
    b_strides = (1, case.k) if case.transpose_b else (case.n, 1)
    return (case.m, case.n, case.k, *a_strides, *b_strides, case.n, 1)


def kernel_constants(case):
    return {"ACC_KIND": {"f32": 0, "f16": 1, "i32": 2}[case.acc_type],
            "TF32": case.in_type == "f32"}


def percentile(sorted_values, q):
    position = q * (len(sorted_values) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (position - low) * (
        sorted_values[high] - sorted_values[low])


CSV_COLUMNS = ["key", "name", "m", "n", "k", "in_type", "acc_type", "layout",
               "status", "triton_tflops", "triton_ms_median", "triton_ms_min",
               "triton_ms_p25", "triton_ms_p75", "triton_ms_max",
               "max_abs_error", "mismatches", "config", "triton_runs",
               "message"]


def csv_value(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}" if not math.isinf(value) else "inf"
    text = str(value)
    if any(ch in text for ch in ",\"\n"):
        text = '"' + text.replace('"', '""').replace("\n", " ") + '"'
    return text


def header_lines(torch, triton, args):
    props = torch.cuda.get_device_properties(0)
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    runs = f"{args.iterations} timed runs"
    if args.max_seconds > 0 or args.spread > 0:
        stops = []
        if args.max_seconds > 0:
            stops.append(f"they add up to {args.max_seconds:g} s")
        if args.spread > 0:
            stops.append("their interquartile range is at most "
                         f"{args.spread:g} of the median")
        runs = (f"{args.min_iterations} to {args.iterations} timed runs in "
                "batches of 10, no more batches once " + " or ".join(stops))
    method = ("--check, one run each" if args.check else
              f"{args.warmup} warm-up + {runs}, CUDA events, " +
              ("no L2 flush" if args.no_flush else
               "L2 flushed (memset) before every run"))
    return [
        "triton_matmul.py: the project's Triton GEMM (docs/Benchmark.md)",
        f"date: {date}",
        f"gpu: {props.name}, sm_{props.major}{props.minor}, "
        f"{props.multi_processor_count} SMs",
        f"torch {torch.__version__} (CUDA {torch.version.cuda}), "
        f"triton {triton.__version__}",
        f"method: {method}; every element compared with torch.matmul in "
        f"float64; seed {args.seed}",
    ]


def main():
    args = parse_args()
    cases = benchcases.read_shapes_or_exit(args.shapes, args.filter, TOOL)
    if args.list:
        for case in cases:
            print(f"{case.key} name={case.name}")
        return 0
    torch, triton, tl = import_gpu_stack()
    if args.precompile:
        return precompile(cases, args)
    runner = Runner(torch, triton, tl, args)
    header = header_lines(torch, triton, args)
    for line in header:
        print("# " + line)
    csv = None
    if args.csv:
        csv = open(args.csv, "w", encoding="utf-8")
        for line in header:
            csv.write("# " + line + "\n")
        csv.write(",".join(CSV_COLUMNS) + "\n")
    print(f"{'case':36} {'name':28} {'Triton TFLOP/s':>17} {'max_err':>8} "
          f"{'mismatches':>10} result")
    failed = 0
    start = time.monotonic()
    not_run = []
    for case in cases:
        if args.deadline and time.monotonic() - start >= args.deadline:
            not_run.append(case)
            continue
        row = runner.run_case(case)
        if row["status"] != "ok":
            failed += 1
        tflops = "-"
        if "triton_tflops" in row:
            spread = 100 * (row["triton_ms_p75"] - row["triton_ms_p25"]) / row["triton_ms_median"]
            tflops = f"{row['triton_tflops']:.2f} ({spread:.1f}%)"
        name = "" if case.name == case.key else case.name
        print(f"{case.key:36} {name:28} {tflops:>17} "
              f"{csv_value(row.get('max_abs_error')) or '-':>8} "
              f"{row.get('mismatches', '-')!s:>10} {row['status']}", flush=True)
        if row["message"]:
            print(f"    {case.key}: {row['message']}", flush=True)
        if csv:
            csv.write(",".join(csv_value(row.get(column))
                               for column in CSV_COLUMNS) + "\n")
            csv.flush()
    if csv:
        csv.close()
    run = len(cases) - len(not_run)
    note = ""
    if not_run:
        print(f"# the deadline ({args.deadline:g} s) has passed: no case "
              f"from {not_run[0].key} on is run")
        note = f"; {len(not_run)} cases not run (deadline)"
    print(f"# {run} cases: {run - failed} ok, {failed} failed{note}")
    return 1 if failed else 0


def precompile_share(args, cases):
    """One --precompile process: its share of the cases' specializations."""
    torch, triton, tl = import_gpu_stack()
    # No flush buffer: nothing is timed.
    runner = Runner(torch, triton, tl, argparse.Namespace(**{
        **vars(args), "check": True}))
    failed = 0
    for case in cases:
        try:
            runner.precompile(case)
        except Exception as error:  # noqa: BLE001 - reported, not fatal
            failed += 1
            print(f"{TOOL}: precompile {case.key}: {type(error).__name__}: "
                  f"{str(error).splitlines()[0] if str(error) else ''}",
                  file=sys.stderr)
    return failed


def precompile(cases, args):
    """Compiles the kernels of `cases` in -j processes: one case per
    argument specialization (what Triton keys its cache on besides the
    configuration), so no two processes compile the same kernel."""
    import concurrent.futures
    import multiprocessing

    def specialization(case):
        flags = tuple((value == 1, value % 16 == 0)
                      for value in kernel_scalars(case))
        return (case.in_type, case.acc_type, flags)

    distinct = list({specialization(case): case for case in cases}.values())
    shares = [distinct[i::args.jobs] for i in range(args.jobs)]
    shares = [share for share in shares if share]
    start = time.monotonic()
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
            max_workers=len(shares), mp_context=context) as pool:
        failed = sum(pool.map(precompile_share, [args] * len(shares), shares))
    print(f"{TOOL}: precompiled {len(distinct)} specializations x "
          f"{len(CONFIGS)} configurations in "
          f"{time.monotonic() - start:.1f} s with {len(shares)} processes; "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
