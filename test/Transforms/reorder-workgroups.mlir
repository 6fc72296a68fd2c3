// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope -allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-reorder-workgroups))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope -allow-unregistered-dialect | FileCheck %s
// workgroup_group_size = 1 (the default) is the launch order: nothing
// changes.
// RUN: sed -e 's/workgroup_group_size = 2/workgroup_group_size = 1/' %s \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope -allow-unregistered-dialect \
// RUN:     --pass-pipeline='builtin.module(func.func(gpucg-reorder-workgroups))' \
// RUN:   | FileCheck %s --check-prefix=ONE
// ONE-NOT: affine.apply

// The group size is the function's plan (workgroup_group_size, which
// gpucg-select-lowering-strategy{workgroup-group-size=G} sets).
// The reordered tile indices are computed at the top of the workgroup loop
// and replace its induction variables everywhere in the body. Numerics (the
// order is a permutation of the tiles) are in
// test/Integration/Emulation/reorder-workgroups.mlir.

/// 4 rows (y) x 3 columns (x) of tiles, groups of 2 rows: the linear id
/// (row * 3 + col) walks a group's 6 tiles column by column.
// CHECK-LABEL: func.func @grid_4x3
//       CHECK:   scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (512, 384) step (128, 128)
//       CHECK:     %[[L:.+]] = affine.apply affine_map<(d0, d1) -> ((d0 floordiv 128) * 3 + d1 floordiv 128)>(%[[I]], %[[J]])
//       CHECK:     %[[ROW:.+]] = affine.apply affine_map<(d0) -> ((d0 floordiv 6) * 2 + d0 mod 2)>(%[[L]])
//       CHECK:     %[[COL:.+]] = affine.apply affine_map<(d0) -> ((d0 mod 6) floordiv 2)>(%[[L]])
//       CHECK:     %[[I2:.+]] = affine.apply affine_map<(d0) -> (d0 * 128)>(%[[ROW]])
//       CHECK:     %[[J2:.+]] = affine.apply affine_map<(d0) -> (d0 * 128)>(%[[COL]])
//       CHECK:     memref.subview %{{.+}}[%[[I2]], %[[J2]]] [128, 128]
//       CHECK:     "test.use"(%[[I2]], %[[J2]])
//       CHECK:   } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @grid_4x3(%a: memref<512x384xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_group_size = 2>} {
  scf.forall (%i, %j) = (0, 0) to (512, 384) step (128, 128) {
    %v = memref.subview %a[%i, %j] [128, 128] [1, 1] : memref<512x384xf32> to memref<128x128xf32, strided<[384, 1], offset: ?>>
    "test.use"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

/// Lower bounds and a z loop (batches): indices are taken relative to the
/// lower bounds, and z keeps its order.
// CHECK-LABEL: func.func @offset_bounds_and_batches
//       CHECK:   scf.forall (%[[B:.+]], %[[I:.+]], %[[J:.+]]) = (0, 64, 32) to (8, 320, 160) step (1, 64, 32)
//       CHECK:     %[[L:.+]] = affine.apply affine_map<(d0, d1) -> ((d0 floordiv 64 - 1) * 4 + d1 floordiv 32 - 1)>(%[[I]], %[[J]])
//       CHECK:     %[[ROW:.+]] = affine.apply affine_map<(d0) -> ((d0 floordiv 8) * 2 + d0 mod 2)>(%[[L]])
//       CHECK:     %[[COL:.+]] = affine.apply affine_map<(d0) -> ((d0 mod 8) floordiv 2)>(%[[L]])
//       CHECK:     %[[I2:.+]] = affine.apply affine_map<(d0) -> (d0 * 64 + 64)>(%[[ROW]])
//       CHECK:     %[[J2:.+]] = affine.apply affine_map<(d0) -> (d0 * 32 + 32)>(%[[COL]])
//       CHECK:     "test.use"(%[[B]], %[[I2]], %[[J2]])
func.func @offset_bounds_and_batches() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_group_size = 2>} {
  scf.forall (%b, %i, %j) = (0, 64, 32) to (8, 320, 160) step (1, 64, 32) {
    "test.use"(%b, %i, %j) : (index, index, index) -> ()
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

/// Groups are whole: with 5 rows no divisor of 5 is 2, so the order stays;
/// likewise one row or one column of tiles, dynamic bounds, bounds whose
/// extent overflows int64 (UBSan's report in the checked build before), a
/// loop without both x and y, and a loop over threads rather than
/// workgroups.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   affine.apply
//       CHECK:   return
func.func @left_alone(%n: index) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_group_size = 2>} {
  scf.forall (%i, %j) = (0, 0) to (640, 384) step (128, 128) {
    "test.use"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  scf.forall (%i, %j) = (0, 0) to (128, 384) step (128, 128) {
    "test.use"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  scf.forall (%i, %j) = (0, 0) to (%n, 384) step (128, 128) {
    "test.use"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  scf.forall (%i, %j) = (-9223372036854775807, 0) to (9223372036854775807, 384) step (4611686018427387904, 128) {
    "test.use"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  scf.forall (%i) = (0) to (512) step (128) {
    "test.use"(%i) : (index) -> ()
  } {mapping = [#gpu.block<x>]}
  scf.forall (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    "test.use"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  scf.forall (%i, %j) = (0, 0) to (4, 4) step (1, 1) {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

/// A function without a translation_info, or with the launch order, keeps
/// its order.
// CHECK-LABEL: func.func @no_plan
//   CHECK-NOT:   affine.apply
// CHECK-LABEL: func.func @launch_order
//   CHECK-NOT:   affine.apply
//       CHECK:   return
func.func @no_plan() {
  scf.forall (%i, %j) = (0, 0) to (512, 384) step (128, 128) {
    "test.use"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
func.func @launch_order() attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute>} {
  scf.forall (%i, %j) = (0, 0) to (512, 384) step (128, 128) {
    "test.use"(%i, %j) : (index, index) -> ()
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
