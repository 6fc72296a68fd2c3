// Mutation tests of gpucg-matmul-simt's output for a multi-warp MatmulSimt
// kernel (tiles of A and B copied into workgroup memory each K step): each
// removed barrier is caught by the race detector and, without it
// (check-races=false), by wrong numbers.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-simt{chip=sm_80})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.clean
// RUN: diff %t.ref %t.clean

// The barrier before a K step's tiles of A and B are overwritten: a fast warp overwrites what a slow one still reads.
// RUN: %mutate drop-barrier 1 < %t.mlir > %t.m0.mlir
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE0
// RACE0: gpucg-emulator: error: race on workgroup memory
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m0
// RUN: not diff -q %t.ref %t.m0

// The barrier between the copies of A and B into workgroup memory and their reads.
// RUN: %mutate drop-barrier 3 < %t.mlir > %t.m1.mlir
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE1
// RACE1: gpucg-emulator: error: race on workgroup memory
// RUN: gpucg-opt %t.m1.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m1
// RUN: not diff -q %t.ref %t.m1

func.func @kernel(%in0: tensor<128x40xf32>, %in1: tensor<40x64xf32>, %out: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %r = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 8]]>,
      translation_info = #gpucg.translation_info<pipeline = MatmulSimt, workgroup_size = [16, 16, 1]>>}
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
