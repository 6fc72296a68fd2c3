// gpucg-compile on sm_90a: matmuls of 8-bit floats (f8E4M3FN and f8E5M2)
// into f32 with B[n, k] (`A * W^T`, a linear layer's weights: wgmma reads
// 8-bit operands K-major only) take pipeline MatmulWgmma. K tiles are one
// 128-byte row (128 elements), loaded by TMA in 128x128 boxes (the ABI's
// tensor maps: the runtime encodes 8-bit floats as bytes), and each K tile
// is four k32 wgmmas per 64-row accumulator, without the transposed-B flag
// (PTX has no imm-trans operands for 8-bit types). The same plan as the
// 16-bit linear layer of compile-wgmma.mlir: 128x128 tiles, 4 stages, one
// producer and two consumer warpgroups. ptxas for sm_90a without spills;
// SASS with QGMMA (not HGMMA) and UTMALDG where a disassembler is present.
// @linear_e4m3_bias_relu fuses a bias, ReLU and a bf16 cast into the
// epilogue.
// RUN: rm -rf %t && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t.mlir
// RUN: gpucg-opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/linear_e4m3_kernel.abi
// RUN: FileCheck %s --check-prefix=E4M3 < %t/linear_e4m3_kernel.ptx
// RUN: FileCheck %s --check-prefix=E5M2 < %t/linear_e5m2_kernel.ptx
// RUN: FileCheck %s --check-prefix=EPILOGUE < %t/linear_e4m3_bias_relu_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_e4m3_kernel.ptx -o %t/e4m3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_e5m2_kernel.ptx -o %t/e5m2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_e4m3_bias_relu_kernel.ptx -o %t/epilogue.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/e4m3.cubin | FileCheck %s --check-prefix=SASS %}
// RUN: %if sass %{ %sass_mix %t/e5m2.cubin | FileCheck %s --check-prefix=SASS %}

// ABI: block_x 384
// ABI: dynamic_shared_memory 131072
// ABI: argument 0 function_argument 0 tensor_map f8E4M3FN 1024x512 box 128x128 swizzle 128b
// ABI-NEXT: argument 1 function_argument 1 tensor_map f8E4M3FN 2048x512 box 128x128 swizzle 128b
// ABI-NEXT: argument 2 function_argument 2 memref f32 1024x2048

// E4M3: .maxntid 384, 1, 1
// E4M3: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}, p, 1, 1;
// E4M3-NOT: wgmma.mma_async.sync.aligned.m64n128k16
// E4M3-NOT: .local
// E5M2: wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e5m2 {{.*}}, p, 1, 1;
// E5M2-NOT: .local

// EPILOGUE: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// EPILOGUE: fence.proxy.async.shared::cta;
// EPILOGUE: ld.shared.v4.b32
// EPILOGUE: max.NaN.f32
// EPILOGUE: st.global.v4.b32

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// SASS:      LDL 0
// SASS-NEXT: STL 0
// SASS:      HGMMA 0
// SASS-NEXT: QGMMA {{[1-9][0-9]*}}
// SASS-NEXT: UTMALDG {{[1-9][0-9]*}}

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @linear_e4m3(%a: tensor<1024x512xf8E4M3FN>, %w: tensor<2048x512xf8E4M3FN>, %c: tensor<1024x2048xf32>) -> tensor<1024x2048xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<1024x512xf8E4M3FN>, tensor<2048x512xf8E4M3FN>) outs(%f : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    return %0 : tensor<1024x2048xf32>
  }
  func.func @linear_e5m2(%a: tensor<1024x512xf8E5M2>, %w: tensor<2048x512xf8E5M2>, %c: tensor<1024x2048xf32>) -> tensor<1024x2048xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<1024x512xf8E5M2>, tensor<2048x512xf8E5M2>) outs(%f : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    return %0 : tensor<1024x2048xf32>
  }
  func.func @linear_e4m3_bias_relu(%a: tensor<1024x512xf8E4M3FN>, %w: tensor<2048x512xf8E4M3FN>, %bias: tensor<2048xf32>, %out: tensor<1024x2048xbf16>) -> tensor<1024x2048xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1024x2048xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<1024x512xf8E4M3FN>, tensor<2048x512xf8E4M3FN>) outs(%f : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%0, %bias : tensor<1024x2048xf32>, tensor<2048xf32>) outs(%out : tensor<1024x2048xbf16>) {
    ^bb0(%x: f32, %y: f32, %o: bf16):
      %s = arith.addf %x, %y : f32
      %r = arith.maximumf %s, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<1024x2048xbf16>
    return %1 : tensor<1024x2048xbf16>
  }
}
