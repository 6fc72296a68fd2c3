// gpucg-test-emulate-gpu: a launch becomes a configure call and a call of
// its outlined per-thread body, whose GPU ops are emulator calls.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' \
// RUN:   | FileCheck %s
// Round trip: the output parses and verifies again.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' | gpucg-opt > /dev/null
// Without the race detector, no access reports.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-gpu{check-races=false})' \
// RUN:   | FileCheck %s --check-prefix=NORACES
// After the LLVM conversion, the call of the body becomes a launch of a
// trampoline over a closure of the body's arguments.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | FileCheck %s --check-prefix=LLVM

// CHECK: func.func private @gpucg_emu_workgroup_memory() -> memref<?xi8> attributes {llvm.emit_c_interface}

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      %[[A:.*]]: memref<64xf32>
// CHECK:         call @gpucg_emu_configure(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BYTES:.*]]) :
// CHECK:         call @kernel_emulated_thread_0(%[[A]]) : (memref<64xf32>) -> ()
// CHECK-NOT:     gpu.launch

// CHECK-LABEL: func.func private @kernel_emulated_thread_0(
// CHECK-SAME:      %[[ARG:.*]]: memref<64xf32>) attributes {gpucg_emulator.thread_body}
// CHECK:         %[[TID:.*]] = call @gpucg_emu_thread_id(%{{.*}}) : (i64) -> i64
// CHECK:         %[[MEM:.*]] = call @gpucg_emu_workgroup_memory()
// CHECK:         %[[WG:.*]] = memref.view %[[MEM]][%{{.*}}][] : memref<?xi8> to memref<64xf32>
// CHECK:         call @gpucg_emu_global_load(%{{.*}}, %c4_i64{{.*}}, %{{.*}}) : (i64, i64, !llvm.ptr) -> ()
// CHECK:         memref.load %[[ARG]]
// CHECK:         call @gpucg_emu_access(%{{.*}}, %c4_i64{{.*}}, %c1_i32{{.*}}, %{{.*}})
// CHECK:         memref.store %{{.*}}, %[[WG]]
// CHECK:         %[[S:.*]] = llvm.mlir.addressof @[[SITE:__gpucg_emu_site_[0-9]+]]
// CHECK:         call @gpucg_emu_barrier(%[[S]])
// CHECK:         call @gpucg_emu_access(%{{.*}}, %c4_i64{{.*}}, %c0_i32{{.*}}, %{{.*}})
// CHECK:         memref.load %[[WG]]
// CHECK:         %[[PACKED:.*]] = call @gpucg_emu_shuffle(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i32{{.*}}, %{{.*}}) : (i32, i32, i32, i32, !llvm.ptr) -> i64
// CHECK:         call @gpucg_emu_global_store(%{{.*}}, %c4_i64{{.*}}, %{{.*}}) : (i64, i64, !llvm.ptr) -> ()
// CHECK:         memref.store %{{.*}}, %[[ARG]]
// CHECK:         return

// NORACES-NOT: call @gpucg_emu_access(
// NORACES-NOT: call @gpucg_emu_global_

// LLVM-LABEL: llvm.func @kernel(
// LLVM:         llvm.call @gpucg_emu_configure(
// LLVM:         %[[CLOSURE:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, i64, i64)>
// LLVM:         llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// LLVM:         %[[T:.*]] = llvm.mlir.addressof @kernel_emulated_thread_0_trampoline
// LLVM:         llvm.call @gpucg_emu_launch(%[[T]], %[[CLOSURE]])
// LLVM-LABEL: llvm.func @kernel_emulated_thread_0_trampoline(
// LLVM-SAME:      %[[C:.*]]: !llvm.ptr)
// LLVM:         llvm.getelementptr %[[C]][0, 4]
// LLVM:         llvm.call @kernel_emulated_thread_0(

func.func @kernel(%a: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  %one = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%wg : memref<64xf32, #gpu.address_space<workgroup>>) {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<64xf32>
    memref.store %v, %wg[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c63, %t : index
    %u = memref.load %wg[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    %s, %ok = gpu.shuffle xor %u, %one, %w : f32
    memref.store %s, %a[%t] : memref<64xf32>
    gpu.terminator
  }
  return
}

// A launch in a host loop is outlined in place; a body name already taken
// gets a suffix.
// CHECK-LABEL: func.func @host_loop(
// CHECK:         scf.for
// CHECK:           call @gpucg_emu_configure(
// CHECK:           call @[[BODY:host_loop_emulated_thread_1_[0-9]+]]() : () -> ()
// CHECK:       func.func private @[[BODY]]() attributes {gpucg_emulator.thread_body}
// CHECK-LABEL: func.func @host_loop_emulated_thread_1()
// CHECK-NEXT:    return
// Dynamic shared memory starts after the launch's workgroup attributions
// (the 64 f32 here, 256 bytes), as in CUDA.
// CHECK-LABEL: func.func private @mixed_shared_memory_emulated_thread_2(
// CHECK:         %[[MEM:.+]] = call @gpucg_emu_workgroup_memory() : () -> memref<?xi8>
// CHECK:         memref.view %[[MEM]][%{{.+}}][] : memref<?xi8> to memref<64xf32>
// CHECK:         %[[MEM2:.+]] = call @gpucg_emu_workgroup_memory() : () -> memref<?xi8>
// CHECK:         %[[START:.+]] = arith.constant 256 : index
// CHECK:         %[[TOTAL:.+]] = memref.dim %[[MEM2]], %{{.+}} : memref<?xi8>
// CHECK:         %[[SIZE:.+]] = arith.subi %[[TOTAL]], %[[START]] : index
// CHECK:         memref.view %[[MEM2]][%[[START]]][%[[SIZE]]] : memref<?xi8> to memref<?xi8>
func.func @host_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.barrier
      gpu.terminator
    }
  }
  return
}

func.func @host_loop_emulated_thread_1() {
  return
}

func.func @mixed_shared_memory(%out: memref<f32>, %bytes_out: memref<i8>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %bytes = arith.constant 64 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes
             workgroup(%wg : memref<64xf32, #gpu.address_space<workgroup>>) {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.load %wg[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[] : memref<f32>
    %byte = memref.load %dyn[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
    memref.store %byte, %bytes_out[] : memref<i8>
    gpu.terminator
  }
  return
}


// Global memory's order between workgroups: an atomic reports its address
// (4 bytes of i32), a fence at gpu scope becomes gpucg_emu_fence, one at
// CTA scope nothing (a workgroup's barriers order its threads here); the
// load of another workgroup's store is reported.
// CHECK-LABEL: func.func private @publish_emulated_thread_3(
// CHECK-SAME:      %[[DATA:.*]]: memref<2xf32>, %[[COUNT:.*]]: memref<1xi32>
// CHECK:         call @gpucg_emu_global_store(
// CHECK:         memref.store %{{.*}}, %[[DATA]]
// CHECK:         %[[FENCE:.*]] = llvm.mlir.addressof @[[FENCE_SITE:__gpucg_emu_site_[0-9]+]]
// CHECK-NEXT:    call @gpucg_emu_fence(%[[FENCE]]) : (!llvm.ptr) -> ()
// CHECK:         call @gpucg_emu_global_atomic(%{{.*}}, %c4_i64{{.*}}, %{{.*}}) : (i64, i64, !llvm.ptr) -> ()
// CHECK-NEXT:    memref.atomic_rmw addi %{{.*}}, %[[COUNT]]
// CHECK:         call @gpucg_emu_fence(
// CHECK-NOT:     call @gpucg_emu_fence(
// CHECK:         call @gpucg_emu_global_load(
// CHECK-NEXT:    memref.load %[[DATA]]
// Each site names the op's source location.
// CHECK:       llvm.mlir.global internal constant @[[SITE]]("{{.*}}test-emulate-gpu.mlir:[[# @LINE - 82]]:5: gpu.barrier\00")
// CHECK:       llvm.mlir.global internal constant @[[FENCE_SITE]]("{{.*}}test-emulate-gpu.mlir:[[# @LINE + 10]]:5: nvvm.memory.barrier\00")
func.func @publish(%data: memref<2xf32>, %count: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %x = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %x, %data[%bx] : memref<2xf32>
    nvvm.memory.barrier #nvvm.mem_scope<gpu>
    %old = memref.atomic_rmw addi %one, %count[%c0] : (i32, memref<1xi32>) -> i32
    nvvm.memory.barrier #nvvm.mem_scope<gpu>
    nvvm.memory.barrier #nvvm.mem_scope<cta>
    %other = arith.subi %c1, %bx : index
    %v = memref.load %data[%other] : memref<2xf32>
    memref.store %v, %data[%bx] : memref<2xf32>
    gpu.terminator
  }
  return
}
