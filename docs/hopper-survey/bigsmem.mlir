module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    memref.global "private" @big : memref<131072xf16, 3> {alignment = 1024}
    gpu.func @kern(%o: memref<1xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 131071 : index
      %s = memref.get_global @big : memref<131072xf16, 3>
      %v = memref.load %s[%c1] : memref<131072xf16, 3>
      memref.store %v, %o[%c0] : memref<1xf16>
      gpu.return
    }
  }
}
