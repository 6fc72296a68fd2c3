// gpucg-matmul-wgmma for batched matmuls, on the CPU emulator: each
// workgroup multiplies one matrix of the batch (the batch a grid
// dimension), and each operand's TMA tensor map reads its batch's matrices
// as one, their rows stacked, from the tile's matrix's first row on.
// Kernels (the strategy's plans, but one cluster run): linalg.batch_matmul
// with B[b, k, n] and M = 200 in partial 128-row tiles (whose rows past M
// read the next matrix of A); a batched A * B^T (attention's Q K^T) with a
// K tail, partial N and a column bias and an f16 cast fused over the batch;
// a batched decode step (M = 8: the transposed tile); and C += A * B over a
// batch. In order, reversed with TMA data at the wait and wgmma at issue,
// on persistent grids of one and three workgroups, and in clusters of two
// along M. Small-integer inputs keep every sum exact: the results must
// equal the untiled kernels'.
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
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=3})' -o %t.p3.wgmma.mlir
// RUN: gpucg-opt %t.p3.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.p3.mlir
// RUN: %mlir_runner_emulated %t.p3.mlir | %strip_address > %t.p3
// RUN: diff %t.ref %t.p3
// RUN: FileCheck %s --check-prefix=PERSISTENT < %t.p3.wgmma.mlir
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-cluster-m=2})' -o %t.c2.wgmma.mlir
// RUN: gpucg-opt %t.c2.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.c2.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.c2.mlir | %strip_address > %t.c2
// RUN: diff %t.ref %t.c2
// RUN: FileCheck %s --check-prefix=CLUSTER < %t.c2.wgmma.mlir

// Mutation: a tensor map of the first matrix only (mutate.py first-matrix):
// the loads of every other matrix read past it, in each kernel.
// RUN: %mutate first-matrix 1 < %t.wgmma.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1
// RUN: %mutate first-matrix 4 < %t.wgmma.mlir > %t.m4.mlir
// RUN: gpucg-opt %t.m4.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m4
// RUN: not diff -q %t.ref %t.m4
// RUN: %mutate first-matrix 5 < %t.wgmma.mlir > %t.m5.mlir
// RUN: gpucg-opt %t.m5.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m5
// RUN: not diff -q %t.ref %t.m5
// RUN: %mutate first-matrix 7 < %t.wgmma.mlir > %t.m7.mlir
// RUN: gpucg-opt %t.m7.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m7
// RUN: not diff -q %t.ref %t.m7

// What ran (and that it parses again).
// RUN: gpucg-opt %t.wgmma.mlir | FileCheck %s
// The batch is the grid's z; A's and B's maps read the batches' rows
// stacked; the tile's matrix starts at row b * M of A and b * K of B[b, k, n].
// CHECK-LABEL: func.func @bmm
// CHECK: %[[A:.+]] = memref.collapse_shape %arg0 {{\[}}[0, 1], [2]] : memref<3x200x128xf16> into memref<600x128xf16>
// CHECK: memref.cast %[[A]] : memref<600x128xf16> to memref<*xf16>
// CHECK: memref.collapse_shape %arg1 {{\[}}[0, 1], [2]] : memref<3x128x256xf16> into memref<384x256xf16>
// CHECK: scf.forall (%[[BATCH:.+]], %[[ROW:.+]], %[[COLUMN:.+]]) = (0, 0, 0) to (3, 200, 256) step (1, 128, 128)
// CHECK-DAG: %[[ABASE:.+]] = arith.muli %[[BATCH]], %c200 : index
// CHECK-DAG: %[[BBASE:.+]] = arith.muli %[[BATCH]], %c128 : index
// CHECK: %[[AROW:.+]] = arith.addi %[[ABASE]], %[[ROW]] : index
// CHECK: nvgpu.tma.async.load %{{.+}}[%{{.+}}, %[[AROW]]]
// CHECK: %[[BROW:.+]] = arith.addi %[[BBASE]], %{{.+}} : index
// CHECK: nvgpu.tma.async.load %{{.+}}[%[[COLUMN]], %[[BROW]]]
// CHECK: {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
// CHECK-LABEL: func.func @bmm_nt_bias
// CHECK: vector.transfer_write {{.*}} : vector<8xf16>, memref<2x96x200xf16>
// CHECK-LABEL: func.func @decode_batch
// CHECK: memref.collapse_shape %arg1 {{.*}} into memref<768x128xbf16>
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c64, %c64]
// CHECK: memref.collapse_shape %arg0 {{.*}} into memref<32x128xbf16>
// CHECK: nvgpu.tma.create.descriptor %{{.+}} box[%c8, %c64]
// CHECK: <fragmented = vector<64x8xf32>>
// CHECK: memref.transpose
// CHECK-LABEL: func.func @accumulate_batch
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK-NEXT: vector.transfer_write {{.*}} : vector<4xf32>, memref<2x64x128xf32>

// The persistent grid walks the tiles of every matrix.
// PERSISTENT-LABEL: func.func @bmm
// PERSISTENT-SAME: persistent_workgroups = 3
// PERSISTENT: scf.forall (%{{.+}}) in (3)
// PERSISTENT: scf.for %{{.+}} = %{{.+}} to %c12 step %c3

// CLUSTER-LABEL: func.func @bmm
// CLUSTER-SAME: cluster = [2, 1]
// CLUSTER: nvvm.mapa
// CLUSTER-LABEL: func.func @bmm_nt_bias

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  // linalg.batch_matmul, B[b, k, n] (the strategy's plan): M = 200 in
  // partial 128-row tiles, whose rows past M read the next matrix of A.
  func.func @bmm(%a: tensor<3x200x128xf16>, %b: tensor<3x128x256xf16>, %c: tensor<3x200x256xf32>) -> tensor<3x200x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<3x200x256xf32>) -> tensor<3x200x256xf32>
    %r = linalg.batch_matmul ins(%a, %b : tensor<3x200x128xf16>, tensor<3x128x256xf16>) outs(%f : tensor<3x200x256xf32>) -> tensor<3x200x256xf32>
    return %r : tensor<3x200x256xf32>
  }
  // A batched A * B^T (attention's Q K^T) with a K tail (K = 136), partial
  // N, and a column bias and an f16 cast over the batch fused into the
  // epilogue (the strategy's plan).
  func.func @bmm_nt_bias(%a: tensor<2x96x136xbf16>, %b: tensor<2x200x136xbf16>, %bias: tensor<200xf32>, %out: tensor<2x96x200xf16>) -> tensor<2x96x200xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x96x200xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x96x200xf32>) -> tensor<2x96x200xf32>
    %m = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%a, %b : tensor<2x96x136xbf16>, tensor<2x200x136xbf16>) outs(%f : tensor<2x96x200xf32>) -> tensor<2x96x200xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m, %bias : tensor<2x96x200xf32>, tensor<200xf32>) outs(%out : tensor<2x96x200xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s = arith.addf %x, %y : f32
      %t = arith.truncf %s : f32 to f16
      linalg.yield %t : f16
    } -> tensor<2x96x200xf16>
    return %r : tensor<2x96x200xf16>
  }
  // A batched decode step (attention's scores for 8 new tokens per
  // sequence): M = 8, the transposed tile, whose rows past M (none here)
  // and columns past N are padding.
  func.func @decode_batch(%a: tensor<4x8x128xbf16>, %b: tensor<4x192x128xbf16>, %c: tensor<4x8x192xf32>) -> tensor<4x8x192xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4x8x192xf32>) -> tensor<4x8x192xf32>
    %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%a, %b : tensor<4x8x128xbf16>, tensor<4x192x128xbf16>) outs(%f : tensor<4x8x192xf32>) -> tensor<4x8x192xf32>
    return %r : tensor<4x8x192xf32>
  }
  // C += A * B over a batch, into the argument.
  func.func @accumulate_batch(%a: tensor<2x64x64xf16>, %b: tensor<2x64x128xf16>, %c: tensor<2x64x128xf32>) -> tensor<2x64x128xf32> {
    %r = linalg.batch_matmul ins(%a, %b : tensor<2x64x64xf16>, tensor<2x64x128xf16>) outs(%c : tensor<2x64x128xf32>) -> tensor<2x64x128xf32>
    return %r : tensor<2x64x128xf32>
  }
  func.func @main() {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %c4_i32 = arith.constant 4 : i32
    %bmm_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 1) mod 7)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<3x200x128xf16>
    %bmm_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 2 + d2 * 3) mod 5)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<3x128x256xf16>
    %bmm_2 = tensor.empty() : tensor<3x200x256xf32>
    %bmm_r = func.call @bmm(%bmm_0, %bmm_1, %bmm_2) : (tensor<3x200x128xf16>, tensor<3x128x256xf16>, tensor<3x200x256xf32>) -> tensor<3x200x256xf32>
    %bmm_m = bufferization.to_buffer %bmm_r : tensor<3x200x256xf32> to memref<3x200x256xf32>
    %bmm_u = memref.cast %bmm_m : memref<3x200x256xf32> to memref<*xf32>
    func.call @printMemrefF32(%bmm_u) : (memref<*xf32>) -> ()
    %bmm_nt_bias_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 1) mod 7)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<2x96x136xbf16>
    %bmm_nt_bias_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 2 + d2 * 3) mod 5)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<2x200x136xbf16>
    %bmm_nt_bias_2 = tensor.generate {
    ^bb0(%i0: index):
      %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i0)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<200xf32>
    %bmm_nt_bias_3 = tensor.empty() : tensor<2x96x200xf16>
    %bmm_nt_bias_r = func.call @bmm_nt_bias(%bmm_nt_bias_0, %bmm_nt_bias_1, %bmm_nt_bias_2, %bmm_nt_bias_3) : (tensor<2x96x136xbf16>, tensor<2x200x136xbf16>, tensor<200xf32>, tensor<2x96x200xf16>) -> tensor<2x96x200xf16>
    %bmm_nt_bias_m = bufferization.to_buffer %bmm_nt_bias_r : tensor<2x96x200xf16> to memref<2x96x200xf16>
    %bmm_nt_bias_u = memref.cast %bmm_nt_bias_m : memref<2x96x200xf16> to memref<*xf16>
    func.call @printMemrefF16(%bmm_nt_bias_u) : (memref<*xf16>) -> ()
    %decode_batch_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 1) mod 7)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<4x8x128xbf16>
    %decode_batch_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 2 + d2 * 3) mod 5)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<4x192x128xbf16>
    %decode_batch_2 = tensor.empty() : tensor<4x8x192xf32>
    %decode_batch_r = func.call @decode_batch(%decode_batch_0, %decode_batch_1, %decode_batch_2) : (tensor<4x8x128xbf16>, tensor<4x192x128xbf16>, tensor<4x8x192xf32>) -> tensor<4x8x192xf32>
    %decode_batch_m = bufferization.to_buffer %decode_batch_r : tensor<4x8x192xf32> to memref<4x8x192xf32>
    %decode_batch_u = memref.cast %decode_batch_m : memref<4x8x192xf32> to memref<*xf32>
    func.call @printMemrefF32(%decode_batch_u) : (memref<*xf32>) -> ()
    %accumulate_batch_0 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 1) mod 7)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<2x64x64xf16>
    %accumulate_batch_1 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 2 + d2 * 3) mod 5)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<2x64x128xf16>
    %accumulate_batch_2 = tensor.generate {
    ^bb0(%i0: index, %i1: index, %i2: index):
      %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 1 + d2 * 5) mod 9)>(%i0, %i1, %i2)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c4_i32 : i32
      %e = arith.sitofp %w : i32 to f32
      tensor.yield %e : f32
    } : tensor<2x64x128xf32>
    %accumulate_batch_r = func.call @accumulate_batch(%accumulate_batch_0, %accumulate_batch_1, %accumulate_batch_2) : (tensor<2x64x64xf16>, tensor<2x64x128xf16>, tensor<2x64x128xf32>) -> tensor<2x64x128xf32>
    %accumulate_batch_m = bufferization.to_buffer %accumulate_batch_r : tensor<2x64x128xf32> to memref<2x64x128xf32>
    %accumulate_batch_u = memref.cast %accumulate_batch_m : memref<2x64x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%accumulate_batch_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
}
