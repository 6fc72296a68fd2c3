// Mutation tests of gpucg-matmul-simt's output for a software-pipelined
// MatmulSimt kernel (pipeline_depth = 2: the cp.async copies of the next K
// step's tiles of A and B in flight while the current one computes): each
// removed barrier is caught by the race detector and, without it, by wrong
// numbers; a wait that leaves the current step's copies pending reads
// workgroup memory they have not written yet (wrong numbers).
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-simt{chip=sm_80})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// IR: gpu.barrier
// IR: scf.for
// IR-NEXT: gpu.barrier
// IR: nvgpu.device_async_copy
// IR: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// IR-NEXT: gpu.barrier
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.clean
// RUN: diff %t.ref %t.clean

// The barrier before the copies into the stage the previous K step read: a
// fast warp's copies may overwrite what a slow one still reads. The
// emulator lands copies at their wait, the latest moment, so the numbers
// stay right; the race detector, which counts the issue as a write, is
// what catches it.
// RUN: %mutate drop-barrier 2 < %t.mlir > %t.m0.mlir
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE0
// RACE0: gpucg-emulator: error: race on workgroup memory {{.*}} nvgpu.device_async_copy

// The barrier after the wait: a warp reads what other warps' copies have
// not landed yet.
// RUN: %mutate drop-barrier 3 < %t.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE1
// RACE1: gpucg-emulator: error: race on workgroup memory
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1

// The loop's wait leaves two groups pending, the current step's included.
// RUN: %mutate weaken-wait 1 < %t.mlir > %t.m2.mlir
// RUN: gpucg-opt %t.m2.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m2
// RUN: not diff -q %t.ref %t.m2

func.func @kernel(%in0: tensor<128x40xf32>, %in1: tensor<40x64xf32>, %out: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 8]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [8, 8, 1], pipeline_depth = 2>>}
    ins(%in0, %in1 : tensor<128x40xf32>, tensor<40x64xf32>) outs(%out : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %kernel_0 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<128x40xf32>
  %kernel_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<40x64xf32>
  %kernel_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<128x64xf32>
  %kernel_r = func.call @kernel(%kernel_0, %kernel_1, %kernel_2) : (tensor<128x40xf32>, tensor<40x64xf32>, tensor<128x64xf32>) -> tensor<128x64xf32>
  %kernel_m = bufferization.to_buffer %kernel_r : tensor<128x64xf32> to memref<128x64xf32>
  %kernel_u = memref.cast %kernel_m : memref<128x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%kernel_u) : (memref<*xf32>) -> ()
  return
}
