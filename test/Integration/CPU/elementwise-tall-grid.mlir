// An elementwise add of 70000 rows of 8 f32: one workgroup tile per row
// would be 70000 workgroups along grid y, over CUDA's 65535, so the strategy
// gives each workgroup 2 rows (grid y 35000) and each thread loops over
// them. Through the in-workgroup stages gpucg-compile runs (gpucg-vectorize's)
// and on the CPU, bit-exact with the untiled kernel.

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 2 offset = 0 sizes = [70000, 8]

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=PLAN
// PLAN-LABEL: func.func @kernel
// PLAN-SAME: gpu.known_grid_size = array<i32: 1, 35000, 1>
// PLAN-SAME: pipeline = Vectorize, workgroup_size = [2, 1, 1]
// PLAN: vector.transfer_read {{.*}} vector<4xf32>

func.func @kernel(%a: tensor<70000x8xf32>, %b: tensor<70000x8xf32>, %c: tensor<70000x8xf32>) -> tensor<70000x8xf32> {
  %0 = linalg.add ins(%a, %b : tensor<70000x8xf32>, tensor<70000x8xf32>) outs(%c : tensor<70000x8xf32>) -> tensor<70000x8xf32>
  return %0 : tensor<70000x8xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c3_i32 = arith.constant 3 : i32
  %c2_i32 = arith.constant 2 : i32
  %a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<70000x8xf32>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<70000x8xf32>
  %c = tensor.empty() : tensor<70000x8xf32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<70000x8xf32>, tensor<70000x8xf32>, tensor<70000x8xf32>) -> tensor<70000x8xf32>
  %m = bufferization.to_buffer %r : tensor<70000x8xf32> to memref<70000x8xf32>
  %u = memref.cast %m : memref<70000x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
