gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @kern() kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32} {
    gpu.return
  }
}
