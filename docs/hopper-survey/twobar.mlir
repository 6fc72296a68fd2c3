gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @kern() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %full = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    %empty = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    %one = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
    nvgpu.mbarrier.init %full[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    nvgpu.mbarrier.init %empty[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    nvgpu.mbarrier.init %one[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
    gpu.return
  }
}
