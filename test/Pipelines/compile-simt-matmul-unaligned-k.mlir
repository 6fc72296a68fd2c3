// gpucg-compile on a 1000x1000x1000 f16 -> f32 matmul: K = 1000 is no
// multiple of any MMA instruction's K, so the strategy plans SimtDistribute
// (one element of C per thread, 256 threads per workgroup) and
// gpucg-lower-workgroup runs the SIMT stages. Down to PTX and ptxas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_f16_unaligned_k_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_f16_unaligned_k_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_f16_unaligned_k_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: pipeline = SimtDistribute, workgroup_size = [256, 1, 1]

// Scalar CUDA-core code: f16 operands widened one at a time, no tensor core.
// PTX: .entry matmul_f16_unaligned_k_kernel
// PTX-DAG: ld.global.b16
// PTX-DAG: cvt.f32.f16
// PTX-DAG: mul.rn.f32
// PTX-DAG: add.rn.f32
// PTX-NOT: mma
// PTX-NOT: .local

// 4 x 1000 workgroups of 256 threads: one row of 256 columns each.
// ABI: grid_x 4
// ABI-NEXT: grid_y 1000
// ABI-NEXT: grid_z 1
// ABI-NEXT: block_x 256
// ABI-NEXT: block_y 1

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_f16_unaligned_k(%a: tensor<1000x1000xf16>, %b: tensor<1000x1000xf16>, %c: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<1000x1000xf16>, tensor<1000x1000xf16>) outs(%c : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    return %0 : tensor<1000x1000xf32>
  }
}
