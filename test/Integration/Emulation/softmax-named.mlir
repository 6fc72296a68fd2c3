// linalg.softmax as users write it, through gpucg-compile's stages up to the
// kernel (the decomposition, the strategy, workgroup tiling, bufferization,
// gpucg-lower-workgroup) on the CPU emulator: one kernel, bit-exact against
// the untiled kernel in both thread orders, with the race detector. The
// inputs make every result exact: each row holds its maximum c in n places
// and -1e30 elsewhere, so exp(x - max) is 1 or 0 (underflow), the sum is n
// and each output 1/n or 0, whatever the order of the sum.

// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-decompose-aggregate-ops),gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: FileCheck %s --check-prefix=REF < %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-decompose-aggregate-ops,gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup),gpucg-test-emulate-on-cpu{check-races=true})' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse

// One kernel launch, and no linalg op left on the host.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_80},func.func(gpucg-decompose-aggregate-ops,gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup))' \
// RUN:   | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @softmax
// IR-NOT:   linalg.
// IR:       scf.forall
// IR-NOT:   scf.forall
// IR-LABEL: func.func @main

// Rows 0 and 1 of the reference: n = 4, then 2 (1/4 and 1/2, zeros between).
// REF: [0.25, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.25,
// REF: [0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5,

func.func @softmax(%x: tensor<8x64xf32>, %out: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = linalg.softmax dimension(1) ins(%x : tensor<8x64xf32>) outs(%out : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %low = arith.constant -1.0e30 : f32
  // Row r: its maximum r - 3 at the columns that are multiples of
  // 8 << ((r + 1) mod 4), i.e. n = 4, 2, 1, 8, 4, 2, 1, 8 of them.
  %x = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %sh = affine.apply affine_map<(d0) -> ((d0 + 1) mod 4)>(%i0)
    %c8 = arith.constant 8 : index
    %step = arith.shli %c8, %sh : index
    %m = arith.remui %i1, %step : index
    %c0 = arith.constant 0 : index
    %at = arith.cmpi eq, %m, %c0 : index
    %ri = arith.index_cast %i0 : index to i32
    %c3 = arith.constant 3 : i32
    %rv = arith.subi %ri, %c3 : i32
    %c = arith.sitofp %rv : i32 to f32
    %v = arith.select %at, %c, %low : f32
    tensor.yield %v : f32
  } : tensor<8x64xf32>
  %o = tensor.empty() : tensor<8x64xf32>
  %r = func.call @softmax(%x, %o) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = bufferization.to_buffer %r : tensor<8x64xf32> to memref<8x64xf32>
  %u = memref.cast %m : memref<8x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
