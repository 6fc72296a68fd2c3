// 32 rows of 2^20 f32 through gpucg-compile: the strategy splits each row
// across 8 workgroups (sm_80, 108 SMs) or 16 (sm_90, 132 SMs), so the grid
// has a second dimension; each workgroup's thread 0 adds its part's total to
// the accumulator with atom.global.add.f32. With deterministic-reductions
// the rows stay whole: 32 workgroups, no atomic. ptxas for sm_80 and sm_90
// without spills. A total of all 2^20 elements splits the same way into 32
// parts on grid x. The numerics of split rows run on the CPU emulator
// (test/Integration/Emulation/split-rows.mlir).
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=%t/sm80})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI80 < %t/sm80/row_sum_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/sm80/row_sum_kernel.ptx
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_90 format=isa output-dir=%t/sm90})' -o /dev/null
// RUN: FileCheck %s --check-prefix=ABI90 < %t/sm90/row_sum_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/sm90/row_sum_kernel.ptx
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{chip=sm_90 format=isa deterministic-reductions=true output-dir=%t/det})' -o /dev/null
// RUN: FileCheck %s --check-prefix=DET < %t/det/row_sum_kernel.abi
// RUN: FileCheck %s --check-prefix=DETPTX < %t/det/row_sum_kernel.ptx
// RUN: FileCheck %s --check-prefix=TOTAL < %t/sm80/total_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/sm80/total_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/sm80/total_kernel.ptx -o %t/t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/sm80/row_sum_kernel.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/sm90/row_sum_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// ABI80: grid_x 32
// ABI80-NEXT: grid_y 8
// ABI80-NEXT: grid_z 1
// ABI80-NEXT: block_x 1024
// ABI90: grid_x 32
// ABI90-NEXT: grid_y 16
// ABI90-NEXT: grid_z 1
// DET: grid_x 32
// DET-NEXT: grid_y 1
// The total of all elements: 32 parts on grid x.
// TOTAL: grid_x 32
// TOTAL-NEXT: grid_y 1

// PTX: .maxntid 1024, 1, 1
// PTX-NOT: .local
// PTX: ld.global.v4.b32
// PTX: bar.sync
// PTX: atom.global.add.f32
// DETPTX-NOT: atom.
// DETPTX: st.global.b32
// DETPTX-NOT: atom.

func.func @row_sum(%a: tensor<32x1048576xf32>, %out: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xf32>) outs(%out : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

func.func @total(%a: tensor<1048576xf32>, %c: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
    ins(%a : tensor<1048576xf32>) outs(%c : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}
