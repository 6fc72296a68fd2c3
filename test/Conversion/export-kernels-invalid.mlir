// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpucg-export-kernels)'

module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{launches 'k', which is not a gpu.binary: run gpu-module-to-binary first}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>, %m: memref<index>) {
    %c1 = arith.constant 1 : index
    %g = memref.load %m[] : memref<index>
    // expected-error @+1 {{has a grid size that the kernel ABI cannot express}}
    gpu.launch_func @k::@k blocks in (%g, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

// A product of four sizes: the ABI counts a constant times 3 sizes at most.
module attributes {gpu.container_module} {
  func.func @f(%a: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = memref.dim %a, %c0 : memref<?x?xf32>
    %n = memref.dim %a, %c1 : memref<?x?xf32>
    %mn = arith.muli %m, %n : index
    %mnm = arith.muli %mn, %m : index
    %g = arith.muli %mnm, %n : index
    // expected-error @+1 {{has a grid size that the kernel ABI cannot express (a constant, or a product of up to 3 dimensions of arguments, each or its ceildiv by a constant, and a constant)}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %g) threads in (%c1, %c1, %c1) args(%a : memref<?x?xf32>)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %alloc = memref.alloc() : memref<4xf32>
    // expected-error @+1 {{passes kernel operand #0 that is not an argument of @f; the kernel ABI describes arguments only}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%alloc : memref<4xf32>)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>, %m: memref<i32>) {
    %c1 = arith.constant 1 : index
    %smem = memref.load %m[] : memref<i32>
    // expected-error @+1 {{has a dynamic shared memory size that is not a constant}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem args(%a : memref<4xf32>)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  // expected-error @+1 {{holds an object for #rocdl.target; gpucg exports NVVM objects only}}
  gpu.binary @k [#gpu.object<#rocdl.target, bin = "x">]
}

// -----

module attributes {gpu.container_module} {
  llvm.func @f() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{is not in a func.func}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    llvm.return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

// A tensor map on a local buffer: the launcher could not build it.
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  func.func @f() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %alloc = memref.alloc() : memref<128x64xf16>
    %u = memref.cast %alloc : memref<128x64xf16> to memref<*xf16>
    %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
    // expected-error @+1 {{passes kernel operand #0, a tensor map that is not built on an identity-layout memref argument of @f (or on one with its leading dimensions collapsed into one); the kernel ABI describes arguments only}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !map)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

// A tensor map on an argument with its inner dimensions collapsed: not the
// rows of a batch's matrices stacked, which the ABI's shorter box describes.
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  func.func @f(%a: memref<2x64x2x32xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %collapsed = memref.collapse_shape %a [[0, 1], [2, 3]] : memref<2x64x2x32xf16> into memref<128x64xf16>
    %u = memref.cast %collapsed : memref<128x64xf16> to memref<*xf16>
    %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
    // expected-error @+1 {{passes kernel operand #0, a tensor map that is not built on an identity-layout memref argument of @f (or on one with its leading dimensions collapsed into one); the kernel ABI describes arguments only}}
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !map)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  func.func @f(%a: memref<128x64xf16>, %n: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %u = memref.cast %a : memref<128x64xf16> to memref<*xf16>
    // expected-error @+1 {{has a box size that is not a constant; the kernel ABI describes constant boxes}}
    %m = nvgpu.tma.create.descriptor %u box[%n, %c64] : memref<*xf16> -> !map
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !map)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  func.func @f(%a: memref<128x64xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %u = memref.cast %a : memref<128x64xf16> to memref<*xf16>
    // expected-error @+1 {{'nvgpu.tma.create.descriptor' op has a tensor map of type '!nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = zero, interleave = none>'; the kernel ABI describes maps without interleave or L2 promotion that fill out-of-bounds with zero}}
    %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : !map)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

/// A gpucg.result that does not give one size per dimension (an integer,
/// "argN.dimD" or "?").
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op has argument #0 with gpucg.result = ["arg0.dim0", "many"], which is not one size per dimension of its memref type 'memref<?x4xf32>' (an integer, "argN.dimD" or "?")}}
  func.func @f(%a: memref<?x4xf32> {gpucg.result = ["arg0.dim0", "many"]}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?x4xf32>)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{has argument #0 with gpucg.result = [4], which is not one size per dimension of its memref type 'memref<?x4xf32>'}}
  func.func @f(%a: memref<?x4xf32> {gpucg.result = [4]}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?x4xf32>)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}
