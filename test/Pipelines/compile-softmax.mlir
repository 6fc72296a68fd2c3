// gpucg-compile on linalg.softmax as users write it: the op is decomposed
// (gpucg-decompose-aggregate-ops) into its max, exp, sum and division, which
// the strategy makes one WarpReduction row kernel of: a workgroup per row,
// the two reductions across the warps' lanes. Nothing is left on the host
// but the launch; no spills.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=HOST < %t/lowered.mlir
// RUN: FileCheck %s --check-prefix=ABI < %t/softmax_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/softmax_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/softmax_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-decompose-aggregate-ops,gpucg-select-lowering-strategy))' --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: pipeline = WarpReduction, workgroup_size = [256, 1, 1]

// HOST-LABEL: func.func @softmax
// HOST-NOT:   linalg.
// HOST:       gpu.launch_func @softmax_kernel::@softmax_kernel

// ABI:      kernel softmax_kernel
// ABI:      grid_x 64
// ABI:      block_x 256
// ABI:      argument 0 function_argument 0 memref f32 64x1024
// ABI-NEXT: argument 1 function_argument 1 memref f32 64x1024

// PTX: .entry softmax_kernel
// PTX: ex2.approx
// PTX: shfl.sync.bfly.b32

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @softmax(%x: tensor<64x1024xf32>, %out: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
    %0 = linalg.softmax dimension(1) ins(%x : tensor<64x1024xf32>) outs(%out : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    return %0 : tensor<64x1024xf32>
  }
}
