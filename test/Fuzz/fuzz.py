#!/usr/bin/env python3
"""A deterministic kernel fuzzer for gpucg-opt.

Every case is a random kernel module (linalg on tensors, or workgroup-level
IR on memrefs) and one or two pass pipelines: a named pipeline, one gpucg
pass on the output of the stages before it, or a random chain of gpucg
passes. Each run must end in verified, re-parseable output (exit 0, the
output parsed again by a second gpucg-opt) or in an `error:` diagnostic with
exit status 1. Anything else -- a signal, another exit status, a timeout, a
crash marker (LLVM ERROR, stack dump, assertion, sanitizer report) on
stderr, an `error:` with exit status 0, or an input that is invalid by
construction being accepted -- is a finding.

Cases depend only on (seed, case index): `--seed 1 --count 300` runs the
first 300 cases of `--seed 1 --count 5000`, and `--case I` runs (or, with
`--print`, prints) case I alone. See docs/Fuzzing.md.

Standard library only.
"""

import argparse
import concurrent.futures
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import time

# ---------------------------------------------------------------------------
# Tables. Add a pipeline, a pass or a chip here and the generator uses it.
# ---------------------------------------------------------------------------

#: Known chips (docs/Dialect.md) with their default opt-in shared memory.
CHIPS = {
    "sm_75": 65536,
    "sm_80": 166912,
    "sm_86": 101376,
    "sm_87": 166912,
    "sm_89": 101376,
    "sm_90": 232448,
    "sm_90a": 232448,
}

#: Option kinds: values that must be accepted ("good", plus "odd" extremes
#: that may be accepted or refused) and values the option parser or the pass
#: must refuse ("bad": the run must end in `error:`).
OPTION_KINDS = {
    "chip": dict(good=list(CHIPS), odd=[], bad=["sm_42", "sm_80x", "gfx90a", "sm_"]),
    # gpucg-matmul-wgmma's: sm_90a, the one chip with warpgroup MMA, mostly.
    "wgmma-chip": dict(good=["sm_90a"], odd=["sm_90", "sm_80"], bad=["sm_90b", "gfx90a"]),
    "uint": dict(good=["0", "1", "2", "3", "4"], odd=["5", "8", "16", "64"],
                 bad=["-1", "x", "1.5", "99999999999999999999999"]),
    "depth": dict(good=["0", "1", "2", "3", "4"], odd=["5", "7", "16"],
                  bad=["-1", "three", "1e3"]),
    "padding": dict(good=["0", "64", "128"], odd=["1", "7", "8", "16", "32", "256", "4096"],
                    bad=["-128", "lots"]),
    # The named pipelines' padding: -1 (or any negative) is the MMA family's
    # default.
    "pipeline_padding": dict(good=["-1", "0", "64", "128"], odd=["1", "7", "256"],
                             bad=["lots", "1.5"]),
    "schedule": dict(good=["load-global-stage0", "nvidia-tensorcore"], odd=[],
                     bad=["bogus", "nvidia", "load_global_stage0"]),
    "bool": dict(good=["true", "false"], odd=["1", "0"], bad=["maybe", "2", "yes"]),
    # A workgroup count, 0 meaning the target's SM count.
    "workgroups": dict(good=["0", "1", "2", "3", "132"], odd=["-1", "100000"],
                       bad=["x", "1.5", "99999999999999999999999"]),
    # Rows of tiles per group (workgroup_group_size); negative is an error of
    # the strategy and the pipelines' option check.
    "group-size": dict(good=["0", "1", "2", "4", "8"], odd=["-1", "3", "100000"],
                       bad=["x", "1.5", "99999999999999999999999"]),
    # Parts of each tile's K loop (split_k); 0 is the strategy's default, a
    # count a kernel cannot take is declined, above 64 or negative an error.
    "split-k": dict(good=["0", "1", "2", "4"], odd=["-1", "3", "65"],
                    bad=["x", "1.5", "99999999999999999999999"]),
    # Workgroups of a thread-block cluster along M or N; a product over 8 (or
    # a size under 1) is an error of the strategy and the pipelines' option
    # check.
    "cluster": dict(good=["1", "2", "4"], odd=["0", "-1", "3", "8", "16"],
                    bad=["x", "1.5", "99999999999999999999999"]),
    # Enum option (cl::values): anything else is a parse error.
    "mma-enum": dict(good=["auto", "wmma", "mma-sync", "wgmma"], odd=[],
                     bad=["foo", "mma_sync", "WMMA"]),
    # The MMA option of the vectorization and vector-to-gpu passes.
    "mma-string": dict(good=["auto", "wmma", "mma-sync"], odd=[], bad=["foo", "mma_sync", "tf32"]),
}

#: Named pipelines: flag, anchor, options (option -> kind), whether test-only,
#: and what a successful run's output must contain (the tensor-core pipelines
#: either use tensor cores or say why not, docs/Pipelines.md).
NAMED_PIPELINES = [
    dict(name="gpucg-matmul-tensorcore", anchor="builtin.module",
         options={"chip": "chip", "depth": "depth", "padding": "pipeline_padding",
                  "schedule": "schedule", "epilogue-peeling": "bool",
                  "workgroup-group-size": "group-size", "split-k": "split-k"},
         must_contain="gpu.subgroup_mma_compute"),
    dict(name="gpucg-matmul-mma-sync", anchor="builtin.module",
         options={"chip": "chip", "depth": "depth", "padding": "pipeline_padding",
                  "schedule": "schedule", "epilogue-peeling": "bool",
                  "workgroup-group-size": "group-size", "split-k": "split-k"},
         must_contain="nvgpu.mma.sync"),
    dict(name="gpucg-matmul-wgmma", anchor="builtin.module",
         options={"chip": "wgmma-chip", "wgmma-persistent": "bool",
                  "wgmma-persistent-workgroups": "workgroups",
                  "wgmma-stream-k": "bool",
                  "wgmma-staged-store": "bool", "wgmma-cluster-m": "cluster",
                  "wgmma-cluster-n": "cluster",
                  "workgroup-group-size": "group-size", "split-k": "split-k"},
         must_contain="nvgpu.warpgroup.mma"),
    # The SIMT pipelines take any kernel (others are re-planned as
    # SimtDistribute), so they have no tensor-core flavor.
    dict(name="gpucg-simt", anchor="builtin.module", options={"chip": "chip"}, simt=True),
    dict(name="gpucg-matmul-simt", anchor="builtin.module", options={"chip": "chip"},
         simt=True),
    dict(name="gpucg-vectorize", anchor="builtin.module", options={"chip": "chip"},
         simt=True),
    dict(name="gpucg-warp-reduction", anchor="builtin.module", options={"chip": "chip"},
         simt=True),
    dict(name="gpucg-bufferize", anchor="builtin.module", options={}),
    dict(name="gpucg-test-lower-to-cpu", anchor="builtin.module", options={}, test_only=True),
    dict(name="gpucg-test-emulate-on-cpu", anchor="builtin.module",
         options={"check-races": "bool"}, test_only=True),
]

#: The stages of the tensor-core pipeline in order (docs/Pipelines.md), each
#: with the upstream clean-ups the named pipelines run after it. A pass fuzzed
#: on its own gets the output of the stages before it as input.
STAGES = [
    dict(name="gpucg-select-lowering-strategy", anchor="func.func",
         options={"chip": "chip", "mma": "mma-enum", "require-tensor-cores": "bool",
                  "deterministic-reductions": "bool",
                  "workgroup-group-size": "group-size",
                  "wgmma-persistent": "bool",
                  "wgmma-persistent-workgroups": "workgroups",
                  "wgmma-stream-k": "bool",
                  "wgmma-staged-store": "bool", "wgmma-cluster-m": "cluster",
                  "wgmma-cluster-n": "cluster", "split-k": "split-k"}),
    dict(name="gpucg-tile-and-distribute-to-workgroups", anchor="func.func", options={}),
    dict(name="gpucg-bufferize", anchor="builtin.module", options={}),
    dict(name="gpucg-create-split-k-workspace", anchor="builtin.module", options={}),
    dict(name="gpucg-split-k-across-workgroups", anchor="func.func", options={}),
    dict(name="gpucg-workgroup-specialization", anchor="func.func", options={}),
    dict(name="gpucg-row-pitch-specialization", anchor="func.func", options={}),
    dict(name="gpucg-tile-and-distribute", anchor="func.func",
         options={"distribute-to-warp": "bool"}),
    dict(name="gpucg-remove-single-iteration-loop", anchor="func.func", options={}),
    dict(name="gpucg-multi-buffering", anchor="func.func", options={"num-buffers": "uint"},
         after=["canonicalize", "cse"]),
    dict(name="gpucg-tensor-core-vectorization", anchor="func.func",
         options={"mma": "mma-string"}, after=["fold-memref-alias-ops"]),
    dict(name="gpucg-distribute-shared-memory-copy", anchor="func.func", options={}),
    dict(name="gpucg-reduce-bank-conflicts", anchor="func.func",
         options={"padding-bits": "padding"}),
    dict(name="gpucg-vector-to-gpu", anchor="func.func",
         options={"mma": "mma-string", "tf32": "bool"},
         after=["loop-invariant-code-motion"]),
    dict(name="gpucg-combine-split-k", anchor="func.func", options={}),
    dict(name="gpucg-software-pipelining", anchor="func.func",
         options={"depth": "depth", "epilogue-peeling": "bool", "schedule": "schedule"}),
    dict(name="gpucg-pack-shared-memory-alloc", anchor="func.func", options={},
         after=["canonicalize", "cse"]),
]

#: gpucg passes outside the stage order (fuzzed on any stage's output).
OTHER_PASSES = [
    # Runs on any op, so no nesting is wrong for it.
    dict(name="gpucg-strip-attributes", anchor="builtin.module", options={}, any_op=True),
    dict(name="gpucg-test-serialize-threads", anchor="func.func", options={}, test_only=True),
    dict(name="gpucg-simt-fallback", anchor="func.func",
         options={"keep-warp-reduction": "bool"}),
    dict(name="gpucg-test-emulate-gpu", anchor="builtin.module",
         options={"check-races": "bool"}, test_only=True),
    dict(name="gpucg-test-emulate-launches", anchor="builtin.module", options={},
         test_only=True),
    dict(name="gpucg-generic-vectorization", anchor="func.func",
         options={"max-vector-elements": "uint"}),
    dict(name="gpucg-optimize-vector-transfers", anchor="func.func", options={}),
    dict(name="gpucg-split-rows-across-workgroups", anchor="func.func",
         options={}),
    dict(name="gpucg-lower-matmul-to-wgmma", anchor="func.func",
         options={}, after=["canonicalize", "cse"]),
    dict(name="gpucg-distribute-reduction", anchor="func.func", options={}),
    dict(name="gpucg-reorder-workgroups", anchor="func.func", options={}),
    dict(name="gpucg-promote-thread-buffers", anchor="func.func",
         options={"max-bytes": "uint"}),
    dict(name="gpucg-expand-small-floats", anchor="builtin.module",
         options={"nvvm-float8": "bool"}, any_op=True),
]

#: How the front stages are configured for a pass fuzzed on its own.
FLAVORS = {
    "mma-sync": dict(select="mma=mma-sync require-tensor-cores=true", warp="true",
                     mma="mma-sync"),
    "wmma": dict(select="mma=wmma require-tensor-cores=true", warp="true", mma="wmma"),
    "auto": dict(select="require-tensor-cores=true", warp="true", mma="auto"),
    "wgmma": dict(select="mma=wgmma require-tensor-cores=true", warp="true", mma="auto"),
    "simt": dict(select="", warp="false", mma="auto"),
}

#: stderr text that is a finding whatever the exit status.
CRASH_MARKERS = ["LLVM ERROR", "Stack dump", "PLEASE submit a bug report", "Assertion",
                 "AddressSanitizer", "LeakSanitizer", "runtime error:"]

FLOATS = ["f16", "bf16", "f32", "f64"]
#: 8-bit floats: contraction operands (wgmma's e4m3 and e5m2), epilogue
#: casts and, rarely, elementwise kernels (gpucg-expand-small-floats).
FLOAT8 = ["f8E4M3FN", "f8E5M2"]
INTS = ["i8", "i32", "index", "i1"]
TYPES = FLOATS + INTS + FLOAT8[:1]
#: (A/B element type, accumulator type) of contractions.
CONTRACTION_TYPES = [("f16", "f32"), ("f16", "f16"), ("bf16", "f32"), ("bf16", "bf16"),
                     ("f32", "f32"), ("f64", "f64"), ("i8", "i32"), ("i8", "i8"),
                     ("i32", "i32"), ("index", "index"), ("i1", "i1"), ("i1", "i32"),
                     ("f8E4M3FN", "f32"), ("f8E5M2", "f32")]
#: Contraction types each MMA family lowers in MLIR 22 (weighted in for the
#: tensor-core pipelines, docs/Pipelines.md).
TENSOR_CORE_TYPES = {
    "mma-sync": [("f16", "f32"), ("f16", "f16"), ("i8", "i32")],
    "wmma": [("f16", "f32"), ("f16", "f16"), ("f32", "f32")],
    "auto": [("f16", "f32"), ("f16", "f16"), ("i8", "i32"), ("f32", "f32")],
    "wgmma": [("f16", "f32"), ("bf16", "f32"), ("f8E4M3FN", "f32"), ("f8E5M2", "f32"),
              ("f32", "f32")],
}
PIPELINE_KINDS = ["None", "SimtDistribute", "Vectorize", "MatmulSimt", "MatmulTensorCore",
                  "MatmulTensorCoreMmaSync", "WarpReduction", "MatmulWgmma"]

PRIMES = [2, 3, 5, 7, 13, 17, 31, 37, 61, 127, 257]
POW2 = [2, 4, 8, 16, 32, 64, 128, 256, 512]
OTHER = [24, 48, 72, 96, 100, 112, 160, 192, 384, 1000]
LARGE = [1024, 2048, 4096, 4099, 8192, 65536]
ALIGNED = [16, 32, 48, 64, 96, 128, 256, 512]
#: Sizes of clean tensor-core cases that no tile divides (partial tiles and
#: K tails, zero-padded on the tensor cores): at least 16, the smallest
#: tensor-core workgroup tile, so the MMA the case must contain is planned.
ODD_TENSOR_CORE = [17, 20, 31, 33, 37, 40, 61, 63, 65, 100, 127, 129, 257, 1000]


# ---------------------------------------------------------------------------
# Types and scalar ops.
# ---------------------------------------------------------------------------

def is_float(t):
    return t in FLOATS or t in FLOAT8


def bitwidth(t):
    return {"f16": 16, "bf16": 16, "f8E4M3FN": 8, "f8E5M2": 8, "f32": 32, "f64": 64, "i8": 8,
            "i32": 32,
            "index": 64, "i1": 1}[t]


def tensor_type(shape, elt):
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return "tensor<%s%s>" % (dims, elt)


def zero_literal(t):
    return "0.0" if is_float(t) else "0"


def add_op(t):
    return "arith.addf" if is_float(t) else "arith.addi"


def mul_op(t):
    return "arith.mulf" if is_float(t) else "arith.muli"


def max_op(t):
    return "arith.maximumf" if is_float(t) else "arith.maxsi"


def sub_op(t):
    return "arith.subf" if is_float(t) else "arith.subi"


def cast_op(src, dst):
    """The arith op that converts `src` to `dst`, or None when equal."""
    if src == dst:
        return None
    if is_float(src) and is_float(dst):
        if src in ("f16", "bf16") and dst in ("f16", "bf16"):
            return None  # not produced
        return "arith.extf" if bitwidth(src) < bitwidth(dst) else "arith.truncf"
    if "index" in (src, dst):
        return "arith.index_cast"
    if src == "i1":
        return "arith.extui"
    return "arith.extsi" if bitwidth(src) < bitwidth(dst) else "arith.trunci"


def named_op_ok(*types):
    """Linalg named ops build their bodies for integer or float types only
    (not index), and all of one class."""
    if "index" in types:
        return False
    return all(is_float(t) for t in types) or not any(is_float(t) for t in types)


def dim_map(n, results):
    dims = ", ".join("d%d" % i for i in range(n))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join("d%d" % r for r in results))


# ---------------------------------------------------------------------------
# Kernel builder.
# ---------------------------------------------------------------------------

class Kernel:
    """Builds one func.func: arguments, a body of lines, SSA names."""

    def __init__(self, name):
        self.name = name
        self.args = []        # (name, type)
        self.lines = []
        self.counter = 0
        self.consts = {}
        self.dim_src = {}     # loop -> (ssa value, its type, position)

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def arg(self, ty):
        name = "%%arg%d" % len(self.args)
        self.args.append((name, ty))
        return name

    def emit(self, line):
        self.lines.append("  " + line)

    def const(self, literal, ty):
        key = (literal, ty)
        if key not in self.consts:
            name = self.fresh("c")
            self.emit("%s = arith.constant %s : %s" % (name, literal, ty))
            self.consts[key] = name
        return self.consts[key]

    def operand(self, loops, loop_ids, elt):
        """A tensor argument indexed by `loop_ids`; records where dynamic
        loop sizes can be read."""
        shape = [loops[l] for l in loop_ids]
        ty = tensor_type(shape, elt)
        name = self.arg(ty)
        for pos, l in enumerate(loop_ids):
            self.dim_src.setdefault(l, (name, ty, pos))
        return name, ty

    def empty(self, loops, loop_ids, elt):
        """tensor.empty of the given loops, with tensor.dim for dynamic ones."""
        dyn = []
        for l in loop_ids:
            if loops[l] is None:
                src, src_ty, pos = self.dim_src[l]
                d = self.fresh("d")
                self.emit("%s = tensor.dim %s, %s : %s"
                          % (d, src, self.const(str(pos), "index"), src_ty))
                dyn.append(d)
        ty = tensor_type([loops[l] for l in loop_ids], elt)
        name = self.fresh("e")
        self.emit("%s = tensor.empty(%s) : %s" % (name, ", ".join(dyn), ty))
        return name, ty

    def fill(self, value_name, ty, elt):
        zero = self.const(zero_literal(elt), elt)
        name = self.fresh("f")
        self.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s"
                  % (name, zero, elt, value_name, ty, ty))
        return name

    def text(self, results):
        sig = ", ".join("%s: %s" % a for a in self.args)
        res_types = ", ".join(t for _, t in results)
        head = "func.func @%s(%s)" % (self.name, sig)
        if results:
            head += " -> (%s)" % res_types if len(results) > 1 else " -> %s" % res_types
        body = list(self.lines)
        if results:
            body.append("  return %s : %s" % (", ".join(n for n, _ in results), res_types))
        else:
            body.append("  return")
        return head + " {\n" + "\n".join(body) + "\n}\n"


def generic(k, loops, iters, ins, in_maps, out, out_map, body, attrs=""):
    """Emits a linalg.generic. `ins` and `out` are (name, type, elt);
    `body(k, block_args)` returns the body lines and the yielded value."""
    n = len(loops)
    maps = ", ".join(dim_map(n, m) for m in in_maps + [out_map])
    its = ", ".join('"%s"' % i for i in iters)
    extra = (", " + attrs) if attrs else ""
    args = ["%%in%d" % i for i in range(len(ins))] + ["%out"]
    elts = [e for _, _, e in ins] + [out[2]]
    lines, result = body(args, elts)
    name = k.fresh("r")
    ins_txt = ""
    if ins:
        ins_txt = "ins(%s : %s) " % (", ".join(i[0] for i in ins), ", ".join(i[1] for i in ins))
    k.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]%s} %souts(%s : %s) {"
           % (name, maps, its, extra, ins_txt, out[0], out[1]))
    k.emit("^bb0(%s):" % ", ".join("%s: %s" % (a, e) for a, e in zip(args, elts)))
    for line in lines:
        k.emit("  " + line)
    k.emit("  linalg.yield %s : %s" % (result, out[2]))
    k.emit("} -> %s" % out[1])
    return name


class Body:
    """Straight-line scalar code inside a linalg region."""

    def __init__(self):
        self.lines = []
        self.n = 0

    def op(self, opname, operands, ty, src_ty=None):
        self.n += 1
        name = "%%s%d" % self.n
        if src_ty is not None:
            self.lines.append("%s = %s %s : %s to %s" % (name, opname, operands[0], src_ty, ty))
        else:
            self.lines.append("%s = %s %s : %s" % (name, opname, ", ".join(operands), ty))
        return name

    def convert(self, value, src, dst):
        op = cast_op(src, dst)
        return value if op is None else self.op(op, [value], dst, src_ty=src)


# ---------------------------------------------------------------------------
# Shapes, targets, compilation_info.
# ---------------------------------------------------------------------------

def pick_size(rng, large_ok, aligned):
    """A loop size; `aligned`: the probability of a tensor-core friendly one."""
    if rng.random() < aligned:
        return rng.choice(ALIGNED)
    r = rng.random()
    if r < 0.05:
        return 0
    if r < 0.15:
        return 1
    if r < 0.40:
        return rng.choice(PRIMES)
    if r < 0.80:
        return rng.choice(POW2)
    if r < 0.96 or not large_ok:
        return rng.choice(OTHER)
    return rng.choice(LARGE)


def pick_loops(rng, n, ctx):
    """Sizes of n loops (None: dynamic), at most one of them large."""
    loops = [pick_size(rng, ctx["large_ok"], ctx["aligned"]) for _ in range(n)]
    if ctx.get("odd"):
        loops = [rng.choice(ODD_TENSOR_CORE + ALIGNED) for _ in range(n)]
    if ctx["tensor_core"] == "wgmma" and rng.random() < 0.7:
        # Sizes MatmulWgmma takes: whole wgmma tiles and 128-byte TMA rows,
        # or partial tiles and K tails whose rows are whole 16-byte units
        # (multiples of 8 from 64; and M anything from 64 when it is the
        # first loop).
        loops = [rng.choice([64, 128, 192, 256, 512, 72, 136, 200, 264])
                 for _ in range(n)]
        if rng.random() < 0.3:
            loops[0] = rng.choice([65, 100, 127, 129, 1000])
        # Small M (a decode step: 1 to 56, computed as C^T = B^T * A^T),
        # drawn last.
        if rng.random() < 0.2:
            loops[0] = rng.choice([1, 7, 16, 33, 56])
    if ctx["dynamic"]:
        for i in range(n):
            if rng.random() < 0.4:
                loops[i] = None
        if all(l is not None for l in loops):
            loops[rng.randrange(n)] = None
    # Keep the iteration space bounded: at most one large loop.
    large = [i for i, l in enumerate(loops) if l is not None and l > 1000]
    for i in large[1:]:
        loops[i] = rng.choice(POW2)
    return loops


def gen_target(rng, case, clean, tensor_core=None):
    """Module attribute text, or '' for no target."""
    r = rng.random()
    if clean:
        r = 0.12 + r * 0.78     # a valid target
    if r < 0.12:
        return ""
    chip = rng.choice(list(CHIPS))
    if tensor_core == "wgmma" and rng.random() < 0.7:
        chip = "sm_90a"         # the only chip with warpgroup MMA
    if r < 0.6:
        return '#gpucg.target<chip = "%s">' % chip
    if r < 0.9:
        return '#gpucg.target<%s>' % ", ".join(valid_overrides(rng, chip))
    case["expect_error"].append("invalid #gpucg.target")
    return '#gpucg.target<%s>' % ", ".join(invalid_overrides(rng, chip))


def valid_overrides(rng, chip):
    """Target keys that override a known chip's limits and obey the rules."""
    keys = ['chip = "%s"' % chip]
    warp = 32
    if rng.random() < 0.5:
        warp = rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 1024])
        keys.append("warp_size = %d" % warp)
    threads = 1024
    if warp > 1024 or rng.random() < 0.5:
        threads = warp * rng.choice([1, 2, 3, 4, 7, 8, 32, 33])
        keys.append("max_threads_per_block = %d" % threads)
    elif 1024 % warp:
        keys.append("max_threads_per_block = %d" % (warp * 4))
    if rng.random() < 0.4:
        smem = rng.choice([0, 1, 16, 1024, 4096, 16384, 49152, 65536, 1 << 20, (1 << 31) - 1])
        keys.append("max_shared_memory_per_block = %d" % smem)
        optin = max(smem, rng.choice([0, CHIPS[chip]]))
        keys.append("max_shared_memory_per_block_optin = %d" % optin)
    elif rng.random() < 0.3:
        keys.append("max_shared_memory_per_block_optin = %d" % rng.choice([49152, 65536, 1 << 24]))
    if rng.random() < 0.3:
        per_thread = rng.choice([1, 16, 32, 64, 128, 255, 1024])
        keys.append("max_registers_per_thread = %d" % per_thread)
        keys.append("max_registers_per_block = %d" % (per_thread * rng.choice([1, 32, 256, 1024])))
    rng.shuffle(keys)
    return keys


def invalid_overrides(rng, chip):
    """Target keys that break one rule (docs/Dialect.md): a parse error."""
    bad = rng.choice([
        "warp_size = 0", "warp_size = 3", "warp_size = 48", "warp_size = -32",
        "max_threads_per_block = 0", "max_threads_per_block = 1000",
        "max_threads_per_block = -1024",
        "max_shared_memory_per_block = -1",
        "max_shared_memory_per_block = 300000",  # above the chip's opt-in
        "max_shared_memory_per_block_optin = 100",
        "max_registers_per_thread = 0", "max_registers_per_block = 10",
        "unknown_key = 1", "chip = \"sm_80\"",  # a repeated key
        "mma_shapes = [42]",
    ])
    if rng.random() < 0.25:
        # An unknown or malformed chip must give every key.
        return [rng.choice(['chip = "sm_100"', 'chip = "sm80"', 'chip = "gfx90a"', 'chip = ""']),
                "warp_size = 32"]
    return ['chip = "%s"' % chip, bad]


def sensible_config(rng, info):
    """A compilation_info that fits the root op (`info`: loop roles)."""
    roles = info["roles"]
    n = len(roles)
    if info["kind"] == "contraction" and rng.random() < 0.15:
        # Warp-specialized or single-warpgroup wgmma tiles (sm_90a only).
        consumers = rng.choice([0, 1, 2])
        rows = rng.choice([64, 64, 128])
        l0 = {"b": 1, "h": 1, "m": rows * max(consumers, 1), "n": rng.choice([64, 128, 256]),
              "k": rng.choice([64, 64, 32])}
        extra = {"pipeline_depth": rng.choice([1, 2, 3, 4])}
        # A transposed tile (fewer than 64 rows of C; 12 is no multiple of
        # wgmma's N step), drawn last.
        if rng.random() < 0.2:
            l0["m"], l0["n"] = rng.choice([8, 12, 16, 56]), 64 * max(consumers, 1)
        return "MatmulWgmma", [[l0[r] for r in roles]], [128 * (consumers + 1), 1, 1], extra
    if info["kind"] == "contraction" and rng.random() < 0.7:
        pipe = rng.choice(["MatmulTensorCore", "MatmulTensorCoreMmaSync", "MatmulSimt"])
        if pipe == "MatmulSimt":
            l0 = {"b": 1, "h": 1, "m": 32, "n": 128, "k": 32}
            l1 = {"b": 0, "h": 0, "m": 4, "n": 4, "k": 0}
            levels = [[l0[r] for r in roles], [l1[r] for r in roles]]
            return pipe, levels, [32, 8, 1], {}
        tm, tn = rng.choice([16, 32, 64, 128]), rng.choice([16, 32, 64, 128])
        tk = rng.choice([16, 32, 64])
        wx, wy = rng.choice([1, 2, 4]), rng.choice([1, 2])
        wx = min(wx, max(1, tn // 16))
        wy = min(wy, max(1, tm // 16))
        l0 = {"b": 1, "h": 1, "m": tm, "n": tn, "k": tk}
        l1 = {"b": 1, "h": 1, "m": tm // wy, "n": tn // wx, "k": 0}
        inst = {"b": 0, "h": 0, "m": 16, "n": 8 if pipe.endswith("MmaSync") else 16, "k": 16}
        levels = [[l0[r] for r in roles], [l1[r] for r in roles]]
        if rng.random() < 0.5:
            levels.append([inst[r] for r in roles])
        extra = {}
        if rng.random() < 0.6:
            extra["pipeline_depth"] = rng.choice([1, 2, 3, 4])
        if rng.random() < 0.3:
            extra["mma_kind"] = "mma_sync" if pipe.endswith("MmaSync") else "wmma"
        return pipe, levels, [32 * wx, wy, 1], extra
    if info["kind"] == "reduction" and roles and roles[-1] == "r" and rng.random() < 0.5:
        l0 = [1 if r == "p" else 0 for r in roles]
        l1 = [0] * n
        l1[-1] = rng.choice([1, 2, 4])
        # The part of a row one workgroup reduces: the whole row, or a
        # part of it (a row split across workgroups, combined atomically).
        row = (info.get("ranges") or [None])[-1]
        parts = [p for p in (1, 1, 2, 3, 4) if row and row % (p * l1[-1]) == 0]
        l0[-1] = row // rng.choice(parts) if parts else \
            rng.choice([64, 256, 1024, 4096])
        return "WarpReduction", [l0, l1], [rng.choice([32, 64, 256, 1024]), 1, 1], \
            {"subgroup_size": 32}
    # SIMT distribution / vectorization of the parallel loops.
    t = rng.choice([32, 64, 128, 256])
    vec = rng.choice([1, 2, 4])
    pipe = "Vectorize" if vec > 1 and info["kind"] == "elementwise" else "SimtDistribute"
    l0 = [1 if r in "pbhmn" else 0 for r in roles]
    l1 = [1 if r in "pbhmn" else 0 for r in roles]
    par = [i for i, r in enumerate(roles) if r in "pbhmn"]
    if par:
        l0[par[-1]] = t * vec
        l1[par[-1]] = vec
    return pipe, [l0, l1], [t, 1, 1], {}


def garbage_config(rng, info, case):
    """A sensible config, mutated 1-3 times; sometimes invalid outright."""
    n = len(info["roles"])
    pipe, levels, wg, extra = sensible_config(rng, info)
    for _ in range(rng.randint(1, 3)):
        m = rng.randrange(10)
        if not levels and m <= 4:
            continue
        if m == 0:
            levels = [[0] * n for _ in levels]
        elif m == 1:
            levels[0] = [rng.choice([1 << 20, 1 << 40, 4097, 65536]) for _ in range(n)]
        elif m == 2:
            lv = rng.randrange(len(levels))
            levels[lv] = levels[lv] + [rng.choice([0, 1, 16])] if rng.random() < 0.5 \
                else levels[lv][:-1]
        elif m == 3:
            levels = levels + [[rng.choice([0, 1, 2, 8]) for _ in range(n)]
                               for _ in range(rng.randint(1, 3))]
        elif m == 4:
            levels = levels[:1]
        elif m == 5:
            pipe = rng.choice(PIPELINE_KINDS)
        elif m == 6:
            wg = [rng.choice([1, 2, 7, 32, 33, 96, 1024, 2048, 1 << 20]) for _ in range(2)] + \
                [rng.choice([1, 1, 2, 64])]
        elif m == 7:
            extra["pipeline_depth"] = rng.choice([1, 2, 5, 16, 100])
        elif m == 8:
            extra["mma_kind"] = rng.choice(["wmma", "mma_sync"])
        else:
            extra["subgroup_size"] = rng.choice([1, 16, 64, 128])
    if rng.random() < 0.3:
        # Invalid by the attributes' own rules: a parse error.
        case["expect_error"].append("invalid compilation_info")
        r = rng.randrange(6)
        if r == 0:
            levels = [[-1] * n]
        elif r == 1:
            levels = []
        elif r == 2:
            wg = [0, 1, 1]
        elif r == 3:
            extra["subgroup_size"] = rng.choice([0, 3, 48])
        elif r == 4:
            extra["pipeline_depth"] = 0
        else:
            extra["store_stage"] = 2
    family = {"MatmulTensorCore": "wmma", "MatmulTensorCoreMmaSync": "mma_sync"}.get(pipe)
    if "mma_kind" in extra and extra["mma_kind"] != family:
        case["expect_error"].append("invalid compilation_info")
    return pipe, levels, wg, extra


def render_info(pipe, wg, extra):
    parts = ["pipeline = %s" % pipe, "workgroup_size = [%s]" % ", ".join(map(str, wg))]
    for key in ("subgroup_size", "pipeline_depth", "store_stage", "mma_kind"):
        if key in extra:
            parts.append("%s = %s" % (key, extra[key]))
    return "#gpucg.translation_info<%s>" % ", ".join(parts)


def render_config(levels):
    return "#gpucg.lowering_config<tile_sizes = [%s]>" % ", ".join(
        "[%s]" % ", ".join(map(str, l)) for l in levels)


def gen_compilation_info(rng, info, ctx):
    """Attribute text for the root op ('' for none); sets the function's
    (ctx["func_attrs"]) unless an earlier op of the kernel did."""
    case = ctx["case"]
    r = rng.random()
    if r < 0.65 or case["clean"]:
        return ""
    errors = len(case["expect_error"])
    if r < 0.85:
        pipe, levels, wg, extra = sensible_config(rng, info)
    else:
        pipe, levels, wg, extra = garbage_config(rng, info, case)
    if rng.random() < 0.8:
        return ("gpucg.compilation_info = #gpucg.compilation_info<lowering_config = %s, "
                "translation_info = %s>" % (render_config(levels), render_info(pipe, wg, extra)))
    # The decisions as the strategy pass leaves them (for later passes). The
    # function keeps the first op's translation_info: when this one is
    # dropped, only its lowering_config can still be invalid.
    if ctx["func_attrs"]:
        del case["expect_error"][errors:]
        if levels == [] or any(size < 0 for level in levels for size in level):
            case["expect_error"].append("invalid compilation_info")
    else:
        ctx["func_attrs"] = "gpucg.translation_info = %s" % render_info(pipe, wg, extra)
    return "gpucg.lowering_config = %s" % render_config(levels)


# ---------------------------------------------------------------------------
# Kernels.
# ---------------------------------------------------------------------------

def gen_contraction(rng, k, ctx, kind):
    """matmul, batch_matmul, matmul with B transposed, or a generic
    contraction. Returns (result name, type, elt, root info)."""
    if ctx["tensor_core"] and (rng.random() < 0.75 or ctx["case"]["clean"]):
        ab, acc = rng.choice(TENSOR_CORE_TYPES[ctx["tensor_core"]])
    else:
        ab, acc = rng.choice(CONTRACTION_TYPES)
    k.dim_src = {}
    batch = kind == "batch_matmul" or (kind == "generic_contraction" and rng.random() < 0.3)
    # Two batch loops ([batch, heads]) a third of the time in a generic
    # contraction: with M and N, more loops than a grid has dimensions, so
    # the two share grid z, counted at run time as the product of the
    # dynamic ones (each where it is drawn dynamic).
    heads = batch and kind == "generic_contraction" and rng.random() < 0.3
    roles = (["b", "h"] if heads else ["b"] if batch else []) + ["m", "n", "k"]
    # (Not with heads: the loops sharing grid z must be the static ones.)
    if kind == "generic_contraction" and not heads and rng.random() < 0.5:
        rng.shuffle(roles)
    idx = {r: i for i, r in enumerate(roles)}
    loops = pick_loops(rng, len(roles), ctx)
    if heads:
        dynamic = [role for role in ("b", "h") if loops[idx[role]] is None]
        for role in ("b", "h"):
            loops[idx[role]] = loops[idx[role]] or rng.choice([2, 3])
            loops[idx[role]] = min(loops[idx[role]], 16)
        for role in dynamic:
            loops[idx[role]] = None
    if roles[-1] == "k" and rng.random() < 0.2:
        # A matrix-vector product (M or N of 1, K in whole warp steps):
        # the strategy's WarpReduction plan when A and B run along K.
        loops[idx[rng.choice(["m", "n"])]] = 1
        loops[idx["k"]] = rng.choice([256, 512, 1024, 4096])
    pre = [idx["b"], idx["h"]] if heads else [idx["b"]] if batch else []
    a_map = pre + [idx["m"], idx["k"]]
    b_map = pre + [idx["k"], idx["n"]]
    if kind == "matmul_transpose_b":
        b_map = pre + [idx["n"], idx["k"]]
    if kind == "generic_contraction":
        if rng.random() < 0.5:
            a_map = pre + [idx["k"], idx["m"]]
        if rng.random() < 0.5:
            b_map = pre + [idx["n"], idx["k"]]
    c_map = pre + [idx["m"], idx["n"]]
    a = k.operand(loops, a_map, ab)
    b = k.operand(loops, b_map, ab)
    if ctx["tensor_core"] == "wgmma" and rng.random() < 0.7:
        # What MatmulWgmma takes: a zero-filled accumulator argument, or
        # (C += A * B) the argument's own contents.
        out = k.operand(loops, c_map, acc)
        if rng.random() < 0.7:
            out = (k.fill(out[0], out[1], acc), out[1])
        ctx["no_epilogue"] = rng.random() < 0.8
    elif rng.random() < 0.5:
        out = k.operand(loops, c_map, acc)
    else:
        out = k.empty(loops, c_map, acc)
        if rng.random() < 0.8:
            out = (k.fill(out[0], out[1], acc), out[1])
    info = dict(kind="contraction", roles=roles)
    attrs = gen_compilation_info(rng, info, ctx)
    use_named = named_op_ok(ab, acc) and kind != "generic_contraction" and \
        (kind != "matmul_transpose_b" or rng.random() < 0.7)
    if use_named:
        name = k.fresh("r")
        attr_txt = " {%s}" % attrs if attrs else ""
        if kind == "matmul_transpose_b":
            maps = ", ".join(dim_map(3, m) for m in (a_map, b_map, c_map))
            head = "linalg.matmul indexing_maps = [%s]%s" % (maps, attr_txt)
        else:
            head = "linalg.%s%s" % ("batch_matmul" if batch else "matmul", attr_txt)
        k.emit("%s = %s ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (name, head, a[0], b[0], a[1], b[1], out[0], out[1], out[1]))
    else:
        def body(args, elts):
            bd = Body()
            x = bd.convert(args[0], ab, acc)
            y = bd.convert(args[1], ab, acc)
            p = bd.op(mul_op(acc), [x, y], acc)
            s = bd.op(add_op(acc), [args[2], p], acc)
            return bd.lines, s
        iters = ["reduction" if r == "k" else "parallel" for r in roles]
        name = generic(k, loops, iters, [(a[0], a[1], ab), (b[0], b[1], ab)], [a_map, b_map],
                       (out[0], out[1], acc), c_map, body, attrs)
    return name, out[1], acc, loops, c_map


def elementwise_body(rng, n_in, in_elts, out_elt):
    """A region builder combining the inputs with random ops."""
    def body(args, elts):
        bd = Body()
        vals = [bd.convert(args[i], in_elts[i], out_elt) for i in range(n_in)]
        if not vals:
            vals = [args[-1]]
        acc = vals[0]
        for v in vals[1:]:
            acc = bd.op(rng.choice([add_op, mul_op, max_op, sub_op])(out_elt), [acc, v], out_elt)
        if rng.random() < 0.4:
            acc = bd.op(rng.choice([add_op, mul_op, max_op])(out_elt), [acc, acc], out_elt)
        return bd.lines, acc
    return body


def gen_elementwise(rng, k, ctx):
    """An elementwise op of rank 1-4 with 1-3 inputs (rank 4: the outer two
    loops share grid z, the second static, the first dynamic where drawn
    so)."""
    k.dim_src = {}
    rank = rng.choice([1, 2, 2, 3, 4])
    loops = pick_loops(rng, rank, ctx)
    if rank == 4:
        if loops[0] is not None:
            loops[0] = min(loops[0] or 2, 8)
        loops[1] = min(loops[1] or 3, 8)
    # Odd rows beside an even static size outside them (rows of 1001 f16):
    # no vector divides a row, and gpucg-collapse-elementwise-dims merges
    # the loops where the maps and operands allow.
    if rank > 1 and rng.random() < 0.25:
        loops[-1] = rng.choice([5, 33, 101, 257, 1001])
        loops[-2] = rng.choice([2, 4, 6, 8, 16])
    out_elt = rng.choice(TYPES)
    n_in = rng.choice([1, 2, 2, 3])
    ins, maps, elts = [], [], []
    full = list(range(rank))
    for i in range(n_in):
        m = list(full)
        r = rng.random()
        if r < 0.15 and rank > 1 and i > 0:
            m.pop(rng.randrange(rank))       # broadcast
        elif r < 0.25 and rank > 1 and i > 0:
            rng.shuffle(m)                   # transposed
        elt = out_elt
        if rng.random() < 0.2:
            elt = {"f32": "f16", "f64": "f32", "i32": "i8", "index": "i32"}.get(out_elt, out_elt)
        x = k.operand(loops, m, elt)
        ins.append((x[0], x[1], elt))
        maps.append(m)
        elts.append(elt)
    out = k.operand(loops, full, out_elt) if rng.random() < 0.3 else k.empty(loops, full, out_elt)
    info = dict(kind="elementwise", roles=["p"] * rank)
    attrs = gen_compilation_info(rng, info, ctx)
    simple = n_in == 2 and all(m == full for m in maps) and len(set(elts)) == 1 \
        and elts[0] == out_elt and named_op_ok(out_elt)
    if simple and rng.random() < 0.5:
        name = k.fresh("r")
        op = rng.choice(["add", "mul", "max"] + ([] if out_elt == "i1" else ["sub"]))
        attr_txt = " {%s}" % attrs if attrs else ""
        k.emit("%s = linalg.%s%s ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
               % (name, op, attr_txt, ins[0][0], ins[1][0], ins[0][1], ins[1][1],
                  out[0], out[1], out[1]))
    else:
        name = generic(k, loops, ["parallel"] * rank, ins, maps, (out[0], out[1], out_elt),
                       full, elementwise_body(rng, n_in, elts, out_elt), attrs)
    return name, out[1], out_elt, loops, full


def gen_reduction(rng, k, ctx):
    """A reduction over one or several dims (linalg.reduce or generic)."""
    k.dim_src = {}
    rank = rng.choice([1, 2, 2, 3])
    loops = pick_loops(rng, rank, ctx)
    red = sorted(rng.sample(range(rank), rng.randint(1, rank)))
    if rng.random() < 0.5:
        red = [rng.randrange(rank)]
    par = [i for i in range(rank) if i not in red]
    in_elt = rng.choice(TYPES)
    acc_elt = in_elt
    if rng.random() < 0.25:
        acc_elt = {"f16": "f32", "bf16": "f32", "i8": "i32", "i1": "i32"}.get(in_elt, in_elt)
    x = k.operand(loops, list(range(rank)), in_elt)
    if rng.random() < 0.3:
        out = k.operand(loops, par, acc_elt)
    else:
        out = k.empty(loops, par, acc_elt)
        out = (k.fill(out[0], out[1], acc_elt), out[1])
    roles = ["r" if i in red else "p" for i in range(rank)]
    info = dict(kind="reduction", roles=roles, ranges=loops)
    attrs = gen_compilation_info(rng, info, ctx)
    combine = rng.choice([add_op, max_op, mul_op])
    if acc_elt == in_elt and rng.random() < 0.5:
        name = k.fresh("r")
        k.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%s]%s"
               % (name, x[0], x[1], out[0], out[1], ", ".join(map(str, red)),
                  " {%s}" % attrs if attrs else ""))
        k.emit("  (%%in: %s, %%acc: %s) {" % (in_elt, acc_elt))
        k.emit("    %%s = %s %%in, %%acc : %s" % (combine(acc_elt), acc_elt))
        k.emit("    linalg.yield %s : %s" % ("%s", acc_elt))
        k.emit("  }")
    else:
        def body(args, elts):
            bd = Body()
            v = bd.convert(args[0], in_elt, acc_elt)
            return bd.lines, bd.op(combine(acc_elt), [v, args[1]], acc_elt)
        iters = ["reduction" if i in red else "parallel" for i in range(rank)]
        name = generic(k, loops, iters, [(x[0], x[1], in_elt)], [list(range(rank))],
                       (out[0], out[1], acc_elt), par, body, attrs)
    return name, out[1], acc_elt, loops, par


def gen_row_program(rng, k, ctx):
    """Softmax-, RMSNorm- and LayerNorm-shaped kernels: reductions of the
    innermost loop of the same rows, ops on their one element per row, and
    ops over the rows that read them back once per row."""
    k.dim_src = {}
    rank = rng.choice([1, 2, 2, 3])
    loops = pick_loops(rng, rank, ctx)
    par = list(range(rank - 1))
    elt = rng.choice(TYPES)
    acc_elt = elt
    if rng.random() < 0.3:
        acc_elt = {"f16": "f32", "bf16": "f32", "i8": "i32", "i1": "i32"}.get(elt, elt)
    x = k.operand(loops, list(range(rank)), elt)
    info = dict(kind="reduction", roles=["p"] * (rank - 1) + ["r"], ranges=loops)
    attrs = gen_compilation_info(rng, info, ctx)
    row_maps = list(range(rank))
    row = (x[0], x[1], elt)       # the row the next reduction reads
    totals = []
    num_steps = rng.choice([1, 2, 2])
    for step in range(num_steps):
        combine = rng.choice([add_op, max_op, mul_op])
        out = k.empty(loops, par, acc_elt)
        out = (k.fill(out[0], out[1], acc_elt), out[1])

        def body(args, elts, combine=combine, row_elt=row[2]):
            bd = Body()
            v = bd.convert(args[0], row_elt, acc_elt)
            return bd.lines, bd.op(combine(acc_elt), [v, args[1]], acc_elt)
        # The root (the last reduction) carries the compilation_info.
        last = step == num_steps - 1 or rng.random() < 0.5
        total = generic(k, loops, ["parallel"] * (rank - 1) + ["reduction"],
                        [row], [row_maps], (out[0], out[1], acc_elt), par, body,
                        attrs if last else "")
        total = (total, out[1], acc_elt)
        # One element per row: total + total (a mean's scaling, a rsqrt).
        if rank > 1 and rng.random() < 0.5:
            e = k.empty(loops, par, acc_elt)

            def scale(args, elts):
                bd = Body()
                return bd.lines, bd.op(add_op(acc_elt), [args[0], args[0]], acc_elt)
            total = (generic(k, [loops[i] for i in par], ["parallel"] * len(par),
                             [total], [list(range(len(par)))],
                             (e[0], e[1], acc_elt), list(range(len(par))), scale),
                     e[1], acc_elt)
        totals.append(total)
        if last:
            break
        # The next reduction's row: x combined with this total per row.
        e = k.empty(loops, list(range(rank)), acc_elt)

        def shift(args, elts):
            bd = Body()
            v = bd.convert(args[0], elt, acc_elt)
            return bd.lines, bd.op(add_op(acc_elt), [v, args[1]], acc_elt)
        row = (generic(k, loops, ["parallel"] * rank, [(x[0], x[1], elt), total],
                       [row_maps, par], (e[0], e[1], acc_elt), row_maps, shift),
               e[1], acc_elt)
    if rank == 1 or rng.random() < 0.2:
        return totals[-1][0], totals[-1][1], acc_elt, loops, par
    # The row normalized by the last total.
    out = k.empty(loops, list(range(rank)), acc_elt)

    def normalize(args, elts):
        bd = Body()
        v = bd.convert(args[0], row[2], acc_elt)
        return bd.lines, bd.op(mul_op(acc_elt), [v, args[1]], acc_elt)
    name = generic(k, loops, ["parallel"] * rank, [row, totals[-1]],
                   [row_maps, par], (out[0], out[1], acc_elt), row_maps,
                   normalize)
    return name, out[1], acc_elt, loops, list(range(rank))


def gen_epilogue(rng, k, ctx, res):
    """An elementwise consumer of the root: bias, ReLU, a cast."""
    name, ty, elt, loops, out_map = res
    n = len(out_map)
    if n == 0:
        return res
    # The result's own dims are the source of its dynamic sizes.
    for pos, l in enumerate(out_map):
        k.dim_src[l] = (name, ty, pos)
    out_elt = elt
    if rng.random() < 0.3:
        out_elt = {"f32": rng.choice(["f16", "f16"] + FLOAT8), "i32": "i8",
                   "f16": "f32"}.get(elt, elt)
    ins = [(name, ty, elt)]
    maps = [list(range(n))]
    sub_loops = [loops[l] for l in out_map]
    if rng.random() < 0.6:
        keep = rng.randrange(n)
        bias_ty = tensor_type([sub_loops[keep]], elt)
        ins.append((k.arg(bias_ty), bias_ty, elt))
        maps.append([keep])
    e = k.empty(loops, out_map, out_elt)
    relu = rng.random() < 0.5

    def body(args, elts):
        bd = Body()
        v = args[0]
        if len(args) > 2:
            v = bd.op(add_op(elt), [v, args[1]], elt)
        if relu:
            zero = bd.op("arith.constant", [zero_literal(elt)], elt)
            v = bd.op(max_op(elt), [v, zero], elt)
        return bd.lines, bd.convert(v, elt, out_elt)
    r = generic(k, sub_loops, ["parallel"] * n, ins, maps, (e[0], e[1], out_elt),
                list(range(n)), body)
    return r, e[1], out_elt, loops, out_map


def gen_smem_copy(rng, case):
    """Workgroup-level IR on memrefs: copies to and from workgroup memory,
    the input of the copy, padding, multi-buffering and packing passes."""
    elt = rng.choice(TYPES)
    rank = rng.choice([1, 2, 2, 3])
    shape = [rng.choice([1, 2, 3, 4, 6, 8, 16, 17, 32, 64, 128]) for _ in range(rank)]
    sty = "x".join(map(str, shape)) + "x" + elt
    wg = rng.choice([[64, 2, 1], [32, 1, 1], [128, 1, 1], [1, 1, 1], [96, 1, 1], [32, 4, 2]])
    pipe = rng.choice(PIPELINE_KINDS[1:])
    lines = ["func.func @copies(%%src: memref<%s>, %%dst: memref<%s>) attributes "
             "{gpucg.translation_info = #gpucg.translation_info<pipeline = %s, "
             "workgroup_size = [%s]>} {" % (sty, sty, pipe, ", ".join(map(str, wg)))]
    lines.append("  %%smem = memref.alloc() : memref<%s, #gpu.address_space<workgroup>>" % sty)
    if rng.random() < 0.4:
        lines.append("  %%smem2 = memref.alloc() : memref<%s, #gpu.address_space<workgroup>>"
                     % sty)
    lines.append("  linalg.copy ins(%%src : memref<%s>) outs(%%smem : memref<%s, "
                 "#gpu.address_space<workgroup>>)" % (sty, sty))
    if rng.random() < 0.5:
        lines.append("  gpu.barrier")
    lines.append("  linalg.copy ins(%%smem : memref<%s, #gpu.address_space<workgroup>>) "
                 "outs(%%dst : memref<%s>)" % (sty, sty))
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


#: Kernel kinds and their weights for tensor-core pipelines and for others.
KERNEL_KINDS = [("matmul", 6, 3), ("batch_matmul", 2, 1), ("matmul_transpose_b", 2, 1),
                ("generic_contraction", 2, 2), ("elementwise", 1, 4), ("reduction", 1, 4),
                ("row_program", 1, 3), ("two_roots", 1, 1)]
CONTRACTION_KINDS = ["matmul", "batch_matmul", "matmul_transpose_b", "generic_contraction"]


def gen_kernel(rng, case, name, tensor_core):
    """One kernel function of a random kind."""
    clean = case["clean"]
    kinds = [k for k, tc, other in KERNEL_KINDS for _ in range(tc if tensor_core else other)
             if not clean or k in CONTRACTION_KINDS]
    kind = rng.choice(kinds)
    k = Kernel(name)
    odd = clean and tensor_core in ("mma-sync", "wmma", "auto") and \
        rng.random() < 0.5
    ctx = dict(case=case, tensor_core=tensor_core, func_attrs="",
               # Dynamic sizes: a tenth of the other tensor-core cases, a
               # third of the odd clean ones (they must still contain MMAs).
               dynamic=(rng.random() < 0.3) if odd else
               (not clean and rng.random() < (0.1 if tensor_core else 0.25)),
               large_ok=not clean and rng.random() < 0.3,
               aligned=1.0 if clean else (0.7 if tensor_core and rng.random() < 0.7 else 0.0),
               # Half the clean mma.sync and WMMA cases (which must contain
               # MMAs) have sizes no tile divides.
               odd=odd)
    if kind in ("elementwise",):
        res = gen_elementwise(rng, k, ctx)
    elif kind == "reduction":
        res = gen_reduction(rng, k, ctx)
    elif kind == "row_program":
        res = gen_row_program(rng, k, ctx)
    elif kind == "two_roots":
        first = gen_contraction(rng, k, ctx, "matmul")
        res = gen_elementwise(rng, k, ctx) if rng.random() < 0.5 else \
            gen_contraction(rng, k, ctx, "matmul")
        case["kind"] = "two_roots"
        k_text = k.text([(first[0], first[1]), (res[0], res[1])])
        return add_func_attrs(k_text, ctx["func_attrs"])
    else:
        res = gen_contraction(rng, k, ctx, kind)
    if kind not in ("elementwise", "row_program") and rng.random() < 0.35 and \
            not ctx.get("no_epilogue"):
        res = gen_epilogue(rng, k, ctx, res)
    case["kind"] = kind
    if rng.random() < 0.1:
        res = reshape_result(k, res)
    return add_func_attrs(k.text([(res[0], res[1])]), ctx["func_attrs"])


def reshape_result(k, res):
    """The result returned reshaped, its last dimension split in two (a
    projection's [tokens, heads, head_dim]), where that size is static and
    even: a view of the same buffer (gpucg-results-to-out-params,
    gpucg-build-gpu-launch, the wgmma plan's "only returned")."""
    name, ty = res[0], res[1]
    shape = ty[len("tensor<"):-1].split("x")
    elt, dims = shape[-1], shape[:-1]
    if not dims or not dims[-1].isdigit() or int(dims[-1]) < 2 or \
            int(dims[-1]) % 2:
        return res
    last = int(dims[-1])
    sizes = []
    for pos, d in enumerate(dims[:-1]):
        if d == "?":
            v = k.fresh("d")
            k.emit("%s = tensor.dim %s, %s : %s"
                   % (v, name, k.const(str(pos), "index"), ty))
            sizes.append(v)
        else:
            sizes.append(d)
    sizes += ["2", str(last // 2)]
    groups = [[i] for i in range(len(dims) - 1)] + \
        [[len(dims) - 1, len(dims)]]
    out_ty = "tensor<%s%s>" % ("".join(d + "x" for d in dims[:-1] +
                                       ["2", str(last // 2)]), elt)
    r = k.fresh("x")
    k.emit("%s = tensor.expand_shape %s %s output_shape [%s] : %s into %s"
           % (r, name, str(groups).replace(" ", ""), ", ".join(sizes), ty,
              out_ty))
    return (r, out_ty) + tuple(res[2:])


def add_func_attrs(text, attrs):
    if not attrs:
        return text
    head, rest = text.split(" {\n", 1)
    return "%s attributes {%s} {\n%s" % (head, attrs, rest)


def gen_module(rng, case, tensor_core):
    """The module of a case. With `tensor_core` (an MMA family), a "clean"
    module (40%) is one the tensor-core pipelines should compile: a
    contraction of a type the family lowers, aligned static shapes, a valid
    target, no compilation_info."""
    case["clean"] = bool(tensor_core) and rng.random() < 0.4
    target = gen_target(rng, case, case["clean"], tensor_core)
    if not case["clean"] and rng.random() < (0.3 if case.get("memref_pass") else 0.03):
        funcs = [gen_smem_copy(rng, case)]
        case["kind"] = "smem_copy"
        if case.get("memref_pass"):
            case["steps"] = case["steps"][-1:]     # workgroup-level IR already
    else:
        funcs = [gen_kernel(rng, case, "kernel", tensor_core)]
        if rng.random() < 0.08:
            kind = case["kind"]
            funcs.append(gen_kernel(rng, case, "kernel2", tensor_core))
            case["kind"] = kind + "+" + case["kind"]
    body = "\n".join(funcs)
    if not target:
        return body
    indented = "\n".join(("  " + l) if l else l for l in body.splitlines())
    return "module attributes {gpucg.target = %s} {\n%s\n}\n" % (target, indented)


# ---------------------------------------------------------------------------
# Pipelines.
# ---------------------------------------------------------------------------

def pick_option(rng, kind, case, where):
    """A value for an option of `kind`; a bad one marks the case."""
    spec = OPTION_KINDS[kind]
    r = rng.random()
    if r < 0.08:
        value = rng.choice(spec["bad"])
        case["expect_error"].append("bad option %s" % where)
        return value
    if r < 0.2 and spec["odd"]:
        return rng.choice(spec["odd"])
    return rng.choice(spec["good"])


def with_options(rng, entry, case, p=0.5):
    """The pass or pipeline with each of its options given with chance p."""
    opts = []
    for opt, kind in entry["options"].items():
        if rng.random() < p:
            opts.append("%s=%s" % (opt, pick_option(rng, kind, case,
                                                    "%s{%s}" % (entry["name"], opt))))
    return entry["name"] + ("{%s}" % " ".join(opts) if opts else "")


def nest(elements):
    """builtin.module(...) of (anchor, text) elements, consecutive func.func
    ones grouped."""
    out, group = [], []
    for anchor, text in elements:
        if anchor == "func.func":
            group.append(text)
            continue
        if group:
            out.append("func.func(%s)" % ",".join(group))
            group = []
        out.append(text)
    if group:
        out.append("func.func(%s)" % ",".join(group))
    return "builtin.module(%s)" % ",".join(out)


def front_elements(flavor, chip, upto):
    """The stages before STAGES[upto], configured for `flavor`."""
    f = FLAVORS[flavor]
    elements = []
    for stage in STAGES[:upto]:
        name = stage["name"]
        opts = []
        if name == "gpucg-select-lowering-strategy":
            opts = [o for o in (f["select"], "chip=%s" % chip if chip else "") if o]
        elif name == "gpucg-tile-and-distribute":
            opts = ["distribute-to-warp=%s" % f["warp"]]
        elif name in ("gpucg-tensor-core-vectorization", "gpucg-vector-to-gpu"):
            opts = ["mma=%s" % f["mma"]]
        elements.append((stage["anchor"], name + ("{%s}" % " ".join(opts) if opts else "")))
        for helper in stage.get("after", []):
            elements.append(("func.func", helper))
    return elements


def wrong_nesting(rng, entry_text, anchor, case):
    """The pass nested under the wrong op: must be an error."""
    case["expect_error"].append("wrongly nested pass")
    if anchor == "builtin.module":
        return rng.choice(["builtin.module(func.func(%s))" % entry_text,
                           "func.func(%s)" % entry_text])
    return rng.choice(["builtin.module(%s)" % entry_text, "func.func(%s)" % entry_text])


def step_text(step):
    """A step is a list of (anchor, pass) elements, or a pipeline string."""
    return step if isinstance(step, str) else nest(step)


def gen_pipeline_case(rng, case, include_test):
    """Fills case['steps'] (pipelines run one after the other, each on the
    previous one's output); returns the MMA family the kernel should suit
    (None: no tensor cores)."""
    pipelines = [p for p in NAMED_PIPELINES if include_test or not p.get("test_only")]
    passes = STAGES + [p for p in OTHER_PASSES if include_test or not p.get("test_only")]
    r = rng.random()
    if r < 0.4:
        entry = rng.choice(pipelines)
        text = with_options(rng, entry, case)
        if rng.random() < 0.06:
            case["steps"] = [wrong_nesting(rng, text, entry["anchor"], case)]
        else:
            case["steps"] = [[(entry["anchor"], text)]]
        case["mode"] = entry["name"]
        if entry.get("must_contain") and not isinstance(case["steps"][0], str):
            case["must_contain"] = entry["must_contain"]
        if "matmul" not in entry["name"] or entry.get("simt"):
            return None
        if "wgmma" in entry["name"]:
            return "wgmma"
        return "mma-sync" if "mma-sync" in entry["name"] else "wmma"
    if r < 0.88:
        entry = rng.choice(passes)
        case["mode"] = entry["name"]
        text = with_options(rng, entry, case, p=0.6)
        upto = STAGES.index(entry) if entry in STAGES else rng.randrange(len(STAGES) + 1)
        case["memref_pass"] = upto >= 5
        if rng.random() < 0.2:
            upto = rng.randrange(upto + 1)    # on input it may not expect
        flavor = rng.choice(list(FLAVORS))
        chip = rng.choice(list(CHIPS)) if rng.random() < 0.5 else ""
        front = front_elements(flavor, chip, upto)
        steps = [front] if front else []
        if rng.random() < 0.05 and not entry.get("any_op"):
            steps.append(wrong_nesting(rng, text, entry["anchor"], case))
        else:
            steps.append([(entry["anchor"], text)])
        case["steps"] = steps
        return None if flavor == "simt" else flavor
    # A random chain of gpucg passes in any order.
    chain = [rng.choice(passes) for _ in range(rng.randint(2, 5))]
    case["mode"] = "chain"
    case["steps"] = [[(e["anchor"], with_options(rng, e, case, p=0.3)) for e in chain]]
    return rng.choice([None, "auto"])


def gen_case(seed, index, include_test=False):
    """Case `index` of `seed`: a dict with the module text, the steps, what
    makes the input invalid (`expect_error`)."""
    rng = random.Random("gpucg-fuzz:%d:%d" % (seed, index))
    case = dict(seed=seed, index=index, expect_error=[])
    tensor_core = gen_pipeline_case(rng, case, include_test)
    case["module"] = gen_module(rng, case, tensor_core)
    case["print_generic"] = rng.random() < 0.1
    return case


# ---------------------------------------------------------------------------
# Running and classifying.
# ---------------------------------------------------------------------------

def run_tool(tool, args, stdin, timeout):
    """(exit status or None on timeout, stdout, stderr)."""
    try:
        p = subprocess.run([tool] + args, input=stdin, capture_output=True, text=True,
                           timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        err = e.stderr if isinstance(e.stderr, str) else (e.stderr or b"").decode(errors="replace")
        return None, "", err


def rc_text(rc):
    """An exit status as text: signal name, "timeout" or "exit N"."""
    if rc is None:
        return "timeout"
    if rc < 0:
        try:
            return signal.Signals(-rc).name
        except ValueError:
            return "signal %d" % -rc
    return "exit %d" % rc


_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (.+?)(?: \(/.*\))?$")
_SKIP_FRAME = re.compile(r"llvm::sys::|^\(/|__libc|^abort|^raise|__assert|__pthread|"
                         r"gsignal|llvm::report_fatal_error|llvm::llvm_unreachable|"
                         r"__sanitizer|__asan|__ubsan|^_start")


def strip_balanced(text, open_, close):
    """Removes every outermost `open_ ... close_` group."""
    out, depth = [], 0
    for ch in text:
        if ch == open_:
            depth += 1
        elif ch == close and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def short_frame(frame):
    """`ns::f<T>(int, char) const file.cpp:0:0` -> `ns::f`."""
    frame = re.sub(r"\s+\S+:\d+:\d+$", "", frame)
    frame = frame.replace("(anonymous namespace)", "{anon}")
    frame = strip_balanced(frame, "<", ">")
    frame = re.sub(r"\s+const$", "", frame)
    if frame.endswith(")"):
        depth = 0
        for i in range(len(frame) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(frame[i], 0)
            if depth == 0:
                frame = frame[:i]
                break
    return frame[:120]


def stack_frames(stderr):
    """The short names of the stack frames of a crash report."""
    frames = []
    for line in stderr.splitlines():
        m = _FRAME.match(line)
        if m and not _SKIP_FRAME.search(m.group(1)):
            frames.append(short_frame(m.group(1)))
    return frames


def top_frame(stderr, own_only=False):
    """The first frame after the signal handlers, and the first gpucg frame
    when that is another (only the latter with `own_only`)."""
    frames = stack_frames(stderr)
    own = [f for f in frames if "gpucg" in f]
    if own_only:
        return own[0] if own else ""
    if not frames:
        return ""
    if own and own[0] != frames[0]:
        return "%s <- %s" % (frames[0], own[0])
    return frames[0]


def first_line_with(stderr, needle):
    for line in stderr.splitlines():
        if needle in line:
            return line.strip()
    return ""


def normalize(msg):
    """A message without locations, numbers and SSA names, for grouping."""
    msg = re.sub(r"^(<stdin>|<unknown>|\S+\.mlir):\d+:\d+: ", "", msg)
    msg = re.sub(r"%[\w.]+", "%_", msg)
    msg = re.sub(r"\d+", "N", msg)
    return msg[:160]


def classify(rc, stderr):
    """None when the run is acceptable, else (kind, signature detail)."""
    markers = [m for m in CRASH_MARKERS if m in stderr]
    if rc is None:
        return "timeout", ""
    if rc < 0 or markers or rc not in (0, 1):
        kind = rc_text(rc) if (rc < 0 or rc not in (0, 1)) else "crash marker"
        detail = ""
        if "LLVM ERROR" in stderr:
            detail = normalize(first_line_with(stderr, "LLVM ERROR"))
        elif "Assertion" in stderr:
            detail = normalize(first_line_with(stderr, "Assertion"))
        elif "runtime error:" in stderr:
            detail = normalize(first_line_with(stderr, "runtime error:"))
        frame = top_frame(stderr, own_only=bool(detail))
        return kind, " ".join(x for x in (detail, "in " + frame if frame else "") if x)
    if rc == 1 and "error:" not in stderr:
        return "exit 1 without error:", ""
    if rc == 0 and "error:" in stderr:
        return "error: with exit 0", normalize(first_line_with(stderr, "error:"))
    return None


def check_step(tool, text, pipeline, extra, timeout):
    """Runs one pipeline on `text` and re-parses its output. Returns
    (finding or None, rc, output)."""
    args = ["--pass-pipeline=" + pipeline] + extra
    rc, out, err = run_tool(tool, args, text, timeout)
    bad = classify(rc, err)
    if bad:
        return dict(input=text, args=args, kind=bad[0], detail=bad[1], stderr=err), rc, out
    if rc == 1:
        return None, rc, out
    # The output must parse and verify again.
    rc2, _, err2 = run_tool(tool, [], out, timeout)
    bad = classify(rc2, err2)
    if bad is None and rc2 == 0:
        return None, rc, out
    if bad is None or bad[0] == "exit 1 without error:":
        kind, detail = "output does not re-parse", normalize(first_line_with(err2, "error:"))
    else:
        kind, detail = "re-parse " + bad[0], bad[1]
    return dict(input=text, args=args, kind=kind, detail=detail, stderr=err2,
                reparse=True), rc, out


def pass_name(element):
    return element[1].split("{", 1)[0]


def split_top(text):
    """Splits at the commas outside any (), {} or []."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def expand_step(tool, step, timeout):
    """A step that is one named pipeline, as the elements it expands to
    (`--dump-pass-pipeline`); None when it cannot be expanded."""
    names = [p["name"] for p in NAMED_PIPELINES]
    if isinstance(step, str) or len(step) != 1 or pass_name(step[0]) not in names:
        return None
    rc, _, err = run_tool(tool, ["--pass-pipeline=" + nest(step), "--dump-pass-pipeline"],
                          "module {}", timeout)
    lines = err.splitlines()
    if rc != 0 or not lines or not lines[0].startswith("Pass Manager"):
        return None
    dump = re.sub(r"\s+", " ", " ".join(lines[1:])).strip()
    if not dump.startswith("builtin.module(") or not dump.endswith(")"):
        return None
    elements = []
    for part in split_top(dump[len("builtin.module("):-1]):
        if part.startswith("func.func("):
            elements += [("func.func", e) for e in split_top(part[len("func.func("):-1])]
        else:
            elements.append(("builtin.module", part))
    return elements


def reduce_step(tool, text, step, extra, finding, timeout, reduce_timeouts):
    """The shortest prefix of a failing step that fails the same way, and,
    when the passes before its last one succeed, that last pass alone on
    their output. A named pipeline is first expanded into its passes.
    Timeouts are only reduced with `reduce_timeouts` (each try may take the
    whole timeout)."""
    if finding["kind"] == "timeout" and not reduce_timeouts:
        return finding, step
    expanded = expand_step(tool, step, timeout)
    if expanded:
        f, _, _ = check_step(tool, text, nest(expanded), extra, timeout)
        if f and f["kind"] == finding["kind"] and f["detail"] == finding["detail"]:
            step, finding = expanded, f
    if isinstance(step, str) or len(step) < 2:
        return finding, step

    def same(f):
        return f and f["kind"] == finding["kind"] and f["detail"] == finding["detail"]

    for j in range(1, len(step)):
        f, _, _ = check_step(tool, text, nest(step[:j]), extra, timeout)
        if same(f):
            break
    else:
        j, f = len(step), finding
    if j > 1:
        g, rc, out = check_step(tool, text, nest(step[:j - 1]), [], timeout)
        if g is None and rc == 0:
            h, _, _ = check_step(tool, out, nest(step[j - 1:j]), extra, timeout)
            if same(h):
                return h, step[j - 1:j]
    return f, step[:j]


def run_case(args):
    """Runs one case; returns (index, case, finding or None, outcome)."""
    tool, seed, index, timeout, include_test, reduce_timeouts = args
    case = gen_case(seed, index, include_test)
    start = time.monotonic()
    index, case, f, outcome = run_steps(tool, case, timeout, reduce_timeouts)
    case["seconds"] = time.monotonic() - start
    return index, case, f, outcome


def run_steps(tool, case, timeout, reduce_timeouts):
    """Runs the steps of a case, each on the output of the one before."""
    index = case["index"]
    text = case["module"]
    steps = case["steps"]
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        extra = ["--mlir-print-op-generic"] if last and case["print_generic"] else []
        f, rc, out = check_step(tool, text, step_text(step), extra, timeout)
        if f:
            f, step = reduce_step(tool, text, step, extra, f, timeout, reduce_timeouts)
            if isinstance(step, str) or len(step) > 3:     # not reduced
                f["where"] = case["mode"] if last else "the stages before " + case["mode"]
            else:
                f["where"] = ", ".join(sorted(set(pass_name(e) for e in step)))
            return index, case, f, "finding"
        if rc == 1:
            return index, case, None, "error"    # an error diagnostic: a fine end
        want = case.get("must_contain")
        if last and want and want not in out:
            return index, case, dict(input=text, args=["--pass-pipeline=" + step_text(step)]
                                     + extra, kind="success without tensor cores",
                                     detail="no %s in the output" % want,
                                     stderr="", where=case["mode"]), "finding"
        text = out
    if case["expect_error"]:
        return index, case, dict(input=None, args=None, kind="invalid input accepted",
                                 detail="; ".join(sorted(set(case["expect_error"]))),
                                 stderr="", where=case["mode"]), "finding"
    return index, case, None, "ok"


def group_key(f):
    """Findings with the same key are taken for one defect."""
    if f["kind"] in ("invalid input accepted", "timeout", "exit 1 without error:"):
        return "%s | %s | %s" % (f["kind"], f["where"], f["detail"])
    return "%s | %s" % (f["kind"], f["detail"])


def write_reproducer(keep_dir, tool, case, f):
    """Writes <base>.mlir, .sh (one command) and .stderr; returns the command."""
    base = "s%d-c%d" % (case["seed"], case["index"])
    if f["input"] is None:
        # Invalid input accepted: the module and the whole chain.
        text = case["module"]
        cmd = " | ".join("%s %s%s" % (tool, "%s.mlir " % base if i == 0 else "",
                                      shlex.quote("--pass-pipeline=" + step_text(p)))
                         for i, p in enumerate(case["steps"]))
    else:
        text = f["input"]
        cmd = "%s %s.mlir %s" % (tool, base, " ".join(shlex.quote(a) for a in f["args"]))
        if f.get("reparse"):
            cmd += " | " + tool
    with open(os.path.join(keep_dir, base + ".mlir"), "w") as fh:
        fh.write(text)
    with open(os.path.join(keep_dir, base + ".sh"), "w") as fh:
        fh.write("# %s (in %s)\n%s\n" % (group_key(f), f["where"], cmd))
    with open(os.path.join(keep_dir, base + ".stderr"), "w") as fh:
        fh.write(f["stderr"])
    return cmd


def main(argv=None):
    """Runs (or prints) the cases; 1 when there are findings."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpucg-opt", default="gpucg-opt", help="the gpucg-opt to fuzz")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100, help="number of cases")
    ap.add_argument("--first", type=int, default=0, help="index of the first case")
    ap.add_argument("--case", type=int, default=None, help="run (or print) only this case")
    ap.add_argument("--print", action="store_true",
                    help="print the cases (module and pipelines) instead of running them")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep-dir", default=None, help="where reproducers of findings go")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per gpucg-opt run")
    ap.add_argument("--timeouts-are-slow", action="store_true",
                    help="list timeouts as SLOW instead of counting them as findings")
    ap.add_argument("--reduce-timeouts", action="store_true",
                    help="reduce timeouts to one pass as well (slow: every try may time out)")
    ap.add_argument("--include-test-passes", action="store_true",
                    help="also fuzz the test-only passes and pipelines")
    ap.add_argument("--quiet", action="store_true", help="only the summary")
    ap.add_argument("--stats", action="store_true",
                    help="also print how the cases of each mode ended")
    opts = ap.parse_args(argv)

    indices = [opts.case] if opts.case is not None else \
        list(range(opts.first, opts.first + opts.count))
    if opts.print:
        for i in indices:
            c = gen_case(opts.seed, i, opts.include_test_passes)
            print("// case %d (%s, %s)%s" % (i, c["mode"], c.get("kind", ""),
                                              " expects an error: " + "; ".join(c["expect_error"])
                                              if c["expect_error"] else ""))
            for s in c["steps"]:
                print("// pipeline: " + step_text(s))
            print(c["module"])
        return 0

    tool = opts.gpucg_opt
    work = [(tool, opts.seed, i, opts.timeout, opts.include_test_passes, opts.reduce_timeouts)
            for i in indices]
    results = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        for r in pool.map(run_case, work, chunksize=4):
            results.append(r)
    results.sort(key=lambda r: r[0])
    findings = [(case, f) for _, case, f, _ in results if f]
    # --timeouts-are-slow: a timeout is a compile-time defect, listed as SLOW,
    # not a crash or a wrong result; CI uses it while the known slow cases
    # (docs/Fuzzing.md) are open.
    if opts.timeouts_are_slow:
        for case, f in findings:
            if f["kind"] == "timeout":
                print("SLOW: --seed %d --case %d (over %gs)" % (case["seed"], case["index"], opts.timeout))
        findings = [(case, f) for case, f in findings if f["kind"] != "timeout"]
    if findings and opts.keep_dir:
        os.makedirs(opts.keep_dir, exist_ok=True)
    groups = {}
    for case, f in findings:
        groups.setdefault(group_key(f), []).append((case, f))
    for sig, members in sorted(groups.items()):
        cmds = [write_reproducer(opts.keep_dir, tool, c, f) if opts.keep_dir else None
                for c, f in members]
        if opts.quiet:
            continue
        case = members[0][0]
        wheres = sorted(set(f["where"] for _, f in members))
        print("FINDING x%d: %s" % (len(members), sig))
        print("  in: %s" % "; ".join(wheres))
        print("  first: --seed %d --case %d" % (case["seed"], case["index"]))
        if cmds[0]:
            print("  reproducer: cd %s && %s" % (opts.keep_dir, cmds[0]))
    if opts.stats:
        table = {}
        for _, case, _, outcome in results:
            row = table.setdefault(case["mode"], {"ok": 0, "error": 0, "finding": 0})
            row[outcome] += 1
        print("%-42s %6s %6s %8s" % ("mode", "ok", "error", "finding"))
        for mode, row in sorted(table.items()):
            print("%-42s %6d %6d %8d" % (mode, row["ok"], row["error"], row["finding"]))
        slow = sorted((r for r in results if not r[2] or r[2]["kind"] != "timeout"),
                      key=lambda r: -r[1]["seconds"])[:3]
        print("slowest cases without a timeout: "
              + ", ".join("%d (%.1f s)" % (r[0], r[1]["seconds"]) for r in slow))
    print("fuzz: %d cases, %d findings" % (len(results), len(findings)))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
