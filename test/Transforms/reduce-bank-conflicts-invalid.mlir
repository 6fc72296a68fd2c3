// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-reduce-bank-conflicts{padding-bits=24}))'

/// 24 bits are not a whole number of f16 elements: the padding the user
/// asked for cannot be applied, and the pass says so rather than padding
/// by something else.
func.func @padding_not_whole_f16(%src: memref<32x16xf16>) {
  // expected-error @+1 {{'memref.alloc' op cannot pad the rows of 'memref<32x16xf16, #gpu.address_space<workgroup>>' by 24 bits: not a whole number of its 2-byte elements}}
  %smem = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<32x16xf16> to memref<32x16xf16, #gpu.address_space<workgroup>>
  return
}

// -----

/// Elements are sized by the data layout: a vector<4xf32> element is 16
/// bytes.
func.func @padding_not_whole_vector(%src: memref<32x16xvector<4xf32>>) {
  // expected-error @+1 {{'memref.alloc' op cannot pad the rows of 'memref<32x16xvector<4xf32>, #gpu.address_space<workgroup>>' by 24 bits: not a whole number of its 16-byte elements}}
  %smem = memref.alloc() : memref<32x16xvector<4xf32>, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<32x16xvector<4xf32>> to memref<32x16xvector<4xf32>, #gpu.address_space<workgroup>>
  return
}

// -----

/// index has no bit width of its own; the data layout makes it 8 bytes.
func.func @padding_not_whole_index(%src: memref<32x16xindex>) {
  // expected-error @+1 {{'memref.alloc' op cannot pad the rows of 'memref<32x16xindex, #gpu.address_space<workgroup>>' by 24 bits: not a whole number of its 8-byte elements}}
  %smem = memref.alloc() : memref<32x16xindex, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<32x16xindex> to memref<32x16xindex, #gpu.address_space<workgroup>>
  return
}

// -----

/// 2^60 rows of 6 bytes fit in 64 bits; padded to 9 bytes they do not.
func.func @padded_size_overflows(%src: memref<1152921504606846976x6xi8>) {
  // expected-error @+1 {{'memref.alloc' op cannot pad the rows of 'memref<1152921504606846976x6xi8, #gpu.address_space<workgroup>>' by 24 bits: the padded size overflows 64 bits}}
  %smem = memref.alloc() : memref<1152921504606846976x6xi8, #gpu.address_space<workgroup>>
  memref.copy %src, %smem : memref<1152921504606846976x6xi8> to memref<1152921504606846976x6xi8, #gpu.address_space<workgroup>>
  return
}
