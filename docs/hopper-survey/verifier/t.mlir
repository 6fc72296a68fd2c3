!td = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16,3>, swizzle = swizzle_32b, l2promo = none, oob = zero, interleave = none>
!td2 = !nvgpu.tensormap.descriptor<tensor = memref<64x16xf16,3>, swizzle = swizzle_32b, l2promo = none, oob = zero, interleave = none>
!td3 = !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN,3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!td4 = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf32,3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @f(%u: memref<*xf16>, %u8: memref<*xf8E4M3FN>, %u32: memref<*xf32>, %i: index) {
  %d2 = nvgpu.tma.create.descriptor %u box[%i, %i] : memref<*xf16> -> !td2
  %d3 = nvgpu.tma.create.descriptor %u8 box[%i, %i] : memref<*xf8E4M3FN> -> !td3
  %d4 = nvgpu.tma.create.descriptor %u32 box[%i, %i] : memref<*xf32> -> !td4
  return
}
