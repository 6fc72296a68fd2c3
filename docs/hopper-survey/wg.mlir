!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tileA = memref<64x64xf16, 3>
!tileB = memref<64x128xf16, 3>
!tileBh = memref<64x64xf16, 3>
!tmaA = !nvgpu.tensormap.descriptor<tensor = !tileA, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmaB = !nvgpu.tensormap.descriptor<tensor = !tileBh, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!accT = !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
module attributes {gpu.container_module} {
  memref.global "private" @smemA : !tileA {alignment = 1024}
  memref.global "private" @smemB : !tileB {alignment = 1024}
  func.func @host(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %ua = memref.cast %A : memref<1024x1024xf16> to memref<*xf16>
    %ub = memref.cast %B : memref<1024x1024xf16> to memref<*xf16>
    %da = nvgpu.tma.create.descriptor %ua box[%c64, %c64] : memref<*xf16> -> !tmaA
    %db = nvgpu.tma.create.descriptor %ub box[%c64, %c64] : memref<*xf16> -> !tmaB
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %bytes = arith.constant 24576 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %is0 = arith.cmpi eq, %tx, %c0 : index
      %bar = nvgpu.mbarrier.create -> !barrierType
      nvgpu.mbarrier.init %bar[%c0], %c1, predicate = %is0 : !barrierType
      gpu.barrier
      %sa = memref.get_global @smemA : !tileA
      %sb = memref.get_global @smemB : !tileB
      %sb0 = memref.subview %sb[0, 0] [64, 64] [1, 1] : !tileB to memref<64x64xf16, strided<[128, 1]>, 3>
      %sb1 = memref.subview %sb[0, 64] [64, 64] [1, 1] : !tileB to memref<64x64xf16, strided<[128, 1], offset: 64>, 3>
      scf.if %is0 {
        nvgpu.tma.async.load %da[%c0, %c0], %bar[%c0] to %sa : !tmaA, !barrierType -> !tileA
        nvgpu.tma.async.load %db[%c0, %c0], %bar[%c0] to %sb0 : !tmaB, !barrierType -> memref<64x64xf16, strided<[128, 1]>, 3>
        nvgpu.tma.async.load %db[%c64, %c0], %bar[%c0] to %sb1 : !tmaB, !barrierType -> memref<64x64xf16, strided<[128, 1], offset: 64>, 3>
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !barrierType
      }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !barrierType
      %descA = nvgpu.warpgroup.generate.descriptor %sa, %da : !tileA, !tmaA -> !nvgpu.warpgroup.descriptor<tensor = !tileA>
      %descB = nvgpu.warpgroup.generate.descriptor %sb, %db : !tileB, !tmaB -> !nvgpu.warpgroup.descriptor<tensor = !tileB>
      %acc = nvgpu.warpgroup.mma.init.accumulator -> !accT
      %d = nvgpu.warpgroup.mma %descA, %descB, %acc {transposeB, waitGroup = 0} : !nvgpu.warpgroup.descriptor<tensor = !tileA>, !nvgpu.warpgroup.descriptor<tensor = !tileB>, !accT -> !accT
      nvgpu.warpgroup.mma.store %d, %C : !accT to memref<64x128xf32>
      gpu.terminator
    }
    return
  }
}
