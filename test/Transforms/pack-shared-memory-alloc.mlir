// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-pack-shared-memory-alloc))' \
// RUN:   | FileCheck %s

/// The two paths of workgroup specialization never run together: their
/// buffers share bytes. The 1024-byte A and B buffers of each path take
/// offsets 0 and 1024 in a 2048-byte buffer.
// CHECK-LABEL: func.func @exclusive_branches
//       CHECK:   %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<2048xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c0{{.*}}][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<32x16xf16, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %[[BUF]][%c1024{{.*}}][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<16x32xf16, #gpu.address_space<workgroup>>
//   CHECK-NOT:   memref.alloc()
func.func @exclusive_branches(%a: memref<32x16xf16>, %b: memref<16x32xf16>, %full: i1) {
  %a0 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %b0 = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
  %a1 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %b1 = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
  scf.if %full {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%a0 : memref<32x16xf16, #gpu.address_space<workgroup>>)
    linalg.copy ins(%b : memref<16x32xf16>) outs(%b0 : memref<16x32xf16, #gpu.address_space<workgroup>>)
  } else {
    linalg.copy ins(%a : memref<32x16xf16>) outs(%a1 : memref<32x16xf16, #gpu.address_space<workgroup>>)
    linalg.copy ins(%b : memref<16x32xf16>) outs(%b1 : memref<16x32xf16, #gpu.address_space<workgroup>>)
  }
  return
}

// -----

/// A barrier between the last use of one buffer and the first use of the
/// other: they share; without it they would not.
// CHECK-LABEL: func.func @barrier_separated
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %{{.+}}[%c0{{.*}}][] : {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %{{.+}}[%c0{{.*}}][] : {{.+}} to memref<32x16xf16, #gpu.address_space<workgroup>>
func.func @barrier_separated(%a: memref<32x16xf16>, %c: memref<32x32xf32>) {
  %a0 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %c0 = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<32x16xf16>) outs(%a0 : memref<32x16xf16, #gpu.address_space<workgroup>>)
  gpu.barrier
  linalg.copy ins(%c0 : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%c : memref<32x32xf32>)
  return
}

// -----

/// Both live at once: disjoint offsets (4096 + 1024 bytes).
// CHECK-LABEL: func.func @negative_overlapping
//       CHECK:   memref.alloc() {alignment = 16 : i64} : memref<5120xi8, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %{{.+}}[%c0{{.*}}][] : {{.+}} to memref<32x32xf32, #gpu.address_space<workgroup>>
//   CHECK-DAG:   memref.view %{{.+}}[%c4096{{.*}}][] : {{.+}} to memref<32x16xf16, #gpu.address_space<workgroup>>
func.func @negative_overlapping(%a: memref<32x16xf16>, %c: memref<32x32xf32>) {
  %a0 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %c0 = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<32x16xf16>) outs(%a0 : memref<32x16xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%c0 : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%c : memref<32x32xf32>)
  return
}

// -----

/// One allocation: nothing to pack.
// CHECK-LABEL: func.func @negative_single
//       CHECK:   memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
//   CHECK-NOT:   memref.view
func.func @negative_single(%a: memref<32x16xf16>) {
  %a0 = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<32x16xf16>) outs(%a0 : memref<32x16xf16, #gpu.address_space<workgroup>>)
  return
}
