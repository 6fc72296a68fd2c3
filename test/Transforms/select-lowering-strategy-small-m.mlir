// Small M (16 to 127 rows, select-lowering-strategy.md#small-m): an
// mma.sync plan the strategy chooses takes a small-M tile, all of M in one
// row (or a few rows) of tiles 128 columns wide with the warps side by side
// along N (16x128 and 32x128 on 4 warps; 64x128 on 2x2), where with the
// split of K it gets that grid gives every SM a workgroup or at least as
// many as the general tile's; the report says so. Without a split (C +=
// A * B, split-k=1) or with N under 128 columns the general tiles stay.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SM90
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true split-k=1}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=WHOLE
// RUN: sed -e 's/chip = "sm_90"/chip = "sm_80"/' %s | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SM80
// RUN: sed -e 's/chip = "sm_90"/chip = "sm_90a"/' %s | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SM90A
// The plans parse, verify and stay:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s --check-prefix=AGAIN

// sm_90 (132 SMs): 32 tiles of 16x128 in 8 parts; 224 tiles need none.
// SM90: remark: plan of @decode_m16: pipeline MatmulTensorCoreMmaSync (mma_sync 16x8x16), workgroup 128x1x1 threads, workgroup tile 16x128x32, warp tile 16x32x0, 4 stages, K split into 8 parts (split-K, one workgroup each) on sm_90; small M: the 16 rows in one row of 16x128 tiles on 4 warps side by side along N, so B is read once (each part of K its slice); split-K by default: 32 tiles are fewer than the 132 SMs, so K = 4096 is split into 8 parts of 512 (256 workgroups), added in a fixed order
// SM90: remark: plan of @decode_m16_nt: {{.*}}workgroup tile 16x128x32, warp tile 16x32x0, 4 stages, K split into 8 parts
// SM90: remark: plan of @decode_gate_up: {{.*}}workgroup 128x1x1 threads, workgroup tile 16x128x32, warp tile 16x32x0, 4 stages on sm_90; small M: the 16 rows in one row of 16x128 tiles on 4 warps side by side along N, so B is read once{{$}}
// SM90: remark: plan of @m20: {{.*}}workgroup tile 16x128x32, warp tile 16x32x0, 4 stages, K split into 4 parts {{.*}}; small M: the 20 rows in 2 rows of 16x128 tiles on 4 warps side by side along N, so B is read once per row (each part of K its slice); split-K by default: 64 tiles
// SM90: remark: plan of @m48_i8: pipeline MatmulTensorCoreMmaSync (mma_sync 16x8x32), workgroup 128x1x1 threads, workgroup tile 32x128x64, warp tile 32x32x0, 4 stages, K split into 4 parts {{.*}}; small M: the 48 rows in 2 rows of 32x128 tiles
// SM90: remark: plan of @m64: {{.*}}workgroup 64x2x1 threads, workgroup tile 64x128x32, warp tile 32x64x0, 4 stages, K split into 8 parts {{.*}}; small M: the 64 rows in one row of 64x128 tiles on 2x2 warps, so B is read once (each part of K its slice)
// SM90: remark: plan of @narrow_n: {{.*}}workgroup 32x1x1 threads, workgroup tile 16x16x32, {{.*}}, K split into 16 parts
// SM90-NOT: small M
// SM90: remark: plan of @accumulate: {{.*}}workgroup 32x1x1 threads, workgroup tile 16x16x32, warp tile 16x16x0, 4 stages on sm_90{{$}}
// SM90: remark: plan of @short_k: {{.*}}workgroup tile 16x16x32, {{.*}}, K split into 2 parts
// SM90-NOT: small M

// Without a split, 32 wide tiles would leave 100 SMs idle: the one-warp
// tiles stay, where 224 wide tiles fill the SMs alone.
// WHOLE: remark: plan of @decode_m16: {{.*}}workgroup 32x1x1 threads, workgroup tile 16x16x32, warp tile 16x16x0, 4 stages on sm_90{{$}}
// WHOLE: remark: plan of @decode_m16_nt: {{.*}}workgroup tile 16x16x32,
// WHOLE: remark: plan of @decode_gate_up: {{.*}}workgroup tile 16x128x32, {{.*}}; small M
// WHOLE: remark: plan of @m20: {{.*}}workgroup tile 16x16x32,
// WHOLE: remark: plan of @m48_i8: {{.*}}workgroup tile 16x16x64,
// WHOLE: remark: plan of @m64: {{.*}}workgroup tile 32x32x32,

// sm_80 (108 SMs): fewer parts fill it.
// SM80: remark: plan of @decode_m16: {{.*}}workgroup tile 16x128x32, warp tile 16x32x0, 4 stages, K split into 4 parts {{.*}} on sm_80; small M
// SM80: remark: plan of @m64: {{.*}}workgroup tile 64x128x32, warp tile 32x64x0, 4 stages, K split into 4 parts {{.*}} on sm_80; small M

// sm_90a: B[n, k] at M = 16 is a transposed warpgroup-MMA tile, whose K
// is split by default like mma.sync's; B[k, n] one padded 64-row
// warpgroup-MMA tile (nvgpu takes no transposed tile of it), split too.
// SM90A: remark: plan of @decode_m16: pipeline MatmulWgmma (wgmma), workgroup 256x1x1 threads, workgroup tile 64x64x64, 4 stages, K split into 4 parts {{.*}} on sm_90a; small M: the 16 rows padded to one 64-row tile, which costs tensor-core time, not reads of B; not transposed (C^T = B^T * A^T) as B[n, k] would be: B[k, n] would be wgmma's M-contiguous A, which nvgpu takes only with an N-contiguous B; split-K by default
// SM90A: remark: plan of @decode_m16_nt: pipeline MatmulWgmma (wgmma), workgroup 256x1x1 threads, workgroup tile 16x64x64, 4 stages, K split into 4 parts (split-K, one workgroup each) on sm_90a; small M: computed as C^T = B^T * A^T, the 16 rows as wgmma's N in a tile of 16, the weights as its 64-row M; split-K by default: 64 tiles are fewer than the 132 SMs, so K = 4096 is split into 4 parts of 1024 (256 workgroups), added in a fixed order
// SM90A: remark: plan of @decode_gate_up: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 16x128x64, 4 stages on sm_90a; small M: computed as C^T = B^T * A^T, the 16 rows as wgmma's N in a tile of 16, the weights as its 64-row M{{$}}

// AGAIN-LABEL: func.func @decode_m16(
// AGAIN-SAME: workgroup_size = [128, 1, 1], {{.*}}split_k = 8>
// AGAIN: tile_sizes = {{\[}}[16, 128, 32], [16, 32, 0], [16, 8, 16]]
// AGAIN-LABEL: func.func @m64(
// AGAIN-SAME: workgroup_size = [64, 2, 1], {{.*}}split_k = 8>
// AGAIN: tile_sizes = {{\[}}[64, 128, 32], [32, 64, 0], [16, 8, 16]]

#nt = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  // Llama-3-8B's o projection at M = 16 with B as K x N.
  func.func @decode_m16(%a: tensor<16x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<16x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %r = linalg.matmul ins(%a, %b : tensor<16x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    return %r : tensor<16x4096xf32>
  }
  // Llama-3-8B's o projection at M = 16 as nn.Linear stores it (B[n, k]):
  // on sm_90a a transposed warpgroup-MMA tile, which splits K too.
  func.func @decode_m16_nt(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %r = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<16x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    return %r : tensor<16x4096xf32>
  }
  // Llama-3-8B's gate/up projection at M = 16 (nn.Linear's B[n, k]).
  func.func @decode_gate_up(%a: tensor<16x4096xbf16>, %b: tensor<28672x4096xbf16>) -> tensor<16x28672xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x28672xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x28672xf32>) -> tensor<16x28672xf32>
    %r = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<16x4096xbf16>, tensor<28672x4096xbf16>) outs(%f : tensor<16x28672xf32>) -> tensor<16x28672xf32>
    return %r : tensor<16x28672xf32>
  }
  func.func @m20(%a: tensor<20x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<20x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<20x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<20x4096xf32>) -> tensor<20x4096xf32>
    %r = linalg.matmul ins(%a, %b : tensor<20x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<20x4096xf32>) -> tensor<20x4096xf32>
    return %r : tensor<20x4096xf32>
  }
  func.func @m48_i8(%a: tensor<48x4096xi8>, %b: tensor<4096x4096xi8>) -> tensor<48x4096xi32> {
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<48x4096xi32>
    %f = linalg.fill ins(%zero : i32) outs(%e : tensor<48x4096xi32>) -> tensor<48x4096xi32>
    %r = linalg.matmul indexing_maps = #nt ins(%a, %b : tensor<48x4096xi8>, tensor<4096x4096xi8>) outs(%f : tensor<48x4096xi32>) -> tensor<48x4096xi32>
    return %r : tensor<48x4096xi32>
  }
  func.func @m64(%a: tensor<64x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<64x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x4096xf32>) -> tensor<64x4096xf32>
    %r = linalg.matmul ins(%a, %b : tensor<64x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<64x4096xf32>) -> tensor<64x4096xf32>
    return %r : tensor<64x4096xf32>
  }
  // N below the small-M tile's 128 columns.
  func.func @narrow_n(%a: tensor<16x4096xf16>, %b: tensor<4096x96xf16>) -> tensor<16x96xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x96xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x96xf32>) -> tensor<16x96xf32>
    %r = linalg.matmul ins(%a, %b : tensor<16x4096xf16>, tensor<4096x96xf16>) outs(%f : tensor<16x96xf32>) -> tensor<16x96xf32>
    return %r : tensor<16x96xf32>
  }
  // C += A * B: K stays whole, and 32 wide tiles would leave SMs idle.
  func.func @accumulate(%a: tensor<16x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<16x4096xf32>) -> tensor<16x4096xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<16x4096xf16>, tensor<4096x4096xf16>) outs(%c : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    return %r : tensor<16x4096xf32>
  }
  // A short K: the wide tiles' parts would be too few.
  func.func @short_k(%a: tensor<16x256xf16>, %b: tensor<256x1024xf16>) -> tensor<16x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x1024xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x1024xf32>) -> tensor<16x1024xf32>
    %r = linalg.matmul ins(%a, %b : tensor<16x256xf16>, tensor<256x1024xf16>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
    return %r : tensor<16x1024xf32>
  }
}
