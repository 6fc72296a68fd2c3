// On sm_75 (Turing) the f16 matmul takes the WMMA strategy (64x64x32 over
// 2x2 warps of 16x16; no software pipelining without cp.async).

// The untiled kernel, run as is, is the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// The kernel through the workgroup stages, workgroups run one after another.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_75},func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization), gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.tiled
// Every element must be equal.
// RUN: diff %t.ref %t.tiled
// RUN: FileCheck %s --check-prefix=OUT < %t.tiled
// OUT: rank = 2 offset = 0 sizes = [64, 64]

// The strategy this test exercises:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_75},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY-LABEL: func.func @kernel
// STRATEGY-SAME: pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, mma_kind = wmma

func.func @kernel(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %zero = arith.constant 0.0 : f16
  %f = linalg.fill ins(%zero : f16) outs(%c : tensor<64x64xf16>) -> tensor<64x64xf16>
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%f : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
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
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<64x32xf16>
  %b = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<32x64xf16>
  %c = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 1) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c1_i32 : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<64x64xf16>
  %r = func.call @kernel(%a, %b, %c) : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  %p = tensor.generate {
  ^bb0(%j0: index, %j1: index):
    %x = tensor.extract %r[%j0, %j1] : tensor<64x64xf16>
    %y = arith.extf %x : f16 to f32
    tensor.yield %y : f32
  } : tensor<64x64xf32>
  %m = bufferization.to_buffer %p : tensor<64x64xf32> to memref<64x64xf32>
  %u = memref.cast %m : memref<64x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
