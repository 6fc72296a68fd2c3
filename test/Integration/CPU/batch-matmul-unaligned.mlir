// Batch matmul (3 x 20x24x16, f32 as TF32): batch on grid z, 16x16 tiles
// with partial ones in M and N.

// The untiled kernel, run as is, is the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// The kernel through the workgroup stages, workgroups run one after another.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// Every element must be equal.
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 3 offset = 0 sizes = [3, 20, 24]

// The strategy this test exercises:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY-LABEL: func.func @kernel
// STRATEGY-SAME: pipeline = MatmulTensorCore,
// STRATEGY: tile_sizes = {{\[}}[1, 16, 16, 16]

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=TILED
// TILED-LABEL: func.func @kernel
// TILED: mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]

func.func @kernel(%a: tensor<3x20x16xf32>, %b: tensor<3x16x24xf32>, %c: tensor<3x20x24xf32>) -> tensor<3x20x24xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<3x20x16xf32>, tensor<3x16x24xf32>) outs(%c : tensor<3x20x24xf32>) -> tensor<3x20x24xf32>
  return %0 : tensor<3x20x24xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %a = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 3 + d2 * 5) mod 7)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<3x20x16xf32>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 2 + d2 * 3) mod 5)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<3x16x24xf32>
  %c = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 1 + d2 * 1) mod 3)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<3x20x24xf32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<3x20x16xf32>, tensor<3x16x24xf32>, tensor<3x20x24xf32>) -> tensor<3x20x24xf32>
  %m = bufferization.to_buffer %r : tensor<3x20x24xf32> to memref<3x20x24xf32>
  %u = memref.cast %m : memref<3x20x24xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
