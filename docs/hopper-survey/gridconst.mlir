module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x i16>
    llvm.mlir.global internal @mbar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
    llvm.func @gc_kernel(%tmap: !llvm.ptr {llvm.byval = !llvm.array<16 x i64>, llvm.align = 64 : i64, nvvm.grid_constant}, %x: i32) attributes {nvvm.kernel} {
      %s = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %b = llvm.mlir.addressof @mbar : !llvm.ptr<3>
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %bytes = llvm.mlir.constant(16384 : i32) : i32
      nvvm.mbarrier.init %b, %c1 : !llvm.ptr<3>, i32
      nvvm.fence.mbarrier.init
      nvvm.prefetch tensormap, %tmap : !llvm.ptr
      %s7 = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr<7>
      nvvm.cp.async.bulk.tensor.shared.cluster.global %s7, %tmap, %b, box[%x, %c0] : !llvm.ptr<7>, !llvm.ptr
      nvvm.mbarrier.arrive.expect_tx %b, %bytes : !llvm.ptr<3>, i32
      nvvm.mbarrier.try_wait.parity %b, %c0, %c0 : !llvm.ptr<3>, i32, i32
      llvm.return
    }
  }
}
