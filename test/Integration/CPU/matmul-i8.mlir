// i8 x i8 -> i32 matmul (32x32x64): integer mma.sync (m16n8k32) strategy,
// one 32x32 workgroup tile with a 64-deep K tile.

// The untiled kernel, run as is, is the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// The kernel through the workgroup stages, workgroups run one after another.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// Every element must be equal.
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 2 offset = 0 sizes = [32, 32]

// The strategy this test exercises:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY-LABEL: func.func @kernel
// STRATEGY-SAME: pipeline = MatmulTensorCoreMmaSync
// STRATEGY: tile_sizes = {{\[}}[32, 32, 64]

func.func @kernel(%a: tensor<32x64xi8>, %b: tensor<64x32xi8>, %c: tensor<32x32xi32>) -> tensor<32x32xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xi8>, tensor<64x32xi8>) outs(%c : tensor<32x32xi32>) -> tensor<32x32xi32>
  return %0 : tensor<32x32xi32>
}

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<32x64xi8>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<64x32xi8>
  %c = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.addi %w, %c0_i32 : i32
    tensor.yield %e : i32
  } : tensor<32x32xi32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<32x64xi8>, tensor<64x32xi8>, tensor<32x32xi32>) -> tensor<32x32xi32>
  %m = bufferization.to_buffer %r : tensor<32x32xi32> to memref<32x32xi32>
  %u = memref.cast %m : memref<32x32xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
