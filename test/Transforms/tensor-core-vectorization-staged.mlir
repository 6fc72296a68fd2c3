// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-tensor-core-vectorization))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s

// gpucg-tensor-core-vectorization on warp-level IR as
// gpucg-tile-and-distribute leaves it: a staged accumulator that each warp
// initializes in its own part of a workgroup buffer, one K step.

/// The fill of the warp's part becomes the contracts' accumulator directly:
/// no write of zeros, no read back; the staging buffer is written once,
/// after a barrier (the other warps may still read A and B).
// CHECK-LABEL: func.func @staged_fill_forwarded
//       CHECK:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16x8xf32>
//   CHECK-NOT:   vector.transfer_write
//   CHECK-NOT:   vector.transfer_read %{{.+}} vector<16x8xf32>
//       CHECK:   %[[D:.+]] = vector.contract {{.+}}, %[[ZERO]] : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
//       CHECK:   gpu.barrier
//  CHECK-NEXT:   vector.transfer_write %{{.+}}, %{{.+}} : vector<16x8xf32>, memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
func.func @staged_fill_forwarded(%a: memref<32x16xf16, #gpu.address_space<workgroup>>, %b: memref<16x32xf16, #gpu.address_space<workgroup>>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  %zero = arith.constant 0.0 : f32
  %c_smem = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  %ty = gpu.thread_id y upper_bound 2
  %tx = gpu.thread_id x upper_bound 64
  %row = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%ty]
  %col = affine.apply affine_map<()[s0] -> ((s0 floordiv 32) * 16)>()[%tx]
  %cw = memref.subview %c_smem[%row, %col] [16, 16] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %aw = memref.subview %a[%row, 0] [16, 16] [1, 1] : memref<32x16xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
  %bw = memref.subview %b[0, %col] [16, 16] [1, 1] : memref<16x32xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%cw : memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 8, 16]]>}
    ins(%aw, %bw : memref<16x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x16xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
    outs(%cw : memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
  return
}

// -----

/// Something else writes the staging buffer between the fill and the
/// matmul: the accumulator is read back from workgroup memory, as fragments
/// of elements other lanes wrote, so after a barrier.
// CHECK-LABEL: func.func @negative_staged_fill_not_forwarded
//       CHECK:   vector.transfer_write
//       CHECK:   memref.store
//       CHECK:   gpu.barrier
//  CHECK-NEXT:   %[[ACC:.+]] = vector.transfer_read {{.+}} : memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<16x8xf32>
//       CHECK:   vector.contract {{.+}}, %[[ACC]] :
func.func @negative_staged_fill_not_forwarded(%a: memref<32x16xf16, #gpu.address_space<workgroup>>, %b: memref<16x32xf16, #gpu.address_space<workgroup>>, %i: index, %j: index, %x: f32)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  %zero = arith.constant 0.0 : f32
  %c_smem = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  %ty = gpu.thread_id y upper_bound 2
  %tx = gpu.thread_id x upper_bound 64
  %row = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%ty]
  %col = affine.apply affine_map<()[s0] -> ((s0 floordiv 32) * 16)>()[%tx]
  %cw = memref.subview %c_smem[%row, %col] [16, 16] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %aw = memref.subview %a[%row, 0] [16, 16] [1, 1] : memref<32x16xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
  %bw = memref.subview %b[0, %col] [16, 16] [1, 1] : memref<16x32xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%cw : memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
  memref.store %x, %c_smem[%i, %j] : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16], [16, 16, 0], [16, 8, 16]]>}
    ins(%aw, %bw : memref<16x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<16x16xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
    outs(%cw : memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
  return
}
