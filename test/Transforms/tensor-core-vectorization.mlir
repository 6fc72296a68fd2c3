// The kernels go through the stages before the pass (%gpucg_tensorcore_front:
// strategy, workgroup tiling, bufferization, specialization, distribution to
// warps, multi-buffering), then through gpucg-tensor-core-vectorization.
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(%gpucg_tensorcore_front,func.func(gpucg-tensor-core-vectorization))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s

/// WMMA, the seed (2x2 warps of 16x16x16): one 16x16x16 contract per warp and
/// K step. The accumulator starts as the warp's part of C, read from global
/// memory (its copy into the staging buffer is forwarded and gone), is
/// carried in registers and, after a barrier that ends the lifetime of A's
/// and B's buffers, written to the staging buffer for the workgroup's
/// copy-out; A and B come from workgroup memory.
// CHECK-LABEL: func.func @wmma_seed
//       CHECK:   %[[C_SMEM:.+]] = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[C_TILE:.+]] = memref.subview %{{.+}} : memref<512x512xf32> to memref<32x32xf32
//       CHECK:   %[[C_W:.+]] = memref.subview %[[C_SMEM]]
//   CHECK-NOT:   vector.transfer_write
//       CHECK:   %[[ACC:.+]] = vector.transfer_read %{{.+}} : memref<16x16xf32, strided<[512, 1], offset: ?>>, vector<16x16xf32>
//   CHECK-NOT:   vector.transfer_write
//       CHECK:   %[[R:.+]] = scf.for {{.+}} iter_args(%[[C:.+]] = %[[ACC]]) -> (vector<16x16xf32>) {
//       CHECK:     linalg.copy
//       CHECK:     linalg.copy
//       CHECK:     %[[A:.+]] = vector.transfer_read {{.+}}#gpu.address_space<workgroup>>, vector<16x16xf16>
//       CHECK:     %[[B:.+]] = vector.transfer_read {{.+}}#gpu.address_space<workgroup>>, vector<16x16xf16>
//       CHECK:     %[[D:.+]] = vector.contract {{.+}} %[[A]], %[[B]], %[[C]] : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
//   CHECK-NOT:     vector.contract
//       CHECK:     scf.yield %[[D]]
//       CHECK:   }
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   vector.transfer_write %[[R]], %[[C_W]]{{.+}} : vector<16x16xf32>, memref<16x16xf32, {{.+}}#gpu.address_space<workgroup>>
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   linalg.copy ins(%[[C_SMEM]] : {{.+}}) outs(%[[C_TILE]] : {{.+}})
func.func @wmma_seed(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// mma.sync (m16n8k16): each warp's 16x16 tile is two 16x8 contracts; B is
/// read transposed (8x16, "col-major") as mma.sync wants it; both halves of
/// the accumulator start from C and are carried across the K loop.
// CHECK-LABEL: func.func @mma_sync_seed
//   CHECK-DAG:   %[[ACC0:.+]] = vector.transfer_read %{{.+}}[%c0, %c0]{{.+}} : memref<16x16xf32, strided<[512, 1], offset: ?>>, vector<16x8xf32>
//   CHECK-DAG:   %[[ACC1:.+]] = vector.transfer_read %{{.+}}[%c0, %c8]{{.+}} : memref<16x16xf32, strided<[512, 1], offset: ?>>, vector<16x8xf32>
//       CHECK:   scf.for {{.+}} iter_args(%[[C0:.+]] = %[[ACC0]], %[[C1:.+]] = %[[ACC1]]) -> (vector<16x8xf32>, vector<16x8xf32>) {
//       CHECK:     %[[A:.+]] = vector.transfer_read {{.+}} vector<16x16xf16>
//   CHECK-DAG:     %[[B0:.+]] = vector.transfer_read %{{.+}}[%c0, %c0]{{.+}}permutation_map = affine_map<(d0, d1) -> (d1, d0)>{{.+}} vector<8x16xf16>
//   CHECK-DAG:     %[[B1:.+]] = vector.transfer_read %{{.+}}[%c0, %c8]{{.+}}permutation_map = affine_map<(d0, d1) -> (d1, d0)>{{.+}} vector<8x16xf16>
//   CHECK-DAG:     vector.contract {{.+}} %[[A]], %[[B0]], %[[C0]] : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
//   CHECK-DAG:     vector.contract {{.+}} %[[A]], %[[B1]], %[[C1]] : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
func.func @mma_sync_seed(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// f32 is TF32 on WMMA, m16n16k8: two K steps of 8 within the 16-deep K tile.
// CHECK-LABEL: func.func @wmma_tf32
//       CHECK:   scf.for
//       CHECK:     vector.contract {{.+}} : vector<16x8xf32>, vector<8x16xf32> into vector<16x16xf32>
//       CHECK:     vector.contract {{.+}} : vector<16x8xf32>, vector<8x16xf32> into vector<16x16xf32>
func.func @wmma_tf32(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

/// C produced by a fill: the accumulators start as constant zeros in
/// registers. Nothing reads C, in global or workgroup memory, and nothing
/// writes the zeros anywhere; the staging buffer is written once, after the
/// K loop and a barrier.
// CHECK-LABEL: func.func @mma_sync_filled
//       CHECK:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16x8xf32>
//   CHECK-NOT:   vector.transfer_read %{{.+}} vector<16x8xf32>
//   CHECK-NOT:   linalg.fill
//   CHECK-NOT:   vector.transfer_write
//       CHECK:   scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]]) -> (vector<16x8xf32>, vector<16x8xf32>) {
//       CHECK:     scf.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   vector.transfer_write {{.+}} : vector<16x8xf32>, memref<16x16xf32, {{.+}}#gpu.address_space<workgroup>>
//  CHECK-NEXT:   vector.transfer_write {{.+}} : vector<16x8xf32>, memref<16x16xf32, {{.+}}#gpu.address_space<workgroup>>
//  CHECK-NEXT:   gpu.barrier
//  CHECK-NEXT:   linalg.copy
//   CHECK-NOT:   vector.transfer_write
func.func @mma_sync_filled(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// A single-warp workgroup stages nothing: C, filled, starts as zeros in
/// registers all the same, and the warp writes its result straight to C
/// after the K loop (the fill's stores are gone).
// CHECK-LABEL: func.func @mma_sync_single_warp_filled
//       CHECK:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16x8xf32>
//   CHECK-NOT:   #gpu.address_space<workgroup>
//   CHECK-NOT:   vector.transfer_write
//       CHECK:   %[[R:.+]]:2 = scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]], %{{.+}} = %[[ZERO]])
//   CHECK-NOT:     vector.transfer_write
//       CHECK:     scf.yield
//  CHECK-NEXT:   }
//   CHECK-DAG:   vector.transfer_write %[[R]]#0, {{.+}} : vector<16x8xf32>, memref<16x16xf32, strided<[64, 1], offset: ?>>
//   CHECK-DAG:   vector.transfer_write %[[R]]#1, {{.+}} : vector<16x8xf32>, memref<16x16xf32, strided<[64, 1], offset: ?>>
func.func @mma_sync_single_warp_filled(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 16, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

/// A generic contraction with B indexed (n, k): its operands, read broadcast
/// over the loop they do not use, become plain reads folded into the
/// contraction's maps, then the same m16n8k16 contracts as a named matmul's.
// CHECK-LABEL: func.func @mma_sync_generic_transposed_b
//   CHECK-NOT:   vector.broadcast
//       CHECK:   scf.for
//       CHECK:     vector.contract {{.+}} : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
//   CHECK-NOT:   vector.multi_reduction
func.func @mma_sync_generic_transposed_b(%a: tensor<512x128xf16>, %b: tensor<512x128xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<512x128xf16>, tensor<512x128xf16>) outs(%c : tensor<512x512xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

/// A batched generic contraction with B indexed (batch, n, k) and an f16
/// accumulator (a fuzzer case). It becomes a linalg.contract with the same
/// maps, then one vector.contract per warp, unrolled to 4x4x2 WMMA contracts
/// of 16x16x16 per K step; as broadcasts and a multi_reduction it used to
/// unroll to 8192 masked dot products and take most of a minute.
// CHECK-LABEL: func.func @wmma_batched_generic_transposed_b
//   CHECK-NOT:   vector.mask
//       CHECK:   scf.for
// CHECK-COUNT-32:  vector.contract {{.+}} : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
//   CHECK-NOT:   vector.contract
//   CHECK-NOT:   vector.mask
func.func @wmma_batched_generic_transposed_b(%a: tensor<64x512x128xf16>, %b: tensor<64x128x128xf16>) -> tensor<64x512x128xf16> {
  %e = tensor.empty() : tensor<64x512x128xf16>
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64x512x128xf16>) -> tensor<64x512x128xf16>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128, 128, 32], [1, 64, 64, 0], [0, 16, 16, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 4>>}
    ins(%a, %b : tensor<64x512x128xf16>, tensor<64x128x128xf16>) outs(%f : tensor<64x512x128xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<64x512x128xf16>
  return %0 : tensor<64x512x128xf16>
}
