// An f8E5M2 matmul with B[k, n] (N contiguous), which wgmma reads K-major
// only: on MatmulSimt, whose threads extend the operands to f32
// (arith.extf, expanded into integer arithmetic by
// gpucg-expand-small-floats), and on the strategy's plan, MatmulWgmma with
// B restaged K-major by the producer warpgroup (one partial 128x128 tile).
// On the CPU emulator, equal to the untiled kernel on the CPU, in order and
// reversed; every sum is exact.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-simt{chip=sm_90a},gpucg-test-emulate-on-cpu)' \
// RUN:   | %mlir_runner_emulated | %strip_address > %t.out
// RUN: diff %t.ref %t.out
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a},gpucg-test-emulate-on-cpu)' -o %t.wgmma.mlir
// RUN: %mlir_runner_emulated %t.wgmma.mlir | %strip_address > %t.wgmma
// RUN: diff %t.ref %t.wgmma
// RUN: env GPUCG_EMU_ORDER=reverse GPUCG_EMU_TMA=wait %mlir_runner_emulated %t.wgmma.mlir | %strip_address > %t.wgmma.reversed
// RUN: diff %t.ref %t.wgmma.reversed
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// OUT: sizes = [64, 64]
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy))' \
// RUN:   --mlir-print-local-scope | FileCheck %s --check-prefix=STRATEGY
// STRATEGY-LABEL: func.func @matmul_kn_e5m2
// STRATEGY-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @matmul_kn_e5m2(%a: tensor<64x96xf8E5M2>, %b: tensor<96x64xf8E5M2>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = linalg.matmul ins(%a, %b : tensor<64x96xf8E5M2>, tensor<96x64xf8E5M2>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %ka = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 3) mod 9)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %c4 = arith.constant 4 : i32
      %x = arith.subi %v, %c4 : i32
      %e = arith.sitofp %x : i32 to f8E5M2
      tensor.yield %e : f8E5M2
    } : tensor<64x96xf8E5M2>
    %kb = tensor.generate {
    ^bb0(%i0: index, %i1: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 + d1 * 2) mod 5)>(%i0, %i1)
      %v = arith.index_cast %s : index to i32
      %c2 = arith.constant 2 : i32
      %x = arith.subi %v, %c2 : i32
      %e = arith.sitofp %x : i32 to f8E5M2
      tensor.yield %e : f8E5M2
    } : tensor<96x64xf8E5M2>
    %kc = tensor.empty() : tensor<64x64xf32>
    %kr = func.call @matmul_kn_e5m2(%ka, %kb, %kc) : (tensor<64x96xf8E5M2>, tensor<96x64xf8E5M2>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %km = bufferization.to_buffer %kr : tensor<64x64xf32> to memref<64x64xf32>
    %ku = memref.cast %km : memref<64x64xf32> to memref<*xf32>
    func.call @printMemrefF32(%ku) : (memref<*xf32>) -> ()
    return
  }
}
