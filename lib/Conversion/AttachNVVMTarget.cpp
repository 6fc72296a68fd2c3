//===- AttachNVVMTarget.cpp - #nvvm.target from the module's chip --------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg/Conversion/Passes.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_ATTACHNVVMTARGET
#include "gpucg/Conversion/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

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
  }
};
} // namespace
