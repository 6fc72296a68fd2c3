// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(convert-nvgpu-to-nvvm,canonicalize,cse))' | FileCheck %s

// What MLIR 22's lowering of nvgpu.warpgroup.mma.store does, which the CPU
// emulator's gpucg_emu_wgmma_store mirrors and gpucg-lower-matmul-to-wgmma
// works around: each thread places its rows by its absolute thread id
// (16 rows per warp, warps past the first warpgroup too), and the second
// 64-row block of a 128-row accumulator goes N/2 rows (the elements a
// thread holds of the first block), not 64, below the first: here, with
// N = 64, 32. When this test fails, upstream changed the lowering: update
// the emulator's store (runtime/emulator/EmulatorHopper.c) and the workaround.

// CHECK-LABEL: func.func @store_128x64
// CHECK-DAG: %[[C16:.+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C32:.+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WARP:.+]] = llvm.udiv %[[TID]], %[[C32]]
// CHECK: %[[WARP_ROWS:.+]] = llvm.mul %[[WARP]], %[[C16]]
// CHECK: %[[ROW:.+]] = llvm.add %{{.+}}, %[[WARP_ROWS]]
// The second block: row + 32.
// CHECK: %[[ROW1:.+]] = llvm.add %[[ROW]], %[[C32]] : i32
// CHECK: %[[ROW1_0:.+]] = llvm.add %[[ROW1]], %{{.+}} : i32
// CHECK: %[[I1:.+]] = arith.index_cast %[[ROW1_0]] : i32 to index
// CHECK: llvm.extractvalue %{{.+}}[1, 0]
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[I1]], %{{.+}}] : memref<128x64xf32>
func.func @store_128x64(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>>, %d: memref<128x64xf32>) {
  nvgpu.warpgroup.mma.store %acc, %d : !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>> to memref<128x64xf32>
  return
}
