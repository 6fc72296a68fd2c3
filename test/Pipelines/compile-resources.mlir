// gpucg-compile reads what ptxas gave each kernel of a cubin: with
// report=true a remark on its launch (registers, stack, workgroup memory,
// occupancy), and always a warning for a kernel that spills. Here a user's
// plan of 128x256 tiles on 4 warps (64x128 per warp: 255 registers are not
// enough) spills; the strategy's plan for the same matmul does not.
//
// REQUIRES: ptxas
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=bin report=true})' -o /dev/null 2>&1 | FileCheck %s
// Without report: the warning alone.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=bin})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET
// sm_90 cubins count the 1 KB the system reserves per workgroup in the
// kernel's shared section; the report gives what the kernel declares, as the
// CUDA driver does (measured on an H100: 1 and 32768 bytes for these two).
// RUN: sed -e 's/chip = "sm_80"/chip = "sm_90"/' %s | gpucg-opt --pass-pipeline='builtin.module(gpucg-compile{format=bin report=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// SM90: remark: kernel spills_kernel: {{[0-9]+}} registers, {{[1-9][0-9]*}} bytes of stack (spilled registers), 1 + 131072 bytes of workgroup memory
// SM90: remark: kernel fits_kernel: {{[0-9]+}} registers, 0 bytes of stack, 32768 + 0 bytes of workgroup memory
// PTX has no resources yet (ptxas decides them): nothing is said.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa report=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX

// CHECK: remark: kernel spills_kernel: {{[0-9]+}} registers, {{[1-9][0-9]*}} bytes of stack (spilled registers), 1 + 131072 bytes of workgroup memory (static + dynamic), 1 workgroup of 128 threads per SM (4 of 64 warps, limited by workgroup memory)
// CHECK: warning: kernel spills_kernel spills: {{[1-9][0-9]*}} bytes of stack per thread hold registers that did not fit ({{[0-9]+}} registers); a smaller warp tile or fewer stages in its plan (gpucg.compilation_info) keeps them in registers
// CHECK: remark: kernel fits_kernel: {{[0-9]+}} registers, 0 bytes of stack, 32768 + 0 bytes of workgroup memory (static + dynamic), {{[0-9]+}} workgroups of 128 threads per SM ({{[0-9]+}} of 64 warps, limited by {{registers|workgroup memory}})
// CHECK-NOT: warning: kernel fits_kernel

// QUIET-NOT: remark: kernel
// QUIET: warning: kernel spills_kernel spills:
// QUIET-NOT: fits_kernel

// PTX-NOT: remark: kernel
// PTX-NOT: warning: kernel

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @spills(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 256, 32], [64, 128, 0], [16, 8, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 3, mma_kind = mma_sync>>}
      ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func @fits(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}
