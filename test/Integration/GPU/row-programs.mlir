// Row programs compiled by gpucg-compile (PTX through the driver's JIT,
// bare-pointer kernels), one kernel each, run on the GPU by mlir-runner
// with libgpucg_cuda_runtime.so against a host reference:
//  - LayerNorm of 64 rows of 8192 f32: the mean, the variance of x - mean,
//    (x - mean) / sqrt(var + 0.75) * gamma + beta (two reductions, 1024
//    threads);
//  - RMSNorm of 32 rows of 4096 f32: x / sqrt(mean(x^2) + 0.25) * w.
// Inputs make every sum exact in any order: x[i][k] = i + k mod 4 (the
// mean is i + 1.5, x - mean is +-0.5 or +-1.5), RMSNorm's x small integers
// (3i + 5k) mod 7 - 3; n is a power of two. sqrt and the divisions are
// correctly rounded on both sides, so the GPU must match the host exactly.
// REQUIRES: cuda-gpu
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa},gpucg-strip-attributes,func.func(gpu-async-region),convert-scf-to-cf,gpu-to-llvm{use-bare-pointers-for-kernels=true},reconcile-unrealized-casts)' -o %t.mlir
// RUN: %sanitizer_preload mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%gpucg_runtime_lib,%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// Each case prints the number of elements that differ from the host's.
// CHECK:      0
// CHECK-NEXT: 0

#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#one = affine_map<(d0) -> (d0)>

func.func @layernorm(%x: tensor<64x8192xf32>, %gamma: tensor<8192xf32>, %beta: tensor<8192xf32>, %out: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8192.0 : f32
  %eps = arith.constant 0.75 : f32
  %e = tensor.empty() : tensor<64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<64x8192xf32>) outs(%acc : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %mean = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%sum : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.divf %a, %n : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %er = tensor.empty() : tensor<64x8192xf32>
  %d = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %mean : tensor<64x8192xf32>, tensor<64xf32>) outs(%er : tensor<64x8192xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32):
    %t = arith.subf %a, %m : f32
    linalg.yield %t : f32
  } -> tensor<64x8192xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %ss = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%d : tensor<64x8192xf32>) outs(%acc2 : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %sq, %b : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %rstd = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%ss : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.divf %a, %n : f32
    %p = arith.addf %v, %eps : f32
    %r = math.sqrt %p : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #col, #col, #row], iterator_types = ["parallel", "parallel"]}
    ins(%d, %rstd, %gamma, %beta : tensor<64x8192xf32>, tensor<64xf32>, tensor<8192xf32>, tensor<8192xf32>) outs(%out : tensor<64x8192xf32>) {
  ^bb0(%a: f32, %r: f32, %g: f32, %bb: f32, %b: f32):
    %q = arith.divf %a, %r : f32
    %m = arith.mulf %q, %g : f32
    %t = arith.addf %m, %bb : f32
    linalg.yield %t : f32
  } -> tensor<64x8192xf32>
  return %o : tensor<64x8192xf32>
}

func.func @rmsnorm(%x: tensor<32x4096xf32>, %w: tensor<4096xf32>, %out: tensor<32x4096xf32>) -> tensor<32x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4096.0 : f32
  %eps = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %ss = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<32x4096xf32>) outs(%acc : tensor<32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %sq, %b : f32
    linalg.yield %t : f32
  } -> tensor<32xf32>
  %rms = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%ss : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.divf %a, %n : f32
    %p = arith.addf %m, %eps : f32
    %r = math.sqrt %p : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #col, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %rms, %w : tensor<32x4096xf32>, tensor<32xf32>, tensor<4096xf32>) outs(%out : tensor<32x4096xf32>) {
  ^bb0(%a: f32, %r: f32, %g: f32, %b: f32):
    %q = arith.divf %a, %r : f32
    %t = arith.mulf %q, %g : f32
    linalg.yield %t : f32
  } -> tensor<32x4096xf32>
  return %o : tensor<32x4096xf32>
}

func.func private @printI64(i64)
func.func private @printNewline()

// m[i][k] = i * ci + (ck * k) mod modulus - offset; v[k] = k mod vm - vo.
func.func @fill_rows(%m: memref<?x?xf32>, %ci: index, %ck: index, %modulus: index, %offset: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32>
  %cols = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %k = %c0 to %cols step %c1 {
      %pi = arith.muli %ci, %i : index
      %qk = arith.muli %ck, %k : index
      %mod = arith.remui %qk, %modulus : index
      %s = arith.addi %pi, %mod : index
      %v = arith.subi %s, %offset : index
      %w = arith.index_cast %v : index to i32
      %e = arith.sitofp %w : i32 to f32
      memref.store %e, %m[%i, %k] : memref<?x?xf32>
    }
  }
  return
}

func.func @fill_vector(%v: memref<?xf32>, %modulus: index, %offset: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf32>
  scf.for %k = %c0 to %n step %c1 {
    %mod = arith.remui %k, %modulus : index
    %s = arith.subi %mod, %offset : index
    %w = arith.index_cast %s : index to i32
    %e = arith.sitofp %w : i32 to f32
    memref.store %e, %v[%k] : memref<?xf32>
  }
  return
}

// The host's LayerNorm, in order: sums, then each element.
func.func @reference_layernorm(%x: memref<?x?xf32>, %gamma: memref<?xf32>, %beta: memref<?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 0.75 : f32
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %ci = arith.index_cast %cols : index to i32
  %n = arith.sitofp %ci : i32 to f32
  scf.for %i = %c0 to %rows step %c1 {
    %sum = scf.for %k = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%i, %k] : memref<?x?xf32>
      %s = arith.addf %v, %acc : f32
      scf.yield %s : f32
    }
    %mean = arith.divf %sum, %n : f32
    %ss = scf.for %k = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%i, %k] : memref<?x?xf32>
      %d = arith.subf %v, %mean : f32
      %sq = arith.mulf %d, %d : f32
      %s = arith.addf %sq, %acc : f32
      scf.yield %s : f32
    }
    %var = arith.divf %ss, %n : f32
    %p = arith.addf %var, %eps : f32
    %r = math.sqrt %p : f32
    scf.for %k = %c0 to %cols step %c1 {
      %v = memref.load %x[%i, %k] : memref<?x?xf32>
      %d = arith.subf %v, %mean : f32
      %q = arith.divf %d, %r : f32
      %g = memref.load %gamma[%k] : memref<?xf32>
      %b = memref.load %beta[%k] : memref<?xf32>
      %m = arith.mulf %q, %g : f32
      %t = arith.addf %m, %b : f32
      memref.store %t, %out[%i, %k] : memref<?x?xf32>
    }
  }
  return
}

// The host's RMSNorm.
func.func @reference_rmsnorm(%x: memref<?x?xf32>, %w: memref<?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 0.25 : f32
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %ci = arith.index_cast %cols : index to i32
  %n = arith.sitofp %ci : i32 to f32
  scf.for %i = %c0 to %rows step %c1 {
    %ss = scf.for %k = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%i, %k] : memref<?x?xf32>
      %sq = arith.mulf %v, %v : f32
      %s = arith.addf %sq, %acc : f32
      scf.yield %s : f32
    }
    %m = arith.divf %ss, %n : f32
    %p = arith.addf %m, %eps : f32
    %r = math.sqrt %p : f32
    scf.for %k = %c0 to %cols step %c1 {
      %v = memref.load %x[%i, %k] : memref<?x?xf32>
      %q = arith.divf %v, %r : f32
      %g = memref.load %w[%k] : memref<?xf32>
      %t = arith.mulf %q, %g : f32
      memref.store %t, %out[%i, %k] : memref<?x?xf32>
    }
  }
  return
}

// Prints the number of elements where `expected` and `actual` differ.
func.func @compare(%expected: memref<?x?xf32>, %actual: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %rows = memref.dim %expected, %c0 : memref<?x?xf32>
  %cols = memref.dim %expected, %c1 : memref<?x?xf32>
  %count = scf.for %i = %c0 to %rows step %c1 iter_args(%d0 = %zero) -> (i64) {
    %row = scf.for %k = %c0 to %cols step %c1 iter_args(%d1 = %d0) -> (i64) {
      %x = memref.load %expected[%i, %k] : memref<?x?xf32>
      %y = memref.load %actual[%i, %k] : memref<?x?xf32>
      %differ = arith.cmpf une, %x, %y : f32
      %d = arith.select %differ, %one, %zero : i64
      %d2 = arith.addi %d1, %d : i64
      scf.yield %d2 : i64
    }
    scf.yield %row : i64
  }
  call @printI64(%count) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index

  // LayerNorm.
  %hx = memref.alloc() : memref<64x8192xf32>
  %hg = memref.alloc() : memref<8192xf32>
  %hb = memref.alloc() : memref<8192xf32>
  %hout = memref.alloc() : memref<64x8192xf32>
  %href = memref.alloc() : memref<64x8192xf32>
  %hx_d = memref.cast %hx : memref<64x8192xf32> to memref<?x?xf32>
  %hg_d = memref.cast %hg : memref<8192xf32> to memref<?xf32>
  %hb_d = memref.cast %hb : memref<8192xf32> to memref<?xf32>
  %hout_d = memref.cast %hout : memref<64x8192xf32> to memref<?x?xf32>
  %href_d = memref.cast %href : memref<64x8192xf32> to memref<?x?xf32>
  call @fill_rows(%hx_d, %c1, %c1, %c4, %c0) : (memref<?x?xf32>, index, index, index, index) -> ()
  call @fill_vector(%hg_d, %c5, %c3) : (memref<?xf32>, index, index) -> ()
  call @fill_vector(%hb_d, %c3, %c1) : (memref<?xf32>, index, index) -> ()
  call @reference_layernorm(%hx_d, %hg_d, %hb_d, %href_d) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  %x = gpu.alloc () : memref<64x8192xf32>
  %g = gpu.alloc () : memref<8192xf32>
  %b = gpu.alloc () : memref<8192xf32>
  %o = gpu.alloc () : memref<64x8192xf32>
  gpu.memcpy %x, %hx : memref<64x8192xf32>, memref<64x8192xf32>
  gpu.memcpy %g, %hg : memref<8192xf32>, memref<8192xf32>
  gpu.memcpy %b, %hb : memref<8192xf32>, memref<8192xf32>
  %tx = bufferization.to_tensor %x restrict : memref<64x8192xf32> to tensor<64x8192xf32>
  %tg = bufferization.to_tensor %g restrict : memref<8192xf32> to tensor<8192xf32>
  %tb = bufferization.to_tensor %b restrict : memref<8192xf32> to tensor<8192xf32>
  %to = bufferization.to_tensor %o restrict writable : memref<64x8192xf32> to tensor<64x8192xf32>
  %r = call @layernorm(%tx, %tg, %tb, %to) : (tensor<64x8192xf32>, tensor<8192xf32>, tensor<8192xf32>, tensor<64x8192xf32>) -> tensor<64x8192xf32>
  %rm = bufferization.to_buffer %r : tensor<64x8192xf32> to memref<64x8192xf32>
  gpu.memcpy %hout, %rm : memref<64x8192xf32>, memref<64x8192xf32>
  call @compare(%href_d, %hout_d) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  gpu.dealloc %x : memref<64x8192xf32>
  gpu.dealloc %g : memref<8192xf32>
  gpu.dealloc %b : memref<8192xf32>
  gpu.dealloc %o : memref<64x8192xf32>

  // RMSNorm.
  %qx = memref.alloc() : memref<32x4096xf32>
  %qw = memref.alloc() : memref<4096xf32>
  %qout = memref.alloc() : memref<32x4096xf32>
  %qref = memref.alloc() : memref<32x4096xf32>
  %qx_d = memref.cast %qx : memref<32x4096xf32> to memref<?x?xf32>
  %qw_d = memref.cast %qw : memref<4096xf32> to memref<?xf32>
  %qout_d = memref.cast %qout : memref<32x4096xf32> to memref<?x?xf32>
  %qref_d = memref.cast %qref : memref<32x4096xf32> to memref<?x?xf32>
  call @fill_rows(%qx_d, %c0, %c5, %c7, %c3) : (memref<?x?xf32>, index, index, index, index) -> ()
  call @fill_vector(%qw_d, %c3, %c1) : (memref<?xf32>, index, index) -> ()
  call @reference_rmsnorm(%qx_d, %qw_d, %qref_d) : (memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
  %y = gpu.alloc () : memref<32x4096xf32>
  %w = gpu.alloc () : memref<4096xf32>
  %p = gpu.alloc () : memref<32x4096xf32>
  gpu.memcpy %y, %qx : memref<32x4096xf32>, memref<32x4096xf32>
  gpu.memcpy %w, %qw : memref<4096xf32>, memref<4096xf32>
  %ty = bufferization.to_tensor %y restrict : memref<32x4096xf32> to tensor<32x4096xf32>
  %tw = bufferization.to_tensor %w restrict : memref<4096xf32> to tensor<4096xf32>
  %tp = bufferization.to_tensor %p restrict writable : memref<32x4096xf32> to tensor<32x4096xf32>
  %s = call @rmsnorm(%ty, %tw, %tp) : (tensor<32x4096xf32>, tensor<4096xf32>, tensor<32x4096xf32>) -> tensor<32x4096xf32>
  %sm = bufferization.to_buffer %s : tensor<32x4096xf32> to memref<32x4096xf32>
  gpu.memcpy %qout, %sm : memref<32x4096xf32>, memref<32x4096xf32>
  call @compare(%qref_d, %qout_d) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  gpu.dealloc %y : memref<32x4096xf32>
  gpu.dealloc %w : memref<4096xf32>
  gpu.dealloc %p : memref<32x4096xf32>

  memref.dealloc %hx : memref<64x8192xf32>
  memref.dealloc %hg : memref<8192xf32>
  memref.dealloc %hb : memref<8192xf32>
  memref.dealloc %hout : memref<64x8192xf32>
  memref.dealloc %href : memref<64x8192xf32>
  memref.dealloc %qx : memref<32x4096xf32>
  memref.dealloc %qw : memref<4096xf32>
  memref.dealloc %qout : memref<32x4096xf32>
  memref.dealloc %qref : memref<32x4096xf32>
  return
}
