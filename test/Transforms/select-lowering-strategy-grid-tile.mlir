// The tile of a MatmulWgmma plan made for the grid asked for: a persistent
// grid (wgmma-persistent) or stream-K (wgmma-stream-k) stages a fused
// epilogue's accumulator beside the ring (the ring takes the next tile's
// loads), and stream-K every tile's. Where the plan's own tile leaves no
// room for that (128x256: a 135168-byte staging buffer beside 4 stages of
// 48 KB), the strategy plans the tile for the grid and says why; where the
// own tile takes the grid, or no tile does, the plan keeps its own.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true}))' 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-persistent=true}))' 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true wgmma-stream-k=true wgmma-persistent-workgroups=100}))' 2>&1 | FileCheck %s --check-prefix=STREAM-K
// The plans parse and verify again:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{wgmma-persistent=true}))' \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s --check-prefix=AGAIN

// On its own grid (one workgroup per tile) the ReLU's accumulator is
// staged in the ring once the K loop is done: 128x256 in 4 stages.
// OWN: remark: plan of @relu: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x256x64, 4 stages, workgroups in groups of 8 rows on sm_90a; the default workgroup order: {{.*}}
// OWN: remark: plan of @relu_k64: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x256x64, workgroups
// OWN: func.func @relu({{.*}}pipeline_depth = 4, workgroup_group_size = 8>}
// OWN: lowering_config<tile_sizes = {{\[\[}}128, 256, 64]]>

// PERSISTENT: remark: plan of @relu: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x128x64, 4 stages, persistent grid of 132 workgroups, workgroups in groups of 8 rows on sm_90a; tile 128x128 in 4 stages for a persistent grid, not its own 128x256 in 4 stages, on which a persistent grid cannot run: its accumulator's staging buffer (135168 bytes) does not fit beside the ring (196608 bytes) in the 232448 bytes sm_90a allows, and a persistent workgroup cannot stage in the ring, where the next tile's loads land; the default workgroup order: {{.*}}
// One K step (K = 64) needs a single stage, which fits beside the 128x256
// staging buffer: the own tile takes the grid.
// PERSISTENT: remark: plan of @relu_k64: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x256x64, persistent grid of 132 workgroups, workgroups in groups of 8 rows on sm_90a; the default workgroup order: {{[^;]*}}{{$}}
// PERSISTENT: func.func @relu({{.*}}pipeline_depth = 4, workgroup_group_size = 8, persistent_workgroups = 132>}
// PERSISTENT: lowering_config<tile_sizes = {{\[\[}}128, 128, 64]]>
// PERSISTENT: func.func @relu_k64({{.*}}subgroup_size = 32, workgroup_group_size = 8, persistent_workgroups = 132>}
// PERSISTENT: lowering_config<tile_sizes = {{\[\[}}128, 256, 64]]>

// Stream-K on 100 workgroups; K = 64 is one K step per tile, and 128
// tiles of 128x256 are more steps than workgroups.
// STREAM-K: remark: plan of @relu: {{.*}}workgroup tile 128x128x64, 4 stages, persistent grid of 100 workgroups, stream-K {{.*}}; tile 128x128 in 4 stages for stream-K, not its own 128x256 in 4 stages, on which stream-K cannot run: its accumulator's staging buffer (135168 bytes) does not fit beside the ring (196608 bytes)
// STREAM-K: remark: plan of @relu_k64: {{.*}}workgroup tile 128x256x64, persistent grid of 100 workgroups, stream-K {{.*}}; the default workgroup order: {{[^;]*}}{{$}}

// AGAIN: func.func @relu({{.*}}pipeline_depth = 4, workgroup_group_size = 8, persistent_workgroups = 132>}
// AGAIN: lowering_config<tile_sizes = {{\[\[}}128, 128, 64]]>

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @relu(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>, %d: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4096x4096xf32>) outs(%d : tensor<4096x4096xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.maximumf %x, %zero : f32
      linalg.yield %m : f32
    } -> tensor<4096x4096xf32>
    return %1 : tensor<4096x4096xf32>
  }
  func.func @relu_k64(%a: tensor<4096x64xf16>, %b: tensor<64x4096xf16>, %c: tensor<4096x4096xf32>, %d: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<4096x64xf16>, tensor<64x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4096x4096xf32>) outs(%d : tensor<4096x4096xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.maximumf %x, %zero : f32
      linalg.yield %m : f32
    } -> tensor<4096x4096xf32>
    return %1 : tensor<4096x4096xf32>
  }
}
