// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-build-gpu-launch))' | FileCheck %s
// Round trip: what the pass prints parses and verifies again.
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-build-gpu-launch))' | gpucg-opt -split-input-file --verify-diagnostics > /dev/null

// Static grid, a non-unit step, a small workgroup buffer: a launch
// attribution. Thread ids and index math above the workgroup loop move inside.

// CHECK-LABEL: func.func @static_grid
// CHECK-SAME:    (%[[A:.*]]: memref<256x128xf32>)
// CHECK-NOT:     gpu.known_block_size
// CHECK-DAG:     %[[G8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[G2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[B64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         gpu.launch blocks(%[[BX:[a-z0-9_]+]], %[[BY:[a-z0-9_]+]], %{{[a-z0-9_]+}}) in (%{{[a-z0-9_]+}} = %[[G2]], %{{[a-z0-9_]+}} = %[[G8]], %{{[a-z0-9_]+}} = %[[ONE]])
// CHECK-SAME:               threads(%{{[a-z0-9_, %]+}}) in (%{{[a-z0-9_]+}} = %[[B64]], %{{[a-z0-9_]+}} = %[[ONE]], %{{[a-z0-9_]+}} = %[[ONE]])
// CHECK-SAME:               workgroup(%[[WG:.*]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[TID:.*]] = gpu.thread_id x
// CHECK:           %[[I:.*]] = affine.apply #{{.*}}()[%[[BY]]]
// CHECK:           %[[J:.*]] = affine.apply #{{.*}}()[%[[BX]]]
// CHECK:           memref.load %[[A]][%[[I]], %[[J]]]
// CHECK:           memref.store %{{.*}}, %[[WG]][%[[TID]]]
// CHECK:           gpu.terminator
// CHECK:         return
func.func @static_grid(%a: memref<256x128xf32>) attributes {
    gpu.known_block_size = array<i32: 64, 1, 1>,
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  %wg = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %tid = gpu.thread_id x
  scf.forall (%i, %j) = (0, 0) to (256, 128) step (32, 64) {
    %v = memref.load %a[%i, %j] : memref<256x128xf32>
    memref.store %v, %wg[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

// Over ptxas' 48 KB static limit, under sm_80's opt-in limit: views of
// dynamic shared memory at 16-byte-aligned offsets, the size on the launch.

// CHECK-LABEL: func.func @dynamic_shared_memory
// CHECK:         %[[BYTES:.*]] = arith.constant 65552 : i32
// CHECK:         gpu.launch
// CHECK-SAME:      dynamic_shared_memory_size %[[BYTES]]
// CHECK:           %[[BASE:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-DAG:       %[[OFF0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[OFF1:.*]] = arith.constant 65536 : index
// CHECK-DAG:       memref.view %[[BASE]][%[[OFF0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf32, #gpu.address_space<workgroup>>
// CHECK-DAG:       memref.view %[[BASE]][%[[OFF1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:       memref.alloc
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @dynamic_shared_memory(%a: memref<16384xf32>) attributes {
      gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [128, 1, 1]>} {
    %big = memref.alloc() : memref<16384xf32, #gpu.address_space<workgroup>>
    %small = memref.alloc() : memref<3xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<16384xf32>
    memref.store %v, %big[%c0] : memref<16384xf32, #gpu.address_space<workgroup>>
    memref.store %v, %small[%c0] : memref<3xf32, #gpu.address_space<workgroup>>
    return
  }
}

// -----

// A dynamic size: the grid is computed on the host from the argument.

// CHECK-LABEL: func.func @dynamic_grid
// CHECK-SAME:    (%[[A:.*]]: memref<?xf32>)
// CHECK:         %[[N:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK:         %[[GRID:.*]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK:         gpu.launch blocks(%{{[a-z0-9_, %]+}}) in (%{{[a-z0-9_]+}} = %[[GRID]],
func.func @dynamic_grid(%a: memref<?xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  scf.forall (%i) = (0) to (%n) step (32) {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A returned view of the whole of an argument (a destination written in
// place and returned reshaped, or a kernel whose loops
// gpucg-collapse-elementwise-dims merged): the kernel's copy of the view
// moves into the launch with the rest, and the host computes its own for
// the return, its dynamic size included.

// CHECK-LABEL: func.func @returns_view
// CHECK-SAME:    (%[[A:.*]]: memref<?x96xf32>) -> memref<?x2x48xf32>
// CHECK:         gpu.launch
// CHECK:           memref.collapse_shape %[[A]]
// CHECK:         gpu.terminator
// CHECK:         %[[N:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK:         %[[V:.*]] = memref.expand_shape %[[A]] {{\[}}[0], [1, 2]] output_shape [%[[N]], 2, 48]
// CHECK-NEXT:    return %[[V]]
func.func @returns_view(%a: memref<?x96xf32>) -> memref<?x2x48xf32> attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [32, 1, 1]>} {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x96xf32>
  %row = memref.collapse_shape %a [[0, 1]] : memref<?x96xf32> into memref<?xf32>
  scf.forall (%i) in (4) {
    %v = memref.load %row[%i] : memref<?xf32>
    memref.store %v, %row[%i] : memref<?xf32>
  } {mapping = [#gpu.block<x>]}
  %r = memref.expand_shape %a [[0], [1, 2]] output_shape [%n, 2, 48] : memref<?x96xf32> into memref<?x2x48xf32>
  return %r : memref<?x2x48xf32>
}

// -----

// Without a translation_info, a function is not a kernel: left alone.

// CHECK-LABEL: func.func @not_a_kernel
// CHECK-NOT:     gpu.launch
func.func @not_a_kernel(%a: memref<4xf32>) {
  return
}

// -----

// Tensor maps stay on the host, before the launch, with their own copy of a
// constant the kernel uses too; a workgroup allocation aligned beyond 16
// bytes (a 128-byte-swizzled TMA destination) goes to dynamic shared memory
// at an offset of that alignment.
// CHECK-LABEL: func.func @tensor_maps
// CHECK-SAME: (%[[A:.+]]: memref<128x64xf16>
// CHECK: %[[U:.+]] = memref.cast %[[A]]
// CHECK: %[[C64H:.+]] = arith.constant 64 : index
// CHECK: %[[MAP:.+]] = nvgpu.tma.create.descriptor %[[U]] box[%[[C64H]], %[[C64H]]]
// CHECK: %[[SMEM:.+]] = arith.constant 9216 : i32
// CHECK: gpu.launch
// CHECK-SAME: dynamic_shared_memory_size %[[SMEM]]
// CHECK: %[[BASE:.+]] = gpu.dynamic_shared_memory {gpucg.alignment = 1024 : i64}
// CHECK: %[[OFF1:.+]] = arith.constant 1024 : index
// CHECK: memref.view %[[BASE]][%[[OFF1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8192xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[BASE]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xi8, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.prefetch.descriptor %[[MAP]]
!map = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @tensor_maps(%a: memref<128x64xf16>, %out: memref<2xindex>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1]>} {
  %u = memref.cast %a : memref<128x64xf16> to memref<*xf16>
  %c64 = arith.constant 64 : index
  %m = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !map
  scf.forall (%i) in (2) {
    %small = memref.alloc() : memref<16xi8, #gpu.address_space<workgroup>>
    %ring = memref.alloc() {alignment = 1024 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    nvgpu.tma.prefetch.descriptor %m : !map
    memref.store %c64, %out[%i] : memref<2xindex>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A workgroup loop with gpucg.cluster_shape (a clustered wgmma kernel):
// the launch groups its 2 x 4 workgroups into clusters of 1 x 2, and its
// region gets the cluster ids and sizes after the block and thread ones.

// CHECK-LABEL: func.func @clusters
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[CL2:.*]] = arith.constant 2 : index
// CHECK:         gpu.launch clusters(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) in (%{{[a-z0-9_]+}} = %[[C1]], %{{[a-z0-9_]+}} = %[[CL2]], %{{[a-z0-9_]+}} = %[[C1]])
// CHECK-SAME:               blocks(%{{[a-z0-9_, %]+}}) in (%{{[a-z0-9_]+}} = %[[C2]], %{{[a-z0-9_]+}} = %[[C4]], %{{[a-z0-9_]+}} = %[[C1]])
// CHECK-NOT:     gpucg.cluster_shape
func.func @clusters(%a: memref<512x256xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  scf.forall (%i, %j) = (0, 0) to (512, 256) step (128, 128) {
    %tid = gpu.thread_id x
    %v = memref.load %a[%i, %j] : memref<512x256xf32>
    memref.store %v, %a[%i, %tid] : memref<512x256xf32>
  } {gpucg.cluster_shape = array<i64: 1, 2, 1>, mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

// Clusters along x over a dynamic grid along y (a dynamic M's rows of tiles
// in clusters along N): clusters of one along y divide any grid.

// CHECK-LABEL: func.func @clusters_dynamic_rows
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[ROWS:.*]] = affine.apply #{{.+}}()[%{{.+}}]
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[CL2:.*]] = arith.constant 2 : index
// CHECK:         gpu.launch clusters(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) in (%{{[a-z0-9_]+}} = %[[CL2]], %{{[a-z0-9_]+}} = %[[C1]], %{{[a-z0-9_]+}} = %[[C1]])
// CHECK-SAME:               blocks(%{{[a-z0-9_, %]+}}) in (%{{[a-z0-9_]+}} = %[[C2]], %{{[a-z0-9_]+}} = %[[ROWS]], %{{[a-z0-9_]+}} = %[[C1]])
func.func @clusters_dynamic_rows(%a: memref<?x256xf32>) attributes {
    gpucg.translation_info = #gpucg.translation_info<pipeline = SimtDistribute, workgroup_size = [64, 1, 1]>} {
  %c0 = arith.constant 0 : index
  %rows = memref.dim %a, %c0 : memref<?x256xf32>
  scf.forall (%i, %j) = (0, 0) to (%rows, 256) step (128, 128) {
    %tid = gpu.thread_id x
    %v = memref.load %a[%i, %j] : memref<?x256xf32>
    memref.store %v, %a[%i, %tid] : memref<?x256xf32>
  } {gpucg.cluster_shape = array<i64: 2, 1, 1>, mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}
