// Matmuls whose result is returned reshaped, as users write attention's
// projections (x * Wq viewed as [tokens, heads, head_dim]), on the CPU
// emulator: the reshape is a view of the same buffer, which the kernel
// writes through a collapse_shape of its output argument. A new tensor
// becomes an output argument of the returned (reshaped) type
// (gpucg-results-to-out-params sees through the view); a destination
// written in place is returned reshaped by the host
// (gpucg-build-gpu-launch). Through gpucg-matmul-wgmma on sm_90a (a
// MatmulWgmma kernel: the reshape no longer keeps the wgmma plan off) and
// gpucg-matmul-mma-sync on sm_80, with a bias and an f16 cast fused in one
// case. Small-integer inputs keep every sum exact: the results must equal
// the untiled kernels', in both thread orders. A batched matmul returned
// with its batches as rows (a collapse_shape: C is an expand_shape of the
// output argument) takes the same path.
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a})' -o %t.wgmma.mlir
// RUN: FileCheck %s --check-prefix=WGMMA < %t.wgmma.mlir
// RUN: gpucg-opt %t.wgmma.mlir --pass-pipeline='builtin.module(gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80},gpucg-test-emulate-on-cpu)' -o %t.mma.mlir
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mma.mlir | %strip_address > %t.mma
// RUN: diff %t.ref %t.mma

// WGMMA-LABEL: func.func @q_heads
//  WGMMA-SAME:   %[[OUT:[a-z0-9]+]]: memref<128x2x64xf32> {gpucg.result = [128, 2, 64]}
//  WGMMA-SAME:   pipeline = MatmulWgmma
//       WGMMA:   memref.collapse_shape %[[OUT]] {{\[}}[0], [1, 2]] : memref<128x2x64xf32> into memref<128x128xf32>
// WGMMA-LABEL: func.func @k_heads_into
//  WGMMA-SAME:   pipeline = MatmulWgmma
//       WGMMA:   %[[V:.+]] = memref.expand_shape
//       WGMMA:   return %[[V]]
// WGMMA-LABEL: func.func @batch_rows
//  WGMMA-SAME:   %[[ROWS:[a-z0-9]+]]: memref<128x128xf32> {gpucg.result = [128, 128]}
//  WGMMA-SAME:   pipeline = MatmulWgmma
//       WGMMA:   memref.expand_shape %[[ROWS]] {{\[}}[0, 1], [2]] output_shape [2, 64, 128]

func.func @q_heads(%x: tensor<128x64xf16>, %w: tensor<64x128xf16>) -> tensor<128x2x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %m = linalg.matmul ins(%x, %w : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = tensor.expand_shape %m [[0], [1, 2]] output_shape [128, 2, 64] : tensor<128x128xf32> into tensor<128x2x64xf32>
  return %r : tensor<128x2x64xf32>
}

func.func @k_heads_into(%x: tensor<128x64xf16>, %w: tensor<64x128xf16>, %bias: tensor<128xf32>, %o: tensor<128x128xf16>) -> tensor<128x2x64xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %m = linalg.matmul ins(%x, %w : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%m, %bias : tensor<128x128xf32>, tensor<128xf32>) outs(%o : tensor<128x128xf16>) {
  ^bb0(%a: f32, %c: f32, %p: f16):
    %s = arith.addf %a, %c : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x128xf16>
  %r = tensor.expand_shape %b [[0], [1, 2]] output_shape [128, 2, 64] : tensor<128x128xf16> into tensor<128x2x64xf16>
  return %r : tensor<128x2x64xf16>
}

func.func @batch_rows(%a: tensor<2x64x64xf16>, %b: tensor<2x64x128xf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x64x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x128xf32>) -> tensor<2x64x128xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x64x64xf16>, tensor<2x64x128xf16>) outs(%f : tensor<2x64x128xf32>) -> tensor<2x64x128xf32>
  %r = tensor.collapse_shape %m [[0, 1], [2]] : tensor<2x64x128xf32> into tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c3_i32 = arith.constant 3 : i32
  %x = tensor.generate {
  ^bb0(%i: index, %j: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i, %j)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<128x64xf16>
  %w = tensor.generate {
  ^bb0(%i: index, %j: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%i, %j)
    %v = arith.index_cast %s : index to i32
    %u = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %u : i32 to f16
    tensor.yield %f : f16
  } : tensor<64x128xf16>
  %bias = tensor.generate {
  ^bb0(%i: index):
    %s = affine.apply affine_map<(d0) -> (d0 mod 9)>(%i)
    %v = arith.index_cast %s : index to i32
    %f = arith.sitofp %v : i32 to f32
    tensor.yield %f : f32
  } : tensor<128xf32>
  %o = tensor.empty() : tensor<128x128xf16>
  %q = func.call @q_heads(%x, %w) : (tensor<128x64xf16>, tensor<64x128xf16>) -> tensor<128x2x64xf32>
  %qm = bufferization.to_buffer %q : tensor<128x2x64xf32> to memref<128x2x64xf32>
  %qu = memref.cast %qm : memref<128x2x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%qu) : (memref<*xf32>) -> ()
  %k = func.call @k_heads_into(%x, %w, %bias, %o) : (tensor<128x64xf16>, tensor<64x128xf16>, tensor<128xf32>, tensor<128x128xf16>) -> tensor<128x2x64xf16>
  %km = bufferization.to_buffer %k : tensor<128x2x64xf16> to memref<128x2x64xf16>
  %ku = memref.cast %km : memref<128x2x64xf16> to memref<*xf16>
  func.call @printMemrefF16(%ku) : (memref<*xf16>) -> ()
  %ba = tensor.generate {
  ^bb0(%i: index, %j: index, %l: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 5 + d1 * 3 + d2) mod 7)>(%i, %j, %l)
    %v = arith.index_cast %s : index to i32
    %u = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %u : i32 to f16
    tensor.yield %f : f16
  } : tensor<2x64x64xf16>
  %bb = tensor.generate {
  ^bb0(%i: index, %j: index, %l: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 + d1 * 2 + d2 * 3) mod 5)>(%i, %j, %l)
    %v = arith.index_cast %s : index to i32
    %u = arith.subi %v, %c3_i32 : i32
    %f = arith.sitofp %u : i32 to f16
    tensor.yield %f : f16
  } : tensor<2x64x128xf16>
  %br = func.call @batch_rows(%ba, %bb) : (tensor<2x64x64xf16>, tensor<2x64x128xf16>) -> tensor<128x128xf32>
  %brm = bufferization.to_buffer %br : tensor<128x128xf32> to memref<128x128xf32>
  %bru = memref.cast %brm : memref<128x128xf32> to memref<*xf32>
  func.call @printMemrefF32(%bru) : (memref<*xf32>) -> ()
  return
}
