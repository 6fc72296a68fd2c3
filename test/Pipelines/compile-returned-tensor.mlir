// Kernels that return a new tensor, as torch-mlir and people write them:
// examples/matmul_bias_relu.mlir (tensor.empty + fill + matmul + bias + ReLU
// + return, 100x72x64) and the same with a dynamic M here. Each result
// becomes an output argument appended to the function
// (gpucg-results-to-out-params); its .abi says so, with its sizes.
//
// RUN: rm -rf %t && mkdir -p %t/example %t/dynamic
// RUN: gpucg-opt %S/../../examples/matmul_bias_relu.mlir --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t/example})' -o %t/example.mlir
// RUN: gpucg-opt %t/example.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=EXAMPLE < %t/example/kernel_kernel.abi
// RUN: FileCheck %s --check-prefix=HOST < %t/example.mlir
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t/dynamic})' -o /dev/null
// RUN: FileCheck %s --check-prefix=DYNAMIC < %t/dynamic/linear_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_80 -v %t/dynamic/linear_kernel.ptx -o %t/k.cubin 2>&1 | %sass_mix --ptxas-info - | FileCheck %s --check-prefix=PTXAS %}

// EXAMPLE:      function kernel
// EXAMPLE:      arguments 4
// EXAMPLE-NEXT: argument 0 function_argument 0 memref f16 100x64
// EXAMPLE-NEXT: argument 1 function_argument 1 memref f16 64x72
// EXAMPLE-NEXT: argument 2 function_argument 2 memref f32 72
// EXAMPLE-NEXT: argument 3 function_argument 3 memref f32 100x72
// EXAMPLE-NEXT: result 3 100 72
// EXAMPLE-NOT:  {{.}}

// The host function takes the output; @main, the example's host stand-in,
// allocates it and passes it.
// HOST-LABEL: func.func @kernel(
//  HOST-SAME:     %{{.+}}: memref<100x72xf32> {gpucg.result = [100, 72]}) attributes
// HOST:         gpu.launch_func
// HOST-LABEL: func.func @main
// HOST:         %[[OUT:.+]] = memref.alloc() : memref<100x72xf32>
// HOST:         call @kernel({{.+}}, %[[OUT]]) : (memref<100x64xf16>, memref<64x72xf16>, memref<72xf32>, memref<100x72xf32>) -> ()

// DYNAMIC:      calling_convention memref_descriptors
// DYNAMIC:      argument 3 function_argument 3 memref bf16 ?x128
// DYNAMIC-NEXT: result 3 arg0.dim0 128

// PTXAS-LABEL: kernel linear_kernel
//  PTXAS-NEXT: registers
//  PTXAS-NEXT: spill_stores 0

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @linear(%a: tensor<?x64xbf16>, %b: tensor<64x128xbf16>, %bias: tensor<128xf32>) -> tensor<?x128xbf16> {
    %c0 = arith.constant 0 : index
    %m0 = tensor.dim %a, %c0 : tensor<?x64xbf16>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty(%m0) : tensor<?x128xf32>
    %e16 = tensor.empty(%m0) : tensor<?x128xbf16>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
    %m = linalg.matmul ins(%a, %b : tensor<?x64xbf16>, tensor<64x128xbf16>) outs(%f : tensor<?x128xf32>) -> tensor<?x128xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<?x128xf32>, tensor<128xf32>) outs(%e16 : tensor<?x128xbf16>) {
    ^bb0(%x: f32, %y: f32, %o: bf16):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x128xbf16>
    return %r : tensor<?x128xbf16>
  }
}
