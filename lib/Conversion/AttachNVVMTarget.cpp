//===- AttachNVVMTarget.cpp - #nvvm.target from the module's chip --------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg/Conversion/Passes.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_ATTACHNVVMTARGET
#include "gpucg/Conversion/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

/// Gives each kernel that `module`'s host code launches in clusters the
/// `nvvm.cluster_dim` of those clusters (PTX `.reqnctapercluster`):
/// gpu-kernel-outlining leaves the cluster size on the launch only.
static LogicalResult attachClusterShapes(ModuleOp module) {
  llvm::DenseMap<Operation *, std::pair<gpu::LaunchFuncOp, DenseI32ArrayAttr>>
      shapes;
  WalkResult walk = module.walk([&](gpu::LaunchFuncOp launch) {
    if (!launch.hasClusterSize())
      return WalkResult::advance();
    SmallVector<int32_t> sizes;
    for (Value size : {launch.getClusterSizeX(), launch.getClusterSizeY(),
                       launch.getClusterSizeZ()}) {
      std::optional<int64_t> constant = getConstantIntValue(size);
      if (!constant) {
        launch.emitOpError() << "launches its kernel in clusters of a size "
                                "that is not a constant; the kernel's "
                                "nvvm.cluster_dim must be one";
        return WalkResult::interrupt();
      }
      sizes.push_back(static_cast<int32_t>(*constant));
    }
    Operation *kernel =
        SymbolTable::lookupNearestSymbolFrom(launch, launch.getKernel());
    if (!kernel)
      return WalkResult::advance(); // The launch's verifier reports it.
    auto shape = DenseI32ArrayAttr::get(module.getContext(), sizes);
    auto [it, inserted] = shapes.try_emplace(kernel, launch, shape);
    if (!inserted && it->second.second != shape) {
      InFlightDiagnostic diag =
          launch.emitOpError()
          << "launches " << launch.getKernel() << " in clusters of " << shape
          << " but another launch uses " << it->second.second
          << "; a kernel has one cluster shape";
      diag.attachNote(it->second.first.getLoc()) << "the other launch";
      return WalkResult::interrupt();
    }
    kernel->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(), shape);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

namespace {
struct AttachNVVMTargetPass
    : public gpucg::impl::AttachNVVMTargetBase<AttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    gpucg::TargetAttr planned = gpucg::getTarget(module);
    std::string targetChip = chip;
    if (planned && !chip.empty() && planned.getChip() != chip) {
      module.emitOpError() << "was planned for " << planned.getChip()
                           << " (gpucg.target) but chip=" << chip
                           << " was requested";
      return signalPassFailure();
    }
    if (targetChip.empty())
      targetChip = planned ? planned.getChip().str() : std::string("sm_80");
    auto target = NVVM::NVVMTargetAttr::getChecked(
        [&] { return module.emitOpError(); }, &getContext(), static_cast<int>(optLevel.getValue()),
        StringRef("nvptx64-nvidia-cuda"), StringRef(targetChip),
        StringRef(features.getValue()), DictionaryAttr(), ArrayAttr(),
        /*verifyTarget=*/true);
    if (!target)
      return signalPassFailure();
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      SmallVector<Attribute> targets;
      if (ArrayAttr existing = gpuModule.getTargetsAttr())
        targets.append(existing.begin(), existing.end());
      if (!llvm::is_contained(targets, target))
        targets.push_back(target);
      gpuModule.setTargetsAttr(ArrayAttr::get(&getContext(), targets));
    });
    if (failed(attachClusterShapes(module)))
      return signalPassFailure();
  }
};
} // namespace
