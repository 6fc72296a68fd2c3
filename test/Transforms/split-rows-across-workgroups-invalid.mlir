// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(gpucg-split-rows-across-workgroups))'

// One case per error of gpucg-split-rows-across-workgroups, on workgroup
// tiles with hand-written plans whose level-0 tile of the reduction loop
// (256) is less than the row (the strategy verifier refuses most of them
// earlier).

func.func @uneven_parts(%in: memref<4x1000xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (4) {
    %a = memref.subview %in[%i, 0] [1, 1000] [1, 1] : memref<4x1000xf32> to memref<1x1000xf32, strided<[1000, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{has rows of 1000 elements, not a multiple of its level-0 tile 256 of the reduction loop: its rows cannot be split evenly across workgroups}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1000xf32, strided<[1000, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @no_workgroup_loop(%in: memref<1x1024xf32>, %out: memref<1xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
    // expected-error @+1 {{has a level-0 tile 256 less than its rows of 1024 but is not directly in a workgroup loop (an scf.forall over #gpu.block; run gpucg-tile-and-distribute-to-workgroups)}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<1x1024xf32>) outs(%out : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
  return
}

// -----

func.func @not_a_row_reduction(%in: memref<4x1024xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (4) {
    %a = memref.subview %in[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but is not a reduction of its innermost loop by one combiner that gpu.subgroup_reduce performs}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.subf %x, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @another_op_in_tile(%in: memref<4x1024xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (4) {
    %a = memref.subview %in[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but a workgroup that reduces part of a row can run nothing but its root 'linalg.generic'}}
    linalg.fill ins(%zero : f32) outs(%c : memref<1xf32, strided<[1], offset: ?>>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @local_accumulator(%in: memref<4x1024xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (4) {
    %a = memref.subview %in[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %c = memref.alloca() : memref<1xf32>
    // expected-error @+1 {{is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but its accumulator is not a view of a kernel argument (nothing in one kernel can initialize it before the workgroups add to it)}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%c : memref<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @two_rows_per_workgroup(%in: memref<4x1024xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (2) {
    %a = memref.subview %in[%i, 0] [2, 1024] [1, 1] : memref<4x1024xf32> to memref<2x1024xf32, strided<[1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but its accumulator tile 'memref<2xf32, strided<[1], offset: ?>>' is not one element (one row per workgroup)}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<2x1024xf32, strided<[1024, 1], offset: ?>>) outs(%c : memref<2xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @bool_accumulator(%in: memref<4x1024xi1>, %out: memref<4xi1>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (4) {
    %a = memref.subview %in[%i, 0] [1, 1024] [1, 1] : memref<4x1024xi1> to memref<1x1024xi1, strided<[1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xi1> to memref<1xi1, strided<[1], offset: ?>>
    // expected-error @+1 {{is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but its accumulator type 'i1' has no atomic and (gpucg has them for integers and floats of 8, 16 or 32 bits, except floating-point products)}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1024xi1, strided<[1024, 1], offset: ?>>) outs(%c : memref<1xi1, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: i1, %acc: i1):
      %t = arith.andi %x, %acc : i1
      linalg.yield %t : i1
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @float_product(%in: memref<4x1024xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (4) {
    %a = memref.subview %in[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but its accumulator type 'f32' has no atomic mul (gpucg has them for integers and floats of 8, 16 or 32 bits, except floating-point products)}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.mulf %x, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @grid_full(%in: memref<4x1024xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{'scf.forall' op is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but its rows take all three grid dimensions}}
  scf.forall (%i, %j, %k) in (4, 1, 1) {
    %a = memref.subview %in[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>, #gpu.block<y>, #gpu.block<z>]}
  return
}

// -----

func.func @strided_row(%in: memref<4x2048xf32>, %w: memref<4x1024xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (4) {
    %a = memref.subview %in[%i, 0] [1, 2048] [1, 1] : memref<4x2048xf32> to memref<1x2048xf32, strided<[2048, 1], offset: ?>>
    %b = memref.subview %w[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{reads input #0 with map affine_map<(d0, d1) -> (d0, d1 * 2)>, which does not index the row by the row loop alone in one dimension; its rows cannot be split across workgroups}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 * 2)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a, %b : memref<1x2048xf32, strided<[2048, 1], offset: ?>>, memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %p, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @shared_outputs(%in: memref<4x1024xf32>, %out: memref<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  // expected-error @+1 {{'scf.forall' op is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but it has shared outputs (it must be on memrefs)}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> tensor<4xf32> {
    %a = memref.subview %in[%i, 0] [1, 1024] [1, 1] : memref<4x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
    scf.forall.in_parallel {}
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<4xf32>
}

// -----

func.func @on_tensors(%in: tensor<4x1024xf32>, %out: tensor<4xf32>) -> tensor<4xf32> attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  %r = scf.forall (%i) in (4) shared_outs(%o = %out) -> tensor<4xf32> {
    %a = tensor.extract_slice %in[%i, 0] [1, 1024] [1, 1] : tensor<4x1024xf32> to tensor<1x1024xf32>
    %c = tensor.extract_slice %o[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    // expected-error @+1 {{is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but is not bufferized (run gpucg-bufferize first)}}
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : tensor<1x1024xf32>) outs(%c : tensor<1xf32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    } -> tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<4xf32>
}

// -----

func.func @diagonal(%in: memref<4x1024x1024xf32>, %out: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  scf.forall (%i) in (4) {
    %a = memref.subview %in[%i, 0, 0] [1, 1024, 1024] [1, 1, 1] : memref<4x1024x1024xf32> to memref<1x1024x1024xf32, strided<[1048576, 1024, 1], offset: ?>>
    %c = memref.subview %out[%i] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
    // expected-error @+1 {{reads input #0 with map affine_map<(d0, d1) -> (d0, d1, d1)>, which does not index the row by the row loop alone in one dimension; its rows cannot be split across workgroups}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<1x1024x1024xf32, strided<[1048576, 1024, 1], offset: ?>>) outs(%c : memref<1xf32, strided<[1], offset: ?>>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>} {
    ^bb0(%x: f32, %acc: f32):
      %t = arith.addf %x, %acc : f32
      linalg.yield %t : f32
    }
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A kernel of one workgroup (no row loop) is split on a new workgroup loop,
// which must leave the root alone in the kernel.
func.func @one_workgroup_not_alone(%in: memref<1024xf32>, %out: memref<f32>, %other: memref<4xf32>) attributes {gpucg.translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>} {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'linalg.fill' op is in a WarpReduction workgroup tile whose rows are split across 4 workgroups, but a workgroup that reduces part of a row can run nothing but its root 'linalg.generic'}}
  linalg.fill ins(%zero : f32) outs(%other : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%in : memref<1024xf32>) outs(%out : memref<f32>) attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[256], [4]]>} {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  }
  return
}
