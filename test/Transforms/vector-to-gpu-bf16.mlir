// bf16 mma.sync fragments that upstream's conversion loads from global
// memory (no ldmatrix): rows of two elements with vector.load when the
// operand's K is contiguous, single elements with memref.load otherwise.
// gpucg converts the contraction as f16 through f16 views of the buffers,
// then rebuilds every fragment from the bf16 buffers themselves.
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-vector-to-gpu))' \
// RUN:   | gpucg-opt -split-input-file | FileCheck %s

#map_a = affine_map<(m, n, k) -> (m, k)>
#map_b = affine_map<(m, n, k) -> (n, k)>
#map_c = affine_map<(m, n, k) -> (m, n)>

/// A (m, k) and B (n, k): both loaded in rows of two bf16.
// CHECK-LABEL: func.func @bf16_rows_from_global
//   CHECK-NOT:   unrealized_conversion_cast
//   CHECK-NOT:   nvgpu.ldmatrix
//       CHECK:   vector.load %{{.+}} : memref<16x16xbf16>, vector<2xbf16>
//       CHECK:   vector.load %{{.+}} : memref<8x16xbf16>, vector<2xbf16>
//       CHECK:   nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
//   CHECK-NOT:   xf16>
func.func @bf16_rows_from_global(%a: memref<16x16xbf16>, %b: memref<8x16xbf16>, %c: memref<16x8xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : bf16
  %f = arith.constant 0.0 : f32
  %va = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xbf16>, vector<16x16xbf16>
  %vb = vector.transfer_read %b[%c0, %c0], %p {in_bounds = [true, true]} : memref<8x16xbf16>, vector<8x16xbf16>
  %vc = vector.transfer_read %c[%c0, %c0], %f {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
  %r = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
  vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
  return
}

// -----

#map_a = affine_map<(m, n, k) -> (m, k)>
#map_b = affine_map<(m, n, k) -> (k, n)>
#map_c = affine_map<(m, n, k) -> (m, n)>

/// B (k, n): its column-major fragment is gathered element by element.
// CHECK-LABEL: func.func @bf16_elements_from_global
//   CHECK-NOT:   unrealized_conversion_cast
//       CHECK:   vector.load %{{.+}} : memref<16x16xbf16>, vector<2xbf16>
//       CHECK:   memref.load %{{.+}} : memref<16x8xbf16>
//       CHECK:   nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
//   CHECK-NOT:   xf16>
func.func @bf16_elements_from_global(%a: memref<16x16xbf16>, %b: memref<16x8xbf16>, %c: memref<16x8xf32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : bf16
  %f = arith.constant 0.0 : f32
  %va = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xbf16>, vector<16x16xbf16>
  %vb = vector.transfer_read %b[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x8xbf16>, vector<16x8xbf16>
  %vc = vector.transfer_read %c[%c0, %c0], %f {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
  %r = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
  vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
  return
}
