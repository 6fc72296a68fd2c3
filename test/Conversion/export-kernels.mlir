// RUN: rm -rf %t
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-export-kernels{output-dir=%t bare-pointers=false})' | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t/scale_kernel.abi
// RUN: FileCheck %s --check-prefix=BIN < %t/scale_kernel.cubin
// A cubin the pass cannot read the kernel's resources from: a warning, and
// the export goes on.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-export-kernels)' -verify-diagnostics -o /dev/null

// The IR is left unchanged.
// IR: gpu.launch_func @scale_kernel::@scale_kernel

// CHECK:      abi 1
// CHECK-NEXT: function scale
// CHECK-NEXT: kernel scale_kernel
// CHECK-NEXT: binary scale_kernel.cubin
// CHECK-NEXT: format cubin
// CHECK-NEXT: chip sm_90
// CHECK-NEXT: calling_convention memref_descriptors
// CHECK-NEXT: grid_x ceildiv arg1.dim0 128
// CHECK-NEXT: grid_y arg1.dim1 * arg1.dim0 * 3
// CHECK-NEXT: grid_z ceildiv arg1.dim0 64 * 10
// CHECK-NEXT: block_x 128
// CHECK-NEXT: block_y 1
// CHECK-NEXT: block_z 1
// CHECK-NEXT: dynamic_shared_memory 65536
// CHECK-NEXT: arguments 3
// CHECK-NEXT: argument 0 function_argument 1 memref f32 ?x?
// CHECK-NEXT: argument 1 function_argument 0 scalar f32
// CHECK-NEXT: argument 2 function_argument 2 memref bf16 4x8
// CHECK-NEXT: result 2 4 8
// CHECK-NOT:  {{.}}

// BIN: not-a-real-cubin

module attributes {gpu.container_module} {
  // %t was a returned tensor (gpucg-results-to-out-params): a `result`
  // line says so.
  func.func @scale(%s: f32, %a: memref<?x?xf32>, %t: memref<4x8xbf16> {gpucg.result = [4, 8]}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 65536 : i32
    %m = memref.dim %a, %c0 : memref<?x?xf32>
    %n = memref.dim %a, %c1 : memref<?x?xf32>
    %gx = affine.apply affine_map<()[s0] -> (s0 ceildiv 128)>()[%m]
    // Sizes times constants (grid z of linearized batch loops, some of
    // them dynamic), as arith.muli or an affine product.
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %nm = arith.muli %n, %m : index
    %gy = arith.muli %nm, %c3 : index
    %gz = affine.apply affine_map<()[s0, s1] -> ((s0 ceildiv 64) * 2 * s1)>()[%m, %c5]
    // expected-warning @+1 {{cannot read the resources of kernel scale_kernel from its cubin: not an ELF cubin}}
    gpu.launch_func @scale_kernel::@scale_kernel blocks in (%gx, %gy, %gz) threads in (%c128, %c1, %c1)
        dynamic_shared_memory_size %smem args(%a : memref<?x?xf32>, %s : f32, %t : memref<4x8xbf16>)
    return
  }
  gpu.binary @scale_kernel [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "not-a-real-cubin">]
}
