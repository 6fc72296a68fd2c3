// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup))' | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-lower-workgroup))' | gpucg-opt -split-input-file > /dev/null

// Each kernel runs the in-workgroup pipeline its translation_info names: the
// f16 matmul gets mma.sync, ldmatrix and async copies into one packed buffer.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    pipeline = MatmulTensorCoreMmaSync
// CHECK:         memref.alloc() {{.*}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.device_async_copy
// CHECK:         nvgpu.ldmatrix
// CHECK:         nvgpu.mma.sync
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<256x64xf16>, tensor<64x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

// The WMMA pipeline when the translation_info says MatmulTensorCore.

// CHECK-LABEL: func.func @wmma
// CHECK-SAME:    pipeline = MatmulTensorCore,
// CHECK:         gpu.subgroup_mma_compute
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @wmma(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
          lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32]]>,
          translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 2>>}
        ins(%a, %b : tensor<256x64xf16>, tensor<64x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}
