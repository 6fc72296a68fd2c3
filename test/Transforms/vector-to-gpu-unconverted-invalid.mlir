// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-vector-to-gpu))'

// What gpucg-vector-to-gpu refuses on vector-level input, rather than
// leaving a contraction to run without tensor cores.

#map_a = affine_map<(m, n, k) -> (m, k)>
#map_b = affine_map<(m, n, k) -> (n, k)>
#map_c = affine_map<(m, n, k) -> (m, n)>

/// Operands that are not read from memory: upstream's conversion skips the
/// contraction and still succeeds; gpucg says so.
func.func @operands_not_read(%va: vector<16x16xf16>, %vb: vector<8x16xf16>, %vc: vector<16x8xf16>) -> vector<16x8xf16>
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 1, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  // expected-error @+1 {{'vector.contract' op was not converted to mma.sync operations: MLIR 22's conversion takes only row-major A, column-major or row-major B and a result of the operands' layout, with element types it has an instruction for}}
  %r = vector.contract {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf16>
  return %r : vector<16x8xf16>
}

// -----

/// A contraction that is not a matrix multiply (a row-times-row dot product,
/// what an i8 batch matmul with A transposed unrolls to): refused before
/// upstream's conversion, which spends quadratic time on a chain of them
/// (fuzzer seed 23, case 188, ran over 100 s) and then skips them.
func.func @dot_product(%a: memref<1x32xi8>, %b: memref<1x32xi8>, %c: memref<1xi32>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0 : i8
  %z = arith.constant 0 : i32
  %va = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<1x32xi8>, vector<1x32xi8>
  %vb = vector.transfer_read %b[%c0, %c0], %p {in_bounds = [true, true]} : memref<1x32xi8>, vector<1x32xi8>
  %vc = vector.transfer_read %c[%c0], %z {in_bounds = [true]} : memref<1xi32>, vector<1xi32>
  // expected-error @+1 {{'vector.contract' op was not converted to mma.sync operations: it is not a matrix multiply (operands 'vector<1x32xi8>' and 'vector<1x32xi8>' into 'vector<1xi32>'; tensor cores take 2-D operands and accumulator)}}
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<1x32xi8>, vector<1x32xi8> into vector<1xi32>
  vector.transfer_write %r, %c[%c0] {in_bounds = [true]} : vector<1xi32>, memref<1xi32>
  return
}

// -----

/// The contraction's result plus a vector the function receives as an
/// argument: upstream's WMMA conversion made no MMA fragment of the
/// argument, so it cannot convert the addition, and fails (silently: the
/// reason, which gpucg gives as a note, is upstream's match failure).
// expected-error @+1 {{'func.func' op could not convert to WMMA operations: MLIR 22's conversion failed on an op that produces or uses a contraction's operands or result}}
func.func @wmma_operand_is_argument(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>, %bias: vector<16x16xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [32, 1, 1], subgroup_size = 32, mma_kind = wmma>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f16
  %va = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %vb = vector.transfer_read %b[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %vc = vector.transfer_read %c[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
  // expected-note @+1 {{MLIR 22's conversion failed here: no mapping (an operand of this op is not a value the conversion made an MMA fragment of, such as a function argument)}}
  %s = arith.addf %r, %bias : vector<16x16xf16>
  vector.transfer_write %s, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16>
  return
}

// -----

/// A ReLU on the accumulator's registers: upstream's mma.sync conversion
/// takes the elementwise op into the contraction's chain (WMMA converts it)
/// but has no mma.sync form for it, and fails with errors of its own.
// expected-error @+1 {{'func.func' op could not convert to mma.sync operations: MLIR 22's conversion failed on an op that produces or uses a contraction's operands or result}}
func.func @mma_sync_relu_epilogue(%a: memref<16x16xf16>, %b: memref<8x16xf16>, %c: memref<16x8xf16>)
    attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1], subgroup_size = 32, mma_kind = mma_sync>} {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<16x8xf16>
  %va = vector.transfer_read %a[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
  %vb = vector.transfer_read %b[%c0, %c0], %p {in_bounds = [true, true]} : memref<8x16xf16>, vector<8x16xf16>
  %vc = vector.transfer_read %c[%c0, %c0], %p {in_bounds = [true, true]} : memref<16x8xf16>, vector<16x8xf16>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf16>
  // expected-error @+2 {{unhandled vector to mma type}}
  // expected-error @+1 {{'arith.maximumf' op failed to convert op during vector-to-nvgpu conversion}}
  %s = arith.maximumf %r, %zero : vector<16x8xf16>
  vector.transfer_write %s, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf16>, memref<16x8xf16>
  return
}
