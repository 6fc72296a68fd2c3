// Matmul + bias + ReLU (48x40x16, f16 inputs): the fill, the matmul and the
// consumer are fused into one 32x32 tile per workgroup; 48 = 32 + 16 and
// 40 = 32 + 8 leave partial tiles in both dimensions.

// The untiled kernel, run as is, is the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// The kernel through the workgroup stages, workgroups run one after another.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// Every element must be equal.
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 2 offset = 0 sizes = [48, 40]

// The strategy this test exercises:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY-LABEL: func.func @kernel
// STRATEGY-SAME: pipeline = MatmulTensorCoreMmaSync
// STRATEGY: tile_sizes = {{\[}}[32, 32, 16]

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=TILED
// TILED-LABEL: func.func @kernel
// TILED: scf.forall
// TILED: linalg.fill
// TILED: linalg.matmul
// TILED: linalg.generic
// TILED: } {mapping = [#gpu.block<y>, #gpu.block<x>]}

func.func @kernel(%a: tensor<48x16xf16>, %b: tensor<16x40xf16>, %bias: tensor<40xf32>) -> tensor<48x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %m = linalg.matmul ins(%a, %b : tensor<48x16xf16>, tensor<16x40xf16>) outs(%f : tensor<48x40xf32>) -> tensor<48x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%m, %bias : tensor<48x40xf32>, tensor<40xf32>) outs(%e : tensor<48x40xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %relu = arith.maximumf %s, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<48x40xf32>
  return %r : tensor<48x40xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0_i32 = arith.constant 0 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %a = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<48x16xf16>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<16x40xf16>
  %bias = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 7) mod 11)>(%i0)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c5_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<40xf32>
  %r = func.call @kernel(%a, %b, %bias) : (tensor<48x16xf16>, tensor<16x40xf16>, tensor<40xf32>) -> tensor<48x40xf32>
  %m = bufferization.to_buffer %r : tensor<48x40xf32> to memref<48x40xf32>
  %u = memref.cast %m : memref<48x40xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
