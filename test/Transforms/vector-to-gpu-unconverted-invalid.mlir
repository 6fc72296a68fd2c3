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
