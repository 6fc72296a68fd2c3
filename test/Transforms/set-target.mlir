// gpucg-set-target: a chip name becomes the module's #gpucg.target, which
// the strategy then reads; a module that already describes that chip keeps
// its description; no chip leaves the module alone.

// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a})' --mlir-print-local-scope | FileCheck %s --check-prefix=SM90A
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(gpucg-set-target)' --mlir-print-local-scope | FileCheck %s --check-prefix=NONE
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a},func.func(gpucg-select-lowering-strategy))' | FileCheck %s --check-prefix=PLAN
// The output parses and verifies again.
// RUN: gpucg-opt %s --split-input-file --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90a})' | gpucg-opt --split-input-file > /dev/null

// SM90A-LABEL: module attributes {gpucg.target = #gpucg.target<chip = "sm_90a", warp_size = 32, max_threads_per_block = 1024, max_shared_memory_per_block = 49152, max_shared_memory_per_block_optin = 232448, {{.*}}num_sms = 132
// SM90A: func.func @mm
// NONE-LABEL: module {
// NONE: func.func @mm
// PLAN: func.func @mm
// PLAN-SAME: pipeline = MatmulWgmma
module {
  func.func @mm(%a: tensor<1024x512xf16>, %b: tensor<512x1024xf16>,
                %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf16>, tensor<512x1024xf16>)
                       outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
}

// -----

// The module's own description of sm_90a, with a smaller shared-memory
// limit, is kept.
// SM90A: module attributes {gpucg.target = #gpucg.target<chip = "sm_90a", {{.*}}max_shared_memory_per_block_optin = 65536,
// SM90A: func.func @kept
// NONE: module attributes {gpucg.target = #gpucg.target<chip = "sm_90a", {{.*}}max_shared_memory_per_block_optin = 65536,
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a", max_shared_memory_per_block_optin = 65536>} {
  func.func @kept() {
    return
  }
}
