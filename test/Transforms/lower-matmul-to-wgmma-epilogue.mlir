// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | gpucg-opt > /dev/null
// The warp-specialized kernel on a persistent grid of one workgroup:
// RUN: sed -e 's/^#ws = \(.*\)>$/#ws = \1, persistent_workgroups = 1>/' %s \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma,canonicalize,cse))' | FileCheck %s --check-prefix=PERSISTENT

// The fused epilogue at the workgroup stage (what gpucg-bufferize leaves of
// a matmul, bias, ReLU and f16 cast): the accumulator's temporary buffer
// becomes a staging buffer in workgroup memory (rows padded by 8 f32) -
// here the ring of stages itself (48 KB, the staging buffer 36 KB), once
// a barrier says every warp's wgmma groups have retired -, the warpgroup
// stores its accumulators there, waits at a barrier, and each thread runs
// the epilogue on pieces of 8 columns (16 bytes of f16), the pieces
// `tid, tid + 128, ...` of the tile. The self copy bufferization left and
// the temporary are gone.

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#ws = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[128, 64, 64]]>
#wsconfig = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @bias_relu_f16
// CHECK: scf.forall
// CHECK: %[[RING:.+]] = memref.alloc() {alignment = 1024 : i64} : memref<49152xi8, #gpu.address_space<workgroup>>
// CHECK: %[[STAGING:.+]] = memref.view %[[RING]][%c0][] : memref<49152xi8, #gpu.address_space<workgroup>> to memref<128x72xf32, #gpu.address_space<workgroup>>
// CHECK: %[[VIEW:.+]] = memref.subview %[[STAGING]][0, 0] [128, 64] [1, 1]
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[LOW:.+]] = memref.subview %[[VIEW]][0, 0] [64, 64] [1, 1]
// CHECK: nvgpu.warpgroup.mma.store %{{.+}}, %[[LOW]]
// CHECK: %[[HIGH:.+]] = memref.subview %[[VIEW]][64, 0] [64, 64] [1, 1]
// CHECK: nvgpu.warpgroup.mma.store %{{.+}}, %[[HIGH]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for %[[PIECE:.+]] = %[[TID]] to %c1024 step %c128 {
// CHECK: %[[ROW:.+]] = arith.divui %[[PIECE]], %c8
// CHECK: %[[COL8:.+]] = arith.remui %[[PIECE]], %c8
// CHECK: %[[COL:.+]] = arith.muli %[[COL8]], %c8
// CHECK: %[[ACC:.+]] = memref.subview %[[VIEW]][%[[ROW]], %[[COL]]] [1, 8] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[ACC]], %{{.+}} : memref<1x8xf32, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<8xf32, strided<[1], offset: ?>>) outs(%{{.+}} : memref<1x8xf16, strided<[128, 1], offset: ?>>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc() : memref<128x64xf32>
// CHECK: return
func.func @bias_relu_f16(%a: memref<256x128xf16>, %b: memref<128x128xf16>, %bias: memref<128xf32>, %out: memref<256x128xf16>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 128) step (128, 64) {
    %av = memref.subview %a[%i, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
    %bv = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x64xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<128x64xf32>)
    linalg.matmul {gpucg.lowering_config = #config} ins(%av, %bv : memref<128x128xf16, strided<[128, 1], offset: ?>>, memref<128x64xf16, strided<[128, 1], offset: ?>>) outs(%acc : memref<128x64xf32>)
    %biasv = memref.subview %bias[%j] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: ?>>
    %outv = memref.subview %out[%i, %j] [128, 64] [1, 1] : memref<256x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %biasv : memref<128x64xf32>, memref<64xf32, strided<[1], offset: ?>>) outs(%outv : memref<128x64xf16, strided<[128, 1], offset: ?>>) {
    ^bb0(%x: f32, %y: f32, %o: f16):
      %s = arith.addf %x, %y : f32
      %r = arith.maximumf %s, %zero : f32
      %t = arith.truncf %r : f32 to f16
      linalg.yield %t : f16
    }
    memref.copy %outv, %outv : memref<128x64xf16, strided<[128, 1], offset: ?>> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    memref.dealloc %acc : memref<128x64xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// The accumulator is a view of a kernel argument (the kernel also returns
// the matmul's result): a copy from the staging buffer stores it, piece by
// piece, before the epilogue's own op. Warp specialized: each consumer
// waits at its own named barrier (id 1 + warpgroup, 128 threads) and
// takes its 64 rows, 4 f32 columns a piece.

// CHECK-LABEL: func.func @stores_accumulator
// The ring (64 KB) cannot hold the staging buffer (68 KB): its own.
// CHECK: %[[STAGING:.+]] = memref.alloc() {alignment = 16 : i64} : memref<128x136xf32, #gpu.address_space<workgroup>>
// CHECK: %[[WG:.+]] = arith.divui %{{.+}}, %c128
// CHECK: %[[FIRST:.+]] = arith.muli %[[WG]], %c64
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: %[[ID:.+]] = arith.addi %[[WG]], %c1
// CHECK: %[[ID32:.+]] = arith.index_castui %[[ID]] : index to i32
// CHECK: nvvm.barrier id = %[[ID32]] number_of_threads = %c128_i32
// CHECK: %[[THREAD:.+]] = arith.remui %{{.+}}, %c128
// CHECK: scf.for %[[PIECE:.+]] = %[[THREAD]] to %c2048 step %c128 {
// CHECK: %[[R:.+]] = arith.divui %[[PIECE]], %c32
// CHECK: %[[ROW:.+]] = arith.addi %[[FIRST]], %[[R]]
// CHECK: linalg.copy ins(%{{.+}} : memref<1x4xf32, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>) outs(%{{.+}} : memref<1x4xf32, strided<[128, 1], offset: ?>>)
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : memref<1x4xf32, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>) outs(%{{.+}} : memref<1x4xf32, strided<[128, 1], offset: ?>>)
// CHECK-NOT: nvvm.barrier
// CHECK: } else {

// PERSISTENT-LABEL: func.func @stores_accumulator
// PERSISTENT: scf.forall (%{{.+}}) in (1)
// PERSISTENT: nvvm.barrier id = %[[ID:.+]] number_of_threads = %c128_i32
// PERSISTENT: linalg.copy
// PERSISTENT: linalg.generic
// PERSISTENT: linalg.yield
// PERSISTENT-NEXT: }
// PERSISTENT-NEXT: }
// PERSISTENT-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
func.func @stores_accumulator(%a: memref<256x128xf16>, %b: memref<128x128xf16>, %c: memref<256x128xf32>, %out: memref<256x128xf32>) attributes {gpucg.translation_info = #ws, gpucg.target = #gpucg.target<chip = "sm_90a">} {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 128) step (128, 128) {
    %av = memref.subview %a[%i, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
    %bv = memref.subview %b[0, %j] [128, 128] [1, 1] : memref<128x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
    %cv = memref.subview %c[%i, %j] [128, 128] [1, 1] : memref<256x128xf32> to memref<128x128xf32, strided<[128, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%cv : memref<128x128xf32, strided<[128, 1], offset: ?>>)
    linalg.matmul {gpucg.lowering_config = #wsconfig} ins(%av, %bv : memref<128x128xf16, strided<[128, 1], offset: ?>>, memref<128x128xf16, strided<[128, 1], offset: ?>>) outs(%cv : memref<128x128xf32, strided<[128, 1], offset: ?>>)
    %outv = memref.subview %out[%i, %j] [128, 128] [1, 1] : memref<256x128xf32> to memref<128x128xf32, strided<[128, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%cv : memref<128x128xf32, strided<[128, 1], offset: ?>>) outs(%outv : memref<128x128xf32, strided<[128, 1], offset: ?>>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// A chain of two consumers (what bufferization leaves of bias-add, then
// ReLU and f16 cast as separate ops): the intermediate result is a
// temporary of the tile, which each piece replaces by a private 1x8 buffer
// of its own; the temporary and its deallocation are gone.

// CHECK-LABEL: func.func @chain
// CHECK-NOT: memref.alloc() {alignment = 64 : i64} : memref<128x64xf32>
// CHECK: scf.for %{{.+}} = %{{.+}} to %c1024 step %c128 {
// CHECK: %[[PRIVATE:.+]] = memref.alloca() : memref<1x8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[PRIVATE]] : memref<1x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[PRIVATE]] : memref<1x8xf32>) outs(%{{.+}} : memref<1x8xf16, strided<[128, 1], offset: ?>>)
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @chain(%a: memref<256x128xf16>, %b: memref<128x128xf16>, %bias: memref<128xf32>, %out: memref<256x128xf16>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 128) step (128, 64) {
    %av = memref.subview %a[%i, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
    %bv = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x64xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<128x64xf32>)
    linalg.matmul {gpucg.lowering_config = #config} ins(%av, %bv : memref<128x128xf16, strided<[128, 1], offset: ?>>, memref<128x64xf16, strided<[128, 1], offset: ?>>) outs(%acc : memref<128x64xf32>)
    %biasv = memref.subview %bias[%j] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: ?>>
    %sum = memref.alloc() {alignment = 64 : i64} : memref<128x64xf32>
    linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %biasv : memref<128x64xf32>, memref<64xf32, strided<[1], offset: ?>>) outs(%sum : memref<128x64xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
    %outv = memref.subview %out[%i, %j] [128, 64] [1, 1] : memref<256x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sum : memref<128x64xf32>) outs(%outv : memref<128x64xf16, strided<[128, 1], offset: ?>>) {
    ^bb0(%x: f32, %o: f16):
      %r = arith.maximumf %x, %zero : f32
      %t = arith.truncf %r : f32 to f16
      linalg.yield %t : f16
    }
    memref.dealloc %sum : memref<128x64xf32>
    memref.dealloc %acc : memref<128x64xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// Bufferization may put a consumer's result in the accumulator's own
// temporary (in place): that op writes its pieces of the staging buffer,
// which the next op reads back, element for element in the same thread.

// CHECK-LABEL: func.func @in_place
// CHECK: %[[VIEW:.+]] = memref.subview %{{.+}}[0, 0] [128, 64] [1, 1] : memref<128x72xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.+}} = %{{.+}} to %c1024 step %c128 {
// CHECK: %[[PIECE:.+]] = memref.subview %[[VIEW]][%{{.+}}, %{{.+}}] [1, 8] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[PIECE]], %{{.+}} : {{.*}}) outs(%[[PIECE]] : memref<1x8xf32, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>)
// CHECK: linalg.generic {{.*}} ins(%[[PIECE]] : {{.*}}) outs(%{{.+}} : memref<1x8xf16, strided<[128, 1], offset: ?>>)
func.func @in_place(%a: memref<256x128xf16>, %b: memref<128x128xf16>, %bias: memref<128xf32>, %out: memref<256x128xf16>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 128) step (128, 64) {
    %av = memref.subview %a[%i, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
    %bv = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x64xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<128x64xf32>)
    linalg.matmul {gpucg.lowering_config = #config} ins(%av, %bv : memref<128x128xf16, strided<[128, 1], offset: ?>>, memref<128x64xf16, strided<[128, 1], offset: ?>>) outs(%acc : memref<128x64xf32>)
    %biasv = memref.subview %bias[%j] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %biasv : memref<128x64xf32>, memref<64xf32, strided<[1], offset: ?>>) outs(%acc : memref<128x64xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
    %outv = memref.subview %out[%i, %j] [128, 64] [1, 1] : memref<256x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<128x64xf32>) outs(%outv : memref<128x64xf16, strided<[128, 1], offset: ?>>) {
    ^bb0(%x: f32, %o: f16):
      %r = arith.maximumf %x, %zero : f32
      %t = arith.truncf %r : f32 to f16
      linalg.yield %t : f16
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// C += A * B: no zero fill, and the accumulator is a view of a kernel
// argument. Its prior contents are what the product adds to: each piece
// of the staged accumulator, plus the same piece of C, goes straight to C
// (a linalg.add of two 1x4 f32 pieces; no copy after it).

// CHECK-LABEL: func.func @accumulate
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<256x128xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[CV:.+]] = memref.subview %[[C]]
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: nvgpu.warpgroup.mma.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for %{{.+}} = %{{.+}} to %c2048 step %c128 {
// CHECK: %[[PRODUCT:.+]] = memref.subview %{{.+}} : memref<128x64xf32, strided<[72, 1]>, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: %[[PRIOR:.+]] = memref.subview %[[CV]]
// CHECK: linalg.add ins(%[[PRODUCT]], %[[PRIOR]] : {{.*}}) outs(%[[PRIOR]] : memref<1x4xf32, strided<[128, 1], offset: ?>>)
// CHECK-NEXT: }
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @accumulate(%a: memref<256x128xf16>, %b: memref<128x128xf16>, %c: memref<256x128xf32>) attributes {gpucg.translation_info = #info} {
  scf.forall (%i, %j) = (0, 0) to (256, 128) step (128, 64) {
    %av = memref.subview %a[%i, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
    %bv = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    %cv = memref.subview %c[%i, %j] [128, 64] [1, 1] : memref<256x128xf32> to memref<128x64xf32, strided<[128, 1], offset: ?>>
    linalg.matmul {gpucg.lowering_config = #config} ins(%av, %bv : memref<128x128xf16, strided<[128, 1], offset: ?>>, memref<128x64xf16, strided<[128, 1], offset: ?>>) outs(%cv : memref<128x64xf32, strided<[128, 1], offset: ?>>)
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// A residual the matmul starts from without writing it: bufferization
// copied the argument's tile into the accumulator's temporary. The copy
// and the temporary are gone; the sum goes into the staging buffer, which
// the epilogue then reads.

// CHECK-LABEL: func.func @residual_relu
// CHECK-SAME: %[[RES:[a-z0-9]+]]: memref<256x128xf32>
// CHECK-NOT: memref.copy
// CHECK: %[[RESV:.+]] = memref.subview %[[RES]]
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: nvgpu.warpgroup.mma.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for %{{.+}} = %{{.+}} to %c2048 step %c128 {
// CHECK: %[[PRODUCT:.+]] = memref.subview %{{.+}} : memref<128x64xf32, strided<[72, 1]>, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: %[[PRIOR:.+]] = memref.subview %[[RESV]]
// CHECK: linalg.add ins(%[[PRODUCT]], %[[PRIOR]] : {{.*}}) outs(%[[PRODUCT]] : memref<1x4xf32, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>)
// CHECK: linalg.generic {{.*}} ins(%[[PRODUCT]] : memref<1x4xf32, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc() {alignment = 64 : i64} : memref<128x64xf32>
// CHECK: return
func.func @residual_relu(%a: memref<256x128xf16>, %b: memref<128x128xf16>, %res: memref<256x128xf32>, %out: memref<256x128xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) = (0, 0) to (256, 128) step (128, 64) {
    %av = memref.subview %a[%i, 0] [128, 128] [1, 1] : memref<256x128xf16> to memref<128x128xf16, strided<[128, 1], offset: ?>>
    %bv = memref.subview %b[0, %j] [128, 64] [1, 1] : memref<128x128xf16> to memref<128x64xf16, strided<[128, 1], offset: ?>>
    %resv = memref.subview %res[%i, %j] [128, 64] [1, 1] : memref<256x128xf32> to memref<128x64xf32, strided<[128, 1], offset: ?>>
    %acc = memref.alloc() {alignment = 64 : i64} : memref<128x64xf32>
    memref.copy %resv, %acc : memref<128x64xf32, strided<[128, 1], offset: ?>> to memref<128x64xf32>
    linalg.matmul {gpucg.lowering_config = #config} ins(%av, %bv : memref<128x128xf16, strided<[128, 1], offset: ?>>, memref<128x64xf16, strided<[128, 1], offset: ?>>) outs(%acc : memref<128x64xf32>)
    %outv = memref.subview %out[%i, %j] [128, 64] [1, 1] : memref<256x128xf32> to memref<128x64xf32, strided<[128, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : memref<128x64xf32>) outs(%outv : memref<128x64xf32, strided<[128, 1], offset: ?>>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    }
    memref.dealloc %acc : memref<128x64xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
