// Split-K of MatmulWgmma plans (sm_90a): a warp-specialized plan takes the
// parts, with staged_store where it has no fused epilogue (the parts are
// added in the staging buffer; a transposed tile, M below 64, is always
// staged); a plan it does not fit declines them with the reason. By
// default a plan with fewer tiles than SMs splits like mma.sync's.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true split-k=4}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=FOUR
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{split-k=4}))' | FileCheck %s
// With a persistent grid asked for too, the grid wins.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true split-k=4 wgmma-persistent=true wgmma-persistent-workgroups=8}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=PERSISTENT
// The default: the fewest parts (of at least 4 K steps) that give every SM
// a workgroup; split-k=1 keeps K whole.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true split-k=1}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=WHOLE

// FOUR: remark: plan of @llama_o_m128: pipeline MatmulWgmma (wgmma), workgroup 384x1x1 threads, workgroup tile 128x128x64, 4 stages, staged store, K split into 4 parts (split-K, one workgroup each) on sm_90a{{$}}
// FOUR: remark: plan of @small_m: pipeline MatmulWgmma (wgmma), workgroup 256x1x1 threads, workgroup tile 32x64x64, 4 stages, K split into 4 parts (split-K, one workgroup each) on sm_90a; small M: computed as C^T = B^T * A^T, the 32 rows as wgmma's N in a tile of 32, the weights as its 64-row M{{$}}
// K = 640 in 4 parts of whole K steps: 3 steps each, the last part's
// 2 past K reading zeros.
// FOUR: remark: plan of @odd_part: {{.*}}, staged store, K split into 4 parts (split-K, one workgroup each) on sm_90a{{$}}
// A part of 2 K steps leaves a ring of 2 stages (96 KB), too small to hold
// the fused epilogue's staging buffer of a 128x256 tile (132 KB), which
// beside it would not fit: the split is declined.
// FOUR: remark: plan of @ring_too_short: {{.*}}workgroup tile 128x256x64, 4 stages on sm_90a; a split of K into 4 parts not taken: its ring of 2 stages (at most one per K step of a part) is too small to hold the accumulator's staging buffer of 135168 bytes, and the two beside each other with 2048 more need 235520 bytes, more than the 232448 bytes sm_90a allows per workgroup (max_shared_memory_per_block_optin){{$}}
// CHECK-LABEL: func.func @llama_o_m128
//  CHECK-SAME:   pipeline = MatmulWgmma, {{.*}}staged_store = true, split_k = 4>
// CHECK-LABEL: func.func @small_m
//  CHECK-SAME:   pipeline = MatmulWgmma, {{.*}}pipeline_depth = 4, split_k = 4>
// CHECK-LABEL: func.func @odd_part
//  CHECK-SAME:   pipeline_depth = 3, staged_store = true, split_k = 4>
// PERSISTENT: remark: plan of @llama_o_m128: {{.*}}, persistent grid of 8 workgroups on sm_90a; a split of K into 4 parts not taken: the kernel runs on a persistent grid
// DEFAULT: remark: plan of @llama_o_m128: {{.*}}, 4 stages, staged store, K split into 8 parts (split-K, one workgroup each) on sm_90a; split-K by default: 32 tiles are fewer than the 132 SMs, so K = 4096 is split into 8 parts of 512 (256 workgroups), added in a fixed order
// DEFAULT: remark: plan of @small_m: {{.*}}, 4 stages, K split into 4 parts (split-K, one workgroup each) on sm_90a; small M: computed as C^T = B^T * A^T, the 32 rows as wgmma's N in a tile of 32, the weights as its 64-row M; split-K by default: 64 tiles are fewer than the 132 SMs, so K = 4096 is split into 4 parts of 1024 (256 workgroups), added in a fixed order
// The most parts of whole K steps (640 = 2 x 5 steps of 64; 4 x 160 is not whole).
// DEFAULT: remark: plan of @odd_part: {{.*}}, K split into 2 parts (split-K, one workgroup each) on sm_90a; split-K by default: 32 tiles are fewer than the 132 SMs, so K = 640 is split into 2 parts of 320 (64 workgroups), added in a fixed order
// K = 1000 divides into no parts of whole K steps: 3 parts of 6 steps, the
// last reaching past K (TMA reads zeros there).
// DEFAULT: remark: plan of @cube_1000: {{.*}}, 4 stages, K split into 3 parts (split-K, one workgroup each) on sm_90a; split-K by default: 64 tiles are fewer than the 132 SMs, so K = 1000 is split into 3 parts of 384 (the last 232, its K steps past K reading zeros) (192 workgroups), added in a fixed order
// WHOLE: remark: plan of @llama_o_m128: {{.*}}, 4 stages on sm_90a{{$}}
// WHOLE: remark: plan of @small_m: {{.*}}, 4 stages on sm_90a; small M: computed as C^T = B^T * A^T, the 32 rows as wgmma's N in a tile of 32, the weights as its 64-row M{{$}}

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @llama_o_m128(%a: tensor<128x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<128x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    return %0 : tensor<128x4096xf32>
  }
  func.func @small_m(%a: tensor<32x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<32x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<32x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x4096xf32>) -> tensor<32x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<32x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<32x4096xf32>) -> tensor<32x4096xf32>
    return %0 : tensor<32x4096xf32>
  }
  func.func @odd_part(%a: tensor<128x640xbf16>, %b: tensor<4096x640xbf16>) -> tensor<128x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<128x640xbf16>, tensor<4096x640xbf16>) outs(%f : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    return %0 : tensor<128x4096xf32>
  }
  func.func @cube_1000(%a: tensor<1000x1000xf16>, %b: tensor<1000x1000xf16>) -> tensor<1000x1000xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1000x1000xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1000x1000xf16>, tensor<1000x1000xf16>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    return %0 : tensor<1000x1000xf32>
  }
  func.func @ring_too_short(%a: tensor<128x512xbf16>, %b: tensor<512x256xbf16>) -> tensor<128x256xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %m = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 256, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 4>>}
      ins(%a, %b : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = tensor.empty() : tensor<128x256xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<128x256xf32>) outs(%o : tensor<128x256xf32>) {
    ^bb0(%x: f32, %y: f32):
      %q = arith.maximumf %x, %zero : f32
      linalg.yield %q : f32
    } -> tensor<128x256xf32>
    return %r : tensor<128x256xf32>
  }
}
