module attributes {gpu.container_module} {
  func.func @host(%p: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 1024 : i32
    gpu.launch_func @k::@kern clusters in (%c2, %c1, %c1) blocks in (%c128, %c2, %c1) threads in (%c128, %c1, %c1) dynamic_shared_memory_size %smem args(%p : memref<16xf32>)
    return
  }
  gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @kern(%p: memref<16xf32>) kernel {
      %r = nvvm.read.ptx.sreg.cluster.ctarank : i32
      gpu.return
    }
  }
}
