// The launch shape a user asks for (gpucg-select-lowering-strategy's
// workgroup-group-size and wgmma-* options): each kernel's plan records what
// it can take, and the report says why it left out the rest.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-persistent=true wgmma-persistent-workgroups=8 wgmma-staged-store=true}))' 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-persistent=true}))' 2>&1 | FileCheck %s --check-prefix=SMS
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-cluster-m=2 wgmma-cluster-n=2 workgroup-group-size=8}))' 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-staged-store=true workgroup-group-size=8 split-k=1}))' 2>&1 | FileCheck %s --check-prefix=STAGED
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-cluster-m=2 wgmma-cluster-n=2 wgmma-persistent=true wgmma-persistent-workgroups=3}))' 2>&1 | FileCheck %s --check-prefix=FEW
// The plans parse and verify again:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{wgmma-cluster-m=2 wgmma-cluster-n=2 wgmma-persistent=true wgmma-persistent-workgroups=8}))' \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s --check-prefix=AGAIN

// A persistent grid of 8 workgroups for the warp-specialized kernels (64
// and 24 tiles of 128x128); the staged store then needs the ring, which
// takes the next tile's loads. One warpgroup takes neither.
// PERSISTENT: remark: plan of @tiles_64: {{.*}}, 4 stages, persistent grid of 8 workgroups on sm_90a; a staged store not taken: a persistent workgroup's ring holds the next tile's loads
// PERSISTENT: remark: plan of @one_warpgroup: {{.*}} on sm_90a; a persistent grid not taken: a workgroup of one warpgroup has no producer warpgroup to load the next tile while it stores the last; a staged store not taken: its ring of 16384 bytes cannot hold the 18432-byte staging buffer
// PERSISTENT: remark: plan of @add: pipeline Vectorize, {{.*}} on sm_90a{{$}}
// PERSISTENT: func.func @tiles_64({{.*}}#gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, persistent_workgroups = 8>}
// PERSISTENT: func.func @one_warpgroup({{.*}}#gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32>}
// PERSISTENT: func.func @tiles_3x8({{.*}}persistent_workgroups = 8>}

// With the SM count (132), no kernel has more tiles than workgroups.
// SMS: remark: plan of @tiles_64: {{.*}}; a persistent grid not taken: its 64 tiles take no more than 132 workgroups
// SMS: remark: plan of @tiles_3x8: {{.*}}; a persistent grid not taken: its 24 tiles take no more than 132 workgroups
// SMS-NOT: persistent_workgroups

// Clusters of 2x2 where the tiles divide; a clustered kernel keeps the
// launch order, the others take the group order.
// CLUSTER: remark: plan of @tiles_64: {{.*}}, clusters of 2x2 workgroups on sm_90a; workgroup groups of 8 rows not taken: a cluster's workgroups are neighbours in the launch order
// CLUSTER: remark: plan of @one_warpgroup: {{.*}}, workgroups in groups of 8 rows on sm_90a; clusters of 2x2 workgroups not taken: a workgroup of one warpgroup has no producer warpgroup to wait for the cluster's releases of a stage
// CLUSTER: remark: plan of @tiles_3x8: {{.*}}, workgroups in groups of 8 rows on sm_90a; clusters of 2x2 workgroups not taken: its 3 tiles along M are not a multiple of 2
// CLUSTER: remark: plan of @add: {{.*}}, workgroups in groups of 8 rows on sm_90a{{$}}
// CLUSTER: func.func @tiles_64({{.*}}pipeline_depth = 4, cluster = [2, 2]>}
// CLUSTER: func.func @one_warpgroup({{.*}}workgroup_group_size = 8>}
// CLUSTER: func.func @tiles_3x8({{.*}}workgroup_group_size = 8>}
// CLUSTER: func.func @add({{.*}}pipeline = Vectorize, workgroup_size = [128, 1, 1], workgroup_group_size = 8>}

// A staged store where the ring (4 stages of 32 KB) holds the 68 KB staging
// buffer.
// STAGED: remark: plan of @tiles_64: {{.*}}, 4 stages, staged store, workgroups in groups of 8 rows on sm_90a{{$}}
// STAGED: func.func @tiles_64({{.*}}workgroup_group_size = 8, staged_store = true>}

// A persistent grid of whole clusters: 3 workgroups hold none of 4.
// FEW: remark: plan of @tiles_64: {{.*}}, clusters of 2x2 workgroups on sm_90a; a persistent grid not taken: 3 workgroups are fewer than a cluster of 4

// A plan with a launch shape of its own (the printed one, here) is kept.
// AGAIN: func.func @tiles_64({{.*}}pipeline_depth = 4, persistent_workgroups = 8, cluster = [2, 2]>}
// AGAIN: func.func @tiles_3x8({{.*}}pipeline_depth = 4, persistent_workgroups = 8>}

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @tiles_64(%a: tensor<1024x512xf16>, %b: tensor<512x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf16>, tensor<512x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func @one_warpgroup(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
  func.func @tiles_3x8(%a: tensor<384x512xf16>, %b: tensor<512x1024xf16>, %c: tensor<384x1024xf32>) -> tensor<384x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<384x1024xf32>) -> tensor<384x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<384x512xf16>, tensor<512x1024xf16>) outs(%f : tensor<384x1024xf32>) -> tensor<384x1024xf32>
    return %0 : tensor<384x1024xf32>
  }
  func.func @add(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %0 = linalg.add ins(%a, %a : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%b : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}
