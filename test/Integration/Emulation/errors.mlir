// The emulator's run-time reports on hand-written launches: each bug is
// named with its op's location, not hung on or computed around.
// RUN: rm -rf %t && mkdir -p %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t/ll.mlir

// The correct kernel runs (thread i reads thread 63-i's value after a
// barrier, then a butterfly shuffle swaps neighbours).
// RUN: %mlir_runner_emulated -e correct %t/ll.mlir | FileCheck %s --check-prefix=CORRECT
// CORRECT: [62,  63,  60,  61,

// RUN: not %mlir_runner_emulated -e divergent_barrier %t/ll.mlir 2>&1 | FileCheck %s --check-prefix=DIVERGENT
// DIVERGENT: gpucg-emulator: error: {{.*}}errors.mlir:[[# @LINE + 32]]:7: gpu.barrier: reached by 32 of 64 threads of workgroup (0, 0, 0); thread (32, 0, 0) returned without reaching it

// RUN: not %mlir_runner_emulated -e missing_barrier %t/ll.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: gpucg-emulator: error: race on workgroup memory at byte offset {{[0-9]+}} of workgroup (0, 0, 0)
// RACE-SAME: thread (31, 0, 0) read it at {{.*}}errors.mlir:[[# @LINE + 47]]:10: memref.load and thread (32, 0, 0) wrote it at {{.*}}errors.mlir:[[# @LINE + 45]]:5: memref.store with no gpu.barrier between

// RUN: not %mlir_runner_emulated -e divergent_shuffle %t/ll.mlir 2>&1 | FileCheck %s --check-prefix=WARP
// WARP: gpucg-emulator: error: {{.*}}errors.mlir:[[# @LINE + 64]]:17: gpu.shuffle: reached by 16 of 32 lanes of warp 0 of workgroup (0, 0, 0); lane 16, thread (16, 0, 0), returned without reaching it

func.func private @printMemrefF32(memref<*xf32>)

func.func @init(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %a[%i] : memref<64xf32>
  }
  return
}

func.func @divergent_barrier() {
  %a = memref.alloc() : memref<64xf32>
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %low = arith.cmpi ult, %tx, %c32 : index
    scf.if %low {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

func.func @missing_barrier() {
  %a = memref.alloc() : memref<64xf32>
  func.call @init(%a) : (memref<64xf32>) -> ()
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%wg : memref<64xf32, #gpu.address_space<workgroup>>) {
    %v = memref.load %a[%tx] : memref<64xf32>
    memref.store %v, %wg[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %r = arith.subi %c63, %tx : index
    %u = memref.load %wg[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %u, %a[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

func.func @divergent_shuffle() {
  %a = memref.alloc() : memref<64xf32>
  func.call @init(%a) : (memref<64xf32>) -> ()
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %width = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<64xf32>
    %low = arith.cmpi ult, %tx, %c16 : index
    scf.if %low {
      %s, %ok = gpu.shuffle xor %v, %one, %width : f32
      memref.store %s, %a[%tx] : memref<64xf32>
    }
    gpu.terminator
  }
  return
}

func.func @correct() {
  %a = memref.alloc() : memref<64xf32>
  func.call @init(%a) : (memref<64xf32>) -> ()
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %width = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%wg : memref<64xf32, #gpu.address_space<workgroup>>) {
    %v = memref.load %a[%tx] : memref<64xf32>
    memref.store %v, %wg[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c63, %tx : index
    %u = memref.load %wg[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    %s, %ok = gpu.shuffle xor %u, %one, %width : f32
    memref.store %s, %a[%tx] : memref<64xf32>
    gpu.terminator
  }
  %p = memref.cast %a : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  return
}

// RUN: not %mlir_runner_emulated -e copy_past_row %t/ll.mlir 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: gpucg-emulator: error: async copy out of bounds: thread (1, 0, 0) of workgroup (0, 0, 0) reads indices [4, 8) of dimension 1 (of 2, 0 outermost) of its source, whose size there is 6, at {{.*}}errors.mlir:[[# @LINE + 17]]:10: nvgpu.device_async_copy

// Two threads copy the last columns of a row of 6 f16 into workgroup memory
// with a source size: thread 0 the 2 that are there (and 2 zeros), thread 1
// 4, past the row.
func.func @copy_past_row() {
  %g = memref.alloc() : memref<8x6xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1)
             workgroup(%wg : memref<8xf16, #gpu.address_space<workgroup>>) {
    %twice = arith.muli %tx, %c2 : index
    %count = arith.addi %twice, %c2 : index
    %dst = arith.muli %tx, %c4 : index
    %t = nvgpu.device_async_copy %g[%c0, %c4], %wg[%dst], 4, %count : memref<8x6xf16> to memref<8xf16, #gpu.address_space<workgroup>>
    %group = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %group
    gpu.terminator
  }
  return
}
