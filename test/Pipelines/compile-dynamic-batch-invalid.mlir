// RUN: gpucg-opt %s -verify-diagnostics --pass-pipeline='builtin.module(gpucg-compile{chip=sm_90a format=isa})' -o /dev/null

// Four dynamic batch loops share grid z, whose workgroups would be a
// product of four run-time sizes: the ABI counts a constant times at most
// three (compile-dynamic-batch.mlir has one and two dynamic batch loops).
module {
  func.func @scores(%q: tensor<?x?x?x?x64x128xf16>, %k: tensor<?x?x?x?x64x128xf16>, %c: tensor<?x?x?x?x64x64xf32>) -> tensor<?x?x?x?x64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x?x?x?x64x64xf32>) -> tensor<?x?x?x?x64x64xf32>
    // expected-error @+1 {{'linalg.generic' op lowering_config level 0 tiles 6 parallel loops; a grid has 3 dimensions, so the outer 4 share grid z, whose workgroups are counted as a constant times at most 3 run-time sizes, and loops 0, 1, 2, 3 are dynamic (give all but 3 a static size, or pass the batches as fewer dimensions)}}
    %r = linalg.generic {indexing_maps = [affine_map<(b0, b1, b2, b3, m, n, k) -> (b0, b1, b2, b3, m, k)>, affine_map<(b0, b1, b2, b3, m, n, k) -> (b0, b1, b2, b3, n, k)>, affine_map<(b0, b1, b2, b3, m, n, k) -> (b0, b1, b2, b3, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<?x?x?x?x64x128xf16>, tensor<?x?x?x?x64x128xf16>) outs(%f : tensor<?x?x?x?x64x64xf32>) {
    ^bb0(%x: f16, %y: f16, %o: f32):
      %xf = arith.extf %x : f16 to f32
      %yf = arith.extf %y : f16 to f32
      %p = arith.mulf %xf, %yf : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> tensor<?x?x?x?x64x64xf32>
    return %r : tensor<?x?x?x?x64x64xf32>
  }
}
