// The default workgroup order (workgroup-group-size=0, the default): a
// MatmulWgmma plan the strategy chooses, with more workgroups than the
// target's SMs (132 on sm_90a) and at least two rows and two columns of
// tiles, starts them in groups of 8 rows (or its rows, where fewer), which
// gpucg-reorder-workgroups applies; the report says why. (K whole,
// split-k=1: the plans with fewer tiles than SMs would split it by default,
// select-lowering-strategy-split-k-wgmma.mlir.)
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true split-k=1}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{split-k=1}))' | FileCheck %s
// workgroup-group-size=1 asks for the launch order; clusters asked for keep
// it too (a cluster's workgroups must be neighbours in the launch order),
// without a word about the order, which was not asked for.
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true workgroup-group-size=1 split-k=1}))' 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-cluster-m=2 split-k=1}))' 2>&1 | FileCheck %s --check-prefix=CLUSTER
// The plans parse and verify again, and keep their order:
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' \
// RUN:   | gpucg-opt -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s --check-prefix=AGAIN

// 1024 x 28672 in 128x256 tiles: 8 rows of 112 tiles, 896 workgroups.
// REMARK: remark: plan of @wide: {{.*}}, 4 stages, workgroups in groups of 8 rows on sm_90a; the default workgroup order: 896 workgroups are more than the 132 SMs run at once, which in the launch order would take whole rows of 112 tiles, each reading every column block of B
// 384 x 28672: 3 rows, groups of all 3.
// REMARK: remark: plan of @three_rows: {{.*}}, workgroups in groups of 3 rows on sm_90a; the default workgroup order: 336 workgroups
// One row of tiles, one wave, a user's plan, mma.sync on sm_80: the
// launch order.
// REMARK: remark: plan of @one_row: {{.*}} stages on sm_90a{{$}}
// REMARK: remark: plan of @one_wave: {{.*}} stages on sm_90a{{$}}
// REMARK: remark: plan of @user_plan: {{.*}} stages on sm_90a{{$}}
// REMARK: remark: plan of @mma_sync: {{.*}} stages on sm_80{{$}}
// CHECK-LABEL: func.func @wide
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, workgroup_group_size = 8>
// CHECK-LABEL: func.func @three_rows
// CHECK-SAME: workgroup_group_size = 3>
// CHECK-LABEL: func.func @one_row
// CHECK-NOT: workgroup_group_size
// CHECK-LABEL: func.func @one_wave
// CHECK-NOT: workgroup_group_size
// CHECK-LABEL: func.func @user_plan
// CHECK-NOT: workgroup_group_size
// CHECK-LABEL: func.func @mma_sync
// CHECK-NOT: workgroup_group_size

// ROWS: remark: plan of @wide: {{.*}} stages on sm_90a{{$}}
// ROWS-NOT: workgroup_group_size
// CLUSTER: remark: plan of @wide: {{.*}} stages, clusters of 2x1 workgroups on sm_90a{{$}}
// CLUSTER-NOT: workgroup_group_size

// AGAIN-LABEL: func.func @wide
// AGAIN-SAME: workgroup_group_size = 8>
// AGAIN-LABEL: func.func @three_rows
// AGAIN-SAME: workgroup_group_size = 3>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @wide(%a: tensor<1024x512xbf16>, %b: tensor<28672x512xbf16>, %c: tensor<1024x28672xf32>) -> tensor<1024x28672xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x28672xf32>) -> tensor<1024x28672xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<1024x512xbf16>, tensor<28672x512xbf16>) outs(%f : tensor<1024x28672xf32>) -> tensor<1024x28672xf32>
    return %0 : tensor<1024x28672xf32>
  }
  func.func @three_rows(%a: tensor<384x512xbf16>, %b: tensor<512x28672xbf16>, %c: tensor<384x28672xf32>) -> tensor<384x28672xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<384x28672xf32>) -> tensor<384x28672xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<384x512xbf16>, tensor<512x28672xbf16>) outs(%f : tensor<384x28672xf32>) -> tensor<384x28672xf32>
    return %0 : tensor<384x28672xf32>
  }
  func.func @one_row(%a: tensor<128x512xbf16>, %b: tensor<512x28672xbf16>, %c: tensor<128x28672xf32>) -> tensor<128x28672xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x28672xf32>) -> tensor<128x28672xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<128x512xbf16>, tensor<512x28672xbf16>) outs(%f : tensor<128x28672xf32>) -> tensor<128x28672xf32>
    return %0 : tensor<128x28672xf32>
  }
  func.func @one_wave(%a: tensor<1024x512xbf16>, %b: tensor<512x1024xbf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func @user_plan(%a: tensor<8192x512xbf16>, %b: tensor<512x8192xbf16>, %c: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 4>>}
      ins(%a, %b : tensor<8192x512xbf16>, tensor<512x8192xbf16>) outs(%f : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
    return %0 : tensor<8192x8192xf32>
  }
}

// -----

module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @mma_sync(%a: tensor<8192x512xf16>, %b: tensor<512x8192xf16>, %c: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<8192x512xf16>, tensor<512x8192xf16>) outs(%f : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
    return %0 : tensor<8192x8192xf32>
  }
}
