!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tileA = memref<128x64xf16, 3>
!tmaA = !nvgpu.tensormap.descriptor<tensor = !tileA, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  func.func @host(%A: memref<1024x1024xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %u = memref.cast %A : memref<1024x1024xf16> to memref<*xf16>
    %d = nvgpu.tma.create.descriptor %u box[%c128, %c64] : memref<*xf16> -> !tmaA
    gpu.launch_func @k::@tma_kernel blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%d : !tmaA)
    return
  }
  gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    memref.global "private" @smemA : !tileA {alignment = 128}
    gpu.func @tma_kernel(%d: !tmaA) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %bytes = arith.constant 16384 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %is0 = arith.cmpi eq, %tid, %c0 : index
      %bar = nvgpu.mbarrier.create -> !barrierType
      nvgpu.tma.prefetch.descriptor %d : !tmaA
      nvgpu.mbarrier.init %bar[%c0], %c1, predicate = %is0 : !barrierType
      gpu.barrier
      %s = memref.get_global @smemA : !tileA
      scf.if %is0 {
        nvgpu.tma.async.load %d[%c64, %c128], %bar[%c0] to %s : !tmaA, !barrierType -> !tileA
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !barrierType
      }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !barrierType
      gpu.return
    }
  }
}
