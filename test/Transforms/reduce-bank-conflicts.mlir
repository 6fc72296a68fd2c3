// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-reduce-bank-conflicts))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-reduce-bank-conflicts{padding-bits=64}))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s --check-prefix=BITS64
// Padding twice pads once: a padded allocation is recognized and left alone.
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-reduce-bank-conflicts,gpucg-reduce-bank-conflicts))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-reduce-bank-conflicts{padding-bits=0}))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s --check-prefix=NONE

/// 128 bits of padding is 8 f16: rows of 16 become rows of 24; the users see
/// a view with row stride 24, and their subviews get the new strides.
// CHECK-LABEL: func.func @pad_f16
//       CHECK:   %[[P:.+]] = memref.alloc() : memref<32x24xf16, #gpu.address_space<workgroup>>
//       CHECK:   %[[V:.+]] = memref.subview %[[P]][0, 0] [32, 16] [1, 1] : memref<32x24xf16, #gpu.address_space<workgroup>> to memref<32x16xf16, strided<[24, 1]>, #gpu.address_space<workgroup>>
//       CHECK:   linalg.copy ins(%{{.+}} : memref<32x16xf16>) outs(%[[V]] : memref<32x16xf16, strided<[24, 1]>, #gpu.address_space<workgroup>>)
//       CHECK:   %[[S:.+]] = memref.subview %[[V]][%{{.+}}, 0] [16, 16] [1, 1] : memref<32x16xf16, strided<[24, 1]>, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[24, 1], offset: ?>, #gpu.address_space<workgroup>>
//       CHECK:   vector.transfer_read %[[S]]
// BITS64-LABEL: func.func @pad_f16
//       BITS64:   memref.alloc() : memref<32x20xf16, #gpu.address_space<workgroup>>
/// padding-bits=0 disables the pass.
// NONE-LABEL: func.func @pad_f16
//       NONE:   %[[A:.+]] = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
//       NONE:   linalg.copy ins(%{{.+}} : memref<32x16xf16>) outs(%[[A]] : memref<32x16xf16, #gpu.address_space<workgroup>>)
func.func @pad_f16(%src: memref<32x16xf16>, %i: index) -> vector<16x16xf16> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f16
  %smem = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<32x16xf16>) outs(%smem : memref<32x16xf16, #gpu.address_space<workgroup>>)
  %s = memref.subview %smem[%i, 0] [16, 16] [1, 1] : memref<32x16xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
  %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<16x16xf16>
  return %v : vector<16x16xf16>
}

// -----

/// A multi-buffered allocation: the innermost dimension is padded, and the
/// rank-reducing subview that picks one buffer keeps reducing. The
/// allocation's attributes (its buffer count) stay.
// CHECK-LABEL: func.func @pad_multi_buffered
//       CHECK:   %[[P:.+]] = memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<3x32x20xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[V:.+]] = memref.subview %[[P]][0, 0, 0] [3, 32, 16] [1, 1, 1]
//       CHECK:   memref.subview %[[V]][%{{.+}}, 0, 0] [1, 32, 16] [1, 1, 1] : memref<3x32x16xf32, strided<[640, 20, 1]>, #gpu.address_space<workgroup>> to memref<32x16xf32, strided<[20, 1], offset: ?>, #gpu.address_space<workgroup>>
func.func @pad_multi_buffered(%src: memref<32x16xf32>, %k: index) {
  %smem = memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<3x32x16xf32, #gpu.address_space<workgroup>>
  %b = memref.subview %smem[%k, 0, 0] [1, 32, 16] [1, 1, 1] : memref<3x32x16xf32, #gpu.address_space<workgroup>> to memref<32x16xf32, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<32x16xf32>) outs(%b : memref<32x16xf32, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>)
  return
}

// -----

func.func private @external(memref<32x16xf16, #gpu.address_space<workgroup>>)

/// A user that needs the exact type (a call) keeps the allocation as it is.
// CHECK-LABEL: func.func @negative_call_user
//       CHECK:   memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
func.func @negative_call_user() {
  %smem = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  func.call @external(%smem) : (memref<32x16xf16, #gpu.address_space<workgroup>>) -> ()
  return
}

// -----

/// Global allocations and 1-D workgroup buffers are not padded.
// CHECK-LABEL: func.func @negative_not_workgroup_2d
//       CHECK:   memref.alloc() : memref<32x16xf16>
//       CHECK:   memref.alloc() : memref<64xf16, #gpu.address_space<workgroup>>
func.func @negative_not_workgroup_2d(%src: memref<32x16xf16>, %src1: memref<64xf16>) {
  %g = memref.alloc() : memref<32x16xf16>
  %s = memref.alloc() : memref<64xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<32x16xf16>) outs(%g : memref<32x16xf16>)
  linalg.copy ins(%src1 : memref<64xf16>) outs(%s : memref<64xf16, #gpu.address_space<workgroup>>)
  return
}

// -----

/// Elements are sized by the data layout: index is 64 bits by default, so
/// 128 bits of padding are 2 elements.
// CHECK-LABEL: func.func @pad_index
//       CHECK:   memref.alloc() : memref<32x18xindex, #gpu.address_space<workgroup>>
// BITS64-LABEL: func.func @pad_index
//       BITS64:   memref.alloc() : memref<32x17xindex, #gpu.address_space<workgroup>>
func.func @pad_index(%src: memref<32x16xindex>) {
  %smem = memref.alloc() : memref<32x16xindex, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<32x16xindex> to memref<32x16xindex, #gpu.address_space<workgroup>>
  return
}

// -----

/// A complex<f32> element is 8 bytes: 128 bits of padding are 2 elements.
// CHECK-LABEL: func.func @pad_complex
//       CHECK:   memref.alloc() : memref<32x18xcomplex<f32>, #gpu.address_space<workgroup>>
func.func @pad_complex(%src: memref<32x16xcomplex<f32>>) {
  %smem = memref.alloc() : memref<32x16xcomplex<f32>, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<32x16xcomplex<f32>> to memref<32x16xcomplex<f32>, #gpu.address_space<workgroup>>
  return
}

// -----

/// A vector<2xf32> element is 8 bytes: 128 bits of padding are 2 elements.
// CHECK-LABEL: func.func @pad_vector_elements
//       CHECK:   memref.alloc() : memref<32x18xvector<2xf32>, #gpu.address_space<workgroup>>
func.func @pad_vector_elements(%src: memref<32x16xvector<2xf32>>) {
  %smem = memref.alloc() : memref<32x16xvector<2xf32>, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<32x16xvector<2xf32>> to memref<32x16xvector<2xf32>, #gpu.address_space<workgroup>>
  return
}

// -----

/// Sub-byte elements take a whole byte each in memory (the data layout's
/// size of i4): 128 bits of padding are 16 of them.
// CHECK-LABEL: func.func @pad_i4
//       CHECK:   memref.alloc() : memref<32x80xi4, #gpu.address_space<workgroup>>
func.func @pad_i4(%src: memref<32x64xi4>) {
  %smem = memref.alloc() : memref<32x64xi4, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<32x64xi4> to memref<32x64xi4, #gpu.address_space<workgroup>>
  return
}

// -----

/// Zero-sized elements occupy no bank, and scalable vectors have no fixed
/// size to pad by: all are left alone (complex<i0> is one the data layout
/// of MLIR 22 cannot even size).
// CHECK-LABEL: func.func @negative_unsized_elements
//       CHECK:   memref.alloc() : memref<32x16xi0, #gpu.address_space<workgroup>>
//       CHECK:   memref.alloc() : memref<32x16xcomplex<i0>, #gpu.address_space<workgroup>>
//       CHECK:   memref.alloc() : memref<32x16xvector<[4]xf32>, #gpu.address_space<workgroup>>
func.func @negative_unsized_elements(%src: memref<32x16xi0>, %src1: memref<32x16xcomplex<i0>>, %src2: memref<32x16xvector<[4]xf32>>) {
  %s = memref.alloc() : memref<32x16xi0, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<32x16xcomplex<i0>, #gpu.address_space<workgroup>>
  %v = memref.alloc() : memref<32x16xvector<[4]xf32>, #gpu.address_space<workgroup>>
  memref.copy %src, %s : memref<32x16xi0> to memref<32x16xi0, #gpu.address_space<workgroup>>
  memref.copy %src1, %c : memref<32x16xcomplex<i0>> to memref<32x16xcomplex<i0>, #gpu.address_space<workgroup>>
  memref.copy %src2, %v : memref<32x16xvector<[4]xf32>> to memref<32x16xvector<[4]xf32>, #gpu.address_space<workgroup>>
  return
}
