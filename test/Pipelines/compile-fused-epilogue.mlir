// A linear layer with a fused epilogue, as models write it: a 4096^3 matmul
// with an f32 accumulator, a bias per column and an activation (ReLU, SiLU,
// erf-GELU, tanh-GELU), cast to bf16 or f16, for sm_80 and for sm_90 (both
// mma.sync). The epilogue runs on every thread of the workgroup in vectors
// of 4 (gpucg-tile-and-distribute), so each kernel needs about the
// registers of the plain matmul beside it and spills nothing. Per warp,
// each lane ran its warp's whole tile: on sm_80, 26000 bytes of stack and
// 49012 bytes of spill stores for bias + ReLU (17 s of ptxas), 30512 and
// 70492 for SiLU (165 s of ptxas).
//
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/sm80 %t/sm90
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t/sm80})' -o /dev/null
// RUN: sed -e 's/chip = "sm_80"/chip = "sm_90"/' %s | gpucg-opt --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t/sm90})' -o /dev/null
// RUN: for k in plain relu_bf16 silu_f16 gelu_erf_bf16 gelu_tanh_f16; do %ptxas -arch=sm_80 -v %t/sm80/${k}_kernel.ptx -o %t/sm80/$k.cubin; done 2>&1 | %sass_mix --ptxas-info - | FileCheck %s
// RUN: for k in plain relu_bf16 silu_f16 gelu_erf_bf16 gelu_tanh_f16; do %ptxas -arch=sm_90 -v %t/sm90/${k}_kernel.ptx -o %t/sm90/$k.cubin; done 2>&1 | %sass_mix --ptxas-info - | FileCheck %s
// The epilogue's loads and stores: 4 f32 of the accumulator from workgroup
// memory, 4 bf16 (8 bytes) to C.
// RUN: FileCheck %s --check-prefix=PTX < %t/sm80/relu_bf16_kernel.ptx

// CHECK-LABEL: kernel gelu_erf_bf16_kernel
//  CHECK-NEXT: registers {{2[34][0-9]}}
//  CHECK-NEXT: spill_stores 0
//  CHECK-NEXT: spill_loads 0
//  CHECK-NEXT: stack_frame 0
// CHECK-LABEL: kernel gelu_tanh_f16_kernel
//  CHECK-NEXT: registers {{2[34][0-9]}}
//  CHECK-NEXT: spill_stores 0
//  CHECK-NEXT: spill_loads 0
//  CHECK-NEXT: stack_frame 0
// CHECK-LABEL: kernel plain_kernel
//  CHECK-NEXT: registers {{2[34][0-9]}}
//  CHECK-NEXT: spill_stores 0
// CHECK-LABEL: kernel relu_bf16_kernel
//  CHECK-NEXT: registers {{2[34][0-9]}}
//  CHECK-NEXT: spill_stores 0
//  CHECK-NEXT: spill_loads 0
//  CHECK-NEXT: stack_frame 0
// CHECK-LABEL: kernel silu_f16_kernel
//  CHECK-NEXT: registers {{2[34][0-9]}}
//  CHECK-NEXT: spill_stores 0
//  CHECK-NEXT: spill_loads 0
//  CHECK-NEXT: stack_frame 0

// PTX-LABEL: .entry relu_bf16_kernel(
//       PTX:   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
//       PTX:   ld.shared.v4.b32
//       PTX:   st.global.v2.b32

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @plain(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>, %out: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%out : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %m : tensor<4096x4096xf32>
  }
  func.func @relu_bf16(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>, %bias: tensor<4096xf32>, %out: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4096x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%out : tensor<4096x4096xbf16>) {
    ^bb0(%x: f32, %y: f32, %o: bf16):
      %s0 = arith.addf %x, %y : f32
      %s = arith.addf %s0, %zero : f32
      %a1 = arith.maximumf %s, %zero : f32
      %tr = arith.truncf %a1 : f32 to bf16
      linalg.yield %tr : bf16
    } -> tensor<4096x4096xbf16>
    return %r : tensor<4096x4096xbf16>
  }
  func.func @silu_f16(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %bias: tensor<4096xf32>, %out: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4096x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%out : tensor<4096x4096xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s0 = arith.addf %x, %y : f32
      %s = arith.addf %s0, %zero : f32
      %ng = arith.negf %s : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %a1 = arith.divf %s, %den : f32
      %tr = arith.truncf %a1 : f32 to f16
      linalg.yield %tr : f16
    } -> tensor<4096x4096xf16>
    return %r : tensor<4096x4096xf16>
  }
  func.func @gelu_erf_bf16(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>, %bias: tensor<4096xf32>, %out: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4096x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%out : tensor<4096x4096xbf16>) {
    ^bb0(%x: f32, %y: f32, %o: bf16):
      %s0 = arith.addf %x, %y : f32
      %s = arith.addf %s0, %zero : f32
      %half = arith.constant 0.5 : f32
      %rs = arith.constant 0.707106769 : f32
      %one = arith.constant 1.0 : f32
      %t = arith.mulf %s, %rs : f32
      %erf = math.erf %t : f32
      %p = arith.addf %one, %erf : f32
      %h = arith.mulf %s, %half : f32
      %a1 = arith.mulf %h, %p : f32
      %tr = arith.truncf %a1 : f32 to bf16
      linalg.yield %tr : bf16
    } -> tensor<4096x4096xbf16>
    return %r : tensor<4096x4096xbf16>
  }
  func.func @gelu_tanh_f16(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %bias: tensor<4096xf32>, %out: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4096x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%out : tensor<4096x4096xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s0 = arith.addf %x, %y : f32
      %s = arith.addf %s0, %zero : f32
      %half = arith.constant 0.5 : f32
      %k0 = arith.constant 0.797884583 : f32
      %k1 = arith.constant 0.044715 : f32
      %one = arith.constant 1.0 : f32
      %x2 = arith.mulf %s, %s : f32
      %x3 = arith.mulf %x2, %s : f32
      %i1 = arith.mulf %x3, %k1 : f32
      %i2 = arith.addf %s, %i1 : f32
      %i3 = arith.mulf %i2, %k0 : f32
      %th = math.tanh %i3 : f32
      %p = arith.addf %one, %th : f32
      %h = arith.mulf %s, %half : f32
      %a1 = arith.mulf %h, %p : f32
      %tr = arith.truncf %a1 : f32 to f16
      linalg.yield %tr : f16
    } -> tensor<4096x4096xf16>
    return %r : tensor<4096x4096xf16>
  }
}
