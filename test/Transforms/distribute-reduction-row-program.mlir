// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-distribute-reduction))' | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpucg-distribute-reduction))' | gpucg-opt -split-input-file > /dev/null

// Hand-written bufferized workgroup tiles: where each op of a row program
// runs, and the barriers between threads that the kernel's buffers need.

// The row's total goes to a buffer of the kernel's (%max, an argument):
// thread 0 writes it, so a barrier comes before the threads' steps read it.
// The scaled row is written by the threads' steps, one vector each.
// CHECK-LABEL: func.func @total_in_a_kernel_buffer
//       CHECK:   %[[TID:.+]] = gpu.thread_id x
//       CHECK:   gpu.subgroup_reduce maximumf
//       CHECK:   %[[FIRST:.+]] = arith.cmpi eq, %[[TID]], %{{.+}} : index
//       CHECK:   scf.if %[[FIRST]] {
//       CHECK:     memref.store %{{.+}}, %[[MAX:.+]][%{{.+}}] : memref<1xf32>
//       CHECK:   }
//  CHECK-NEXT:   gpu.barrier
//       CHECK:   scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
//       CHECK:     memref.subview %[[MAX]][0] [1] [1]
//       CHECK:     linalg.generic
//       CHECK:       arith.subf
//   CHECK-NOT:   gpu.barrier
//       CHECK:   return
#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @total_in_a_kernel_buffer(%x: memref<1x256xf32>, %max: memref<1xf32>, %out: memref<1x256xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [64, 1, 1]>} {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%max : memref<1xf32>)
  linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<1x256xf32>) outs(%max : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<1x256xf32>, memref<1xf32>) outs(%out : memref<1x256xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %t = arith.subf %a, %m : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// The squares, a row temporary, are computed in the sum's steps. %neg, a
// kernel buffer that the threads' steps write, is read by an op on one
// element that thread 0 runs: a barrier comes first.
// CHECK-LABEL: func.func @row_written_by_threads_read_by_thread_0
//       CHECK:   scf.for
//       CHECK:     linalg.generic
//       CHECK:       arith.mulf
//       CHECK:   gpu.subgroup_reduce add
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//       CHECK:     memref.store
//       CHECK:   scf.for
//       CHECK:     linalg.generic
//       CHECK:       arith.negf
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//       CHECK:     linalg.generic
//       CHECK:       arith.addf
#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @row_written_by_threads_read_by_thread_0(%x: memref<1x256xf32>, %sum: memref<1xf32>, %neg: memref<1x256xf32>, %first: memref<1x1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [64, 1, 1]>} {
  %sq = memref.alloc() : memref<1x256xf32>
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1x256xf32>) outs(%sq : memref<1x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%sq : memref<1x256xf32>) outs(%sum : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1x256xf32>) outs(%neg : memref<1x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    linalg.yield %t : f32
  }
  %n0 = memref.subview %neg[0, 0] [1, 1] [1, 1] : memref<1x256xf32> to memref<1x1xf32, strided<[256, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%n0 : memref<1x1xf32, strided<[256, 1]>>) outs(%first : memref<1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %a : f32
    linalg.yield %t : f32
  }
  return
}
