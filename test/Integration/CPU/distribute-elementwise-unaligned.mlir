// An elementwise kernel through gpucg-tile-and-distribute: 128-column tiles
// of 32 threads x 4 elements; 1000 = 7 x 128 + 104, so the last tile of each
// row takes the dynamic path, where the threads loop with partial chunks.

// The untiled kernel, run as is, is the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// The kernel through the workgroup stages and thread distribution; the
// threads of each workgroup, then the workgroups, run one after another.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization,gpucg-tile-and-distribute), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// Every element must be equal.
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 2 offset = 0 sizes = [33, 1000]


// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization,gpucg-tile-and-distribute))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=TILED
// TILED-LABEL: func.func @kernel
// TILED: scf.if
// TILED: linalg.generic {{.+}} outs(%{{.+}} : memref<1x4xf32
// TILED: } else {
// TILED: scf.for

func.func @kernel(%a: tensor<33x1000xf32>, %b: tensor<33x1000xf32>, %c: tensor<33x1000xf32>) -> tensor<33x1000xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"],
      gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [1, 4]]>,
        translation_info = #gpucg.translation_info<pipeline = Vectorize, workgroup_size = [32, 1, 1]>>}
    ins(%a, %b : tensor<33x1000xf32>, tensor<33x1000xf32>) outs(%c : tensor<33x1000xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %out : f32
    linalg.yield %s : f32
  } -> tensor<33x1000xf32>
  return %0 : tensor<33x1000xf32>
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
  } : tensor<33x1000xf32>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<33x1000xf32>
  %c = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<33x1000xf32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<33x1000xf32>, tensor<33x1000xf32>, tensor<33x1000xf32>) -> tensor<33x1000xf32>
  %m = bufferization.to_buffer %r : tensor<33x1000xf32> to memref<33x1000xf32>
  %u = memref.cast %m : memref<33x1000xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
