// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(gpucg-convert-to-nvvm{bare-pointers=true}))'

gpu.module @kernels {
  // expected-error @+1 {{argument #0 has type 'memref<?xf32>'; bare-pointer kernel arguments need a static shape and an identity layout}}
  gpu.func @dynamic(%a: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @unconvertible(%a: memref<4xf32>) kernel {
    %f = arith.constant 0.0 : f32
    // A linalg op in a kernel has no LLVM lowering.
    // expected-error @+1 {{'linalg.fill' op was not converted to the LLVM or NVVM dialect (gpucg-convert-to-nvvm)}}
    linalg.fill ins(%f : f32) outs(%a : memref<4xf32>)
    gpu.return
  }
}
