!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tileC = memref<64x64xf16, 3>
!tmaC = !nvgpu.tensormap.descriptor<tensor = !tileC, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  memref.global "private" @smemC : !tileC {alignment = 1024}
  gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    memref.global "private" @smemC : !tileC {alignment = 1024}
    gpu.func @kern(%dp: !llvm.ptr, %x: index, %y: index, %mask: i16) kernel {
      %d = builtin.unrealized_conversion_cast %dp : !llvm.ptr to !tmaC
      %c0 = arith.constant 0 : index
      %s = memref.get_global @smemC : !tileC
      %bar = nvgpu.mbarrier.create -> !barrierType
      nvgpu.tma.async.load %d[%x, %y], %bar[%c0] to %s multicast_mask = %mask : !tmaC, !barrierType -> !tileC
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvgpu.tma.async.store %s to %d[%x, %y] : !tileC -> !tmaC
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {read}
      nvgpu.tma.fence.descriptor %d : !tmaC
      gpu.return
    }
  }
}
