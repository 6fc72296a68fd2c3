// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' \
// RUN:   | FileCheck %s
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-gpu)' | gpucg-opt > /dev/null
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | FileCheck %s --check-prefix=LLVM

// The Hopper ops as calls of the emulator runtime: the host makes the
// tensor map from the memref's address, sizes and strides (outermost
// first), which crosses into the thread body as an i64 handle; the mbarrier
// group, the wgmma descriptors (the tile's address) and the accumulator (its
// fragment's scratch buffer, M * N / 128 f32 per thread) are i64 too. The
// TMA coordinates reach the runtime outermost first, the predicates as i32.

// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%[[A:.+]]: memref<64x64xf16>, %[[C:.+]]: memref<64x64xf32>)
// CHECK: %{{.+}}, %{{.+}}, %[[SIZES:.+]]:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[MAP:.+]] = call @gpucg_emu_tensor_map(%{{.+}}, %c2_i64, %c2_i64{{.*}}, %c128_i64, {{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) -> i64
// CHECK-NOT: nvgpu.
// CHECK: call @kernel_emulated_thread_0(%[[MAP]], %[[C]]) : (i64, memref<64x64xf32>) -> ()

// CHECK-LABEL: func.func private @kernel_emulated_thread_0
// CHECK-SAME: (%[[MAP:.+]]: i64, %[[C:.+]]: memref<64x64xf32>)
// CHECK: %[[FRAGMENT:.+]] = memref.alloca() : memref<32xf32>
// CHECK: %[[GROUP:.+]] = call @gpucg_emu_mbarrier_group(%c2_i64{{.*}}, %{{.+}}) : (i64, !llvm.ptr) -> i64
// CHECK: %[[LEADER:.+]] = arith.cmpi eq
// CHECK: %[[PRED:.+]] = arith.extui %[[LEADER]] : i1 to i32
// CHECK: call @gpucg_emu_mbarrier_init(%[[GROUP]], %{{.+}}, %{{.+}}, %[[PRED]], %{{.+}})
// CHECK: call @gpucg_emu_barrier
// CHECK: call @gpucg_emu_mbarrier_arrive(%[[GROUP]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : (i64, i64, i64, i32, !llvm.ptr) -> i64
// No multicast: a mask of 0.
// CHECK: call @gpucg_emu_tma_load(%[[MAP]], %{{.+}}, %{{.+}}, %{{.+}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %[[GROUP]], %{{.+}}, %{{[^,]+}}, %c0_i32{{[_0-9]*}}, %{{.+}}) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, i32, i32, !llvm.ptr) -> ()
// CHECK: call @gpucg_emu_mbarrier_wait(%[[GROUP]], %{{.+}}, %{{.+}}, %{{.+}}) : (i64, i64, i32, !llvm.ptr) -> ()
// CHECK: %[[TILE:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK: %[[FPTR:.+]] = memref.extract_aligned_pointer_as_index %[[FRAGMENT]]
// CHECK: %[[ACC:.+]] = arith.index_cast %[[FPTR]] : index to i64
// CHECK: call @gpucg_emu_wgmma_init(%[[ACC]], %c32_i64, %{{.+}})
// m64 n64 k64, f16 (0), both swizzles 128 bytes, B N-major, one group in flight.
// CHECK: call @gpucg_emu_wgmma(%[[ACC]], %[[TILE]], %[[TILE]], %c64_i32{{.*}}, %c64_i32{{.*}}, %c64_i32{{.*}}, %c0_i32{{.*}}, %c128_i32{{.*}}, %c128_i32{{.*}}, %c1_i32{{.*}}, %c1_i32{{.*}}, %{{.+}})
// CHECK: call @gpucg_emu_wgmma_wait(%c0_i32{{.*}}, %{{.+}})
// CHECK: call @gpucg_emu_wgmma_store(%[[ACC]], %c64_i32{{.*}}, %c64_i32{{.*}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}})
// CHECK-NOT: nvgpu.
// CHECK-NOT: nvvm.
// CHECK: return

// LLVM: llvm.call @gpucg_emu_tensor_map
// LLVM: llvm.call @gpucg_emu_launch
// LLVM: llvm.call @gpucg_emu_wgmma(

!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!da = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
func.func @kernel(%a: memref<64x64xf16>, %c: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %u = memref.cast %a : memref<64x64xf16> to memref<*xf16>
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             workgroup(%wg : memref<64x64xf16, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %tx_bytes = arith.constant 8192 : index
    %ticks = arith.constant 1000 : index
    %false = arith.constant false
    %b = nvgpu.mbarrier.create -> !barriers
    %leader = arith.cmpi eq, %tx, %c0 : index
    nvgpu.mbarrier.init %b[%c1], %c1, predicate = %leader : !barriers
    gpu.barrier
    nvgpu.mbarrier.arrive.expect_tx %b[%c1], %tx_bytes, predicate = %leader : !barriers
    nvgpu.tma.async.load %m[%c0, %c0], %b[%c1] to %wg, predicate = %leader : !map, !barriers -> memref<64x64xf16, #gpu.address_space<workgroup>>
    nvgpu.mbarrier.try_wait.parity %b[%c1], %false, %ticks : !barriers
    %d = nvgpu.warpgroup.generate.descriptor %wg, %m : memref<64x64xf16, #gpu.address_space<workgroup>>, !map -> !da
    %acc = nvgpu.warpgroup.mma.init.accumulator -> !acc
    %r = nvgpu.warpgroup.mma %d, %d, %acc {transposeB} : !da, !da, !acc -> !acc
    nvvm.wgmma.wait.group.sync.aligned 0
    nvgpu.warpgroup.mma.store %r, %c : !acc to memref<64x64xf32>
    gpu.terminator
  }
  return
}
