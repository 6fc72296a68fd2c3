//===- GpucgDialect.h - gpucg dialect ---------------------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The gpucg dialect: attributes through which gpucg's passes hand decisions to
// each other (lowering_config, translation_info, compilation_info) and the
// description of the GPU they target.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_DIALECT_GPUCG_IR_GPUCGDIALECT_H
#define GPUCG_DIALECT_GPUCG_IR_GPUCGDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "gpucg/Dialect/Gpucg/IR/GpucgAttrs.h.inc"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h.inc"

namespace mlir {
class FunctionOpInterface;

namespace gpucg {

/// Returns the `gpucg.translation_info` of `funcOp`, or null.
TranslationInfoAttr getTranslationInfo(Operation *funcOp);

/// Returns the `gpucg.target` of the closest enclosing op (or `op` itself)
/// that has one, or null.
TargetAttr getTarget(Operation *op);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_DIALECT_GPUCG_IR_GPUCGDIALECT_H
