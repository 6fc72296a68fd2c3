# ===- __main__.py - python -m gpucg compile|passes|bench -------------------===#
#
# Part of the gpucg project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===------------------------------------------------------------------------===#
"""The gpucg command line:

  python -m gpucg compile kernel.mlir [--chip sm_80] [--format ptx] [-o DIR]
  python -m gpucg compile kernel.mlir --pipeline 'gpucg-matmul-mma-sync'
  python -m gpucg passes [--options]
  python -m gpucg bench kernel.mlir --tiles 64x64x32,128x128x32 [--run]
"""

import argparse
import pathlib
import sys
import time

from . import _capi, compiler, ir, runtime


def _dims(text, count=None):
    values = tuple(int(v) for v in text.lower().split("x"))
    if count is not None and len(values) != count:
        raise argparse.ArgumentTypeError(f"expected {count} sizes AxB..., "
                                         f"got '{text}'")
    return values


def _print_diagnostics(diagnostics):
    for diagnostic in diagnostics:
        print(diagnostic, file=sys.stderr)


def _compile(args):
    try:
        result = compiler.compile(
            pathlib.Path(args.file), pipeline=args.pipeline,
            chip=args.chip or None, format=args.format,
            bare_pointers=not args.memref_descriptors,
            deterministic_reductions=args.deterministic_reductions,
            report=args.report, f32_precision=args.f32_precision)
    except compiler.CompileError as error:
        _print_diagnostics(error.diagnostics)
        print(f"gpucg: {error.status}", file=sys.stderr)
        return 1
    _print_diagnostics(result.diagnostics)
    if args.output_dir:
        for path in result.save(args.output_dir):
            print(path)
        return 0
    if args.print_module or not result.kernels:
        sys.stdout.write(result.module)
        return 0
    for kernel in result.kernels:
        if isinstance(kernel.binary, bytes):
            print(f"gpucg: {kernel.binary_file_name} is binary "
                  f"({len(kernel.binary)} bytes); use -o DIR",
                  file=sys.stderr)
            return 1
        sys.stdout.write(kernel.binary)
    return 0


def _passes(args):
    entries = compiler.passes() + compiler.pipelines()
    for entry in entries:
        where = f" [{entry.anchor}]" if entry.anchor else ""
        print(f"{entry.kind:8} {entry.name}{where}: {entry.summary}")
        if args.options:
            for option in entry.options:
                print(f"    {option.name}={option.default}  "
                      f"{option.description}")
    return 0


def _matmul_flops(kernel_abi):
    """2*M*N*K when the function takes A (MxK), B (KxN), C (MxN), else
    None."""
    specs = kernel_abi.function_arguments()
    shapes = [s.shape if s is not None and s.is_buffer else None
              for s in specs]
    if len(shapes) != 3 or any(s is None or len(s) != 2 or None in s
                               for s in shapes):
        return None
    (m, k), (k2, n), (m2, n2) = shapes
    if (k, m, n) != (k2, m2, n2):
        return None
    return 2 * m * n * k


def _random_arguments(kernel_abi):
    import numpy
    generator = numpy.random.default_rng(0)
    values = []
    for spec in kernel_abi.function_arguments():
        dtype = runtime._NUMPY_DTYPES[spec.element_type]
        shape = tuple(spec.shape)
        if dtype.startswith("float"):
            values.append(generator.uniform(-1, 1, shape).astype(dtype))
        else:
            values.append(generator.integers(-4, 4, shape).astype(dtype))
    return values


def _resources(text, chip):
    """The kernel's registers and spills from a cubin for `chip` (ptxas
    decides them), or None where ptxas is missing or fails."""
    try:
        return compiler.compile(text, chip=chip, format="cubin").kernels[0]
    except compiler.CompileError:
        return None


def _cache(args):
    from . import cache
    if args.clear:
        print(f"gpucg: removed {cache.clear()} entries from "
              f"{cache.directory()}")
        return 0
    entries = list(cache.directory().glob("*.json"))
    size = sum(entry.stat().st_size for entry in entries)
    state = "on" if cache.enabled(None) else "off (GPUCG_CACHE)"
    print(f"{cache.directory()}: {len(entries)} entries, {size} bytes; "
          f"{state}")
    return 0


def _bench(args):
    source = pathlib.Path(args.file).read_text(encoding="utf-8")
    can_run = args.run and runtime.device_count() > 0
    if args.run and not can_run:
        print("gpucg: no GPU (or no runtime): compiling only",
              file=sys.stderr)
    configs = [None] if not args.tiles else args.tiles
    rows = []
    for tiles in configs:
        label = "strategy" if tiles is None else "x".join(map(str, tiles))
        try:
            text = source
            if tiles is not None:
                info = ir.compilation_info(
                    tiles, args.workgroup, pipeline=args.pipeline,
                    depth=args.depth)
                text = ir.with_compilation_info(source, info, args.op)
            start = time.perf_counter()
            # PTX: the driver compiles it for the GPU at hand, which a cubin
            # for another major compute capability would not run on.
            result = compiler.compile(text, chip=args.chip, format="ptx")
            compile_ms = (time.perf_counter() - start) * 1000.0
        except (compiler.CompileError, ValueError) as error:
            message = str(error).splitlines()
            rows.append((label, "error", message[-1] if message else ""))
            continue
        kernel_abi = result.kernels[0].abi_info
        facts = (f"grid {'x'.join(str(e) for e in kernel_abi.grid)} block "
                 f"{'x'.join(map(str, kernel_abi.block))} dynamic smem "
                 f"{kernel_abi.dynamic_shared_memory}; compiled in "
                 f"{compile_ms:.0f} ms")
        resources = _resources(text, args.chip)
        spills = bool(resources and resources.spills)
        if resources:
            facts += (f"; {resources.registers} registers, "
                      f"{resources.spills} bytes spilled")
            if resources.workgroups_per_sm is not None:
                facts += (f", {resources.workgroups_per_sm} workgroups per "
                          "SM")
        outcome = "SPILLS" if spills else "compiled"
        if not can_run or (spills and args.skip_spilling):
            rows.append((label, outcome, facts))
            continue
        kernel = runtime.Kernel.from_compiled(result)
        ms = kernel.benchmark(*_random_arguments(kernel_abi),
                              repeat=args.repeat)
        flops = _matmul_flops(kernel_abi)
        rate = f", {flops / ms / 1e9:.1f} TFLOP/s" if flops else ""
        rows.append((label, f"{ms:.4f} ms{rate}"
                     + (" SPILLS" if spills else ""), facts))
    width = max(len(row[0]) for row in rows)
    for label, outcome, facts in rows:
        print(f"{label:>{width}}  {outcome:24} {facts}")
    return 0 if any(row[1] != "error" for row in rows) else 1


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m gpucg",
                                     description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    compile_parser = sub.add_parser(
        "compile", help="compile an MLIR file (gpucg-compile, or a pipeline)")
    compile_parser.add_argument("file")
    compile_parser.add_argument("--pipeline", "-p",
                                help="textual pipeline instead of "
                                     "gpucg-compile")
    compile_parser.add_argument("--chip", default="sm_80",
                                help="target chip; '' for the module's "
                                     "gpucg.target")
    compile_parser.add_argument("--format", default="ptx",
                                choices=sorted(compiler.FORMATS))
    compile_parser.add_argument("--memref-descriptors", action="store_true",
                                help="memref descriptors instead of bare "
                                     "pointers")
    compile_parser.add_argument("--deterministic-reductions",
                                action="store_true",
                                help="keep rows of floating-point sums whole "
                                     "instead of splitting them across "
                                     "workgroups with atomic adds")
    compile_parser.add_argument("--f32-precision", default="tf32",
                                choices=compiler.F32_PRECISIONS,
                                help="f32 matmuls on tensor cores as TF32 "
                                     "(default) or in IEEE f32 on the SIMT "
                                     "cores")
    compile_parser.add_argument("--report", action="store_true",
                                help="say each kernel's plan (pipeline, "
                                     "MMA instruction, workgroup, tiles, "
                                     "stages) on stderr")
    compile_parser.add_argument("--output-dir", "-o",
                                help="write each kernel's binary and .abi "
                                     "here")
    compile_parser.add_argument("--print-module", action="store_true",
                                help="print the module, not the PTX")
    compile_parser.set_defaults(handler=_compile)

    passes_parser = sub.add_parser("passes",
                                   help="list gpucg's passes and pipelines")
    passes_parser.add_argument("--options", action="store_true",
                               help="with their options and defaults")
    passes_parser.set_defaults(handler=_passes)

    cache_parser = sub.add_parser(
        "cache", help="the compile cache: where it is and what it holds")
    cache_parser.add_argument("--clear", action="store_true",
                              help="remove every entry")
    cache_parser.set_defaults(handler=_cache)

    bench_parser = sub.add_parser(
        "bench", help="compile (and on a GPU, time) a kernel for a sweep of "
                      "workgroup tiles")
    bench_parser.add_argument("file")
    bench_parser.add_argument("--tiles", type=lambda t: [
        _dims(c, 3) for c in t.split(",")],
        help="comma-separated MxNxK workgroup tiles (default: the "
             "strategy's choice)")
    bench_parser.add_argument("--workgroup", type=lambda t: _dims(t, 3),
                              default=(64, 2, 1),
                              help="threads per workgroup XxYxZ")
    bench_parser.add_argument("--depth", type=int, default=3,
                              help="software-pipelining depth")
    bench_parser.add_argument("--pipeline",
                              default="MatmulTensorCoreMmaSync",
                              help="translation_info pipeline")
    bench_parser.add_argument("--op", default="linalg.matmul",
                              help="the root op to configure")
    bench_parser.add_argument("--chip", default="sm_80")
    bench_parser.add_argument("--run", action="store_true",
                              help="run and time on the GPU")
    bench_parser.add_argument("--repeat", type=int, default=20)
    bench_parser.add_argument("--skip-spilling", action="store_true",
                              help="with --run: do not time configurations "
                                   "that spill registers")
    bench_parser.set_defaults(handler=_bench)

    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except BrokenPipeError:  # `python -m gpucg passes | head`
        sys.stderr.close()
        return 0
    except _capi.LibraryNotFoundError as error:
        # An installed package without a gpucg build to load: what to do,
        # not a traceback.
        print(f"gpucg: {error}", file=sys.stderr)
        return 2
    except (FileNotFoundError, IsADirectoryError) as error:
        print(f"gpucg: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
