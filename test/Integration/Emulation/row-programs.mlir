// Row programs under gpucg-warp-reduction on the CPU emulator: softmax
// (base 2), RMSNorm (f16 rows) and LayerNorm, each one kernel that reduces
// its row, shares the totals with every thread and normalizes the row.
// Bit-exact against the untiled kernels: the inputs make every sum exact
// (powers of two, small integers, quarters).

// The untiled kernels, run as they are, are the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// gpucg-warp-reduction's output, with the race detector, in order and in
// reverse:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80},gpucg-test-emulate-on-cpu{check-races=true})' -o %t.0.mlir
// RUN: %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.forward
// RUN: diff %t.ref %t.0.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.reverse
// RUN: diff %t.ref %t.0.reverse

// One kernel each, two reductions where the kernel has two.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @softmax2
// IR-COUNT-2: gpu.subgroup_reduce maximumf
// IR-COUNT-2: gpu.subgroup_reduce add
// IR-NOT: memref<1x4096xf32>
// IR-LABEL: func.func @rmsnorm_f16
// IR-COUNT-2: gpu.subgroup_reduce add
// IR-NOT: gpu.subgroup_reduce
// IR-LABEL: func.func @layernorm
// IR-COUNT-4: gpu.subgroup_reduce add
// IR-NOT: gpu.subgroup_reduce

#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#one = affine_map<(d0) -> (d0)>

// Softmax in base 2: the row's maximum, 2^(x - max), their sum, and each
// element over the sum. Two reductions and the exponentials (computed again
// in the sum's and the division's steps) in one kernel.
func.func @softmax2(%x: tensor<8x4096xf32>, %out: tensor<8x4096xf32>) -> tensor<8x4096xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %macc = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<8x4096xf32>) outs(%macc : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %er = tensor.empty() : tensor<8x4096xf32>
  %ex = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %max : tensor<8x4096xf32>, tensor<8xf32>) outs(%er : tensor<8x4096xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32):
    %d = arith.subf %a, %m : f32
    %t = math.exp2 %d : f32
    linalg.yield %t : f32
  } -> tensor<8x4096xf32>
  %sacc = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%ex : tensor<8x4096xf32>) outs(%sacc : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%ex, %sum : tensor<8x4096xf32>, tensor<8xf32>) outs(%out : tensor<8x4096xf32>) {
  ^bb0(%a: f32, %s: f32, %b: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  } -> tensor<8x4096xf32>
  return %o : tensor<8x4096xf32>
}

// RMSNorm of f16 rows of 2048 (sum of squares in f32): one reduction, its
// scaling 1 / sqrt(mean + eps) on one element per row, and the row times
// that and a weight, back to f16.
func.func @rmsnorm_f16(%x: tensor<8x2048xf16>, %w: tensor<2048xf16>, %out: tensor<8x2048xf16>) -> tensor<8x2048xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 2048.0 : f32
  %eps = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %ss = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<8x2048xf16>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f16, %b: f32):
    %f = arith.extf %a : f16 to f32
    %sq = arith.mulf %f, %f : f32
    %t = arith.addf %sq, %b : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %rs = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%ss : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.divf %a, %n : f32
    %p = arith.addf %m, %eps : f32
    %r = math.sqrt %p : f32
    %one = arith.constant 1.0 : f32
    %s = arith.divf %one, %r : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #col, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %rs, %w : tensor<8x2048xf16>, tensor<8xf32>, tensor<2048xf16>) outs(%out : tensor<8x2048xf16>) {
  ^bb0(%a: f16, %r: f32, %g: f16, %b: f16):
    %af = arith.extf %a : f16 to f32
    %gf = arith.extf %g : f16 to f32
    %m = arith.mulf %af, %r : f32
    %t = arith.mulf %m, %gf : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<8x2048xf16>
  return %o : tensor<8x2048xf16>
}

// LayerNorm of rows of 1024: the mean, the variance of x - mean (the
// difference computed again in the variance's and the output's steps),
// and (x - mean) / sqrt(var + eps) * gamma + beta.
func.func @layernorm(%x: tensor<12x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>, %out: tensor<12x1024xf32>) -> tensor<12x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 0.75 : f32
  %e = tensor.empty() : tensor<12xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<12x1024xf32>) outs(%acc : tensor<12xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<12xf32>
  %mean = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%sum : tensor<12xf32>) outs(%e : tensor<12xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.divf %a, %n : f32
    linalg.yield %m : f32
  } -> tensor<12xf32>
  %er = tensor.empty() : tensor<12x1024xf32>
  %d = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %mean : tensor<12x1024xf32>, tensor<12xf32>) outs(%er : tensor<12x1024xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32):
    %t = arith.subf %a, %m : f32
    linalg.yield %t : f32
  } -> tensor<12x1024xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e : tensor<12xf32>) -> tensor<12xf32>
  %ss = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%d : tensor<12x1024xf32>) outs(%acc2 : tensor<12xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %sq, %b : f32
    linalg.yield %t : f32
  } -> tensor<12xf32>
  %rstd = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%ss : tensor<12xf32>) outs(%e : tensor<12xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.divf %a, %n : f32
    %p = arith.addf %v, %eps : f32
    %r = math.sqrt %p : f32
    linalg.yield %r : f32
  } -> tensor<12xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #col, #col, #row], iterator_types = ["parallel", "parallel"]}
    ins(%d, %rstd, %gamma, %beta : tensor<12x1024xf32>, tensor<12xf32>, tensor<1024xf32>, tensor<1024xf32>) outs(%out : tensor<12x1024xf32>) {
  ^bb0(%a: f32, %r: f32, %g: f32, %bb: f32, %b: f32):
    %q = arith.divf %a, %r : f32
    %m = arith.mulf %q, %g : f32
    %t = arith.addf %m, %bb : f32
    linalg.yield %t : f32
  } -> tensor<12x1024xf32>
  return %o : tensor<12x1024xf32>
}
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c_off = arith.constant 0 : i32
  %sm_x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 6)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %v = arith.addi %i, %c_off : i32
    %e = arith.sitofp %v : i32 to f32
    tensor.yield %e : f32
  } : tensor<8x4096xf32>
  %sm_o = tensor.empty() : tensor<8x4096xf32>
  %sm_r = func.call @softmax2(%sm_x, %sm_o) : (tensor<8x4096xf32>, tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %sm_m = bufferization.to_buffer %sm_r : tensor<8x4096xf32> to memref<8x4096xf32>
  %sm_u = memref.cast %sm_m : memref<8x4096xf32> to memref<*xf32>
  func.call @printMemrefF32(%sm_u) : (memref<*xf32>) -> ()
  %rn_x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7 - 3)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %v = arith.addi %i, %c_off : i32
    %e = arith.sitofp %v : i32 to f16
    tensor.yield %e : f16
  } : tensor<8x2048xf16>
  %rn_w = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> (d0 mod 3 - 1)>(%i0)
    %i = arith.index_cast %s : index to i32
    %v = arith.addi %i, %c_off : i32
    %e = arith.sitofp %v : i32 to f16
    tensor.yield %e : f16
  } : tensor<2048xf16>
  %rn_o = tensor.empty() : tensor<8x2048xf16>
  %rn_r = func.call @rmsnorm_f16(%rn_x, %rn_w, %rn_o) : (tensor<8x2048xf16>, tensor<2048xf16>, tensor<8x2048xf16>) -> tensor<8x2048xf16>
  %rn_m = bufferization.to_buffer %rn_r : tensor<8x2048xf16> to memref<8x2048xf16>
  %rn_f = memref.alloc() : memref<8x2048xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c2048 = arith.constant 2048 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c2048 step %c1 {
      %h = memref.load %rn_m[%i, %j] : memref<8x2048xf16>
      %f = arith.extf %h : f16 to f32
      memref.store %f, %rn_f[%i, %j] : memref<8x2048xf32>
    }
  }
  %rn_u = memref.cast %rn_f : memref<8x2048xf32> to memref<*xf32>
  func.call @printMemrefF32(%rn_u) : (memref<*xf32>) -> ()
  %ln_x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> (d0 + d1 mod 4)>(%i0, %i1)
    %i = arith.index_cast %s : index to i32
    %v = arith.addi %i, %c_off : i32
    %e = arith.sitofp %v : i32 to f32
    tensor.yield %e : f32
  } : tensor<12x1024xf32>
  %ln_g = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> (d0 mod 5 - 2)>(%i0)
    %i = arith.index_cast %s : index to i32
    %v = arith.addi %i, %c_off : i32
    %e = arith.sitofp %v : i32 to f32
    tensor.yield %e : f32
  } : tensor<1024xf32>
  %ln_b = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> (d0 mod 3)>(%i0)
    %i = arith.index_cast %s : index to i32
    %v = arith.addi %i, %c_off : i32
    %e = arith.sitofp %v : i32 to f32
    tensor.yield %e : f32
  } : tensor<1024xf32>
  %ln_o = tensor.empty() : tensor<12x1024xf32>
  %ln_r = func.call @layernorm(%ln_x, %ln_g, %ln_b, %ln_o) : (tensor<12x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<12x1024xf32>) -> tensor<12x1024xf32>
  %ln_m = bufferization.to_buffer %ln_r : tensor<12x1024xf32> to memref<12x1024xf32>
  %ln_u = memref.cast %ln_m : memref<12x1024xf32> to memref<*xf32>
  func.call @printMemrefF32(%ln_u) : (memref<*xf32>) -> ()
  return
}

