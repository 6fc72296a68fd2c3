// The mgpu* functions that MLIR 22's gpu-to-llvm, gpu.binary translation and
// nvgpu-to-nvvm output call, each reached from mlir-runner, on the fake
// driver (runtime/tests/FakeCudaDriver.c: device memory is host memory,
// launches are printed): module load through the JIT, launch with dynamic
// shared memory (opted in), cluster launch, streams and the events between
// them, alloc (device and host_shared), memset32/16, memcpy, free, memref
// host register/unregister, a TMA descriptor.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa},convert-nvgpu-to-nvvm,gpu-to-llvm,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)' -o %t.mlir
// RUN: env GPUCG_CUDA_DRIVER=%gpucg_fake_cuda %sanitizer_preload mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%gpucg_runtime_lib,%mlir_runner_utils,%mlir_c_runner_utils > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=DRIVER < %t.err
//
// gpu.memset of 7, then copied back: the memset and memcpy reached the device
// memory in that order; -2 from the 16-bit memset of host_shared memory.
// OUT:      sizes = [16] strides = [1] data =
// OUT-NEXT: [7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7]
// OUT-NEXT: -2
//
// DRIVER:      fake-cuda: loaded a module of {{[0-9]+}} bytes of PTX
// DRIVER-NEXT: fake-cuda: cuMemHostRegister(64 bytes)
// DRIVER-NEXT: fake-cuda: cuFuncSetAttribute(fill, 8, 65536)
// DRIVER-NEXT: fake-cuda: launch fill grid 1x1x1 block 16x1x1 shared 65536 params 6
// DRIVER-NEXT: fake-cuda:   param 0 .u64 [[POINTER:[0-9]+]]
// DRIVER-NEXT: fake-cuda:   param 1 .u64 [[POINTER]]
// DRIVER-NEXT: fake-cuda:   param 2 .u64 0
// DRIVER-NEXT: fake-cuda:   param 3 .u64 16
// DRIVER-NEXT: fake-cuda:   param 4 .u64 1
// DRIVER-NEXT: fake-cuda:   param 5 .u32 7
// DRIVER-NEXT: fake-cuda: launch fill cluster 2x1x1 grid 2x1x1 block 16x1x1 shared 0 params 6
// DRIVER-NEXT: fake-cuda:   param 0 .u64 [[POINTER]]
// DRIVER:      fake-cuda: cuMemHostUnregister
// The box is 32x64 of a 64x128 f16 tile: innermost first, rows of 256 bytes.
// DRIVER-NEXT: fake-cuda: cuTensorMapEncodeTiled(type 6, rank 2, dim 128 stride 256 box 64, dim 64 stride 0 box 32, interleave 0 swizzle 0 l2 0 oob 0)
// DRIVER-NEXT: fake-cuda: unloaded a module
// DRIVER-NOT:  gpucg runtime

!desc = !nvgpu.tensormap.descriptor<tensor = memref<32x64xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%buffer: memref<16xi32>, %value: i32) kernel {
      %tid = gpu.thread_id x
      memref.store %value, %buffer[%tid] : memref<16xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %shared = arith.constant 65536 : i32
    %seven = arith.constant 7 : i32
    %minus2 = arith.constant -2 : i16
    %host = memref.alloc() : memref<16xi32>
    %unranked = memref.cast %host : memref<16xi32> to memref<*xi32>
    gpu.host_register %unranked : memref<*xi32>
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %device, %t2 = gpu.alloc async [%t0] () : memref<16xi32>
    %t3 = gpu.memset async [%t2] %device, %seven : memref<16xi32>, i32
    %t4 = gpu.launch_func async [%t3] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) dynamic_shared_memory_size %shared args(%device : memref<16xi32>, %seven : i32)
    %t5 = gpu.launch_func async [%t4] @kernels::@fill clusters in (%c2, %c1, %c1) blocks in (%c2, %c1, %c1) threads in (%c16, %c1, %c1) args(%device : memref<16xi32>, %seven : i32)
    // Two streams joined: one waits on an event of the other.
    %joined = gpu.wait async [%t5, %t1]
    %t6 = gpu.memcpy async [%joined] %host, %device : memref<16xi32>, memref<16xi32>
    %t7 = gpu.dealloc async [%t6] %device : memref<16xi32>
    gpu.wait [%t7]
    call @printMemrefI32(%unranked) : (memref<*xi32>) -> ()
    gpu.host_unregister %unranked : memref<*xi32>
    memref.dealloc %host : memref<16xi32>

    %shorts = gpu.alloc host_shared () : memref<8xi16>
    %t8 = gpu.wait async
    %t9 = gpu.memset async [%t8] %shorts, %minus2 : memref<8xi16>, i16
    gpu.wait [%t9]
    %short = memref.load %shorts[%c3] : memref<8xi16>
    %wide = arith.extsi %short : i16 to i64
    call @printI64(%wide) : (i64) -> ()
    call @printNewline() : () -> ()

    %t10 = gpu.wait async
    %tile, %t11 = gpu.alloc async [%t10] () : memref<64x128xf16>
    gpu.wait [%t11]
    %tile_unranked = memref.cast %tile : memref<64x128xf16> to memref<*xf16>
    %map = nvgpu.tma.create.descriptor %tile_unranked box[%c32, %c64] : memref<*xf16> -> !desc
    %t12 = gpu.wait async
    %t13 = gpu.dealloc async [%t12] %tile : memref<64x128xf16>
    %t14 = gpu.dealloc async [%t13] %shorts : memref<8xi16>
    gpu.wait [%t14]
    return
  }
}
