//===- StripAttributes.cpp - Remove gpucg attributes ----------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_STRIPATTRIBUTES
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

namespace {
struct StripAttributesPass
    : public gpucg::impl::StripAttributesBase<StripAttributesPass> {
  void runOnOperation() override {
    StringRef prefix = gpucg::GpucgDialect::getDialectNamespace();
    getOperation()->walk([&](Operation *op) {
      SmallVector<StringAttr> names;
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (attr.getName().getValue().starts_with(prefix) &&
            attr.getName().getValue().drop_front(prefix.size()).starts_with("."))
          names.push_back(attr.getName());
      for (StringAttr name : names)
        op->removeDiscardableAttr(name);
    });
  }
};
} // namespace
