!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @mbar_loop(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %ticks = arith.constant 10000000 : index
    %bar = nvgpu.mbarrier.create -> !barrierType
    %tid = gpu.thread_id x
    %is0 = arith.cmpi eq, %tid, %c0 : index
    scf.for %i = %c0 to %c4 step %c1 {
      nvgpu.mbarrier.init %bar[%i], %c128, predicate = %is0 : !barrierType
    }
    gpu.barrier
    scf.for %k = %c0 to %n step %c1 {
      %stage = arith.remui %k, %c4 : index
      %ph = arith.divui %k, %c4 : index
      %phm = arith.remui %ph, %c2 : index
      %parity = arith.index_cast %phm : index to i1
      %t = nvgpu.mbarrier.arrive %bar[%stage] : !barrierType -> !nvgpu.mbarrier.token
      nvgpu.mbarrier.try_wait.parity %bar[%stage], %parity, %ticks : !barrierType
      nvgpu.mbarrier.try_wait.parity %bar[%stage], %parity, %ticks : !barrierType
    }
    gpu.return
  }
}
