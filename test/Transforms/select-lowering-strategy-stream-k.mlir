// Stream-K asked of the strategy (wgmma-stream-k): warp-specialized
// MatmulWgmma kernels with a static K take it on the persistent grid (of
// the SMs, or wgmma-persistent-workgroups), with the accumulator staged
// beside the ring, where a tile's parts are added; the report says which
// kernels left it out and why.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-stream-k=true}))' 2>&1 | FileCheck %s --check-prefix=SMS
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-stream-k=true wgmma-persistent-workgroups=5 split-k=2}))' 2>&1 | FileCheck %s --check-prefix=FIVE
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-stream-k=true wgmma-persistent=true wgmma-cluster-m=2}))' 2>&1 | FileCheck %s --check-prefix=CLUSTER
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-stream-k=true mma=mma-sync}))' 2>&1 | FileCheck %s --check-prefix=MMA-SYNC
// The plans parse and verify again:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{wgmma-stream-k=true}))' \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s --check-prefix=AGAIN

// 1000 x 1000 x 1024 in 128x128 tiles: 64 tiles, fewer than the 132 SMs
// (a persistent grid alone would not be taken), of 16 K steps each: 1024
// steps, about 7.8 per SM. One warpgroup has no producer; a dynamic K no
// count of steps to split; two tiles of one step each are fewer steps
// than SMs.
// SMS: remark: plan of @tiles_64: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x128x64, 4 stages, persistent grid of 132 workgroups, stream-K (the last waves' K steps split evenly over the workgroups, partial tiles added in workgroup order) on sm_90a{{$}}
// SMS: remark: plan of @one_warpgroup: {{.*}} on sm_90a; stream-K not taken: a workgroup of one warpgroup has no producer warpgroup to load the next tile while it stores the last{{$}}
// SMS: remark: plan of @dynamic_k: {{.*}} on sm_90a; stream-K not taken: its K is dynamic, and stream-K splits a count of K steps known when the kernel is compiled{{$}}
// SMS: remark: plan of @one_step: {{.*}} on sm_90a; stream-K not taken: its 2 K steps (2 tiles of 1) are fewer than the 132 workgroups{{$}}
// SMS: remark: plan of @add: pipeline Vectorize, {{.*}} on sm_90a{{$}}
// 4096^3 takes 128x256 tiles of its own, whose 135168-byte staging buffer
// (the f32 tile, rows padded) leaves no room for two stages beside it: the
// plan for stream-K takes 128x128 tiles, which keep all 4 stages, and says
// why.
// SMS: remark: plan of @square: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x128x64, 4 stages, persistent grid of 132 workgroups, stream-K {{.*}}; tile 128x128 in 4 stages for stream-K, not its own 128x256 in 4 stages, on which stream-K cannot run: its accumulator's staging buffer (135168 bytes) does not fit beside the ring (196608 bytes) in the 232448 bytes sm_90a allows, and a persistent workgroup cannot stage in the ring, where the next tile's loads land; the default workgroup order: {{.*}}
// SMS: func.func @tiles_64({{.*}}#gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4, persistent_workgroups = 132, stream_k = true>}
// SMS-NOT: stream_k = true
// SMS: func.func @square({{.*}}pipeline_depth = 4, workgroup_group_size = 8, persistent_workgroups = 132, stream_k = true>}
// SMS: lowering_config<tile_sizes = {{\[\[}}128, 128, 64]]>

// Five workgroups; split-K is for grids of one workgroup per tile.
// FIVE: remark: plan of @tiles_64: {{.*}}, persistent grid of 5 workgroups, stream-K {{.*}} on sm_90a; a split of K into 2 parts not taken: the kernel runs on a persistent grid{{$}}
// FIVE: remark: plan of @one_step: {{.*}} on sm_90a; stream-K not taken: its 2 K steps (2 tiles of 1) are fewer than the 5 workgroups; a split of K
// FIVE: func.func @tiles_64({{.*}}persistent_workgroups = 5, stream_k = true>}

// A cluster's workgroups share their loads: stream-K is not taken, and the
// persistent grid asked for beside it is judged on its own.
// CLUSTER: remark: plan of @tiles_64: {{.*}}, 4 stages, clusters of 2x1 workgroups on sm_90a; stream-K not taken: the workgroups of a cluster share their tiles' loads, which stream-K's parts of K do not line up for; a persistent grid not taken: its 64 tiles take no more than 132 workgroups{{$}}
// @square's own 128x256 tiles take the persistent grid and the cluster,
// and no tile takes stream-K in a cluster: the plan stays its own.
// CLUSTER: remark: plan of @square: {{.*}}workgroup tile 128x256x64, 4 stages, persistent grid of 132 workgroups, clusters of 2x1 workgroups on sm_90a; stream-K not taken: the workgroups of a cluster share their tiles' loads, which stream-K's parts of K do not line up for{{$}}
// CLUSTER-NOT: stream_k

// An mma.sync kernel: stream-K is MatmulWgmma's.
// MMA-SYNC: remark: plan of @tiles_64: pipeline MatmulTensorCoreMmaSync {{.*}}; stream-K not taken: the kernel takes pipeline MatmulTensorCoreMmaSync, and stream-K is built for MatmulWgmma's persistent grid{{$}}
// MMA-SYNC: remark: plan of @add: pipeline Vectorize, {{.*}} on sm_90a{{$}}
// MMA-SYNC-NOT: stream_k

// AGAIN: func.func @tiles_64({{.*}}persistent_workgroups = 132, stream_k = true>}
// AGAIN: func.func @square({{.*}}persistent_workgroups = 132, stream_k = true>}
// AGAIN: lowering_config<tile_sizes = {{\[\[}}128, 128, 64]]>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @tiles_64(%a: tensor<1000x1024xf16>, %b: tensor<1024x1000xf16>, %c: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1000x1024xf16>, tensor<1024x1000xf16>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    return %0 : tensor<1000x1000xf32>
  }
  func.func @one_warpgroup(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
  func.func @dynamic_k(%a: tensor<1024x?xf16>, %b: tensor<?x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x?xf16>, tensor<?x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func @one_step(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    return %0 : tensor<128x256xf32>
  }
  func.func @add(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %0 = linalg.add ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%a : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func @square(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}
