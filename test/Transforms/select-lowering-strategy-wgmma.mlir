// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | gpucg-opt -split-input-file > /dev/null

// On sm_90a a zero-filled f16 matmul on the kernel's arguments takes
// MatmulWgmma. Warp specialized (one producer and two consumer warpgroups:
// 384 threads) with the first tile that gives every SM (132) a workgroup,
// else the one with the most: 1024 x 1024 has 32 tiles of 128x256 and 64 of
// 128x128, so 128x128; K tiles of 64 (128-byte rows), as many stages (up to
// 4) as K has tiles.

// CHECK-LABEL: func.func @f16_128x128
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[128, 128, 64]]>}
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @f16_128x128(%a: tensor<1024x512xf16>, %b: tensor<512x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf16>, tensor<512x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}

// -----

// 4096 x 4096 has 512 tiles of 128x256: 4 stages of 48 KB.
// CHECK-LABEL: func.func @bf16_128x256
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[}}[128, 256, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @bf16_128x256(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}

// -----

// M = 64: no warp-specialized tile divides it; one warpgroup with the 64x256
// tile; K = 128: two stages.
// CHECK-LABEL: func.func @bf16_64x256
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 2
// CHECK: tile_sizes = {{\[}}[64, 256, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @bf16_64x256(%a: tensor<64x128xbf16>, %b: tensor<128x512xbf16>, %c: tensor<64x512xf32>) -> tensor<64x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x128xbf16>, tensor<128x512xbf16>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
    return %0 : tensor<64x512xf32>
  }
}

// -----

// C += A * B (the accumulator is the argument's contents) is MatmulWgmma,
// its product staged like a fused epilogue's (in the ring of 4 stages).
// What MatmulWgmma does not take falls back to mma.sync: an accumulator that
// starts at a non-zero fill, sm_90 (no `a` features), a consumer that reads
// the result as its output. A transposed A (A[k, m]) is MatmulWgmma, one
// k16 step per op, so 64 rows per consumer.
// CHECK-LABEL: func.func @accumulate
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[\[}}128, 128, 64]]
// CHECK-LABEL: func.func @fill_of_one
// CHECK-SAME: pipeline = MatmulTensorCoreMmaSync
// CHECK-LABEL: func.func @sm90
// CHECK-SAME: pipeline = MatmulTensorCoreMmaSync
// CHECK-LABEL: func.func @consumer
// CHECK-SAME: pipeline = MatmulTensorCoreMmaSync
// CHECK-LABEL: func.func @transposed_a
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]
// CHECK: tile_sizes = {{\[\[}}128, 128, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @accumulate(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  func.func @fill_of_one(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %one = arith.constant 1.0 : f32
    %f = linalg.fill ins(%one : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  func.func @sm90(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  func.func @consumer(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%0 : tensor<256x256xf32>) {
    ^bb0(%x: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    } -> tensor<256x256xf32>
    return %1 : tensor<256x256xf32>
  }
  func.func @transposed_a(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

// A[k, m] times B[n, k] (C = (B * A)^T, the "tt" layout) is computed as
// C^T = B^T * A^T: nvgpu takes an M-contiguous A only with an N-contiguous
// B, and C^T's operands are B[n, k] (wgmma's K-major A) and A[k, m] (its
// N-major B). The tiles are wgmma's transposed: 4096^3 takes 256 rows of C
// (wgmma's N) by 128 columns (wgmma's M, 64 per consumer), 512
// workgroups; a decode step of 16 rows one 64-row tile (one box of A's 64
// columns), 64 columns on one consumer (64 workgroups, more than 32 of
// 128 columns), its K split by default. A dynamic M (a prompt's tokens)
// takes the tiles of the 1024 rows it is planned for (128 x 128: 256
// workgroups, where 256 x 128 would leave 128 of 132 SMs busy), with M as
// wgmma's N.
// CHECK-LABEL: func.func @a_km_b_nk
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[\[}}256, 128, 64]]
// CHECK-LABEL: func.func @a_km_b_nk_decode
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK-SAME: split_k = 4
// CHECK: tile_sizes = {{\[\[}}64, 64, 64]]
// CHECK-LABEL: func.func @a_km_b_nk_tokens
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK-NOT: split_k
// CHECK: tile_sizes = {{\[\[}}128, 128, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @a_km_b_nk(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
  func.func @a_km_b_nk_decode(%a: tensor<4096x16xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<16x4096xf32>) -> tensor<16x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4096x16xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    return %0 : tensor<16x4096xf32>
  }
  func.func @a_km_b_nk_tokens(%a: tensor<4096x?xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x4096xf32>) -> tensor<?x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4096x?xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<?x4096xf32>) -> tensor<?x4096xf32>
    return %0 : tensor<?x4096xf32>
  }
}

// -----

// C = A * B^T (B[n, k], a linear layer's weights): B is loaded like A and
// multiplied one k16 step at a time, with 64 rows per warpgroup: the
// warp-specialized tiles (2 x 64 rows), or one warpgroup of 64 rows.
// CHECK-LABEL: func.func @transposed_b
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[}}[128, 128, 64]]
// CHECK-LABEL: func.func @transposed_b_m64
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[}}[64, 256, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @transposed_b(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  func.func @transposed_b_m64(%a: tensor<64x256xbf16>, %b: tensor<512x256xbf16>, %c: tensor<64x512xf32>) -> tensor<64x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<64x256xbf16>, tensor<512x256xbf16>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
    return %0 : tensor<64x512xf32>
  }
}

// -----

// 8-bit floats (e4m3, e5m2) with B[n, k]: K tiles of 128 elements (one
// 128-byte row, as 64 16-bit ones), so the stages and tiles match the
// 16-bit plans of the same shape; each K tile takes four k32 wgmmas.
// CHECK-LABEL: func.func @e4m3_transposed_b
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[}}[128, 128, 128]]
// CHECK-LABEL: func.func @e5m2_transposed_b_m64
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[}}[64, 256, 128]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @e4m3_transposed_b(%a: tensor<256x512xf8E4M3FN>, %b: tensor<256x512xf8E4M3FN>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<256x512xf8E4M3FN>, tensor<256x512xf8E4M3FN>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  func.func @e5m2_transposed_b_m64(%a: tensor<64x512xf8E5M2>, %b: tensor<512x512xf8E5M2>, %c: tensor<64x512xf32>) -> tensor<64x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<64x512xf8E5M2>, tensor<512x512xf8E5M2>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
    return %0 : tensor<64x512xf32>
  }
}

// -----

// A fused epilogue (bias, ReLU, f16 cast) stages its f32 accumulator (128 x
// (N + 8) floats, 132 KiB for 128x256) in the ring once K is done: 4 stages
// of 48 KiB hold it, so the plan is that of the plain matmul.
// CHECK-LABEL: func.func @bias_relu_f16
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]{{.*}}pipeline_depth = 4
// CHECK: linalg.matmul {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[128, 256, 64]]>}
// With K = 128 (two stages, 96 KiB) the ring cannot hold it: beside it,
// 128x256 would leave one stage; 128x128 keeps two (2 x 32 KiB + 68 KiB +
// 2 KiB).
// CHECK-LABEL: func.func @bias_relu_f16_short_k
// CHECK-SAME: pipeline_depth = 2
// CHECK: tile_sizes = {{\[}}[128, 128, 64]]
// A chain of consumers, each the only user of the result before it, fuses
// as well.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: pipeline = MatmulWgmma
// CHECK-LABEL: func.func @bias_relu_f16_plain
// CHECK-SAME: pipeline_depth = 2
// CHECK: tile_sizes = {{\[}}[128, 256, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @bias_relu_f16(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %bias: tensor<4096xf32>, %out: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4096x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%out : tensor<4096x4096xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to f16
      linalg.yield %t : f16
    } -> tensor<4096x4096xf16>
    return %r : tensor<4096x4096xf16>
  }
  func.func @bias_relu_f16_short_k(%a: tensor<4096x128xf16>, %b: tensor<128x4096xf16>, %bias: tensor<4096xf32>, %out: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4096x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x128xf16>, tensor<128x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%out : tensor<4096x4096xf16>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s = arith.addf %x, %y : f32
      %relu = arith.maximumf %s, %zero : f32
      %t = arith.truncf %relu : f32 to f16
      linalg.yield %t : f16
    } -> tensor<4096x4096xf16>
    return %r : tensor<4096x4096xf16>
  }
  func.func @chain(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %bias: tensor<4096xf32>, %out: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4096x4096xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%e : tensor<4096x4096xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %t = arith.addf %x, %y : f32
      linalg.yield %t : f32
    } -> tensor<4096x4096xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4096x4096xf32>) outs(%out : tensor<4096x4096xf16>) {
    ^bb0(%x: f32, %o: f16):
      %relu = arith.maximumf %x, %zero : f32
      %t = arith.truncf %relu : f32 to f16
      linalg.yield %t : f16
    } -> tensor<4096x4096xf16>
    return %r : tensor<4096x4096xf16>
  }
  // The same short matmul without a consumer keeps the 128x256 tile.
  func.func @bias_relu_f16_plain(%a: tensor<4096x128xf16>, %b: tensor<128x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4096x128xf16>, tensor<128x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %m : tensor<4096x4096xf32>
  }
}

// -----

// Warpgroup MMA is a fact of a known chip's description (sm_90a's `a`
// features): a chip gpucg does not know, described key by key, never has it.
// CHECK-LABEL: func.func @unknown_chip
// CHECK-SAME: pipeline = MatmulTensorCoreMmaSync
module attributes {gpucg.target = #gpucg.target<chip = "sm_100a", warp_size = 32, max_threads_per_block = 1024, max_shared_memory_per_block = 49152, max_shared_memory_per_block_optin = 232448, max_registers_per_block = 65536, max_registers_per_thread = 255, num_sms = 132, mma_shapes = [#gpucg.mma_shape<mma_sync, 16x8x16, f16 * f16 -> f32>]>} {
  func.func @unknown_chip(%a: tensor<1024x512xf16>, %b: tensor<512x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf16>, tensor<512x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}

// -----

// Small M (a decode step) with B[n, k] is computed transposed, C^T = B^T *
// A^T: the M tile is M rounded up to wgmma's N step of 8. N = 4096 gives
// 32 workgroups of 128 columns (two consumers) or 64 of 64 (a producer and
// one consumer), neither every SM: the one with the most. N = 28672 gives
// 224 of 128 columns, every SM. M = 7 rounds up to 8; M = 57 to 64, a
// whole wgmma tile, which is not transposed. B[k, n] with small M would be
// wgmma's transposed A times an untransposed B, which nvgpu does not take,
// and A[k, m] an N-major B narrower than its boxes: both take one 64-row
// tile, the rows past M padding, a producer and one consumer, 64 or 128
// columns as for the transposed tile (N = 256: 4 or 2 workgroups, the
// most; N = 32768: 256 of 128 columns, every SM).
// CHECK-LABEL: func.func @decode_16x4096
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[\[}}16, 64, 64]]
// CHECK-LABEL: func.func @decode_16x28672
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[\[}}16, 128, 64]]
// CHECK-LABEL: func.func @decode_7
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [256, 1, 1]
// CHECK: tile_sizes = {{\[\[}}8, 64, 64]]
// CHECK-LABEL: func.func @m57
// CHECK-SAME: pipeline = MatmulWgmma
// CHECK: tile_sizes = {{\[\[}}64,
// CHECK-LABEL: func.func @decode_b_kn
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[\[}}64, 64, 64]]
// CHECK-LABEL: func.func @decode_b_kn_wide
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[\[}}64, 128, 64]]
// CHECK-LABEL: func.func @decode_a_km
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [256, 1, 1]
// CHECK: tile_sizes = {{\[\[}}64, 64, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @decode_16x4096(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>, %c: tensor<16x4096xf32>) -> tensor<16x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<16x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    return %0 : tensor<16x4096xf32>
  }
  func.func @decode_16x28672(%a: tensor<16x4096xbf16>, %b: tensor<28672x4096xbf16>, %c: tensor<16x28672xf32>) -> tensor<16x28672xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x28672xf32>) -> tensor<16x28672xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<16x4096xbf16>, tensor<28672x4096xbf16>) outs(%f : tensor<16x28672xf32>) -> tensor<16x28672xf32>
    return %0 : tensor<16x28672xf32>
  }
  func.func @decode_7(%a: tensor<7x256xf16>, %b: tensor<256x256xf16>, %c: tensor<7x256xf32>) -> tensor<7x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<7x256xf32>) -> tensor<7x256xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<7x256xf16>, tensor<256x256xf16>) outs(%f : tensor<7x256xf32>) -> tensor<7x256xf32>
    return %0 : tensor<7x256xf32>
  }
  func.func @m57(%a: tensor<57x256xf16>, %b: tensor<256x256xf16>, %c: tensor<57x256xf32>) -> tensor<57x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<57x256xf32>) -> tensor<57x256xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<57x256xf16>, tensor<256x256xf16>) outs(%f : tensor<57x256xf32>) -> tensor<57x256xf32>
    return %0 : tensor<57x256xf32>
  }
  func.func @decode_b_kn(%a: tensor<16x256xf16>, %b: tensor<256x256xf16>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<16x256xf16>, tensor<256x256xf16>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
    return %0 : tensor<16x256xf32>
  }
  func.func @decode_b_kn_wide(%a: tensor<16x4096xbf16>, %b: tensor<4096x32768xbf16>, %c: tensor<16x32768xf32>) -> tensor<16x32768xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x32768xf32>) -> tensor<16x32768xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<16x4096xbf16>, tensor<4096x32768xbf16>) outs(%f : tensor<16x32768xf32>) -> tensor<16x32768xf32>
    return %0 : tensor<16x32768xf32>
  }
  func.func @decode_a_km(%a: tensor<256x16xf16>, %b: tensor<256x256xf16>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<256x16xf16>, tensor<256x256xf16>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
    return %0 : tensor<16x256xf32>
  }
}

// -----

// Batches: one matrix per workgroup (a batch tile of 1), the batch counted
// in the workgroups that fill the SMs. 8 x 1024 x 1024 in 128x256 tiles is
// 256 workgroups, every SM; a batch of 1 is 32, and takes 128x128 (64,
// the most). A batched decode step (attention's scores of 16 new tokens
// over 32 heads, keys as B[n, k]) takes the transposed tile: 32 x 32
// workgroups of 128 columns.
// CHECK-LABEL: func.func @bmm_8x1024
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]
// CHECK: tile_sizes = {{\[\[}}1, 128, 256, 64]]
// CHECK-LABEL: func.func @bmm_1x1024
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]
// CHECK: tile_sizes = {{\[\[}}1, 128, 128, 64]]
// CHECK-LABEL: func.func @decode_heads
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]
// CHECK: tile_sizes = {{\[\[}}1, 16, 128, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @bmm_8x1024(%a: tensor<8x1024x1024xf16>, %b: tensor<8x1024x1024xf16>, %c: tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf32>
    %0 = linalg.batch_matmul ins(%a, %b : tensor<8x1024x1024xf16>, tensor<8x1024x1024xf16>) outs(%f : tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf32>
    return %0 : tensor<8x1024x1024xf32>
  }
  func.func @bmm_1x1024(%a: tensor<1x1024x1024xf16>, %b: tensor<1x1024x1024xf16>, %c: tensor<1x1024x1024xf32>) -> tensor<1x1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1x1024x1024xf32>) -> tensor<1x1024x1024xf32>
    %0 = linalg.batch_matmul ins(%a, %b : tensor<1x1024x1024xf16>, tensor<1x1024x1024xf16>) outs(%f : tensor<1x1024x1024xf32>) -> tensor<1x1024x1024xf32>
    return %0 : tensor<1x1024x1024xf32>
  }
  func.func @decode_heads(%q: tensor<32x16x128xbf16>, %k: tensor<32x4096x128xbf16>, %c: tensor<32x16x4096xf32>) -> tensor<32x16x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<32x16x4096xf32>) -> tensor<32x16x4096xf32>
    %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<32x16x128xbf16>, tensor<32x4096x128xbf16>) outs(%f : tensor<32x16x4096xf32>) -> tensor<32x16x4096xf32>
    return %0 : tensor<32x16x4096xf32>
  }
}

// -----

// A dynamic M (a prompt's tokens) is planned as 1024 rows: 1024 x 4096 has
// 128 tiles of 128x256 (fewer than 132 SMs) and 256 of 128x128, so 128x128;
// never the transposed tile of a small M, not even with B[n, k]. A dynamic
// N or K (a hidden size known at run time) is planned as 1024 likewise;
// an A[k, m] with a dynamic M, or a B[k, n] with a dynamic N, has a row
// pitch known at run time, which the launcher checks when it encodes the
// tensor map.
// CHECK-LABEL: func.func @prompt_tokens
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]
// CHECK: tile_sizes = {{\[\[}}128, 128, 64]]
// CHECK-LABEL: func.func @dynamic_n
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]
// CHECK: tile_sizes = {{\[\[}}128, 128, 64]]
// CHECK-LABEL: func.func @dynamic_nk_a_km
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1]
// CHECK: tile_sizes = {{\[\[}}128, 128, 64]]
// CHECK-LABEL: func.func @dynamic_n_small_m
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [256, 1, 1]
// CHECK: tile_sizes = {{\[\[}}16, 64, 64]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @prompt_tokens(%x: tensor<?x4096xbf16>, %w: tensor<4096x4096xbf16>, %c: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x4096xf32>) -> tensor<?x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<?x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<?x4096xf32>) -> tensor<?x4096xf32>
    return %0 : tensor<?x4096xf32>
  }
  func.func @dynamic_n(%a: tensor<1024x256xf16>, %b: tensor<256x?xf16>, %c: tensor<1024x?xf32>) -> tensor<1024x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x?xf32>) -> tensor<1024x?xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x256xf16>, tensor<256x?xf16>) outs(%f : tensor<1024x?xf32>) -> tensor<1024x?xf32>
    return %0 : tensor<1024x?xf32>
  }
  func.func @dynamic_nk_a_km(%a: tensor<?x?xbf16>, %b: tensor<?x?xbf16>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %0 : tensor<?x?xf32>
  }
  func.func @dynamic_n_small_m(%x: tensor<16x?xf16>, %w: tensor<?x?xf16>, %c: tensor<16x?xf32>) -> tensor<16x?xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x?xf32>) -> tensor<16x?xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<16x?xf16>, tensor<?x?xf16>) outs(%f : tensor<16x?xf32>) -> tensor<16x?xf32>
    return %0 : tensor<16x?xf32>
  }
}

// -----

// f32 operands with B[n, k] (a linear layer in f32) are MatmulWgmma, as
// TF32: K tiles of 32 f32 (one 128-byte row), the 16-bit kernel's stage
// bytes; 1024 x 1024 gives 128x128 tiles as for f16. f32 with B[k, n] is
// MatmulWgmma too, B restaged K-major by the producer warpgroup (wgmma reads
// 32-bit operands K-major only): its load tile adds a third to each stage
// (4 stages still fit).
// CHECK-LABEL: func.func @f32_linear
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[\[}}128, 128, 32]]
// CHECK-LABEL: func.func @f32_plain
// CHECK-SAME: pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], subgroup_size = 32, pipeline_depth = 4
// CHECK: tile_sizes = {{\[\[}}128, 128, 32]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @f32_linear(%a: tensor<1024x512xf32>, %b: tensor<1024x512xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<1024x512xf32>, tensor<1024x512xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func @f32_plain(%a: tensor<1024x512xf32>, %b: tensor<512x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf32>, tensor<512x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}
