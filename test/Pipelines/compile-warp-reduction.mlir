// The warp-reduction pipeline on rows long enough for a workgroup each:
// rows of 4096 f32 summed (1024 threads of 4 per step) and the sum of
// squares of rows of 8192 f16 in f32, RMSNorm's reduction (1024 threads of
// 8 f16, 128 bits, per step). Each thread's partial, warp butterflies of
// shuffles, the 32 warps' partials through workgroup memory.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction)' --mlir-print-local-scope -o %t.mlir
// RUN: FileCheck %s --check-prefix=NAMED < %t.mlir
// What it prints parses and verifies again.
// RUN: gpucg-opt %t.mlir > /dev/null
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: gpucg-set-target{chip=sm_80}
// STAGES: gpucg-select-lowering-strategy{
// STAGES: gpucg-distribute-reduction
// STAGES-NEXT: gpucg-remove-single-iteration-loop
// STAGES: gpucg-generic-vectorization{max-vector-elements=64}
// STAGES-NEXT: fold-memref-alias-ops
// STAGES-NEXT: gpucg-optimize-vector-transfers

// gpucg-compile runs the same stages for WarpReduction kernels; down to PTX
// and ptxas for sm_80 and sm_90.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t})' -o %t/lowered.mlir
// RUN: gpucg-opt %t/lowered.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=SUM < %t/row_sum_4096_kernel.ptx
// RUN: FileCheck %s --check-prefix=SUM-ABI < %t/row_sum_4096_kernel.abi
// RUN: FileCheck %s --check-prefix=SQUARES < %t/sum_of_squares_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=FUSED < %t/mean_of_squares_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/mean_of_squares_kernel.ptx -o %t/e.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/row_sum_4096_kernel.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/row_sum_4096_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/sum_of_squares_f16_kernel.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -v %t/sum_of_squares_f16_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// NAMED-LABEL: func.func @row_sum_4096
//  NAMED-SAME:   gpu.known_block_size = array<i32: 1024, 1, 1>, gpu.known_grid_size = array<i32: 16, 1, 1>
//  NAMED-SAME:   pipeline = WarpReduction, workgroup_size = [1024, 1, 1]
//       NAMED:   scf.forall
//       NAMED:     vector.transfer_read {{.*}} : memref<16x4096xf32>, vector<4xf32>
//       NAMED:     vector.multi_reduction <add>
//       NAMED:     gpu.subgroup_reduce add {{.*}} uniform : (f32) -> f32
//       NAMED:     memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
//       NAMED:     gpu.barrier
//       NAMED:     gpu.subgroup_reduce add {{.*}} uniform : (f32) -> f32
//       NAMED:     scf.if
//       NAMED:       memref.store {{.*}} : memref<16xf32>
//   NAMED-NOT:   linalg.
// One step per thread (8192 = 1024 x 8): the single-iteration loop is gone.
// NAMED-LABEL: func.func @sum_of_squares_f16
//  NAMED-SAME:   gpu.known_grid_size = array<i32: 64, 1, 1>
//   NAMED-NOT:   scf.for %
//       NAMED:     vector.transfer_read {{.*}} : memref<64x8192xf16>, vector<8xf16>
//       NAMED:     arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
//       NAMED:     arith.mulf {{.*}} : vector<8xf32>
//       NAMED:     vector.multi_reduction <add>, {{.*}} [1] : vector<1x8xf32> to vector<1xf32>
//       NAMED:     gpu.subgroup_reduce add

// One 128-bit load per thread (4096 = 1024 x 4), five butterfly steps per
// warp twice, one barrier, 128 bytes of workgroup memory.
// SUM: .entry row_sum_4096_kernel
// SUM: .shared .align 16 .b8
// SUM-DAG: ld.global.v4.b32
// SUM-DAG: shfl.sync.bfly.b32
// SUM-DAG: bar.sync 0
// SUM-DAG: st.global.b32
// SUM-NOT: .local
// SUM-ABI: grid_x 16
// SUM-ABI-NEXT: grid_y 1
// SUM-ABI-NEXT: grid_z 1
// SUM-ABI-NEXT: block_x 1024

// SQUARES: .entry sum_of_squares_f16_kernel
// SQUARES-DAG: ld.global.v4.b32
// SQUARES-DAG: cvt.f32.f16
// SQUARES-DAG: shfl.sync.bfly.b32
// SQUARES-DAG: bar.sync 0
// SQUARES-NOT: .local

// The mean of squares as frontends write it (x * x into a temporary, a
// zero-filled accumulator, the sum, a scaling consumer): the square per step,
// the accumulator in thread 0's registers, no device malloc, no local memory.
// FUSED: .entry mean_of_squares_kernel
// FUSED-NOT: malloc
// FUSED-DAG: ld.global.v4.b32
// FUSED-DAG: mul.rn.f32
// FUSED-DAG: shfl.sync.bfly.b32
// FUSED-DAG: bar.sync 0
// FUSED-NOT: malloc
// FUSED-NOT: .local

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @row_sum_4096(%a: tensor<16x4096xf32>, %c: tensor<16xf32>) -> tensor<16xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<16x4096xf32>) outs(%c : tensor<16xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    } -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
  func.func @sum_of_squares_f16(%a: tensor<64x8192xf16>, %c: tensor<64xf32>) -> tensor<64xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<64x8192xf16>) outs(%c : tensor<64xf32>) {
    ^bb0(%x: f16, %acc: f32):
      %e = arith.extf %x : f16 to f32
      %s = arith.mulf %e, %e : f32
      %t = arith.addf %s, %acc : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    return %0 : tensor<64xf32>
  }
  func.func @mean_of_squares(%a: tensor<16x4096xf32>, %out: tensor<16xf32>) -> tensor<16xf32> {
    %zero = arith.constant 0.0 : f32
    %scale = arith.constant 0.000244140625 : f32
    %e = tensor.empty() : tensor<16x4096xf32>
    %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16x4096xf32>) outs(%e : tensor<16x4096xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %x : f32
      linalg.yield %m : f32
    } -> tensor<16x4096xf32>
    %init = tensor.empty() : tensor<16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%init : tensor<16xf32>) -> tensor<16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x4096xf32>) outs(%f : tensor<16xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    } -> tensor<16xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<16xf32>) outs(%out : tensor<16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %scale : f32
      linalg.yield %m : f32
    } -> tensor<16xf32>
    return %r : tensor<16xf32>
  }
}
