!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tileA = memref<128x64xf16, 3>
!tmaA = !nvgpu.tensormap.descriptor<tensor = !tileA, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @kern(%dp: !llvm.ptr, %stage: index) kernel {
      %d = builtin.unrealized_conversion_cast %dp : !llvm.ptr to !tmaA
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !barrierType
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %off = arith.muli %stage, %c0 : index
      %v = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %d[%c0, %c0], %bar[%c0] to %v : !tmaA, !barrierType -> memref<128x64xf16, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
