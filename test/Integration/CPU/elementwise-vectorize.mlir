// Elementwise add (33x1000 f32): the vectorize strategy, 512 columns per
// workgroup; 1000 = 512 + 488 leaves a partial tile in each row.

// The untiled kernel, run as is, is the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// The kernel through the workgroup stages, workgroups run one after another.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// Every element must be equal.
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 2 offset = 0 sizes = [33, 1000]
// And through the in-workgroup stages (gpucg-vectorize's), each thread's
// 4 columns as one vector:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.vector
// RUN: diff %t.ref %t.vector
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup))' \
// RUN:   | FileCheck %s --check-prefix=VECTOR
// VECTOR-LABEL: func.func @kernel
// VECTOR: scf.if
// VECTOR-COUNT-2: vector.transfer_read {{.*}} vector<4xf32>
// VECTOR: arith.addf {{.*}} : vector<4xf32>
// VECTOR: vector.transfer_write {{.*}} vector<4xf32>
// VECTOR: } else {

// The strategy this test exercises:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY-LABEL: func.func @kernel
// STRATEGY-SAME: pipeline = Vectorize

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=TILED
// TILED-LABEL: func.func @kernel
// TILED: scf.if

func.func @kernel(%a: tensor<33x1000xf32>, %b: tensor<33x1000xf32>) -> tensor<33x1000xf32> {
  %e = tensor.empty() : tensor<33x1000xf32>
  %0 = linalg.add ins(%a, %b : tensor<33x1000xf32>, tensor<33x1000xf32>) outs(%e : tensor<33x1000xf32>) -> tensor<33x1000xf32>
  return %0 : tensor<33x1000xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<33x1000xf32>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<33x1000xf32>
  %r = func.call @kernel(%a, %b) : (tensor<33x1000xf32>, tensor<33x1000xf32>) -> tensor<33x1000xf32>
  %m = bufferization.to_buffer %r : tensor<33x1000xf32> to memref<33x1000xf32>
  %u = memref.cast %m : memref<33x1000xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
