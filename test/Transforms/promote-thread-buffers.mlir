// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-promote-thread-buffers))' | FileCheck %s
// Everything printed parses and verifies again.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-promote-thread-buffers))' | gpucg-opt > /dev/null
// A limit of 4 bytes keeps the 16-byte buffer too.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-promote-thread-buffers{max-bytes=4}))' | FileCheck %s --check-prefix=SMALL

// CHECK-LABEL: func.func @buffers
//       CHECK:   %[[ACC:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
//       CHECK:   %[[ROW:.+]] = memref.alloca() : memref<1x4xf32>
// The workgroup buffer, the 2 KB one, the dynamic one and the returned one
// stay allocations.
//       CHECK:   memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
//       CHECK:   memref.alloc() : memref<512xf32>
//       CHECK:   memref.alloc(%{{.+}}) : memref<?xf32>
//       CHECK:   %[[OUT:.+]] = memref.alloc() : memref<2xf32>
//   CHECK-NOT:   memref.dealloc %[[ACC]]
//       CHECK:   return %[[OUT]]
// SMALL-LABEL: func.func @buffers
//       SMALL:   memref.alloca() {alignment = 64 : i64} : memref<1xf32>
//       SMALL:   memref.alloc() : memref<1x4xf32>
func.func @buffers(%n: index, %v: f32) -> memref<2xf32> {
  %c0 = arith.constant 0 : index
  %acc = memref.alloc() {alignment = 64 : i64} : memref<1xf32>
  %row = memref.alloc() : memref<1x4xf32>
  %shared = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
  %big = memref.alloc() : memref<512xf32>
  %dyn = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc() : memref<2xf32>
  memref.store %v, %acc[%c0] : memref<1xf32>
  memref.store %v, %row[%c0, %c0] : memref<1x4xf32>
  memref.store %v, %shared[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
  memref.store %v, %big[%c0] : memref<512xf32>
  memref.store %v, %dyn[%c0] : memref<?xf32>
  memref.store %v, %out[%c0] : memref<2xf32>
  memref.dealloc %acc : memref<1xf32>
  return %out : memref<2xf32>
}
