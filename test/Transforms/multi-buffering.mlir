// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-multi-buffering{num-buffers=2}))' \
// RUN:   | FileCheck %s --check-prefix=TWO
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-multi-buffering{num-buffers=5}))' \
// RUN:   | FileCheck %s --check-prefix=FIVE
// Without the option, the count is the translation_info's pipeline_depth (3).
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-multi-buffering))' \
// RUN:   | FileCheck %s --check-prefix=THREE

/// A and B of a K loop (as gpucg-tile-and-distribute leaves them), allocated
/// inside the workgroup loop: hoisted to the entry, multi-buffered, each K
/// step taking buffer ((k - 0) / 16) mod N. C is copied in before and out
/// after the loop: left alone.
// TWO-LABEL: func.func @k_loop
//   TWO-DAG:   %[[A:.+]] = memref.alloc() {gpucg.num_buffers = 2 : i64} : memref<2x32x16xf16, #gpu.address_space<workgroup>>
//   TWO-DAG:   %[[B:.+]] = memref.alloc() {gpucg.num_buffers = 2 : i64} : memref<2x16x32xf16, #gpu.address_space<workgroup>>
//   TWO-DAG:   %[[C:.+]] = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
//       TWO:   scf.forall
//       TWO:     linalg.copy ins(%{{.+}}) outs(%[[C]] :
//       TWO:     scf.for %[[K:.+]] = %c0 to %c128 step %c16 {
//       TWO:       %[[I:.+]] = affine.apply affine_map<(d0) -> ((d0 floordiv 16) mod 2)>(%[[K]])
//   TWO-DAG:       %[[AK:.+]] = memref.subview %[[A]][%{{.+}}, 0, 0] [1, 32, 16] [1, 1, 1]
//   TWO-DAG:       %[[BK:.+]] = memref.subview %[[B]][%{{.+}}, 0, 0] [1, 16, 32] [1, 1, 1]
//       TWO:       linalg.copy ins(%{{.+}}) outs(%[[AK]] :
//       TWO:       linalg.copy ins(%{{.+}}) outs(%[[BK]] :
//       TWO:       linalg.matmul ins(%[[AK]], %[[BK]] : {{.+}}) outs(%[[C]] :
//       TWO:     linalg.copy ins(%[[C]] :
// THREE-LABEL: func.func @k_loop
//   THREE-DAG:   memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<3x32x16xf16, #gpu.address_space<workgroup>>
//   THREE-DAG:   memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<3x16x32xf16, #gpu.address_space<workgroup>>
//       THREE:   affine.apply affine_map<(d0) -> ((d0 floordiv 16) mod 3)>
// FIVE-LABEL: func.func @k_loop
//   FIVE-DAG:   memref.alloc() {gpucg.num_buffers = 5 : i64} : memref<5x32x16xf16, #gpu.address_space<workgroup>>
//   FIVE-DAG:   memref.alloc() {gpucg.num_buffers = 5 : i64} : memref<5x16x32xf16, #gpu.address_space<workgroup>>
//   FIVE-DAG:   memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
//       FIVE:   affine.apply affine_map<(d0) -> ((d0 floordiv 16) mod 5)>
func.func @k_loop(%a: memref<512x128xf16>, %b: memref<128x512xf16>, %c: memref<512x512xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 3>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  scf.forall (%i, %j) = (0, 0) to (512, 512) step (32, 32) {
    %a_smem = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
    %b_smem = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
    %c_smem = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
    %ct = memref.subview %c[%i, %j] [32, 32] [1, 1] : memref<512x512xf32> to memref<32x32xf32, strided<[512, 1], offset: ?>>
    linalg.copy ins(%ct : memref<32x32xf32, strided<[512, 1], offset: ?>>) outs(%c_smem : memref<32x32xf32, #gpu.address_space<workgroup>>)
    scf.for %k = %c0 to %c128 step %c16 {
      %ak = memref.subview %a[%i, %k] [32, 16] [1, 1] : memref<512x128xf16> to memref<32x16xf16, strided<[128, 1], offset: ?>>
      %bk = memref.subview %b[%k, %j] [16, 32] [1, 1] : memref<128x512xf16> to memref<16x32xf16, strided<[512, 1], offset: ?>>
      linalg.copy ins(%ak : memref<32x16xf16, strided<[128, 1], offset: ?>>) outs(%a_smem : memref<32x16xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%bk : memref<16x32xf16, strided<[512, 1], offset: ?>>) outs(%b_smem : memref<16x32xf16, #gpu.address_space<workgroup>>)
      linalg.matmul ins(%a_smem, %b_smem : memref<32x16xf16, #gpu.address_space<workgroup>>, memref<16x32xf16, #gpu.address_space<workgroup>>)
                    outs(%c_smem : memref<32x32xf32, #gpu.address_space<workgroup>>)
    }
    linalg.copy ins(%c_smem : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%ct : memref<32x32xf32, strided<[512, 1], offset: ?>>)
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

/// Allocations used outside any loop, and allocations in other memory
/// spaces, are untouched (beyond hoisting the workgroup one).
// TWO-LABEL: func.func @negative_outside_loops
//       TWO:   memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
//       TWO:   memref.alloc() : memref<64xf32>
//   TWO-NOT:   memref<2x
func.func @negative_outside_loops(%in: memref<64xf32>, %out: memref<64xf32>) {
  %smem = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %global = memref.alloc() : memref<64xf32>
  linalg.copy ins(%in : memref<64xf32>) outs(%smem : memref<64xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%smem : memref<64xf32, #gpu.address_space<workgroup>>) outs(%global : memref<64xf32>)
  linalg.copy ins(%global : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

/// The K loops of a specialized full tile and of its partial remainder share
/// one promoted buffer after workgroup tiling; each overwrites it before
/// reading, so each gets its own allocation, multi-buffered for its loop
/// (gpucg-pack-shared-memory-alloc later lets the two share bytes). A user
/// nested deeper in a loop (the remainder's per-thread matmul) belongs to
/// that loop.
// TWO-LABEL: func.func @specialized_loops
//       TWO:   %[[A:.+]] = memref.alloc() {gpucg.num_buffers = 2 : i64} : memref<2x16xf32, #gpu.address_space<workgroup>>
//  TWO-NEXT:   %[[B:.+]] = memref.alloc() {gpucg.num_buffers = 2 : i64} : memref<2x16xf32, #gpu.address_space<workgroup>>
//       TWO:   scf.if
//       TWO:     scf.for
//       TWO:       memref.subview %[[B]]
//       TWO:   } else {
//       TWO:     scf.for
//       TWO:       memref.subview %[[A]]
//       TWO:       scf.for
func.func @specialized_loops(%full: i1, %in: memref<128xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %smem = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
  scf.if %full {
    scf.for %k = %c0 to %c128 step %c16 {
      %i = memref.subview %in[%k] [16] [1] : memref<128xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.copy ins(%i : memref<16xf32, strided<[1], offset: ?>>) outs(%smem : memref<16xf32, #gpu.address_space<workgroup>>)
      linalg.add ins(%smem, %out : memref<16xf32, #gpu.address_space<workgroup>>, memref<16xf32>) outs(%out : memref<16xf32>)
    }
  } else {
    scf.for %k = %c0 to %c128 step %c16 {
      %i = memref.subview %in[%k] [16] [1] : memref<128xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.copy ins(%i : memref<16xf32, strided<[1], offset: ?>>) outs(%smem : memref<16xf32, #gpu.address_space<workgroup>>)
      scf.for %t = %c0 to %n step %c1 {
        %e = memref.load %smem[%t] : memref<16xf32, #gpu.address_space<workgroup>>
        memref.store %e, %out[%t] : memref<16xf32>
      }
    }
  }
  return
}
