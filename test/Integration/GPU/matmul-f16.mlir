// f16 x f16 -> f32 matmuls compiled by gpucg-compile (mma.sync, PTX through
// the driver's JIT, bare-pointer kernels) and run on the GPU by mlir-runner
// with libgpucg_cuda_runtime.so: 128x128x64 (whole workgroup tiles) and
// 100x72x64 (partial tiles on the workgroup-specialized path). The host
// fills A and B with small integers, so that every product and sum is exact
// in f32, computes the reference itself, and compares every element.
// REQUIRES: cuda-gpu
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa},gpucg-strip-attributes,func.func(gpu-async-region),convert-scf-to-cf,gpu-to-llvm{use-bare-pointers-for-kernels=true},reconcile-unrealized-casts)' -o %t.mlir
// RUN: %sanitizer_preload mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%gpucg_runtime_lib,%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// Each case prints the sum of squares of the reference, the same of the GPU's
// result (python3 -c "print(sum(sum((((i*3+k*5)%7)-3)*(((k*2+j*3)%5)-2) for k
// in range(K))**2 for i in range(M) for j in range(N)))"), and the number of
// elements that differ.
// CHECK:      753059
// CHECK-NEXT: 753059
// CHECK-NEXT: 0
// CHECK-NEXT: 331911
// CHECK-NEXT: 331911
// CHECK-NEXT: 0

func.func @matmul_aligned(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}

func.func @matmul_unaligned(%a: tensor<100x64xf16>, %b: tensor<64x72xf16>, %c: tensor<100x72xf32>) -> tensor<100x72xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<100x72xf32>) -> tensor<100x72xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x72xf16>) outs(%f : tensor<100x72xf32>) -> tensor<100x72xf32>
  return %0 : tensor<100x72xf32>
}

func.func private @printI64(i64)
func.func private @printNewline()

// A[i][k] = (3i + 5k) mod 7 - 3, B[k][j] = (2k + 3j) mod 5 - 2.
func.func @fill_inputs(%a: memref<?x?xf16>, %b: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %l = %c0 to %k step %c1 {
      %i3 = arith.muli %i, %c3 : index
      %l5 = arith.muli %l, %c5 : index
      %s = arith.addi %i3, %l5 : index
      %r = arith.remui %s, %c7 : index
      %v = arith.subi %r, %c3 : index
      %w = arith.index_cast %v : index to i32
      %e = arith.sitofp %w : i32 to f16
      memref.store %e, %a[%i, %l] : memref<?x?xf16>
    }
  }
  scf.for %l = %c0 to %k step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %l2 = arith.muli %l, %c2 : index
      %j3 = arith.muli %j, %c3 : index
      %s = arith.addi %l2, %j3 : index
      %r = arith.remui %s, %c5 : index
      %v = arith.subi %r, %c2 : index
      %w = arith.index_cast %v : index to i32
      %e = arith.sitofp %w : i32 to f16
      memref.store %e, %b[%l, %j] : memref<?x?xf16>
    }
  }
  return
}

func.func @reference(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %sum = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %l] : memref<?x?xf16>
        %y = memref.load %b[%l, %j] : memref<?x?xf16>
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// Prints the sums of squares of `expected` and `actual` (as integers) and
// the number of elements where they differ.
func.func @compare(%expected: memref<?x?xf32>, %actual: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %m = memref.dim %expected, %c0 : memref<?x?xf32>
  %n = memref.dim %expected, %c1 : memref<?x?xf32>
  %r:3 = scf.for %i = %c0 to %m step %c1 iter_args(%e0 = %zero, %a0 = %zero, %d0 = %zero) -> (i64, i64, i64) {
    %s:3 = scf.for %j = %c0 to %n step %c1 iter_args(%e1 = %e0, %a1 = %a0, %d1 = %d0) -> (i64, i64, i64) {
      %x = memref.load %expected[%i, %j] : memref<?x?xf32>
      %y = memref.load %actual[%i, %j] : memref<?x?xf32>
      %xi = arith.fptosi %x : f32 to i64
      %yi = arith.fptosi %y : f32 to i64
      %xx = arith.muli %xi, %xi : i64
      %yy = arith.muli %yi, %yi : i64
      %e2 = arith.addi %e1, %xx : i64
      %a2 = arith.addi %a1, %yy : i64
      %differ = arith.cmpf une, %x, %y : f32
      %d = arith.select %differ, %one, %zero : i64
      %d2 = arith.addi %d1, %d : i64
      scf.yield %e2, %a2, %d2 : i64, i64, i64
    }
    scf.yield %s#0, %s#1, %s#2 : i64, i64, i64
  }
  call @printI64(%r#0) : (i64) -> ()
  call @printNewline() : () -> ()
  call @printI64(%r#1) : (i64) -> ()
  call @printNewline() : () -> ()
  call @printI64(%r#2) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  // -1 in f32 bits: every element the kernel does not write stays -1 (wrong).
  %garbage = arith.constant -1.0 : f32

  %ha = memref.alloc() : memref<128x64xf16>
  %hb = memref.alloc() : memref<64x128xf16>
  %hc = memref.alloc() : memref<128x128xf32>
  %href = memref.alloc() : memref<128x128xf32>
  %ha_d = memref.cast %ha : memref<128x64xf16> to memref<?x?xf16>
  %hb_d = memref.cast %hb : memref<64x128xf16> to memref<?x?xf16>
  %hc_d = memref.cast %hc : memref<128x128xf32> to memref<?x?xf32>
  %href_d = memref.cast %href : memref<128x128xf32> to memref<?x?xf32>
  call @fill_inputs(%ha_d, %hb_d) : (memref<?x?xf16>, memref<?x?xf16>) -> ()
  call @reference(%ha_d, %hb_d, %href_d) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
  %a = gpu.alloc () : memref<128x64xf16>
  %b = gpu.alloc () : memref<64x128xf16>
  %c = gpu.alloc () : memref<128x128xf32>
  gpu.memcpy %a, %ha : memref<128x64xf16>, memref<128x64xf16>
  gpu.memcpy %b, %hb : memref<64x128xf16>, memref<64x128xf16>
  gpu.memset %c, %garbage : memref<128x128xf32>, f32
  %ta = bufferization.to_tensor %a restrict : memref<128x64xf16> to tensor<128x64xf16>
  %tb = bufferization.to_tensor %b restrict : memref<64x128xf16> to tensor<64x128xf16>
  %tc = bufferization.to_tensor %c restrict writable : memref<128x128xf32> to tensor<128x128xf32>
  %r = call @matmul_aligned(%ta, %tb, %tc) : (tensor<128x64xf16>, tensor<64x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
  %rm = bufferization.to_buffer %r : tensor<128x128xf32> to memref<128x128xf32>
  gpu.memcpy %hc, %rm : memref<128x128xf32>, memref<128x128xf32>
  call @compare(%href_d, %hc_d) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  gpu.dealloc %a : memref<128x64xf16>
  gpu.dealloc %b : memref<64x128xf16>
  gpu.dealloc %c : memref<128x128xf32>

  %ua = memref.alloc() : memref<100x64xf16>
  %ub = memref.alloc() : memref<64x72xf16>
  %uc = memref.alloc() : memref<100x72xf32>
  %uref = memref.alloc() : memref<100x72xf32>
  %ua_d = memref.cast %ua : memref<100x64xf16> to memref<?x?xf16>
  %ub_d = memref.cast %ub : memref<64x72xf16> to memref<?x?xf16>
  %uc_d = memref.cast %uc : memref<100x72xf32> to memref<?x?xf32>
  %uref_d = memref.cast %uref : memref<100x72xf32> to memref<?x?xf32>
  call @fill_inputs(%ua_d, %ub_d) : (memref<?x?xf16>, memref<?x?xf16>) -> ()
  call @reference(%ua_d, %ub_d, %uref_d) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
  %da = gpu.alloc () : memref<100x64xf16>
  %db = gpu.alloc () : memref<64x72xf16>
  %dc = gpu.alloc () : memref<100x72xf32>
  gpu.memcpy %da, %ua : memref<100x64xf16>, memref<100x64xf16>
  gpu.memcpy %db, %ub : memref<64x72xf16>, memref<64x72xf16>
  gpu.memset %dc, %garbage : memref<100x72xf32>, f32
  %tda = bufferization.to_tensor %da restrict : memref<100x64xf16> to tensor<100x64xf16>
  %tdb = bufferization.to_tensor %db restrict : memref<64x72xf16> to tensor<64x72xf16>
  %tdc = bufferization.to_tensor %dc restrict writable : memref<100x72xf32> to tensor<100x72xf32>
  %ur = call @matmul_unaligned(%tda, %tdb, %tdc) : (tensor<100x64xf16>, tensor<64x72xf16>, tensor<100x72xf32>) -> tensor<100x72xf32>
  %urm = bufferization.to_buffer %ur : tensor<100x72xf32> to memref<100x72xf32>
  gpu.memcpy %uc, %urm : memref<100x72xf32>, memref<100x72xf32>
  call @compare(%uref_d, %uc_d) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  gpu.dealloc %da : memref<100x64xf16>
  gpu.dealloc %db : memref<64x72xf16>
  gpu.dealloc %dc : memref<100x72xf32>

  memref.dealloc %ha : memref<128x64xf16>
  memref.dealloc %hb : memref<64x128xf16>
  memref.dealloc %hc : memref<128x128xf32>
  memref.dealloc %href : memref<128x128xf32>
  memref.dealloc %ua : memref<100x64xf16>
  memref.dealloc %ub : memref<64x72xf16>
  memref.dealloc %uc : memref<100x72xf32>
  memref.dealloc %uref : memref<100x72xf32>
  return
}
