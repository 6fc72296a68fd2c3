// A batched row maximum, 3x50 rows of 36 f32 with an elementwise negation
// fused into the reduction: too short for a warp per row, so the strategy
// plans Vectorize; the 50 rows of a batch are one whole workgroup tile of
// 64 threads (14 idle), each thread reading its row 4 elements at a time.
// The threads' loop over rows (0 or 1 iterations, not provably one) sits
// inside the K loop, so the maximum goes through memory each K step. Through the in-workgroup stages
// gpucg-compile runs (gpucg-vectorize's), then on the CPU, bit-exact with
// the untiled kernel.

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.vector
// RUN: diff %t.ref %t.vector
// RUN: FileCheck %s --check-prefix=OUT < %t.vector
// OUT: rank = 2 offset = 0 sizes = [3, 50]

// What ran is the vectorized kernel:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=VECTOR
// VECTOR-LABEL: func.func @kernel
// VECTOR-SAME: gpu.known_grid_size = array<i32: 1, 3, 1>
// VECTOR-SAME: pipeline = Vectorize, workgroup_size = [64, 1, 1]
// VECTOR-NOT: scf.if
// VECTOR: scf.for {{.*}} step %c4
// VECTOR: scf.for %{{.+}} = %thread_id_x to %c50 step %c64
// VECTOR: vector.transfer_read {{.*}} : memref<3x50x36xf32>, vector<4xf32>
// VECTOR: arith.negf {{.*}} : vector<4xf32>
// VECTOR: vector.multi_reduction <maximumf>, {{.*}} [2] : vector<1x1x4xf32> to vector<1x1xf32>

func.func @kernel(%a: tensor<3x50x36xf32>, %c: tensor<3x50xf32>) -> tensor<3x50xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a : tensor<3x50x36xf32>) outs(%c : tensor<3x50xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %n = arith.negf %x : f32
    %m = arith.maximumf %n, %acc : f32
    linalg.yield %m : f32
  } -> tensor<3x50xf32>
  return %0 : tensor<3x50xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c5_i32 = arith.constant 5 : i32
  %c40_i32 = arith.constant 40 : i32
  %a = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 7 + d1 * 3 + d2 * 11) mod 83)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c40_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<3x50x36xf32>
  %c = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 2) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c5_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<3x50xf32>
  %r = func.call @kernel(%a, %c) : (tensor<3x50x36xf32>, tensor<3x50xf32>) -> tensor<3x50xf32>
  %m = bufferization.to_buffer %r : tensor<3x50xf32> to memref<3x50xf32>
  %u = memref.cast %m : memref<3x50xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
