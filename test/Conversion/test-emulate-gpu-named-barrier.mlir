// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' | FileCheck %s
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' | gpucg-opt > /dev/null

// nvvm.barrier in the emulator: without an id or a count it is
// gpu.barrier (bar.sync 0 of the whole workgroup); with either, a named
// barrier whose missing count (0) is the whole workgroup (the verifier
// wants an id with a count).

// CHECK-LABEL: func.func private @kernel_emulated_thread_0(
// CHECK:         call @gpucg_emu_barrier(%{{.+}}) : (!llvm.ptr) -> ()
// CHECK:         call @gpucg_emu_named_barrier(%[[ID:.+]], %[[N:.+]], %{{.+}}) : (i32, i32, !llvm.ptr) -> ()
// CHECK:         call @gpucg_emu_named_barrier(%[[ID]], %c0_i32{{.*}}, %{{.+}}) : (i32, i32, !llvm.ptr) -> ()
func.func @kernel() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %id = arith.constant 3 : i32
  %n = arith.constant 64 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    nvvm.barrier
    nvvm.barrier id = %id number_of_threads = %n
    nvvm.barrier id = %id
    gpu.terminator
  }
  return
}
