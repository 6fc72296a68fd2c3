// gpucg-matmul-wgmma for A[k, m] times B[n, k] (the "tt" layout) with a
// dynamic M, on the CPU emulator. The tile is computed as C^T = B^T * A^T
// (wgmma::computesTransposed): B[n, k] is wgmma's K-major A, A[k, m] its
// N-major B in boxes of 64 columns of M, so M is wgmma's N. A dynamic M
// only sizes the grid's tiles along C's rows, A's tensor map (its row
// pitch is M, which the host checks to be a multiple of 16 bytes when it
// encodes the map) and the staged store's guard, which writes the columns
// of C^T (C's rows) below M. Kernels (the strategy's plans): f16 with N =
// 192 run at M = 200 (a partial tile) and M = 8 (a decode step's 8 rows,
// 16 bytes apart), and a bf16 linear layer with a K tail, partial N and a
// column bias, ReLU and an f16 cast fused, at M = 136. In order, and
// reversed with TMA data at the wait and wgmma at issue. Small-integer
// inputs keep every sum exact: the results must equal the untiled
// kernels'.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait GPUCG_EMU_WGMMA=issue %mlir_runner_emulated %t.mlir | %strip_address > %t.modes
// RUN: diff %t.ref %t.modes
//
// Mutation: the C^T fragment stored untransposed (a row-major view in
// place of the transposed one) gives wrong numbers.
// RUN: %mutate untranspose-store 1 < %t.wgmma.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1
//
// What ran (and that it parses again): C's rows (M, read from A's
// columns) along the workgroup loop, 256 of them wgmma's N, and the staged
// store's guard against M.
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// CHECK-LABEL: func.func @tt_prompt
// CHECK-SAME: %[[A:.+]]: memref<256x?xf16>
// CHECK: %[[M:.+]] = memref.dim %[[A]], %c1 : memref<256x?xf16>
// CHECK: scf.forall ({{.*}}) = (0, 0) to (%[[M]], 192)
// CHECK: nvgpu.warpgroup.mma {{.*}} {transposeB}
// CHECK: memref.transpose
// CHECK: arith.cmpi ult, %{{.+}}, %[[M]] : index
// CHECK-LABEL: func.func @tt_linear
// CHECK: arith.maximumf

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // A prompt's tokens stored K x M (a weight gradient's activations, or
  // x^T) times a weight stored N x K.
  func.func @tt_prompt(%a: tensor<256x?xf16>, %b: tensor<192x256xf16>, %c: tensor<?x192xf32>) -> tensor<?x192xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x192xf32>) -> tensor<?x192xf32>
    %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<256x?xf16>, tensor<192x256xf16>) outs(%f : tensor<?x192xf32>) -> tensor<?x192xf32>
    return %r : tensor<?x192xf32>
  }
  // A linear layer (x stored K x M) + bias, ReLU, to f16; K = 104 (a K
  // tail), N = 200 (a partial tile).
  func.func @tt_linear(%a: tensor<104x?xbf16>, %b: tensor<200x104xbf16>, %bias: tensor<200xf32>, %out: tensor<?x200xf16>) -> tensor<?x200xf16> {
    %zero = arith.constant 0.0 : f32
    %c1 = arith.constant 1 : index
    %rows = tensor.dim %a, %c1 : tensor<104x?xbf16>
    %e = tensor.empty(%rows) : tensor<?x200xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x200xf32>) -> tensor<?x200xf32>
    %p = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<104x?xbf16>, tensor<200x104xbf16>) outs(%f : tensor<?x200xf32>) -> tensor<?x200xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p, %bias : tensor<?x200xf32>, tensor<200xf32>) outs(%out : tensor<?x200xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s = arith.addf %x, %y : f32
      %q = arith.maximumf %s, %zero : f32
      %h = arith.truncf %q : f32 to f16
      linalg.yield %h : f16
    } -> tensor<?x200xf16>
    return %r : tensor<?x200xf16>
  }
  func.func @main() {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %pb = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5 + (d0 floordiv 5) mod 3 + (d0 floordiv 15) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<192x256xf16>
    %pa200 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d1 floordiv 7) mod 3 + (d0 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x200xf16>
    %pc200 = tensor.empty() : tensor<200x192xf32>
    %p200_k0 = tensor.cast %pa200 : tensor<256x200xf16> to tensor<256x?xf16>
    %p200_k2 = tensor.cast %pc200 : tensor<200x192xf32> to tensor<?x192xf32>
    %p200_kr = func.call @tt_prompt(%p200_k0, %pb, %p200_k2) : (tensor<256x?xf16>, tensor<192x256xf16>, tensor<?x192xf32>) -> tensor<?x192xf32>
    %p200_r = tensor.cast %p200_kr : tensor<?x192xf32> to tensor<200x192xf32>
    %p200_m = bufferization.to_buffer %p200_r : tensor<200x192xf32> to memref<200x192xf32>
    %p200_u = memref.cast %p200_m : memref<200x192xf32> to memref<*xf32>
    func.call @printMemrefF32(%p200_u) : (memref<*xf32>) -> ()
    %pa8 = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d1 floordiv 7) mod 3 + (d0 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x8xf16>
    %pc8 = tensor.empty() : tensor<8x192xf32>
    %p8_k0 = tensor.cast %pa8 : tensor<256x8xf16> to tensor<256x?xf16>
    %p8_k2 = tensor.cast %pc8 : tensor<8x192xf32> to tensor<?x192xf32>
    %p8_kr = func.call @tt_prompt(%p8_k0, %pb, %p8_k2) : (tensor<256x?xf16>, tensor<192x256xf16>, tensor<?x192xf32>) -> tensor<?x192xf32>
    %p8_r = tensor.cast %p8_kr : tensor<?x192xf32> to tensor<8x192xf32>
    %p8_m = bufferization.to_buffer %p8_r : tensor<8x192xf32> to memref<8x192xf32>
    %p8_u = memref.cast %p8_m : memref<8x192xf32> to memref<*xf32>
    func.call @printMemrefF32(%p8_u) : (memref<*xf32>) -> ()
    %la = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 + (d1 floordiv 7) mod 3 + (d0 floordiv 7) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<104x136xbf16>
    %lw = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5 + (d0 floordiv 5) mod 3 + (d0 floordiv 15) mod 2)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<200x104xbf16>
    %lbias = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> (d0 mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<200xf32>
    %lout = tensor.empty() : tensor<136x200xf16>
    %l_k0 = tensor.cast %la : tensor<104x136xbf16> to tensor<104x?xbf16>
    %l_k3 = tensor.cast %lout : tensor<136x200xf16> to tensor<?x200xf16>
    %l_kr = func.call @tt_linear(%l_k0, %lw, %lbias, %l_k3) : (tensor<104x?xbf16>, tensor<200x104xbf16>, tensor<200xf32>, tensor<?x200xf16>) -> tensor<?x200xf16>
    %l_r = tensor.cast %l_kr : tensor<?x200xf16> to tensor<136x200xf16>
    %l_m = bufferization.to_buffer %l_r : tensor<136x200xf16> to memref<136x200xf16>
    %l_u = memref.cast %l_m : memref<136x200xf16> to memref<*xf16>
    func.call @printMemrefF16(%l_u) : (memref<*xf16>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
