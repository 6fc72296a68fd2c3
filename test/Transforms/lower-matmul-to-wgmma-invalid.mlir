// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-lower-matmul-to-wgmma))'

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// No zero fill before the matmul, and a local buffer as the accumulator:
// the epilogue would have no argument's prior contents to add.
func.func @accumulate_into_local(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %t = memref.alloc() : memref<64x64xf32>
  // expected-error @+1 {{'linalg.matmul' op accumulates into a buffer whose prior contents are not a unit-stride view of a kernel argument's, and that no zero fill starts; a warpgroup accumulator starts at zero, and the MatmulWgmma epilogue adds only a kernel argument's prior contents (C += A * B)}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%t : memref<64x64xf32>)
  memref.copy %t, %c : memref<64x64xf32> to memref<64x64xf32>
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

func.func @fill_of_one(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op is preceded by a linalg.fill of a non-zero value into its accumulator; a warpgroup accumulator starts at zero, and the MatmulWgmma epilogue adds only a kernel argument's prior contents (C += A * B)}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// A is a local buffer, not a kernel argument: no tensor map can be built on
// the host.
func.func @a_not_argument(%b: memref<128x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64x128xf16>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op reads A through something other than a unit-stride view of an identity-layout kernel argument; its TMA tensor map is built on the argument by the host}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// A copy after the matmul in its tile: not a linalg op.
func.func @epilogue(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>, %d: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'memref.copy' op is in a MatmulWgmma workgroup tile after its matmul; the pipeline fuses only elementwise linalg ops there}}
  memref.copy %c, %d : memref<64x64xf32> to memref<64x64xf32>
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// A store before the matmul: every thread would run it.
func.func @prologue(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>, %d: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'linalg.fill' op is in a MatmulWgmma workgroup tile before its matmul; the pipeline has no fused prologue}}
  linalg.fill ins(%zero : f32) outs(%d : memref<64x64xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// A column sum of the accumulator: a reduction.
func.func @reduction_epilogue(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %d: memref<64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.generic' op cannot be fused into the MatmulWgmma epilogue: it has 2 loops, 1 of them reductions; a fused epilogue is elementwise over the result's 2 dimensions}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%c : memref<64x64xf32>) outs(%d : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// An elementwise op over half the tile.
func.func @partial_epilogue(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %d: memref<32x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  %half = memref.subview %c[0, 0] [32, 64] [1, 1] : memref<64x64xf32> to memref<32x64xf32, strided<[64, 1]>>
  // expected-error @+1 {{'linalg.generic' op cannot be fused into the MatmulWgmma epilogue: its loops run over 32x64, not the 64x64 of the matmul's result}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%half : memref<32x64xf32, strided<[64, 1]>>) outs(%d : memref<32x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// An epilogue op writes half of a temporary: a view of it, not the whole.
func.func @temporary_view(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %d: memref<64x64xf16>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  %t = memref.alloc() : memref<64x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  %half = memref.subview %t[0, 0] [64, 64] [1, 1] : memref<64x128xf32> to memref<64x64xf32, strided<[128, 1]>>
  // expected-error @+1 {{'linalg.generic' op writes a view of a temporary buffer in the MatmulWgmma epilogue; the epilogue writes kernel arguments or whole temporaries}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%half : memref<64x64xf32, strided<[128, 1]>>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%half : memref<64x64xf32, strided<[128, 1]>>) outs(%d : memref<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  }
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// A temporary of the epilogue read transposed before it is written: each
// thread keeps only its own pieces of a temporary.
func.func @temporary_transposed(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %d: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  %t = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.generic' op uses a temporary of the MatmulWgmma epilogue other than element for element in it; the epilogue keeps its temporaries in each thread's pieces}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %t : memref<64x64xf32>, memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// The second op reads what the first wrote, transposed: another thread's
// elements.
func.func @transposed_chain(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %d: memref<64x64xf32>, %e: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  // expected-error @+1 {{'linalg.generic' op accesses operand 1 other than element for element where an earlier op of the MatmulWgmma epilogue writes it; each thread runs the epilogue on its own pieces of the tile}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %d : memref<64x64xf32>, memref<64x64xf32>) outs(%e : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// The accumulator's temporary, allocated outside the workgroup loop, is
// read after it: the staging buffer replaces it in the tile only.
func.func @accumulator_outside(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %d: memref<64x64xf32>, %e: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  scf.forall (%i, %j) = (0, 0) to (64, 64) step (64, 64) {
    linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
    linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%d : memref<64x64xf32>) {
    ^bb0(%x: f32, %o: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  // expected-error @+1 {{'memref.copy' op uses the MatmulWgmma accumulator's temporary buffer outside the fused epilogue}}
  memref.copy %c, %e : memref<64x64xf32> to memref<64x64xf32>
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 32]]>

// A K tile of 32 f16 is 64 bytes, not the 128-byte swizzled row.
func.func @k_tile(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has a K tile of 32 and an N tile of 64; the TMA boxes need a K tile of one 128-byte row (64 elements) and an N tile of whole rows}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// The views are not the workgroup tile (run workgroup tiling first).
func.func @untiled(%a: memref<128x128xf16>, %b: memref<128x64xf16>, %c: memref<128x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has views 'memref<128x128xf16>', 'memref<128x64xf16>' and 'memref<128x64xf32>' that are not its workgroup tile 64x64 with all of K; run gpucg-tile-and-distribute-to-workgroups first}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<128x128xf16>, memref<128x64xf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

func.func @integer(%a: memref<64x128xi8>, %b: memref<128x64xi8>, %c: memref<64x64xi32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<64x64xi32>)
  // expected-error @+1 {{'linalg.matmul' op computes 'i32' += 'i8' * 'i8'; pipeline MatmulWgmma takes two f16, two bf16, two f32 (multiplied as TF32), two f8E4M3FN or two f8E5M2 operands with an f32 accumulator}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xi8>, memref<128x64xi8>) outs(%c : memref<64x64xi32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 128, 128]]>

// 8-bit floats with B[k, n]: wgmma reads them K-major only, so B is
// restaged by the producer warpgroup, which one warpgroup does not have.
func.func @e4m3_n_contiguous_b(%a: memref<64x128xf8E4M3FN>, %b: memref<128x128xf8E4M3FN>, %c: memref<64x128xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x128xf32>)
  // expected-error @+1 {{'linalg.matmul' op restages wgmma's B ('f8E4M3FN', not K-contiguous in memory: wgmma reads it K-major only) through the producer warpgroup of a warp-specialized workgroup; pipeline MatmulWgmma needs 256 or 384 threads for it, got 128}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf8E4M3FN>, memref<128x128xf8E4M3FN>) outs(%c : memref<64x128xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 128]]>

// A restaged 8-bit B[k, n] is loaded in boxes of 128 columns.
func.func @e4m3_restaged_narrow(%a: memref<64x128xf8E4M3FN>, %b: memref<128x64xf8E4M3FN>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op restages wgmma's B ('f8E4M3FN', not K-contiguous in memory) from TMA boxes of 128 columns (128 bytes); its tile of 64 is not a multiple of that}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf8E4M3FN>, memref<128x64xf8E4M3FN>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>

// expected-error @+1 {{'func.func' op is planned MatmulWgmma but has 0 ops with a gpucg.lowering_config; the pipeline lowers one matmul per kernel}}
func.func @no_root(%c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

func.func @tensors(%a: tensor<64x128xf16>, %b: tensor<128x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {gpucg.translation_info = #info} {
  // expected-error @+1 {{'linalg.matmul' op is not bufferized; gpucg-lower-matmul-to-wgmma runs after gpucg-bufferize}}
  %0 = linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : tensor<64x128xf16>, tensor<128x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Two consumer warpgroups cannot split an M tile of 64 into m64 tiles.
#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

func.func @consumer_rows(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has a workgroup of 384 threads for 64 rows of wgmma tiles (C's rows); pipeline MatmulWgmma runs one warpgroup (128 threads), or one producer and one or two consumer warpgroups of 64 or 128 rows each}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A transposed tile (16 rows of C): its 64 columns are the wgmma rows, too
// few for two consumers.
#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[16, 64, 64]]>

func.func @transposed_consumer_rows(%a: memref<16x128xf16>, %b: memref<64x128xf16>, %c: memref<16x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has a workgroup of 384 threads for 64 rows of wgmma tiles (C's columns); pipeline MatmulWgmma runs one warpgroup (128 threads), or one producer and one or two consumer warpgroups of 64 or 128 rows each}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.lowering_config = #config} ins(%a, %b : memref<16x128xf16>, memref<64x128xf16>) outs(%c : memref<16x64xf32>)
  return
}

// -----

// A transposed tile's M is wgmma's N, which a dynamic M cannot be.
#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[16, 64, 64]]>

func.func @transposed_dynamic_m(%a: memref<?x128xf16>, %b: memref<64x128xf16>, %c: memref<?x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has an M tile of 16 rows, fewer than 64, which pipeline MatmulWgmma computes as C^T = B^T * A^T with M as wgmma's N; that takes a static M, got 'memref<?x128xf16>'}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.lowering_config = #config} ins(%a, %b : memref<?x128xf16>, memref<64x128xf16>) outs(%c : memref<?x64xf32>)
  return
}

// -----

// A transposed tile takes B as wgmma's A, K-major: not B[k, n] (an M-major
// A, which nvgpu multiplies only by an N-major B; A is wgmma's B, K-major).
#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[16, 64, 64]]>

func.func @transposed_b_kn(%a: memref<16x128xf16>, %b: memref<128x64xf16>, %c: memref<16x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has an M tile of 16 rows, fewer than 64, which pipeline MatmulWgmma computes as C^T = B^T * A^T with M as wgmma's N; that takes K-contiguous operands (A[m, k], B[n, k]) and an M tile that is a multiple of 8}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<16x128xf16>, memref<128x64xf16>) outs(%c : memref<16x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[128, 64, 64]]>

func.func @k_contiguous_b_rows(%a: memref<128x128xf16>, %b: memref<64x128xf16>, %c: memref<128x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op multiplies a K-contiguous B (B[n, k]) one k16 step at a time, which takes 64 rows per multiplying warpgroup, got 128}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.lowering_config = #config}
    ins(%a, %b : memref<128x128xf16>, memref<64x128xf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// A transposed C.
func.func @transposed_c(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op is not a matmul over loops (m, n, k); pipeline MatmulWgmma lowers C[m, n] += A * B with A[m, k] or A[k, m], and B[k, n] or B[n, k]}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>]
    {gpucg.lowering_config = #config}
    ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[128, 64, 64]]>

// A[k, m] is multiplied one k16 step at a time, on 64 rows per warpgroup.
func.func @a_km_rows(%a: memref<128x128xf16>, %b: memref<128x64xf16>, %c: memref<128x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op multiplies an M-contiguous A (A[k, m]) one k16 step at a time, which takes 64 rows per multiplying warpgroup, got 128}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.lowering_config = #config}
    ins(%a, %b : memref<128x128xf16>, memref<128x64xf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// K = 100 f16: A's rows are 200 bytes apart, which TMA cannot read (the
// strategy plans mma.sync for it; this plan is written by hand).
func.func @odd_pitch(%a: memref<64x100xf16>, %b: memref<100x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op reads A from 'memref<64x100xf16>', whose rows are 200 bytes apart; TMA reads rows at a pitch of a multiple of 16 bytes}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x100xf16>, memref<100x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64]]>

func.func @level_sizes(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has a lowering_config level 0 of 2 sizes for its 3 loops}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>

// The matmul in a loop of its own, not in the workgroup loop.
func.func @in_a_loop(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %c: memref<64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
    // expected-error @+1 {{'linalg.matmul' op is not directly in its kernel's workgroup loop (an scf.forall over #gpu.block) or function body; run gpucg-tile-and-distribute-to-workgroups}}
    linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<128x64xf16>) outs(%c : memref<64x64xf32>)
  }
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 1>
#config = #gpucg.lowering_config<tile_sizes = [[512, 64, 64]]>

// An A box of 512 rows.
func.func @box_rows(%a: memref<512x64xf16>, %b: memref<64x64xf16>, %c: memref<512x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<512x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has a 512x64 tile; its TMA boxes (a K-contiguous operand's) have at most 256 rows}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<512x64xf16>, memref<64x64xf16>) outs(%c : memref<512x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [640, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[256, 64, 64]]>

// Four consumer warpgroups.
func.func @four_consumers(%a: memref<256x128xf16>, %b: memref<128x64xf16>, %c: memref<256x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x64xf32>)
  // expected-error @+1 {{'linalg.matmul' op has a workgroup of 640 threads for 256 rows of wgmma tiles (C's rows); pipeline MatmulWgmma runs one warpgroup (128 threads), or one producer and one or two consumer warpgroups of 64 or 128 rows each}}
  linalg.matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<256x128xf16>, memref<128x64xf16>) outs(%c : memref<256x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[64, 0, 64]]>

// An N tile of 0 (B with no rows), which would divide by zero.
func.func @zero_tile(%a: memref<64x128xf16>, %b: memref<0x128xf16>, %c: memref<64x0xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x0xf32>)
  // expected-error @+1 {{'linalg.matmul' op has a lowering_config level 0 of [64, 0, 64]; pipeline MatmulWgmma needs positive M, N and K tiles}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.lowering_config = #config} ins(%a, %b : memref<64x128xf16>, memref<0x128xf16>) outs(%c : memref<64x0xf32>)
  return
}


// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[2, 64, 64, 64]]>

// A workgroup tile of two matrices of a batch: the kernel multiplies one.
func.func @batch_of_two(%a: memref<2x64x64xf16>, %b: memref<2x64x64xf16>, %c: memref<2x64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x64x64xf32>)
  // expected-error @+1 {{'linalg.batch_matmul' op has batch loop d0 of 2 iterations in its workgroup tile; pipeline MatmulWgmma multiplies one matrix of a batch per workgroup (a batch tile of 1)}}
  linalg.batch_matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<2x64x64xf16>, memref<2x64x64xf16>) outs(%c : memref<2x64x64xf32>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[1, 64, 64, 64]]>

// A temporary of a batched tile that an op other than the tile's linalg
// ops, copies and deallocations uses.
func.func @batch_temporary_escapes(%a: memref<1x64x64xf16>, %b: memref<1x64x64xf16>, %c: memref<1x64x64xf32>, %d: memref<1x64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<1x64x64xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x64x64xf32>)
  linalg.batch_matmul {gpucg.lowering_config = #config} ins(%a, %b : memref<1x64x64xf16>, memref<1x64x64xf16>) outs(%t : memref<1x64x64xf32>)
  // expected-error @+1 {{'memref.cast' op uses a temporary of a batched MatmulWgmma tile that the batch loops were dropped from; the tile's linalg ops, copies and deallocations may use it}}
  %u = memref.cast %t : memref<1x64x64xf32> to memref<?x64x64xf32>
  memref.copy %u, %d : memref<?x64x64xf32> to memref<1x64x64xf32>
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[1, 64, 64, 64]]>

// A batched B[k, n] with a K tail (K = 96, tiles of 64), as a hand-written
// plan may give it: the strategy refuses the shape, the lowering too.
func.func @batch_b_kn_k_tail(%a: memref<2x64x96xf16>, %b: memref<2x96x64xf16>, %c: memref<2x64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %a1 = memref.subview %a[1, 0, 0] [1, 64, 96] [1, 1, 1] : memref<2x64x96xf16> to memref<1x64x96xf16, strided<[6144, 96, 1], offset: 6144>>
  %b1 = memref.subview %b[1, 0, 0] [1, 96, 64] [1, 1, 1] : memref<2x96x64xf16> to memref<1x96x64xf16, strided<[6144, 64, 1], offset: 6144>>
  %c1 = memref.subview %c[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf32> to memref<1x64x64xf32, strided<[4096, 64, 1], offset: 4096>>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<1x64x64xf32, strided<[4096, 64, 1], offset: 4096>>)
  // expected-error @+1 {{'linalg.generic' op has a batched B[k, n] with K = 96, not a multiple of the K tile (64 elements): TMA reads the batches of B as one matrix of their K rows stacked, so the last K tile's rows past K would be the next batch's, not zeros}}
  linalg.batch_matmul {gpucg.lowering_config = #config} ins(%a1, %b1 : memref<1x64x96xf16, strided<[6144, 96, 1], offset: 6144>>, memref<1x96x64xf16, strided<[6144, 64, 1], offset: 6144>>) outs(%c1 : memref<1x64x64xf32, strided<[4096, 64, 1], offset: 4096>>)
  return
}

// -----

#info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>
#config = #gpucg.lowering_config<tile_sizes = [[1, 64, 64, 64]]>

// A batched A[k, m] with a K tail, likewise.
func.func @batch_a_km_k_tail(%a: memref<2x96x64xf16>, %b: memref<2x96x64xf16>, %c: memref<2x64x64xf32>) attributes {gpucg.translation_info = #info} {
  %zero = arith.constant 0.0 : f32
  %a1 = memref.subview %a[1, 0, 0] [1, 96, 64] [1, 1, 1] : memref<2x96x64xf16> to memref<1x96x64xf16, strided<[6144, 64, 1], offset: 6144>>
  %b1 = memref.subview %b[1, 0, 0] [1, 96, 64] [1, 1, 1] : memref<2x96x64xf16> to memref<1x96x64xf16, strided<[6144, 64, 1], offset: 6144>>
  %c1 = memref.subview %c[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf32> to memref<1x64x64xf32, strided<[4096, 64, 1], offset: 4096>>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<1x64x64xf32, strided<[4096, 64, 1], offset: 4096>>)
  // expected-error @+1 {{'linalg.generic' op has a batched A[k, m] with K = 96, not a multiple of the K tile (64 elements): TMA reads the batches of A as one matrix of their K rows stacked, so the last K tile's rows past K would be the next batch's, not zeros}}
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    {gpucg.lowering_config = #config} ins(%a1, %b1 : memref<1x96x64xf16, strided<[6144, 64, 1], offset: 6144>>, memref<1x96x64xf16, strided<[6144, 64, 1], offset: 6144>>) outs(%c1 : memref<1x64x64xf32, strided<[4096, 64, 1], offset: 4096>>)
  return
}
