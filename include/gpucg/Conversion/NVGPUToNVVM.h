//===- NVGPUToNVVM.h - gpucg's nvgpu-to-NVVM patterns -----------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Conversion patterns for nvgpu forms that upstream's nvgpu-to-nvvm
// conversion leaves unconverted. Written as upstream patterns are, as a
// candidate upstream patch.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_CONVERSION_NVGPUTONVVM_H
#define GPUCG_CONVERSION_NVGPUTONVVM_H

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;

namespace gpucg {

/// Adds gpucg's nvgpu-to-NVVM patterns to `patterns`: today the lowering of
/// a bf16 `nvgpu.mma.sync` (m16n8k8 and m16n8k16, f32 accumulators) to a bf16
/// `nvvm.mma.sync`, which upstream rejects. They take precedence over
/// upstream's (higher benefit) for the forms they handle and leave every
/// other op to upstream's `populateNVGPUToNVVMConversionPatterns`, to be
/// added to the same set.
void populateGpucgNVGPUToNVVMConversionPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_CONVERSION_NVGPUTONVVM_H
