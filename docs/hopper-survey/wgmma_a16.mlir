!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tileA = memref<64x16xf16, 3>
!tileB = memref<16x128xf16, 3>
!tmaA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmaB = !nvgpu.tensormap.descriptor<tensor = memref<16x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!accT = !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
module attributes {gpu.container_module} {
  memref.global "private" @smemA : !tileA {alignment = 1024}
  memref.global "private" @smemB : !tileB {alignment = 1024}
  func.func @host(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<64x128xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %ua = memref.cast %A : memref<1024x1024xf16> to memref<*xf16>
    %ub = memref.cast %B : memref<1024x1024xf16> to memref<*xf16>
    %da = nvgpu.tma.create.descriptor %ua box[%c64, %c64] : memref<*xf16> -> !tmaA
    %db = nvgpu.tma.create.descriptor %ub box[%c16, %c64] : memref<*xf16> -> !tmaB
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %bytes = arith.constant 6144 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %is0 = arith.cmpi eq, %tx, %c0 : index
      %bar = nvgpu.mbarrier.create -> !barrierType
      nvgpu.mbarrier.init %bar[%c0], %c1, predicate = %is0 : !barrierType
      gpu.barrier
      %sa = memref.get_global @smemA : !tileA
      %sb = memref.get_global @smemB : !tileB
      %sb1 = memref.subview %sb[0, 64] [16, 64] [1, 1] : !tileB to memref<16x64xf16, strided<[128, 1], offset: 64>, 3>
      scf.if %is0 {
        %tk = nvgpu.mbarrier.arrive %bar[%c0] : !barrierType -> !nvgpu.mbarrier.token
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !barrierType
      }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !barrierType
      %descA = nvgpu.warpgroup.generate.descriptor %sa, %da : !tileA, !tmaA -> !nvgpu.warpgroup.descriptor<tensor = !tileA>
      %descB = nvgpu.warpgroup.generate.descriptor %sb, %db : !tileB, !tmaB -> !nvgpu.warpgroup.descriptor<tensor = !tileB>
      %acc = nvgpu.warpgroup.mma.init.accumulator -> !accT
      %d = nvgpu.warpgroup.mma %descA, %descB, %acc {transposeB} : !nvgpu.warpgroup.descriptor<tensor = !tileA>, !nvgpu.warpgroup.descriptor<tensor = !tileB>, !accT -> !accT
      nvgpu.warpgroup.mma.store %d, %C : !accT to memref<64x128xf32>
      gpu.terminator
    }
    return
  }
}
