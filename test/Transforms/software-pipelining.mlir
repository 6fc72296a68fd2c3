// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-software-pipelining))' \
// RUN:   | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-software-pipelining{epilogue-peeling=false}))' \
// RUN:   | FileCheck %s --check-prefix=PRED
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-software-pipelining{depth=3 schedule=nvidia-tensorcore}))' \
// RUN:   | FileCheck %s --check-prefix=NV

/// A K loop as gpucg-vector-to-gpu leaves it: a barrier, async copies into
/// one buffer of a 3-deep multi-buffered allocation, a group and a wait per
/// copy, a barrier, reads and compute.
/// Depth 3 (load-global-stage0): the prologue issues and commits the copies
/// of steps 0 and 1; each kernel step guards the buffer it refills with a
/// barrier, issues the copies of step k + 2, commits one group, waits until
/// at most 2 groups are in flight (its own data has landed), then computes;
/// the epilogue computes the last two steps with waits for at most 1, then 0,
/// groups in flight.
// CHECK-LABEL: func.func @k_loop
//       CHECK:   gpu.barrier
//       CHECK:   nvgpu.device_async_copy
//       CHECK:   nvgpu.device_async_create_group %{{.+}}
//       CHECK:   gpu.barrier
//       CHECK:   nvgpu.device_async_copy
//       CHECK:   nvgpu.device_async_create_group %{{.+}}
//       CHECK:   scf.for %{{.+}} = %c0 to %{{.+}} step %c1 iter_args(
//       CHECK:     gpu.barrier
//       CHECK:     nvgpu.device_async_copy
//       CHECK:     nvgpu.device_async_create_group %{{.+}}
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}
//       CHECK:     gpu.barrier
//       CHECK:     vector.load
//       CHECK:     scf.yield
//       CHECK:   nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
//       CHECK:   vector.load
//       CHECK:   nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
//       CHECK:   vector.load
//   CHECK-NOT:   nvgpu.device_async_copy
//       CHECK:   return

/// Without epilogue peeling the loop runs all 16 steps; the copies of steps
/// past the end copy 0 source elements (zero-fill, no read), and a group is
/// still committed each step, so the wait count stays right.
// PRED-LABEL: func.func @k_loop
//       PRED:   scf.for %[[K:.+]] = %c0 to %c16 step %c1 iter_args(
//       PRED:     %[[IN:.+]] = arith.cmpi slt, %[[K]], %{{.+}} : index
//       PRED:     gpu.barrier
//       PRED:     %[[N:.+]] = arith.select %[[IN]], %c8, %c0{{.*}} : index
//       PRED:     nvgpu.device_async_copy {{.+}}, 8, %[[N]] :
//       PRED:     nvgpu.device_async_create_group %{{.+}}
//       PRED:     nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}
//       PRED:     vector.load
//       PRED:     scf.yield
/// The groups of the predicated steps past the end are drained after the
/// loop: their zero-filling copies still write workgroup memory.
//   PRED-NOT:   vector.load
//       PRED:   %[[DRAIN:.+]] = nvgpu.device_async_create_group{{ *$}}
//  PRED-NEXT:   nvgpu.device_async_wait %[[DRAIN]] {numGroups = 0 : i32}
//   PRED-NOT:   vector.load
//       PRED:   return

/// nvidia-tensorcore: the reads of workgroup memory (and the wait and
/// barrier before them) run one stage ahead of the compute, so only
/// depth - 2 = 1 group stays in flight.
// NV-LABEL: func.func @k_loop
//       NV:   scf.for
//       NV:     nvgpu.device_async_create_group %{{.+}}
//       NV:     nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
//       NV:     gpu.barrier
//       NV:     vector.load
//       NV:     vector.reduction
func.func @k_loop(%g: memref<128x8xf16>, %init: f16) -> f16
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1], pipeline_depth = 3>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %smem = memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<3x8xf16, #gpu.address_space<workgroup>>
  %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (f16) {
    %b = arith.remui %k, %c3 : index
    %buf = memref.subview %smem[%b, 0] [1, 8] [1, 1] : memref<3x8xf16, #gpu.address_space<workgroup>> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier
    %t = nvgpu.device_async_copy %g[%k, %c0], %buf[%c0], 8 : memref<128x8xf16> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %grp = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %grp
    gpu.barrier
    %v = vector.load %buf[%c0] : memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
    %s = vector.reduction <add>, %v, %acc : vector<8xf16> into f16
    %m = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %v, %v, %s : vector<8xf16>, vector<8xf16> into f16
    scf.yield %m : f16
  }
  return %r : f16
}

// -----

/// A loop whose async copy is nested in a region (a partial tile's
/// remainder distributes its copies with per-thread bounds checks) stays
/// unpipelined: no prologue, the copy, its group and wait in every
/// iteration.
// CHECK-LABEL: func.func @negative_nested_copy
//   CHECK-NOT:   nvgpu.device_async_copy
//       CHECK:   scf.for
//       CHECK:     scf.if
//       CHECK:       nvgpu.device_async_copy
//       CHECK:       nvgpu.device_async_create_group
//       CHECK:       nvgpu.device_async_wait
//       CHECK:     vector.load
//       CHECK:   return
func.func @negative_nested_copy(%g: memref<128x8xf16>, %init: f16, %n: index) -> f16
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1], pipeline_depth = 3>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %smem = memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<3x8xf16, #gpu.address_space<workgroup>>
  %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (f16) {
    %b = arith.remui %k, %c3 : index
    %buf = memref.subview %smem[%b, 0] [1, 8] [1, 1] : memref<3x8xf16, #gpu.address_space<workgroup>> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier
    %in = arith.cmpi ult, %k, %n : index
    scf.if %in {
      %t = nvgpu.device_async_copy %g[%k, %c0], %buf[%c0], 8 : memref<128x8xf16> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %grp
    }
    gpu.barrier
    %v = vector.load %buf[%c0] : memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
    %s = vector.reduction <add>, %v, %acc : vector<8xf16> into f16
    scf.yield %s : f16
  }
  return %r : f16
}

// -----

/// A K loop whose trip count is known only at run time (a dynamic K) is
/// pipelined with upstream's supportDynamicLoops: the prologue's copies and
/// the epilogue's steps are predicated on their iteration existing (a copy
/// of an iteration past the end copies 0 elements, zero-filling; a step's
/// result is selected away), the kernel loop runs n - 2 times, so a loop
/// shorter than the pipeline (even empty) stays right.
// CHECK-LABEL: func.func @dynamic_trip_count
//  CHECK-SAME:   (%{{.+}}: memref<128x8xf16>, %[[INIT:.+]]: f16, %[[N:.+]]: index)
//       CHECK:   %[[P0:.+]] = arith.cmpi slt, %{{.+}}, %[[N]] : index
//       CHECK:   %[[C0:.+]] = arith.select %[[P0]], %c8, %{{.+}} : index
//       CHECK:   nvgpu.device_async_copy {{.+}}, 8, %[[C0]] :
//       CHECK:   nvgpu.device_async_create_group
//       CHECK:   %[[P1:.+]] = arith.cmpi slt, %{{.+}}, %[[N]] : index
//       CHECK:   %[[C1:.+]] = arith.select %[[P1]], %{{.+}}, %{{.+}} : index
//       CHECK:   nvgpu.device_async_copy {{.+}}, 8, %[[C1]] :
//       CHECK:   %[[UB:.+]] = arith.subi %[[N]], %{{.+}} : index
//       CHECK:   %[[R:.+]]:5 = scf.for %{{.+}} = %c0 to %[[UB]] step %c1 iter_args(%{{.+}} = %[[INIT]],
//       CHECK:     nvgpu.device_async_copy {{.+}}, 8 :
//       CHECK:     nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}
//       CHECK:     vector.contract
//       CHECK:   nvgpu.device_async_wait %[[R]]#1 {numGroups = 1 : i32}
//       CHECK:   %[[S1:.+]] = vector.contract {{.+}} %[[R]]#0 :
//       CHECK:   %[[K1:.+]] = arith.select %{{.+}}, %[[S1]], %[[R]]#0 : f16
//       CHECK:   nvgpu.device_async_wait %[[R]]#2 {numGroups = 0 : i32}
//       CHECK:   %[[S2:.+]] = vector.contract {{.+}} %[[K1]] :
//       CHECK:   %[[K2:.+]] = arith.select %{{.+}}, %[[S2]], %[[K1]] : f16
//       CHECK:   return %[[K2]]
/// Without an epilogue the loop runs n times, its copies predicated, and a
/// drain follows it.
// PRED-LABEL: func.func @dynamic_trip_count
//       PRED:   arith.select
//       PRED:   nvgpu.device_async_copy
//       PRED:   arith.select
//       PRED:   nvgpu.device_async_copy
//       PRED:   scf.for %{{.+}} = %c0 to %{{.+}} step %c1
//       PRED:     %[[C:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : index
//       PRED:     nvgpu.device_async_copy {{.+}}, 8, %[[C]] :
//       PRED:   %[[DRAIN:.+]] = nvgpu.device_async_create_group{{ *$}}
//  PRED-NEXT:   nvgpu.device_async_wait %[[DRAIN]] {numGroups = 0 : i32}
// NV-LABEL: func.func @dynamic_trip_count
//       NV:   scf.for
//       NV:   arith.select
//       NV:   arith.select
//       NV:   return
func.func @dynamic_trip_count(%g: memref<128x8xf16>, %init: f16, %n: index) -> f16
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1], pipeline_depth = 3>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %smem = memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<3x8xf16, #gpu.address_space<workgroup>>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (f16) {
    %b = arith.remui %k, %c3 : index
    %buf = memref.subview %smem[%b, 0] [1, 8] [1, 1] : memref<3x8xf16, #gpu.address_space<workgroup>> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier
    %t = nvgpu.device_async_copy %g[%k, %c0], %buf[%c0], 8 : memref<128x8xf16> to memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %grp = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %grp
    gpu.barrier
    %v = vector.load %buf[%c0] : memref<8xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
    %s = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %v, %v, %acc : vector<8xf16>, vector<8xf16> into f16
    scf.yield %s : f16
  }
  return %r : f16
}

// -----

/// A register-staged copy (a vector read of global memory stored whole into
/// workgroup memory: rows too narrowly aligned for cp.async) is pipelined
/// without async copies: the prologue reads and stores step 0; each kernel
/// step reads step k + 1 into registers first, then loads and computes step
/// k, and stores step k + 1 last, into the next buffer. With no async copy,
/// the pipeline has two stages whatever the depth.
// CHECK-LABEL: func.func @register_staged
//       CHECK:   %[[V0:.+]] = vector.transfer_read %arg0[%{{.+}}, %c0], %{{.+}} {in_bounds = [true]} : memref<128x9xf16>, vector<8xf16>
//  CHECK-NEXT:   vector.store %[[V0]], %{{.+}} : memref<3x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
//       CHECK:   scf.for %{{.+}} = %c0 to %{{.+}} step %c1 iter_args(
//       CHECK:     %[[NEXT:.+]] = vector.transfer_read %arg0{{.+}} : memref<128x9xf16>, vector<8xf16>
//       CHECK:     gpu.barrier
//       CHECK:     vector.load
//       CHECK:     vector.contract
//       CHECK:     vector.store %[[NEXT]], %{{.+}} : memref<3x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
//  CHECK-NEXT:     scf.yield
//       CHECK:   gpu.barrier
//       CHECK:   vector.load
//   CHECK-NOT:   nvgpu.device_async
//       CHECK:   return
/// Without an epilogue, a step past the end reads nothing (zeros instead of
/// a read past the matrix) and stores nothing; no async group to drain.
// PRED-LABEL: func.func @register_staged
//       PRED:   scf.for %[[K:.+]] = %c0 to %c16 step %c1 iter_args(
//       PRED:     %[[IN:.+]] = arith.cmpi slt, %[[K]], %{{.+}} : index
//       PRED:     %[[V:.+]] = scf.if %[[IN]] -> (vector<8xf16>) {
//       PRED:       vector.transfer_read %arg0
//       PRED:     } else {
//       PRED:       arith.constant dense<0.000000e+00> : vector<8xf16>
//       PRED:     vector.load
//       PRED:     scf.if %[[IN]] {
//  PRED-NEXT:       vector.store %[[V]]
//   PRED-NOT:   nvgpu.device_async
//       PRED:   return
/// nvidia-tensorcore: the staged copies run a stage before the loads from
/// workgroup memory, which run a stage before the compute.
// NV-LABEL: func.func @register_staged
//       NV:   scf.for
//       NV:     %[[NEXT:.+]] = vector.transfer_read %arg0
//       NV:     gpu.barrier
//       NV:     vector.load
//       NV:     vector.contract
//       NV:     vector.store %[[NEXT]]
//  NV-NEXT:     scf.yield
func.func @register_staged(%g: memref<128x9xf16>, %init: f16) -> f16
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1], pipeline_depth = 3>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f16
  %smem = memref.alloc() {gpucg.num_buffers = 3 : i64} : memref<3x8xf16, #gpu.address_space<workgroup>>
  %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (f16) {
    %b = arith.remui %k, %c3 : index
    gpu.barrier
    %g8 = vector.transfer_read %g[%k, %c0], %pad {in_bounds = [true]} : memref<128x9xf16>, vector<8xf16>
    vector.store %g8, %smem[%b, %c0] : memref<3x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.barrier
    %v = vector.load %smem[%b, %c0] : memref<3x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %s = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %v, %v, %acc : vector<8xf16>, vector<8xf16> into f16
    scf.yield %s : f16
  }
  return %r : f16
}
