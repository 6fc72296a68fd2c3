// Kernels that return a new tensor run on the CPU emulator: the result
// becomes an output argument (gpucg-results-to-out-params) and the host
// stand-in @main allocates it, of a static size (examples/matmul_bias_relu.mlir,
// 100x72x64 with partial tiles) and of a size taken from the input's rows
// (here: M dynamic, 70 at run time). The results must equal the untiled
// kernels', in both thread orders.
//
// RUN: gpucg-opt %S/../../../examples/matmul_bias_relu.mlir --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.example.ref
// RUN: gpucg-opt %S/../../../examples/matmul_bias_relu.mlir --pass-pipeline='builtin.module(gpucg-matmul-mma-sync,gpucg-test-emulate-on-cpu)' -o %t.example.mlir
// RUN: %mlir_runner_emulated %t.example.mlir | %strip_address > %t.example
// RUN: diff %t.example.ref %t.example
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.example.mlir | %strip_address > %t.example.reverse
// RUN: diff %t.example.ref %t.example.reverse
// RUN: grep -c 'sizes = \[100, 72\]' %t.example.ref
//
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-mma-sync,gpucg-test-emulate-on-cpu)' -o %t.mlir
// RUN: %mlir_runner_emulated %t.mlir | %strip_address > %t.forward
// RUN: diff %t.ref %t.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.mlir | %strip_address > %t.reverse
// RUN: diff %t.ref %t.reverse
// RUN: grep -c 'sizes = \[70, 128\]' %t.ref

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @linear(%a: tensor<?x64xf16>, %b: tensor<64x128xf16>, %bias: tensor<128xf32>) -> tensor<?x128xf32> {
    %c0 = arith.constant 0 : index
    %m0 = tensor.dim %a, %c0 : tensor<?x64xf16>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty(%m0) : tensor<?x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
    %m = linalg.matmul ins(%a, %b : tensor<?x64xf16>, tensor<64x128xf16>) outs(%f : tensor<?x128xf32>) -> tensor<?x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<?x128xf32>, tensor<128xf32>) outs(%e : tensor<?x128xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      linalg.yield %relu : f32
    } -> tensor<?x128xf32>
    return %r : tensor<?x128xf32>
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %a = tensor.generate {
    ^bb0(%i: index, %k: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i, %k)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3 : i32
      %h = arith.sitofp %w : i32 to f16
      tensor.yield %h : f16
    } : tensor<70x64xf16>
    %b = tensor.generate {
    ^bb0(%k: index, %j: index):
      %s = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1 * 3) mod 5)>(%k, %j)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c2 : i32
      %h = arith.sitofp %w : i32 to f16
      tensor.yield %h : f16
    } : tensor<64x128xf16>
    %bias = tensor.generate {
    ^bb0(%j: index):
      %s = affine.apply affine_map<(d0) -> (d0 mod 11)>(%j)
      %v = arith.index_cast %s : index to i32
      %w = arith.subi %v, %c3 : i32
      %f = arith.sitofp %w : i32 to f32
      tensor.yield %f : f32
    } : tensor<128xf32>
    %ad = tensor.cast %a : tensor<70x64xf16> to tensor<?x64xf16>
    %r = func.call @linear(%ad, %b, %bias)
        : (tensor<?x64xf16>, tensor<64x128xf16>, tensor<128xf32>) -> tensor<?x128xf32>
    %m = bufferization.to_buffer %r : tensor<?x128xf32> to memref<?x128xf32>
    %u = memref.cast %m : memref<?x128xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
