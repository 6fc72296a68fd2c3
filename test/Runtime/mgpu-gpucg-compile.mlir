// A gpucg-compile'd module under mlir-runner with libgpucg_cuda_runtime.so:
// its host code calls the mgpu* functions. Without a driver the first of
// them (the module load) says so, and the run ends with status 1 before
// anything is computed (GPUCG_MGPU_ON_ERROR=exit, the default), or at the
// end with the failure reported once (continue). On the fake driver the
// whole host side runs: one launch of the kernel with the ABI's grid and
// block and one pointer per memref (bare pointers).
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa},gpucg-strip-attributes,func.func(gpu-async-region),convert-scf-to-cf,gpu-to-llvm{use-bare-pointers-for-kernels=true},reconcile-unrealized-casts)' -o %t.mlir
//
// RUN: env GPUCG_CUDA_DRIVER=/nonexistent/libcuda.so.1 not %sanitizer_preload mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%gpucg_runtime_lib,%mlir_runner_utils,%mlir_c_runner_utils > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=EXIT < %t.err
// RUN: count 0 < %t.out
// EXIT:      gpucg runtime: mgpuModuleLoadJIT: no CUDA driver: cannot load /nonexistent/libcuda.so.1 ($GPUCG_CUDA_DRIVER): /nonexistent/libcuda.so.1: cannot open shared object file: No such file or directory
// EXIT-NEXT: gpucg runtime: exiting with status 1 (GPUCG_MGPU_ON_ERROR=continue returns instead)
//
// RUN: env GPUCG_CUDA_DRIVER=/nonexistent/libcuda.so.1 GPUCG_MGPU_ON_ERROR=continue not %sanitizer_preload mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%gpucg_runtime_lib,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | FileCheck %s --check-prefix=CONTINUE --implicit-check-not='gpucg runtime'
// CONTINUE: gpucg runtime: mgpuModuleLoadJIT: no CUDA driver: cannot load /nonexistent/libcuda.so.1
// CONTINUE: finished
//
// This machine's own driver, when it has no GPU.
// RUN: %if !cuda-gpu %{ not %sanitizer_preload mlir-runner %t.mlir -e main -entry-point-result=void -shared-libs=%gpucg_runtime_lib,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | FileCheck %s --check-prefix=HERE %}
// HERE: gpucg runtime: mgpuModuleLoadJIT: no CUDA driver: {{cannot load libcuda.so.1|cuInit}}
//
// RUN: env GPUCG_CUDA_DRIVER=%gpucg_fake_cuda %sanitizer_preload mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%gpucg_runtime_lib,%mlir_runner_utils,%mlir_c_runner_utils 2>&1 | FileCheck %s --check-prefix=FAKE --implicit-check-not='gpucg runtime'
// FAKE:      fake-cuda: loaded a module
// FAKE:      fake-cuda: launch matmul_kernel grid 3x4x1 block 32x1x1 shared 0 params 3
// FAKE-NEXT: fake-cuda:   param 0 .u64 {{[1-9][0-9]*}}
// FAKE-NEXT: fake-cuda:   param 1 .u64 {{[1-9][0-9]*}}
// FAKE-NEXT: fake-cuda:   param 2 .u64 {{[1-9][0-9]*}}
// FAKE:      fake-cuda: unloaded a module

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul(%a: tensor<64x32xf16>, %b: tensor<32x48xf16>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x48xf16>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
    return %0 : tensor<64x48xf32>
  }

  func.func private @printString(!llvm.ptr)
  llvm.mlir.global private constant @finished("finished\0A\00") {addr_space = 0 : i32}

  func.func @main() {
    %a = gpu.alloc () : memref<64x32xf16>
    %b = gpu.alloc () : memref<32x48xf16>
    %c = gpu.alloc () : memref<64x48xf32>
    %ta = bufferization.to_tensor %a restrict : memref<64x32xf16> to tensor<64x32xf16>
    %tb = bufferization.to_tensor %b restrict : memref<32x48xf16> to tensor<32x48xf16>
    %tc = bufferization.to_tensor %c restrict writable : memref<64x48xf32> to tensor<64x48xf32>
    %r = func.call @matmul(%ta, %tb, %tc) : (tensor<64x32xf16>, tensor<32x48xf16>, tensor<64x48xf32>) -> tensor<64x48xf32>
    %result = bufferization.to_buffer %r : tensor<64x48xf32> to memref<64x48xf32>
    %host = memref.alloc() : memref<64x48xf32>
    gpu.memcpy %host, %result : memref<64x48xf32>, memref<64x48xf32>
    memref.dealloc %host : memref<64x48xf32>
    gpu.dealloc %a : memref<64x32xf16>
    gpu.dealloc %b : memref<32x48xf16>
    gpu.dealloc %c : memref<64x48xf32>
    %message = llvm.mlir.addressof @finished : !llvm.ptr
    func.call @printString(%message) : (!llvm.ptr) -> ()
    return
  }
}
