// gpucg-compile on a Llama decode step: bf16 1x4096x4096 with B transposed
// through linalg.matmul's indexing_maps. M = 1 fits no MMA shape, so the
// strategy plans MatmulSimt with one warp per 1x128 tile (4 columns per
// thread, K in steps of 8; one warp: nothing promoted, no barrier); each K
// step is one vector.contract of the thread's 1x4 outputs, kept in
// registers. Down to PTX and ptxas, for sm_80 and sm_90.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_bf16_decode_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_bf16_decode_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_bf16_decode_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: pipeline = MatmulSimt, workgroup_size = [32, 1, 1]
// RUN: rm -rf %t90 && mkdir -p %t90
// RUN: sed 's/"sm_80"/"sm_90"/' %s | gpucg-opt --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t90})' -o %t90/lowered.mlir
// RUN: gpucg-opt %t90/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t90/matmul_bf16_decode_kernel.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t90/matmul_bf16_decode_kernel.ptx
// SM90: .target sm_90
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t90/matmul_bf16_decode_kernel.ptx -o %t90/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// bf16 loads of 128 bits (8 of a row of A or of B^T per K step) widened to
// f32, fused multiply-adds, no barrier.
// PTX: .entry matmul_bf16_decode_kernel
// PTX-DAG: ld.global.v4.b32
// PTX-DAG: fma.rn.f32
// PTX-NOT: bar.sync
// PTX-NOT: mma
// PTX-NOT: .local

// 4096 / 128 = 32 workgroups of one warp.
// ABI: grid_x 32
// ABI-NEXT: grid_y 1
// ABI-NEXT: grid_z 1
// ABI-NEXT: block_x 32
// ABI-NEXT: block_y 1

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_bf16_decode(%a: tensor<1x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<1x4096xf32>) -> tensor<1x4096xf32> {
    %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<1x4096xbf16>, tensor<4096x4096xbf16>) outs(%c : tensor<1x4096xf32>) -> tensor<1x4096xf32>
    return %0 : tensor<1x4096xf32>
  }
}
