!da = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xbf16,3>>
!db = !nvgpu.warpgroup.descriptor<tensor = memref<16x128xbf16,3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf16>>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @kern(%a: i64, %b: i64, %out: memref<64x128xf16>) kernel {
      %da = builtin.unrealized_conversion_cast %a : i64 to !da
      %db = builtin.unrealized_conversion_cast %b : i64 to !db
      %c = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %d = nvgpu.warpgroup.mma %da, %db, %c {waitGroup = 0} : !da, !db, !acc -> !acc
      nvgpu.warpgroup.mma.store %d, %out : !acc to memref<64x128xf16>
      gpu.return
    }
  }
}
