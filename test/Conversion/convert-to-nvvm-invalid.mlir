// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(gpucg-convert-to-nvvm{bare-pointers=true}))'

/// A kernel with a dynamic memref takes memref descriptors under
/// bare-pointers=true, and says so: a host lowered with upstream's
/// use-bare-pointers-for-kernels=true would pass it bare pointers.
gpu.module @kernels {
  // expected-warning @+1 {{takes memref descriptors, not bare pointers: argument #1 has type 'memref<?x8xf32>' (a bare pointer needs a static shape and an identity layout); its .abi says calling_convention memref_descriptors, and a host lowered with gpu-to-llvm must use use-bare-pointers-for-kernels=false to launch it}}
  gpu.func @dynamic_rows(%n: index, %a: memref<?x8xf32>) kernel {
    gpu.return
  }
}

// -----

/// bare-pointers=true lowers each module one way: a kernel that needs
/// memref descriptors (a dynamic memref) and one that takes bare pointers
/// cannot share a module.
gpu.module @kernels {
  // expected-note @+1 {{the kernel that takes bare pointers}}
  gpu.func @static(%a: memref<4xf32>) kernel {
    gpu.return
  }
  // expected-error @+1 {{'gpu.func' op takes arguments that need memref descriptors (a dynamic shape or a strided layout), but kernel 'static' of the same gpu.module takes bare pointers; one module has one calling convention: put them in separate modules (as gpu-kernel-outlining does) or lower with bare-pointers=false}}
  gpu.func @dynamic(%a: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @unconvertible(%a: memref<4xf32>) kernel {
    %f = arith.constant 0.0 : f32
    // Tensors in a kernel have no LLVM lowering (linalg on buffers runs as
    // loops; on tensors it is left, and the first op left is reported).
    // expected-error @+1 {{'tensor.empty' op was not converted to the LLVM or NVVM dialect (gpucg-convert-to-nvvm)}}
    %t = tensor.empty() : tensor<4xf32>
    %r = linalg.fill ins(%f : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
    bufferization.materialize_in_destination %r in restrict writable %a
        : (tensor<4xf32>, memref<4xf32>) -> ()
    gpu.return
  }
}
