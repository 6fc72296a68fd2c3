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

/// The chip `module`'s kernels were planned for: that of every gpucg.target
/// on the module or inside it, which must name one chip.
static FailureOr<StringRef> getPlannedChip(ModuleOp module) {
  auto helper = module.getContext()
                    ->getLoadedDialect<gpucg::GpucgDialect>()
                    ->getTargetAttrHelper();
  gpucg::TargetAttr first;
  Operation *firstOwner = nullptr;
  WalkResult walk = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    gpucg::TargetAttr target = helper.getAttr(op);
    if (!target)
      return WalkResult::advance();
    if (!first) {
      first = target;
      firstOwner = op;
      return WalkResult::advance();
    }
    if (target.getChip() == first.getChip())
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitOpError()
                              << "was planned for " << target.getChip()
                              << " but the module holds kernels planned for "
                              << first.getChip()
                              << "; one binary is built for one chip";
    diag.attachNote(firstOwner->getLoc())
        << "the gpucg.target for " << first.getChip();
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!first)
    return module.emitOpError()
           << "has no gpucg.target to build its GPU binaries for: give the "
              "pipeline a chip (chip=sm_XY) or run "
              "gpucg-set-target{chip=sm_XY} first";
  return first.getChip();
}

namespace {
struct AttachNVVMTargetPass
    : public gpucg::impl::AttachNVVMTargetBase<AttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Without a gpu.module there is no binary to build, and no chip needed.
    if (module.getOps<gpu::GPUModuleOp>().empty())
      return;
    FailureOr<StringRef> chip = getPlannedChip(module);
    if (failed(chip))
      return signalPassFailure();
    auto target = NVVM::NVVMTargetAttr::getChecked(
        [&] { return module.emitOpError(); }, &getContext(),
        static_cast<int>(optLevel.getValue()), StringRef("nvptx64-nvidia-cuda"),
        *chip, StringRef(features.getValue()), DictionaryAttr(), ArrayAttr(),
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
