// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy))'
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy{mma=wgmma require-tensor-cores=true}))'

// The verifier of pipeline MatmulWgmma on user plans (the same errors with
// the wgmma pipeline's options).

func.func @four_warpgroups(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma runs one warpgroup, or one producer and one or two consumer warpgroups, per workgroup: workgroup_size must be [128, 1, 1], [256, 1, 1] or [384, 1, 1], got [512, 1, 1]}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [512, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @k_tile(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma needs a K tile of 64 'f16' elements (one 128-byte swizzled row), got 32}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 32]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @m_tile(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma needs an M tile of 64 or 128 rows per multiplying warpgroup (m64 wgmma tiles), got 256 for 1 warpgroup(s)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[256, 64, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @n_tile(%a: tensor<256x256xf16>, %b: tensor<256x192xf16>, %c: tensor<256x192xf32>) -> tensor<256x192xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x192xf32>) -> tensor<256x192xf32>
  // expected-error @+1 {{pipeline MatmulWgmma needs an N tile that is a multiple of 64 (B's 128-byte TMA boxes) between 64 and 256 (wgmma's widest N), got 96}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 96, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x192xf16>) outs(%f : tensor<256x192xf32>) -> tensor<256x192xf32>
  return %0 : tensor<256x192xf32>
}

// -----

func.func @registers(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{the 128x256 tile of a warpgroup needs 256 f32 accumulator registers per thread; one warpgroup holds at most 128}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 256, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// A partial tile's staging buffer (128 x 264 f32) beside a ring of two
// 48 KB stages, too small to hold it: more than sm_90a's shared memory.
func.func @partial_tile_staging(%a: tensor<256x128xf16>, %b: tensor<128x320xf16>, %c: tensor<256x320xf32>) -> tensor<256x320xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x320xf32>) -> tensor<256x320xf32>
  // expected-error @+1 {{needs 235520 bytes of shared memory, more than the 232448 bytes sm_90a allows per workgroup (max_shared_memory_per_block_optin): pipeline_depth 2 x (A 128x64 + B 64x256 tiles), 2048 for the mbarriers and the ring's 1024-byte alignment, and 135168 for the accumulator's staging buffer (the f32 128x256 accumulator, rows padded by 8), which the ring is too small to hold}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 256, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x128xf16>, tensor<128x320xf16>) outs(%f : tensor<256x320xf32>) -> tensor<256x320xf32>
  return %0 : tensor<256x320xf32>
}

// -----

func.func @shared_memory(%a: tensor<256x1024xf16>, %b: tensor<1024x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{needs 264192 bytes of shared memory, more than the 232448 bytes sm_90a allows per workgroup (max_shared_memory_per_block_optin): pipeline_depth 8 x (A 128x64 + B 64x128 tiles), 2048 for the mbarriers and the ring's 1024-byte alignment}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 8>>}
    ins(%a, %b : tensor<256x1024xf16>, tensor<1024x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @levels(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma takes one tiling level (the workgroup tile), got 2}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64], [64, 128, 0]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// f32 (TF32) with B[k, n]: wgmma reads 32-bit operands K-major only, so B
// is restaged by the producer warpgroup, which one warpgroup lacks.
func.func @f32_operands(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma restages 'f32' B[k, n] (wgmma reads it K-major only) through the producer warpgroup of a warp-specialized workgroup: workgroup_size must be [256, 1, 1] or [384, 1, 1], got [128, 1, 1]}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 32]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// f32 (TF32) with A[k, m] and B[k, n], likewise.
func.func @f32_a_km(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma restages 'f32' A[k, m] and B[k, n] (wgmma reads it K-major only) through the producer warpgroup of a warp-specialized workgroup: workgroup_size must be [256, 1, 1] or [384, 1, 1], got [128, 1, 1]}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 32]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// A restaged 8-bit B[k, n] is loaded in boxes of 128 columns: a 64-column
// tile does not take them.
func.func @e4m3_restaged_narrow(%a: tensor<256x256xf8E4M3FN>, %b: tensor<256x256xf8E4M3FN>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma restages 'f8E4M3FN' B[k, n] from TMA boxes of 128-byte rows of N (128 elements), which the 128x64 tile does not divide into}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 64, 128]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @fill_of_two(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %two = arith.constant 2.0 : f32
  %f = linalg.fill ins(%two : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its accumulator starts as a linalg.fill of non-zero, not a linalg.fill of zero or an argument of its function (a warpgroup accumulator starts at zero, and the epilogue adds only an argument's prior contents)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @odd_pitch(%a: tensor<256x204xf16>, %b: tensor<204x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its A rows of K = 204 f16 elements are 408 bytes, not a multiple of 16 (the row pitch TMA reads)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x204xf16>, tensor<204x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// A consumer of the matmul in the kernel.
func.func @consumer(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its consumer 'linalg.generic' cannot be fused into its epilogue: it reads the matmul's result as an output (its payload uses the output's value); read it as an input}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%0 : tensor<256x256xf32>) {
  ^bb0(%x: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  return %1 : tensor<256x256xf32>
}

// -----

// A operand that is not a kernel argument (a slice of one).
func.func @sliced_a(%a: tensor<512x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %a[0, 0] [256, 256] [1, 1] : tensor<512x256xf16> to tensor<256x256xf16>
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its A operand is not an argument of its function; TMA reads A and B through tensor maps the host builds on the kernel's arguments}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%s, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}


// -----

// Two consumer warpgroups of 32 rows each.
func.func @consumer_rows(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma needs an M tile of 64 or 128 rows per multiplying warpgroup (m64 wgmma tiles), got 64 for 2 warpgroup(s)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// Warpgroups along y.
func.func @two_dimensional(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{workgroup_size must be [128, 1, 1], [256, 1, 1] or [384, 1, 1], got [128, 2, 1]}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 2, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// A K-contiguous B with 128 rows per warpgroup.
func.func @k_contiguous_b_rows(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma multiplies a K-contiguous B (B[n, k]) one k16 step at a time, which takes 64 rows per multiplying warpgroup, got 128}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// A batched B[k, n] with a K tail: TMA reads the batches of B as one matrix,
// so the rows past K would be the next batch's.
func.func @batch_b_kn_k_tail(%a: tensor<2x256x104xf16>, %b: tensor<2x104x256xf16>, %c: tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: it has a batched B[k, n] with K = 104, not a multiple of the K tile (64 elements): TMA reads the batches of B as one matrix of their K rows stacked, so the last K tile's rows past K would be the next batch's, not zeros}}
  %0 = linalg.batch_matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<2x256x104xf16>, tensor<2x104x256xf16>) outs(%f : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  return %0 : tensor<2x256x256xf32>
}

// -----

// A dynamic K may leave such a tail.
func.func @batch_b_kn_dynamic_k(%a: tensor<2x256x?xf16>, %b: tensor<2x?x256xf16>, %c: tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: it has a batched B[k, n] with a dynamic K, which may not be a multiple of the K tile (64 elements): TMA reads the batches of B as one matrix of their K rows stacked, so the last K tile's rows past K would be the next batch's, not zeros}}
  %0 = linalg.batch_matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<2x256x?xf16>, tensor<2x?x256xf16>) outs(%f : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  return %0 : tensor<2x256x256xf32>
}

// -----

func.func @batch_tile(%a: tensor<2x256x256xf16>, %b: tensor<2x256x256xf16>, %c: tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma tiles each batch loop by 1 (one matrix per workgroup), got a tile of 2 for batch loop d0}}
  %0 = linalg.batch_matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[2, 128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<2x256x256xf16>, tensor<2x256x256xf16>) outs(%f : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  return %0 : tensor<2x256x256xf32>
}

// -----

// The batch dimension between A's rows and K (A[m, b, k], as a [tokens,
// heads, head_dim] tensor is): not one matrix per batch.
func.func @batch_inside_matrix(%a: tensor<256x2x64xf16>, %b: tensor<2x256x64xf16>, %c: tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<2x256x256xf32>) -> tensor<2x256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its operands are not A[m, k] or A[k, m], B[k, n] or B[n, k], and C[m, n], after the same batch dimensions if any (a transposed C, or a batch dimension inside a matrix, is not supported)}}
  %0 = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, b, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x2x64xf16>, tensor<2x256x64xf16>) outs(%f : tensor<2x256x256xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x256x256xf32>
  return %0 : tensor<2x256x256xf32>
}

// -----

// A[k, m] is multiplied one k16 step at a time: 64 rows per warpgroup.
func.func @transposed_a(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma multiplies an M-contiguous A (A[k, m]) one k16 step at a time, which takes 64 rows per multiplying warpgroup, got 128}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// Not a contraction.
func.func @elementwise(%a: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: it is not a contraction with one M, one N and one K loop}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"],
      gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a : tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

// The matmul's result feeds two ops: workgroup tiling would fuse neither.
func.func @two_uses(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>, %d: tensor<256x256xf32>) -> (tensor<256x256xf32>, tensor<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its result has 2 uses; MatmulWgmma fuses a chain of elementwise consumers, each the only user of the result before it}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<256x256xf32>) outs(%d : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  return %0, %1 : tensor<256x256xf32>, tensor<256x256xf32>
}

// -----

// A row sum of the result is a reduction, not an elementwise epilogue.
func.func @reduction_consumer(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>, %d: tensor<256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its consumer 'linalg.generic' cannot be fused into its epilogue: it has 2 loops, 1 of them reductions; a fused epilogue is elementwise over the result's 2 dimensions}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<256x256xf32>) outs(%d : tensor<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  return %1 : tensor<256xf32>
}

// -----

// A transpose of the result: each thread would need another's elements.
func.func @transposed_read(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>, %d: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its consumer 'linalg.generic' cannot be fused into its epilogue: it reads the matmul's result through (d0, d1) -> (d1, d0); a fused epilogue reads it element for element (identity map)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<256x256xf32>) outs(%d : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<256x256xf32>
  return %1 : tensor<256x256xf32>
}

// -----

// The consumer's own result feeds a tensor op, which would stay outside the
// kernel's workgroup loop.
func.func @consumer_chain(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>, %d: tensor<256x256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: the result of its consumer is used by 'tensor.extract_slice'; MatmulWgmma fuses only elementwise linalg consumers}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<256x256xf32>) outs(%d : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %e = tensor.extract_slice %1[0, 0] [1, 256] [1, 1] : tensor<256x256xf32> to tensor<256xf32>
  return %e : tensor<256xf32>
}

// -----

// The matmul's result leaves through a tensor op.
func.func @tensor_consumer(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its result is used by 'tensor.extract_slice'; MatmulWgmma fuses only elementwise linalg consumers}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e = tensor.extract_slice %0[0, 0] [1, 256] [1, 1] : tensor<256x256xf32> to tensor<256xf32>
  return %e : tensor<256xf32>
}

// -----

// 128x256 with a fused epilogue: the staging buffer leaves room for one
// stage, not the two asked for.
func.func @staging_budget(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %bias: tensor<256xf32>, %d: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{needs 235520 bytes of shared memory, more than the 232448 bytes sm_90a allows per workgroup (max_shared_memory_per_block_optin): pipeline_depth 2 x (A 128x64 + B 64x256 tiles), 2048 for the mbarriers and the ring's 1024-byte alignment, and 135168 for the accumulator's staging buffer (the f32 128x256 accumulator, rows padded by 8)}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 256, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%d : tensor<256x256xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<256x256xf16>
  return %1 : tensor<256x256xf16>
}

// -----

// A consumer with two results: workgroup tiling fuses consumers of one.
func.func @two_results(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %d: tensor<256x256xf32>, %g: tensor<256x256xf16>) -> (tensor<256x256xf32>, tensor<256x256xf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its consumer 'linalg.generic' has 2 results; workgroup tiling fuses consumers of one result}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<256x256xf32>) outs(%d, %g : tensor<256x256xf32>, tensor<256x256xf16>) {
  ^bb0(%x: f32, %o: f32, %p: f16):
    %r = arith.maximumf %x, %zero : f32
    %t = arith.truncf %x : f32 to f16
    linalg.yield %r, %t : f32, f16
  } -> (tensor<256x256xf32>, tensor<256x256xf16>)
  return %1#0, %1#1 : tensor<256x256xf32>, tensor<256x256xf16>
}

// -----

// A consumer whose payload holds an op that is not scalar elementwise (an
// scf.if) is not elementwise in linalg's sense (linalg::isElementwise), so
// workgroup tiling would leave it outside the workgroup loop: the strategy
// refuses it rather than plan an epilogue that tiling never fuses.
func.func @region_payload_consumer(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %d: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: its consumer 'linalg.generic' is not fused by workgroup tiling, which takes elementwise ops on tensors (parallel loops, permutation maps, a payload of scalar elementwise ops) that read the result and write theirs element for element}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<256x256xf32>) outs(%d : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %positive = arith.cmpf ogt, %x, %zero : f32
    %r = scf.if %positive -> f32 {
      scf.yield %x : f32
    } else {
      scf.yield %zero : f32
    }
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  return %1 : tensor<256x256xf32>
}

// -----

// N = 32: most of each 64-row wgmma tile (of C^T, too) would be padding.
func.func @small_n(%a: tensor<256x256xf16>, %b: tensor<32x256xf16>, %c: tensor<256x32xf32>) -> tensor<256x32xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x32xf32>) -> tensor<256x32xf32>
  // expected-error @+1 {{cannot take pipeline MatmulWgmma: M x N = 256 x 32 has fewer than 64 columns, and most of each 64x64 wgmma tile would be padding}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[64, 64, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x256xf16>, tensor<32x256xf16>) outs(%f : tensor<256x32xf32>) -> tensor<256x32xf32>
  return %0 : tensor<256x32xf32>
}

// -----

// A transposed tile (an M tile of fewer than 64 rows) is wgmma's N: whole
// steps of 8 rows.
func.func @transposed_tile_of_12(%a: tensor<128x256xf16>, %b: tensor<256x256xf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma computes an M tile of fewer than 64 rows as C^T = B^T * A^T, with the M tile as wgmma's N: it must be a multiple of 8, got 12}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[12, 64, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<128x256xf16>, tensor<256x256xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}

// -----

// A transposed tile takes B as wgmma's A: B[n, k], not B[k, n]; and A as
// its B: A[m, k], not A[k, m].
func.func @transposed_tile_b_kn(%a: tensor<128x256xf16>, %b: tensor<256x256xf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma computes an M tile of fewer than 64 rows as C^T = B^T * A^T, which takes A[m, k] and B[n, k] (K-contiguous), got an M tile of 16 and B[k, n]}}
  %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 64, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<128x256xf16>, tensor<256x256xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}

// -----

func.func @transposed_tile_a_km(%a: tensor<256x128xf16>, %b: tensor<256x256xf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma computes an M tile of fewer than 64 rows as C^T = B^T * A^T, which takes A[m, k] and B[n, k] (K-contiguous), got an M tile of 16 and A[k, m]}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 64, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [256, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x128xf16>, tensor<256x256xf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %0 : tensor<128x256xf32>
}

// -----

// ... and an M tile of whole 64-column boxes of A[k, m], wgmma's N-major B.
func.func @a_km_b_nk_tile_96(%a: tensor<256x192xf16>, %b: tensor<256x256xf16>, %c: tensor<192x256xf32>) -> tensor<192x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<192x256xf32>) -> tensor<192x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma needs an M tile that is a multiple of 64 (A[k, m]'s 128-byte TMA boxes, wgmma's N in C^T = B^T * A^T) between 64 and 256 (wgmma's widest N), got 96}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[96, 128, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<256x192xf16>, tensor<256x256xf16>) outs(%f : tensor<192x256xf32>) -> tensor<192x256xf32>
  return %0 : tensor<192x256xf32>
}

// -----

// A transposed tile's N tile is its wgmma rows: 96 per consumer is no m64
// tile.
func.func @transposed_tile_rows(%a: tensor<16x256xf16>, %b: tensor<384x256xf16>, %c: tensor<16x384xf32>) -> tensor<16x384xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x384xf32>) -> tensor<16x384xf32>
  // expected-error @+1 {{pipeline MatmulWgmma needs an N tile of 64 or 128 rows per multiplying warpgroup (m64 wgmma tiles of C^T), got 192 for 2 warpgroup(s)}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 192, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [384, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<16x256xf16>, tensor<384x256xf16>) outs(%f : tensor<16x384xf32>) -> tensor<16x384xf32>
  return %0 : tensor<16x384xf32>
}

// -----

// A transposed tile (16 rows of C as wgmma's N) with a dynamic M.
func.func @transposed_tile_dynamic_m(%a: tensor<?x256xf16>, %b: tensor<256x256xf16>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  // expected-error @+1 {{pipeline MatmulWgmma computes an M tile of fewer than 64 rows as C^T = B^T * A^T, which takes a static M, got an M tile of 16 and a dynamic M}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    {gpucg.compilation_info = #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = [[16, 64, 64]]>, translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 2>>}
    ins(%a, %b : tensor<?x256xf16>, tensor<256x256xf16>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}
