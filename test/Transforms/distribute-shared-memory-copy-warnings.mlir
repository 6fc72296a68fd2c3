// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-distribute-shared-memory-copy))' -o /dev/null

// Copies into workgroup memory that the row pitch keeps below the 4 bytes
// of the narrowest cp.async say so, once per global memref: they are
// register-staged (element loads, wide workgroup stores), not async; or,
// where the workgroup buffer's own rows are no wider, one element at a
// time.

/// Rows of 33 f16 (66 bytes): every other row starts 2 bytes off a 4-byte
/// boundary. Both copies of %src (two K steps) warn once.
func.func @pitch_66_bytes(%src: memref<64x33xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<64x16xf16, #gpu.address_space<workgroup>>
  %t0 = memref.subview %src[0, 0] [64, 16] [1, 1] : memref<64x33xf16> to memref<64x16xf16, strided<[33, 1]>>
  %t1 = memref.subview %src[0, 16] [64, 16] [1, 1] : memref<64x33xf16> to memref<64x16xf16, strided<[33, 1], offset: 16>>
  // expected-warning @+1 {{copies of 'memref<64x33xf16>' into workgroup memory load 2 byte(s) at a time into registers and store 16-byte vectors, without cp.async: its row pitch (66 bytes) does not keep wider vectors aligned, and cp.async moves 4, 8 or 16 aligned bytes; rows padded to a multiple of 16 bytes would take 16-byte async copies}}
  linalg.copy ins(%t0 : memref<64x16xf16, strided<[33, 1]>>) outs(%smem : memref<64x16xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%t1 : memref<64x16xf16, strided<[33, 1], offset: 16>>) outs(%smem : memref<64x16xf16, #gpu.address_space<workgroup>>)
  return
}

// -----

/// A pitch known only at run time proves no alignment at compile time
/// (gpucg-version-vector-alignment checks it at run time, later).
func.func @dynamic_pitch(%src: memref<?x?xi8>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x64xi8, #gpu.address_space<workgroup>>
  %tile = memref.subview %src[0, 0] [32, 64] [1, 1] : memref<?x?xi8> to memref<32x64xi8, strided<[?, 1]>>
  // expected-warning @+1 {{copies of 'memref<?x?xi8>' into workgroup memory load 1 byte(s) at a time into registers (16 where the tensor-core pipelines' run-time check finds a row aligned) and store 16-byte vectors, without cp.async: its row pitch (known only at run time) does not keep wider vectors aligned, and cp.async moves 4, 8 or 16 aligned bytes; rows of a static pitch padded to a multiple of 16 bytes would take 16-byte async copies}}
  linalg.copy ins(%tile : memref<32x64xi8, strided<[?, 1]>>) outs(%smem : memref<32x64xi8, #gpu.address_space<workgroup>>)
  return
}

// -----

/// A workgroup buffer whose own rows are odd (33 f16) keeps the copy to one
/// element per step.
func.func @odd_workgroup_rows(%src: memref<64x33xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %smem = memref.alloc() : memref<32x33xf16, #gpu.address_space<workgroup>>
  %view = memref.subview %smem[0, 0] [32, 32] [1, 1] : memref<32x33xf16, #gpu.address_space<workgroup>> to memref<32x32xf16, strided<[33, 1]>, #gpu.address_space<workgroup>>
  %tile = memref.subview %src[0, 0] [32, 32] [1, 1] : memref<64x33xf16> to memref<32x32xf16, strided<[33, 1]>>
  // expected-warning @+1 {{copies of 'memref<64x33xf16>' into workgroup memory move 2 byte(s) per thread and step, synchronously: its row pitch (66 bytes) does not keep wider vectors aligned}}
  linalg.copy ins(%tile : memref<32x32xf16, strided<[33, 1]>>) outs(%view : memref<32x32xf16, strided<[33, 1]>, #gpu.address_space<workgroup>>)
  return
}

// -----

/// No warning: 4-byte copies are async (rows of 34 f16, 68 bytes), f32 is
/// 4 bytes whatever its pitch, and a copy back to global memory is no
/// cp.async.
func.func @no_warning(%a: memref<64x34xf16>, %b: memref<?x?xf32>, %c: memref<64x33xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>} {
  %sa = memref.alloc() : memref<64x16xf16, #gpu.address_space<workgroup>>
  %ta = memref.subview %a[0, 0] [64, 16] [1, 1] : memref<64x34xf16> to memref<64x16xf16, strided<[34, 1]>>
  linalg.copy ins(%ta : memref<64x16xf16, strided<[34, 1]>>) outs(%sa : memref<64x16xf16, #gpu.address_space<workgroup>>)
  %sb = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  %tb = memref.subview %b[0, 0] [16, 32] [1, 1] : memref<?x?xf32> to memref<16x32xf32, strided<[?, 1]>>
  linalg.copy ins(%tb : memref<16x32xf32, strided<[?, 1]>>) outs(%sb : memref<16x32xf32, #gpu.address_space<workgroup>>)
  %tc = memref.subview %c[0, 0] [64, 16] [1, 1] : memref<64x33xf16> to memref<64x16xf16, strided<[33, 1]>>
  linalg.copy ins(%sa : memref<64x16xf16, #gpu.address_space<workgroup>>) outs(%tc : memref<64x16xf16, strided<[33, 1]>>)
  return
}
