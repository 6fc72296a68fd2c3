// Where the target comes from, and the errors when it cannot be found.

// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' \
// RUN:   | FileCheck %s

// A chip for the whole module (gpucg-set-target) decides on a module
// without a target (the modules described as sm_80 refuse it).
// RUN: not gpucg-opt %s -split-input-file --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_75},func.func(gpucg-select-lowering-strategy))' \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=SET

// The mma option picks the MMA family on a chip that has both.
// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{mma=wmma}))' \
// RUN:   | FileCheck %s --check-prefix=WMMA

/// The module's gpucg.target (sm_80) decides: mma.sync. The strategy adds
/// no target of its own: the later passes read the module's.
// CHECK-LABEL: func.func @target_from_module
//   CHECK-NOT:   gpucg.target
//  CHECK-SAME:   pipeline = MatmulTensorCoreMmaSync
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

// SET-LABEL: func.func @no_target
//  SET-SAME:   pipeline = Vectorize
// expected-error @+1 {{'func.func' op has no GPU target: put a gpucg.target on an enclosing module or give a chip: the chip=<sm_XY> option of gpucg-compile and of the other pipelines (gpucg.compile(..., chip="sm_XY") in Python), or gpucg-set-target{chip=sm_XY} before this pass}}
func.func @no_target(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.add ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
