//===- SetTarget.cpp - A chip name as the module's #gpucg.target ----------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place where a chip name given to a pipeline becomes IR: every
// pass after the pipeline's entry reads the module's #gpucg.target.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_SETTARGET
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

LogicalResult mlir::gpucg::setTargetChip(ModuleOp module, StringRef chip) {
  auto *dialect = module.getContext()->getLoadedDialect<GpucgDialect>();
  auto helper = dialect->getTargetAttrHelper();
  TargetAttr target = TargetAttr::getForChip(module.getContext(), chip);
  if (!target) {
    return module.emitOpError()
           << "was given an unknown chip '" << chip
           << "' (known: " << llvm::join(TargetAttr::getKnownChips(), ", ")
           << "); describe other chips with a gpucg.target attribute";
  }
  if (TargetAttr existing = helper.getAttr(module)) {
    if (existing.getChip() == chip)
      return success(); // The module's own description of that chip wins.
    return module.emitOpError()
           << "has a gpucg.target for " << existing.getChip()
           << " but chip=" << chip
           << " was requested; its kernels were written for one GPU: drop "
              "the attribute or the option";
  }
  helper.setAttr(module, target);
  return success();
}

namespace {
struct SetTargetPass : public gpucg::impl::SetTargetBase<SetTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    if (!chip.empty() && failed(setTargetChip(getOperation(), chip)))
      signalPassFailure();
  }
};
} // namespace
