// The seed reduction, 100000 rows of 100 f32 (Vectorize: 256 rows per
// workgroup of 64 threads, 4 rows and a K step of 4 per thread; a partial
// last tile of 160 rows) through the in-workgroup stages gpucg-compile runs
// for it (gpucg-vectorize's): the full tiles as vectors with the
// accumulators in registers across the K loop, the partial one as scalar
// loops.

// The untiled kernel, run as is, is the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// The kernel through the front stages and gpucg-lower-workgroup (the SIMT
// in-workgroup stages); threads, then workgroups, run one after another.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// Every element must be equal.
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 1 offset = 0 sizes = [100000]

// What ran above is the vectorized kernel:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup))' \
// RUN:   | FileCheck %s --check-prefix=VECTOR
// VECTOR-LABEL: func.func @kernel
// VECTOR: scf.if
// VECTOR: scf.for {{.*}} iter_args({{.*}}) -> (vector<4xf32>)
// VECTOR: vector.multi_reduction <add>, {{.*}} [1] : vector<4x4xf32> to vector<4xf32>
// VECTOR: } else {
// VECTOR: memref.load

func.func @kernel(%a: tensor<100000x100xf32>, %b: tensor<100000x100xf32>, %c: tensor<100000xf32>) -> tensor<100000xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a, %b : tensor<100000x100xf32>, tensor<100000x100xf32>) outs(%c : tensor<100000xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  } -> tensor<100000xf32>
  return %0 : tensor<100000xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

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
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<100000x100xf32>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<100000x100xf32>
  %c = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 1) mod 3)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<100000xf32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<100000x100xf32>, tensor<100000x100xf32>, tensor<100000xf32>) -> tensor<100000xf32>
  %m = bufferization.to_buffer %r : tensor<100000xf32> to memref<100000xf32>
  %u = memref.cast %m : memref<100000xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
