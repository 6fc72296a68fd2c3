// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-distribute-reduction))' --mlir-print-local-scope | FileCheck %s
// Everything printed parses and verifies again.
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-distribute-reduction))' | gpucg-opt --split-input-file > /dev/null

// Rows of 4096 f32: one row per workgroup of 1024 threads (32 warps), 4
// elements per thread and step. Each thread's partial starts at 0 (the
// neutral element of addf); the warps' sums meet in workgroup memory.
// CHECK-LABEL: func.func @row_sum_4096
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [1024, 1, 1]
//       CHECK:   scf.forall (%[[ROW:.+]]) in (16)
//       CHECK:     %[[TID:.+]] = gpu.thread_id{{ +}}x
//       CHECK:     %[[P:.+]] = memref.alloca() : memref<1xf32>
//       CHECK:     linalg.fill ins(%{{.+}} : f32) outs(%[[P]] : memref<1xf32>)
//       CHECK:     %[[LB:.+]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[TID]]]
//       CHECK:     scf.for %[[K:.+]] = %[[LB]] to %{{.+}} step %{{.+}} {
//       CHECK:       memref.subview %{{.+}}[0, %[[K]]] [1, 4] [1, 1]
//       CHECK:       linalg.generic {{.*}} outs(%[[P]] : memref<1xf32>)
//       CHECK:     }
//       CHECK:     %[[MINE:.+]] = memref.load %[[P]][%c0]
//       CHECK:     %[[W:.+]] = gpu.subgroup_reduce add %[[MINE]] uniform : (f32) -> f32
//       CHECK:     %[[SH:.+]] = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
//       CHECK:     scf.if
//       CHECK:       memref.store %[[W]], %[[SH]][%{{.+}}]
//       CHECK:     gpu.barrier
//       CHECK:     %[[X:.+]] = memref.load %[[SH]]
//       CHECK:     %[[Y:.+]] = arith.select %{{.+}}, %[[X]], %{{.+}} : f32
//       CHECK:     %[[T:.+]] = gpu.subgroup_reduce add %[[Y]] uniform : (f32) -> f32
//       CHECK:     scf.if
//       CHECK:       %[[OLD:.+]] = memref.load
//       CHECK:       %[[NEW:.+]] = arith.addf %[[T]], %[[OLD]] : f32
//       CHECK:       memref.store %[[NEW]]
//   CHECK-NOT:   linalg.generic {{.*}}gpucg.lowering_config
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @row_sum_4096(%a: tensor<16x4096xf32>, %c: tensor<16xf32>) -> tensor<16xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<16x4096xf32>) outs(%c : tensor<16xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    } -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}

// -----

// Rows of 128 i32, their maximum: one warp of 4 each, so no workgroup memory
// and no barrier; the partial starts at the smallest i32.
// CHECK-LABEL: func.func @row_max_i32
//  CHECK-SAME:   workgroup_size = [32, 1, 1]
//       CHECK:   %[[MIN:.+]] = arith.constant -2147483648 : i32
//       CHECK:   linalg.fill ins(%[[MIN]] : i32)
//       CHECK:   %[[W:.+]] = gpu.subgroup_reduce maxsi %{{.+}} uniform : (i32) -> i32
//   CHECK-NOT:   gpu.barrier
//   CHECK-NOT:   gpu.subgroup_reduce
//       CHECK:   arith.maxsi %[[W]], %{{.+}} : i32
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @row_max_i32(%a: tensor<64x128xi32>, %c: tensor<64xi32>) -> tensor<64xi32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<64x128xi32>) outs(%c : tensor<64xi32>) {
    ^bb0(%x: i32, %acc: i32):
      %m = arith.maxsi %x, %acc : i32
      linalg.yield %m : i32
    } -> tensor<64xi32>
    return %0 : tensor<64xi32>
  }
}

// -----

// Not WarpReduction (a Vectorize plan): left alone.
// CHECK-LABEL: func.func @short_rows
//  CHECK-SAME:   pipeline = Vectorize
//   CHECK-NOT:   gpu.subgroup_reduce
//       CHECK:   linalg.generic
//   CHECK-NOT:   gpu.subgroup_reduce
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @short_rows(%a: tensor<1000x100xf32>, %c: tensor<1000xf32>) -> tensor<1000xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1000x100xf32>) outs(%c : tensor<1000xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    } -> tensor<1000xf32>
    return %0 : tensor<1000xf32>
  }
}

// -----

// The sum of a whole vector into a 0-d output: one workgroup, the partial
// and the output have no indices.
// CHECK-LABEL: func.func @total
//       CHECK:   %[[P:.+]] = memref.alloca() : memref<f32>
//       CHECK:   memref.load %[[P]][] : memref<f32>
//       CHECK:   gpu.barrier
//       CHECK:   scf.if
//       CHECK:     memref.load %{{.+}}[] : memref<f32
//       CHECK:     arith.addf
//       CHECK:     memref.store %{{.+}}, %{{.+}}[] : memref<f32
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @total(%a: tensor<8192xf32>, %c: tensor<f32>) -> tensor<f32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%a : tensor<8192xf32>) outs(%c : tensor<f32>) {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    } -> tensor<f32>
    return %0 : tensor<f32>
  }
}

// -----

// The mean of squares as frontends write it: x * x into a temporary, a
// zero-filled accumulator, the sum, and a scaling consumer, all fused into
// the row's workgroup tile. The square is computed one step (4 elements) at
// a time into a private buffer. The accumulator is a temporary, so every
// thread fills its own copy and combines the total into it; the consumer
// writes the kernel's output, so thread 0 runs it.
// CHECK-LABEL: func.func @mean_of_squares
//       CHECK:   scf.forall
//       CHECK:     %[[ACC:.+]] = memref.alloc() {{.*}}: memref<1xf32>
//       CHECK:     linalg.fill ins(%{{.+}} : f32) outs(%[[ACC]] : memref<1xf32>)
//       CHECK:     %[[STEP:.+]] = memref.alloca() : memref<1x4xf32>
//       CHECK:     scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
//       CHECK:       %[[X:.+]] = memref.subview %{{.+}}[0, %[[K]]] [1, 4] [1, 1]
//       CHECK:       linalg.generic {{.*}} ins(%[[X]] : {{.*}}) outs(%[[STEP]] : memref<1x4xf32>)
//       CHECK:         arith.mulf
//       CHECK:       linalg.generic {{.*}} ins(%[[STEP]] : memref<1x4xf32>)
//       CHECK:         arith.addf
//       CHECK:     gpu.subgroup_reduce add
//       CHECK:     gpu.barrier
//       CHECK:     %[[TOTAL:.+]] = gpu.subgroup_reduce add
//  CHECK-NEXT:     %[[OLD:.+]] = memref.load %[[ACC]]
//  CHECK-NEXT:     %[[SUM:.+]] = arith.addf %[[TOTAL]], %[[OLD]] : f32
//  CHECK-NEXT:     memref.store %[[SUM]], %[[ACC]]
//       CHECK:     scf.if
//  CHECK-NEXT:       linalg.generic {{.*}} ins(%[[ACC]] : memref<1xf32>)
//       CHECK:         arith.mulf
//  CHECK-NEXT:         linalg.yield
//  CHECK-NEXT:       }
//  CHECK-NEXT:     }
//  CHECK-NEXT:   } {mapping = [#gpu.block<x>]}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @mean_of_squares(%a: tensor<16x4096xf32>, %out: tensor<16xf32>) -> tensor<16xf32> {
    %zero = arith.constant 0.0 : f32
    %scale = arith.constant 0.000244140625 : f32
    %e = tensor.empty() : tensor<16x4096xf32>
    %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16x4096xf32>) outs(%e : tensor<16x4096xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %x : f32
      linalg.yield %m : f32
    } -> tensor<16x4096xf32>
    %init = tensor.empty() : tensor<16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%init : tensor<16xf32>) -> tensor<16xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<16x4096xf32>) outs(%f : tensor<16xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    } -> tensor<16xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<16xf32>) outs(%out : tensor<16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %scale : f32
      linalg.yield %m : f32
    } -> tensor<16xf32>
    return %r : tensor<16xf32>
  }
}

// -----

// Softmax of rows of 1000 (too short for a warp per 128-bit step, but a row
// program has no other plan): 256 threads of 4 elements, lanes past the row
// idle. The row's maximum and the sum are reduced in turn; every thread
// keeps both totals (its own copies of the temporaries) and computes
// exp(x - max) again, one step at a time, in the sum's loop and in the
// division's, which writes the kernel's output directly: no row-sized
// temporary, no thread-0 section, one barrier per reduction.
// CHECK-LABEL: func.func @softmax_1000
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [256, 1, 1]
//   CHECK-NOT:   memref<1x1000xf32>
//       CHECK:   scf.forall
//       CHECK:     %[[MAX:.+]] = memref.alloc() {{.*}}: memref<1xf32>
//       CHECK:     scf.for
//       CHECK:       arith.maximumf
//       CHECK:     gpu.subgroup_reduce maximumf
//       CHECK:     gpu.barrier
//       CHECK:     gpu.subgroup_reduce maximumf
//       CHECK:     memref.store %{{.+}}, %[[MAX]]
//       CHECK:     %[[SUM:.+]] = memref.alloc() {{.*}}: memref<1xf32>
//       CHECK:     %[[E1:.+]] = memref.alloca() : memref<1x4xf32>
//       CHECK:     scf.for
//       CHECK:       linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : {{.*}}) outs(%[[E1]] : memref<1x4xf32>)
//       CHECK:         math.exp
//       CHECK:       linalg.generic {{.*}} ins(%[[E1]] : memref<1x4xf32>)
//       CHECK:         arith.addf
//       CHECK:     gpu.subgroup_reduce add
//       CHECK:     gpu.barrier
//       CHECK:     gpu.subgroup_reduce add
//       CHECK:     memref.store %{{.+}}, %[[SUM]]
//   CHECK-NOT:     gpu.barrier
//       CHECK:     %[[E2:.+]] = memref.alloca() : memref<1x4xf32>
//       CHECK:     scf.for %[[K:.+]] = %{{.+}} to %c1000{{.*}} step %c1024
//       CHECK:       linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : {{.*}}) outs(%[[E2]] : memref<1x4xf32>)
//       CHECK:         math.exp
//       CHECK:       %[[OUT:.+]] = memref.subview %{{.+}}[0, %[[K]]] [1, 4] [1, 1]
//       CHECK:       linalg.generic {{.*}} ins(%[[E2]], %{{.+}} : {{.*}}) outs(%[[OUT]] :
//       CHECK:         arith.divf
//   CHECK-NOT:   scf.if
//   CHECK-NOT:   memref<1x1000xf32>
//       CHECK:   } {mapping = [#gpu.block<x>]}
#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @softmax_1000(%x: tensor<64x1000xf32>, %out: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64xf32>
    %macc = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %max = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1000xf32>) outs(%macc : tensor<64xf32>) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.maximumf %a, %b : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    %er = tensor.empty() : tensor<64x1000xf32>
    %ex = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<64x1000xf32>, tensor<64xf32>) outs(%er : tensor<64x1000xf32>) {
    ^bb0(%a: f32, %m: f32, %b: f32):
      %d = arith.subf %a, %m : f32
      %t = math.exp %d : f32
      linalg.yield %t : f32
    } -> tensor<64x1000xf32>
    %sacc = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %sum = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<64x1000xf32>) outs(%sacc : tensor<64xf32>) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    %o = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<64x1000xf32>, tensor<64xf32>) outs(%out : tensor<64x1000xf32>) {
    ^bb0(%a: f32, %s: f32, %b: f32):
      %t = arith.divf %a, %s : f32
      linalg.yield %t : f32
    } -> tensor<64x1000xf32>
    return %o : tensor<64x1000xf32>
  }
}

// -----

// Rows of a run-time size: 128 threads of 4 f32 per step over the row's
// whole vectors (up to N floordiv 4 * 4, N the row's size), then one
// element per thread over the rest; both loops into the thread's partial.
// CHECK-LABEL: func.func @dynamic_row
//  CHECK-SAME:   pipeline = WarpReduction, workgroup_size = [128, 1, 1]
//       CHECK:   scf.forall (%[[ROW:.+]]) in (%{{.+}})
//       CHECK:     %[[TID:.+]] = gpu.thread_id{{ +}}x
//       CHECK:     %[[P:.+]] = memref.alloca() : memref<1xf32>
//       CHECK:     %[[LB:.+]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[TID]]]
//       CHECK:     %[[WHOLE:.+]] = affine.apply affine_map<()[s0] -> ((s0 floordiv 4) * 4)>()[%[[N:[a-z0-9_]+]]]
//       CHECK:     scf.for %[[K:.+]] = %[[LB]] to %[[WHOLE]] step %c512 {
//       CHECK:       memref.subview %{{.+}}[0, %[[K]]] [1, 4] [1, 1]
//       CHECK:       linalg.generic {{.*}} outs(%[[P]] : memref<1xf32>)
//       CHECK:     }
//       CHECK:     %[[TAIL:.+]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%[[WHOLE]], %[[TID]]]
//       CHECK:     scf.for %[[J:.+]] = %[[TAIL]] to %[[N]] step %c128 {
//       CHECK:       memref.subview %{{.+}}[0, %[[J]]] [1, 1] [1, 1]
//       CHECK:       linalg.generic {{.*}} outs(%[[P]] : memref<1xf32>)
//       CHECK:     }
//       CHECK:     gpu.subgroup_reduce add
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @dynamic_row(%a: tensor<?x?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<?x?xf32>) outs(%c : tensor<?xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    } -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}
