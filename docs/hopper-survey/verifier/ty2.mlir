func.func @f(%i: index
, %u_i8: memref<*xi8>
, %u_ui8: memref<*xui8>
, %u_i16: memref<*xi16>
, %u_i32: memref<*xi32>
, %u_i64: memref<*xi64>
, %u_f16: memref<*xf16>
, %u_bf16: memref<*xbf16>
, %u_f32: memref<*xf32>
, %u_f64: memref<*xf64>
, %u_f8E4M3FN: memref<*xf8E4M3FN>
, %u_f8E5M2: memref<*xf8E5M2>
) {
  %d_i8 = nvgpu.tma.create.descriptor %u_i8 box[%i] : memref<*xi8> -> !nvgpu.tensormap.descriptor<tensor = memref<64xi8,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_ui8 = nvgpu.tma.create.descriptor %u_ui8 box[%i] : memref<*xui8> -> !nvgpu.tensormap.descriptor<tensor = memref<64xui8,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_i16 = nvgpu.tma.create.descriptor %u_i16 box[%i] : memref<*xi16> -> !nvgpu.tensormap.descriptor<tensor = memref<64xi16,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_i32 = nvgpu.tma.create.descriptor %u_i32 box[%i] : memref<*xi32> -> !nvgpu.tensormap.descriptor<tensor = memref<64xi32,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_i64 = nvgpu.tma.create.descriptor %u_i64 box[%i] : memref<*xi64> -> !nvgpu.tensormap.descriptor<tensor = memref<64xi64,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_f16 = nvgpu.tma.create.descriptor %u_f16 box[%i] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64xf16,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_bf16 = nvgpu.tma.create.descriptor %u_bf16 box[%i] : memref<*xbf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64xbf16,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_f32 = nvgpu.tma.create.descriptor %u_f32 box[%i] : memref<*xf32> -> !nvgpu.tensormap.descriptor<tensor = memref<64xf32,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_f64 = nvgpu.tma.create.descriptor %u_f64 box[%i] : memref<*xf64> -> !nvgpu.tensormap.descriptor<tensor = memref<64xf64,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_f8E4M3FN = nvgpu.tma.create.descriptor %u_f8E4M3FN box[%i] : memref<*xf8E4M3FN> -> !nvgpu.tensormap.descriptor<tensor = memref<64xf8E4M3FN,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  %d_f8E5M2 = nvgpu.tma.create.descriptor %u_f8E5M2 box[%i] : memref<*xf8E5M2> -> !nvgpu.tensormap.descriptor<tensor = memref<64xf8E5M2,3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  return
}
