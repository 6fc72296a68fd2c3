// Mutation tests: one bug planted in gpucg-matmul-mma-sync's output (three
// stages of async copies, swizzled workgroup memory) must make the emulated
// kernel fail. Each is caught twice over: by the race detector, and without
// it (check-races=false) by wrong numbers (poisoned or stale workgroup
// memory, a wrong fragment). The clean kernel passes both ways.

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 depth=3})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.clean
// RUN: diff %t.ref %t.clean
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.clean-unchecked
// RUN: diff %t.ref %t.clean-unchecked

// The barrier between the landing of a stage's copies and its ldmatrix
// reads (the one in the pipelined loop).
// RUN: %mutate drop-barrier 4 < %t.mlir > %t.no-barrier.mlir
// RUN: gpucg-opt %t.no-barrier.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | not %mlir_runner_emulated 2>&1 | FileCheck %s --check-prefix=NO-BARRIER
// NO-BARRIER: gpucg-emulator: error: race on workgroup memory
// NO-BARRIER-SAME: mutations-mma-sync.mlir:{{[0-9]+}}:{{[0-9]+}}: nvgpu.ldmatrix
// RUN: gpucg-opt %t.no-barrier.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.no-barrier
// RUN: not diff -q %t.ref %t.no-barrier

// The wait in the pipelined loop leaves one more group in flight: the
// stage about to be read has not landed.
// RUN: %mutate weaken-wait 1 < %t.mlir > %t.weak-wait.mlir
// RUN: grep -q 'device_async_wait .*numGroups = 3' %t.weak-wait.mlir
// RUN: gpucg-opt %t.weak-wait.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu{check-races=false})' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.weak-wait
// RUN: not diff -q %t.ref %t.weak-wait

// One ldmatrix with the wrong transpose: the fragment is wrong, no race.
// RUN: %mutate flip-transpose 2 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.flipped
// RUN: not diff -q %t.ref %t.flipped

// The XOR swizzle applied when the copies write workgroup memory but not
// when ldmatrix reads it.
// RUN: %mutate unswizzle-reads < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.unswizzled
// RUN: not diff -q %t.ref %t.unswizzled

func.func @kernel(%a: tensor<64x128xf16>, %b: tensor<128x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x128xf16>, tensor<128x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<64x128xf16>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<128x64xf16>
  %c = tensor.empty() : tensor<64x64xf32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = bufferization.to_buffer %r : tensor<64x64xf32> to memref<64x64xf32>
  %u = memref.cast %m : memref<64x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
