// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-distribute-shared-memory-copy))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s

/// 32x16 f16 over 128 threads: 8 f16 (128 bits) per vector, 2 vectors per
/// row, so 64 rows per round: thread t copies row t / 2, columns
/// (t mod 2) * 8 .. +8, and threads 64..127 have no row (the loop runs zero
/// or one time).
// CHECK-LABEL: func.func @copy_in_f16
//   CHECK-DAG:   %[[TX:.+]] = gpu.thread_id x upper_bound 64
//   CHECK-DAG:   %[[TY:.+]] = gpu.thread_id y upper_bound 2
//       CHECK:   %[[ROW:.+]] = affine.apply affine_map<()[s0, s1, s2] -> (s1 * 32 + s2 * 64 + s0 floordiv 2)>()[%[[TX]], %[[TY]], %{{.+}}]
//       CHECK:   scf.for %[[R:.+]] = %[[ROW]] to %c32 step %c64 {
//       CHECK:     %[[COL:.+]] = affine.apply affine_map<()[s0] -> (s0 * 8 - (s0 floordiv 2) * 16)>()[%[[TX]]]
//       CHECK:     memref.subview %{{.+}}[%[[R]], %[[COL]]] [1, 8] [1, 1] : memref<32x16xf16, strided<[128, 1], offset: ?>>
//       CHECK:     memref.subview %{{.+}}[%[[R]], %[[COL]]] [1, 8] [1, 1] : memref<32x16xf16, #gpu.address_space<workgroup>>
//       CHECK:     %[[V:.+]] = vector.transfer_read {{.+}} vector<8xf16>
//       CHECK:     vector.transfer_write %[[V]], {{.+}} : vector<8xf16>, memref<8xf16, {{.+}}#gpu.address_space<workgroup>>
//   CHECK-NOT:   linalg.copy
func.func @copy_in_f16(%src: memref<32x16xf16, strided<[128, 1], offset: ?>>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<32x16xf16, strided<[128, 1], offset: ?>>) outs(%smem : memref<32x16xf16, #gpu.address_space<workgroup>>)
  return
}

// -----

/// 32x32 f32 back to global memory: 4 f32 per vector, 8 vectors per row, 16
/// rows per round, so every thread copies 2 rows, 16 apart. Every thread
/// runs the same number of copies, so they are unrolled into straight-line
/// code (what software pipelining needs of async copies).
// CHECK-LABEL: func.func @copy_out_f32
//   CHECK-NOT:   scf.for
//       CHECK:   %[[ROW0:.+]] = affine.apply affine_map<()[s0, s1, s2] -> (s1 * 8 + s2 * 16 + s0 floordiv 8)>
//       CHECK:   memref.subview %{{.+}}[%[[ROW0]], %{{.+}}] [1, 4]
//       CHECK:   vector.transfer_read {{.+}} : memref<4xf32, {{.+}}#gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:   vector.transfer_write {{.+}} : vector<4xf32>, memref<4xf32, {{.+}}>
//       CHECK:   %[[ROW1:.+]] = affine.apply affine_map<()[s0, s1, s2] -> (s1 * 8 + s2 * 16 + s0 floordiv 8 + 16)>
//       CHECK:   memref.subview %{{.+}}[%[[ROW1]], %{{.+}}] [1, 4]
//       CHECK:   vector.transfer_read {{.+}} : memref<4xf32, {{.+}}#gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:   vector.transfer_write {{.+}} : vector<4xf32>, memref<4xf32, {{.+}}>
//   CHECK-NOT:   scf.for
func.func @copy_out_f32(%dst: memref<32x32xf32, strided<[512, 1], offset: ?>>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%smem : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<32x32xf32, strided<[512, 1], offset: ?>>)
  return
}

// -----

/// An innermost size of 6 f16 is no multiple of 8: vectors of 2 (the widest
/// power of two that divides 6), 3 per row.
// CHECK-LABEL: func.func @narrow_rows
//       CHECK:   vector.transfer_read {{.+}} vector<2xf16>
//   CHECK-NOT:   vector<8xf16>
func.func @narrow_rows(%src: memref<16x6xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 1, 1]>} {
  %smem = memref.alloc() : memref<16x6xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<16x6xf16>) outs(%smem : memref<16x6xf16, #gpu.address_space<workgroup>>)
  return
}

// -----

/// A partial tile (dynamic sizes) is copied element by element over the
/// threads, with bounds from the sizes.
// CHECK-LABEL: func.func @partial_tile
//       CHECK:   scf.for
//       CHECK:     scf.for
//       CHECK:       memref.subview {{.+}} [1, 1] [1, 1]
//       CHECK:       linalg.copy
//   CHECK-NOT:   vector.transfer_read
func.func @partial_tile(%src: memref<?x16xf16, strided<[128, 1], offset: ?>>, %n: index)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %view = memref.subview %smem[0, 0] [%n, 16] [1, 1] : memref<32x16xf16, #gpu.address_space<workgroup>> to memref<?x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<?x16xf16, strided<[128, 1], offset: ?>>) outs(%view : memref<?x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>)
  return
}

// -----

/// Copies between global buffers are not this pass's business.
// CHECK-LABEL: func.func @negative_global_copy
//       CHECK:   linalg.copy
//   CHECK-NOT:   gpu.thread_id
func.func @negative_global_copy(%src: memref<32x16xf16>, %dst: memref<32x16xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  linalg.copy ins(%src : memref<32x16xf16>) outs(%dst : memref<32x16xf16>)
  return
}

// -----

/// Elements without a fixed bit width (index) are copied one at a time, as
/// scalar copies (a 0-d vector would be no async copy).
// CHECK-LABEL: func.func @copy_index
//       CHECK:   gpu.thread_id
//       CHECK:   linalg.copy ins({{.+}} : memref<1x1xindex, {{.+}}>) outs({{.+}} : memref<1x1xindex, {{.+}}, #gpu.address_space<workgroup>>)
//   CHECK-NOT:   vector.transfer_read
func.func @copy_index(%src: memref<8x8xindex>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 1, 1]>} {
  %smem = memref.alloc() : memref<8x8xindex, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<8x8xindex>) outs(%smem : memref<8x8xindex, #gpu.address_space<workgroup>>)
  return
}

// -----

/// A copy already distributed over threads (here each warp's 16x16 part of a
/// staged accumulator, indexed by the thread ids) belongs to its warp: it is
/// not split over the workgroup again.
// CHECK-LABEL: func.func @negative_warp_copy
//       CHECK:   %[[PART:.+]] = memref.subview
//       CHECK:   %[[W:.+]] = memref.subview
//       CHECK:   linalg.copy ins(%[[PART]] : {{.+}}) outs(%[[W]] : {{.+}})
//   CHECK-NOT:   vector.transfer_read
func.func @negative_warp_copy(%c: memref<32x32xf32, strided<[512, 1], offset: ?>>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  %ty = gpu.thread_id y upper_bound 2
  %tx = gpu.thread_id x upper_bound 64
  %row = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%ty]
  %col = affine.apply affine_map<()[s0] -> ((s0 floordiv 32) * 16)>()[%tx]
  %part = memref.subview %c[%row, %col] [16, 16] [1, 1] : memref<32x32xf32, strided<[512, 1], offset: ?>> to memref<16x16xf32, strided<[512, 1], offset: ?>>
  %w = memref.subview %smem[%row, %col] [16, 16] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
  linalg.copy ins(%part : memref<16x16xf32, strided<[512, 1], offset: ?>>) outs(%w : memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
  return
}

// -----

/// So is a warp's copy inside the loops that distribute a partial tile over
/// the warps (their bounds depend on the thread ids).
// CHECK-LABEL: func.func @negative_warp_copy_in_loop
//       CHECK:   scf.for
//       CHECK:     linalg.copy
//   CHECK-NOT:   vector.transfer_read
func.func @negative_warp_copy_in_loop(%c: memref<?x?xf32>, %n: index)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>} {
  %c32 = arith.constant 32 : index
  %smem = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  %ty = gpu.thread_id y upper_bound 2
  %row = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%ty]
  scf.for %i = %row to %n step %c32 {
    %part = memref.subview %c[%i, 0] [16, 32] [1, 1] : memref<?x?xf32> to memref<16x32xf32, strided<[?, 1], offset: ?>>
    %w = memref.subview %smem[0, 0] [16, 32] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<16x32xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>
    linalg.copy ins(%part : memref<16x32xf32, strided<[?, 1], offset: ?>>) outs(%w : memref<16x32xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>)
  }
  return
}

// -----

/// The vector width divides the global row pitch: with 36 f16 per row, 16-byte
/// vectors of every other row would be misaligned, so 8-byte ones (4 x f16).
// CHECK-LABEL: func.func @copy_pitch_36
//       CHECK:   vector.transfer_read {{.+}} : memref<{{.+}}>, vector<4xf16>
//   CHECK-NOT:   vector<8xf16>
func.func @copy_pitch_36(%src: memref<64x36xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
  %tile = memref.subview %src[0, 0] [32, 32] [1, 1] : memref<64x36xf16> to memref<32x32xf16, strided<[36, 1]>>
  linalg.copy ins(%tile : memref<32x32xf16, strided<[36, 1]>>) outs(%smem : memref<32x32xf16, #gpu.address_space<workgroup>>)
  return
}

// -----

/// An odd pitch (33 f16) aligns no vector for cp.async (4 bytes at least):
/// the copy is register-staged, each thread reading 8 f16 of a row (which
/// the lowering splits into element loads, by the alignment it proves) and
/// writing them to workgroup memory as one 16-byte vector; not one element
/// at a time.
// CHECK-LABEL: func.func @copy_pitch_33
//       CHECK:   %[[ROW:.+]] = memref.subview {{.+}} : memref<32x32xf16, strided<[33, 1]>> to memref<1x8xf16, strided<[33, 1], offset: ?>>
//       CHECK:   %[[V:.+]] = vector.transfer_read {{.+}} : memref<8xf16, {{.+}}>, vector<8xf16>
//       CHECK:   vector.transfer_write %[[V]], {{.+}} : vector<8xf16>, memref<8xf16, {{.+}}, #gpu.address_space<workgroup>>
//   CHECK-NOT:   linalg.copy
func.func @copy_pitch_33(%src: memref<64x33xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
  %tile = memref.subview %src[0, 0] [32, 32] [1, 1] : memref<64x33xf16> to memref<32x32xf16, strided<[33, 1]>>
  linalg.copy ins(%tile : memref<32x32xf16, strided<[33, 1]>>) outs(%smem : memref<32x32xf16, #gpu.address_space<workgroup>>)
  return
}

// -----

/// Dynamic strides prove no alignment: one element at a time.
// CHECK-LABEL: func.func @copy_dynamic_pitch
//       CHECK:   linalg.copy ins({{.+}} : memref<1x1xf32, strided<[?, 1], offset: ?>>)
//   CHECK-NOT:   vector.transfer_read
func.func @copy_dynamic_pitch(%src: memref<?x?xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  %tile = memref.subview %src[0, 0] [16, 32] [1, 1] : memref<?x?xf32> to memref<16x32xf32, strided<[?, 1]>>
  linalg.copy ins(%tile : memref<16x32xf32, strided<[?, 1]>>) outs(%smem : memref<16x32xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

/// A zero-padded copy-in (the fill of a full-tile buffer right before a
/// partial copy into it, what gpucg-tile-and-distribute leaves for a partial
/// tile) is distributed over the buffer's full static shape: every thread
/// copies one vector of 8, whose element count is clamped to what lies
/// inside the rows x cols part (0 for a row past it), as a masked read with
/// zero padding and a whole write. The fill is gone: the padding writes the
/// zeros. Indices are clamped into the part, so that no address is formed
/// past it, and only affine.min/max compute them (no scalar arith, which the
/// MMA conversions of the K loop cannot take).
// CHECK-LABEL: func.func @padded_copy_in
//  CHECK-SAME:   (%[[SRC:.+]]: memref<64x32xf16, strided<[40, 1], offset: ?>>, %[[ROWS:.+]]: index, %[[COLS:.+]]: index)
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
//   CHECK-DAG:   %[[SMEM:.+]] = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[PART:.+]] = memref.subview %[[SRC]][0, 0] [%[[ROWS]], %[[COLS]]]
//       CHECK:   gpu.barrier
//   CHECK-NOT:   linalg.fill
//       CHECK:   %[[ROW_LEFT:.+]] = affine.max affine_map<()[s0, s1, s2, s3] -> (s0 * 8 - s2 * 128 - s3 * 256 - (s1 floordiv 4) * 8, 0)>()[%[[ROWS]],
//       CHECK:   %[[COL_LEFT:.+]] = affine.max affine_map<()[s0, s1] -> (s0 - s1 * 8 + (s1 floordiv 4) * 32, 0)>()[%[[COLS]],
//       CHECK:   %[[COUNT:.+]] = affine.min affine_map<()[s0, s1] -> (8, s1, s0)>()[%[[ROW_LEFT]], %[[COL_LEFT]]]
//       CHECK:   %[[R:.+]] = affine.min affine_map<()[s0, s1, s2, s3] -> (s0 - 1, s2 * 16 + s3 * 32 + s1 floordiv 4)>()[%[[ROWS]],
//       CHECK:   %[[C:.+]] = affine.min affine_map<()[s0, s1] -> (s1 * 8 - (s1 floordiv 4) * 32, ((s0 - 1) floordiv 8) * 8)>()[%[[COLS]],
//       CHECK:   %[[MASK:.+]] = vector.create_mask %[[COUNT]] : vector<8xi1>
//       CHECK:   %[[V:.+]] = vector.transfer_read %[[PART]][%[[R]], %[[C]]], %[[ZERO]], %[[MASK]] {in_bounds = [true]} : {{.+}}, vector<8xf16>
//       CHECK:   vector.transfer_write %[[V]], %[[SMEM]][{{.+}}] {in_bounds = [true]} : vector<8xf16>, memref<32x32xf16, #gpu.address_space<workgroup>>
//  CHECK-NEXT:   gpu.barrier
//   CHECK-NOT:   linalg.copy
func.func @padded_copy_in(%src: memref<64x32xf16, strided<[40, 1], offset: ?>>, %rows: index, %cols: index)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>} {
  %zero = arith.constant 0.0 : f16
  %smem = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
  %part = memref.subview %src[0, 0] [%rows, %cols] [1, 1] : memref<64x32xf16, strided<[40, 1], offset: ?>> to memref<?x?xf16, strided<[40, 1], offset: ?>>
  %spart = memref.subview %smem[0, 0] [%rows, %cols] [1, 1] : memref<32x32xf16, #gpu.address_space<workgroup>> to memref<?x?xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
  gpu.barrier
  linalg.fill ins(%zero : f16) outs(%smem : memref<32x32xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%part : memref<?x?xf16, strided<[40, 1], offset: ?>>) outs(%spart : memref<?x?xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>)
  gpu.barrier
  return
}

// -----

/// A partial copy-out from a full-tile buffer: every thread reads its whole
/// vectors of 4 f32 (2 rows, 16 apart), and stores each unmasked when all 4
/// elements lie inside the rows x cols part (a 128-bit store), masked to the
/// clamped count otherwise.
// CHECK-LABEL: func.func @padded_copy_out
//  CHECK-SAME:   (%[[DST:.+]]: memref<64x64xf32, strided<[64, 1], offset: ?>>, %[[ROWS:.+]]: index, %[[COLS:.+]]: index)
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//   CHECK-DAG:   %[[SMEM:.+]] = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[PART:.+]] = memref.subview %[[DST]][0, 0] [%[[ROWS]], %[[COLS]]]
//       CHECK:   %[[COUNT:.+]] = affine.min affine_map<()[s0, s1] -> (4, s1, s0)>
//       CHECK:   %[[R:.+]] = affine.min
//       CHECK:   %[[C:.+]] = affine.min
//       CHECK:   %[[V:.+]] = vector.transfer_read %[[SMEM]][%[[ROW:.+]], %[[COL:.+]]], %{{.+}} {in_bounds = [true]} : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//       CHECK:   %[[WHOLE:.+]] = arith.cmpi eq, %[[COUNT]], %[[C4]] : index
//       CHECK:   scf.if %[[WHOLE]] {
//  CHECK-NEXT:     vector.transfer_write %[[V]], %[[PART]][%[[ROW]], %[[COL]]] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32, strided<[64, 1], offset: ?>>
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %[[MASK:.+]] = vector.create_mask %[[COUNT]] : vector<4xi1>
//  CHECK-NEXT:     vector.transfer_write %[[V]], %[[PART]][%[[R]], %[[C]]], %[[MASK]] {in_bounds = [true]}
//  CHECK-NEXT:   }
//       CHECK:   affine.apply affine_map<()[s0, s1, s2] -> (s1 * 8 + s2 * 16 + s0 floordiv 8 + 16)>
//       CHECK:   scf.if
//   CHECK-NOT:   linalg.copy
func.func @padded_copy_out(%dst: memref<64x64xf32, strided<[64, 1], offset: ?>>, %rows: index, %cols: index)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  %part = memref.subview %dst[0, 0] [%rows, %cols] [1, 1] : memref<64x64xf32, strided<[64, 1], offset: ?>> to memref<?x?xf32, strided<[64, 1], offset: ?>>
  %spart = memref.subview %smem[0, 0] [%rows, %cols] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<?x?xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>
  gpu.barrier
  linalg.copy ins(%spart : memref<?x?xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>) outs(%part : memref<?x?xf32, strided<[64, 1], offset: ?>>)
  return
}
