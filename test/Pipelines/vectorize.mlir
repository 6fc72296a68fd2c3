// The named gpucg-vectorize pipeline: SIMT thread distribution, then each
// thread's tile as vectors.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-vectorize)' --mlir-print-local-scope -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// What it prints parses and verifies again.
// RUN: gpucg-opt %t.mlir > /dev/null
// The stages, as --dump-pass-pipeline shows them:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-vectorize{chip=sm_80})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: gpucg-set-target{chip=sm_80}
// STAGES: gpucg-select-lowering-strategy{
// STAGES: gpucg-simt-fallback
// STAGES-NEXT: gpucg-workgroup-specialization
// STAGES-NEXT: gpucg-row-pitch-specialization
// STAGES-NEXT: gpucg-tile-and-distribute{distribute-to-warp=false}
// STAGES-NEXT: gpucg-remove-single-iteration-loop
// STAGES-NEXT: gpucg-multi-buffering{num-buffers=0}
// STAGES: gpucg-distribute-shared-memory-copy
// STAGES-NEXT: gpucg-generic-vectorization{max-vector-elements=64}
// STAGES-NEXT: fold-memref-alias-ops
// STAGES-NEXT: gpucg-optimize-vector-transfers
// STAGES-NEXT: gpucg-vector-to-gpu
// STAGES-NEXT: loop-invariant-code-motion
// STAGES-NEXT: gpucg-software-pipelining{depth=0
// STAGES-NEXT: gpucg-version-vector-alignment
// STAGES-NEXT: gpucg-promote-thread-buffers{max-bytes=1024}
// STAGES-NEXT: convert-linalg-to-loops

// The seed configuration, as a user gives it: tile [256, 4] (the thread
// tile, 256 / 64 = 4 rows, filled in), workgroup [64, 1, 1]. Grid 391: 390
// full tiles on the static path, each thread reading vector<4x4xf32> per K
// step and reducing into a vector<4xf32> kept in registers across the K
// loop; the last 160 rows on the dynamic, scalar path.
// CHECK-LABEL: func.func @row_sum_seed
//  CHECK-SAME:   gpu.known_block_size = array<i32: 64, 1, 1>, gpu.known_grid_size = array<i32: 391, 1, 1>
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [64, 1, 1]
//       CHECK:   scf.forall
//       CHECK:     scf.if
//       CHECK:       %[[TID:.+]] = gpu.thread_id{{ +}}x upper_bound 64
//       CHECK:       %[[ROW:.+]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 4)>()[%{{.+}}, %[[TID]]]
//       CHECK:       %[[INIT:.+]] = vector.transfer_read %[[C:.+]][%[[ROW]]], %{{.+}} {in_bounds = [true]} : memref<100000xf32>, vector<4xf32>
//       CHECK:       %[[SUM:.+]] = scf.for %[[K:.+]] = %c0 to %c100 step %c4 iter_args(%[[ACC:.+]] = %[[INIT]]) -> (vector<4xf32>) {
//       CHECK:         %[[A:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[K]]], %{{.+}} {in_bounds = [true, true]} : memref<100000x100xf32>, vector<4x4xf32>
//       CHECK:         %[[B:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[K]]], %{{.+}} {in_bounds = [true, true]} : memref<100000x100xf32>, vector<4x4xf32>
//       CHECK:         %[[S:.+]] = arith.addf %[[A]], %[[B]] : vector<4x4xf32>
//       CHECK:         %[[R:.+]] = vector.multi_reduction <add>, %[[S]], %[[ACC]] [1] : vector<4x4xf32> to vector<4xf32>
//       CHECK:         scf.yield %[[R]] : vector<4xf32>
//       CHECK:       vector.transfer_write %[[SUM]], %[[C]][%[[ROW]]] {in_bounds = [true]} : vector<4xf32>, memref<100000xf32>
//       CHECK:     } else {
//   CHECK-NOT:       vector.
//       CHECK:       memref.load
//       CHECK:     } {gpucg.workgroup_specialization}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @row_sum_seed(%a: tensor<100000x100xf32>, %b: tensor<100000x100xf32>, %c: tensor<100000xf32>) -> tensor<100000xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<100000x100xf32>, tensor<100000x100xf32>) outs(%c : tensor<100000xf32>)
      attrs = {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[256, 4]]>,
        translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [64, 1, 1]>>} {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %s = arith.addf %x, %y : f32
      %t = arith.addf %s, %acc : f32
      linalg.yield %t : f32
    } -> tensor<100000xf32>
    return %0 : tensor<100000xf32>
  }

// Rows of 72 f16 summed in f32 (too short for a warp per row): the strategy
// plans Vectorize, 4 rows per thread and a K step of 8 f16 (128 bits);
// 2048 rows are 8 whole workgroup tiles, so there is no partial path.
// CHECK-LABEL: func.func @row_sum_f16_in_f32
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 8, 1, 1>
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [64, 1, 1]
//   CHECK-NOT:   scf.if
//       CHECK:   scf.for {{.*}} step %c8 iter_args(%{{.+}} = %{{.+}}) -> (vector<4xf32>)
//       CHECK:     vector.transfer_read {{.*}} : memref<2048x72xf16>, vector<4x8xf16>
//       CHECK:     arith.extf {{.*}} : vector<4x8xf16> to vector<4x8xf32>
//       CHECK:     vector.multi_reduction <add>, {{.*}} [1] : vector<4x8xf32> to vector<4xf32>
  func.func @row_sum_f16_in_f32(%a: tensor<2048x72xf16>, %c: tensor<2048xf32>) -> tensor<2048xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<2048x72xf16>) outs(%c : tensor<2048xf32>) {
    ^bb0(%x: f16, %acc: f32):
      %e = arith.extf %x : f16 to f32
      %t = arith.addf %e, %acc : f32
      linalg.yield %t : f32
    } -> tensor<2048xf32>
    return %0 : tensor<2048xf32>
  }

// Elementwise with a broadcast bias, f16: 1024 columns per workgroup of 128
// threads, each thread 8 (128 bits) as one vector.
// CHECK-LABEL: func.func @bias_add_f16
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 4, 4096, 1>
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [128, 1, 1]
//       CHECK:   vector.transfer_read {{.*}} : memref<4096x4096xf16>, vector<8xf16>
//       CHECK:   vector.transfer_read {{.*}} : memref<4096xf16>, vector<8xf16>
//       CHECK:   arith.addf {{.*}} : vector<8xf16>
//       CHECK:   vector.transfer_write {{.*}} : vector<8xf16>, memref<4096x4096xf16>
  func.func @bias_add_f16(%x: tensor<4096x4096xf16>, %bias: tensor<4096xf16>) -> tensor<4096x4096xf16> {
    %e = tensor.empty() : tensor<4096x4096xf16>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<4096x4096xf16>, tensor<4096xf16>) outs(%e : tensor<4096x4096xf16>) {
    ^bb0(%a: f16, %b: f16, %out: f16):
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    } -> tensor<4096x4096xf16>
    return %0 : tensor<4096x4096xf16>
  }
}
