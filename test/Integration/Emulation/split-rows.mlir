// Rows split across workgroups (gpucg-split-rows-across-workgroups) under
// gpucg-warp-reduction on the CPU emulator: each part of a row reduced by
// its workgroup's threads, the part's total combined into the accumulator
// (a kernel argument with values of its own) by thread 0 with an atomic
// update. One kernel per atomic form: addf, maxs, the compare-and-swap loop
// of an integer product, xori with the parts on grid z (two row loops take
// x and y), minnumf on f16, addi on i8, and a weighted sum whose inputs are
// read along the row through other maps (a column weight, a transposed
// matrix), and a total of all elements. Bit-exact against the untiled kernels with small-integer inputs,
// workgroups in order and in reverse.

// The untiled kernels, run as they are, are the reference.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' \
// RUN:   | %mlir_runner_main | %strip_address > %t.ref
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80},gpucg-test-emulate-on-cpu{check-races=true})' -o %t.0.mlir
// RUN: %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.forward
// RUN: diff %t.ref %t.0.forward
// RUN: env GPUCG_EMU_ORDER=reverse %mlir_runner_emulated %t.0.mlir | %strip_address > %t.0.reverse
// RUN: diff %t.ref %t.0.reverse

// What ran: the grids and the atomic updates.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-warp-reduction{chip=sm_80})' \
// RUN:   | gpucg-opt | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @rowsum_f32
//  IR-SAME:   gpu.known_grid_size = array<i32: 3, 4, 1>
//       IR:   memref.atomic_rmw addf
// IR-LABEL: func.func @rowmax_i32
//  IR-SAME:   gpu.known_grid_size = array<i32: 2, 4, 1>
//       IR:   memref.atomic_rmw maxs
// IR-LABEL: func.func @rowprod_i32
//       IR:   memref.generic_atomic_rmw
//       IR:     arith.muli
// IR-LABEL: func.func @rowxor_batch_i32
//  IR-SAME:   gpu.known_grid_size = array<i32: 3, 2, 4>
//       IR:   memref.atomic_rmw xori
//       IR:   {mapping = [#gpu.block<y>, #gpu.block<x>, #gpu.block<z>]}
// IR-LABEL: func.func @rowmin_f16
//       IR:   memref.atomic_rmw minnumf
// IR-LABEL: func.func @rowsum_i8
//       IR:   memref.atomic_rmw addi
// IR-LABEL: func.func @wsum
//       IR:   memref.atomic_rmw addi
// IR-LABEL: func.func @total_i32
//  IR-SAME:   gpu.known_grid_size = array<i32: 4, 1, 1>
//       IR:   memref.atomic_rmw addi

func.func @rowsum_f32(%in: tensor<3x2048xf32>, %acc: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in : tensor<3x2048xf32>) outs(%acc : tensor<3xf32>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 512], [0, 4]]>,
      translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [64, 1, 1]>>} {
  ^bb0(%x: f32, %a: f32):
    %y = arith.addf %x, %a : f32
    linalg.yield %y : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @rowmax_i32(%in: tensor<2x1024xi32>, %acc: tensor<2xi32>) -> tensor<2xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in : tensor<2x1024xi32>) outs(%acc : tensor<2xi32>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>,
      translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>>} {
  ^bb0(%x: i32, %a: i32):
    %y = arith.maxsi %x, %a : i32
    linalg.yield %y : i32
  } -> tensor<2xi32>
  return %r : tensor<2xi32>
}

func.func @rowprod_i32(%in: tensor<2x512xi32>, %acc: tensor<2xi32>) -> tensor<2xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in : tensor<2x512xi32>) outs(%acc : tensor<2xi32>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 4]]>,
      translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>>} {
  ^bb0(%x: i32, %a: i32):
    %y = arith.muli %x, %a : i32
    linalg.yield %y : i32
  } -> tensor<2xi32>
  return %r : tensor<2xi32>
}

func.func @rowxor_batch_i32(%in: tensor<2x3x1024xi32>, %acc: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%in : tensor<2x3x1024xi32>) outs(%acc : tensor<2x3xi32>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 1, 256], [0, 0, 4]]>,
      translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>>} {
  ^bb0(%x: i32, %a: i32):
    %y = arith.xori %x, %a : i32
    linalg.yield %y : i32
  } -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

func.func @rowmin_f16(%in: tensor<2x1024xf16>, %acc: tensor<2xf16>) -> tensor<2xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in : tensor<2x1024xf16>) outs(%acc : tensor<2xf16>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 8]]>,
      translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>>} {
  ^bb0(%x: f16, %a: f16):
    %y = arith.minnumf %x, %a : f16
    linalg.yield %y : f16
  } -> tensor<2xf16>
  return %r : tensor<2xf16>
}

func.func @rowsum_i8(%in: tensor<3x512xi8>, %acc: tensor<3xi8>) -> tensor<3xi8> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%in : tensor<3x512xi8>) outs(%acc : tensor<3xi8>)
    attrs = {gpucg.compilation_info = #gpucg.compilation_info<
      lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [0, 16]]>,
      translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>>} {
  ^bb0(%x: i8, %a: i8):
    %y = arith.addi %x, %a : i8
    linalg.yield %y : i8
  } -> tensor<3xi8>
  return %r : tensor<3xi8>
}

// Inputs read along the row through other maps: a weight per column
// (d1) and a transposed matrix (d1, d0), each viewed at the part.
func.func @wsum(%a: tensor<3x1024xi32>, %w: tensor<1024xi32>, %at: tensor<1024x3xi32>, %c: tensor<3xi32>) -> tensor<3xi32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"],
      gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 256], [0, 4]]>, translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [32, 1, 1]>>}
    ins(%a, %w, %at : tensor<3x1024xi32>, tensor<1024xi32>, tensor<1024x3xi32>) outs(%c : tensor<3xi32>) {
  ^bb0(%x: i32, %y: i32, %z: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %q = arith.addi %p, %z : i32
    %s = arith.addi %q, %acc : i32
    linalg.yield %s : i32
  } -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
// A total of all elements (no row loop): the parts on a workgroup loop of
// their own.
func.func @total_i32(%a: tensor<4096xi32>, %c: tensor<i32>) -> tensor<i32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"],
      gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[1024], [4]]>, translation_info = #gpucg.translation_info<pipeline = WarpReduction, workgroup_size = [64, 1, 1]>>}
    ins(%a : tensor<4096xi32>) outs(%c : tensor<i32>) {
  ^bb0(%x: i32, %acc: i32):
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  return %0 : tensor<i32>
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %mone = arith.constant -1.0 : f32
  %rowsum_f32_in = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 0) mod 7)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 3 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<3x2048xf32>
  %rowsum_f32_acc = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 3 + 2) mod 7)>(%i0)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 3 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f32
    tensor.yield %e : f32
  } : tensor<3xf32>
  %rowsum_f32_r = func.call @rowsum_f32(%rowsum_f32_in, %rowsum_f32_acc) : (tensor<3x2048xf32>, tensor<3xf32>) -> tensor<3xf32>
  %rowsum_f32_m = bufferization.to_buffer %rowsum_f32_r : tensor<3xf32> to memref<3xf32>
  %rowsum_f32_u = memref.cast %rowsum_f32_m : memref<3xf32> to memref<*xf32>
  func.call @printMemrefF32(%rowsum_f32_u) : (memref<*xf32>) -> ()
  %rowmax_i32_in = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 0) mod 11)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.addi %w, %c0_i32 : i32
    tensor.yield %e : i32
  } : tensor<2x1024xi32>
  %rowmax_i32_acc = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 3 + 2) mod 11)>(%i0)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 5 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.addi %w, %c0_i32 : i32
    tensor.yield %e : i32
  } : tensor<2xi32>
  %rowmax_i32_r = func.call @rowmax_i32(%rowmax_i32_in, %rowmax_i32_acc) : (tensor<2x1024xi32>, tensor<2xi32>) -> tensor<2xi32>
  %rowmax_i32_m = bufferization.to_buffer %rowmax_i32_r : tensor<2xi32> to memref<2xi32>
  %rowmax_i32_u = memref.cast %rowmax_i32_m : memref<2xi32> to memref<*xi32>
  func.call @printMemrefI32(%rowmax_i32_u) : (memref<*xi32>) -> ()
  %rowprod_i32_in = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 0) mod 3)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 0 : i32
    %w = arith.subi %v, %b : i32
    %e0 = arith.addi %w, %w : i32
    %e = arith.subi %e0, %c1_i32 : i32
    tensor.yield %e : i32
  } : tensor<2x512xi32>
  %rowprod_i32_acc = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 3 + 2) mod 3)>(%i0)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 0 : i32
    %w = arith.subi %v, %b : i32
    %e0 = arith.addi %w, %w : i32
    %e = arith.subi %e0, %c1_i32 : i32
    tensor.yield %e : i32
  } : tensor<2xi32>
  %rowprod_i32_r = func.call @rowprod_i32(%rowprod_i32_in, %rowprod_i32_acc) : (tensor<2x512xi32>, tensor<2xi32>) -> tensor<2xi32>
  %rowprod_i32_m = bufferization.to_buffer %rowprod_i32_r : tensor<2xi32> to memref<2xi32>
  %rowprod_i32_u = memref.cast %rowprod_i32_m : memref<2xi32> to memref<*xi32>
  func.call @printMemrefI32(%rowprod_i32_u) : (memref<*xi32>) -> ()
  %rowxor_batch_i32_in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %s = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 7 + 0) mod 13)>(%i0, %i1, %i2)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 0 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.addi %w, %c0_i32 : i32
    tensor.yield %e : i32
  } : tensor<2x3x1024xi32>
  %rowxor_batch_i32_acc = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 2) mod 13)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 0 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.addi %w, %c0_i32 : i32
    tensor.yield %e : i32
  } : tensor<2x3xi32>
  %rowxor_batch_i32_r = func.call @rowxor_batch_i32(%rowxor_batch_i32_in, %rowxor_batch_i32_acc) : (tensor<2x3x1024xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %rowxor_batch_i32_m = bufferization.to_buffer %rowxor_batch_i32_r : tensor<2x3xi32> to memref<2x3xi32>
  %rowxor_batch_i32_u = memref.cast %rowxor_batch_i32_m : memref<2x3xi32> to memref<*xi32>
  func.call @printMemrefI32(%rowxor_batch_i32_u) : (memref<*xi32>) -> ()
  %rowmin_f16_in = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 0) mod 9)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 4 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<2x1024xf16>
  %rowmin_f16_acc = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 3 + 2) mod 9)>(%i0)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 4 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.sitofp %w : i32 to f16
    tensor.yield %e : f16
  } : tensor<2xf16>
  %rowmin_f16_r = func.call @rowmin_f16(%rowmin_f16_in, %rowmin_f16_acc) : (tensor<2x1024xf16>, tensor<2xf16>) -> tensor<2xf16>
  %rowmin_f16_m = bufferization.to_buffer %rowmin_f16_r : tensor<2xf16> to memref<2xf16>
  %rowmin_f16_pad = arith.constant 0.0 : f16
  %rowmin_f16_v = vector.transfer_read %rowmin_f16_m[%c0], %rowmin_f16_pad : memref<2xf16>, vector<2xf16>
  vector.print %rowmin_f16_v : vector<2xf16>
  %rowsum_i8_in = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 0) mod 5)>(%i0, %i1)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 2 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<3x512xi8>
  %rowsum_i8_acc = tensor.generate {
  ^bb0(%i0: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 3 + 2) mod 5)>(%i0)
    %v = arith.index_cast %s : index to i32
    %b = arith.constant 2 : i32
    %w = arith.subi %v, %b : i32
    %e = arith.trunci %w : i32 to i8
    tensor.yield %e : i8
  } : tensor<3xi8>
  %rowsum_i8_r = func.call @rowsum_i8(%rowsum_i8_in, %rowsum_i8_acc) : (tensor<3x512xi8>, tensor<3xi8>) -> tensor<3xi8>
  %rowsum_i8_m = bufferization.to_buffer %rowsum_i8_r : tensor<3xi8> to memref<3xi8>
  %rowsum_i8_pad = arith.constant 0 : i8
  %rowsum_i8_v = vector.transfer_read %rowsum_i8_m[%c0], %rowsum_i8_pad : memref<3xi8>, vector<3xi8>
  vector.print %rowsum_i8_v : vector<3xi8>
  %w_a = tensor.generate {
  ^bb0(%i: index, %j: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 7)>(%i, %j)
    %v = arith.index_cast %s : index to i32
    tensor.yield %v : i32
  } : tensor<3x1024xi32>
  %w_w = tensor.generate {
  ^bb0(%j: index):
    %s = affine.apply affine_map<(d1) -> ((d1 * 7) mod 5)>(%j)
    %v = arith.index_cast %s : index to i32
    tensor.yield %v : i32
  } : tensor<1024xi32>
  %w_at = tensor.generate {
  ^bb0(%j: index, %i: index):
    %s = affine.apply affine_map<(d0, d1) -> ((d0 * 11 + d1) mod 13)>(%j, %i)
    %v = arith.index_cast %s : index to i32
    tensor.yield %v : i32
  } : tensor<1024x3xi32>
  %w_c = tensor.generate {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    tensor.yield %v : i32
  } : tensor<3xi32>
  %w_r = func.call @wsum(%w_a, %w_w, %w_at, %w_c) : (tensor<3x1024xi32>, tensor<1024xi32>, tensor<1024x3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %w_m = bufferization.to_buffer %w_r : tensor<3xi32> to memref<3xi32>
  %w_u = memref.cast %w_m : memref<3xi32> to memref<*xi32>
  func.call @printMemrefI32(%w_u) : (memref<*xi32>) -> ()
  %t_a = tensor.generate {
  ^bb0(%i: index):
    %s = affine.apply affine_map<(d0) -> ((d0 * 5) mod 9)>(%i)
    %v = arith.index_cast %s : index to i32
    %w = arith.subi %v, %c2_i32 : i32
    tensor.yield %w : i32
  } : tensor<4096xi32>
  %t_c = tensor.from_elements %c1_i32 : tensor<i32>
  %t_r = func.call @total_i32(%t_a, %t_c) : (tensor<4096xi32>, tensor<i32>) -> tensor<i32>
  %t_m = bufferization.to_buffer %t_r : tensor<i32> to memref<i32>
  %t_u = memref.cast %t_m : memref<i32> to memref<*xi32>
  func.call @printMemrefI32(%t_u) : (memref<*xi32>) -> ()
  return
}
