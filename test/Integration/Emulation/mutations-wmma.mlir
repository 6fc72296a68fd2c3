// Mutation tests of gpucg-matmul-tensorcore's output (WMMA, three stages of
// async copies, padded workgroup memory): each planted bug is caught by the
// race detector and, without it (check-races=false), by wrong numbers.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-tensorcore{chip=sm_80 depth=3})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.clean
// RUN: diff %t.ref %t.clean

// The barrier between the landing of a stage's copies and its WMMA loads.
// RUN: %mutate drop-barrier 4 < %t.mlir > %t.m0.mlir
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE0
// RACE0: gpucg-emulator: error: race on workgroup memory
// RACE0-SAME: gpu.subgroup_mma_load_matrix
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m0
// RUN: not diff -q %t.ref %t.m0

// The wait in the pipelined loop leaves one more group in flight.
// RUN: %mutate weaken-wait 1 < %t.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE1
// RACE1: gpucg-emulator: error: race on workgroup memory
// RACE1-SAME: nvgpu.device_async_copy
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1

func.func @kernel(%in0: tensor<64x128xf16>, %in1: tensor<128x64xf16>, %out: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%in0, %in1 : tensor<64x128xf16>, tensor<128x64xf16>) outs(%out : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
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
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<64x128xf16>
  %kernel_1 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<128x64xf16>
  %kernel_2 = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<64x64xf32>
  %kernel_r = func.call @kernel(%kernel_0, %kernel_1, %kernel_2) : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %kernel_m = bufferization.to_buffer %kernel_r : tensor<64x64xf32> to memref<64x64xf32>
  %kernel_u = memref.cast %kernel_m : memref<64x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%kernel_u) : (memref<*xf32>) -> ()
  return
}
