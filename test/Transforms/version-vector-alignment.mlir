// RUN: gpucg-opt %s -split-input-file -allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-version-vector-alignment))' \
// RUN:   | gpucg-opt -split-input-file -allow-unregistered-dialect | FileCheck %s
// Run twice, the accesses it versioned are left alone: the same IR.
// RUN: gpucg-opt %s -split-input-file -allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-version-vector-alignment))' \
// RUN:   > %t.once
// RUN: gpucg-opt %t.once -split-input-file -allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-version-vector-alignment))' \
// RUN:   > %t.twice
// RUN: diff %t.once %t.twice

// Numerics, and the emulator's checks of what the aligned branch claims,
// are in test/Integration/Emulation/mma-sync-dynamic.mlir.

/// A register-staged copy's read of a row of run-time pitch, masked by the
/// K edge: 16 bytes with alignment 16 where the address is aligned and the
/// mask whole, the masked read otherwise.
// CHECK-LABEL: func.func @masked_read_dynamic_pitch
// CHECK-SAME:    (%[[A:.+]]: memref<?x?xf16>, %[[I:[^:]+]]: index, %[[J:[^:]+]]: index, %[[N:[^:]+]]: index)
// CHECK:       %[[MASK:.+]] = vector.create_mask %[[N]] : vector<8xi1>
// CHECK:       %{{.+}}, %[[OFFSET:.+]], %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:       %[[ROW:.+]] = arith.muli %[[I]], %[[STRIDES]]#0 : index
// CHECK:       %[[E0:.+]] = arith.addi %[[OFFSET]], %[[ROW]] : index
// CHECK:       %[[COL:.+]] = arith.muli %[[J]], %[[STRIDES]]#1 : index
// CHECK:       %[[E1:.+]] = arith.addi %[[E0]], %[[COL]] : index
// CHECK:       %[[BYTES:.+]] = arith.muli %[[E1]], %{{.+}} : index
// CHECK:       %[[POINTER:.+]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:       %[[ADDRESS:.+]] = arith.addi %[[POINTER]], %[[BYTES]] : index
// CHECK:       %[[MIS:.+]] = arith.remui %[[ADDRESS]], %c16 : index
// CHECK:       %[[ALIGNED:.+]] = arith.cmpi eq, %[[MIS]], %{{.+}} : index
// CHECK:       %[[WHOLE:.+]] = arith.cmpi sge, %[[N]], %c8 : index
// CHECK:       %[[OK:.+]] = arith.andi %[[WHOLE]], %[[ALIGNED]] : i1
// CHECK:       %[[V:.+]] = scf.if %[[OK]] -> (vector<8xf16>) {
// CHECK-NEXT:    %[[W:.+]] = vector.load %[[A]][%[[I]], %[[J]]] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
// CHECK-NEXT:    scf.yield %[[W]]
// CHECK-NEXT:  } else {
// CHECK-NEXT:    %[[W:.+]] = vector.transfer_read %[[A]][%[[I]], %[[J]]], %{{.+}}, %[[MASK]] {in_bounds = [true]}
// CHECK-NEXT:    scf.yield %[[W]]
// CHECK-NEXT:  }
// CHECK:       return %[[V]]
func.func @masked_read_dynamic_pitch(%a: memref<?x?xf16>, %i: index, %j: index, %n: index) -> vector<8xf16> {
  %pad = arith.constant 0.0 : f16
  %mask = vector.create_mask %n : vector<8xi1>
  %v = vector.transfer_read %a[%i, %j], %pad, %mask {in_bounds = [true]} : memref<?x?xf16>, vector<8xf16>
  return %v : vector<8xf16>
}

// -----

/// A copy-out's store of 4 f32 and an accumulator's load of 2 (8 bytes:
/// alignment 8) into rows of run-time pitch; no mask, no count check. The
/// load's misaligned case reads element by element: a vector load of the
/// same address would be merged by LLVM with the aligned one, keeping the
/// weaker alignment.
// CHECK-LABEL: func.func @store_and_load_dynamic_pitch
// CHECK-SAME:    (%[[C:[^:]+]]: memref<?x?xf32>, %{{[^:]+}}: vector<4xf32>, %[[I:[^:]+]]: index, %[[J:[^:]+]]: index)
// CHECK:       arith.remui %{{.+}}, %c16 : index
// CHECK-NOT:   arith.cmpi sge
// CHECK:       scf.if %{{.+}} {
// CHECK-NEXT:    vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:    vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
// CHECK-NEXT:  }
// CHECK:       arith.remui %{{.+}}, %c8 : index
// CHECK:       scf.if %{{.+}} -> (vector<2xf32>) {
// CHECK-NEXT:    vector.load %{{.+}} {alignment = 8 : i64} : memref<?x?xf32>, vector<2xf32>
// CHECK:       } else {
// CHECK-NEXT:    %[[E0:.+]] = memref.load %[[C]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:    %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[J1:.+]] = arith.addi %[[J]], %[[ONE]] : index
// CHECK-NEXT:    %[[E1:.+]] = memref.load %[[C]][%[[I]], %[[J1]]] : memref<?x?xf32>
// CHECK-NEXT:    %[[V:.+]] = vector.from_elements %[[E0]], %[[E1]] : vector<2xf32>
// CHECK-NEXT:    scf.yield %[[V]] : vector<2xf32>
func.func @store_and_load_dynamic_pitch(%c: memref<?x?xf32>, %v: vector<4xf32>, %i: index, %j: index) -> vector<2xf32> {
  vector.transfer_write %v, %c[%i, %j] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
  %w = vector.load %c[%i, %j] : memref<?x?xf32>, vector<2xf32>
  return %w : vector<2xf32>
}

// -----

/// A store's nontemporal hint stays on its aligned version.
// CHECK-LABEL: func.func @nontemporal_store
// CHECK:       scf.if
// CHECK-NEXT:    vector.store {{.+}} {alignment = 16 : i64, nontemporal = true} : memref<?x?xi32>, vector<4xi32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:    vector.store {{.+}} {nontemporal = true} : memref<?x?xi32>, vector<4xi32>
func.func @nontemporal_store(%c: memref<?x?xi32>, %v: vector<4xi32>, %i: index) {
  vector.store %v, %c[%i, %i] {nontemporal = true} : memref<?x?xi32>, vector<4xi32>
  return
}

// -----

/// A view of a memref of run-time pitch: its own type's pitch is dynamic
/// too, and the check reads the view's metadata.
// CHECK-LABEL: func.func @subview_dynamic_pitch
// CHECK:       %[[VIEW:.+]] = memref.subview
// CHECK:       memref.extract_strided_metadata %[[VIEW]]
// CHECK:       vector.load %[[VIEW]]{{.+}} {alignment = 16 : i64}
func.func @subview_dynamic_pitch(%a: memref<?x?xi8>, %i: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %view = memref.subview %a[%i, 0] [4, 32] [1, 1] : memref<?x?xi8> to memref<4x32xi8, strided<[?, 1], offset: ?>>
  %v = vector.load %view[%c0, %c0] : memref<4x32xi8, strided<[?, 1], offset: ?>>, vector<16xi8>
  return %v : vector<16xi8>
}

// -----

/// Left alone: static pitches (gpucg-convert-to-nvvm proves what they
/// allow), a static pitch that rules the width out (33 f16 rows) under a
/// dynamic outer one, workgroup memory, an access that already claims an
/// alignment, a single element, a mask that is not a create_mask, a vector
/// of 6 bytes, and a transfer that may run out of bounds.
// CHECK-LABEL: func.func @negative_cases
// CHECK-NOT:   scf.if
// CHECK-NOT:   extract_aligned_pointer_as_index
// CHECK:       return
func.func @negative_cases(%static: memref<64x64xf16>, %odd: memref<?x?x33xf16>,
                          %wg: memref<?x?xf16, #gpu.address_space<workgroup>>,
                          %dyn: memref<?x?xf16>, %mask: vector<8xi1>, %i: index) {
  %pad = arith.constant 0.0 : f16
  %0 = vector.load %static[%i, %i] : memref<64x64xf16>, vector<8xf16>
  %1 = vector.load %odd[%i, %i, %i] : memref<?x?x33xf16>, vector<8xf16>
  %2 = vector.load %wg[%i, %i] : memref<?x?xf16, #gpu.address_space<workgroup>>, vector<8xf16>
  %3 = vector.load %dyn[%i, %i] {alignment = 4 : i64} : memref<?x?xf16>, vector<8xf16>
  %4 = vector.load %dyn[%i, %i] : memref<?x?xf16>, vector<1xf16>
  %5 = vector.transfer_read %dyn[%i, %i], %pad, %mask {in_bounds = [true]} : memref<?x?xf16>, vector<8xf16>
  %6 = vector.load %dyn[%i, %i] : memref<?x?xf16>, vector<3xf16>
  %7 = vector.transfer_read %dyn[%i, %i], %pad : memref<?x?xf16>, vector<8xf16>
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7) : (vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<1xf16>, vector<8xf16>, vector<3xf16>, vector<8xf16>) -> ()
  return
}

// -----

/// Run-time pitches known to be multiples (getKnownRowPitchMultiple): the
/// rows of an identity layout whose innermost size is static
/// (memref<?x32x?x128xf16>: pitches 128 * ? and 128) and a
/// reinterpret_cast whose pitch is built as a multiple of 8 (as
/// gpucg-row-pitch-specialization builds it), through a subview. No address
/// check: an unmasked access is the aligned one alone, a masked one checks
/// only that its mask is whole.
// CHECK-LABEL: func.func @known_multiples
// CHECK-SAME:    (%[[Q:.+]]: memref<?x32x?x128xf16>, %[[A:[^:]+]]: memref<?x?xf16>,
// CHECK-NOT:   memref.extract_aligned_pointer_as_index
// CHECK:       %[[V0:.+]] = vector.load %[[Q]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<?x32x?x128xf16>, vector<8xf16>
// CHECK:       %[[VIEW:.+]] = memref.reinterpret_cast %[[A]]
// CHECK:       %[[TILE:.+]] = memref.subview %[[VIEW]]
// CHECK:       %[[WHOLE:.+]] = arith.cmpi sge, %{{.+}}, %c8 : index
// CHECK:       %[[V1:.+]] = scf.if %[[WHOLE]] -> (vector<8xf16>) {
// CHECK-NEXT:    vector.load %[[TILE]][%{{.+}}, %{{.+}}] {alignment = 16 : i64}
// CHECK:       } else {
// CHECK-NEXT:    vector.transfer_read %[[TILE]]
// CHECK:       vector.store %{{.+}}, %[[TILE]][%{{.+}}, %{{.+}}] {alignment = 16 : i64}
// CHECK-NOT:   memref.extract_aligned_pointer_as_index
// CHECK:       return
func.func @known_multiples(%q: memref<?x32x?x128xf16>, %a: memref<?x?xf16>, %b: index, %h: index, %t: index, %d: index, %n: index) -> (vector<8xf16>, vector<8xf16>) {
  %pad = arith.constant 0.0 : f16
  %c0 = arith.constant 0 : index
  %v0 = vector.transfer_read %q[%b, %h, %t, %d], %pad {in_bounds = [true]} : memref<?x32x?x128xf16>, vector<8xf16>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %a : memref<?x?xf16> -> memref<f16>, index, index, index, index, index
  %pitch = affine.apply affine_map<()[s0] -> ((s0 floordiv 8) * 8)>()[%strides#0]
  %view = memref.reinterpret_cast %a to offset: [0], sizes: [%sizes#0, %sizes#1], strides: [%pitch, 1] : memref<?x?xf16> to memref<?x?xf16>
  %tile = memref.subview %view[%t, 0] [64, %sizes#1] [1, 1] : memref<?x?xf16> to memref<64x?xf16, strided<[?, 1], offset: ?>>
  %mask = vector.create_mask %n : vector<8xi1>
  %v1 = vector.transfer_read %tile[%c0, %d], %pad, %mask {in_bounds = [true]} : memref<64x?xf16, strided<[?, 1], offset: ?>>, vector<8xf16>
  vector.transfer_write %v0, %tile[%c0, %d] {in_bounds = [true]} : vector<8xf16>, memref<64x?xf16, strided<[?, 1], offset: ?>>
  return %v0, %v1 : vector<8xf16>, vector<8xf16>
}
