#!/usr/bin/env python3
"""Linear layers with a fused epilogue, against cuBLASLt's and Triton's.

A linear layer as models write it: y = act(x @ W^T + bias), x M x K and W
N x K in bf16, an f32 accumulator, y in bf16. Each shape runs in seven
forms (FORMS below): the plain matmul with its f32 result (the matmul
benchmark's own case), the cast to bf16 alone, the bias alone, and the bias
with ReLU, tanh-GELU, erf-GELU or SiLU. gpucg compiles every form for each
variant (VARIANTS: mma.sync on sm_90, the warpgroup-MMA plan on sm_90a) and
each is timed beside

  - cuBLASLt through PyTorch: `torch.matmul` (cast), `torch.addmm` (bias:
    cuBLASLt's BIAS epilogue), `torch._addmm_activation` (ReLU, tanh-GELU:
    the RELU_BIAS and GELU_BIAS epilogues); erf-GELU and SiLU have no
    cuBLASLt epilogue, so PyTorch runs `addmm` and then the activation (two
    kernels), the plain form `torch.mm(..., out_dtype=torch.float32)`. The
    kernels each one launched are recorded (torch.profiler), so the table
    says which ran fused;
  - Triton: one GEMM kernel with the same epilogue fused (128 x 256 x 64
    tiles on 8 warps in 3 stages, or 64 x 128 x 64 on 4 warps in 4 stages
    where the large tile gives under two waves; groups of 8 rows).

The issue-35 targets: a fused form at least 0.95 of the same variant's cast
form (the matmul without the epilogue, bf16 out) and at least cuBLASLt's
fused epilogue.

Inputs are seeded small integers scaled by powers of two (x and W: [-2, 2]
/ 8, bias: [-3, 3] / 4), so that the accumulator is exact and the
activation's input has about a model's range (a standard deviation near 1.4
at K = 4096; plain integers would overflow SiLU's exp(-x) into the slow path
of each f32 division). The reference is exact up to the activation, which
is evaluated in float64 and rounded once to bf16. A result is correct when
every element is within one bf16 unit in the last place of the reference
(the activation's f32 evaluation may round the other way; plus 1e-3
absolutely, for the GELU's and SiLU's cancelling tails); the share of
elements equal to the reference is reported too. Timing: 3 warm-up runs,
then batches of 10, each run after an L2 flush and a short GPU sleep (so
that the host's launch is not timed), until 0.2 s of kernel time or a 1 %
spread (10 to 100 runs); the median.

Like bench/memory_bound.py, the two halves run on different machines:

    bench/fused_epilogue.py --list
    bench/fused_epilogue.py --compile-only OUT [--filter RE] [--format isa]
    bench/fused_epilogue.py --run-only OUT [--deadline S] [--no-triton]
    bench/fused_epilogue.py --run-only OUT --dry-run          # no GPU

--compile-only writes OUT/src/<case>.mlir, OUT/kernels/<variant>/<case>/
and OUT/manifest.json. --run-only needs the gpucg Python package (python/
on PYTHONPATH), libgpucg_cuda_runtime.so ($GPUCG_RUNTIME_LIB), PyTorch
with CUDA and (for its column) Triton; it writes OUT/results/fused.csv and
fused.md. Exit status: 0 all correct; 1 a gpucg result is wrong or a case
failed; 2 bad usage or OUT; 77 no usable GPU (the reason is printed).
"""

import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
import zlib
from dataclasses import asdict, dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compile_kernels import find_gpucg_opt  # noqa: E402
from kernel_runs import (argument_parser, check_kernel,  # noqa: E402
                         import_abi_reader, import_gpu_stack,
                         parse_arguments, read_manifest)

TOOL = "fused_epilogue.py"

# (name, chip): the plans a user gets on an H100 from each chip name.
VARIANTS = (("sm_90", "sm_90"), ("sm_90a", "sm_90a"))

# The shapes: a square, a Llama-3-8B MLP up projection, and partial tiles.
SHAPES = ((4096, 4096, 4096), (4096, 14336, 4096), (1000, 1000, 1000))

# name: (has a bias, output type, the activation's MLIR on %s, f32 -> %y)
GELU_TANH = """\
      %half = arith.constant 0.5 : f32
      %k0 = arith.constant 0.797884583 : f32
      %k1 = arith.constant 0.044715 : f32
      %one = arith.constant 1.0 : f32
      %x2 = arith.mulf %s, %s : f32
      %x3 = arith.mulf %x2, %s : f32
      %i1 = arith.mulf %x3, %k1 : f32
      %i2 = arith.addf %s, %i1 : f32
      %i3 = arith.mulf %i2, %k0 : f32
      %th = math.tanh %i3 : f32
      %p = arith.addf %one, %th : f32
      %h = arith.mulf %s, %half : f32
      %y = arith.mulf %h, %p : f32
"""
GELU_ERF = """\
      %half = arith.constant 0.5 : f32
      %rs = arith.constant 0.707106769 : f32
      %one = arith.constant 1.0 : f32
      %u = arith.mulf %s, %rs : f32
      %erf = math.erf %u : f32
      %p = arith.addf %one, %erf : f32
      %h = arith.mulf %s, %half : f32
      %y = arith.mulf %h, %p : f32
"""
SILU = """\
      %ng = arith.negf %s : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %y = arith.divf %s, %den : f32
"""
RELU = """\
      %y = arith.maximumf %s, %zero : f32
"""
FORMS = {
    "plain": (False, "f32", None),
    "cast": (False, "bf16", ""),
    "bias": (True, "bf16", ""),
    "bias_relu": (True, "bf16", RELU),
    "bias_gelu_tanh": (True, "bf16", GELU_TANH),
    "bias_gelu_erf": (True, "bf16", GELU_ERF),
    "bias_silu": (True, "bf16", SILU),
}
# What the fused forms are set against (the matmul without an epilogue).
BASE_FORM = "cast"


@dataclass
class Case:
    m: int
    n: int
    k: int
    form: str

    @property
    def name(self):
        return f"linear_{self.m}x{self.n}x{self.k}_{self.form}"

    @property
    def shape(self):
        return f"{self.m}x{self.n}x{self.k}"

    @property
    def flops(self):
        return 2 * self.m * self.n * self.k


def all_cases():
    return [Case(m, n, k, form) for m, n, k in SHAPES for form in FORMS]


def mlir_source(case, chip):
    """x: M x K, w: N x K (x @ w^T), bias: N, all bf16; out: M x N."""
    has_bias, out_type, activation = FORMS[case.form]
    m, n, k = case.m, case.n, case.k
    x, w = f"tensor<{m}x{k}xbf16>", f"tensor<{n}x{k}xbf16>"
    acc, out = f"tensor<{m}x{n}xf32>", f"tensor<{m}x{n}x{out_type}>"
    maps = ("indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
            "affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]")
    head = (f"// {TOOL} case {case.name}: {case.form} on x @ W^T "
            f"(written by bench/{TOOL}).\n"
            f'module attributes {{gpucg.target = #gpucg.target<chip = '
            f'"{chip}">}} {{\n')
    if activation is None:
        return head + f"""\
  func.func @{case.name}(%x: {x}, %w: {w}, %out: {out}) -> {out} {{
    %zero = arith.constant 0.0 : f32
    %init = linalg.fill ins(%zero : f32) outs(%out : {out}) -> {out}
    %mm = linalg.matmul {maps}
        ins(%x, %w : {x}, {w}) outs(%init : {out}) -> {out}
    return %mm : {out}
  }}
}}
"""
    bias_arg = f"%bias: tensor<{n}xbf16>, " if has_bias else ""
    ins = "%mm, %bias" if has_bias else "%mm"
    in_types = f"{acc}, tensor<{n}xbf16>" if has_bias else acc
    in_maps = ("affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>"
               if has_bias else "affine_map<(i, j) -> (i, j)>")
    block_args = "%a: f32, %b: bf16, %o: bf16" if has_bias else "%a: f32, %o: bf16"
    if not has_bias:
        body = "      %t = arith.truncf %a : f32 to bf16\n"
    else:
        body = ("      %bf = arith.extf %b : bf16 to f32\n"
                "      %s = arith.addf %a, %bf : f32\n" +
                (activation or "      %y = arith.addf %s, %zero : f32\n") +
                "      %t = arith.truncf %y : f32 to bf16\n")
    return head + f"""\
  func.func @{case.name}(%x: {x}, %w: {w}, {bias_arg}%out: {out}) -> {out} {{
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : {acc}
    %init = linalg.fill ins(%zero : f32) outs(%empty : {acc}) -> {acc}
    %mm = linalg.matmul {maps}
        ins(%x, %w : {x}, {w}) outs(%init : {acc}) -> {acc}
    %r = linalg.generic {{indexing_maps = [{in_maps}, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}}
        ins({ins} : {in_types}) outs(%out : {out}) {{
    ^bb0({block_args}):
{body}      linalg.yield %t : bf16
    }} -> {out}
    return %r : {out}
  }}
}}
"""


# ---------------------------------------------------------------------------
# --compile-only
# ---------------------------------------------------------------------------

def compile_cases(cases, out, fmt):
    opt = find_gpucg_opt(None)
    if not opt:
        print(f"{TOOL}: no gpucg-opt ($GPUCG_OPT, build/bin/gpucg-opt or "
              "PATH); build gpucg first", file=sys.stderr)
        return 2
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    manifest, failures = [], 0
    for case in cases:
        for variant, chip in VARIANTS:
            source = os.path.join(out, "src", f"{variant}-{case.name}.mlir")
            with open(source, "w") as f:
                f.write(mlir_source(case, chip))
            kernels = os.path.join(out, "kernels", variant, case.name)
            os.makedirs(kernels, exist_ok=True)
            compiled = subprocess.run(
                [opt, source, "-o", os.devnull,
                 "--pass-pipeline=builtin.module(gpucg-compile{"
                 f"format={fmt} output-dir={kernels} report=true}})"],
                capture_output=True, text=True)
            if compiled.returncode != 0:
                failures += 1
                print(f"{TOOL}: {variant} {case.name}: compilation failed:\n"
                      f"{compiled.stderr}", file=sys.stderr)
                continue
            # The plan remark (report=true), not a warning that names
            # another pipeline.
            plan = re.search(r"remark: plan of @[^:]+: pipeline (\w+)",
                             compiled.stderr)
            entry = asdict(case)
            entry.update(variant=variant, chip=chip, name=case.name,
                         pipeline=plan.group(1) if plan else "?",
                         abi=os.path.join("kernels", variant, case.name,
                                          f"{case.name}_kernel.abi"))
            manifest.append(entry)
            print(f"compiled {variant} {case.name}: {entry['pipeline']}")
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"format": fmt, "cases": manifest}, f, indent=1)
    print(f"{TOOL}: {len(manifest)} compiled, {failures} failed; manifest: "
          f"{os.path.join(out, 'manifest.json')}")
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

COLUMNS = ("shape", "form", "variant", "pipeline", "gpucg_ms",
           "gpucg_tflops", "of_cast", "cublaslt_ms", "cublaslt_fused",
           "of_cublaslt", "triton_ms", "of_triton", "equal", "correct",
           "cublaslt_kernels")


def number(value, form):
    return "" if value is None else format(value, form)


def write_results(out, device, rows):
    results = os.path.join(out, "results")
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "fused.csv"), "w") as f:
        f.write(",".join(COLUMNS) + "\n")
        for row in rows:
            f.write(",".join(str(row.get(c, "")).replace(",", ";")
                             for c in COLUMNS) + "\n")
    with open(os.path.join(results, "fused.md"), "w") as f:
        f.write(f"{device}. Linear layers x @ W^T (+ bias, activation), bf16 "
                "in, f32 accumulator, bf16 out (plain: f32 out). `of cast`: "
                "TFLOP/s over the same variant's cast form (the matmul "
                "without an epilogue); `of cuBLASLt`, `of Triton`: gpucg's "
                "TFLOP/s over theirs. cuBLASLt `fused`: its kernels ran the "
                "epilogue (one kernel), else PyTorch ran a second kernel.\n\n")
        f.write("| shape | form | variant | plan | gpucg ms | TFLOP/s | of "
                "cast | cuBLASLt ms | fused | of cuBLASLt | Triton ms | of "
                "Triton | equal | correct |\n")
        f.write("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |"
                " ---: | ---: | ---: | ---: | --- |\n")
        for row in rows:
            f.write(
                f"| {row['shape']} | {row['form']} | {row['variant']} | "
                f"{row['pipeline']} | {number(row.get('gpucg_ms'), '.4f') or '-'} | "
                f"{number(row.get('gpucg_tflops'), '.1f') or '-'} | "
                f"{number(row.get('of_cast'), '.2f') or '-'} | "
                f"{number(row.get('cublaslt_ms'), '.4f') or '-'} | "
                f"{row.get('cublaslt_fused', '-')} | "
                f"{number(row.get('of_cublaslt'), '.2f') or '-'} | "
                f"{number(row.get('triton_ms'), '.4f') or '-'} | "
                f"{number(row.get('of_triton'), '.2f') or '-'} | "
                f"{number(row.get('equal'), '.4f') or '-'} | "
                f"{row['correct']} |\n")
    return results


def dry_run(out):
    """--run-only without a GPU: every kernel's .abi file and binary."""
    manifest = read_manifest(TOOL, out)
    if manifest is None:
        return 2
    abi = import_abi_reader(TOOL)
    if abi is None:
        return 2
    rows, failures = [], 0
    for entry in manifest["cases"]:
        kernel, problem = check_kernel(abi, os.path.join(out, entry["abi"]))
        expected = 3 + FORMS[entry["form"]][0]
        if problem is None and len(kernel.arguments) != expected:
            problem = (f"{len(kernel.arguments)} arguments, expected "
                       f"{expected}")
        failures += problem is not None
        status = "dry-run" if problem is None else "ERROR"
        rows.append({"shape": f"{entry['m']}x{entry['n']}x{entry['k']}",
                     "form": entry["form"], "variant": entry["variant"],
                     "pipeline": entry["pipeline"], "correct": status})
        print(f"{entry['variant']} {entry['name']}: {entry['pipeline']}, "
              f"{status}" + (f": {problem}" if problem else ""))
    results = write_results(out, "No GPU (--dry-run: nothing measured)", rows)
    print(f"{TOOL}: --dry-run: {len(rows)} kernels, {failures} unusable; "
          f"results: {results}")
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# --run-only (GPU)
# ---------------------------------------------------------------------------

def percentile(ordered, q):
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (position - low) * (ordered[high] - ordered[low])


class Timer:
    """Median milliseconds of `run()`, each run after an L2 flush and a GPU
    sleep that covers the host's launch (module docstring)."""

    def __init__(self, torch):
        self.torch = torch
        l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size",
                     0) or (64 << 20)
        self.flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
        self.count = 0

    def __call__(self, run, warmup=3, limit=100, minimum=10, seconds=0.2,
                 spread=0.01):
        torch = self.torch
        for _ in range(warmup):
            run()
        samples = []
        while len(samples) < limit:
            pairs = []
            for _ in range(10):
                self.flush.fill_(self.count & 0xFF)
                self.count += 1
                torch.cuda._sleep(500000)  # ~0.25 ms: the launch is queued
                start = torch.cuda.Event(enable_timing=True)
                stop = torch.cuda.Event(enable_timing=True)
                start.record()
                run()
                stop.record()
                pairs.append((start, stop))
            torch.cuda.synchronize()
            samples += [start.elapsed_time(stop) for start, stop in pairs]
            ordered = sorted(samples)
            median = statistics.median(ordered)
            if len(samples) >= minimum and (
                    sum(samples) >= 1000 * seconds or
                    percentile(ordered, 0.75) - percentile(ordered, 0.25)
                    <= spread * median):
                break
        return statistics.median(samples)


def activation(torch, form, s):
    """The form's activation in float64."""
    if form in ("plain", "cast", "bias"):
        return s
    if form == "bias_relu":
        return torch.clamp_min(s, 0.0)
    if form == "bias_gelu_tanh":
        return 0.5 * s * (1.0 + torch.tanh(
            math.sqrt(2.0 / math.pi) * (s + 0.044715 * s * s * s)))
    if form == "bias_gelu_erf":
        return 0.5 * s * (1.0 + torch.erf(s / math.sqrt(2.0)))
    return s * torch.sigmoid(s)


def cublaslt_call(torch, form, x, w, bias):
    """PyTorch's call for the form (module docstring), or None."""
    functional = torch.nn.functional
    if form == "plain":
        try:
            torch.mm(x[:1], w[:1].t(), out_dtype=torch.float32)
        except (TypeError, RuntimeError):
            return None
        return lambda: torch.mm(x, w.t(), out_dtype=torch.float32)
    if form == "cast":
        return lambda: torch.matmul(x, w.t())
    if form == "bias":
        return lambda: torch.addmm(bias, x, w.t())
    if form == "bias_relu":
        return lambda: torch._addmm_activation(bias, x, w.t(), use_gelu=False)
    if form == "bias_gelu_tanh":
        return lambda: torch._addmm_activation(bias, x, w.t(), use_gelu=True)
    if form == "bias_gelu_erf":
        return lambda: functional.gelu(torch.addmm(bias, x, w.t()))
    return lambda: functional.silu(torch.addmm(bias, x, w.t()))


def kernels_launched(torch, call):
    """The CUDA kernels `call` launches (names), by torch.profiler."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        call()
        torch.cuda.synchronize()
    names = [event.name for event in prof.events()
             if getattr(event, "device_type", None) is not None and
             "CUDA" in str(event.device_type)]
    return [name for name in names if "memset" not in name.lower()]


# Triton's tiles, as a user would pick them: 128 x 256 x 64 on 8 warps for
# a large layer; 64 x 128 x 64 on 4 warps where the large tile gives fewer
# than two waves of workgroups on an H100's 132 SMs (1000^3: 32 tiles).
TRITON_LARGE = (dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8),
                dict(num_warps=8, num_stages=3))
TRITON_SMALL = (dict(BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, GROUP_M=8),
                dict(num_warps=4, num_stages=4))
TRITON_MIN_TILES = 2 * 132
ACTIVATIONS = {"plain": 0, "cast": 0, "bias": 0, "bias_relu": 1,
               "bias_gelu_tanh": 2, "bias_gelu_erf": 3, "bias_silu": 4}


def build_triton(triton, tl):
    @triton.jit
    def linear_kernel(x_ptr, w_ptr, bias_ptr, y_ptr, M, N, K,
                      HAS_BIAS: tl.constexpr, ACTIVATION: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
        pid = tl.program_id(0)
        num_pid_m = tl.cdiv(M, BLOCK_M)
        num_pid_n = tl.cdiv(N, BLOCK_N)
        in_group = GROUP_M * num_pid_n
        first_m = (pid // in_group) * GROUP_M
        group_m = min(num_pid_m - first_m, GROUP_M)
        pid_m = first_m + ((pid % in_group) % group_m)
        pid_n = (pid % in_group) // group_m
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        x_ptrs = x_ptr + offs_m[:, None] * K + offs_k[None, :]
        w_ptrs = w_ptr + offs_n[None, :] * K + offs_k[:, None]
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for step in range(0, tl.cdiv(K, BLOCK_K)):
            left = K - step * BLOCK_K
            a = tl.load(x_ptrs, mask=(offs_m[:, None] < M) &
                        (offs_k[None, :] < left), other=0.0)
            b = tl.load(w_ptrs, mask=(offs_k[:, None] < left) &
                        (offs_n[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
            x_ptrs += BLOCK_K
            w_ptrs += BLOCK_K
        if HAS_BIAS:
            bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
            acc += bias.to(tl.float32)[None, :]
        if ACTIVATION == 1:
            acc = tl.maximum(acc, 0.0)
        elif ACTIVATION == 2:
            inner = 0.7978845608 * (acc + 0.044715 * acc * acc * acc)
            acc = 0.5 * acc * (2.0 - 2.0 / (tl.exp(2.0 * inner) + 1.0))
        elif ACTIVATION == 3:
            acc = 0.5 * acc * (1.0 + tl.erf(acc * 0.7071067811865476))
        elif ACTIVATION == 4:
            acc = acc * tl.sigmoid(acc)
        y_ptrs = y_ptr + offs_m[:, None] * N + offs_n[None, :]
        tl.store(y_ptrs, acc.to(y_ptr.dtype.element_ty),
                 mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

    return linear_kernel


def triton_call(triton, kernel, form, x, w, bias, y):
    m, k = x.shape
    n = w.shape[0]
    tile, launch = TRITON_LARGE
    if (triton.cdiv(m, tile["BLOCK_M"]) * triton.cdiv(n, tile["BLOCK_N"])
            < TRITON_MIN_TILES):
        tile, launch = TRITON_SMALL
    grid = (triton.cdiv(m, tile["BLOCK_M"]) * triton.cdiv(n, tile["BLOCK_N"]),)
    has_bias = FORMS[form][0]
    return lambda: kernel[grid](x, w, bias if has_bias else x, y, m, n, k,
                                HAS_BIAS=has_bias,
                                ACTIVATION=ACTIVATIONS[form],
                                **tile, **launch)


def check(torch, got, expected):
    """(share of elements equal, all within one bf16 ulp + 1e-3); NaN, the
    value outputs start with, is never close."""
    got = got.double()
    equal = float((got == expected).double().mean().item())
    close = torch.isclose(got, expected, rtol=2.0 ** -7, atol=1e-3)
    return equal, bool(close.all().item())


def measure_baselines(torch, timer, triton, triton_kernel, form, x, w, bias,
                      dtype, expected):
    """{("cublaslt", form): (ms or None, kernel names),
        ("triton", form): ms or None}; a baseline that fails or is wrong
    says so and has no time, and the gpucg row stands."""
    found = {("cublaslt", form): (None, []), ("triton", form): None}
    try:
        call = cublaslt_call(torch, form, x, w, bias)
        if call:
            names = kernels_launched(torch, call)
            _, correct = check(torch, call(), expected)
            if not correct:
                print(f"{TOOL}: PyTorch's {form} is not within the "
                      "tolerance; its time is not used")
            else:
                found[("cublaslt", form)] = (timer(call), names)
    except Exception as error:  # noqa: BLE001: a baseline is optional
        print(f"{TOOL}: PyTorch's {form}: {type(error).__name__}: {error}")
    if triton_kernel is None:
        return found
    try:
        y = torch.full(expected.shape, math.nan, dtype=dtype, device="cuda")
        call = triton_call(triton, triton_kernel, form, x, w, bias, y)
        call()
        torch.cuda.synchronize()
        _, correct = check(torch, y, expected)
        if not correct:
            print(f"{TOOL}: Triton's {form} is not within the tolerance; its "
                  "time is not used")
        else:
            found[("triton", form)] = timer(call)
    except Exception as error:  # noqa: BLE001
        print(f"{TOOL}: Triton's {form}: {type(error).__name__}: "
              f"{str(error).splitlines()[0] if str(error) else ''}")
    return found


def run_cases(out, deadline, with_triton):
    began = time.monotonic()
    manifest = read_manifest(TOOL, out)
    if manifest is None:
        return 2
    stack = import_gpu_stack(TOOL)
    if isinstance(stack, int):
        return stack
    gpucg, torch = stack
    triton = triton_kernel = None
    if with_triton:
        try:
            import triton
            import triton.language as tl
            triton_kernel = build_triton(triton, tl)
        except ImportError as error:
            print(f"{TOOL}: no Triton column ({error})")
    timer = Timer(torch)
    by_shape = {}
    for entry in manifest["cases"]:
        by_shape.setdefault((entry["m"], entry["n"], entry["k"]),
                            []).append(entry)
    rows, wrong, not_run = [], 0, 0
    for (m, n, k), entries in by_shape.items():
        if deadline and time.monotonic() - began >= deadline:
            not_run += len(entries)
            continue
        seed = zlib.crc32(f"{m}x{n}x{k}".encode())
        generator = torch.Generator(device="cuda").manual_seed(seed)
        draw = lambda r, *shape: torch.randint(  # noqa: E731
            -r, r + 1, shape, generator=generator, device="cuda")
        # Powers of two keep every sum exact and put the activation's input
        # where a model's is (a standard deviation of about 1.4 at K = 4096):
        # integers of the accumulator's size (about 90) overflow exp(-x) in
        # SiLU and take the slow path of every f32 division, which no model
        # sees.
        x = (draw(2, m, k) * 0.125).to(torch.bfloat16)
        w = (draw(2, n, k) * 0.125).to(torch.bfloat16)
        bias = (draw(3, n) * 0.25).to(torch.bfloat16)
        accumulator = x.double() @ w.double().t()
        baseline = {}  # (form, what) -> ms
        form_rows = {}
        for entry in entries:
            form, variant = entry["form"], entry["variant"]
            has_bias, out_type, _ = FORMS[form]
            dtype = torch.float32 if out_type == "f32" else torch.bfloat16
            s = accumulator + bias.double() if has_bias else accumulator
            expected = activation(torch, form, s).to(dtype).double()
            row = {"shape": f"{m}x{n}x{k}", "form": form, "variant": variant,
                   "pipeline": entry["pipeline"]}
            try:
                kernel = gpucg.Kernel(os.path.join(out, entry["abi"]))
                y = torch.full((m, n), math.nan, dtype=dtype, device="cuda")
                args = (x, w, bias, y) if has_bias else (x, w, y)
                kernel(*args)
                torch.cuda.synchronize()
                row["equal"], correct = check(torch, y, expected)
                row["correct"] = "yes" if correct else "NO"
                wrong += not correct
                ms = timer(lambda: kernel(*args, synchronize=False))
                kernel.close()
                row["gpucg_ms"] = ms
                row["gpucg_tflops"] = m * n * k * 2 / (ms * 1e9)
                if ("cublaslt", form) not in baseline:
                    baseline.update(measure_baselines(
                        torch, timer, triton, triton_kernel, form, x, w,
                        bias, dtype, expected))
                lt_ms, names = baseline[("cublaslt", form)]
                row["cublaslt_ms"] = lt_ms
                row["cublaslt_kernels"] = " + ".join(names)
                row["cublaslt_fused"] = ("-" if lt_ms is None else
                                         "yes" if len(names) == 1 else
                                         f"no ({len(names)} kernels)")
                row["of_cublaslt"] = lt_ms / ms if lt_ms else None
                triton_ms = baseline[("triton", form)]
                row["triton_ms"] = triton_ms
                row["of_triton"] = triton_ms / ms if triton_ms else None
                del y
            except Exception as error:  # one row per failure, then go on
                row["correct"] = f"ERROR: {type(error).__name__}: {error}"
                row["correct"] = row["correct"].splitlines()[0]
                wrong += 1
            form_rows[(form, variant)] = row
            rows.append(row)
            print(f"{variant} {entry['name']}: {row.get('gpucg_ms') or 0:.4f} ms "
                  f"({row.get('gpucg_tflops') or 0:.1f} TFLOP/s), cuBLASLt "
                  f"{row.get('cublaslt_ms') or 0:.4f} ms, Triton "
                  f"{row.get('triton_ms') or 0:.4f} ms, correct: "
                  f"{row['correct']}", flush=True)
        for (form, variant), row in form_rows.items():
            base = form_rows.get((BASE_FORM, variant), {}).get("gpucg_ms")
            if base and row.get("gpucg_ms"):
                row["of_cast"] = base / row["gpucg_ms"]
        del x, w, bias, accumulator
        torch.cuda.empty_cache()
    results = write_results(out, torch.cuda.get_device_name(), rows)
    note = f", {not_run} not run (deadline)" if not_run else ""
    print(f"{TOOL}: {len(rows)} kernels, {wrong} wrong or failed{note}; "
          f"results: {results}")
    return 1 if wrong else 0


def main(argv=None):
    parser = argument_parser(__doc__.split("\n\n")[0], "shape")
    parser.add_argument("--no-triton", action="store_true",
                        help="--run-only: no Triton column")
    args = parse_arguments(parser, argv)
    cases = [c for c in all_cases() if re.search(args.filter, c.name)]
    if args.list:
        for case in cases:
            has_bias, out_type, _ = FORMS[case.form]
            print(f"{case.name} {case.form} {case.shape} bf16->{out_type}"
                  f"{' bias' if has_bias else ''}")
        return 0
    if args.compile_only:
        return compile_cases(cases, args.compile_only, args.format)
    if args.dry_run:
        return dry_run(args.run_only)
    return run_cases(args.run_only, args.deadline, not args.no_triton)


if __name__ == "__main__":
    sys.exit(main())
