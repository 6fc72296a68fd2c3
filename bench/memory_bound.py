#!/usr/bin/env python3
"""Memory-bound kernels against the GPU's own copy bandwidth.

Elementwise kernels (with and without a broadcast), row reductions, the
sum of squares of LLM-width rows (RMSNorm's reduction) and whole softmax and
RMSNorm rows (one kernel each), compiled by gpucg-compile as the strategy
plans them (Vectorize, WarpReduction), run on small-integer inputs, checked
against PyTorch (element by element where the result is exact, within a
few units in the last place for softmax and RMSNorm), and timed. Each kernel's bandwidth (bytes it must read and write, over its time)
is set against the device-to-device copy bandwidth measured in the same run
(a 1 GiB torch copy: reading and writing, like the kernels). The target of
issue 11 is 90 % of the copy bandwidth for elementwise kernels and large
reductions.

The two halves run on different machines in this project (MLIR here, the GPU
there), like bench/run.sh:

    bench/memory_bound.py --compile-only OUT [--chip sm_90] [--filter RE]
    bench/memory_bound.py --run-only OUT [--repeat 20] [--deadline S]
    bench/memory_bound.py --run-only OUT --dry-run     # no GPU

--compile-only writes OUT/kernels/<case>/ (the cubin or PTX and the .abi
file), OUT/src/<case>.mlir and OUT/manifest.json. --run-only needs the gpucg
Python package (python/ on PYTHONPATH), libgpucg_cuda_runtime.so
($GPUCG_RUNTIME_LIB) and PyTorch with CUDA; it writes OUT/results/memory.csv
and memory.md. Without a usable GPU it says why and exits with status 77.
--deadline S starts no case after S seconds (the rest are listed as not
run). --dry-run needs no GPU: it checks that every case's .abi file parses
and names a binary that is there, and writes the tables without numbers.
"""

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass

from compile_kernels import find_gpucg_opt
import kernel_runs
from kernel_runs import check_kernel, import_abi_reader, import_gpu_stack

TOOL = "memory_bound.py"
BYTES = {"f16": 2, "bf16": 2, "f32": 4}


@dataclass
class Case:
    name: str
    kind: str          # add, bias_add, row_sum, sum_of_squares, softmax, rmsnorm
    rows: int
    cols: int
    dtype: str         # element type of the inputs
    out_dtype: str     # element type of the result
    # Compiled with deterministic-reductions: rows of float sums stay whole
    # (the baseline of a row the strategy splits across workgroups).
    deterministic: bool = False
    # Compiled with every size dynamic (`?`), the sizes passed at launch:
    # what a model exported with run-time shapes costs against the static
    # case of the same sizes.
    dynamic: bool = False

    @property
    def function(self):
        return re.sub(r"[^A-Za-z0-9_]", "_", self.name)

    @property
    def is_reduction(self):
        return self.kind in ("row_sum", "sum_of_squares")

    def bytes_moved(self):
        """What the kernel must read and write at least, once each."""
        element = BYTES[self.dtype] * self.rows * self.cols
        if self.kind == "add":
            return 3 * element
        if self.kind == "bias_add":
            return 2 * element + BYTES[self.dtype] * self.cols
        # Normalizations read the row and write it (and read a weight).
        if self.kind == "softmax":
            return 2 * element
        if self.kind == "rmsnorm":
            return 2 * element + BYTES[self.dtype] * self.cols
        # Reductions read the input and read and write one result per row.
        return element + 2 * BYTES[self.out_dtype] * self.rows


def all_cases():
    cases = []
    for log2 in (20, 24, 28):
        n = 1 << log2
        for dtype in ("f16", "bf16", "f32"):
            cases.append(Case(f"add_{dtype}_2^{log2}", "add", n // 4096, 4096,
                              dtype, dtype))
        cases.append(Case(f"bias_add_f16_2^{log2}", "bias_add", n // 4096,
                          4096, "f16", "f16"))
    # Rows of an odd size (a hidden size of 4097): the add's loops merge
    # into one run of elements (gpucg-collapse-elementwise-dims), 128-bit
    # vectors; the bias add's broadcast keeps them apart, one element per
    # thread.
    cases.append(Case("add_f16_4096x4097", "add", 4096, 4097, "f16", "f16"))
    cases.append(Case("bias_add_f16_4096x4097", "bias_add", 4096, 4097,
                      "f16", "f16"))
    for rows, cols in ((100000, 100), (4096, 4096), (32, 1 << 20),
                       (1 << 20, 32)):
        cases.append(Case(f"row_sum_f32_{rows}x{cols}", "row_sum", rows, cols,
                          "f32", "f32"))
    # The few long rows again, one workgroup per row: what splitting them
    # across workgroups (with atomic adds) gains.
    cases.append(Case("row_sum_f32_32x1048576_whole_rows", "row_sum", 32,
                      1 << 20, "f32", "f32", deterministic=True))
    for width in (4096, 8192, 14336):
        cases.append(Case(f"sum_of_squares_f16_4096x{width}",
                          "sum_of_squares", 4096, width, "f16", "f32"))
    for width in (4096, 8192, 14336):
        cases.append(Case(f"softmax_f32_4096x{width}", "softmax", 4096, width,
                          "f32", "f32"))
        cases.append(Case(f"rmsnorm_f16_4096x{width}", "rmsnorm", 4096, width,
                          "f16", "f16"))
    # The same kernels with every size known only at run time, beside their
    # static neighbours above.
    for case in [c for c in cases if c.name in (
            "add_f16_2^24", "bias_add_f16_2^24", "row_sum_f32_4096x4096",
            "sum_of_squares_f16_4096x4096", "softmax_f32_4096x4096",
            "rmsnorm_f16_4096x4096")]:
        cases.append(Case(case.name + "_dynamic", case.kind, case.rows,
                          case.cols, case.dtype, case.out_dtype, dynamic=True))
    return cases


def tensor_type(case, shape, dtype):
    """`tensor<AxBxT>`, every size `?` in a dynamic case."""
    sizes = ["?" if case.dynamic else str(size) for size in shape]
    return f"tensor<{'x'.join(sizes)}x{dtype}>"


def normalization_source(case):
    """Softmax (max, exp, sum, divide) or RMSNorm (sum of squares in f32,
    1 / sqrt(mean + 1e-5), the row times that and a weight) on tensors."""
    t = lambda shape, dtype: tensor_type(case, shape, dtype)
    a = t((case.rows, case.cols), case.dtype)
    r = t((case.rows,), "f32")
    # The temporaries' sizes: the input's where they are dynamic.
    sizes = ("  %c0 = arith.constant 0 : index\n"
             "  %c1 = arith.constant 1 : index\n"
             f"  %rows = tensor.dim %a, %c0 : {a}\n"
             f"  %cols = tensor.dim %a, %c1 : {a}\n") if case.dynamic else ""
    row_sizes = "(%rows)" if case.dynamic else "()"
    all_sizes = "(%rows, %cols)" if case.dynamic else "()"
    header = f"""// bench/memory_bound.py: {case.name}
#id = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#one = affine_map<(d0) -> (d0)>
"""
    if case.kind == "softmax":
        return header + f"""func.func @{case.function}(%a: {a}, %out: {a}) -> {a} {{
{sizes}  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty{row_sizes} : {r}
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : {r}) -> {r}
  %max = linalg.generic {{indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}}
      ins(%a : {a}) outs(%m0 : {r}) {{
    ^bb0(%x: f32, %acc: f32):
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
  }} -> {r}
  %er = tensor.empty{all_sizes} : {a}
  %ex = linalg.generic {{indexing_maps = [#id, #rows, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a, %max : {a}, {r}) outs(%er : {a}) {{
    ^bb0(%x: f32, %m: f32, %o: f32):
      %d = arith.subf %x, %m : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
  }} -> {a}
  %s0 = linalg.fill ins(%zero : f32) outs(%e : {r}) -> {r}
  %sum = linalg.generic {{indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}}
      ins(%ex : {a}) outs(%s0 : {r}) {{
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
  }} -> {r}
  %0 = linalg.generic {{indexing_maps = [#id, #rows, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%ex, %sum : {a}, {r}) outs(%out : {a}) {{
    ^bb0(%x: f32, %s: f32, %o: f32):
      %y = arith.divf %x, %s : f32
      linalg.yield %y : f32
  }} -> {a}
  return %0 : {a}
}}
"""
    w = t((case.cols,), case.dtype)
    dt = case.dtype
    width = (f"{sizes}  %ci = arith.index_cast %cols : index to i64\n"
             "  %n = arith.sitofp %ci : i64 to f32\n" if case.dynamic else
             f"  %n = arith.constant {float(case.cols)!r} : f32\n")
    return header + f"""func.func @{case.function}(%a: {a}, %w: {w}, %out: {a}) -> {a} {{
  %zero = arith.constant 0.0 : f32
{width}  %eps = arith.constant 1.0e-5 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty{row_sizes} : {r}
  %s0 = linalg.fill ins(%zero : f32) outs(%e : {r}) -> {r}
  %ss = linalg.generic {{indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}}
      ins(%a : {a}) outs(%s0 : {r}) {{
    ^bb0(%x: {dt}, %acc: f32):
      %f = arith.extf %x : {dt} to f32
      %q = arith.mulf %f, %f : f32
      %s = arith.addf %q, %acc : f32
      linalg.yield %s : f32
  }} -> {r}
  %scale = linalg.generic {{indexing_maps = [#one, #one], iterator_types = ["parallel"]}}
      ins(%ss : {r}) outs(%e : {r}) {{
    ^bb0(%s: f32, %o: f32):
      %m = arith.divf %s, %n : f32
      %p = arith.addf %m, %eps : f32
      %q = math.sqrt %p : f32
      %y = arith.divf %one, %q : f32
      linalg.yield %y : f32
  }} -> {r}
  %0 = linalg.generic {{indexing_maps = [#id, #rows, #cols, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a, %scale, %w : {a}, {r}, {w}) outs(%out : {a}) {{
    ^bb0(%x: {dt}, %k: f32, %g: {dt}, %o: {dt}):
      %f = arith.extf %x : {dt} to f32
      %gf = arith.extf %g : {dt} to f32
      %y = arith.mulf %f, %k : f32
      %z = arith.mulf %y, %gf : f32
      %h = arith.truncf %z : f32 to {dt}
      linalg.yield %h : {dt}
  }} -> {a}
  return %0 : {a}
}}
"""


def mlir_source(case):
    """A module with the case's kernel on tensors."""
    if case.kind in ("softmax", "rmsnorm"):
        return normalization_source(case)
    t = lambda shape, dtype: tensor_type(case, shape, dtype)
    a = t((case.rows, case.cols), case.dtype)
    if case.kind in ("add", "bias_add"):
        # out = a + b, b either a whole matrix or one row broadcast (a bias).
        bias = case.kind == "bias_add"
        b = t((case.cols,), case.dtype) if bias else a
        args = f"%a: {a}, %b: {b}, %out: {a}"
        maps = "[#id, #cols, #id]" if bias else "[#id, #id, #id]"
        iterators = '["parallel", "parallel"]'
        ins = f"ins(%a, %b : {a}, {b})"
        outs = f"outs(%out : {a})"
        body = (f"^bb0(%x: {case.dtype}, %y: {case.dtype}, %o: {case.dtype}):\n"
                f"      %s = arith.addf %x, %y : {case.dtype}\n"
                f"      linalg.yield %s : {case.dtype}")
        result = a
    else:
        r = t((case.rows,), case.out_dtype)
        args = f"%a: {a}, %out: {r}"
        maps = "[#id, #rows]"
        iterators = '["parallel", "reduction"]'
        ins = f"ins(%a : {a})"
        outs = f"outs(%out : {r})"
        if case.kind == "row_sum":
            body = (f"^bb0(%x: {case.dtype}, %acc: {case.out_dtype}):\n"
                    f"      %s = arith.addf %x, %acc : {case.out_dtype}\n"
                    f"      linalg.yield %s : {case.out_dtype}")
        else:
            body = (f"^bb0(%x: {case.dtype}, %acc: {case.out_dtype}):\n"
                    f"      %e = arith.extf %x : {case.dtype} to {case.out_dtype}\n"
                    f"      %q = arith.mulf %e, %e : {case.out_dtype}\n"
                    f"      %s = arith.addf %q, %acc : {case.out_dtype}\n"
                    f"      linalg.yield %s : {case.out_dtype}")
        result = r
    return f"""// bench/memory_bound.py: {case.name}
#id = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @{case.function}({args}) -> {result} {{
  %0 = linalg.generic {{indexing_maps = {maps}, iterator_types = {iterators}}}
      {ins} {outs} {{
    {body}
  }} -> {result}
  return %0 : {result}
}}
"""


def compile_cases(cases, out, chip, fmt):
    opt = find_gpucg_opt(None)
    if not opt:
        print("memory_bound.py: no gpucg-opt ($GPUCG_OPT, build/bin/gpucg-opt "
              "or PATH); build gpucg first", file=sys.stderr)
        return 2
    os.makedirs(os.path.join(out, "src"), exist_ok=True)
    manifest, failures = [], 0
    for case in cases:
        source = os.path.join(out, "src", f"{case.function}.mlir")
        with open(source, "w") as f:
            f.write(mlir_source(case))
        kernels = os.path.join(out, "kernels", case.function)
        os.makedirs(kernels, exist_ok=True)
        extra = " deterministic-reductions=true" if case.deterministic else ""
        # The plan as gpucg-compile made it (its report), after the stages
        # before the strategy (an odd row's loops merged, for one).
        compiled = subprocess.run(
            [opt, source, "-o", os.devnull, "--pass-pipeline=builtin.module("
             f"gpucg-compile{{chip={chip} format={fmt} output-dir={kernels}"
             f"{extra} report=true}})"],
            capture_output=True, text=True)
        if compiled.returncode != 0:
            failures += 1
            print(f"memory_bound.py: {case.name}: compilation failed:\n"
                  f"{compiled.stderr}", file=sys.stderr)
            continue
        plan = re.search(r"remark: plan of @\S+: pipeline (\w+)",
                         compiled.stderr)
        entry = asdict(case)
        entry["pipeline"] = plan.group(1) if plan else "?"
        entry["abi"] = os.path.join("kernels", case.function,
                                    f"{case.function}_kernel.abi")
        manifest.append(entry)
        print(f"compiled {case.name}: {entry['pipeline']}")
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"chip": chip, "format": fmt, "cases": manifest}, f,
                  indent=1)
    print(f"memory_bound.py: {len(manifest)} compiled, {failures} failed; "
          f"manifest: {os.path.join(out, 'manifest.json')}")
    return 1 if failures else 0


def copy_bandwidth(torch, repeat):
    """GB/s of a 1 GiB device-to-device copy (bytes read plus written)."""
    size = 1 << 30
    src = torch.empty(size, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeat):
        dst.copy_(src)
    stop.record()
    torch.cuda.synchronize()
    seconds = start.elapsed_time(stop) / 1000.0 / repeat
    del src, dst
    return 2 * size / seconds / 1e9


def run_case(torch, gpucg, out, entry, repeat):
    """Returns (correct, milliseconds)."""
    dtypes = {"f16": torch.float16, "bf16": torch.bfloat16,
              "f32": torch.float32}
    dtype, out_dtype = dtypes[entry["dtype"]], dtypes[entry["out_dtype"]]
    rows, cols = entry["rows"], entry["cols"]
    integers = lambda *shape: torch.randint(-3, 4, shape, device="cuda")
    kernel = gpucg.Kernel(os.path.join(out, entry["abi"]))
    a = integers(rows, cols).to(dtype)
    if entry["kind"] in ("add", "bias_add"):
        b = (integers(rows, cols) if entry["kind"] == "add"
             else integers(cols)).to(dtype)
        result = torch.full((rows, cols), -1, dtype=dtype, device="cuda")
        args = (a, b, result)
        expected = (a.double() + b.double()).to(dtype)
    elif entry["kind"] == "softmax":
        result = torch.full((rows, cols), -1, dtype=dtype, device="cuda")
        args = (a, result)
        expected = torch.softmax(a.double(), dim=1).to(dtype)
    elif entry["kind"] == "rmsnorm":
        w = integers(cols).to(dtype)
        result = torch.full((rows, cols), -1, dtype=dtype, device="cuda")
        args = (a, w, result)
        x = a.double()
        scale = 1.0 / torch.sqrt((x * x).mean(dim=1, keepdim=True) + 1e-5)
        expected = (x * scale * w.double()).to(dtype)
    else:
        result = integers(rows).to(out_dtype)
        args = (a, result)
        values = a.double() if entry["kind"] == "row_sum" else a.double() ** 2
        expected = (result.double() + values.sum(dim=1)).to(out_dtype)
    kernel(*args)
    torch.cuda.synchronize()
    if entry["kind"] in ("softmax", "rmsnorm"):
        # exp, the reassociated sums and the division round differently from
        # PyTorch's double reference: a few units in the last place.
        tolerance = 1e-5 if dtype == torch.float32 else 2e-3
        correct = bool(torch.allclose(result.double(), expected.double(),
                                      rtol=tolerance, atol=tolerance * 1e-3))
    else:
        correct = bool(torch.equal(result, expected))
    milliseconds = kernel.benchmark(*args, repeat=repeat, warmup=3)
    kernel.close()
    return correct, milliseconds


def entry_case(entry):
    return Case(**{k: entry[k] for k in ("name", "kind", "rows", "cols",
                                         "dtype", "out_dtype")},
                deterministic=entry.get("deterministic", False),
                dynamic=entry.get("dynamic", False))


def write_results(out, device, chip, copy, rows):
    """OUT/results/memory.csv and memory.md; `copy` None in a dry run."""
    results = os.path.join(out, "results")
    os.makedirs(results, exist_ok=True)
    number = lambda value, form: "" if value is None else format(value, form)  # noqa: E731
    with open(os.path.join(results, "memory.csv"), "w") as f:
        f.write("case,pipeline,ms,gb_per_s,fraction_of_copy,correct\n")
        for row in rows:
            f.write(f"{row[0]},{row[1]},{number(row[2], '.5f')},"
                    f"{number(row[3], '.2f')},{number(row[4], '.3f')},"
                    f"{row[5]}\n")
    with open(os.path.join(results, "memory.md"), "w") as f:
        bandwidth = (f"{copy:.0f} GB/s (1 GiB, read + write)" if copy
                     else "not measured")
        f.write(f"{device}, chip {chip}; device-to-device copy "
                f"{bandwidth}\n\n")
        f.write("| case | pipeline | ms | GB/s | of copy | correct |\n")
        f.write("| --- | --- | ---: | ---: | ---: | --- |\n")
        for row in rows:
            f.write(f"| {row[0]} | {row[1]} | {number(row[2], '.4f') or '-'} "
                    f"| {number(row[3], '.0f') or '-'} | "
                    f"{number(row[4], '.2f') or '-'} | {row[5]} |\n")
    return results


def dry_run_cases(out):
    """What --run-only would run, checked without a GPU."""
    manifest = kernel_runs.read_manifest(TOOL, out)
    if manifest is None:
        return 2
    abi = import_abi_reader(TOOL)
    if abi is None:
        return 2
    rows, failures = [], 0
    for entry in manifest["cases"]:
        _, problem = check_kernel(abi, os.path.join(out, entry["abi"]))
        failures += problem is not None
        status = "dry-run" if problem is None else "ERROR"
        rows.append((entry["name"], entry["pipeline"], None, None, None,
                     status))
        print(f"{entry['name']}: {entry['pipeline']}, {status}"
              + (f": {problem}" if problem else ""))
    results = write_results(out, "no GPU (--dry-run: nothing measured)",
                            manifest["chip"], None, rows)
    print(f"memory_bound.py: --dry-run: {len(rows)} cases, {failures} "
          f"unusable; results: {results}")
    return 1 if failures else 0


def run_cases(out, repeat, deadline=0.0):
    start = time.monotonic()
    manifest = kernel_runs.read_manifest(TOOL, out)
    if manifest is None:
        return 2
    stack = import_gpu_stack(TOOL)
    if isinstance(stack, int):
        return stack
    gpucg, torch = stack

    copy = copy_bandwidth(torch, repeat)
    rows, failures, not_run = [], 0, []
    for entry in manifest["cases"]:
        if deadline and time.monotonic() - start >= deadline:
            not_run.append(entry["name"])
            continue
        case = entry_case(entry)
        correct, ms = run_case(torch, gpucg, out, entry, repeat)
        gbs = case.bytes_moved() / (ms / 1000.0) / 1e9
        failures += not correct
        rows.append((case.name, entry["pipeline"], ms, gbs, gbs / copy,
                     "yes" if correct else "NO"))
        print(f"{case.name}: {entry['pipeline']}, {ms:.4f} ms, {gbs:.1f} GB/s "
              f"({gbs / copy:.2f} of copy), correct: {rows[-1][-1]}")
    results = write_results(out, torch.cuda.get_device_name(),
                            manifest["chip"], copy, rows)
    note = ""
    if not_run:
        print(f"memory_bound.py: the deadline ({deadline:g} s) has passed: "
              f"no case from {not_run[0]} on is run")
        note = f", {len(not_run)} not run (deadline)"
    print(f"memory_bound.py: copy {copy:.0f} GB/s; {len(rows)} cases, "
          f"{failures} wrong{note}; results: {results}")
    return 1 if failures else 0


def main(argv=None):
    parser = kernel_runs.argument_parser(__doc__.split("\n\n")[0], "case")
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--repeat", type=int, default=20)
    args = kernel_runs.parse_arguments(parser, argv)
    cases = [c for c in all_cases() if re.search(args.filter, c.name)]
    if args.list:
        for case in cases:
            print(f"{case.name} {case.kind} {case.rows}x{case.cols} "
                  f"{case.dtype}->{case.out_dtype} {case.bytes_moved()} bytes")
        return 0
    if args.compile_only:
        return compile_cases(cases, args.compile_only, args.chip, args.format)
    if args.dry_run:
        return dry_run_cases(args.run_only)
    return run_cases(args.run_only, args.repeat, args.deadline)


if __name__ == "__main__":
    sys.exit(main())
