// gpucg-compile on an elementwise add (33x1000 f32, from
// test/Integration/CPU/elementwise-vectorize.mlir): the strategy plans
// Vectorize (1x512 workgroup tiles, 1x4 per thread), which runs the SIMT
// stages for now; 1000 = 512 + 488 leaves a partial tile in every row,
// bounds-checked. Down to PTX and ptxas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/add_f32_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/add_f32_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/add_f32_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: pipeline = Vectorize, workgroup_size = [128, 1, 1]

// PTX: .entry add_f32_kernel
// PTX-DAG: ld.global.b32
// PTX-DAG: add.rn.f32
// PTX-DAG: st.global.b32
// PTX-DAG: min.u64
// PTX-NOT: bar.sync
// PTX-NOT: .local

// ABI: grid_x 2
// ABI-NEXT: grid_y 33
// ABI-NEXT: grid_z 1
// ABI-NEXT: block_x 128

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @add_f32(%a: tensor<33x1000xf32>, %b: tensor<33x1000xf32>, %e: tensor<33x1000xf32>) -> tensor<33x1000xf32> {
    %0 = linalg.add ins(%a, %b : tensor<33x1000xf32>, tensor<33x1000xf32>) outs(%e : tensor<33x1000xf32>) -> tensor<33x1000xf32>
    return %0 : tensor<33x1000xf32>
  }
}
