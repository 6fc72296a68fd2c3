// The kernels go through the stages before the pass (%gpucg_tensorcore_front:
// strategy, workgroup tiling, bufferization, specialization, distribution to
// warps, multi-buffering), then through gpucg-tensor-core-vectorization.
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(%gpucg_tensorcore_front,func.func(gpucg-tensor-core-vectorization))' \
// RUN:   | FileCheck %s

/// WMMA, the seed (2x2 warps of 16x16x16): one 16x16x16 contract per warp and
/// K step; the accumulator is read before the K loop, carried in registers
/// and written after it; A and B come from workgroup memory.
// CHECK-LABEL: func.func @wmma_seed
//       CHECK:   %[[ACC:.+]] = vector.transfer_read %{{.+}} : memref<16x16xf32, {{.+}}#gpu.address_space<workgroup>>, vector<16x16xf32>
//       CHECK:   %[[R:.+]] = scf.for {{.+}} iter_args(%[[C:.+]] = %[[ACC]]) -> (vector<16x16xf32>) {
//       CHECK:     linalg.copy
//       CHECK:     linalg.copy
//       CHECK:     %[[A:.+]] = vector.transfer_read {{.+}}#gpu.address_space<workgroup>>, vector<16x16xf16>
//       CHECK:     %[[B:.+]] = vector.transfer_read {{.+}}#gpu.address_space<workgroup>>, vector<16x16xf16>
//       CHECK:     %[[D:.+]] = vector.contract {{.+}} %[[A]], %[[B]], %[[C]] : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
//   CHECK-NOT:     vector.contract
//       CHECK:     scf.yield %[[D]]
//       CHECK:   vector.transfer_write %[[R]], %{{.+}} : vector<16x16xf32>, memref<16x16xf32, {{.+}}#gpu.address_space<workgroup>>
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
/// the accumulator are carried across the K loop.
// CHECK-LABEL: func.func @mma_sync_seed
//   CHECK-DAG:   %[[ACC0:.+]] = vector.transfer_read %{{.+}}[%c0, %c0]{{.+}} vector<16x8xf32>
//   CHECK-DAG:   %[[ACC1:.+]] = vector.transfer_read %{{.+}}[%c0, %c8]{{.+}} vector<16x8xf32>
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
