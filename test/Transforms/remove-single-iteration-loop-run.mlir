// The pass must not change what a kernel computes. Run the same program on
// the CPU without and with gpucg-remove-single-iteration-loop and check both
// print the values the arithmetic gives.

// RUN: gpucg-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-remove-single-iteration-loop))' \
// RUN:   | FileCheck %s --check-prefix=IR

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(lower-affine, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-remove-single-iteration-loop), lower-affine, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:     -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

/// "Thread" %tid of 8 owns element %tid (the first loop runs once, the id
/// being bounded by `mod 8`) and adds the 3 elements of row %tid of %m (the
/// second loop runs 3 times and stays).
// IR-LABEL: func.func @kernel
//       IR:   %[[T:.+]] = affine.apply
//   IR-NOT:   scf.for %{{.+}} = %[[T]]
//       IR:   scf.for
//   IR-NOT:   scf.for
//      IR: func.func private @printMemrefF32
func.func @kernel(%out: memref<8xf32>, %m: memref<8x3xf32>, %tid: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %t = affine.apply affine_map<(d0) -> (d0 mod 8)>(%tid)
  scf.for %i = %t to %c8 step %c8 {
    %init = memref.load %out[%i] : memref<8xf32>
    %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (f32) {
      %v = memref.load %m[%i, %k] : memref<8x3xf32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%i] : memref<8xf32>
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// out[i] = i + (3i + 0) + (3i + 1) + (3i + 2) = 10i + 3, with m[i][k] = 3i + k.
// CHECK: [3,  13,  23,  33,  43,  53,  63,  73]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %out = memref.alloc() : memref<8xf32>
  %m = memref.alloc() : memref<8x3xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    memref.store %fi, %out[%i] : memref<8xf32>
    scf.for %k = %c0 to %c3 step %c1 {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i, %k)
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %m[%i, %k] : memref<8x3xf32>
    }
  }
  // Run the 8 "threads" one after another.
  scf.for %tid = %c0 to %c8 step %c1 {
    func.call @kernel(%out, %m, %tid) : (memref<8xf32>, memref<8x3xf32>, index) -> ()
  }
  %u = memref.cast %out : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<8xf32>
  memref.dealloc %m : memref<8x3xf32>
  return
}
