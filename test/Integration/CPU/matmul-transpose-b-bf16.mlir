// bf16 matmul with B transposed through indexing_maps (32x48x16). gpucg
// lowers bf16 nvgpu.mma.sync itself, so it takes the mma.sync strategy.

// The untiled kernel, run as is, is the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// The kernel through the workgroup stages, workgroups run one after another.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// Every element must be equal.
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 2 offset = 0 sizes = [32, 48]

// The strategy this test exercises:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY-LABEL: func.func @kernel
// STRATEGY-SAME: pipeline = MatmulTensorCoreMmaSync

func.func @kernel(%a: tensor<32x16xbf16>, %b: tensor<48x16xbf16>, %c: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : tensor<32x16xbf16>, tensor<48x16xbf16>) outs(%c : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %0 : tensor<32x48xf32>
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
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<32x16xbf16>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 2) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to bf16
    tensor.yield %e : bf16
  } : tensor<48x16xbf16>
  %c = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<32x48xf32>
  %r = func.call @kernel(%a, %b, %c) : (tensor<32x16xbf16>, tensor<48x16xbf16>, tensor<32x48xf32>) -> tensor<32x48xf32>
  %m = bufferization.to_buffer %r : tensor<32x48xf32> to memref<32x48xf32>
  %u = memref.cast %m : memref<32x48xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
