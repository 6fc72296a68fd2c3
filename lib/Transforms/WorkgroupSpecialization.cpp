//===- WorkgroupSpecialization.cpp - Versions of a workgroup's body -------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two passes that copy a workgroup loop's body behind a condition every
// thread of the workgroup agrees on, so that the copy can be compiled for
// what the condition proves:
//
// - gpucg-workgroup-specialization: a workgroup loop whose tile does not
//   divide the problem computes its tile sizes as affine.min(tile,
//   remainder). Everything downstream (vectorization, tensor cores,
//   shared-memory promotion) wants static shapes, which all but the last
//   workgroup along each dimension have. They get a static copy of the
//   body behind `scf.if (every min == its tile)`.
// - gpucg-row-pitch-specialization: a row pitch known only at run time
//   proves no alignment, so the copies of A and B into workgroup memory
//   cannot be cp.async. The body gets a copy behind `scf.if (every such
//   pitch is a multiple of 16 bytes)` that views those operands through a
//   reinterpret_cast whose strides are built as multiples of 16 bytes.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_WORKGROUPSPECIALIZATION
#define GEN_PASS_DEF_ROWPITCHSPECIALIZATION
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Returns the constant tile size `minOp` is bounded by, if it is a tile-size
/// computation of `forallOp`: one constant result, and operands that are
/// induction variables of the loop or defined above it.
static std::optional<int64_t> getTileSizeBound(affine::AffineMinOp minOp,
                                               scf::ForallOp forallOp) {
  std::optional<int64_t> bound;
  for (AffineExpr expr : minOp.getAffineMap().getResults()) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      if (bound)
        return std::nullopt;
      bound = constant.getValue();
    }
  }
  if (!bound || minOp.getAffineMap().getNumResults() < 2)
    return std::nullopt;
  bool usesInductionVar = false;
  for (Value operand : minOp.getOperands()) {
    if (llvm::is_contained(forallOp.getInductionVars(), operand)) {
      usesInductionVar = true;
      continue;
    }
    if (forallOp->isAncestor(operand.getParentRegion()->getParentOp()))
      return std::nullopt;
  }
  if (!usesInductionVar)
    return std::nullopt;
  return bound;
}

/// Moves the ops of `forallOp`'s body after `ifOp` (made at its top), all
/// but the terminator, into the else branch of `ifOp`; returns that block.
static Block *moveRestOfBodyIntoElse(RewriterBase &rewriter,
                                     scf::ForallOp forallOp, scf::IfOp ifOp) {
  Operation *terminator = forallOp.getBody()->getTerminator();
  Block *elseBlock = ifOp.elseBlock();
  for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
           std::next(ifOp->getIterator()), terminator->getIterator())))
    rewriter.moveOpBefore(&op, elseBlock->getTerminator());
  return elseBlock;
}

/// Applies `specialize` to each workgroup loop of `root`.
static void specializeWorkgroupLoops(
    Operation *root,
    LogicalResult (*specialize)(RewriterBase &, scf::ForallOp)) {
  SmallVector<scf::ForallOp> workgroupLoops;
  root->walk([&](scf::ForallOp forallOp) {
    if (isWorkgroupLoop(forallOp))
      workgroupLoops.push_back(forallOp);
  });
  IRRewriter rewriter(root->getContext());
  for (scf::ForallOp forallOp : workgroupLoops)
    (void)specialize(rewriter, forallOp);
}

LogicalResult mlir::gpucg::specializeWorkgroupTile(RewriterBase &rewriter,
                                                   scf::ForallOp forallOp) {
  if (forallOp->getNumResults() != 0)
    return failure();
  Block *body = forallOp.getBody();
  SmallVector<std::pair<affine::AffineMinOp, int64_t>> tileSizes;
  for (auto minOp : body->getOps<affine::AffineMinOp>())
    if (std::optional<int64_t> bound = getTileSizeBound(minOp, forallOp))
      tileSizes.emplace_back(minOp, *bound);
  if (tileSizes.empty())
    return failure();

  // At the top of the body: the mins again, the constants, the condition.
  Location loc = forallOp.getLoc();
  rewriter.setInsertionPointToStart(body);
  Value isFullTile;
  IRMapping staticSizes;
  llvm::SmallDenseMap<int64_t, Value> constants;
  for (auto [minOp, bound] : tileSizes) {
    Value size = affine::AffineMinOp::create(rewriter, minOp.getLoc(),
                                             minOp.getAffineMap(),
                                             minOp.getOperands());
    Value &constant = constants[bound];
    if (!constant)
      constant = arith::ConstantIndexOp::create(rewriter, loc, bound);
    Value isFull = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::eq, size,
                                         constant);
    isFullTile = isFullTile ? arith::AndIOp::create(rewriter, loc, isFullTile,
                                                    isFull)
                                  .getResult()
                            : isFull;
    staticSizes.map(minOp.getResult(), constant);
  }
  auto ifOp = scf::IfOp::create(rewriter, loc, isFullTile,
                                /*withElseRegion=*/true);
  // Later passes (vector-to-GPU) tell the paths apart by this attribute.
  forallOp->getContext()
      ->getOrLoadDialect<GpucgDialect>()
      ->getWorkgroupSpecializationAttrHelper()
      .setAttr(ifOp, rewriter.getUnitAttr());

  // The original body goes to the else branch unchanged.
  Block *elseBlock = moveRestOfBodyIntoElse(rewriter, forallOp, ifOp);

  // The then branch is a copy in which each tile size is its constant.
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  for (Operation &op : elseBlock->without_terminator()) {
    auto minOp = dyn_cast<affine::AffineMinOp>(op);
    if (minOp && staticSizes.contains(minOp.getResult()))
      continue;
    rewriter.clone(op, staticSizes);
  }
  canonicalizeRegion(ifOp.getThenRegion());
  return success();
}

//===----------------------------------------------------------------------===//
// Row pitches checked at run time
//===----------------------------------------------------------------------===//

/// The widest async copy, in bytes: what a row pitch is checked against.
static constexpr int64_t kAlignedPitchBytes = kMaxGlobalAccessBytes;

/// Elements of `type` in kAlignedPitchBytes when a run-time row pitch or
/// offset of it is what keeps its rows from proving that alignment, and
/// the static layout would keep them aligned given aligned run-time values;
/// nullopt otherwise (no run-time pitch, a static stride or offset that
/// misaligns rows anyway, an innermost stride other than 1, an element
/// type that is not whole bytes or fills kAlignedPitchBytes alone).
static std::optional<int64_t> getPitchCheckElements(MemRefType type) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  if (bytes >= kAlignedPitchBytes || kAlignedPitchBytes % bytes != 0)
    return std::nullopt;
  int64_t elements = kAlignedPitchBytes / bytes;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.size() < 2 ||
      strides.back() != 1)
    return std::nullopt;
  ArrayRef<int64_t> outer = ArrayRef(strides).drop_back();
  if (llvm::none_of(outer, ShapedType::isDynamic))
    return std::nullopt;
  for (int64_t stride : outer)
    if (!ShapedType::isDynamic(stride) && stride % elements != 0)
      return std::nullopt;
  if (!ShapedType::isDynamic(offset) && offset % elements != 0)
    return std::nullopt;
  return elements;
}

/// The global memrefs, defined above `forallOp`, that the roots of its body
/// read with a run-time row pitch (getPitchCheckElements), once each, in
/// the order the roots read them.
static SmallVector<Value> getRunTimePitchOperands(scf::ForallOp forallOp) {
  SmallVector<Value> operands;
  forallOp.getBody()->walk([&](linalg::LinalgOp op) {
    if (!op->hasAttr("gpucg.lowering_config") || !op.hasPureBufferSemantics())
      return;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value root = getRootMemref(input->get());
      auto type = dyn_cast<MemRefType>(root.getType());
      if (!type || !isGlobalMemory(type) || !getPitchCheckElements(type) ||
          forallOp->isAncestor(root.getParentRegion()->getParentOp()) ||
          llvm::is_contained(operands, root))
        continue;
      // Pitches that are products of static sizes already known aligned
      // (memref<?x32x?x128xf16>) need no check.
      if (getKnownRowPitchMultiple(root) % *getPitchCheckElements(type) == 0)
        continue;
      operands.push_back(root);
    }
  });
  return operands;
}

/// Whether the top level of `forallOp`'s body holds an scf.if this pass
/// made.
static bool isPitchSpecialized(scf::ForallOp forallOp) {
  auto *dialect = forallOp->getContext()->getOrLoadDialect<GpucgDialect>();
  return llvm::any_of(forallOp.getBody()->getOps<scf::IfOp>(), [&](auto ifOp) {
    return dialect->getRowPitchSpecializationAttrHelper().isAttrPresent(ifOp);
  });
}

LogicalResult mlir::gpucg::specializeRowPitch(RewriterBase &rewriter,
                                              scf::ForallOp forallOp) {
  if (forallOp->getNumResults() != 0 || isPitchSpecialized(forallOp))
    return failure();
  SmallVector<Value> operands = getRunTimePitchOperands(forallOp);
  if (operands.empty())
    return failure();

  // At the top of the body: each operand's run-time strides and offset, and
  // the condition that every one of them is a multiple of its elements in
  // kAlignedPitchBytes (the base pointer is aligned: docs/ABI.md).
  Location loc = forallOp.getLoc();
  Block *body = forallOp.getBody();
  rewriter.setInsertionPointToStart(body);
  Value aligned;
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto getConstant = [&](int64_t value) {
    Value &constant = constants[value];
    if (!constant)
      constant = arith::ConstantIndexOp::create(rewriter, loc, value);
    return constant;
  };
  auto require = [&](Value value, int64_t elements) {
    Value remainder =
        arith::RemUIOp::create(rewriter, loc, value, getConstant(elements));
    Value isMultiple = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, remainder, getConstant(0));
    aligned = aligned
                  ? arith::AndIOp::create(rewriter, loc, aligned, isMultiple)
                        .getResult()
                  : isMultiple;
  };
  SmallVector<memref::ExtractStridedMetadataOp> metadata;
  for (Value operand : operands) {
    auto type = cast<MemRefType>(operand.getType());
    int64_t elements = *getPitchCheckElements(type);
    auto md = memref::ExtractStridedMetadataOp::create(rewriter, loc, operand);
    metadata.push_back(md);
    SmallVector<int64_t> strides;
    int64_t offset;
    (void)type.getStridesAndOffset(strides, offset);
    for (auto [stride, value] : llvm::zip(strides, md.getStrides()))
      if (ShapedType::isDynamic(stride))
        require(value, elements);
    if (ShapedType::isDynamic(offset))
      require(md.getOffset(), elements);
  }
  auto ifOp = scf::IfOp::create(rewriter, loc, aligned,
                                /*withElseRegion=*/true);
  forallOp->getContext()
      ->getOrLoadDialect<GpucgDialect>()
      ->getRowPitchSpecializationAttrHelper()
      .setAttr(ifOp, rewriter.getUnitAttr());

  // The original body goes to the else branch unchanged.
  Block *elseBlock = moveRestOfBodyIntoElse(rewriter, forallOp, ifOp);

  // The then branch views each operand through a reinterpret_cast of its
  // own type whose run-time strides are (stride floordiv E) * E: the same
  // values where the check holds, built so that getKnownRowPitchMultiple
  // sees E.
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  IRMapping alignedViews;
  for (auto [operand, md] : llvm::zip_equal(operands, metadata)) {
    auto type = cast<MemRefType>(operand.getType());
    int64_t elements = *getPitchCheckElements(type);
    AffineExpr pitch = rewriter.getAffineSymbolExpr(0);
    AffineMap multiple =
        AffineMap::get(0, 1, pitch.floorDiv(elements) * elements);
    SmallVector<int64_t> strides;
    int64_t offset;
    (void)type.getStridesAndOffset(strides, offset);
    SmallVector<OpFoldResult> mixedStrides;
    for (auto [stride, value] : llvm::zip(strides, md.getStrides())) {
      if (!ShapedType::isDynamic(stride)) {
        mixedStrides.push_back(rewriter.getIndexAttr(stride));
        continue;
      }
      mixedStrides.push_back(
          affine::AffineApplyOp::create(rewriter, loc, multiple, value)
              .getResult());
    }
    OpFoldResult mixedOffset = ShapedType::isDynamic(offset)
                                   ? OpFoldResult(md.getOffset())
                                   : rewriter.getIndexAttr(offset);
    SmallVector<OpFoldResult> mixedSizes;
    for (auto [size, value] : llvm::zip(type.getShape(), md.getSizes()))
      mixedSizes.push_back(ShapedType::isDynamic(size)
                               ? OpFoldResult(value)
                               : rewriter.getIndexAttr(size));
    Value view = memref::ReinterpretCastOp::create(
        rewriter, loc, type, operand, mixedOffset, mixedSizes, mixedStrides);
    alignedViews.map(operand, view);
  }
  for (Operation &op : elseBlock->without_terminator())
    rewriter.clone(op, alignedViews);
  return success();
}

namespace {
struct RowPitchSpecializationPass
    : public gpucg::impl::RowPitchSpecializationBase<
          RowPitchSpecializationPass> {
  void runOnOperation() override {
    specializeWorkgroupLoops(getOperation(), specializeRowPitch);
  }
};

struct WorkgroupSpecializationPass
    : public gpucg::impl::WorkgroupSpecializationBase<
          WorkgroupSpecializationPass> {
  void runOnOperation() override {
    specializeWorkgroupLoops(getOperation(), specializeWorkgroupTile);
  }
};
} // namespace
