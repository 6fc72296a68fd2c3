#!/usr/bin/env python3
"""Runs random MatmulWgmma plans through gpucg-matmul-wgmma and the CPU
emulator, and compares every result with the untiled kernel's
(docs/Emulation.md, "Sweeps").

  sweep-wgmma.py --gpucg-opt BIN --reference-runner CMD --emulated-runner CMD
                 [--seed S] [--first I] [--count N] [--keep-dir DIR]

A case depends only on (seed, index): its plan (one warpgroup, or a
producer and one or two consumer warpgroups; 64 or 128 rows per
multiplying warpgroup; N tiles of 64 to 256; 1 to 4 stages within shared
memory), its shape (one or two tiles each way, 1 to 6 K tiles), f16 or
bf16, B[k, n] or B[n, k], sometimes the strategy's own plan instead of the
case's, sometimes a persistent grid of 1 to 3 workgroups (for
warp-specialized plans of more tiles; a third of them stream-K, the
tiles' K steps split evenly over the workgroups), and sometimes a fused
epilogue
(x * scale[m] + bias[n], then ReLU, or an f16, bf16 or saturating i8
cast), and sometimes thread-block clusters of 2x1, 1x2 or 2x2 workgroups
sharing tiles by multicast (two tiles along a clustered dimension; on a
persistent grid, whole clusters), sometimes C += A * B (no zero fill:
the matmul accumulates into an argument holding small integers, with or
without an epilogue), and sometimes odd sizes (M anywhere in its last
tile, N and K short of whole tiles by multiples of 8: partial tiles and a
K tail), and sometimes small M (1 to 56 rows, computed transposed as C^T =
B^T * A^T, with B[n, k]), and sometimes a batch of 2 or 3 matrices
(linalg.batch_matmul, one matrix per workgroup; a batched B[k, n] keeps K
in whole 64-element tiles), sometimes a dynamic M, and sometimes, with
B[k, n], a transposed A (A[k, m], a weight gradient's X^T), and sometimes,
with B[n, k], f32 operands (TF32, small integers: exact), and sometimes
split-K (split-k 2 or 3, K a whole number of K tiles per part; plans that
cannot take it run unsplit), and sometimes a dynamic N, K or both
(unbatched and unsplit), and in 3 of 10 batches a dynamic batch size, and
in half the small M B[k, n] or A[k, m] (one padded 64-row tile) or A[k,
m] times B[n, k], and in half the others with B[n, k] A[k, m] times
B[n, k] (computed as C^T = B^T * A^T at any size).
Each runs twice: in order, and in reverse with TMA
data landing at the wait while wgmma groups read at issue. Inputs are small integers,
so every sum is exact and results must match bit for bit.

Prints one line per case that fails (MISMATCH, with the plan and the
emulator's report) and a summary; exits 1 if any failed. With --keep-dir,
a failing case's module is kept there as case-INDEX.mlir.
"""

import argparse
import os
import random
import shlex
import subprocess
import sys

# Shared memory a MatmulWgmma stage ring may use: the opt-in maximum of
# sm_90 less the 2048 bytes the strategy keeps for mbarriers.
RING_BYTES = 227 * 1024 - 2048
# The fused epilogues: the output's element type and the payload after
# `%y = x * scale + bias` (in f32).
EPILOGUES = {
    "relu": ("f32", """      %q = arith.maximumf %y, %zero : f32
      linalg.yield %q : f32"""),
    "f16": ("f16", """      %q = arith.truncf %y : f32 to f16
      linalg.yield %q : f16"""),
    "bf16": ("bf16", """      %q = arith.maximumf %y, %zero : f32
      %t = arith.truncf %q : f32 to bf16
      linalg.yield %t : bf16"""),
    "i8": ("i8", """      %lo = arith.constant -128.0 : f32
      %hi = arith.constant 127.0 : f32
      %l = arith.maximumf %y, %lo : f32
      %q = arith.minimumf %l, %hi : f32
      %t = arith.fptosi %q : f32 to i8
      linalg.yield %t : i8"""),
}
B_TRANSPOSED_MAPS = (
    "indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
    "affine_map<(d0, d1, d2) -> (d1, d2)>, "
    "affine_map<(d0, d1, d2) -> (d0, d1)>] ")
B_TRANSPOSED_BATCH_MAPS = (
    "indexing_maps = [affine_map<(b, d0, d1, d2) -> (b, d0, d2)>, "
    "affine_map<(b, d0, d1, d2) -> (b, d1, d2)>, "
    "affine_map<(b, d0, d1, d2) -> (b, d0, d1)>] ")
A_TRANSPOSED_MAPS = (
    "indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, "
    "affine_map<(d0, d1, d2) -> (d2, d1)>, "
    "affine_map<(d0, d1, d2) -> (d0, d1)>] ")
A_TRANSPOSED_BATCH_MAPS = (
    "indexing_maps = [affine_map<(b, d0, d1, d2) -> (b, d2, d0)>, "
    "affine_map<(b, d0, d1, d2) -> (b, d2, d1)>, "
    "affine_map<(b, d0, d1, d2) -> (b, d0, d1)>] ")

BOTH_TRANSPOSED_MAPS = (
    "indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, "
    "affine_map<(d0, d1, d2) -> (d1, d2)>, "
    "affine_map<(d0, d1, d2) -> (d0, d1)>] ")
BOTH_TRANSPOSED_BATCH_MAPS = (
    "indexing_maps = [affine_map<(b, d0, d1, d2) -> (b, d2, d0)>, "
    "affine_map<(b, d0, d1, d2) -> (b, d1, d2)>, "
    "affine_map<(b, d0, d1, d2) -> (b, d0, d1)>] ")


def make_case(seed, index):
    rng = random.Random("gpucg-sweep-wgmma:%d:%d" % (seed, index))
    element = rng.choice(["f16", "bf16"])
    threads = rng.choice([128, 256, 384])
    consumers = 0 if threads == 128 else threads // 128 - 1
    b_transposed = rng.random() < 0.3
    # A K-contiguous B takes 64 rows per multiplying warpgroup; at most 128
    # accumulator registers per thread.
    rows = 64 if b_transposed else rng.choice([64, 128])
    tile_m = rows * max(1, consumers)
    tile_n = rng.choice([n for n in (64, 128, 192, 256) if rows * n <= 16384])
    stage_bytes = (tile_m * 64 + 64 * tile_n) * 2
    depth = rng.randint(1, min(4, RING_BYTES // stage_bytes))
    m = tile_m * rng.randint(1, 2)
    n = tile_n * rng.randint(1, 2)
    k = 64 * rng.randint(1, 6)
    plan = (tile_m, tile_n, 64, threads, depth) if rng.random() < 0.85 else None
    # A persistent grid of 1 to 3 workgroups (0: one per tile), drawn last
    # so that the draws above stay those of earlier versions.
    persistent = rng.choice([0, 0, 1, 2, 3])
    # A fused epilogue, drawn after everything else. Its staging buffer
    # (tile_m x (tile_n + 8) f32) lives in the ring when the ring holds it
    # (and the grid is not persistent; a persistent grid then keeps one
    # workgroup per tile unless it fits beside), else beside the ring,
    # taking shared memory from a plan's stages.
    epilogue = rng.choice([None, None, None] + sorted(EPILOGUES))
    if epilogue and plan:
        fitted = fit_staging(plan, stage_bytes)
        epilogue = epilogue if fitted else None
        plan = fitted or plan
    # Half the epilogues as a chain of two consumers: x * scale + bias into
    # an f32 temporary, then the rest.
    chained = bool(epilogue) and rng.random() < 0.5
    # Thread-block clusters (M x N workgroups sharing tiles by multicast),
    # drawn last; with a persistent grid, the strategy rounds its workgroups
    # down to whole clusters. Kernels the clusters do not fit (one
    # warpgroup, one tile along a clustered dimension) are planned without
    # (gpucg-select-lowering-strategy's applyLaunchRequest).
    cluster = rng.choice([None, None, (2, 1), (1, 2), (2, 2)])
    # Two tiles along each clustered dimension, so that the cluster fits.
    if cluster:
        m = tile_m * max(m // tile_m, cluster[0])
        n = tile_n * max(n // tile_n, cluster[1])
    # C += A * B (the matmul accumulates into a kernel argument, whose prior
    # contents the epilogue adds), drawn last; it stages the accumulator
    # like a fused epilogue.
    accumulate = rng.random() < 0.3
    if accumulate and plan and not epilogue:
        fitted = fit_staging(plan, stage_bytes)
        accumulate = fitted is not None
        plan = fitted or plan
    # Odd sizes, drawn last: M anywhere in its last tile, N and K short of
    # whole tiles by multiples of 8 (rows of A and B stay whole 16-byte
    # units, which TMA needs). The tile counts stay, and so do the
    # clusters; partial tiles stage the accumulator like an epilogue.
    odd = rng.random() < 0.35
    if odd:
        fitted = fit_staging(plan, stage_bytes) if plan else None
        if plan and not fitted:
            odd = False
        else:
            plan = fitted or plan
    if odd:
        # (M and N stay at least 64: the strategy plans smaller ones
        # otherwise.)
        m -= rng.randint(0, min(tile_m - 1, m - 64))
        n -= 8 * rng.randint(0, min(tile_n // 8 - 1, (n - 64) // 8))
        k -= 8 * rng.randint(0, 7)
    # Small M (a decode step), drawn last: M from 1 to 56, computed as C^T =
    # B^T * A^T, which takes B[n, k]. The plan's tile is M rounded up to 8
    # (or more, in steps of 8) by 64 or 128 columns of C, 64 per
    # multiplying warpgroup; no clusters (a transposed tile takes none).
    small = rng.random() < 0.25
    if small:
        b_transposed = True
        cluster = None
        m = rng.randint(1, 56)
        if plan:
            tile_m = rng.randrange((m + 7) // 8 * 8, 57, 8)
            tile_n = rng.choice([64, 128])
            threads = 384 if tile_n == 128 else rng.choice([128, 256])
            stage_bytes = (tile_m * 64 + 64 * tile_n) * 2
            plan = (tile_m, tile_n, 64, threads,
                    rng.randint(1, min(4, RING_BYTES // stage_bytes)))
            plan = fit_staging(plan, stage_bytes)
        else:
            tile_n = 64
        n = tile_n * rng.randint(1, 3)
        # (N stays at least 64, one wgmma tile of C's columns.)
        if odd:
            n -= 8 * rng.randint(0, min(tile_n // 8 - 1, (n - 64) // 8))
        if persistent and plan and plan[3] == 128:
            persistent = 0
    # A batch (linalg.batch_matmul), drawn last. A batched B[k, n] takes K
    # in whole K tiles: TMA reads its matrices as one, so rows past K would
    # be the next matrix's (the strategy refuses that).
    batch = rng.choice([2, 3]) if rng.random() < 0.2 else 0
    if batch and not b_transposed:
        k = -(-k // 64) * 64
    # A dynamic M (main casts its tensors to `?` rows), drawn last; not with
    # small M, whose transposed tile takes M as wgmma's N. Clusters along M
    # and persistent grids asked for are not taken (the plan says why).
    dynamic = not small and rng.random() < 0.2
    # A transposed A (A[k, m], a weight gradient's X^T), drawn last: with
    # B[k, n] only (nvgpu multiplies wgmma's transposed A only by a
    # transposed B), not with small or dynamic M. It is multiplied one k16
    # step at a time, on 64 rows per warpgroup (a plan of 128 keeps its
    # warpgroups on 64 each, with more tiles along M), and its rows of M
    # are TMA's pitch: M a multiple of 8.
    a_transposed = (not small and not dynamic and not b_transposed and
                    rng.random() < 0.3)
    if a_transposed:
        m -= m % 8
        if plan and plan[0] > 64 * max(1, consumers):
            plan = (64 * max(1, consumers),) + plan[1:]
    # f32 operands (multiplied as TF32), drawn last: with A[m, k] and
    # B[n, k] only (wgmma reads 32-bit operands K-major only), in K tiles of
    # 32 (one 128-byte row; a stage takes the same bytes as 64 16-bit).
    if b_transposed and not a_transposed and rng.random() < 0.3:
        element = "f32"
        if plan:
            plan = plan[:2] + (32,) + plan[3:]
    # Split-K, drawn last: a fifth of the kernels into a zero fill, unbatched
    # and static, ask for 2 or 3 parts of 2 or 3 K tiles each (K a whole
    # number of them: a part's last TMA box must not read the next part's
    # K), without a persistent grid or clusters, which exclude it. Plans
    # that cannot take it (one warpgroup, a stage ring too small for the
    # staging buffer) decline it and run unsplit.
    split_k = 1
    if not accumulate and not batch and not dynamic and rng.random() < 0.2:
        split_k = rng.choice([2, 3])
        persistent, cluster = 0, None
        k_tile = plan[2] if plan else (32 if element == "f32" else 64)
        k = split_k * k_tile * rng.randint(2, 3)
    # A dynamic N, K or both (a hidden size known at run time), drawn last:
    # not batched (a batched K-row operand would need K in whole tiles) nor
    # split (split-K counts its parts when it compiles). Every size is a
    # multiple of 8 where it is a row pitch, as TMA needs at run time;
    # clusters along N and persistent grids over a dynamic N are not taken
    # (the plan says why).
    dynamic_n = dynamic_k = False
    if not batch and split_k == 1 and rng.random() < 0.25:
        dynamic_n, dynamic_k = rng.choice(
            [(True, False), (False, True), (True, True)])
    # A dynamic batch size (the grid's z and the tensor maps' stacked rows
    # counted at run time), drawn last.
    dynamic_batch = bool(batch) and rng.random() < 0.3
    # The layouts nvgpu takes only through another tile, drawn last: half
    # the small M as B[k, n] or A[k, m] (one padded 64-row tile, its rows
    # past M reading TMA's zeros) or A[k, m] times B[n, k] (C^T = B^T * A^T
    # with C's 64 padded rows as wgmma's N), and half the others with
    # B[n, k] as A[k, m] times B[n, k] (C^T = B^T * A^T at any size: the
    # plan's tile and the shape transposed, C's rows in whole 64-column
    # boxes of A, M dynamic or not). 16-bit only (wgmma transposes no
    # other), A[k, m]'s rows of M a multiple of 8 (TMA's pitch) and,
    # batched, K in whole K tiles.
    layout = rng.random()
    new_layout = None
    if element != "f32":
        if small and layout < 0.5:
            new_layout = rng.choice(["b_kn", "a_km_b_kn", "a_km_b_nk"])
        elif (not small and b_transposed and not a_transposed and
              layout < 0.5):
            new_layout = "a_km_b_nk"
    if new_layout:
        a_transposed = new_layout.startswith("a_km")
        b_transposed = new_layout.endswith("b_nk")
        if a_transposed:
            m = max(8, m - m % 8)
        if batch:
            k = -(-k // 64) * 64
        if plan and small:
            # 64 padded rows: split by the consumers (untransposed), or
            # one 64-column box of A[k, m] as wgmma's N (transposed).
            tile_m, tile_n, tile_k, threads, depth = plan
            workers = max(1, threads // 128 - 1)
            tile_m = 64 if new_layout == "a_km_b_nk" else 64 * workers
            plan = fit_staging((tile_m, tile_n, tile_k, threads, depth),
                               (tile_m * 64 + 64 * tile_n) * 2)
        elif not small:
            # wgmma's tile (M split by the consumers, N) becomes C's
            # columns and rows.
            m, n = n, m
            m = max(8, m - m % 8)
            if plan:
                tile_m, tile_n, tile_k, threads, depth = plan
                plan = fit_staging((tile_n, tile_m, tile_k, threads, depth),
                                   (tile_m * 64 + 64 * tile_n) * 2)
    # Stream-K, drawn last: a third of the persistent grids split all
    # tiles' K steps evenly over their workgroups (wgmma-stream-k). Plans
    # that cannot take it (one warpgroup, clusters, a dynamic K, fewer K
    # steps than workgroups) say why and keep the grid as drawn.
    stream_k = bool(persistent) and rng.random() < 0.33
    return dict(m=m, n=n, k=k, element=element, b_transposed=b_transposed,
                a_transposed=a_transposed, stream_k=stream_k,
                plan=plan, persistent=persistent, epilogue=epilogue,
                chained=chained, cluster=cluster, accumulate=accumulate,
                odd=odd, small=small, batch=batch, dynamic=dynamic,
                split_k=split_k, dynamic_n=dynamic_n, dynamic_k=dynamic_k,
                dynamic_batch=dynamic_batch)


def fit_staging(plan, stage_bytes):
    """The plan with no more stages than leave room for the staging buffer
    (tile_m x (tile_n + 8) f32) beside the ring, where the ring cannot hold
    it; None if no stage fits beside it."""
    tile_m, tile_n, _, _, depth = plan
    staging = tile_m * (tile_n + 8) * 4
    if depth * stage_bytes >= staging:
        return plan
    fits = (RING_BYTES - staging) // stage_bytes
    return plan[:4] + (min(depth, fits),) if fits >= 1 else None


def describe(case):
    plan = case["plan"]
    return "%dx%dx%d %s %sB%s, %s%s" % (
        case["m"], case["n"], case["k"], case["element"],
        "A[k,m] " if case.get("a_transposed") else "",
        "[n,k]" if case["b_transposed"] else "[k,n]",
        "the strategy's plan" if plan is None else
        "tile %dx%dx%d, %d threads, %d stages" % plan,
        ", persistent on %d workgroups%s" % (
            case["persistent"],
            " (stream-K)" if case.get("stream_k") else "")
        if case["persistent"] else "") + (
        ", clusters of %dx%d" % case["cluster"]
        if case["cluster"] else "") + (
        ", epilogue %s%s" % (case["epilogue"],
                             " (chained)" if case["chained"] else "")
        if case["epilogue"] else "") + (
        ", C += A * B" if case["accumulate"] else "") + (
        ", small M" if case["small"] else "") + (
        ", a batch of %d" % case["batch"] if case["batch"] else "") + (
        ", dynamic M" if case.get("dynamic") else "") + (
        ", dynamic N" if case.get("dynamic_n") else "") + (
        ", dynamic K" if case.get("dynamic_k") else "") + (
        ", dynamic batch" if case.get("dynamic_batch") else "") + (
        ", split-k %d" % case["split_k"] if case.get("split_k", 1) > 1
        else "")


def generate_input(name, shape, element, a, b, mod, offset):
    """A 2-D input, or a 3-D one (a batch, whose matrices differ: by
    `a + b + 1` per matrix)."""
    if shape.count("x") == 1:
        return """    %{name} = tensor.generate {{
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * {a} + d1 * {b}) mod {mod})>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c{offset}_i32 : i32
      %e = arith.sitofp %w : i32 to {element}
      tensor.yield %e : {element}
    }} : tensor<{shape}x{element}>
""".format(name=name, shape=shape, element=element, a=a, b=b, mod=mod,
           offset=offset)
    return """    %{name} = tensor.generate {{
    ^bb0(%i2: index, %i0: index, %i1: index):
      %s = affine.apply affine_map<(d2, d0, d1) -> ((d2 * {c} + d0 * {a} + d1 * {b}) mod {mod})>(%i2, %i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c{offset}_i32 : i32
      %e = arith.sitofp %w : i32 to {element}
      tensor.yield %e : {element}
    }} : tensor<{shape}x{element}>
""".format(name=name, shape=shape, element=element, a=a, b=b, c=a + b + 1,
           mod=mod, offset=offset)


def make_module(case):
    m, n, k, element = case["m"], case["n"], case["k"], case["element"]
    batch = case["batch"]
    # A batch's leading dimension, of every operand but the vectors.
    lead = "%dx" % batch if batch else ""
    a_transposed = case.get("a_transposed")
    a_shape = lead + "%dx%d" % ((k, m) if a_transposed else (m, k))
    a_type = "tensor<%sx%s>" % (a_shape, element)
    b_shape = lead + "%dx%d" % ((n, k) if case["b_transposed"] else (k, n))
    b_type = "tensor<%sx%s>" % (b_shape, element)
    mn = "%s%dx%d" % (lead, m, n)
    c_type = "tensor<%sxf32>" % mn
    # The kernel's own types: `?` for a dynamic batch, M, N or K (main
    # casts its tensors to them, and the result back).
    klead = "?x" if case.get("dynamic_batch") else lead
    rows = "?" if case["dynamic"] else str(m)
    columns = "?" if case.get("dynamic_n") else str(n)
    depth = "?" if case.get("dynamic_k") else str(k)
    ka_type = "tensor<%s%sx%sx%s>" % (
        (klead, depth, rows, element) if a_transposed else
        (klead, rows, depth, element))
    kb_type = "tensor<%s%sx%sx%s>" % (
        (klead, columns, depth, element) if case["b_transposed"] else
        (klead, depth, columns, element))
    kmn = "%s%sx%s" % (klead, rows, columns)
    kc_type = "tensor<%sxf32>" % kmn
    attributes = ""
    if case["plan"]:
        tile_m, tile_n, tile_k, threads, depth = case["plan"]
        attributes = (
            "{gpucg.compilation_info = #gpucg.compilation_info<"
            "lowering_config = #gpucg.lowering_config<tile_sizes = "
            "[[%s%d, %d, %d]]>, translation_info = #gpucg.translation_info<"
            "pipeline = MatmulWgmma, workgroup_size = [%d, 1, 1], "
            "pipeline_depth = %d>>} " % ("1, " if batch else "", tile_m,
                                         tile_n, tile_k, threads, depth))
    maps = ""
    if case["b_transposed"]:
        maps = B_TRANSPOSED_BATCH_MAPS if batch else B_TRANSPOSED_MAPS
    if a_transposed and case["b_transposed"]:
        maps = BOTH_TRANSPOSED_BATCH_MAPS if batch else BOTH_TRANSPOSED_MAPS
    elif a_transposed:
        maps = A_TRANSPOSED_BATCH_MAPS if batch else A_TRANSPOSED_MAPS
    matmul = "linalg.batch_matmul" if batch else "linalg.matmul"
    inputs = (generate_input("a", a_shape, element, 3, 5, 7, 3) +
              generate_input("b", b_shape, element, 2, 3, 5, 2))
    # C's prior contents, for C += A * B.
    prior = generate_input("c", mn, "f32", 1, 4, 9, 4)
    accumulate = case["accumulate"]
    if not case["epilogue"]:
        start = "" if accumulate else """    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : {c}) -> {c}
""".format(c=kc_type)
        call = make_call("kernel", [("%a", a_type, ka_type),
                                    ("%b", b_type, kb_type),
                                    ("%c", c_type, kc_type)],
                         "%r", c_type, kc_type)
        return """module attributes {{gpucg.target = #gpucg.target<chip = "sm_90a">}} {{
  func.func @kernel(%a: {ka}, %b: {kb}, %c: {kc}) -> {kc} {{
{start}    %r = {matmul} {maps}{attributes}ins(%a, %b : {ka}, {kb}) outs({init} : {kc}) -> {kc}
    return %r : {kc}
  }}
  func.func @main() {{
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
{inputs}{c_input}
{call}    %m = bufferization.to_buffer %r : {c} to memref<{mn}xf32>
    %u = memref.cast %m : memref<{mn}xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }}
  func.func private @printMemrefF32(memref<*xf32>)
}}
""".format(kb=kb_type, c=c_type, ka=ka_type, kc=kc_type, mn=mn, maps=maps,
           matmul=matmul, call=call,
           attributes=attributes, inputs=inputs, start=start,
           init="%c" if accumulate else "%f",
           c_input=prior if accumulate else
           "    %c = tensor.empty() : " + c_type + "\n")
    out, tail = EPILOGUES[case["epilogue"]]
    o_type = "tensor<%sx%s>" % (mn, out)
    ko_type = "tensor<%sx%s>" % (kmn, out)
    # What main prints: the output, an i8 one widened to i32 first.
    printed, printer = "%r", {"f32": "printMemrefF32", "f16": "printMemrefF16",
                              "bf16": "printMemrefBF16", "i8": "printMemrefI32"}[out]
    widen = ""
    p_element = out
    if out == "i8":
        p_element = "i32"
        printed = "%w"
        indices = "%i2, %i0, %i1" if batch else "%i0, %i1"
        widen = """    %w = tensor.generate {{
    ^bb0({arguments}):
      %v = tensor.extract %r[{indices}] : {o}
      %x = arith.extsi %v : i8 to i32
      tensor.yield %x : i32
    }} : tensor<{mn}xi32>
""".format(o=o_type, mn=mn, indices=indices,
           arguments=", ".join(i + ": index" for i in indices.split(", ")))
    p_type = "tensor<%sx%s>" % (mn, p_element)
    # The epilogue's maps: elementwise over C, the scale along M, the bias
    # along N.
    dims = "(b, d0, d1)" if batch else "(d0, d1)"
    whole = "(b, d0, d1)" if batch else "(d0, d1)"
    maps3 = ("affine_map<{d} -> {w}>, affine_map<{d} -> (d0)>, "
             "affine_map<{d} -> (d1)>, affine_map<{d} -> {w}>").format(
                 d=dims, w=whole)
    maps1 = "affine_map<{d} -> {w}>, affine_map<{d} -> {w}>".format(
        d=dims, w=whole)
    parallel = ", ".join(['"parallel"'] * (3 if batch else 2))
    if case["chained"]:
        consumers = """    %y0 = linalg.generic {{indexing_maps = [{maps3}], iterator_types = [{parallel}]}}
      ins(%r, %scale, %bias : {c}, tensor<{m}xf32>, tensor<{n}xf32>) outs(%e : {c}) {{
    ^bb0(%x: f32, %s: f32, %t0: f32, %o: f32):
      %p = arith.mulf %x, %s : f32
      %y = arith.addf %p, %t0 : f32
      linalg.yield %y : f32
    }} -> {c}
    %g = linalg.generic {{indexing_maps = [{maps1}], iterator_types = [{parallel}]}}
      ins(%y0 : {c}) outs(%out : {o}) {{
    ^bb0(%y: f32, %o: {out}):
{tail}
    }} -> {o}
""".format(maps3=maps3, maps1=maps1, c=kc_type, m=rows, n=columns,
           o=ko_type, out=out, tail=tail, parallel=parallel)
    else:
        consumers = """    %g = linalg.generic {{indexing_maps = [{maps3}], iterator_types = [{parallel}]}}
      ins(%r, %scale, %bias : {c}, tensor<{m}xf32>, tensor<{n}xf32>) outs(%out : {o}) {{
    ^bb0(%x: f32, %s: f32, %t0: f32, %o: {out}):
      %p = arith.mulf %x, %s : f32
      %y = arith.addf %p, %t0 : f32
{tail}
    }} -> {o}
""".format(maps3=maps3, c=kc_type, m=rows, n=columns, o=ko_type, out=out,
           tail=tail, parallel=parallel)
    # The f32 temporary of the matmul (and of a chain's first consumer),
    # its rows A's.
    # A dynamic size is A's or B's at run time.
    empty, sizes = "", []
    lead_dims = 1 if batch else 0
    for name, value, operand, dim, kernel_type in (
            ("batch", case.get("dynamic_batch"), "%a", 0, ka_type),
            ("rows", case["dynamic"], "%a",
             lead_dims + (1 if a_transposed else 0), ka_type),
            ("columns", case.get("dynamic_n"), "%b",
             lead_dims + (0 if case["b_transposed"] else 1), kb_type)):
        if not value:
            continue
        empty += ("    %c_{name} = arith.constant {d} : index\n"
                  "    %{name} = tensor.dim {operand}, %c_{name} : {t}\n"
                  ).format(name=name, d=dim, operand=operand, t=kernel_type)
        sizes.append("%" + name)
    empty += "    %e = tensor.empty({sizes}) : {kc}\n".format(
        sizes=", ".join(sizes), kc=kc_type)
    arguments = [("%a", a_type, ka_type), ("%b", b_type, kb_type)]
    if accumulate:
        arguments.append(("%c", c_type, kc_type))
    arguments += [("%scale", "tensor<%dxf32>" % m, "tensor<%sxf32>" % rows),
                  ("%bias", "tensor<%dxf32>" % n,
                   "tensor<%sxf32>" % columns),
                  ("%out", o_type, ko_type)]
    call = make_call("kernel", arguments, "%r", o_type, ko_type)
    return """module attributes {{gpucg.target = #gpucg.target<chip = "sm_90a">}} {{
  func.func @kernel(%a: {ka}, %b: {kb}, {acc_arg}%scale: tensor<{rows}xf32>, %bias: tensor<{columns}xf32>, %out: {ko}) -> {ko} {{
    %zero = arith.constant 0.0 : f32
{empty}{start}    %r = {matmul} {maps}{attributes}ins(%a, %b : {ka}, {kb}) outs({init} : {kc}) -> {kc}
{consumers}    return %g : {ko}
  }}
  func.func @main() {{
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
{inputs}{prior}{scale}{bias}    %out = tensor.empty() : {o}
{call}{widen}    %m = bufferization.to_buffer {printed} : {p} to memref<{mn}x{pe}>
    %u = memref.cast %m : memref<{mn}x{pe}> to memref<*x{pe}>
    func.call @{printer}(%u) : (memref<*x{pe}>) -> ()
    return
  }}
  func.func private @{printer}(memref<*x{pe}>){emit}
}}
""".format(kb=kb_type, o=o_type, ka=ka_type, kc=kc_type, ko=ko_type,
           rows=rows, columns=columns, mn=mn, matmul=matmul, consumers=consumers,
           maps=maps, attributes=attributes, call=call, empty=empty,
           inputs=inputs, start="" if accumulate else
           "    %f = linalg.fill ins(%zero : f32) outs(%e : {c}) -> {c}\n"
           .format(c=kc_type),
           init="%acc" if accumulate else "%f",
           acc_arg="%acc: " + kc_type + ", " if accumulate else "",
           prior=prior if accumulate else "",
           scale=generate_vector("scale", m, 7, 3, 1),
           bias=generate_vector("bias", n, 5, 9, 4), widen=widen,
           printed=printed, p=p_type, pe=p_element, printer=printer,
           emit=" attributes {llvm.emit_c_interface}"
           if out in ("f16", "bf16") else "")


def make_call(function, arguments, result, result_type, kernel_result_type):
    """main's call of `function` with `arguments` (value, main's type, the
    kernel's type), each cast to the kernel's type where they differ, and
    its result cast back to `result_type` as `result`."""
    text, values, types = "", [], []
    for index, (value, main_type, kernel_type) in enumerate(arguments):
        if main_type != kernel_type:
            text += "    %%k%d = tensor.cast %s : %s to %s\n" % (
                index, value, main_type, kernel_type)
            value = "%%k%d" % index
        values.append(value)
        types.append(kernel_type)
    called = result if result_type == kernel_result_type else "%kr"
    text += "    %s = func.call @%s(%s) : (%s) -> %s\n" % (
        called, function, ", ".join(values), ", ".join(types),
        kernel_result_type)
    if called != result:
        text += "    %s = tensor.cast %%kr : %s to %s\n" % (
            result, kernel_result_type, result_type)
    return text


def generate_vector(name, size, a, mod, offset):
    return """    %{name} = tensor.generate {{
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * {a}) mod {mod})>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c{offset}_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    }} : tensor<{size}xf32>
""".format(name=name, size=size, a=a, mod=mod, offset=offset)


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


SCHEDULES = [
    {},
    {"GPUCG_EMU_ORDER": "reverse", "GPUCG_EMU_TMA": "wait",
     "GPUCG_EMU_WGMMA": "issue"},
]


def check_case(args, index, case):
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
    options = "chip=sm_90a"
    if case["persistent"]:
        options += " wgmma-persistent=true wgmma-persistent-workgroups=%d" % \
            case["persistent"]
        if case.get("stream_k"):
            options += " wgmma-stream-k=true"
    if case["cluster"]:
        options += " wgmma-cluster-m=%d wgmma-cluster-n=%d" % case["cluster"]
    if case.get("split_k", 1) > 1:
        options += " split-k=%d" % case["split_k"]
    status, emulated, error = run(
        [args.gpucg_opt,
         "--pass-pipeline=builtin.module(gpucg-matmul-wgmma{%s},"
         "gpucg-test-emulate-on-cpu)" % options], module)
    if status != 0:
        return "gpucg-matmul-wgmma fails: " + error.strip()
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
    parser.add_argument("--keep-dir")
    args = parser.parse_args()

    failures = 0
    for index in range(args.first, args.first + args.count):
        case = make_case(args.seed, index)
        problem = check_case(args, index, case)
        if problem is None:
            continue
        failures += 1
        print("MISMATCH case %d (%s): %s" % (index, describe(case),
                                             problem.splitlines()[0]))
        if args.keep_dir:
            os.makedirs(args.keep_dir, exist_ok=True)
            with open(os.path.join(args.keep_dir, "case-%d.mlir" % index),
                      "w") as out:
                out.write(make_module(case))
    print("sweep-wgmma: %d cases, %d failed" % (args.count, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
