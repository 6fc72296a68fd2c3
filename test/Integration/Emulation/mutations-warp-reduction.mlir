// Mutation test of gpucg-warp-reduction's output (rows of 4096 f32 over a
// workgroup, warp partials through workgroup memory): its one barrier
// removed is caught by the race detector and, without it
// (check-races=false), by wrong numbers.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.clean
// RUN: diff %t.ref %t.clean

// The barrier between the warps' partial sums in workgroup memory and their reduction.
// RUN: %mutate drop-barrier 1 < %t.mlir > %t.m0.mlir
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=RACE0
// RACE0: gpucg-emulator: error: race on workgroup memory
// RACE0-SAME: memref.load
// RUN: gpucg-opt %t.m0.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.m0
// RUN: not diff -q %t.ref %t.m0

func.func @kernel(%in0: tensor<16x4096xf32>, %out: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in0 : tensor<16x4096xf32>) outs(%out : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
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
  } : tensor<16x4096xf32>
  %kernel_1 = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 2) mod 5)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<16xf32>
  %kernel_r = func.call @kernel(%kernel_0, %kernel_1) : (tensor<16x4096xf32>, tensor<16xf32>) -> tensor<16xf32>
  %kernel_m = bufferization.to_buffer %kernel_r : tensor<16xf32> to memref<16xf32>
  %kernel_u = memref.cast %kernel_m : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%kernel_u) : (memref<*xf32>) -> ()
  return
}
