// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-multi-buffering{num-buffers=2}))'

/// The loop reads the buffer before writing it: each iteration sees the
/// previous one's data, which separate buffers would lose.
func.func @loop_carried(%in: memref<128xf32>, %out: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{'memref.alloc' op cannot be multi-buffered 2 times: an iteration of its loop reads it before writing it (data carried from one iteration to the next)}}
  %smem = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
  scf.for %k = %c0 to %c128 step %c16 {
    %o = memref.subview %out[%k] [16] [1] : memref<128xf32> to memref<16xf32, strided<[1], offset: ?>>
    linalg.copy ins(%smem : memref<16xf32, #gpu.address_space<workgroup>>) outs(%o : memref<16xf32, strided<[1], offset: ?>>)
    %i = memref.subview %in[%k] [16] [1] : memref<128xf32> to memref<16xf32, strided<[1], offset: ?>>
    linalg.copy ins(%i : memref<16xf32, strided<[1], offset: ?>>) outs(%smem : memref<16xf32, #gpu.address_space<workgroup>>)
  }
  return
}

// -----

/// Users in two different loops: there is no single loop to multi-buffer
/// over.
func.func @two_loops(%in: memref<128xf32>, %out: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{'memref.alloc' op cannot be multi-buffered 2 times: its users are in 2 different scf.for loops, and multi-buffering needs them all in one}}
  %smem = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
  // expected-note @+1 {{a loop with a user}}
  scf.for %k = %c0 to %c128 step %c16 {
    %i = memref.subview %in[%k] [16] [1] : memref<128xf32> to memref<16xf32, strided<[1], offset: ?>>
    linalg.copy ins(%i : memref<16xf32, strided<[1], offset: ?>>) outs(%smem : memref<16xf32, #gpu.address_space<workgroup>>)
  }
  // expected-note @+1 {{a loop with a user}}
  scf.for %k = %c0 to %c128 step %c16 {
    %o = memref.subview %out[%k] [16] [1] : memref<128xf32> to memref<16xf32, strided<[1], offset: ?>>
    linalg.copy ins(%smem : memref<16xf32, #gpu.address_space<workgroup>>) outs(%o : memref<16xf32, strided<[1], offset: ?>>)
  }
  return
}
