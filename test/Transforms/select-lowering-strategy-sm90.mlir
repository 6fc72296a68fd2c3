// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' > /dev/null
// mma.sync asked for: no warning.
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{mma=mma-sync}))' 2>&1 > /dev/null | FileCheck %s --check-prefix=ASKED --allow-empty
// ASKED-NOT: warning: runs on

/// chip sm_90 has no wgmma: gpucg plans mma.sync, and says that sm_90a
/// would run this matmul on wgmma.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  func.func @square(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    // expected-warning @+1 {{runs on mma.sync for chip sm_90, which has no warpgroup MMA; for chip sm_90a this matmul is a wgmma kernel (about 1.4x faster on an H100: docs/performance.md). A binary for sm_90a runs on sm_90 GPUs only (H100, H200, GH200), one for sm_90 on sm_90 and later}}
    %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}

// -----

/// A matmul that gpucg plans as mma.sync on sm_90a too (K = 100 f16: A's
/// rows are 200 bytes apart, which TMA cannot read): nothing to say.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  func.func @odd_pitch(%a: tensor<512x100xf16>, %b: tensor<100x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<512x100xf16>, tensor<100x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}

// -----

/// chip sm_90a has wgmma, but MatmulWgmma does not take every matmul yet: one
/// that gets mma.sync instead says so and why (whyNoWgmma). An accumulator
/// that starts at one: neither a zero fill nor an argument's contents.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @fill_of_one(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %one = arith.constant 1.0 : f32
    %f = linalg.fill ins(%one : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    // expected-warning @+1 {{runs on mma.sync tensor cores for chip sm_90a, not on warpgroup MMA (a MatmulWgmma kernel, about 1.4x faster on an H100: docs/performance.md): its accumulator starts as a linalg.fill of non-zero, not a linalg.fill of zero or an argument of its function (a warpgroup accumulator starts at zero, and the epilogue adds only an argument's prior contents)}}
    %0 = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

/// C += A * B (the accumulator is the argument's contents) is a wgmma
/// kernel: no warning.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @accumulate(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}

// -----

/// Rows TMA cannot read: B[k, n] with N = 1001 f16 (2002 bytes apart).
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @odd_pitch(%a: tensor<1000x1000xf16>, %b: tensor<1000x1001xf16>, %c: tensor<1000x1001xf32>) -> tensor<1000x1001xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1000x1001xf32>) -> tensor<1000x1001xf32>
    // expected-warning @+1 {{runs on mma.sync tensor cores for chip sm_90a, not on warpgroup MMA (a MatmulWgmma kernel, about 1.4x faster on an H100: docs/performance.md): its B rows of N = 1001 f16 elements are 2002 bytes, not a multiple of 16 (the row pitch TMA reads)}}
    %0 = linalg.matmul ins(%a, %b : tensor<1000x1000xf16>, tensor<1000x1001xf16>) outs(%f : tensor<1000x1001xf32>) -> tensor<1000x1001xf32>
    return %0 : tensor<1000x1001xf32>
  }
}

// -----

/// Small M with B[k, n] (a decode step's weights stored [k, n]): on sm_90a
/// one padded 64-row wgmma tile, so on sm_90 the warning says so.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  func.func @decode_b_kn(%a: tensor<16x256xf16>, %b: tensor<256x256xf16>, %c: tensor<16x256xf32>) -> tensor<16x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x256xf32>) -> tensor<16x256xf32>
    // expected-warning @+1 {{runs on mma.sync for chip sm_90, which has no warpgroup MMA; for chip sm_90a this matmul is a wgmma kernel}}
    %0 = linalg.matmul ins(%a, %b : tensor<16x256xf16>, tensor<256x256xf16>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
    return %0 : tensor<16x256xf32>
  }
}

// -----

/// A batched B[k, n] with a K tail: its tensor map would read the next
/// batch's rows past K.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @batch_b_kn_k_tail(%a: tensor<2x256x104xf16>, %b: tensor<2x104x256xf16>, %c: tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
    // expected-warning @+1 {{runs on mma.sync tensor cores for chip sm_90a, not on warpgroup MMA (a MatmulWgmma kernel, about 1.4x faster on an H100: docs/performance.md): it has a batched B[k, n] with K = 104, not a multiple of the K tile (64 elements): TMA reads the batches of B as one matrix of their K rows stacked, so the last K tile's rows past K would be the next batch's, not zeros}}
    %0 = linalg.batch_matmul ins(%a, %b : tensor<2x256x104xf16>, tensor<2x104x256xf16>) outs(%f : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
    return %0 : tensor<2x256x256xf32>
  }
}

// -----

/// A batched A[k, m] with a K tail, likewise (A is named first; B[k, n]
/// has the same rows of K).
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @batch_a_km_k_tail(%a: tensor<2x104x256xf16>, %b: tensor<2x104x256xf16>, %c: tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
    // expected-warning @+1 {{runs on mma.sync tensor cores for chip sm_90a, not on warpgroup MMA (a MatmulWgmma kernel, about 1.4x faster on an H100: docs/performance.md): it has a batched A[k, m] with K = 104, not a multiple of the K tile (64 elements): TMA reads the batches of A as one matrix of their K rows stacked, so the last K tile's rows past K would be the next batch's, not zeros}}
    %0 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%a, %b : tensor<2x104x256xf16>, tensor<2x104x256xf16>) outs(%f : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
    return %0 : tensor<2x256x256xf32>
  }
}

// -----

/// A matmul MatmulWgmma takes: nothing to say.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @wgmma(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}
