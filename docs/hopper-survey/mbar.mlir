!barrierType = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @mbar_kernel(%out: memref<4xi1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %ticks = arith.constant 10000000 : index
    %false = arith.constant false
    %bar = nvgpu.mbarrier.create -> !barrierType
    %tid = gpu.thread_id x
    %is0 = arith.cmpi eq, %tid, %c0 : index
    nvgpu.mbarrier.init %bar[%c0], %c128, predicate = %is0 : !barrierType
    nvgpu.mbarrier.init %bar[%c1], %c128 : !barrierType
    gpu.barrier
    %tok = nvgpu.mbarrier.arrive %bar[%c0] : !barrierType -> !nvgpu.mbarrier.token
    %tok2 = nvgpu.mbarrier.arrive.nocomplete %bar[%c1], %c1 : !barrierType -> !nvgpu.mbarrier.token
    %done = nvgpu.mbarrier.test.wait %bar[%c0], %tok : !barrierType, !nvgpu.mbarrier.token
    nvgpu.mbarrier.arrive.expect_tx %bar[%c1], %c128, predicate = %is0 : !barrierType
    nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : !barrierType
    %p = nvgpu.mbarrier.get %bar[%c1] : !barrierType -> i32
    memref.store %done, %out[%c0] : memref<4xi1>
    gpu.return
  }
}
