!bt = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!td = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16,3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
func.func @f(%d: !td, %s: memref<64x64xf16,3>, %out: memref<64x64xf32,3>, %i: index, %p: i1, %v: vector<4xf32>, %mask: i16) -> vector<4xf32> {
  %bar = nvgpu.mbarrier.create -> !bt
  nvgpu.mbarrier.init %bar[%i], %i : !bt
  %t = nvgpu.mbarrier.arrive %bar[%i] : !bt -> !nvgpu.mbarrier.token
  %t2 = nvgpu.mbarrier.arrive.nocomplete %bar[%i], %i : !bt -> !nvgpu.mbarrier.token
  %w = nvgpu.mbarrier.test.wait %bar[%i], %t : !bt, !nvgpu.mbarrier.token
  nvgpu.mbarrier.arrive.expect_tx %bar[%i], %i : !bt
  nvgpu.mbarrier.try_wait.parity %bar[%i], %p, %i : !bt
  %ptr = nvgpu.mbarrier.get %bar[%i] : !bt -> i64
  nvgpu.tma.fence.descriptor %d : !td
  nvgpu.tma.prefetch.descriptor %d, predicate = %p : !td
  nvgpu.tma.async.load %d[%i, %i], %bar[%i] to %s multicast_mask = %mask, predicate = %p : !td, !bt -> memref<64x64xf16,3>
  nvgpu.tma.async.store %s to %d[%i, %i], predicate = %p : memref<64x64xf16,3> -> !td
  %da = nvgpu.warpgroup.generate.descriptor %s, %d : memref<64x64xf16,3>, !td -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16,3>>
  %a = nvgpu.warpgroup.mma.init.accumulator -> !acc
  %r = nvgpu.warpgroup.mma %da, %da, %a : !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16,3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16,3>>, !acc -> !acc
  nvgpu.warpgroup.mma.store %r, %out : !acc to memref<64x64xf32,3>
  %rc = nvgpu.rcp %v {rounding = approx, ftz} : vector<4xf32>
  return %rc : vector<4xf32>
}
