// The swizzle of gpucg-vector-to-gpu on mma.sync kernels, on workgroup
// buffers that are already accessed by async copies and ldmatrix (the
// conversions have nothing left to convert).
// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-vector-to-gpu))' \
// RUN:   | gpucg-opt -split-input-file | FileCheck %s
// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-vector-to-gpu{swizzle=false}))' \
// RUN:   | gpucg-opt -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-vector-to-gpu{report-swizzle=true}))' \
// RUN:   | gpucg-opt -split-input-file > /dev/null

// OFF-NOT: arith.xori

/// Rows of 64 bytes (32 f16, two rows per 128-byte line): the column of
/// every write and read becomes col xor ((row & 6) << 2), which sends the
/// eight 16-byte rows one ldmatrix reads to eight different bank groups.
// CHECK-LABEL: func.func @swizzle_rows_of_64_bytes
//  CHECK-SAME:     (%[[G:.+]]: memref<128x128xf16>, %[[I:.+]]: index, %[[J:.+]]: index)
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C6:.+]] = arith.constant 6 : index
//       CHECK:   %[[SMEM:.+]] = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[WM:.+]] = arith.andi %[[I]], %[[C6]] : index
//       CHECK:   %[[WS:.+]] = arith.shli %[[WM]], %[[C2]] : index
//       CHECK:   %[[WCOL:.+]] = arith.xori %[[J]], %[[WS]] : index
//       CHECK:   nvgpu.device_async_copy %[[G]][%[[I]], %[[J]]], %[[SMEM]][%[[I]], %[[WCOL]]], 8
//       CHECK:   %[[RM:.+]] = arith.andi %[[I]], %[[C6]] : index
//       CHECK:   %[[RS:.+]] = arith.shli %[[RM]], %[[C2]] : index
//       CHECK:   %[[RCOL:.+]] = arith.xori %[[J]], %[[RS]] : index
//       CHECK:   nvgpu.ldmatrix %[[SMEM]][%[[I]], %[[RCOL]]] {numTiles = 4 : i32, transpose = false}
func.func @swizzle_rows_of_64_bytes(%g: memref<128x128xf16>, %i: index, %j: index) -> vector<4x2xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  // expected-remark @below {{swizzled}}
  %smem = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
  %t = nvgpu.device_async_copy %g[%i, %j], %smem[%i, %j], 8 : memref<128x128xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  nvgpu.device_async_wait %grp
  %v = nvgpu.ldmatrix %smem[%i, %j] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
  return %v : vector<4x2xf16>
}

// -----

/// A multi-buffered buffer (one 32x64 f16 slice per stage, 128-byte rows):
/// the two innermost dimensions are swizzled, col xor ((row & 7) << 3); the
/// buffer index stays. Its slice is a view, folded into the accesses first.
// CHECK-LABEL: func.func @swizzle_multi_buffered
//  CHECK-SAME:     (%[[G:.+]]: memref<128x128xf16>, %[[K:.+]]: index, %[[I:.+]]: index, %[[J:.+]]: index)
//   CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C7:.+]] = arith.constant 7 : index
//       CHECK:   %[[SMEM:.+]] = memref.alloc() : memref<3x32x64xf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[WM:.+]] = arith.andi %[[I]], %[[C7]] : index
//       CHECK:   %[[WS:.+]] = arith.shli %[[WM]], %[[C3]] : index
//       CHECK:   %[[WCOL:.+]] = arith.xori %[[J]], %[[WS]] : index
//       CHECK:   nvgpu.device_async_copy %[[G]][%[[I]], %[[J]]], %[[SMEM]][%[[K]], %[[I]], %[[WCOL]]], 8
//       CHECK:   %[[RCOL:.+]] = arith.xori %[[J]], %{{.+}} : index
//       CHECK:   nvgpu.ldmatrix %[[SMEM]][%[[K]], %[[I]], %[[RCOL]]] {numTiles = 2 : i32, transpose = true}
//   CHECK-NOT:   memref.subview
func.func @swizzle_multi_buffered(%g: memref<128x128xf16>, %k: index, %i: index, %j: index) -> vector<2x2xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  // expected-remark @below {{swizzled}}
  %smem = memref.alloc() : memref<3x32x64xf16, #gpu.address_space<workgroup>>
  %slice = memref.subview %smem[%k, 0, 0] [1, 32, 64] [1, 1, 1] : memref<3x32x64xf16, #gpu.address_space<workgroup>> to memref<32x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
  %t = nvgpu.device_async_copy %g[%i, %j], %slice[%i, %j], 8 : memref<128x128xf16> to memref<32x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  nvgpu.device_async_wait %grp
  %v = nvgpu.ldmatrix %slice[%i, %j] {numTiles = 2 : i32, transpose = true} : memref<32x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>> -> vector<2x2xf16>
  return %v : vector<2x2xf16>
}

// -----

/// Views of other buffers elsewhere in the function (here the partial-tile
/// path of workgroup specialization, whose linalg ops keep them) do not stop
/// the swizzle of a buffer used only on the full-tile path.
// CHECK-LABEL: func.func @swizzle_full_tile_path
//       CHECK:   scf.if
//       CHECK:     arith.xori
//       CHECK:     nvgpu.device_async_copy
//       CHECK:     arith.xori
//       CHECK:     nvgpu.ldmatrix
//       CHECK:   } else {
//   CHECK-NOT:     arith.xori
//       CHECK:     linalg.copy
func.func @swizzle_full_tile_path(%g: memref<128x128xf16>, %full: i1, %i: index, %j: index, %n: index) -> vector<4x2xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  // expected-remark @below {{swizzled}}
  %smem = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
  // expected-remark @below {{not swizzled: used by 'memref.subview', which the swizzle does not rewrite}}
  %rem = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
  %zero = arith.constant dense<0.0> : vector<4x2xf16>
  %r = scf.if %full -> vector<4x2xf16> {
    %t = nvgpu.device_async_copy %g[%i, %j], %smem[%i, %j], 8 : memref<128x128xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
    %grp = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %grp
    %v = nvgpu.ldmatrix %smem[%i, %j] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    scf.yield %v : vector<4x2xf16>
  } else {
    %src = memref.subview %g[0, 0] [%n, 32] [1, 1] : memref<128x128xf16> to memref<?x32xf16, strided<[128, 1]>>
    %dst = memref.subview %rem[0, 0] [%n, 32] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<?x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    linalg.copy ins(%src : memref<?x32xf16, strided<[128, 1]>>) outs(%dst : memref<?x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>)
    scf.yield %zero : vector<4x2xf16>
  }
  return %r : vector<4x2xf16>
}

// -----

/// WMMA kernels are padded, never swizzled: WMMA loads take a leading
/// dimension, which cannot express a swizzle.
// CHECK-LABEL: func.func @negative_wmma
//   CHECK-NOT:   arith.xori
func.func @negative_wmma(%g: memref<128x128xf16>, %i: index, %j: index) -> !gpu.mma_matrix<16x16xf16, "AOp">
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 1, 1]>} {
  %smem = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
  %t = nvgpu.device_async_copy %g[%i, %j], %smem[%i, %j], 8 : memref<128x128xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  nvgpu.device_async_wait %grp
  %v = gpu.subgroup_mma_load_matrix %smem[%i, %j] {leadDimension = 32 : index} : memref<64x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return %v : !gpu.mma_matrix<16x16xf16, "AOp">
}

// -----

/// A buffer padded by gpucg-reduce-bank-conflicts already has its rows in
/// different banks; swizzling it too would gain nothing.
// CHECK-LABEL: func.func @negative_padded
//   CHECK-NOT:   arith.xori
func.func @negative_padded(%g: memref<128x128xf16>, %i: index, %j: index) -> vector<4x2xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  // expected-remark @below {{not swizzled: padded against bank conflicts}}
  %padded = memref.alloc() : memref<64x40xf16, #gpu.address_space<workgroup>>
  %smem = memref.subview %padded[0, 0] [64, 32] [1, 1] : memref<64x40xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>>
  %t = nvgpu.device_async_copy %g[%i, %j], %smem[%i, %j], 8 : memref<128x128xf16> to memref<64x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  nvgpu.device_async_wait %grp
  %v = nvgpu.ldmatrix %smem[%i, %j] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>> -> vector<4x2xf16>
  return %v : vector<4x2xf16>
}

// -----

/// Rows that are not a power of two: the XOR of a column could leave the
/// row (upstream does not check), so the buffer is left alone.
// CHECK-LABEL: func.func @negative_row_not_power_of_two
//   CHECK-NOT:   arith.xori
func.func @negative_row_not_power_of_two(%g: memref<128x128xf16>, %i: index, %j: index) -> vector<4x2xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  // expected-remark @below {{not swizzled: rows of 48 bytes, not a power of two of at least 32 bytes}}
  %smem = memref.alloc() : memref<64x24xf16, #gpu.address_space<workgroup>>
  %t = nvgpu.device_async_copy %g[%i, %j], %smem[%i, %j], 8 : memref<128x128xf16> to memref<64x24xf16, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  nvgpu.device_async_wait %grp
  %v = nvgpu.ldmatrix %smem[%i, %j] {numTiles = 4 : i32, transpose = false} : memref<64x24xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
  return %v : vector<4x2xf16>
}

// -----

/// Rows of one 16-byte chunk: nothing to permute within a row.
// CHECK-LABEL: func.func @negative_rows_of_16_bytes
//   CHECK-NOT:   arith.xori
func.func @negative_rows_of_16_bytes(%g: memref<128x128xf16>, %i: index, %j: index) -> vector<1x2xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  // expected-remark @below {{not swizzled: rows of 16 bytes, not a power of two of at least 32 bytes}}
  %smem = memref.alloc() : memref<64x8xf16, #gpu.address_space<workgroup>>
  %t = nvgpu.device_async_copy %g[%i, %j], %smem[%i, %j], 8 : memref<128x128xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  nvgpu.device_async_wait %grp
  %v = nvgpu.ldmatrix %smem[%i, %j] {numTiles = 1 : i32, transpose = false} : memref<64x8xf16, #gpu.address_space<workgroup>> -> vector<1x2xf16>
  return %v : vector<1x2xf16>
}

// -----

/// The plain transfers of a buffer (the reads of the staged accumulator's
/// copy-out: 1-D, in bounds, unmasked) become vector.load / vector.store,
/// which the swizzle rewrites: the 64-bit stores of mma.sync fragments and
/// the 128-bit reads of the copy-out then spread over the banks.
// CHECK-LABEL: func.func @swizzle_staged_accumulator
//       CHECK:   %[[SMEM:.+]] = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[WCOL:.+]] = arith.xori
//       CHECK:   vector.store %{{.+}}, %[[SMEM]][%{{.+}}, %[[WCOL]]] : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
//       CHECK:   gpu.barrier
//       CHECK:   %[[RCOL:.+]] = arith.xori
//       CHECK:   vector.load %[[SMEM]][%{{.+}}, %[[RCOL]]] : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
//   CHECK-NOT:   vector.transfer_read
func.func @swizzle_staged_accumulator(%acc: vector<2xf32>, %i: index, %j: index, %k: index, %l: index) -> vector<4xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  %pad = arith.constant 0.0 : f32
  // expected-remark @below {{swizzled}}
  %smem = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
  vector.store %acc, %smem[%i, %j] : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  gpu.barrier
  %v = vector.transfer_read %smem[%k, %l], %pad {in_bounds = [true]} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

/// An access the swizzle would not rewrite (a vector.transfer_read that may
/// run out of bounds, which is no vector.load) would read unswizzled data:
/// the buffer is left alone.
// CHECK-LABEL: func.func @negative_transfer_read
//   CHECK-NOT:   arith.xori
func.func @negative_transfer_read(%g: memref<128x128xf32>, %i: index, %j: index) -> vector<4xf32>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  %pad = arith.constant 0.0 : f32
  // expected-remark @below {{not swizzled: used by 'vector.transfer_read', which the swizzle does not rewrite}}
  %smem = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
  %t = nvgpu.device_async_copy %g[%i, %j], %smem[%i, %j], 4 : memref<128x128xf32> to memref<64x64xf32, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t
  nvgpu.device_async_wait %grp
  %v = vector.transfer_read %smem[%i, %j], %pad {in_bounds = [false]} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

/// An access wider than a 16-byte chunk would be split by the permutation.
// CHECK-LABEL: func.func @negative_wide_access
//   CHECK-NOT:   arith.xori
func.func @negative_wide_access(%v: vector<8xf32>, %i: index, %j: index) -> vector<16xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1]>} {
  // expected-remark @below {{not swizzled: 'vector.load' moves 256 bits, more than one 16-byte chunk}}
  %smem = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
  %h = arith.truncf %v : vector<8xf32> to vector<8xf16>
  vector.store %h, %smem[%i, %j] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
  %r = vector.load %smem[%i, %j] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<16xf16>
  return %r : vector<16xf16>
}
