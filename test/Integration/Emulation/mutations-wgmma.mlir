// Mutation tests of gpucg-matmul-wgmma's output: each planted bug in the
// mbarrier protocol or the wgmma groups is caught, by a report (a wait no
// arrival can complete, an accumulator read in flight) or by wrong numbers.
// Kernels: warp specialized (two consumers, two stages, K = 256: every
// stage refilled once) and one warpgroup (two stages, K = 256).
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.clean
// RUN: diff %t.ref %t.clean

// The consumers' wait for a full stage: they run ahead and release stages
// the producer has not refilled; it falls two phases behind its empty
// barrier.
// RUN: %mutate drop-mbarrier-wait 1 < %t.mlir > %t.m0.mlir
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: gpucg-emulator: error: workgroup (0, 0, 0): deadlock: thread (256, 0, 0) waits at {{.*}}nvgpu.mbarrier.try_wait.parity for the phase of parity 0 of an mbarrier at phase 2 with 256 of 256 arrivals

// The producer's wait for a released stage: it refills both rounds before
// the consumers saw the first.
// RUN: %mutate drop-mbarrier-wait 2 < %t.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: gpucg-emulator: error: workgroup (0, 0, 0): deadlock: thread (0, 0, 0) waits at {{.*}}nvgpu.mbarrier.try_wait.parity for the phase of parity 0 of an mbarrier at phase 2 with 1 of 1 arrivals

// One warpgroup's wait for a full stage: the data it reads has not landed
// (GPUCG_EMU_TMA=wait: TMA data lands when a thread waits for it).
// RUN: %mutate drop-mbarrier-wait 3 < %t.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.m2.emu.mlir
// RUN: env GPUCG_EMU_TMA=wait %mlir_runner_emulated %t.m2.emu.mlir | %strip_address > %t.m2
// RUN: not diff -q %t.ref %t.m2

// A wgmma group more in flight: the consumers release (and the one
// warpgroup refills) a stage that a group still reads.
// RUN: %mutate deepen-wgmma 1 < %t.mlir > %t.m3.mlir
// RUN: gpucg-opt %t.m3.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m3
// RUN: not diff -q %t.ref %t.m3
// RUN: %mutate deepen-wgmma 2 < %t.mlir > %t.m4.mlir
// RUN: gpucg-opt %t.m4.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m4
// RUN: not diff -q %t.ref %t.m4

// The wait for the last groups before the store.
// RUN: %mutate drop-wgmma-wait 1 < %t.mlir > %t.m5.mlir
// RUN: gpucg-opt %t.m5.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=STORE
// STORE: gpucg-emulator: error: {{.*}}nvgpu.warpgroup.mma.store: reads an accumulator that the wgmma group of {{.*}}nvgpu.warpgroup.mma still writes (no nvvm.wgmma.wait.group.sync retired it)

// One warpgroup's barrier before thread 0 refills a stage: it runs two
// phases ahead of the others.
// RUN: %mutate drop-barrier 3 < %t.mlir > %t.m6.mlir
// RUN: gpucg-opt %t.m6.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER: gpucg-emulator: error: workgroup (0, 0, 0): deadlock: thread (1, 0, 0) waits at {{.*}}nvgpu.mbarrier.try_wait.parity

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @warp_specialized(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r : tensor<128x128xf32>
  }
  func.func @one_warpgroup(%a: tensor<64x256xbf16>, %b: tensor<256x128xbf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
    %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
      ins(%a, %b : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %r : tensor<64x128xf32>
  }
  func.func @main() {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %warp_specialized_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<128x256xf16>
    %warp_specialized_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to f16
      tensor.yield %e : f16
    } : tensor<256x128xf16>
    %warp_specialized_c = tensor.empty() : tensor<128x128xf32>
    %warp_specialized_r = func.call @warp_specialized(%warp_specialized_a, %warp_specialized_b, %warp_specialized_c) : (tensor<128x256xf16>, tensor<256x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %warp_specialized_m = bufferization.to_buffer %warp_specialized_r : tensor<128x128xf32> to memref<128x128xf32>
    %warp_specialized_u = memref.cast %warp_specialized_m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%warp_specialized_u) : (memref<*xf32>) -> ()
    %one_warpgroup_a = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<64x256xbf16>
    %one_warpgroup_b = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2_i32 : i32
      %e = arith.sitofp %w : i32 to bf16
      tensor.yield %e : bf16
    } : tensor<256x128xbf16>
    %one_warpgroup_c = tensor.empty() : tensor<64x128xf32>
    %one_warpgroup_r = func.call @one_warpgroup(%one_warpgroup_a, %one_warpgroup_b, %one_warpgroup_c) : (tensor<64x256xbf16>, tensor<256x128xbf16>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %one_warpgroup_m = bufferization.to_buffer %one_warpgroup_r : tensor<64x128xf32> to memref<64x128xf32>
    %one_warpgroup_u = memref.cast %one_warpgroup_m : memref<64x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%one_warpgroup_u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
