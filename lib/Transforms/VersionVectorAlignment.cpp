//===- VersionVectorAlignment.cpp - Wide accesses checked at run time -----===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A vector access of global memory is one wide load or store only where the
// lowering proves its address aligned to the vector's bytes
// (gpucg-convert-to-nvvm's alignment inference); elsewhere LLVM splits it
// into element accesses. Under a row pitch that is a run-time size (a
// dynamic K or N) nothing is proven, so every row of A, B and C moved one
// element at a time, although most sizes users run keep rows 16-byte
// aligned. This rewrite versions each such access: a run-time check of its
// address (and, for a masked transfer, of the mask being whole) picks a
// vector.load / vector.store that claims the alignment, or else the access
// as it was.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

#include <type_traits>

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_VERSIONVECTORALIGNMENT
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Whether the alignment of `width`-element vectors of `memref` rests on
/// run-time sizes alone: it has, up through its views, a row pitch known
/// only at run time, and its static layout (innermost stride 1, static
/// strides and offsets) keeps the vectors aligned whatever that pitch is.
/// A row of 33 f16 misaligns most rows whatever the sizes: such an access
/// stays as it is, unchecked.
static bool isAlignmentDecidedAtRunTime(int64_t width, Value memref) {
  return cast<MemRefType>(memref.getType()).isLastDimUnitStride() &&
         hasDynamicRowPitchThroughViews(memref) &&
         getAlignedVectorWidthThroughViews(width, memref,
                                           /*ignoreDynamicStrides=*/true) ==
             width;
}

namespace {
/// What versioning one access needs to know of it.
struct VersionedAccess {
  Operation *op;
  Value base;
  SmallVector<Value> indices;
  VectorType vectorType;
  /// The vector.create_mask count of a masked transfer; null if unmasked.
  Value maskCount;
  /// The value a transfer_write or vector.store writes (its operand 0);
  /// null for reads.
  Value stored;
  /// A vector.load's or vector.store's own hint, which the aligned access
  /// keeps.
  bool nontemporal = false;
  int64_t alignment;
  /// Whether the run-time pitches are known multiples that keep the access
  /// aligned (getKnownRowPitchMultiple): no address check.
  bool knownAligned = false;
};
} // namespace

/// The count of `mask` if it is a 1-D vector.create_mask; null otherwise.
static Value getCreateMaskCount(Value mask) {
  auto createMask = mask.getDefiningOp<vector::CreateMaskOp>();
  if (!createMask || createMask.getNumOperands() != 1)
    return Value();
  return createMask.getOperand(0);
}

/// Whether a transfer op is the plain 1-D access of consecutive elements a
/// vector.load or vector.store would make where its mask is whole.
template <typename TransferOp> static bool isPlainTransfer(TransferOp op) {
  return op.getVectorType().getRank() == 1 && op.hasPureBufferSemantics() &&
         op.getPermutationMap().isMinorIdentity() && op.isDimInBounds(0);
}

/// The memref a vector.load, vector.store, transfer_read or transfer_write
/// accesses, and whether it writes; null for any other op.
static std::pair<Value, bool> getAccessedMemref(Operation *op) {
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return {load.getBase(), false};
  if (auto read = dyn_cast<vector::TransferReadOp>(op))
    return {read.getBase(), false};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return {store.getBase(), true};
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    return {write.getBase(), true};
  return {Value(), false};
}

/// Whether `op` is the original access an earlier versioning kept for the
/// misaligned case: the first op of the else-branch of an scf.if whose
/// then-branch is the aligned vector.load or vector.store of its memref.
static bool isUnalignedVersion(Operation *op) {
  auto ifOp = dyn_cast_or_null<scf::IfOp>(op->getParentOp());
  if (!ifOp || op->getParentRegion() != &ifOp.getElseRegion() ||
      &ifOp.elseBlock()->front() != op)
    return false;
  std::pair<Value, bool> original = getAccessedMemref(op);
  return llvm::any_of(
      ifOp.thenBlock()->without_terminator(), [&](Operation &aligned) {
        std::optional<uint64_t> alignment;
        if (auto load = dyn_cast<vector::LoadOp>(aligned))
          alignment = load.getAlignment();
        else if (auto store = dyn_cast<vector::StoreOp>(aligned))
          alignment = store.getAlignment();
        return alignment && getAccessedMemref(&aligned) == original;
      });
}

/// Fills in what `op`, a vector.load, vector.store, transfer_read or
/// transfer_write, accesses; returns false where versioning does not apply
/// to it: a load or store that already claims an alignment, a transfer
/// that is not plain or whose mask is not a create_mask.
template <typename OpTy>
static bool matchAccessOp(OpTy op, VersionedAccess &access) {
  if constexpr (std::is_same_v<OpTy, vector::LoadOp> ||
                std::is_same_v<OpTy, vector::StoreOp>) {
    if (op.getAlignment())
      return false;
    access.nontemporal = op.getNontemporal();
  } else {
    if (!isPlainTransfer(op) ||
        (op.getMask() &&
         !(access.maskCount = getCreateMaskCount(op.getMask()))))
      return false;
  }
  if constexpr (std::is_same_v<OpTy, vector::StoreOp>)
    access.stored = op.getValueToStore();
  if constexpr (std::is_same_v<OpTy, vector::TransferWriteOp>)
    access.stored = op.getVector();
  access.base = op.getBase();
  access.indices = llvm::to_vector(op.getIndices());
  access.vectorType = op.getVectorType();
  return true;
}

/// The access `op` describes if versioning applies to it (file comment).
static std::optional<VersionedAccess> matchVersionedAccess(Operation *op) {
  VersionedAccess access;
  access.op = op;
  if (isUnalignedVersion(op))
    return std::nullopt;
  bool matched =
      TypeSwitch<Operation *, bool>(op)
          .Case<vector::LoadOp, vector::StoreOp, vector::TransferReadOp,
                vector::TransferWriteOp>(
              [&](auto accessOp) { return matchAccessOp(accessOp, access); })
          .Default([](Operation *) { return false; });
  if (!matched)
    return std::nullopt;
  if (access.vectorType.getRank() != 1 || access.vectorType.isScalable() ||
      !isGlobalMemory(access.base.getType()))
    return std::nullopt;
  Type element = access.vectorType.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  int64_t elements = access.vectorType.getNumElements();
  int64_t bytes = elements * element.getIntOrFloatBitWidth() / 8;
  if (elements < 2 || !llvm::isPowerOf2_64(bytes))
    return std::nullopt;
  access.alignment = std::min(bytes, kMaxGlobalAccessBytes);
  // The alignment in elements the static layout would have to keep.
  int64_t alignedElements =
      access.alignment / (element.getIntOrFloatBitWidth() / 8);
  if (!isAlignmentDecidedAtRunTime(alignedElements, access.base))
    return std::nullopt;
  access.knownAligned = getAlignedVectorWidthThroughViews(
                            alignedElements, access.base) == alignedElements;
  return access;
}

/// Replaces `access.op` by an scf.if on its run-time alignment (and mask):
/// the aligned access in the then-branch, the original in the else-branch.
static void versionAccess(RewriterBase &rewriter,
                          const VersionedAccess &access) {
  Operation *op = access.op;
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  // The value to store as it is now: a read versioned before this write
  // may have produced it (the match saw the read's old result).
  Value stored = access.stored ? op->getOperand(0) : Value();
  llvm::MaybeAlign alignment(access.alignment);
  Value condition;
  if (!access.knownAligned)
    condition = createIsAddressAligned(rewriter, loc, access.base,
                                       access.indices, access.alignment);
  if (access.maskCount) {
    Value whole = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge, access.maskCount,
        arith::ConstantIndexOp::create(rewriter, loc,
                                       access.vectorType.getNumElements()));
    condition =
        condition
            ? arith::AndIOp::create(rewriter, loc, whole, condition).getResult()
            : whole;
  }
  if (!condition) {
    // Known aligned and whole: the aligned access alone.
    if (stored) {
      vector::StoreOp::create(rewriter, loc, stored, access.base,
                              access.indices, access.nontemporal, alignment);
      rewriter.eraseOp(op);
      return;
    }
    rewriter.replaceOp(op, vector::LoadOp::create(
                               rewriter, loc, access.vectorType, access.base,
                               access.indices, access.nontemporal, alignment));
    return;
  }
  auto cloneOriginal = [&](OpBuilder &b, Location loc) {
    Operation *clone = b.clone(*op);
    scf::YieldOp::create(b, loc, clone->getResults());
  };
  if (stored) {
    scf::IfOp::create(
        rewriter, loc, condition,
        [&](OpBuilder &b, Location loc) {
          vector::StoreOp::create(b, loc, stored, access.base, access.indices,
                                  access.nontemporal, alignment);
          scf::YieldOp::create(b, loc);
        },
        cloneOriginal);
    rewriter.eraseOp(op);
    return;
  }
  // An unmasked read's misaligned case, element by element: kept as the
  // vector read it was, it would be the aligned load's twin but for the
  // alignment, and LLVM merges the two loads of one address into the one
  // of the weaker alignment (SimplifyCFG's hoisting), losing the wide one.
  // (Where LLVM's SLP vectorizer makes one vector load of the elements
  // again, the same can happen: the vector pipelines version whole
  // workgroups on their row pitches first, gpucg-row-pitch-specialization,
  // whose aligned copy has no such branch.)
  auto loadElements = [&](OpBuilder &b, Location loc) {
    SmallVector<Value> indices = access.indices;
    SmallVector<Value> elements;
    for (int64_t i = 0, e = access.vectorType.getNumElements(); i < e; ++i) {
      if (i > 0)
        indices.back() =
            arith::AddIOp::create(b, loc, access.indices.back(),
                                  arith::ConstantIndexOp::create(b, loc, i));
      elements.push_back(
          memref::LoadOp::create(b, loc, access.base, indices,
                                 /*nontemporal=*/access.nontemporal));
    }
    scf::YieldOp::create(
        b, loc,
        vector::FromElementsOp::create(b, loc, access.vectorType, elements)
            .getResult());
  };
  auto ifOp = scf::IfOp::create(
      rewriter, loc, condition,
      [&](OpBuilder &b, Location loc) {
        Value loaded = vector::LoadOp::create(b, loc, access.vectorType,
                                              access.base, access.indices,
                                              access.nontemporal, alignment);
        scf::YieldOp::create(b, loc, loaded);
      },
      [&](OpBuilder &b, Location loc) {
        if (access.maskCount ||
            cast<MemRefType>(access.base.getType()).getElementType() !=
                access.vectorType.getElementType())
          cloneOriginal(b, loc);
        else
          loadElements(b, loc);
      });
  rewriter.replaceOp(op, ifOp.getResults());
}

int64_t mlir::gpucg::versionVectorAlignment(RewriterBase &rewriter,
                                            Operation *root) {
  SmallVector<VersionedAccess> accesses;
  root->walk([&](Operation *op) {
    if (std::optional<VersionedAccess> access = matchVersionedAccess(op))
      accesses.push_back(std::move(*access));
  });
  for (const VersionedAccess &access : accesses)
    versionAccess(rewriter, access);
  return static_cast<int64_t>(accesses.size());
}

namespace {
struct VersionVectorAlignmentPass
    : public gpucg::impl::VersionVectorAlignmentBase<
          VersionVectorAlignmentPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    (void)versionVectorAlignment(rewriter, getOperation());
  }
};
} // namespace
