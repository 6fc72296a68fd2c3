// gpucg-expand-small-floats against APFloat: arith.extf from and
// arith.truncf to every float of 8 bits and fewer that the expansion takes
// (f8E5M2, f8E4M3, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E3M4,
// f6E2M3FN, f6E3M2FN, f4E2M1FN), run on the CPU. extf: every bit pattern,
// to f16, bf16, f32 and f64. truncf: from every f16 and bf16, and from f32
// and f64 values of every exponent that matters with ties and their
// neighbours at every rounding position, in all five rounding modes. The
// program (Inputs/small_float_conversions.py) prints one hash per
// conversion; its reference twin calls APFloat instead of each op
// (test/lib/ApfloatOracle.cpp). Every line must be equal.
//
// RUN: %python %S/Inputs/small_float_conversions.py --reference > %t.ref.mlir
// RUN: gpucg-opt %t.ref.mlir --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | %mlir_runner_apfloat > %t.ref
// RUN: %python %S/Inputs/small_float_conversions.py > %t.mlir
// RUN: gpucg-opt %t.mlir --gpucg-expand-small-floats -o %t.expanded.mlir
// RUN: FileCheck %s --check-prefix=EXPANDED < %t.expanded.mlir
// RUN: gpucg-opt %t.expanded.mlir --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | %mlir_runner_apfloat > %t.out
// RUN: diff %t.ref %t.out
// RUN: FileCheck %s < %t.out
//
// With nvvm-float8: the f8E4M3FN and f8E5M2 conversions NVVM has (truncf
// from f32, f16, bf16 to nearest even; every extf) are NVVM's cvt
// instructions, here the emulator's models of them
// (gpucg-test-emulate-nvvm-conversions), and selects; the rest as above.
// RUN: gpucg-opt %t.mlir --gpucg-expand-small-floats=nvvm-float8 -o %t.nvvm.mlir
// RUN: FileCheck %s --check-prefix=NVVM < %t.nvvm.mlir
// RUN: gpucg-opt %t.nvvm.mlir --gpucg-test-emulate-nvvm-conversions --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | %mlir_runner_apfloat > %t.nvvm.out
// RUN: diff %t.ref %t.nvvm.out
// RUN: grep -c . %t.out | FileCheck %s --check-prefix=LINES

// No conversion to or from a small float is left, and the program calls no
// APFloat.
// EXPANDED-NOT: arith.extf {{.*}} : f{{[468]}}E
// EXPANDED-NOT: arith.truncf {{.*}} to f{{[468]}}E
// EXPANDED-NOT: call @gpucg_test_apfloat_convert(

// NVVM: nvvm.convert.f8x2.to.f16x2 {{.+}}(f8E5M2)
// NVVM: nvvm.convert.f32x2.to.f8x2 {{.+}}rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>{{.+}}(f8E5M2)
// NVVM: nvvm.convert.f8x2.to.f16x2 {{.+}}(f8E4M3FN)
// NVVM: nvvm.convert.f32x2.to.f8x2 {{.+}}(f8E4M3FN)

// 10 formats x (4 extf + 4 sources x 5 modes of truncf) lines.
// LINES: {{^240$}}
// CHECK: extf f8E4M3FN to f32
// CHECK: truncf f64 to f8E4M3FN to_nearest_away
// CHECK: truncf f16 to f8E4M3FNUZ downward
// CHECK: truncf bf16 to f4E2M1FN upward
