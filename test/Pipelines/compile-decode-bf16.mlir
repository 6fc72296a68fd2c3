// gpucg-compile on a Llama decode step: bf16 1x4096x4096 with B transposed
// through linalg.matmul's indexing_maps (y = x W^T on one token). M = 1 and
// both operands run along K: a matrix-vector product, which the strategy
// plans as WarpReduction, not as a matmul: each of the 4096 outputs is one
// workgroup's row of 4096 products, 512 threads reading 8 of A and 8 of B
// each in one 128-bit load, reduced by warp shuffles and across the 16
// warps through shared memory. Down to PTX and ptxas, for sm_80, sm_90 and
// sm_90a (where warpgroup MMA, which needs M in tiles of 64, is not taken).
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_bf16_decode_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_bf16_decode_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_bf16_decode_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: pipeline = WarpReduction, workgroup_size = [512, 1, 1]
// STRATEGY: tile_sizes = {{\[}}[1, 1, 4096], [0, 0, 8]]
// A tensor-core pipeline asked for by name keeps the matmul plan.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{mma=mma-sync}))' --mlir-print-local-scope | FileCheck %s --check-prefix=MMA
// MMA: pipeline = MatmulSimt
// RUN: rm -rf %t90 && mkdir -p %t90
// RUN: sed 's/"sm_80"/"sm_90"/' %s | gpucg-opt --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t90})' -o %t90/lowered.mlir
// RUN: gpucg-opt %t90/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t90/matmul_bf16_decode_kernel.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t90/matmul_bf16_decode_kernel.ptx
// SM90: .target sm_90
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t90/matmul_bf16_decode_kernel.ptx -o %t90/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t90a && mkdir -p %t90a
// RUN: sed 's/"sm_80"/"sm_90a"/' %s | gpucg-opt --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t90a})' -o %t90a/lowered.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t90a/matmul_bf16_decode_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t90a/matmul_bf16_decode_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t90a/matmul_bf16_decode_kernel.ptx -o %t90a/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// One 128-bit load of A and one of B per thread, the products reduced
// across the warp by shuffles, the 16 warps' partials through shared
// memory behind one barrier, then again by shuffles; one thread adds the
// total to C. No tensor-core instruction, no local memory.
// PTX: .entry matmul_bf16_decode_kernel
// PTX: .maxntid 512, 1, 1
// PTX-COUNT-2: ld.global.v4.b32
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: st.shared.b32
// PTX: bar.sync 0
// PTX: ld.shared.b32
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: st.global.b32
// PTX-NOT: mma
// PTX-NOT: .local

// One workgroup of 512 threads per output element.
// ABI: grid_x 4096
// ABI-NEXT: grid_y 1
// ABI-NEXT: grid_z 1
// ABI-NEXT: block_x 512
// ABI-NEXT: block_y 1

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_bf16_decode(%a: tensor<1x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<1x4096xf32>) -> tensor<1x4096xf32> {
    %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<1x4096xbf16>, tensor<4096x4096xbf16>) outs(%c : tensor<1x4096xf32>) -> tensor<1x4096xf32>
    return %0 : tensor<1x4096xf32>
  }
}
