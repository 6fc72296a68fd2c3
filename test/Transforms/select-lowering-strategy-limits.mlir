// Targets with unusual limits: the heuristics only pick strategies the
// target can run, and what cannot run is an error that names the limit.

// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' \
// RUN:   | gpucg-opt -split-input-file --mlir-print-local-scope | FileCheck %s

// RUN: not gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{require-tensor-cores=true}))' \
// RUN:   2>&1 | FileCheck %s --check-prefix=REQUIRE

/// A warp of 64 lanes: no warp-level MMA (PTX defines its fragments over 32
/// lanes), so the matmul takes a SIMT strategy with whole 64-lane warps.
// CHECK-LABEL: func.func @warp_size_64
//  CHECK-SAME:   pipeline = SimtDistribute, workgroup_size = [64, 1, 1]
// REQUIRE: error: 'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: warp-level MMA needs a warp of 32 lanes, but sm_80 has warp_size 64
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", warp_size = 64>} {
  func.func @warp_size_64(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x16xf16>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
    return %0 : tensor<16x16xf32>
  }
}

// -----

/// 16 bytes of shared memory hold no tensor-core tile: a SIMT strategy.
// CHECK-LABEL: func.func @tiny_shared_memory
//  CHECK-SAME:   pipeline = SimtDistribute
// REQUIRE: error: 'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: no workgroup tile fits sm_80's limits (1024 threads of warp size 32, 255 registers per thread, 16 bytes of shared memory per workgroup)
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_shared_memory_per_block = 16, max_shared_memory_per_block_optin = 16>} {
  func.func @tiny_shared_memory(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x16xf16>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
    return %0 : tensor<16x16xf32>
  }
}

// -----

/// 64 threads per workgroup: the tiles of 4 and 8 warps are skipped; the
/// strategy falls back to the one-warp 16x16 tile.
// CHECK-LABEL: func.func @few_threads_tensor_core
//  CHECK-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [32, 1, 1]
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_threads_per_block = 64>} {
  func.func @few_threads_tensor_core(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}

// -----

/// 128 registers per thread cannot hold a 64x64 f32 warp tile (about 248
/// with its fragments): 64x64 workgroup tiles on warps of 32x32 instead.
// CHECK-LABEL: func.func @few_registers
//  CHECK-SAME:   pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1]
//       CHECK:   tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 8, 16]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_registers_per_thread = 128>} {
  func.func @few_registers(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}

// -----

/// No register budget for any warp tile: a SIMT strategy.
// CHECK-LABEL: func.func @no_registers
//  CHECK-SAME:   pipeline = MatmulSimt
// REQUIRE: error: 'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: no workgroup tile fits sm_80's limits (1024 threads of warp size 32, 16 registers per thread, 166912 bytes of shared memory per workgroup)
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_registers_per_thread = 16>} {
  func.func @no_registers(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}

// -----

/// The SM count sizes the grid: on an A30 (sm_80, 56 SMs) 64x64 tiles give
/// a 512x512 matmul enough workgroups (64); an A100 (108) gets 32x32.
// CHECK-LABEL: func.func @fewer_sms
//       CHECK:   tile_sizes = {{\[}}[64, 64, 32], [32, 32, 0], [16, 8, 16]]
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", num_sms = 56>} {
  func.func @fewer_sms(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}

// -----

/// Depth is bounded by the opt-in shared memory, not the 48 KB of static
/// shared memory: a user's 128x256x32 tile with 4 stages (96 KB of A and B,
/// reused by the 128 KB C staging tile) is accepted on sm_80 ...
// CHECK-LABEL: func.func @above_static_shared_memory
//  CHECK-SAME:   pipeline_depth = 4
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @above_static_shared_memory(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
          lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 256, 32]]>,
          translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 2, 1], pipeline_depth = 4>>}
      ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}

// -----

/// ... but not where the opt-in limit is lower.
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_shared_memory_per_block_optin = 98304>} {
  func.func @above_optin_shared_memory(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    // expected-error @+1 {{needs 131072 bytes of shared memory, more than the 98304 bytes sm_80 allows per workgroup}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
          lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 256, 32]]>,
          translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 2, 1], pipeline_depth = 4>>}
      ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}

// -----

/// A SIMT matmul whose tiles want more threads than the target has falls
/// through to the tiles that fit.
// CHECK-LABEL: func.func @few_threads_simt
//  CHECK-SAME:   pipeline = MatmulSimt, workgroup_size = [32, 1, 1]
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_threads_per_block = 32>} {
  func.func @few_threads_simt(%a: tensor<64x64xf64>, %b: tensor<64x128xf64>, %c: tensor<64x128xf64>) -> tensor<64x128xf64> {
    %0 = linalg.matmul ins(%a, %b : tensor<64x64xf64>, tensor<64x128xf64>) outs(%c : tensor<64x128xf64>) -> tensor<64x128xf64>
    return %0 : tensor<64x128xf64>
  }
}

// -----

/// Reductions and elementwise kernels stay within max_threads_per_block.
// CHECK-LABEL: func.func @few_threads_reduction
//  CHECK-SAME:   workgroup_size = [32, 1, 1]
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_threads_per_block = 32>} {
  func.func @few_threads_reduction(%in: tensor<1000x7xf32>, %out: tensor<1000xf32>) -> tensor<1000xf32> {
    %0 = linalg.reduce ins(%in : tensor<1000x7xf32>) outs(%out : tensor<1000xf32>) dimensions = [1]
      (%x: f32, %acc: f32) {
        %s = arith.addf %x, %acc : f32
        linalg.yield %s : f32
      }
    return %0 : tensor<1000xf32>
  }
}

// -----

// CHECK-LABEL: func.func @few_threads_elementwise
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [32, 1, 1]
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_threads_per_block = 32>} {
  func.func @few_threads_elementwise(%a: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<4096xf32> {
    %0 = linalg.add ins(%a, %a : tensor<4096xf32>, tensor<4096xf32>) outs(%b : tensor<4096xf32>) -> tensor<4096xf32>
    return %0 : tensor<4096xf32>
  }
}

// -----

/// Empty dimensions: no tensor-core tile for K = 0, no crash for M = 0.
// CHECK-LABEL: func.func @zero_k
//  CHECK-NOT:    TensorCore
// REQUIRE: error: 'linalg.matmul' op cannot run on tensor cores, which this pipeline requires: K = 0: there is nothing to multiply
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @zero_k(%a: tensor<64x0xf16>, %b: tensor<0x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<64x0xf16>, tensor<0x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

// CHECK-LABEL: func.func @zero_rows_reduction
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @zero_rows_reduction(%in: tensor<8x0xf32>, %out: tensor<8xf32>) -> tensor<8xf32> {
    %0 = linalg.reduce ins(%in : tensor<8x0xf32>) outs(%out : tensor<8xf32>) dimensions = [1]
      (%x: f32, %acc: f32) {
        %s = arith.addf %x, %acc : f32
        linalg.yield %s : f32
      }
    return %0 : tensor<8xf32>
  }
}

// -----

/// A user's tensor-core configuration on a target whose warps are not the
/// 32 lanes PTX's MMA fragments are defined over.
// REQUIRE: error: 'linalg.matmul' op pipeline MatmulTensorCoreMmaSync needs a warp of 32 lanes
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", warp_size = 64, max_threads_per_block = 1024>} {
  func.func @tensor_core_warp_size_64(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{'linalg.matmul' op pipeline MatmulTensorCoreMmaSync needs a warp of 32 lanes (PTX's MMA fragments span 32), but sm_80 has warp_size 64}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
          lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
          translation_info = #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [128, 1, 1]>>}
      ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

/// A row reduction with no rows at all: a whole warp for the (empty)
/// workgroup, not a workgroup of 0 threads (workgroup tiling then says the
/// iteration space is empty).
// CHECK-LABEL: func.func @no_rows
//  CHECK-SAME:   pipeline = Vectorize, workgroup_size = [32, 1, 1]
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @no_rows(%a: tensor<0x4xf64>, %c: tensor<0xf64>) -> tensor<0xf64> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<0x4xf64>) outs(%c : tensor<0xf64>) {
    ^bb0(%x: f64, %acc: f64):
      %t = arith.addf %x, %acc : f64
      linalg.yield %t : f64
    } -> tensor<0xf64>
    return %0 : tensor<0xf64>
  }
}
