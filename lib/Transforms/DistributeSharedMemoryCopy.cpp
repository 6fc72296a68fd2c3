//===- DistributeSharedMemoryCopy.cpp - Copies into workgroup memory ------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gpucg-tile-and-distribute leaves each copy to or from workgroup memory as
// one linalg.copy that every thread would run. This pass splits each copy
// over all threads of the workgroup, each moving up to 128 bits at a time
// (the widest global load), and vectorizes the pieces:
//   rows of the innermost dimension are cut into vectors of V elements,
//   the threads are laid out as (T / (S / V)) x (S / V) over (rows, vectors)
//   with T threads and an innermost size S, and each thread loops cyclically
//   over the rows it owns. Shapes that are not a multiple of the vector width
//   take the widest width that divides them (down to one element); shapes
//   that are not a multiple of the thread layout leave some threads fewer
//   iterations. The width also divides the row pitch of both sides, so
//   that no vector straddles its alignment, except where only the global
//   side's pitch narrows it and that would cost: a copy-in below
//   cp.async's 4 bytes (a global row of 33 f16) or a copy-out. Those keep
//   the workgroup side's width and are register-staged
//   (getCopyVectorWidth): the lowering splits their global vectors into
//   accesses as wide as the alignment allows. Copies of one element per
//   step stay scalar linalg.copy ops.
//
// A partial tile of a tensor-core matmul (PaddedTileCopy) moves the whole
// full-tile buffer the same way: a copy-in's vector reads the elements of
// its row that lie inside the global source (a vector.transfer_read masked
// by vector.create_mask of that count, the padding value elsewhere: an async
// copy with a source size once converted) and writes the whole vector, which
// also does its padding fill's work; a copy-out's vector is stored whole
// where it lies inside C and masked where it straddles C's edge. Other
// dynamically shaped copies are distributed element by element and stay
// scalar.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_DISTRIBUTESHAREDMEMORYCOPY
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Elements per thread and step: the widest power of two up to 128 bits
/// that divides the innermost size. Element types without a fixed bit width
/// (index) or wider than 128 bits move one element at a time.
static int64_t getVectorWidth(int64_t innerSize, Type elementType) {
  if (!elementType.isIntOrFloat())
    return 1;
  int64_t width = std::max<int64_t>(
      1, 128 / std::max<unsigned>(8, elementType.getIntOrFloatBitWidth()));
  while (width > 1 && innerSize % width != 0)
    width /= 2;
  return width;
}

namespace {
/// How one thread moves a vector of a copy between global and workgroup
/// memory.
struct CopyVectorWidth {
  /// Elements per vector.
  int64_t width = 1;
  /// The global side's alignment is narrower than the vector: its accesses
  /// are split by the lowering (element loads or stores through registers,
  /// each as wide as the alignment allows), never an async copy.
  bool registerStaged = false;
  /// Bytes of one such global access (the vector's own when not staged).
  int64_t globalAccessBytes = 0;
};
} // namespace

/// The vector width of a copy from `source` to `destination` (one of them
/// in workgroup memory) whose innermost size is `innerSize`: the widest
/// (getVectorWidth) that keeps both sides' vectors aligned
/// (getAlignedVectorWidth), unless the global side alone narrows it where
/// that costs: a copy-in below cp.async's 4 bytes, or a copy-out. Those
/// keep the workgroup side's width and are register-staged: one wide
/// workgroup access and several independent global ones per vector, which
/// the K loop's pipeline overlaps with the MMAs, instead of a loop of one
/// synchronous element per step. Global accesses are never wider than
/// their alignment: the lowering splits a vector.load or vector.store by
/// what gpucg-convert-to-nvvm proves of it (the element's by default).
static CopyVectorWidth getCopyVectorWidth(int64_t innerSize, Value source,
                                          Value destination) {
  auto sourceType = cast<MemRefType>(source.getType());
  auto destinationType = cast<MemRefType>(destination.getType());
  Type element = destinationType.getElementType();
  CopyVectorWidth result;
  result.width = getVectorWidth(innerSize, element);
  int64_t workgroupWidth = result.width;
  int64_t alignedWidth = result.width;
  bool copyIn = !isWorkgroupMemory(sourceType) &&
                isWorkgroupMemory(destinationType);
  bool copyOut = isWorkgroupMemory(sourceType) &&
                 !isWorkgroupMemory(destinationType);
  for (Value side : {source, destination}) {
    auto type = cast<MemRefType>(side.getType());
    // Run-time pitches that gpucg-row-pitch-specialization found aligned.
    alignedWidth = getAlignedVectorWidth(alignedWidth, type,
                                         /*ignoreDynamicStrides=*/false,
                                         getKnownRowPitchMultiple(side));
    if (isWorkgroupMemory(type))
      workgroupWidth = getAlignedVectorWidth(workgroupWidth, type);
  }
  int64_t bits =
      element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  bool staged = alignedWidth < workgroupWidth &&
                ((copyIn && alignedWidth * bits < 32) || copyOut);
  result.width = staged ? workgroupWidth : alignedWidth;
  result.registerStaged = staged;
  result.globalAccessBytes = alignedWidth * bits / 8;
  return result;
}

/// Whether `op` runs in the branch gpucg-row-pitch-specialization kept for
/// run-time row pitches that are not multiples of 16 bytes.
static bool isInUnalignedPitchBranch(Operation *op) {
  auto *dialect = op->getContext()->getLoadedDialect<GpucgDialect>();
  for (auto ifOp = op->getParentOfType<scf::IfOp>(); ifOp;
       ifOp = ifOp->getParentOfType<scf::IfOp>())
    if (dialect &&
        dialect->getRowPitchSpecializationAttrHelper().isAttrPresent(ifOp) &&
        ifOp.getElseRegion().isAncestor(op->getParentRegion()))
      return true;
  return false;
}

/// Says, once per global memref of the function, that its copies into
/// workgroup memory cannot be cp.async because of its row pitch (they are
/// register-staged, or one element at a time where the tile allows no
/// wider vector): a slower plan than its element type and tile allow, and
/// one the user can fix (pad the rows).
static void warnAboutNarrowCopies(linalg::CopyOp copy, Value global,
                                  Value workgroupView,
                                  const CopyVectorWidth &width,
                                  int64_t innerSize,
                                  llvm::SmallPtrSetImpl<Value> &warned) {
  auto globalType = cast<MemRefType>(global.getType());
  Type element = globalType.getElementType();
  if (!element.isIntOrFloat() ||
      !isWorkgroupMemory(workgroupView.getType()) ||
      isWorkgroupMemory(globalType))
    return;
  int64_t bits = element.getIntOrFloatBitWidth();
  int64_t unaligned = getVectorWidth(innerSize, element);
  if (width.globalAccessBytes >= 4 || unaligned * bits < 32)
    return;
  Value root = getRootMemref(global);
  if (!warned.insert(root).second)
    return;
  SmallVector<int64_t> strides;
  int64_t offset;
  std::string pitch = "known only at run time";
  bool dynamicPitch = true;
  if (succeeded(globalType.getStridesAndOffset(strides, offset)) &&
      strides.size() > 1 &&
      !ShapedType::isDynamic(strides[strides.size() - 2])) {
    pitch = std::to_string(strides[strides.size() - 2] * bits / 8) + " bytes";
    dynamicPitch = false;
  }
  InFlightDiagnostic diag = copy.emitWarning();
  diag << "copies of " << root.getType() << " into workgroup memory ";
  if (dynamicPitch && width.registerStaged && isInUnalignedPitchBranch(copy)) {
    // gpucg-row-pitch-specialization gave the workgroup an aligned copy:
    // this is what runs where the run-time pitch is not a multiple of 16.
    diag << "are 16-byte cp.async only where a run-time check finds its row "
            "pitch a multiple of 16 bytes; at other pitches they load "
         << width.globalAccessBytes << " byte(s) at a time into registers ("
         << width.width * bits / 8 << " where a row is aligned) and store "
         << width.width * bits / 8 << "-byte vectors";
    return;
  }
  if (width.registerStaged) {
    diag << "load " << width.globalAccessBytes
         << " byte(s) at a time into registers";
    // gpucg-version-vector-alignment, at the end of the tensor-core
    // pipelines, widens the loads of rows a run-time check finds aligned.
    if (dynamicPitch)
      diag << " (" << width.width * bits / 8
           << " where the tensor-core pipelines' run-time check finds a row "
              "aligned)";
    diag << " and store " << width.width * bits / 8
         << "-byte vectors, without cp.async: its row pitch (";
  } else {
    diag << "move " << width.globalAccessBytes
         << " byte(s) per thread and step, synchronously: its row pitch (";
  }
  diag << pitch
       << ") does not keep wider vectors aligned, and cp.async moves 4, 8 or "
          "16 aligned bytes; rows ";
  if (dynamicPitch)
    diag << "of a static pitch ";
  diag << "padded to a multiple of 16 bytes would take 16-byte async copies";
}

/// Most copies one thread issues for one linalg.copy when its loops are
/// unrolled; more stay in loops.
static constexpr int64_t kMaxUnrolledCopiesPerThread = 16;

/// Fully unrolls `loop`, which every thread runs `tripCount` times (from its
/// own lower bound, with the same step): rewritten to iterate from 0 to
/// `tripCount` with the original induction variable recomputed, then
/// unrolled by upstream.
static LogicalResult unrollUniformLoop(RewriterBase &rewriter, scf::ForOp loop,
                                       int64_t tripCount) {
  Location loc = loop.getLoc();
  Value lowerBound = loop.getLowerBound(), step = loop.getStep();
  rewriter.setInsertionPoint(loop);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value count = arith::ConstantIndexOp::create(rewriter, loc, tripCount);
  rewriter.modifyOpInPlace(loop, [&] {
    loop.setLowerBound(zero);
    loop.setUpperBound(count);
    loop.setStep(one);
  });
  rewriter.setInsertionPointToStart(loop.getBody());
  denormalizeInductionVariable(rewriter, loc, loop.getInductionVar(),
                               lowerBound, step);
  return loopUnrollFull(loop);
}



/// Emits one thread's vector of a padded copy at `indices` of the full
/// buffer (the innermost a multiple of `width`), as the file comment says.
/// `valid` are the global view's sizes; `padding` the copy-in's value.
///
/// The index arithmetic is affine.min / affine.max only: upstream's MMA
/// conversions walk every op of the K loop's body and fail on scalar arith
/// ops they take for elementwise ones.
static void emitPaddedVector(OpBuilder &b, Location loc,
                             const PaddedTileCopy &padded, Value padding,
                             ArrayRef<Value> indices, ArrayRef<Value> valid,
                             int64_t width) {
  Value full = padded.full, global = padded.getGlobalView();
  Type elementType = cast<MemRefType>(full.getType()).getElementType();
  auto vectorType = VectorType::get({width}, elementType);
  MLIRContext *ctx = b.getContext();
  AffineExpr index = getAffineSymbolExpr(0, ctx);
  AffineExpr size = getAffineSymbolExpr(1, ctx);
  // The elements of this vector inside the global view: what is left of its
  // row, clamped to [0, width], and none when an outer index is past the
  // view (max(0, rows left) * width is then 0, else at least `width`).
  SmallVector<AffineExpr> bounds = {getAffineConstantExpr(width, ctx)};
  SmallVector<Value> operands;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(indices, valid))) {
    auto [idx, bound] = pair;
    bool inner = i + 1 == indices.size();
    Value left = affine::AffineMaxOp::create(
        b, loc,
        AffineMap::get(0, 2,
                       {inner ? size - index : (size - index) * width,
                        getAffineConstantExpr(0, ctx)},
                       ctx),
        ValueRange{idx, bound});
    bounds.push_back(getAffineSymbolExpr(operands.size(), ctx));
    operands.push_back(left);
  }
  Value count = affine::AffineMinOp::create(
      b, loc, AffineMap::get(0, operands.size(), bounds, ctx), operands);
  // A vector reading or writing nothing still names an element of the view:
  // each index clamped into it (the innermost to a multiple of `width`,
  // keeping the vector's alignment), which changes nothing for the others.
  SmallVector<Value> globalIndices;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(indices, valid))) {
    auto [idx, bound] = pair;
    bool inner = i + 1 == indices.size();
    AffineExpr last = inner ? (size - 1).floorDiv(width) * width : size - 1;
    globalIndices.push_back(affine::AffineMinOp::create(
        b, loc, AffineMap::get(0, 2, {index, last}, ctx),
        ValueRange{idx, bound}));
  }
  auto maskType = VectorType::get({width}, b.getI1Type());
  SmallVector<bool> inBounds = {true};
  ArrayAttr inBoundsAttr = b.getBoolArrayAttr(inBounds);
  auto minorIdentity = AffineMapAttr::get(AffineMap::getMinorIdentityMap(
      static_cast<unsigned>(indices.size()), 1, ctx));
  if (padded.isCopyIn()) {
    Value mask = vector::CreateMaskOp::create(b, loc, maskType, count);
    Value vector = vector::TransferReadOp::create(
        b, loc, vectorType, global, globalIndices, minorIdentity, padding,
        mask, inBoundsAttr);
    vector::TransferWriteOp::create(b, loc, vector, full, indices, inBounds);
    return;
  }
  Value vector = vector::TransferReadOp::create(
      b, loc, vectorType, full, indices,
      arith::ConstantOp::create(b, loc,
                                cast<TypedAttr>(b.getZeroAttr(elementType))),
      inBounds);
  // Whole vectors (all but those on C's right edge) store unmasked.
  Value whole = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, count,
      arith::ConstantIndexOp::create(b, loc, width));
  scf::IfOp::create(
      b, loc, whole,
      [&](OpBuilder &then, Location loc) {
        vector::TransferWriteOp::create(then, loc, vector, global, indices,
                                        inBounds);
        scf::YieldOp::create(then, loc);
      },
      [&](OpBuilder &otherwise, Location loc) {
        Value mask =
            vector::CreateMaskOp::create(otherwise, loc, maskType, count);
        vector::TransferWriteOp::create(otherwise, loc, vector, global,
                                        globalIndices, minorIdentity, mask,
                                        inBoundsAttr);
        scf::YieldOp::create(otherwise, loc);
      });
}

/// Distributes a PaddedTileCopy over the `numThreads` threads: the whole
/// full-tile buffer in vectors of the widest width its innermost size and
/// both sides' pitches allow, laid out like the other copies, straight-line
/// where each thread has the same few vectors.
static LogicalResult
distributePaddedCopy(RewriterBase &rewriter, const PaddedTileCopy &padded,
                     int64_t numThreads, ArrayRef<int64_t> workgroupSize,
                     llvm::SmallPtrSetImpl<Value> &warned) {
  linalg::CopyOp copy = padded.copy;
  Location loc = copy.getLoc();
  auto fullType = cast<MemRefType>(padded.full.getType());
  ArrayRef<int64_t> shape = fullType.getShape();
  int64_t rank = fullType.getRank();
  int64_t inner = shape.back();
  CopyVectorWidth copyWidth =
      padded.isCopyIn()
          ? getCopyVectorWidth(inner, padded.getGlobalView(), padded.full)
          : getCopyVectorWidth(inner, padded.full, padded.getGlobalView());
  int64_t width = copyWidth.width;
  warnAboutNarrowCopies(copy, padded.getGlobalView(),
                        copy.getOutputs().front(), copyWidth, inner, warned);
  int64_t threadsPerRow =
      std::min<int64_t>(numThreads, std::max<int64_t>(1, inner / width));
  int64_t rowThreads = std::max<int64_t>(1, numThreads / threadsPerRow);

  rewriter.setInsertionPoint(copy);
  linalg::FillOp fill = padded.padding;
  Value padding = fill ? fill.getInputs().front() : Value();
  SmallVector<Value> valid;
  for (int64_t dim = 0; dim < rank; ++dim)
    valid.push_back(
        memref::DimOp::create(rewriter, loc, padded.getGlobalView(), dim));
  FlatThreadId flat(rewriter, loc, workgroupSize);
  Value column = flat.apply(rewriter, loc, [&](AffineExpr t) {
    return (t % threadsPerRow) * width;
  });
  Value row = flat.apply(rewriter, loc, [&](AffineExpr t) {
    return t.floorDiv(threadsPerRow);
  });
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  // Loops over the whole buffer: every thread over the outer dimensions,
  // cyclically over rows and vectors of a row. Threads past the last whole
  // row of threads (a thread count that is not a multiple of
  // `threadsPerRow`; in one dimension, past the first row) start past the
  // end and move nothing.
  SmallVector<int64_t> tripCounts;
  SmallVector<scf::ForOp> loops;
  SmallVector<Value> indices;
  bool uniform = numThreads % threadsPerRow == 0 &&
                 (rank > 1 || numThreads == threadsPerRow);
  for (int64_t dim = 0; dim < rank; ++dim) {
    Value lower = zero;
    int64_t step = 1;
    if (dim == rank - 1) {
      lower = column;
      step = threadsPerRow * width;
      if (rank == 1)
        lower = arith::SelectOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  row, zero),
            column, arith::ConstantIndexOp::create(rewriter, loc, inner));
    } else if (dim == rank - 2) {
      lower = row;
      step = rowThreads;
    }
    auto loop = scf::ForOp::create(
        rewriter, loc, lower,
        arith::ConstantIndexOp::create(rewriter, loc, shape[dim]),
        arith::ConstantIndexOp::create(rewriter, loc, step));
    uniform &= shape[dim] % step == 0;
    tripCounts.push_back(shape[dim] / step);
    loops.push_back(loop);
    indices.push_back(loop.getInductionVar());
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  }
  emitPaddedVector(rewriter, loc, padded, padding, indices, valid, width);
  if (padded.padding)
    rewriter.eraseOp(padded.padding);
  rewriter.eraseOp(copy);

  int64_t copiesPerThread = 1;
  for (int64_t count : tripCounts)
    copiesPerThread *= count;
  if (!uniform || copiesPerThread > kMaxUnrolledCopiesPerThread)
    return success();
  for (int64_t dim = rank - 1; dim >= 0; --dim)
    if (tripCounts[dim] > 1 &&
        failed(unrollUniformLoop(rewriter, loops[dim], tripCounts[dim])))
      return loops[dim].emitOpError()
             << "could not be unrolled " << tripCounts[dim] << " times";
  return success();
}

LogicalResult
mlir::gpucg::distributeSharedMemoryCopies(RewriterBase &rewriter,
                                          FunctionOpInterface funcOp,
                                          ArrayRef<int64_t> workgroupSize) {
  int64_t numThreads = 1;
  for (int64_t size : workgroupSize)
    numThreads *= size;

  SmallVector<linalg::CopyOp> copies;
  // A copy already distributed (a warp's part of a buffer) is not split
  // again.
  funcOp.walk([&](linalg::CopyOp copy) {
    if (isWorkgroupCopy(copy))
      copies.push_back(copy);
  });

  llvm::SmallPtrSet<Value, 4> warned;
  for (linalg::CopyOp copy : copies) {
    if (std::optional<PaddedTileCopy> padded = matchPaddedTileCopy(copy)) {
      if (failed(distributePaddedCopy(rewriter, *padded, numThreads,
                                      workgroupSize, warned)))
        return failure();
      continue;
    }

    auto type = cast<MemRefType>(copy.getOutputs().front().getType());
    int64_t rank = type.getRank();
    if (rank == 0)
      continue;
    bool isStatic =
        type.hasStaticShape() &&
        cast<MemRefType>(copy.getInputs().front().getType()).hasStaticShape();
    int64_t inner = type.getShape().back();
    CopyVectorWidth copyWidth;
    if (isStatic)
      copyWidth = getCopyVectorWidth(inner, copy.getInputs().front(),
                                     copy.getOutputs().front());
    int64_t width = copyWidth.width;
    if (isStatic)
      warnAboutNarrowCopies(copy, copy.getInputs().front(),
                            copy.getOutputs().front(), copyWidth, inner,
                            warned);
    // Threads along the innermost dimension, and rows per round.
    int64_t threadsPerRow =
        isStatic
            ? std::min<int64_t>(numThreads, std::max<int64_t>(1, inner / width))
            : std::min<int64_t>(numThreads, 32);
    int64_t rowThreads = std::max<int64_t>(1, numThreads / threadsPerRow);

    SmallVector<int64_t> tileSizes(rank, 1);
    tileSizes.back() = width;
    linalg::LinalgTilingOptions options;
    options.setTileSizes(tileSizes).setLoopType(
        linalg::LinalgTilingLoopType::Loops);
    options.setDistributionOptions(
        getFlatThreadDistribution(workgroupSize, threadsPerRow));
    rewriter.setInsertionPoint(copy);
    FailureOr<linalg::TiledLinalgOp> tiled =
        linalg::tileLinalgOp(rewriter, copy, options);
    // Unreachable for a linalg.copy because tileLinalgOp fails only on
    // non-invertible indexing maps and a copy's are identities; kept so that
    // a future upstream change fails loudly rather than crashing.
    if (failed(tiled))
      return copy.emitOpError() << "could not be distributed over the "
                                << numThreads << " threads of the workgroup";
    rewriter.eraseOp(copy);
    // One element per step stays a scalar copy: as a vector it would be
    // 0-d once unit dims are dropped, which no async copy is made of.
    if (!isStatic || width == 1)
      continue;
    rewriter.setInsertionPoint(tiled->op);
    if (succeeded(linalg::vectorize(rewriter, tiled->op)))
      rewriter.eraseOp(tiled->op);

    // Straight-line copies, as IREE had them: what software pipelining needs
    // (a commit group names the async copies of an iteration, which must be
    // at the top level of the K loop) and what the hardware prefers. A loop
    // is uniform - each thread runs it the same number of times - when its
    // upper bound is a multiple of its step and every thread's processor id
    // is below the processor count (the flat thread ids fill whole rows).
    SmallVector<int64_t> tripCounts;
    int64_t copiesPerThread = 1;
    bool uniform = tiled->loops.size() == static_cast<size_t>(rank) &&
                   numThreads % threadsPerRow == 0;
    for (int64_t dim = 0; uniform && dim < rank; ++dim) {
      int64_t procs = dim == rank - 1   ? threadsPerRow
                      : dim == rank - 2 ? rowThreads
                                        : 1;
      int64_t step = procs * tileSizes[dim];
      int64_t size = type.getDimSize(dim);
      uniform = size > 0 && size % step == 0;
      tripCounts.push_back(size / std::max<int64_t>(step, 1));
      copiesPerThread *= tripCounts.back();
      uniform &= copiesPerThread <= kMaxUnrolledCopiesPerThread;
    }
    if (!uniform)
      continue;
    for (int64_t dim = rank - 1; dim >= 0; --dim) {
      auto loop = dyn_cast<scf::ForOp>(tiled->loops[dim]);
      if (loop && tripCounts[dim] > 1 &&
          failed(unrollUniformLoop(rewriter, loop, tripCounts[dim])))
        return loop.emitOpError()
               << "could not be unrolled " << tripCounts[dim] << " times";
    }
  }
  return success();
}

namespace {
struct DistributeSharedMemoryCopyPass
    : public gpucg::impl::DistributeSharedMemoryCopyBase<
          DistributeSharedMemoryCopyPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerSingleIterationLoopDependencies(registry);
  }

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TranslationInfoAttr info = getTranslationInfo(funcOp);
    if (!info || info.getWorkgroupSize().empty())
      return;
    IRRewriter rewriter(&getContext());
    if (failed(distributeSharedMemoryCopies(rewriter, funcOp,
                                            info.getWorkgroupSize())))
      return signalPassFailure();
    // Fold the per-thread loops that run once.
    setThreadIdUpperBounds(funcOp, info.getWorkgroupSize());
    RewritePatternSet patterns(&getContext());
    populateRemoveSingleIterationLoopPatterns(patterns);
    // 1-D transfers (vector<8xf16>, not vector<1x8xf16>): what async copies
    // are made from.
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    populateAllCanonicalizationPatterns(patterns);
    (void)applyPatternsGreedily(funcOp, std::move(patterns));
    DominanceInfo domInfo(funcOp);
    eliminateCommonSubExpressions(rewriter, domInfo, funcOp);
  }
};
} // namespace
