#!/usr/bin/env python3
"""Runs random matmuls of every shape through the mma.sync and WMMA
pipelines and the CPU emulator, and compares every result with the untiled
kernel's (docs/Emulation.md, "Sweeps").

  sweep-tensorcore.py --gpucg-opt BIN --reference-runner CMD
                      --emulated-runner CMD [--seed S] [--first I]
                      [--count N] [--keep-dir DIR] [--max-size N]

A case depends only on (seed, index). Its sizes are drawn from 1 to
--max-size (300) with a bias to the awkward ones: primes, a tile size plus
or minus one, and sizes below 16; K from 8 to 200 (primes, 33, 40); its
types are f16 or bf16 into f32, f16 into f16, i8 into i32 or f32 into f32
(TF32); B is K x N or N x K (A * B^T); C is zeroed by a linalg.fill or
accumulated into (C += A * B); a quarter of the kernels take some of M, N
and K as dynamic sizes (main casts its tensors to them). It runs through
one of:
  mma-sync   gpucg-matmul-mma-sync{chip=sm_80} (depth 1 to 4, the epilogue
             of the pipelined K loop peeled or predicated; a third of the
             static ones into a zero fill with split-k 2 to 4 and parts of
             K of 2 to 6 K steps; half of the static ones with 16 to 127
             rows and at least 128 columns on a small-M tile, 16, 32 or 64
             rows by 128 columns);
  wmma       gpucg-matmul-tensorcore{chip=sm_80} (f16 and f32 operands);
  compile    gpucg-compile's stages up to the kernel (the strategy with
             mma=auto, workgroup tiling, bufferization, gpucg-lower-workgroup):
             below 16 rows or columns its plan is not a tensor-core one.
Each runs twice: threads in order and in reverse (GPUCG_EMU_ORDER). Inputs
are small integers, so every sum is exact and results must match bit for
bit (TF32 keeps them exact too).

Prints one line per case that fails (MISMATCH, with the case and the
emulator's report) and a summary; exits 1 if any failed. With --keep-dir,
a failing case's module is kept there as case-INDEX.mlir.
"""

import argparse
import os
import random
import shlex
import subprocess
import sys

PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59,
          61, 67, 71, 73, 79, 83, 89, 97, 101, 127, 131, 151, 173, 191, 197,
          199, 211, 223, 241, 251, 257, 263, 277, 283, 293]
TILES = [16, 32, 64, 128, 256]
# (A and B type, C type, the pipelines that take it)
TYPES = [
    ("f16", "f32", ("mma-sync", "wmma", "compile")),
    ("bf16", "f32", ("mma-sync", "compile")),
    ("f16", "f16", ("mma-sync", "wmma", "compile")),
    ("i8", "i32", ("mma-sync", "compile")),
    ("f32", "f32", ("wmma", "compile")),
]


def draw_size(rng, low, high):
    kind = rng.random()
    if kind < 0.3:
        candidates = [p for p in PRIMES if low <= p <= high]
    elif kind < 0.6:
        candidates = [t + d for t in TILES for d in (-1, 1)
                      if low <= t + d <= high]
    else:
        candidates = []
    if candidates:
        return rng.choice(candidates)
    return rng.randint(low, high)


def make_case(seed, index, max_size):
    rng = random.Random("gpucg-sweep-tensorcore:%d:%d" % (seed, index))
    element, acc, pipelines = rng.choice(TYPES)
    pipeline = rng.choice(pipelines)
    # The forced tensor-core pipelines need a 16 x 16 tile's worth of rows
    # and columns; gpucg-compile plans smaller shapes another way.
    low = 1 if pipeline == "compile" else 16
    m = draw_size(rng, low, max_size)
    n = draw_size(rng, low, max_size)
    k = draw_size(rng, 8, 200)
    b_transposed = rng.random() < 0.4
    accumulate = rng.random() < 0.3
    # No deeper than the K steps: at most 64 bytes of A per K tile.
    bytes_per_element = {"f16": 2, "bf16": 2, "i8": 1, "f32": 4}[element]
    steps = -(-k // (64 // bytes_per_element))
    depth = rng.randint(1, max(1, min(4, steps)))
    peel = rng.random() < 0.5
    # A quarter of the cases are compiled for sizes known only at run time:
    # each of M, N and K dynamic with probability 1/2 (at least one).
    dynamic = ""
    if rng.random() < 0.25:
        dynamic = "".join(d for d in "mnk" if rng.random() < 0.5) or \
            rng.choice("mnk")
    # Drawn last, so that the draws above (and every case without it) stay
    # as they were: a third of the static mma.sync kernels into a zero fill
    # ask for split-K, with a K long enough for parts of several K steps
    # (the plan declines the parts it cannot take).
    split_k = 1
    if pipeline == "mma-sync" and not dynamic and not accumulate and \
            rng.random() < 1 / 3:
        split_k = rng.choice([2, 3, 4])
        # Parts of 2 to 6 K steps (64 bytes of A each), a few not whole
        # steps (each part's own K tail).
        part = rng.choice([64, 96, 128, 144, 192]) * 2 // bytes_per_element
        k = split_k * part
    # Drawn after everything else, for the same reason: half the static
    # mma.sync kernels that a small-M tile fits (16 to 127 rows, at least
    # 128 columns) take one as a user's plan, split or not.
    small_m = (pipeline == "mma-sync" and not dynamic and 16 <= m < 128 and
               n >= 128 and rng.random() < 0.5)
    # Drawn last, for the same reason: half the kernels whose A or B rows
    # have a run-time pitch (a dynamic K; a dynamic N with B[k, n]) round
    # those sizes up to a multiple of 16 bytes, so that the copy of the body
    # gpucg-row-pitch-specialization makes for aligned pitches runs (random
    # sizes are mostly odd).
    if (("k" in dynamic or ("n" in dynamic and not b_transposed)) and
            rng.random() < 0.5):
        multiple = 16 // bytes_per_element
        if "k" in dynamic:
            k = -(-k // multiple) * multiple
        if "n" in dynamic and not b_transposed:
            n = -(-n // multiple) * multiple
    return dict(element=element, acc=acc, pipeline=pipeline, m=m, n=n, k=k,
                b_transposed=b_transposed, accumulate=accumulate,
                depth=depth, peel=peel, dynamic=dynamic, split_k=split_k,
                small_m=small_m)


# The strategy's small-M tiles (select-lowering-strategy.md#small-m):
# (rows, warp tile, workgroup size), the tallest no taller than M.
SMALL_M_TILES = [(64, (32, 64), (64, 2, 1)), (32, (32, 32), (128, 1, 1)),
                 (16, (16, 32), (128, 1, 1))]


def small_m_plan(case):
    """A compilation_info with the small-M tile of the case's M."""
    rows, (warp_m, warp_n), workgroup = next(
        t for t in SMALL_M_TILES if t[0] <= case["m"])
    tile_k, inst_k = (64, 32) if case["element"] == "i8" else (32, 16)
    return ("{gpucg.compilation_info = #gpucg.compilation_info<"
            "lowering_config = #gpucg.lowering_config<tile_sizes = "
            "[[%d, 128, %d], [%d, %d, 0], [16, 8, %d]]>, translation_info = "
            "#gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, "
            "workgroup_size = [%d, %d, %d], subgroup_size = 32, "
            "pipeline_depth = %d, mma_kind = mma_sync>>} " % (
                rows, tile_k, warp_m, warp_n, inst_k, *workgroup,
                case["depth"]))


def describe(case):
    extra = ""
    if case["pipeline"] == "mma-sync":
        extra = ", depth %d, epilogue %s" % (
            case["depth"], "peeled" if case["peel"] else "predicated")
        if case.get("split_k", 1) > 1:
            extra += ", split-k %d" % case["split_k"]
        if case.get("small_m"):
            extra += ", small-M tile"
    if case.get("dynamic"):
        extra += ", dynamic %s" % " ".join(case["dynamic"].upper())
    return "%dx%dx%d %s -> %s B%s%s, %s%s" % (
        case["m"], case["n"], case["k"], case["element"], case["acc"],
        "[n,k]" if case["b_transposed"] else "[k,n]",
        ", C += A * B" if case["accumulate"] else "", case["pipeline"], extra)


def generate(name, shape, element, a, b, mod, offset):
    if element in ("i8", "i32"):
        convert = "%e = arith.trunci %w : i32 to {e}".format(e=element) \
            if element == "i8" else "%e = arith.addi %w, %c0_i32 : i32"
    else:
        convert = "%e = arith.sitofp %w : i32 to {e}".format(e=element)
    return """    %{name} = tensor.generate {{
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * {a} + d1 * {b}) mod {mod})>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c{offset}_i32 : i32
      {convert}
      tensor.yield %e : {element}
    }} : tensor<{shape}x{element}>
""".format(name=name, shape=shape, element=element, a=a, b=b, mod=mod,
           offset=offset, convert=convert)


PRINTERS = {"f32": ("printMemrefF32", "f32", False),
            "f16": ("printMemrefF16", "f16", True),
            "i32": ("printMemrefI32", "i32", False)}


def make_module(case):
    m, n, k = case["m"], case["n"], case["k"]
    element, acc = case["element"], case["acc"]
    a_type = "tensor<%dx%dx%s>" % (m, k, element)
    b_shape = "%dx%d" % ((n, k) if case["b_transposed"] else (k, n))
    b_type = "tensor<%sx%s>" % (b_shape, element)
    c_type = "tensor<%dx%dx%s>" % (m, n, acc)
    # The kernel's own types: `?` for the dynamic sizes; main casts to them.
    dynamic = case.get("dynamic", "")

    def size(name, value):
        return "?" if name in dynamic else str(value)
    ka_type = "tensor<%sx%sx%s>" % (size("m", m), size("k", k), element)
    kb_dims = ((size("n", n), size("k", k)) if case["b_transposed"]
               else (size("k", k), size("n", n)))
    kb_type = "tensor<%sx%sx%s>" % (kb_dims + (element,))
    kc_type = "tensor<%sx%sx%s>" % (size("m", m), size("n", n), acc)
    maps = ("indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
            "affine_map<(d0, d1, d2) -> (d1, d2)>, "
            "affine_map<(d0, d1, d2) -> (d0, d1)>] "
            if case["b_transposed"] else "")
    zero = "0" if acc == "i32" else "0.0"
    if case["accumulate"]:
        init = ""
        outs = "%c"
    else:
        init = ("    %%zero = arith.constant %s : %s\n"
                "    %%f = linalg.fill ins(%%zero : %s) outs(%%c : %s) -> %s\n"
                % (zero, acc, acc, kc_type, kc_type))
        outs = "%f"
    # f16 accumulators stay exact with inputs in [-1, 1] (docs/Benchmark.md).
    mod_a, off_a = (3, 1) if acc == "f16" else (7, 3)
    mod_b, off_b = (3, 1) if acc == "f16" else (5, 2)
    inputs = (generate("a", "%dx%d" % (m, k), element, 3, 5, mod_a, off_a) +
              generate("b", b_shape, element, 2, 3, mod_b, off_b) +
              generate("c0", "%dx%d" % (m, n), acc, 1, 2, 3, 1))
    printer, printed, emit = PRINTERS[acc]
    return """module attributes {{gpucg.target = #gpucg.target<chip = "sm_80">}} {{
  func.func @kernel(%a: {ka}, %b: {kb}, %c: {kc}) -> {kc} {{
{init}    %r = linalg.matmul {maps}{plan}ins(%a, %b : {ka}, {kb}) outs({outs} : {kc}) -> {kc}
    return %r : {kc}
  }}
  func.func @main() {{
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
{inputs}    %ka = tensor.cast %a : {a} to {ka}
    %kb = tensor.cast %b : {b} to {kb}
    %kc = tensor.cast %c0 : {c} to {kc}
    %kr = func.call @kernel(%ka, %kb, %kc) : ({ka}, {kb}, {kc}) -> {kc}
    %r = tensor.cast %kr : {kc} to {c}
    %mr = bufferization.to_buffer %r : {c} to memref<{m}x{n}x{pe}>
    %u = memref.cast %mr : memref<{m}x{n}x{pe}> to memref<*x{pe}>
    func.call @{printer}(%u) : (memref<*x{pe}>) -> ()
    return
  }}
  func.func private @{printer}(memref<*x{pe}>){emit}
}}
""".format(a=a_type, b=b_type, c=c_type, ka=ka_type, kb=kb_type,
           kc=kc_type, m=m, n=n, maps=maps, init=init,
           plan=small_m_plan(case) if case.get("small_m") else "",
           outs=outs, inputs=inputs, printer=printer, pe=printed,
           emit=" attributes {llvm.emit_c_interface}" if emit else "")


def pipeline_of(case):
    if case["pipeline"] == "mma-sync":
        return ("gpucg-matmul-mma-sync{chip=sm_80 depth=%d "
                "epilogue-peeling=%s split-k=%d}" % (
                    case["depth"], str(case["peel"]).lower(),
                    case.get("split_k", 1)))
    if case["pipeline"] == "wmma":
        return "gpucg-matmul-tensorcore{chip=sm_80}"
    return ("gpucg-set-target{chip=sm_80},"
            "func.func(gpucg-select-lowering-strategy,"
            "gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,"
            "gpucg-create-split-k-workspace,func.func(gpucg-lower-workgroup)")


def run(command, stdin, env=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    process = subprocess.run(command, input=stdin, capture_output=True,
                             text=True, env=full_env)
    return process.returncode, process.stdout, process.stderr


def strip_addresses(text):
    # printMemref prints the buffer's address, which differs between runs.
    return "\n".join(line.split("data =")[-1] if "data =" in line else line
                     for line in text.splitlines())


SCHEDULES = [{}, {"GPUCG_EMU_ORDER": "reverse"}]


def check_case(args, case):
    """Returns None, or what went wrong."""
    module = make_module(case)
    status, lowered, error = run(
        [args.gpucg_opt,
         "--pass-pipeline=builtin.module(gpucg-test-lower-to-cpu)"], module)
    if status != 0:
        return "the reference does not compile: " + error.strip()
    status, reference, error = run(shlex.split(args.reference_runner),
                                   lowered)
    if status != 0:
        return "the reference does not run: " + error.strip()
    status, emulated, error = run(
        [args.gpucg_opt, "--pass-pipeline=builtin.module(%s,"
         "gpucg-test-emulate-on-cpu)" % pipeline_of(case)], module)
    if status != 0:
        return "%s fails: %s" % (case["pipeline"], error.strip())
    for schedule in SCHEDULES:
        status, output, error = run(shlex.split(args.emulated_runner),
                                    emulated, schedule)
        where = " ".join("%s=%s" % item for item in schedule.items()) or \
            "in order"
        if status != 0:
            return "%s: the emulator reports: %s" % (where, error.strip())
        if strip_addresses(output) != strip_addresses(reference):
            return "%s: the result differs from the untiled kernel's" % where
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpucg-opt", required=True)
    parser.add_argument("--reference-runner", required=True,
                        help="mlir-runner command for the untiled kernel")
    parser.add_argument("--emulated-runner", required=True,
                        help="mlir-runner command with libgpucg_emulator")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0,
                        help="index of the first case (default 0)")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--max-size", type=int, default=300,
                        help="largest M and N (default 300)")
    parser.add_argument("--keep-dir")
    parser.add_argument("--verbose", action="store_true",
                        help="print every case")
    args = parser.parse_args()

    failures = 0
    for index in range(args.first, args.first + args.count):
        case = make_case(args.seed, index, args.max_size)
        problem = check_case(args, case)
        if args.verbose:
            print("case %d (%s): %s" % (index, describe(case),
                                        "ok" if problem is None else "FAIL"),
                  flush=True)
        if problem is None:
            continue
        failures += 1
        print("MISMATCH case %d (%s): %s" % (index, describe(case),
                                             problem.splitlines()[0]),
              flush=True)
        if args.keep_dir:
            os.makedirs(args.keep_dir, exist_ok=True)
            with open(os.path.join(args.keep_dir, "case-%d.mlir" % index),
                      "w") as out:
                out.write(make_module(case))
    print("sweep-tensorcore: %d cases, %d failed" % (args.count, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
