// Row programs through gpucg-compile, down to PTX: softmax over rows of
// 14336 f32 (an LLM width; 896 threads of 4 per step), RMSNorm over rows of
// 4096 f16 (512 threads of 8), LayerNorm over rows of 8192 f32. One kernel
// each: 128-bit global loads and stores, butterflies of shuffles, one
// workgroup-memory exchange per reduction, nothing in local memory, and
// ptxas for sm_80 and sm_90 without spills. The numerics of the same
// kernels at other sizes run on the CPU emulator
// (test/Integration/Emulation/row-programs.mlir).
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=SOFTMAX < %t/softmax_14336_kernel.ptx
// RUN: FileCheck %s --check-prefix=RMSNORM < %t/rmsnorm_4096_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=LAYERNORM < %t/layernorm_8192_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/softmax_14336_kernel.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/softmax_14336_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/rmsnorm_4096_f16_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/rmsnorm_4096_f16_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/layernorm_8192_kernel.ptx -o %t/e.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/layernorm_8192_kernel.ptx -o %t/f.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// math.exp becomes libdevice's __nv_expf, linked into the kernel (no
// unresolved call for ptxas), also with no toolkit named in the
// environment: gpucg-lower-to-nvvm falls back to the toolkit its build
// found.
// RUN: %if ptxas %{ env -u CUDA_HOME -u CUDA_ROOT -u CUDA_PATH gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t/noenv})' -o /dev/null %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=LIBDEVICE < %t/noenv/softmax_14336_kernel.ptx %}
// LIBDEVICE-NOT: __nv_expf
// LIBDEVICE: .entry softmax_14336_kernel
// LIBDEVICE: ex2.approx

// Softmax: the maximum's and the sum's reads of x, the division's read of
// x (exp(x - max) is computed again), one write of the row; a barrier per
// reduction.
// SOFTMAX: .maxntid 896, 1, 1
// SOFTMAX-NOT: .local
// SOFTMAX: ld.global.v4.b32
// SOFTMAX: st.global.v4.b32
// RUN: grep -c ld.global %t/softmax_14336_kernel.ptx | FileCheck %s --check-prefix=THREE
// RUN: grep -c bar.sync %t/softmax_14336_kernel.ptx | FileCheck %s --check-prefix=TWO

// RMSNorm: x read for the sum of squares and for the scaling, the weight
// once; one barrier.
// RMSNORM: .maxntid 512, 1, 1
// RMSNORM-NOT: .local
// RMSNORM: st.global.v4.b32
// RUN: grep -c ld.global %t/rmsnorm_4096_f16_kernel.ptx | FileCheck %s --check-prefix=THREE
// RUN: grep -c bar.sync %t/rmsnorm_4096_f16_kernel.ptx | FileCheck %s --check-prefix=ONE

// LayerNorm: two reductions (mean, variance), x read for each and again for
// the output (x - mean computed again), gamma and beta once.
// LAYERNORM: .maxntid 1024, 1, 1
// LAYERNORM-NOT: .local
// LAYERNORM: st.global.v4.b32
// RUN: grep -c ld.global %t/layernorm_8192_kernel.ptx | FileCheck %s --check-prefix=FIVE
// RUN: grep -c bar.sync %t/layernorm_8192_kernel.ptx | FileCheck %s --check-prefix=TWO
// ONE: {{^}}1{{$}}
// TWO: {{^}}2{{$}}
// THREE: {{^}}3{{$}}
// FIVE: {{^}}5{{$}}

#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#one = affine_map<(d0) -> (d0)>
func.func @softmax_14336(%x: tensor<64x14336xf32>, %out: tensor<64x14336xf32>) -> tensor<64x14336xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %macc = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<64x14336xf32>) outs(%macc : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %er = tensor.empty() : tensor<64x14336xf32>
  %ex = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %max : tensor<64x14336xf32>, tensor<64xf32>) outs(%er : tensor<64x14336xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32):
    %d = arith.subf %a, %m : f32
    %t = math.exp %d : f32
    linalg.yield %t : f32
  } -> tensor<64x14336xf32>
  %sacc = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%ex : tensor<64x14336xf32>) outs(%sacc : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%ex, %sum : tensor<64x14336xf32>, tensor<64xf32>) outs(%out : tensor<64x14336xf32>) {
  ^bb0(%a: f32, %s: f32, %b: f32):
    %t = arith.divf %a, %s : f32
    linalg.yield %t : f32
  } -> tensor<64x14336xf32>
  return %o : tensor<64x14336xf32>
}
func.func @rmsnorm_4096_f16(%x: tensor<32x4096xf16>, %w: tensor<4096xf16>, %out: tensor<32x4096xf16>) -> tensor<32x4096xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4096.0 : f32
  %eps = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %ss = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<32x4096xf16>) outs(%acc : tensor<32xf32>) {
  ^bb0(%a: f16, %b: f32):
    %f = arith.extf %a : f16 to f32
    %sq = arith.mulf %f, %f : f32
    %t = arith.addf %sq, %b : f32
    linalg.yield %t : f32
  } -> tensor<32xf32>
  %rs = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%ss : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.divf %a, %n : f32
    %p = arith.addf %m, %eps : f32
    %r = math.sqrt %p : f32
    %one = arith.constant 1.0 : f32
    %s = arith.divf %one, %r : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #col, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %rs, %w : tensor<32x4096xf16>, tensor<32xf32>, tensor<4096xf16>) outs(%out : tensor<32x4096xf16>) {
  ^bb0(%a: f16, %r: f32, %g: f16, %b: f16):
    %af = arith.extf %a : f16 to f32
    %gf = arith.extf %g : f16 to f32
    %m = arith.mulf %af, %r : f32
    %t = arith.mulf %m, %gf : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<32x4096xf16>
  return %o : tensor<32x4096xf16>
}
func.func @layernorm_8192(%x: tensor<16x8192xf32>, %gamma: tensor<8192xf32>, %beta: tensor<8192xf32>, %out: tensor<16x8192xf32>) -> tensor<16x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8192.0 : f32
  %eps = arith.constant 0.75 : f32
  %e = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<16x8192xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%sum : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.divf %a, %n : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %er = tensor.empty() : tensor<16x8192xf32>
  %d = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
    ins(%x, %mean : tensor<16x8192xf32>, tensor<16xf32>) outs(%er : tensor<16x8192xf32>) {
  ^bb0(%a: f32, %m: f32, %b: f32):
    %t = arith.subf %a, %m : f32
    linalg.yield %t : f32
  } -> tensor<16x8192xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
    ins(%d : tensor<16x8192xf32>) outs(%acc2 : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %sq, %b : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  %rstd = linalg.generic {indexing_maps = [#one, #one], iterator_types = ["parallel"]}
    ins(%ss : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.divf %a, %n : f32
    %p = arith.addf %v, %eps : f32
    %r = math.sqrt %p : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %o = linalg.generic {indexing_maps = [#row, #red, #col, #col, #row], iterator_types = ["parallel", "parallel"]}
    ins(%d, %rstd, %gamma, %beta : tensor<16x8192xf32>, tensor<16xf32>, tensor<8192xf32>, tensor<8192xf32>) outs(%out : tensor<16x8192xf32>) {
  ^bb0(%a: f32, %r: f32, %g: f32, %bb: f32, %b: f32):
    %q = arith.divf %a, %r : f32
    %m = arith.mulf %q, %g : f32
    %t = arith.addf %m, %bb : f32
    linalg.yield %t : f32
  } -> tensor<16x8192xf32>
  return %o : tensor<16x8192xf32>
}
