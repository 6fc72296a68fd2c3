// Row reductions compiled by gpucg-compile (PTX through the driver's JIT,
// bare-pointer kernels) and run on the GPU by mlir-runner with
// libgpucg_cuda_runtime.so, each against a host reference:
//  - the seed row sum, 100000 rows of 100 f32, addf(addf(a, b), acc):
//    Vectorize (4 rows and 128-bit K steps per thread, a partial last
//    workgroup tile);
//  - rows of 4096 f32 summed: WarpReduction (1024 threads, 32 warps);
//  - the sum of squares of rows of 8192 f16 in f32: WarpReduction (8 f16
//    per thread).
// Inputs are small integers, so every sum is exact in f32 in any order:
// the GPU's tree of partial sums must equal the host's sequential one.
// REQUIRES: cuda-gpu
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa},gpucg-strip-attributes,func.func(gpu-async-region),convert-scf-to-cf,gpu-to-llvm{use-bare-pointers-for-kernels=true},reconcile-unrealized-casts)' -o %t.mlir
// RUN: %sanitizer_preload mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%gpucg_runtime_lib,%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// Each case prints the sum of squares of the reference, the same of the
// GPU's result, and the number of elements that differ. The sums, from
// python3 (c[i] = i % 3 - 1; the row sum's a, b: (3i + 5k) % 7 - 3 and
// (2i + 3k) % 5 - 2; the 4096-wide rows: (3i + 5k) % 7 - 2; the f16 rows:
// (3i + 5k) % 7 - 3):
// CHECK:      666678
// CHECK-NEXT: 666678
// CHECK-NEXT: 0
// CHECK-NEXT: 268402768
// CHECK-NEXT: 268402768
// CHECK-NEXT: 0
// CHECK-NEXT: 68719740072
// CHECK-NEXT: 68719740072
// CHECK-NEXT: 0

func.func @row_sum_seed(%a: tensor<100000x100xf32>, %b: tensor<100000x100xf32>, %c: tensor<100000xf32>) -> tensor<100000xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a, %b : tensor<100000x100xf32>, tensor<100000x100xf32>) outs(%c : tensor<100000xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  } -> tensor<100000xf32>
  return %0 : tensor<100000xf32>
}

func.func @row_sum_4096(%a: tensor<16x4096xf32>, %c: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<16x4096xf32>) outs(%c : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

func.func @sum_of_squares_f16(%a: tensor<64x8192xf16>, %c: tensor<64xf32>) -> tensor<64xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<64x8192xf16>) outs(%c : tensor<64xf32>) {
  ^bb0(%x: f16, %acc: f32):
    %e = arith.extf %x : f16 to f32
    %s = arith.mulf %e, %e : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

func.func private @printI64(i64)
func.func private @printNewline()

// m[i][k] = (p * i + q * k) mod r - s, as f32.
func.func @fill_f32(%m: memref<?x?xf32>, %p: index, %q: index, %r: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %k = %c0 to %cols step %c1 {
      %pi = arith.muli %p, %i : index
      %qk = arith.muli %q, %k : index
      %sum = arith.addi %pi, %qk : index
      %mod = arith.remui %sum, %r : index
      %v = arith.subi %mod, %s : index
      %w = arith.index_cast %v : index to i32
      %e = arith.sitofp %w : i32 to f32
      memref.store %e, %m[%i, %k] : memref<?x?xf32>
    }
  }
  return
}

// m[i][k] = (3 * i + 5 * k) mod 7 - 3, as f16.
func.func @fill_f16(%m: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf16>
  %cols = memref.dim %m, %c1 : memref<?x?xf16>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %k = %c0 to %cols step %c1 {
      %pi = arith.muli %c3, %i : index
      %qk = arith.muli %c5, %k : index
      %sum = arith.addi %pi, %qk : index
      %mod = arith.remui %sum, %c7 : index
      %v = arith.subi %mod, %c3 : index
      %w = arith.index_cast %v : index to i32
      %e = arith.sitofp %w : i32 to f16
      memref.store %e, %m[%i, %k] : memref<?x?xf16>
    }
  }
  return
}

// c[i] = i mod 3 - 1.
func.func @fill_init(%c: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %c, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %mod = arith.remui %i, %c3 : index
    %v = arith.subi %mod, %c1 : index
    %w = arith.index_cast %v : index to i32
    %e = arith.sitofp %w : i32 to f32
    memref.store %e, %c[%i] : memref<?xf32>
  }
  return
}

// out[i] = init[i] + sum_k f(a[i][k], b[i][k]) in order, f = a + b (with b)
// or a (without).
func.func @reference_sum(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %with_b: i1,
                         %init: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    %start = memref.load %init[%i] : memref<?xf32>
    %sum = scf.for %k = %c0 to %cols step %c1 iter_args(%acc = %start) -> (f32) {
      %x = memref.load %a[%i, %k] : memref<?x?xf32>
      %y = scf.if %with_b -> (f32) {
        %v = memref.load %b[%i, %k] : memref<?x?xf32>
        scf.yield %v : f32
      } else {
        scf.yield %zero : f32
      }
      %xy = arith.addf %x, %y : f32
      %s = arith.addf %xy, %acc : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%i] : memref<?xf32>
  }
  return
}

// out[i] = init[i] + sum_k a[i][k]^2 in order, in f32.
func.func @reference_squares(%a: memref<?x?xf16>, %init: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf16>
  %cols = memref.dim %a, %c1 : memref<?x?xf16>
  scf.for %i = %c0 to %rows step %c1 {
    %start = memref.load %init[%i] : memref<?xf32>
    %sum = scf.for %k = %c0 to %cols step %c1 iter_args(%acc = %start) -> (f32) {
      %x = memref.load %a[%i, %k] : memref<?x?xf16>
      %e = arith.extf %x : f16 to f32
      %sq = arith.mulf %e, %e : f32
      %s = arith.addf %sq, %acc : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%i] : memref<?xf32>
  }
  return
}

// Prints the sums of squares of `expected` and `actual` (as integers) and
// the number of elements where they differ.
func.func @compare(%expected: memref<?xf32>, %actual: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %n = memref.dim %expected, %c0 : memref<?xf32>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%e0 = %zero, %a0 = %zero, %d0 = %zero) -> (i64, i64, i64) {
    %x = memref.load %expected[%i] : memref<?xf32>
    %y = memref.load %actual[%i] : memref<?xf32>
    %xi = arith.fptosi %x : f32 to i64
    %yi = arith.fptosi %y : f32 to i64
    %xx = arith.muli %xi, %xi : i64
    %yy = arith.muli %yi, %yi : i64
    %e1 = arith.addi %e0, %xx : i64
    %a1 = arith.addi %a0, %yy : i64
    %differ = arith.cmpf une, %x, %y : f32
    %d = arith.select %differ, %one, %zero : i64
    %d1 = arith.addi %d0, %d : i64
    scf.yield %e1, %a1, %d1 : i64, i64, i64
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
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %true = arith.constant true
  %false = arith.constant false

  // The seed row sum.
  %ha = memref.alloc() : memref<100000x100xf32>
  %hb = memref.alloc() : memref<100000x100xf32>
  %hc = memref.alloc() : memref<100000xf32>
  %hout = memref.alloc() : memref<100000xf32>
  %href = memref.alloc() : memref<100000xf32>
  %ha_d = memref.cast %ha : memref<100000x100xf32> to memref<?x?xf32>
  %hb_d = memref.cast %hb : memref<100000x100xf32> to memref<?x?xf32>
  %hc_d = memref.cast %hc : memref<100000xf32> to memref<?xf32>
  %hout_d = memref.cast %hout : memref<100000xf32> to memref<?xf32>
  %href_d = memref.cast %href : memref<100000xf32> to memref<?xf32>
  call @fill_f32(%ha_d, %c3, %c5, %c7, %c3) : (memref<?x?xf32>, index, index, index, index) -> ()
  call @fill_f32(%hb_d, %c2, %c3, %c5, %c2) : (memref<?x?xf32>, index, index, index, index) -> ()
  call @fill_init(%hc_d) : (memref<?xf32>) -> ()
  call @reference_sum(%ha_d, %hb_d, %true, %hc_d, %href_d) : (memref<?x?xf32>, memref<?x?xf32>, i1, memref<?xf32>, memref<?xf32>) -> ()
  %a = gpu.alloc () : memref<100000x100xf32>
  %b = gpu.alloc () : memref<100000x100xf32>
  %c = gpu.alloc () : memref<100000xf32>
  gpu.memcpy %a, %ha : memref<100000x100xf32>, memref<100000x100xf32>
  gpu.memcpy %b, %hb : memref<100000x100xf32>, memref<100000x100xf32>
  gpu.memcpy %c, %hc : memref<100000xf32>, memref<100000xf32>
  %ta = bufferization.to_tensor %a restrict : memref<100000x100xf32> to tensor<100000x100xf32>
  %tb = bufferization.to_tensor %b restrict : memref<100000x100xf32> to tensor<100000x100xf32>
  %tc = bufferization.to_tensor %c restrict writable : memref<100000xf32> to tensor<100000xf32>
  %r = call @row_sum_seed(%ta, %tb, %tc) : (tensor<100000x100xf32>, tensor<100000x100xf32>, tensor<100000xf32>) -> tensor<100000xf32>
  %rm = bufferization.to_buffer %r : tensor<100000xf32> to memref<100000xf32>
  gpu.memcpy %hout, %rm : memref<100000xf32>, memref<100000xf32>
  call @compare(%href_d, %hout_d) : (memref<?xf32>, memref<?xf32>) -> ()
  gpu.dealloc %a : memref<100000x100xf32>
  gpu.dealloc %b : memref<100000x100xf32>
  gpu.dealloc %c : memref<100000xf32>

  // Rows of 4096 f32.
  %wa = memref.alloc() : memref<16x4096xf32>
  %wc = memref.alloc() : memref<16xf32>
  %wout = memref.alloc() : memref<16xf32>
  %wref = memref.alloc() : memref<16xf32>
  %wa_d = memref.cast %wa : memref<16x4096xf32> to memref<?x?xf32>
  %wc_d = memref.cast %wc : memref<16xf32> to memref<?xf32>
  %wout_d = memref.cast %wout : memref<16xf32> to memref<?xf32>
  %wref_d = memref.cast %wref : memref<16xf32> to memref<?xf32>
  call @fill_f32(%wa_d, %c3, %c5, %c7, %c2) : (memref<?x?xf32>, index, index, index, index) -> ()
  call @fill_init(%wc_d) : (memref<?xf32>) -> ()
  call @reference_sum(%wa_d, %wa_d, %false, %wc_d, %wref_d) : (memref<?x?xf32>, memref<?x?xf32>, i1, memref<?xf32>, memref<?xf32>) -> ()
  %da = gpu.alloc () : memref<16x4096xf32>
  %dc = gpu.alloc () : memref<16xf32>
  gpu.memcpy %da, %wa : memref<16x4096xf32>, memref<16x4096xf32>
  gpu.memcpy %dc, %wc : memref<16xf32>, memref<16xf32>
  %tda = bufferization.to_tensor %da restrict : memref<16x4096xf32> to tensor<16x4096xf32>
  %tdc = bufferization.to_tensor %dc restrict writable : memref<16xf32> to tensor<16xf32>
  %wr = call @row_sum_4096(%tda, %tdc) : (tensor<16x4096xf32>, tensor<16xf32>) -> tensor<16xf32>
  %wrm = bufferization.to_buffer %wr : tensor<16xf32> to memref<16xf32>
  gpu.memcpy %wout, %wrm : memref<16xf32>, memref<16xf32>
  call @compare(%wref_d, %wout_d) : (memref<?xf32>, memref<?xf32>) -> ()
  gpu.dealloc %da : memref<16x4096xf32>
  gpu.dealloc %dc : memref<16xf32>

  // Sums of squares of rows of 8192 f16.
  %qa = memref.alloc() : memref<64x8192xf16>
  %qc = memref.alloc() : memref<64xf32>
  %qout = memref.alloc() : memref<64xf32>
  %qref = memref.alloc() : memref<64xf32>
  %qa_d = memref.cast %qa : memref<64x8192xf16> to memref<?x?xf16>
  %qc_d = memref.cast %qc : memref<64xf32> to memref<?xf32>
  %qout_d = memref.cast %qout : memref<64xf32> to memref<?xf32>
  %qref_d = memref.cast %qref : memref<64xf32> to memref<?xf32>
  call @fill_f16(%qa_d) : (memref<?x?xf16>) -> ()
  call @fill_init(%qc_d) : (memref<?xf32>) -> ()
  call @reference_squares(%qa_d, %qc_d, %qref_d) : (memref<?x?xf16>, memref<?xf32>, memref<?xf32>) -> ()
  %ea = gpu.alloc () : memref<64x8192xf16>
  %ec = gpu.alloc () : memref<64xf32>
  gpu.memcpy %ea, %qa : memref<64x8192xf16>, memref<64x8192xf16>
  gpu.memcpy %ec, %qc : memref<64xf32>, memref<64xf32>
  %tea = bufferization.to_tensor %ea restrict : memref<64x8192xf16> to tensor<64x8192xf16>
  %tec = bufferization.to_tensor %ec restrict writable : memref<64xf32> to tensor<64xf32>
  %qr = call @sum_of_squares_f16(%tea, %tec) : (tensor<64x8192xf16>, tensor<64xf32>) -> tensor<64xf32>
  %qrm = bufferization.to_buffer %qr : tensor<64xf32> to memref<64xf32>
  gpu.memcpy %qout, %qrm : memref<64xf32>, memref<64xf32>
  call @compare(%qref_d, %qout_d) : (memref<?xf32>, memref<?xf32>) -> ()
  gpu.dealloc %ea : memref<64x8192xf16>
  gpu.dealloc %ec : memref<64xf32>

  memref.dealloc %ha : memref<100000x100xf32>
  memref.dealloc %hb : memref<100000x100xf32>
  memref.dealloc %hc : memref<100000xf32>
  memref.dealloc %hout : memref<100000xf32>
  memref.dealloc %href : memref<100000xf32>
  memref.dealloc %wa : memref<16x4096xf32>
  memref.dealloc %wc : memref<16xf32>
  memref.dealloc %wout : memref<16xf32>
  memref.dealloc %wref : memref<16xf32>
  memref.dealloc %qa : memref<64x8192xf16>
  memref.dealloc %qc : memref<64xf32>
  memref.dealloc %qout : memref<64xf32>
  memref.dealloc %qref : memref<64xf32>
  return
}
