// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-convert-nvgpu-to-nvvm)'

/// bf16 mma.sync accumulates only in f32: a bf16 x bf16 -> f16 mma.sync
/// verifies but NVVM has no instruction for it.
func.func @negative_mma_sync_bf16_f16_accumulator(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf16>) -> vector<2x2xf16> {
  // expected-error @+1 {{'nvgpu.mma.sync' op was not converted to NVVM: NVVM has no mma.sync for bf16 x bf16 -> f16 with mmaShape [16, 8, 16]}}
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf16>) -> vector<2x2xf16>
  return %d : vector<2x2xf16>
}

// -----

/// bf16 mma.sync has k = 8 and 16 only; m16n8k32 verifies (the fragments
/// fit) but has no instruction.
func.func @negative_mma_sync_bf16_m16n8k32(%a: vector<8x2xbf16>, %b: vector<4x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  // expected-error @+1 {{'nvgpu.mma.sync' op was not converted to NVVM: NVVM has no mma.sync for bf16 x bf16 -> f32 with mmaShape [16, 8, 32]}}
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<8x2xbf16>, vector<4x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// Upstream's pattern would build an invalid nvvm.mma.sync (f16 m16n8k32);
/// the pass leaves the op and says why instead.
func.func @negative_mma_sync_f16_m16n8k32(%a: vector<8x2xf16>, %b: vector<4x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  // expected-error @+1 {{'nvgpu.mma.sync' op was not converted to NVVM: NVVM has no mma.sync for f16 x f16 -> f32 with mmaShape [16, 8, 32]}}
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<8x2xf16>, vector<4x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// tf32 mma.sync has k = 4 and 8 only.
func.func @negative_mma_sync_tf32_m16n8k16(%a: vector<8x1xf32>, %b: vector<4x1xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  // expected-error @+1 {{'nvgpu.mma.sync' op was not converted to NVVM: NVVM has no mma.sync for f32 x f32 -> f32 with mmaShape [16, 8, 16]}}
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16], tf32Enabled} : (vector<8x1xf32>, vector<4x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// f32 operands without tf32Enabled: tensor cores have no f32 multiply, and
/// upstream silently leaves the op.
func.func @negative_mma_sync_f32_without_tf32(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  // expected-error @+1 {{'nvgpu.mma.sync' op was not converted to NVVM: f32 multiplicands need the tf32Enabled attribute (mma.sync multiplies f32 only as tf32)}}
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}

// -----

/// No PTX type for a bf16 accumulator: the reason names the element types.
func.func @negative_mma_sync_bf16_accumulator(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xbf16>) -> vector<2x2xbf16> {
  // expected-error @+1 {{'nvgpu.mma.sync' op was not converted to NVVM: element types bf16 x bf16 -> bf16 have no NVVM mma.sync PTX types}}
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xbf16>) -> vector<2x2xbf16>
  return %d : vector<2x2xbf16>
}

// -----

/// Any other nvgpu op upstream fails on is reported too, without a reason of
/// the pass's own: here ldmatrix on a memref with a non-strided layout, which
/// upstream's type converter rejects (its own error has no location).
func.func @negative_ldmatrix_non_strided(%m: memref<64x64xf16, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>, 3>, %i: index) -> vector<4x2xf16> {
  // expected-error @unknown {{conversion to strided form failed}}
  // expected-error @+1 {{'nvgpu.ldmatrix' op was not converted to NVVM}}
  %r = nvgpu.ldmatrix %m[%i, %i] {numTiles = 4 : i32, transpose = false} : memref<64x64xf16, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>, 3> -> vector<4x2xf16>
  return %r : vector<4x2xf16>
}
