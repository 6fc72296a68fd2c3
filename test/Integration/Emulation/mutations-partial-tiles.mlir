// Mutation tests of the zero-padded partial tiles (40 x 40 x 40 f16 on
// 32 x 32 x 32 tiles: partial in M and N, and a K tail of 8): one bug
// planted in gpucg-matmul-mma-sync's output must give wrong numbers in at
// least one of the two thread orders (each run's output is compared with
// the untiled kernel's, twice). The clean kernel matches in both.

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: cat %t.ref %t.ref > %t.ref2
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80 depth=2})' \
// RUN:   --mlir-print-debuginfo -o %t.mlir
// RUN: gpucg-opt %t.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.clean.mlir
// RUN: %mlir_runner_emulated < %t.clean.mlir | %strip_address > %t.clean
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated < %t.clean.mlir | %strip_address >> %t.clean
// RUN: diff %t.ref2 %t.clean

// Every zero fill dropped: the async copies of the K tail read whole
// vectors at their clamped (in-bounds) indices, so the columns of A and
// the rows of B past K hold copies of the last ones instead of zeros, and
// their products reach C.
// RUN: %mutate drop-zero-fill < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.no-fill.mlir
// RUN: %mlir_runner_emulated < %t.no-fill.mlir | %strip_address > %t.no-fill
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated < %t.no-fill.mlir | %strip_address >> %t.no-fill
// RUN: not diff -q %t.ref2 %t.no-fill

// One edge store of the partial tile unmasked: a thread whose vector lies
// past C writes it whole at its clamped index, over elements that another
// thread stores (threads in order: the stray store lands last).
// RUN: %mutate unmask-edge-store 1 < %t.mlir \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.unmasked.mlir
// RUN: %mlir_runner_emulated < %t.unmasked.mlir | %strip_address > %t.unmasked
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated < %t.unmasked.mlir | %strip_address >> %t.unmasked
// RUN: not diff -q %t.ref2 %t.unmasked

func.func @kernel(%a: tensor<40x40xf16>, %b: tensor<40x40xf16>, %c: tensor<40x40xf32>) -> tensor<40x40xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<40x40xf32>) -> tensor<40x40xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<40x40xf16>, tensor<40x40xf16>) outs(%f : tensor<40x40xf32>) -> tensor<40x40xf32>
  return %0 : tensor<40x40xf32>
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
  } : tensor<40x40xf16>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<40x40xf16>
  %c = tensor.empty() : tensor<40x40xf32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<40x40xf16>, tensor<40x40xf16>, tensor<40x40xf32>) -> tensor<40x40xf32>
  %m = bufferization.to_buffer %r : tensor<40x40xf32> to memref<40x40xf32>
  %u = memref.cast %m : memref<40x40xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
