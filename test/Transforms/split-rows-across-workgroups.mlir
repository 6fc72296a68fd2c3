// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-split-rows-across-workgroups))' --mlir-print-local-scope | FileCheck %s
// Then over the threads: thread 0 issues the atomic update.
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-split-rows-across-workgroups,gpucg-distribute-reduction))' --mlir-print-local-scope | FileCheck %s --check-prefix=THREADS
// Everything printed parses and verifies again.
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-split-rows-across-workgroups,gpucg-distribute-reduction))' | gpucg-opt --split-input-file > /dev/null

// 32 rows of 2^20 f32, planned in 8 parts of 131072 (the strategy's own
// choice on sm_80): grid 32 x 8, each workgroup's part of the row a view of
// the input, its total from 0 in a private buffer, added atomically.
// CHECK-LABEL: func.func @sum_32x1M
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 32, 8, 1>
//       CHECK:   scf.forall (%[[ROW:.+]], %[[PART:.+]]) in (32, 8) {
//       CHECK:     %[[ROWIN:.+]] = memref.subview %{{.+}}[%[[ROW]], 0] [1, 1048576] [1, 1]
//       CHECK:     %[[ACC:.+]] = memref.subview %{{.+}}[%[[ROW]]] [1] [1]
//       CHECK:     %[[OFF:.+]] = affine.apply affine_map<(d0) -> (d0 * 131072)>(%[[PART]])
//       CHECK:     %[[IN:.+]] = memref.subview %[[ROWIN]][0, %[[OFF]]] [1, 131072] [1, 1]
//       CHECK:     %[[T:.+]] = memref.alloca() : memref<1xf32>
//       CHECK:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
//       CHECK:     linalg.fill ins(%[[ZERO]] : f32) outs(%[[T]] : memref<1xf32>)
//       CHECK:     linalg.generic {{.*}} ins(%[[IN]] : memref<1x131072xf32, {{.*}}>) outs(%[[T]] : memref<1xf32>)
//       CHECK:     %[[V:.+]] = memref.load %[[T]][%[[C0:.+]]] : memref<1xf32>
//       CHECK:     memref.atomic_rmw addf %[[V]], %[[ACC]][%[[C0]]]
//       CHECK:   } {mapping = [#gpu.block<x>, #gpu.block<y>]}

// THREADS-LABEL: func.func @sum_32x1M
//       THREADS:   scf.forall
//       THREADS:     gpu.subgroup_reduce add
//       THREADS:     gpu.subgroup_reduce add
//       THREADS:     memref.store %{{.+}}, %[[T:.+]][%{{.+}}] : memref<1xf32>
//       THREADS:     %[[V:.+]] = memref.load %[[T]][%{{.+}}] : memref<1xf32>
//       THREADS:     %[[FIRST:.+]] = arith.cmpi eq, %[[TID:.+]], %{{.+}} : index
//       THREADS:     scf.if %[[FIRST]] {
//  THREADS-NEXT:       memref.atomic_rmw addf %[[V]], %{{.+}}[%{{.+}}] : (f32, memref<1xf32, {{.*}}>) -> f32
//  THREADS-NEXT:     }
//       THREADS:   } {mapping = [#gpu.block<x>, #gpu.block<y>]}
func.func @sum_32x1M(%a: tensor<32x1048576xf32>, %c: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xf32>) outs(%c : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

// Two row loops take grid x and y: the parts go on z. An input read once
// per row (a scale) keeps its view; the integer product has no
// memref.atomic_rmw kind, so a compare-and-swap loop multiplies.
// CHECK-LABEL: func.func @scaled_product_batch
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 3, 2, 4>
//       CHECK:   scf.forall (%{{.+}}, %{{.+}}, %[[PART:.+]]) in (2, 3, 4) {
//       CHECK:     %[[OFF:.+]] = affine.apply affine_map<(d0) -> (d0 * 256)>(%[[PART]])
//       CHECK:     %[[IN:.+]] = memref.subview %{{.+}}[0, 0, %[[OFF]]] [1, 1, 256] [1, 1, 1]
//       CHECK:     %[[T:.+]] = memref.alloca() : memref<1x1xi32>
//       CHECK:     %[[ONE:.+]] = arith.constant 1 : i32
//       CHECK:     linalg.fill ins(%[[ONE]] : i32) outs(%[[T]] : memref<1x1xi32>)
//       CHECK:     linalg.generic {{.*}} ins(%[[IN]], %{{.+}} : memref<1x1x256xi32, {{.*}}>, memref<1x1xi32, {{.*}}>) outs(%[[T]] : memref<1x1xi32>)
//       CHECK:     %[[V:.+]] = memref.load %[[T]]
//       CHECK:     memref.generic_atomic_rmw %{{.+}}[%{{.+}}, %{{.+}}]
//       CHECK:     ^bb0(%[[OLD:.+]]: i32):
//       CHECK:       %[[NEW:.+]] = arith.muli %[[OLD]], %[[V]] : i32
//       CHECK:       memref.atomic_yield %[[NEW]] : i32
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
#config = #gpucg.lowering_config<tile_sizes = [[1, 1, 256], [0, 0, 4]]>
#info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>
func.func @scaled_product_batch(%a: tensor<2x3x1024xi32>, %s: tensor<2x3xi32>, %c: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #config, translation_info = #info>}
    ins(%a, %s : tensor<2x3x1024xi32>, tensor<2x3xi32>) outs(%c : tensor<2x3xi32>) {
  ^bb0(%x: i32, %k: i32, %acc: i32):
    %y = arith.addi %x, %k : i32
    %p = arith.muli %y, %acc : i32
    linalg.yield %p : i32
  } -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// Whole rows (level-0 tile = row) are left alone.
// CHECK-LABEL: func.func @whole_rows
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 256, 1, 1>
//       CHECK:   scf.forall (%{{.+}}) in (256) {
//   CHECK-NOT:     memref.atomic_rmw
//       CHECK:   } {mapping = [#gpu.block<x>]}
func.func @whole_rows(%a: tensor<256x65536xf32>, %c: tensor<256xf32>) -> tensor<256xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<256x65536xf32>) outs(%c : tensor<256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// A total of all 2^20 elements: no row loop, so one workgroup until split;
// the 32 parts get a workgroup loop of their own on grid x.
// CHECK-LABEL: func.func @total
//  CHECK-SAME:   gpu.known_grid_size = array<i32: 32, 1, 1>
//       CHECK:   scf.forall (%[[PART:.+]]) in (32) {
//       CHECK:     %[[OFF:.+]] = affine.apply affine_map<(d0) -> (d0 * 32768)>(%[[PART]])
//       CHECK:     %[[IN:.+]] = memref.subview %{{.+}}[%[[OFF]]] [32768] [1]
//       CHECK:     %[[T:.+]] = memref.alloca() : memref<f32>
//       CHECK:     linalg.generic {{.*}} ins(%[[IN]] : memref<32768xf32, {{.*}}>) outs(%[[T]] : memref<f32>)
//       CHECK:     %[[V:.+]] = memref.load %[[T]][] : memref<f32>
//       CHECK:     memref.atomic_rmw addf %[[V]], %{{.+}}[] : (f32, memref<f32>) -> f32
//       CHECK:   } {mapping = [#gpu.block<x>]}
func.func @total(%a: tensor<1048576xf32>, %c: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
    ins(%a : tensor<1048576xf32>) outs(%c : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}
