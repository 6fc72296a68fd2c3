#!/usr/bin/env python3
# Part of the gpucg project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes an MLIR program that runs arith.extf from and arith.truncf to every
small float (8 bits and fewer) on many inputs and prints, per conversion, a
hash of the results.

Written twice: with `--reference`, each conversion is a call of
gpucg_test_apfloat_convert (APFloat, whose meaning arith gives the ops;
test/lib/ApfloatOracle.cpp), else the arith op, which
gpucg-expand-small-floats expands. The two runs must print the same lines. NaN results are hashed as "a NaN" (their payload
and sign are not what arith promises): for extf, a result that is NaN; for
truncf, a NaN source (the result's NaN-ness is hashed, through extf, which
the extf part checks on every bit pattern).

Inputs: extf, every bit pattern; truncf from f16 and bf16, every bit
pattern, in every rounding mode; from f32 and f64, every exponent and sign
with mantissas whose high bits take every value and whose low bits are
zero, one, all ones, a half and around a half (ties and their neighbours at
every position a result's mantissa can end).
"""

import sys

REFERENCE = "--reference" in sys.argv

SMALL = [
    ("f8E5M2", 8), ("f8E4M3", 8), ("f8E4M3FN", 8), ("f8E5M2FNUZ", 8),
    ("f8E4M3FNUZ", 8), ("f8E4M3B11FNUZ", 8), ("f8E3M4", 8),
    ("f6E2M3FN", 6), ("f6E3M2FN", 6), ("f4E2M1FN", 4),
]
# f8E8M0FNU is upstream's expansion, which takes f32 sources in the default
# mode only; not checked here.
MODES = ["", "downward", "upward", "toward_zero", "to_nearest_away"]
# llvm::APFloatBase::Semantics of each type.
SEMANTICS = {"f16": 0, "bf16": 1, "f32": 2, "f64": 3, "f8E5M2": 7,
             "f8E5M2FNUZ": 8, "f8E4M3": 9, "f8E4M3FN": 10, "f8E4M3FNUZ": 11,
             "f8E4M3B11FNUZ": 12, "f8E3M4": 13, "f8E8M0FNU": 15,
             "f6E3M2FN": 16, "f6E2M3FN": 17, "f4E2M1FN": 18}
WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
# Wide sources: (type, width, exponent bits, mantissa bits).
WIDE = {"f16": (16, 5, 10), "bf16": (16, 8, 7), "f32": (32, 8, 23),
        "f64": (64, 11, 52)}

out = []
emit = out.append


for name, width in SMALL:
    WIDTH[name] = width


def convert(result, value, src, dst, mode, indent):
    """Emits %result = `value` (of type src) converted to dst."""
    if not REFERENCE:
        op = "extf" if WIDTH[dst] > WIDTH[src] else "truncf"
        rm = f" {mode}" if mode else ""
        emit(f"{indent}%{result} = arith.{op} %{value}{rm} : {src} to {dst}")
        return
    mode_index = MODES.index(mode)
    emit(f"{indent}%{result}_b = arith.bitcast %{value} : {src} to i{WIDTH[src]}")
    if WIDTH[src] < 64:
        emit(f"{indent}%{result}_w = arith.extui %{result}_b : "
             f"i{WIDTH[src]} to i64")
    else:
        emit(f"{indent}%{result}_z = arith.constant 0 : i64")
        emit(f"{indent}%{result}_w = arith.addi %{result}_b, %{result}_z : i64")
    emit(f"{indent}%{result}_f = arith.constant {SEMANTICS[src]} : i32")
    emit(f"{indent}%{result}_t = arith.constant {SEMANTICS[dst]} : i32")
    emit(f"{indent}%{result}_m = arith.constant {mode_index} : i32")
    emit(f"{indent}%{result}_r = func.call @gpucg_test_apfloat_convert("
         f"%{result}_f, %{result}_t, %{result}_m, %{result}_w) : "
         "(i32, i32, i32, i64) -> i64")
    if WIDTH[dst] < 64:
        emit(f"{indent}%{result}_n = arith.trunci %{result}_r : "
             f"i64 to i{WIDTH[dst]}")
        emit(f"{indent}%{result} = arith.bitcast %{result}_n : "
             f"i{WIDTH[dst]} to {dst}")
    else:
        emit(f"{indent}%{result} = arith.bitcast %{result}_r : i64 to {dst}")


def print_hash(label, value):
    emit(f'  vector.print str "{label} "')
    emit(f"  vector.print %{value} : i64")


def extf_group(name, width, dst):
    """extf of every bit pattern of `name` to `dst`."""
    tag = f"e_{name}_{dst}"
    emit(f"  %{tag} = scf.for %i = %c0 to %c{1 << width} step %c1 "
         f"iter_args(%h = %seed) -> (i64) {{")
    emit(f"    %p = arith.index_cast %i : index to i{width}")
    emit(f"    %v = arith.bitcast %p : i{width} to {name}")
    convert("w", "v", name, dst, "", "    ")
    emit(f"    %r = func.call @key_{dst}(%w) : ({dst}) -> i64")
    emit(f"    %m = arith.muli %h, %prime : i64")
    emit(f"    %n = arith.xori %m, %r : i64")
    emit(f"    scf.yield %n : i64")
    emit("  }")
    print_hash(f"extf {name} to {dst}", tag)


def truncf_group(name, width, src, mode, pattern_fn):
    """truncf from `src` patterns (pattern_fn(i) -> i<w> value) to `name`."""
    w = WIDE[src][0]
    tag = f"t_{name}_{src}_{mode or 'rne'}"
    count, body = pattern_fn
    emit(f"  %n_{tag} = arith.constant {count} : index")
    emit(f"  %{tag} = scf.for %i = %c0 to %n_{tag} step %c1 "
         f"iter_args(%h = %seed) -> (i64) {{")
    for line in body:
        emit("    " + line)
    emit(f"    %v = arith.bitcast %p : i{w} to {src}")
    convert("t", "v", src, name, mode, "    ")
    emit(f"    %r = func.call @key_trunc_{name}_{src}(%v, %t) : "
         f"({src}, {name}) -> i64")
    emit(f"    %m = arith.muli %h, %prime : i64")
    emit(f"    %n = arith.xori %m, %r : i64")
    emit(f"    scf.yield %n : i64")
    emit("  }")
    print_hash(f"truncf {src} to {name} {mode or 'to_nearest_even'}", tag)


def exhaustive16():
    return 65536, ["%p = arith.index_cast %i : index to i16"]


def sampled(src):
    """Both signs; the exponents of 2^-40 to 2^23 (every small float, its
    subnormals and beyond either end) and the four extreme ones (zeros and
    subnormals, the least normal, the largest finite, infinity and NaN);
    the high mantissa bits exhaustive, the low bits from a list of tails."""
    w, e, m = WIDE[src]
    bias = (1 << (e - 1)) - 1
    high = 5
    tails = [0, 1, (1 << (m - high)) - 1]
    # A half and around it at every position a small float's mantissa (0 to
    # 4 bits, plus up to 11 more for subnormal results) can end below the
    # high bits.
    for pos in range(m - high - 1, m - high - 13, -1):
        tails += [1 << pos, (1 << pos) + 1, (1 << pos) - 1]
    tails = sorted(set(t for t in tails if 0 <= t < (1 << (m - high))))
    n_tails = len(tails)
    exponents = sorted(set([0, 1, (1 << e) - 2, (1 << e) - 1] +
                           list(range(bias - 40, bias + 24))))
    signed_exponents = exponents + [x | (1 << e) for x in exponents]
    count = len(signed_exponents) * (1 << high) * n_tails
    table = ", ".join(str(t) for t in tails)
    body = [
        f"%tails = arith.constant dense<[{table}]> : vector<{n_tails}xi{w}>",
        f"%c_tails = arith.constant {n_tails} : index",
        f"%c_high = arith.constant {1 << high} : index",
        "%tail_i = arith.remui %i, %c_tails : index",
        "%rest = arith.divui %i, %c_tails : index",
        "%hi_i = arith.remui %rest, %c_high : index",
        "%se_k = arith.divui %rest, %c_high : index",
        f"%exps = arith.constant dense<[{', '.join(map(str, signed_exponents))}]>"
        f" : vector<{len(signed_exponents)}xi{w}>",
        f"%se = vector.extract %exps[%se_k] : i{w} from vector<{len(signed_exponents)}xi{w}>",
        f"%tail = vector.extract %tails[%tail_i] : i{w} from vector<{n_tails}xi{w}>",
        f"%hi = arith.index_cast %hi_i : index to i{w}",
        f"%c_m = arith.constant {m} : i{w}",
        f"%c_low = arith.constant {m - high} : i{w}",
        "%se_s = arith.shli %se, %c_m : i" + str(w),
        "%hi_s = arith.shli %hi, %c_low : i" + str(w),
        "%p0 = arith.ori %se_s, %hi_s : i" + str(w),
        "%p = arith.ori %p0, %tail : i" + str(w),
    ]
    return count, body


def key_functions():
    # Whether the bits of a wide float are a NaN's (no float compare: the
    # reference program has no float arithmetic).
    for name, (w, e, m) in WIDE.items():
        inf = ((1 << e) - 1) << m
        emit(f"func.func @is_nan_{name}(%b: i{w}) -> i1 {{")
        emit(f"  %abs_mask = arith.constant {(1 << (w - 1)) - 1} : i{w}")
        emit(f"  %inf = arith.constant {inf} : i{w}")
        emit(f"  %a = arith.andi %b, %abs_mask : i{w}")
        emit(f"  %r = arith.cmpi ugt, %a, %inf : i{w}")
        emit("  return %r : i1")
        emit("}")
    emit("func.func private @gpucg_test_apfloat_convert(i32, i32, i32, i64)"
         " -> i64")
    # extf results: the bits, or -1 for a NaN.
    for dst, w in [("f16", 16), ("bf16", 16), ("f32", 32), ("f64", 64)]:
        emit(f"func.func @key_{dst}(%v: {dst}) -> i64 {{")
        emit(f"  %b = arith.bitcast %v : {dst} to i{w}")
        emit(f"  %nan = func.call @is_nan_{dst}(%b) : (i{w}) -> i1")
        ext = "%b" if w == 64 else "%k"
        if w != 64:
            emit(f"  %k = arith.extui %b : i{w} to i64")
        emit("  %m1 = arith.constant -1 : i64")
        emit(f"  %r = arith.select %nan, %m1, {ext} : i64")
        emit("  return %r : i64")
        emit("}")
    # truncf results: the bits, or for a NaN source whether the result
    # reads back as a NaN (-1) or not (-2).
    for name, width in SMALL:
        for src in WIDE:
            emit(f"func.func @key_trunc_{name}_{src}(%v: {src}, %t: {name}) "
                 "-> i64 {")
            emit(f"  %vb = arith.bitcast %v : {src} to i{WIDTH[src]}")
            emit(f"  %nan = func.call @is_nan_{src}(%vb) : (i{WIDTH[src]}) -> i1")
            emit(f"  %b = arith.bitcast %t : {name} to i{width}")
            emit(f"  %k = arith.extui %b : i{width} to i64")
            emit("  %r = scf.if %nan -> (i64) {")
            convert("back", "t", name, "f32", "", "    ")
            emit("    %back_bits = arith.bitcast %back : f32 to i32")
            emit("    %back_nan = func.call @is_nan_f32(%back_bits) : (i32) -> i1")
            emit("    %m1 = arith.constant -1 : i64")
            emit("    %m2 = arith.constant -2 : i64")
            emit("    %nk = arith.select %back_nan, %m1, %m2 : i64")
            emit("    scf.yield %nk : i64")
            emit("  } else {")
            emit("    scf.yield %k : i64")
            emit("  }")
            emit("  return %r : i64")
            emit("}")


def main():
    key_functions()
    for name, width in SMALL:
        emit(f"func.func @check_{name}() {{")
        emit("  %c0 = arith.constant 0 : index")
        emit("  %c1 = arith.constant 1 : index")
        emit(f"  %c{1 << width} = arith.constant {1 << width} : index")
        emit("  %seed = arith.constant 1469598103934665603 : i64")
        emit("  %prime = arith.constant 1099511628211 : i64")
        for dst in ["f16", "bf16", "f32", "f64"]:
            extf_group(name, width, dst)
        for src in ["f16", "bf16"]:
            for mode in MODES:
                truncf_group(name, width, src, mode, exhaustive16())
        for src in ["f32", "f64"]:
            for mode in MODES:
                truncf_group(name, width, src, mode, sampled(src))
        emit("  return")
        emit("}")
    emit("func.func @main() {")
    for name, _ in SMALL:
        emit(f"  call @check_{name}() : () -> ()")
    emit("  return")
    emit("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
