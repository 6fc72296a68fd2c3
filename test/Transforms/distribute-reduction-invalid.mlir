// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-distribute-reduction))'

// One case per error of gpucg-distribute-reduction, on bufferized
// workgroup tiles with hand-written plans (the strategy verifier refuses
// most of them earlier).

// expected-error @+1 {{uses pipeline WarpReduction, which needs workgroup_size [x, 1, 1], got [32, 2, 1]}}
func.func @two_dimensional_workgroup(%a: memref<1x128xf32>, %c: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 2, 1]>} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x128xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}

// -----

func.func @not_a_subgroup_reduction(%a: memref<1x128xf32>, %c: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{is not a reduction of its innermost loop with one combiner that gpu.subgroup_reduce performs (add, mul, min, max, and, or, xor); pipeline WarpReduction cannot split it over threads}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x128xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.subf %acc, %x : f32
    linalg.yield %t : f32
  }
  return
}

// -----

func.func @two_rows_per_workgroup(%a: memref<2x128xf32>, %c: memref<2xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{has a workgroup tile of type 'memref<2xf32>' and loop ranges [2, 128]; pipeline WarpReduction needs one row per workgroup (every parallel loop tiled by 1)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<2x128xf32>) outs(%c : memref<2xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}

// -----

func.func @partial_warp(%a: memref<1x128xf32>, %c: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [48, 1, 1]>} {
  // expected-error @+1 {{is reduced by 48 threads; pipeline WarpReduction needs a multiple of the warp size 32 and at most 1024}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x128xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}

// -----

func.func @zero_vector(%a: memref<1x128xf32>, %c: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{has level-1 tile 0 on its reduction loop; pipeline WarpReduction reads a positive number of elements per thread and step}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x128xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 0]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}

// -----

func.func @on_tensors(%a: tensor<1x128xf32>, %c: tensor<1xf32>) -> tensor<1xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{must be bufferized before gpucg-distribute-reduction (run gpucg-bufferize)}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1x128xf32>) outs(%c : tensor<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @row_not_a_multiple_of_the_vector(%a: memref<1x130xf32>, %c: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{has rows of 130 elements, not a multiple of its 4 per thread and step (level-1 tile of the reduction loop)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x130xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 130], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A transpose of the row in the tile: neither a reduction of the row nor
// elementwise along it.
func.func @op_outside_the_row_program(%a: memref<1x128xf32>, %c: memref<1xf32>, %t: memref<128x1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  // expected-note @+1 {{root here}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x128xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  // expected-error @+1 {{is in the workgroup tile of WarpReduction root 'linalg.generic' but is neither a reduction of its innermost loop like the root's (loop ranges [1, 128]), nor elementwise over that row, nor over one element per row; it cannot be split over the row's threads}}
  linalg.transpose ins(%a : memref<1x128xf32>) outs(%t : memref<128x1xf32>) permutation = [1, 0]
  return
}

// -----

func.func @store_to_a_kernel_buffer(%a: memref<1x128xf32>, %c: memref<1xf32>, %f: f32) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{writes a buffer of the kernel's in the workgroup tile of a WarpReduction kernel, which distributes only linalg ops over its row}}
  memref.store %f, %c[%c0] : memref<1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x128xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row temporary read by an op on one element (its first): each thread
// computed only its own elements of it, into its own copy.
func.func @row_temporary_read_across_threads(%a: memref<1x128xf32>, %c: memref<1xf32>, %first: memref<1x1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x128xf32>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  %neg = memref.alloc() : memref<1x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<1x128xf32>) outs(%neg : memref<1x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  %n0 = memref.subview %neg[0, 0] [1, 1] [1, 1] : memref<1x128xf32> to memref<1x1xf32, strided<[128, 1]>>
  // expected-error @+1 {{reads operand #0, a temporary of the WarpReduction tile whose elements the row's threads computed each into its own copy, other than one thread step at a time along the row; it cannot be split over the row's threads}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%n0 : memref<1x1xf32, strided<[128, 1]>>) outs(%first : memref<1x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %x : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// The old value of an atomic update in the tile: only thread 0 runs it, so
// no other thread could read it.
func.func @atomic_old_value_read(%a: memref<1x128xf32>, %c: memref<1xf32>, %d: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  %c0 = arith.constant 0 : index
  %t = memref.alloca() : memref<1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<1x128xf32>) outs(%t : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  %v = memref.load %t[%c0] : memref<1xf32>
  // expected-error @+1 {{'memref.atomic_rmw' op in the workgroup tile of a WarpReduction kernel has its old value read; only thread 0 runs the update}}
  %old = memref.atomic_rmw addf %v, %c[%c0] : (f32, memref<1xf32>) -> f32
  memref.store %old, %d[%c0] : memref<1xf32>
  return
}
