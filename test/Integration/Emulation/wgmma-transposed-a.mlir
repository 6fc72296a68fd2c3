// gpucg-matmul-wgmma with a transposed A (A[k, m], M contiguous: a weight
// gradient's X^T * dY), on the CPU emulator: A is loaded in boxes of 64
// columns of M, K rows each, and multiplied through wgmma's transposed
// (M-major) A, one k16 step per nvgpu.warpgroup.mma, times an N-contiguous
// B (the only B nvgpu's transposed A takes). Kernels: a bf16 weight
// gradient of 200 tokens, 192 x 136 (the strategy's plan: partial N and a
// K tail), C += A * B on one warpgroup and one stage (a user's 64x64
// plan), and a batch of two with a bias and ReLU epilogue (the strategy's
// plan). In order, reversed with TMA data at the wait and wgmma at issue,
// and on a persistent grid of one workgroup. Small-integer inputs keep
// every sum exact: the results must equal the untiled kernels'.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=1},gpucg-test-emulate-on-cpu)' -o %t.p1.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.p1.mlir | %strip_address > %t.p1
// RUN: diff %t.ref %t.p1
//
// Mutations: each kernel's wgmma ops reading A as K-major (transposeA
// dropped) give wrong numbers.
// RUN: %mutate untranspose-a 1 < %t.wgmma.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1
// RUN: %mutate untranspose-a 5 < %t.wgmma.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m2
// RUN: not diff -q %t.ref %t.m2
// RUN: %mutate untranspose-a 9 < %t.wgmma.mlir > %t.m3.mlir
// RUN: gpucg-opt %t.m3.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m3
// RUN: not diff -q %t.ref %t.m3

// What ran (and that it parses again): A's and B's tensor maps in boxes of
// 64 columns (one 128-byte swizzled row) by 64 rows of K, and four k16 ops
// per K tile, each leaving the K tile's four in flight (one stage: none).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @weight_grad
// CHECK-COUNT-2: nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK-COUNT-4: nvgpu.warpgroup.mma {{.*}} {transposeA, transposeB, waitGroup = 4 : i64}
// CHECK-NOT: = nvgpu.warpgroup.mma %
// CHECK-LABEL: func.func @accumulate
// CHECK-COUNT-4: nvgpu.warpgroup.mma {{.*}} {transposeA, transposeB, waitGroup = 0 : i64}
// CHECK-NOT: = nvgpu.warpgroup.mma %
// CHECK-LABEL: func.func @batch_bias_relu
// CHECK-COUNT-4: nvgpu.warpgroup.mma {{.*}} {transposeA, transposeB, waitGroup = 4 : i64}
// CHECK-NOT: = nvgpu.warpgroup.mma %
// CHECK-LABEL: func.func @main

#a_km = affine_map<(d0, d1, d2) -> (d2, d0)>
#b_kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#c_mn = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @weight_grad(%x: tensor<200x192xbf16>, %dy: tensor<200x136xbf16>, %dw: tensor<192x136xf32>) -> tensor<192x136xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%dw : tensor<192x136xf32>) -> tensor<192x136xf32>
    %r = linalg.matmul indexing_maps = [#a_km, #b_kn, #c_mn]
      ins(%x, %dy : tensor<200x192xbf16>, tensor<200x136xbf16>) outs(%f : tensor<192x136xf32>) -> tensor<192x136xf32>
    return %r : tensor<192x136xf32>
  }
  func.func @accumulate(%a: tensor<128x64xf16>, %b: tensor<128x128xf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %r = linalg.matmul indexing_maps = [#a_km, #b_kn, #c_mn]
      {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 1>>}
      ins(%a, %b : tensor<128x64xf16>, tensor<128x128xf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %r : tensor<64x128xf32>
  }
  func.func @batch_bias_relu(%a: tensor<2x128x128xf16>, %b: tensor<2x128x64xf16>, %bias: tensor<64xf32>, %out: tensor<2x128x64xf32>) -> tensor<2x128x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x128x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
    %r = linalg.batch_matmul indexing_maps = [affine_map<(b, d0, d1, d2) -> (b, d2, d0)>, affine_map<(b, d0, d1, d2) -> (b, d2, d1)>, affine_map<(b, d0, d1, d2) -> (b, d0, d1)>]
      ins(%a, %b : tensor<2x128x128xf16>, tensor<2x128x64xf16>) outs(%f : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(b, d0, d1) -> (b, d0, d1)>, affine_map<(b, d0, d1) -> (d1)>, affine_map<(b, d0, d1) -> (b, d0, d1)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r, %bias : tensor<2x128x64xf32>, tensor<64xf32>) outs(%out : tensor<2x128x64xf32>) {
    ^bb0(%v: f32, %t: f32, %o: f32):
      %y = arith.addf %v, %t : f32
      %q = arith.maximumf %y, %zero : f32
      linalg.yield %q : f32
    } -> tensor<2x128x64xf32>
    return %g : tensor<2x128x64xf32>
  }
  func.func @main() {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %x = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x192xbf16>
    %dy = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x136xbf16>
    %dw = tensor.empty() : tensor<192x136xf32>
    %r0 = func.call @weight_grad(%x, %dy, %dw) : (tensor<200x192xbf16>, tensor<200x136xbf16>, tensor<192x136xf32>) -> tensor<192x136xf32>
    %m0 = bufferization.to_buffer %r0 : tensor<192x136xf32> to memref<192x136xf32>
    %u0 = memref.cast %m0 : memref<192x136xf32> to memref<*xf32>
    func.call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    %a1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x64xf16>
    %b1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x128xf16>
    %c1 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 4) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<64x128xf32>
    %r1 = func.call @accumulate(%a1, %b1, %c1) : (tensor<128x64xf16>, tensor<128x128xf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %m1 = bufferization.to_buffer %r1 : tensor<64x128xf32> to memref<64x128xf32>
    %u1 = memref.cast %m1 : memref<64x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %a2 = tensor.generate {
    ^bb0(%i2: index, %i0: index, %i1: index):
      %s = affine.apply affine_map<(d2, d0, d1) -> ((d2 * 9 + d0 * 3 + d1 * 5) mod 7)>(%i2, %i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<2x128x128xf16>
    %b2 = tensor.generate {
    ^bb0(%i2: index, %i0: index, %i1: index):
      %s = affine.apply affine_map<(d2, d0, d1) -> ((d2 * 6 + d0 * 2 + d1 * 3) mod 5)>(%i2, %i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<2x128x64xf16>
    %bias2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<64xf32>
    %o2 = tensor.empty() : tensor<2x128x64xf32>
    %r2 = func.call @batch_bias_relu(%a2, %b2, %bias2, %o2) : (tensor<2x128x128xf16>, tensor<2x128x64xf16>, tensor<64xf32>, tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
    %m2 = bufferization.to_buffer %r2 : tensor<2x128x64xf32> to memref<2x128x64xf32>
    %u2 = memref.cast %m2 : memref<2x128x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
