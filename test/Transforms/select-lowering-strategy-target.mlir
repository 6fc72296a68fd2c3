// Where the target comes from, and the errors when it cannot be found.

// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' \
// RUN:   | FileCheck %s

// An unknown chip in the option is an error before anything runs.
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{chip=sm_42}))' \
// RUN:   2>&1 | FileCheck %s --check-prefix=BADCHIP
// BADCHIP: gpucg-select-lowering-strategy: unknown chip 'sm_42' (known: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a); describe other chips with a gpucg.target attribute

// The chip option overrides the module's target.
// RUN: gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{chip=sm_75}))' \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=OVERRIDE

// The mma option picks the MMA family on a chip that has both.
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{mma=wmma}))' \
// RUN:   | FileCheck %s --check-prefix=WMMA

/// The module's gpucg.target (sm_80) decides: mma.sync. With the chip
/// option the kernel carries the target it was decided for, which the
/// later passes (launch limits, NVVM target) read; without it, nothing is
/// added.
// CHECK-LABEL: func.func @target_from_module
//   CHECK-NOT:   gpucg.target
//  CHECK-SAME:   pipeline = MatmulTensorCoreMmaSync
// OVERRIDE-LABEL: func.func @target_from_module
//  OVERRIDE-SAME:   gpucg.target = #gpucg.target<chip = "sm_75"
//  OVERRIDE-SAME:   pipeline = MatmulTensorCore,
// WMMA-LABEL: func.func @target_from_module
//  WMMA-SAME:   pipeline = MatmulTensorCore,
//  WMMA-SAME:   mma_kind = wmma
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @target_from_module(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

/// A target's limits are the ones verified: this module lowers the
/// per-workgroup thread limit to 64.
module attributes {gpucg.target = #gpucg.target<chip = "sm_80", max_threads_per_block = 64>} {
  func.func @limit_from_module(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{workgroup_size [64, 2, 1] has 128 threads; sm_80 allows at most 64 per workgroup}}
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[32, 32, 16]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1]>>}
      ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

// -----

// expected-error @+1 {{'func.func' op has no GPU target: put a gpucg.target on an enclosing module or give a chip: the chip=<sm_XY> option of gpucg-compile, of the other pipelines and of gpucg-select-lowering-strategy (gpucg.compile(..., chip="sm_XY") in Python)}}
func.func @no_target(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
