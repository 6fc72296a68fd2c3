// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpucg-convert-to-nvvm{bare-pointers=true}))' | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpucg-convert-to-nvvm{bare-pointers=true}))' | gpucg-opt -split-input-file > /dev/null

// A workgroup attribution becomes a 16-byte-aligned shared global; 1-D
// transfers on workgroup and global memory become 128-bit accesses whose
// alignment is proven from the indices (multiples of 4 f32 elements).

// CHECK: llvm.mlir.global internal @__wg_copy_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<512 x i8>
// CHECK: llvm.func @copy(%{{.*}}: !llvm.ptr)
// CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
gpu.module @kernels {
  gpu.func @copy(%out: memref<64x64xf32>) workgroup(%wg : memref<512xi8, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %pad = ub.poison : f32
    %tid = gpu.thread_id x
    %col = arith.muli %tid, %c4 : index
    %view = memref.view %wg[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<2x64xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %view[%c0, %col], %pad {in_bounds = [true]} : memref<2x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.transfer_write %v, %out[%tid, %col] {in_bounds = [true]} : vector<4xf32>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// An scf.for carrying async-copy tokens and MMA accumulators lowers with the
// rest: structured control flow goes first.

// CHECK-LABEL: llvm.func @pipelined
// CHECK:         nvvm.cp.async.shared.global
// CHECK:         nvvm.cp.async.commit.group
// CHECK:         llvm.br
// CHECK:         nvvm.cp.async.wait.group 1
// CHECK:         nvvm.mma.sync
// CHECK-NOT:     scf.
// CHECK-NOT:     nvgpu.
gpu.module @kernels {
  gpu.func @pipelined(%a: memref<128x16xf16>, %acc: vector<2x2xf32>, %frag: vector<4x2xf16>, %fragb: vector<2x2xf16>)
      workgroup(%wg : memref<16x16xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %t0 = nvgpu.device_async_copy %a[%c0, %c0], %wg[%c0, %c0], 8 : memref<128x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
    %g0 = nvgpu.device_async_create_group %t0
    %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %acc, %g = %g0) -> (vector<2x2xf32>, !nvgpu.device.async.token) {
      %t = nvgpu.device_async_copy %a[%i, %c0], %wg[%c0, %c0], 8 : memref<128x16xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      %gn = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %g {numGroups = 1 : i32}
      %y = nvgpu.mma.sync(%frag, %fragb, %x) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %y, %gn : vector<2x2xf32>, !nvgpu.device.async.token
    }
    gpu.return
  }
}

// -----

// bf16 mma.sync goes through gpucg's own pattern (operands packed as i32).

// CHECK-LABEL: llvm.func @bf16
// CHECK:         nvvm.mma.sync
// CHECK-SAME:      multiplicandAPtxType = #nvvm.mma_type<bf16>
gpu.module @kernels {
  gpu.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>, %out: memref<2x2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %row = vector.extract %d[0] : vector<2xf32> from vector<2x2xf32>
    vector.store %row, %out[%c0, %c0] : memref<2x2xf32>, vector<2xf32>
    gpu.return
  }
}

// -----

// Linalg ops on buffers that no stage vectorized (the scalar remainder of
// workgroup specialization) run as the loops they stand for: a 1x8 matmul
// per thread is a loop of 8 multiply-adds in f32.

// CHECK-LABEL: llvm.func @scalar_remainder
// CHECK:         llvm.cond_br
// CHECK:         llvm.fpext %{{.*}} : f16 to f32
// CHECK:         llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK:         llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT:     linalg.
gpu.module @kernels {
  gpu.func @scalar_remainder(%a: memref<1x8xf16>, %b: memref<8x1xf16>) workgroup(%wg : memref<16xi8, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c = memref.view %wg[%c0][] : memref<16xi8, #gpu.address_space<workgroup>> to memref<1x1xf32, #gpu.address_space<workgroup>>
    linalg.matmul ins(%a, %b : memref<1x8xf16>, memref<8x1xf16>) outs(%c : memref<1x1xf32, #gpu.address_space<workgroup>>)
    gpu.return
  }
}

// -----

// With bare-pointers=true, a kernel with a dynamic memref argument takes
// memref descriptors (as its .abi says): the pointers, the offset, the
// sizes and the strides, one parameter each.
// CHECK-LABEL: llvm.func @dynamic
//  CHECK-SAME:   (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
gpu.module @kernels {
  gpu.func @dynamic(%a: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

// An elementwise kernel whose loops gpucg-collapse-elementwise-dims merged
// reads its 64x4097 arguments as rows of 262208 elements: the
// collapse_shape is taken as the reinterpret_cast it is, so its 128-bit
// accesses keep the alignment of the argument and of the index (8 f16
// per thread); folded into the argument's 2-D indices, they would be
// element by element.
// CHECK-LABEL: llvm.func @collapsed
//       CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xf16>
//       CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr
gpu.module @kernels {
  gpu.func @collapsed(%x: memref<64x4097xf16>, %out: memref<64x4097xf16>) kernel {
    %c8 = arith.constant 8 : index
    %pad = ub.poison : f16
    %tid = gpu.thread_id x
    %i = arith.muli %tid, %c8 : index
    %xc = memref.collapse_shape %x [[0, 1]] : memref<64x4097xf16> into memref<262208xf16>
    %oc = memref.collapse_shape %out [[0, 1]] : memref<64x4097xf16> into memref<262208xf16>
    %v = vector.transfer_read %xc[%i], %pad {in_bounds = [true]} : memref<262208xf16>, vector<8xf16>
    vector.transfer_write %v, %oc[%i] {in_bounds = [true]} : vector<8xf16>, memref<262208xf16>
    gpu.return
  }
}

// -----

// The same with a dynamic size (? rows of 4097 f16 as one run): the
// cast's size is the product of its group's sizes, its strides and offset
// static, so the 128-bit accesses keep their alignment.
// CHECK-LABEL: llvm.func @collapsed_dynamic
//       CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xf16>
//       CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr
gpu.module @kernels {
  gpu.func @collapsed_dynamic(%x: memref<?x4097xf16>, %out: memref<?x4097xf16>) kernel {
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %i = arith.muli %tid, %c8 : index
    %xc = memref.collapse_shape %x [[0, 1]] : memref<?x4097xf16> into memref<?xf16>
    %oc = memref.collapse_shape %out [[0, 1]] : memref<?x4097xf16> into memref<?xf16>
    %v = vector.load %xc[%i] : memref<?xf16>, vector<8xf16>
    vector.store %v, %oc[%i] : memref<?xf16>, vector<8xf16>
    gpu.return
  }
}
