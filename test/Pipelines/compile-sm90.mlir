// gpucg-compile on sm_90 for f16 and bf16 (B transposed) into f32, down to
// PTX that ptxas accepts with no spills and no stack frame.
// RUN: rm -rf %t && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t.mlir
// RUN: gpucg-opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/matmul_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: FileCheck %s --check-prefix=BF16 < %t/matmul_bf16_nt_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/matmul_bf16_nt_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// PTX: .target sm_90
// PTX: cp.async.cg.shared.global
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: .local
// BF16: .target sm_90
// BF16: cp.async.cg.shared.global
// BF16: ldmatrix.sync.aligned
// BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// BF16-NOT: .local
// ABI: chip sm_90
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  func.func @matmul(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
  func.func @matmul_bf16_nt(%a: tensor<512x128xbf16>, %b: tensor<512x128xbf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<512x128xbf16>, tensor<512x128xbf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}
