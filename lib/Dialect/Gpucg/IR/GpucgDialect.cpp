//===- GpucgDialect.cpp - gpucg dialect -----------------------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::gpucg;

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.cpp.inc"

namespace {
/// Prints the (long) target description once, at the top of the module, as
/// `#gpucg_target = #gpucg.target<...>`.
struct GpucgOpAsmDialectInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<TargetAttr>(attr)) {
      os << "gpucg_target";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void GpucgDialect::initialize() {
  registerAttributes();
  addInterfaces<GpucgOpAsmDialectInterface>();
}

/// Checks that the discardable attribute `name` on `op` is an `AttrT`.
template <typename AttrT>
static LogicalResult verifyAttrKind(Operation *op, NamedAttribute attr,
                                    StringRef expected) {
  if (isa<AttrT>(attr.getValue()))
    return success();
  return op->emitOpError() << "attribute '" << attr.getName().getValue()
                           << "' must be a " << expected << ", got "
                           << attr.getValue();
}

/// Checks `gpucg.num_buffers = N`: a positive integer on an op whose single
/// result is a memref with a leading dimension of N.
static LogicalResult verifyNumBuffers(Operation *op, NamedAttribute attr) {
  auto count = dyn_cast<IntegerAttr>(attr.getValue());
  if (!count || !count.getType().isSignlessInteger())
    return op->emitOpError() << "attribute '" << attr.getName().getValue()
                             << "' must be an integer, got " << attr.getValue();
  auto type = op->getNumResults() == 1
                  ? dyn_cast<MemRefType>(op->getResult(0).getType())
                  : MemRefType();
  std::optional<int64_t> value = count.getValue().trySExtValue();
  if (!type || type.getRank() == 0 || !value || *value < 1 ||
      type.getDimSize(0) != *value)
    return op->emitOpError()
           << "attribute '" << attr.getName().getValue() << "' ("
           << count << ") must be positive and equal the leading "
           << "dimension of the op's one memref result";
  return success();
}

/// Verifies a unit attribute that marks the scf.if a workgroup
/// specialization made: `branches` names its two regions.
static LogicalResult verifySpecializationBranches(Operation *op,
                                                  NamedAttribute attr,
                                                  StringRef branches) {
  if (failed(verifyAttrKind<UnitAttr>(op, attr, "unit attribute")))
    return failure();
  if (op->getNumRegions() != 2)
    return op->emitOpError()
           << "attribute '" << attr.getName().getValue()
           << "' may only be placed on an "
           << "op with " << branches << " region (an scf.if), but the op has "
           << op->getNumRegions() << " regions";
  return success();
}

LogicalResult GpucgDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getTargetAttrHelper().getName())
    return verifyAttrKind<TargetAttr>(op, attr, "#gpucg.target");
  if (name == getTranslationInfoAttrHelper().getName()) {
    if (failed(verifyAttrKind<TranslationInfoAttr>(
            op, attr, "#gpucg.translation_info")))
      return failure();
    if (!isa<FunctionOpInterface>(op))
      return op->emitOpError()
             << "attribute '" << name
             << "' may only be placed on a function (the kernel it describes)";
    return success();
  }
  if (name == getLoweringConfigAttrHelper().getName())
    return verifyAttrKind<LoweringConfigAttr>(op, attr,
                                              "#gpucg.lowering_config");
  if (name == getCompilationInfoAttrHelper().getName())
    return verifyAttrKind<CompilationInfoAttr>(op, attr,
                                               "#gpucg.compilation_info");
  if (name == getNumBuffersAttrHelper().getName())
    return verifyNumBuffers(op, attr);
  if (name == getWorkgroupSpecializationAttrHelper().getName())
    return verifySpecializationBranches(op, attr,
                                        "a full-tile and a partial-tile");
  if (name == getRowPitchSpecializationAttrHelper().getName())
    return verifySpecializationBranches(
        op, attr, "an aligned-pitch and an unaligned-pitch");
  if (name == getAlignmentAttrHelper().getName()) {
    auto alignment = dyn_cast<IntegerAttr>(attr.getValue());
    std::optional<int64_t> value =
        alignment && alignment.getType().isSignlessInteger()
            ? alignment.getValue().trySExtValue()
            : std::nullopt;
    if (!value || *value < 1 || !llvm::isPowerOf2_64(*value))
      return op->emitOpError()
             << "attribute '" << name
             << "' must be a power-of-two integer, got " << attr.getValue();
    return success();
  }
  if (name == getClusterShapeAttrHelper().getName()) {
    auto shape = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!shape || shape.size() != 3 ||
        llvm::any_of(shape.asArrayRef(), [](int64_t size) { return size < 1; }))
      return op->emitOpError()
             << "attribute '" << name
             << "' must be three positive cluster sizes (x, y, z), got "
             << attr.getValue();
    return success();
  }
  return op->emitOpError() << "unknown gpucg attribute '" << name
                           << "'; expected one of 'gpucg.target', "
                              "'gpucg.translation_info', "
                              "'gpucg.lowering_config', "
                              "'gpucg.compilation_info', "
                              "'gpucg.num_buffers', "
                              "'gpucg.workgroup_specialization', "
                              "'gpucg.row_pitch_specialization', "
                              "'gpucg.alignment', 'gpucg.cluster_shape'";
}

TranslationInfoAttr mlir::gpucg::getTranslationInfo(Operation *funcOp) {
  auto *dialect = funcOp->getContext()->getLoadedDialect<GpucgDialect>();
  if (!dialect)
    return {};
  return dialect->getTranslationInfoAttrHelper().getAttr(funcOp);
}

TargetAttr mlir::gpucg::getTarget(Operation *op) {
  auto *dialect = op->getContext()->getLoadedDialect<GpucgDialect>();
  if (!dialect)
    return {};
  for (; op; op = op->getParentOp())
    if (TargetAttr target = dialect->getTargetAttrHelper().getAttr(op))
      return target;
  return {};
}
