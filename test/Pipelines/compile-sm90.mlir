// gpucg-compile on sm_90 for f16 x f16 -> f32, down to PTX that ptxas accepts
// with no spills and no stack frame.
// RUN: rm -rf %t && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t.mlir
// RUN: gpucg-opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/matmul_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// PTX: .target sm_90
// PTX: cp.async.cg.shared.global
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: .local
// ABI: chip sm_90
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  func.func @matmul(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}
