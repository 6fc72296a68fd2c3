// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})'

/// A contraction whose vector.contract upstream's mma.sync conversion does
/// not take (here B indexed (n, k) in a generic with an f16 accumulator) is
/// an error, not a kernel that silently runs without tensor cores.
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @generic_unconverted(%a: tensor<64x32xf16>, %b: tensor<64x32xf16>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x32xf16>, tensor<64x32xf16>) outs(%c : tensor<64x64xf16>) {
    ^bb0(%x: f16, %y: f16, %acc: f16):
      %p = arith.mulf %x, %y : f16
      // expected-error @+1 {{'vector.contract' op was not converted to mma.sync operations: MLIR 22's conversion takes only row-major A, column-major or row-major B and a result of the operands' layout, with element types it has an instruction for}}
      %s = arith.addf %acc, %p : f16
      linalg.yield %s : f16
    } -> tensor<64x64xf16>
    return %r : tensor<64x64xf16>
  }
}
