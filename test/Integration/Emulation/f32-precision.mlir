// An f32 matmul compiled with f32-precision=ieee is planned for MatmulSimt
// (IEEE f32 on the SIMT cores, not TF32 on tensor cores) and runs on the
// CPU emulator bit-exactly against the untiled kernel, in both thread
// orders (128 x 128 x 64: MatmulSimt takes whole tiles; other sizes get
// SimtDistribute, one thread per element). The inputs are small integers
// times 1 + 2^-11: exact in f32, not in TF32 (10-bit mantissas), so the
// default plan (TF32 on WMMA) gives other numbers, which the last lines
// check (MatmulSimt sums along K in the untiled kernel's order).
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{f32-precision=ieee}))' \
// RUN:   | FileCheck %s --check-prefix=PLAN
// PLAN: pipeline = MatmulSimt
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{f32-precision=ieee}),gpucg-simt,gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// RUN: grep -c 'sizes = \[128, 128\]' %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-tensorcore{chip=sm_80},gpucg-test-emulate-on-cpu)' -o %t.tf32.mlir
// RUN: %mlir_runner_emulated %t.tf32.mlir | %strip_address > %t.tf32
// RUN: not diff -q %t.ref %t.tf32
//
// gpucg-compile's assembly has FMAs in f32 and no MMA.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa f32-precision=ieee})' | FileCheck %s --check-prefix=PTX
// PTX: fma.rn.f32
// PTX-NOT: mma.sync
// PTX-NOT: .tf32
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa})' | FileCheck %s --check-prefix=TF32
// TF32: wmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @mm(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %0 : tensor<128x128xf32>
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    // 1 + 2^-11: 12 significant bits, more than TF32 keeps.
    %scale = arith.constant 1.00048828125 : f32
    %a = tensor.generate {
    ^bb0(%i: index, %k: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i, %k)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3 : i32
      %f = arith.sitofp %w : i32 to f32
      %x = arith.mulf %f, %scale : f32
      tensor.yield %x : f32
    } : tensor<128x64xf32>
    %b = tensor.generate {
    ^bb0(%k: index, %j: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%k, %j)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2 : i32
      %f = arith.sitofp %w : i32 to f32
      %x = arith.mulf %f, %scale : f32
      tensor.yield %x : f32
    } : tensor<64x128xf32>
    %c = tensor.empty() : tensor<128x128xf32>
    %r = func.call @mm(%a, %b, %c)
        : (tensor<128x64xf32>, tensor<64x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %m = bufferization.to_buffer %r : tensor<128x128xf32> to memref<128x128xf32>
    %u = memref.cast %m : memref<128x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
