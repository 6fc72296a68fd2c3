// gpucg-compile on a 1000x1000x1000 f16 -> f32 matmul (C += A * B): K = 1000
// is no multiple of a K tile, M and N no multiple of the workgroup tile.
// All of it runs one tensor-core main loop: 64x64 tiles of 32 K steps, the
// last one (8 of 32 columns of A, rows of B) copied with a source size and
// zero-filled (cp.async src-size), pipelined 4 deep like the rest; the
// partial tiles of the last row and column (40 rows or columns of 64) the
// same way. Down to PTX,
// ptxas and SASS.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_f16_unaligned_k_kernel.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t/matmul_f16_unaligned_k_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_f16_unaligned_k_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/matmul_f16_unaligned_k_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// RUN: %if ptxas && sass %{ %sass_mix %t/k.cubin | FileCheck %s --check-prefix=SASS %}
// SASS:      HMMA {{[1-9][0-9]*}}
// SASS:      LDGSTS {{[1-9][0-9]*}}
// SASS:      LDL 0
// SASS-NEXT: STL 0
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY: pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 4
// STRATEGY: tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 8, 16]]

// Tensor cores and async copies with a source size: every K step's count is
// computed at run time (the K loop carries the tail step), 16 bytes apart
// from the last step's.
// PTX: .entry matmul_f16_unaligned_k_kernel
// PTX-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// No scalar arithmetic anywhere: no f16 widened to f32, no f32 multiply-add.
// SCALAR-NOT: cvt.f32.f16
// SCALAR-NOT: mul.rn.f32
// SCALAR-NOT: fma.rn.f32
// SCALAR-NOT: .local

// 16 x 16 workgroups of 128 threads (the last row and column partial).
// ABI: grid_x 16
// ABI-NEXT: grid_y 16
// ABI-NEXT: grid_z 1
// ABI-NEXT: block_x 64
// ABI-NEXT: block_y 2

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul_f16_unaligned_k(%a: tensor<1000x1000xf16>, %b: tensor<1000x1000xf16>, %c: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<1000x1000xf16>, tensor<1000x1000xf16>) outs(%c : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    return %0 : tensor<1000x1000xf32>
  }
}
