func.func @f(%u16: memref<*xf16>, %ub: memref<*xbf16>, %u8: memref<*xf8E4M3FN>, %u5: memref<*xf8E5M2>, %u32: memref<*xf32>, %ui8: memref<*xi8>, %ui32: memref<*xi32>, %i: index) {
  %a = nvgpu.tma.create.descriptor %u16 box[%i, %i] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16,3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  %b = nvgpu.tma.create.descriptor %ub box[%i, %i] : memref<*xbf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16,3>, swizzle = swizzle_128b, l2promo = l2promo_64b, oob = nan, interleave = none>
  %c = nvgpu.tma.create.descriptor %u8 box[%i, %i] : memref<*xf8E4M3FN> -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN,3>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>
  %d = nvgpu.tma.create.descriptor %u5 box[%i, %i] : memref<*xf8E5M2> -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E5M2,3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
  %e = nvgpu.tma.create.descriptor %u32 box[%i, %i] : memref<*xf32> -> !nvgpu.tensormap.descriptor<tensor = memref<64x32xf32,3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  %f = nvgpu.tma.create.descriptor %ui8 box[%i, %i] : memref<*xi8> -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xi8,3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  %g = nvgpu.tma.create.descriptor %ui32 box[%i, %i] : memref<*xi32> -> !nvgpu.tensormap.descriptor<tensor = memref<64x16xi32,3>, swizzle = swizzle_64b, l2promo = none, oob = zero, interleave = none>
  return
}
