// gpucg-compile on sm_90a with 8-bit float casts, which neither LLVM nor
// NVVM lowers (gpucg-convert-to-nvvm expands them into integer arithmetic:
// gpucg-expand-small-floats): a wgmma matmul whose fused epilogue casts its
// result to f8E4M3FN, and an f8E5M2 matmul of 48 columns, fewer than a
// wgmma tile's 64 (SimtDistribute extends the operands to f32).
//
// RUN: rm -rf %t && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t.mlir
// RUN: gpucg-opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/linear_e4m3_out_kernel.abi
// RUN: FileCheck %s --check-prefix=OUT < %t/linear_e4m3_out_kernel.ptx
// RUN: FileCheck %s --check-prefix=KN < %t/matmul_kn_e5m2_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_e4m3_out_kernel.ptx -o %t/out.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/matmul_kn_e5m2_kernel.ptx -o %t/kn.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/out.cubin | FileCheck %s --check-prefix=SASS %}

// With nvvm-float8 (gpucg-compile's and gpucg-lower-to-nvvm's option, off
// by default until checked on a GPU): NVVM's cvt instructions on pairs of
// values. ptxas: the same registers or fewer, no spills.
// RUN: rm -rf %t.nvvm && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t.nvvm nvvm-float8=true})' -o /dev/null
// RUN: FileCheck %s --check-prefix=NVVM-OUT < %t.nvvm/linear_e4m3_out_kernel.ptx
// RUN: FileCheck %s --check-prefix=NVVM-KN < %t.nvvm/matmul_kn_e5m2_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.nvvm/linear_e4m3_out_kernel.ptx -o %t.nvvm/out.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.nvvm/matmul_kn_e5m2_kernel.ptx -o %t.nvvm/kn.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// NVVM-OUT-COUNT-8: cvt.rn.satfinite.e4m3x2.f32
// NVVM-OUT: st.global.v4.b32
// NVVM-KN: cvt.rn.f16x2.e5m2x2
// NVVM-KN: mul.rn.f32
// Without it, no such instruction:
// RUN: not grep -q "cvt.rn.satfinite.e4m3x2\|cvt.rn.f16x2.e5m2x2" %t/linear_e4m3_out_kernel.ptx %t/matmul_kn_e5m2_kernel.ptx

// ABI: argument 2 function_argument 2 memref f8E4M3FN 1024x2048

// The result: 16 bytes (16 e4m3) per store.
// OUT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// OUT: st.global.v4.b32
// OUT-NOT: .local

// KN: .entry matmul_kn_e5m2_kernel
// KN-NOT: wgmma
// KN: mul.rn.f32
// KN-NOT: .local

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// SASS:      LDL 0
// SASS-NEXT: STL 0
// SASS:      QGMMA {{[1-9][0-9]*}}

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @linear_e4m3_out(%a: tensor<1024x512xf8E4M3FN>, %w: tensor<2048x512xf8E4M3FN>, %out: tensor<1024x2048xf8E4M3FN>) -> tensor<1024x2048xf8E4M3FN> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1024x2048xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<1024x512xf8E4M3FN>, tensor<2048x512xf8E4M3FN>) outs(%f : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<1024x2048xf32>) outs(%out : tensor<1024x2048xf8E4M3FN>) {
    ^bb0(%x: f32, %o: f8E4M3FN):
      %t = arith.truncf %x : f32 to f8E4M3FN
      linalg.yield %t : f8E4M3FN
    } -> tensor<1024x2048xf8E4M3FN>
    return %1 : tensor<1024x2048xf8E4M3FN>
  }
  func.func @matmul_kn_e5m2(%a: tensor<256x256xf8E5M2>, %b: tensor<256x48xf8E5M2>, %c: tensor<256x48xf32>) -> tensor<256x48xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x48xf32>) -> tensor<256x48xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf8E5M2>, tensor<256x48xf8E5M2>) outs(%f : tensor<256x48xf32>) -> tensor<256x48xf32>
    return %0 : tensor<256x48xf32>
  }
}
