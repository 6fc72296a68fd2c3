//===- TileAndDistribute.cpp - In-workgroup tiling and distribution -------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The in-workgroup half of IREE's LLVMGPUTileAndDistribute, on upstream ops:
//   1. stage the accumulator of a tensor-core matmul in workgroup memory
//      when A and B are (more than one warp): each warp initializes its own
//      part (from the fill that produces C, or from C itself) and, after the
//      K loop, the whole workgroup copies the tile out with wide, coalesced
//      stores;
//   2. tile the reduction loops by the level-0 sizes into a serial scf.for;
//   3. promote A and B to workgroup memory when the workgroup has more than
//      one warp (each element is then loaded from global memory once);
//   4. distribute the parallel loops of every linalg op of the tile over
//      warps or threads, cyclically over gpu.thread_id;
//   5. canonicalize, removing the loops that run once per warp / thread.
// Workgroup-wide copies are linalg.copy ops between gpu.barrier ops, left
// for gpucg-distribute-shared-memory-copy to spread over the threads.
//
// A tensor-core matmul's partial tiles (workgroup specialization's
// remainder, a K step past K) run the same MMA loop as its full tiles: A, B
// and the staged accumulator are promoted into full, statically shaped
// buffers, a partial operand's copy-in is a padded copy (the buffer filled
// with zeros, then the part inside the matrix copied over it), and the
// accumulator's copy-out writes only the part inside C (PaddedTileCopy in
// Utils.h).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_TILEANDDISTRIBUTE
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

namespace {
/// What the pass needs to know about the kernel it works on.
struct DistributionContext {
  ArrayRef<int64_t> workgroupSize;
  int64_t warpSize;
  bool toWarps;
  /// The copies created by promotion: not distributed here.
  llvm::SmallPtrSet<Operation *, 8> copies;
  /// The ops initializing the staged accumulator: distributed over warps
  /// like the root's result.
  SmallVector<linalg::LinalgOp> accumulatorInits;
};
} // namespace

/// Cyclic distribution of the tiled parallel loops over gpu.thread_id: the
/// innermost tiled loop over x, then y, then z. Warps along x are groups of
/// `warpSize` consecutive threads.
static linalg::LinalgLoopDistributionOptions
getDistributionOptions(ArrayRef<int64_t> workgroupSize, int64_t warpSize,
                       bool toWarps) {
  SmallVector<int64_t, 3> counts(workgroupSize);
  if (toWarps)
    counts[0] /= warpSize;
  linalg::LinalgLoopDistributionOptions options;
  options.procInfo = [counts, warpSize, toWarps](OpBuilder &b, Location loc,
                                                 ArrayRef<Range> ranges) {
    SmallVector<linalg::ProcInfo> infos;
    for (auto [i, range] : llvm::enumerate(ranges)) {
      auto dim = static_cast<gpu::Dimension>(ranges.size() - 1 - i);
      Value id = gpu::ThreadIdOp::create(b, loc, dim);
      int64_t dimIndex = static_cast<int64_t>(dim);
      // An affine floordiv, not arith.divui: value-bounds analysis reasons
      // about it, which removing the single-iteration warp loops needs.
      if (toWarps && dimIndex == 0)
        id = affine::AffineApplyOp::create(
            b, loc,
            AffineMap::get(0, 1, b.getAffineSymbolExpr(0).floorDiv(warpSize)),
            ValueRange{id});
      Value count = arith::ConstantIndexOp::create(b, loc, counts[dimIndex]);
      infos.push_back({id, count, linalg::DistributionMethod::Cyclic});
    }
    return infos;
  };
  return options;
}

/// Copies `src` into workgroup memory `dst` (copy-in) or back (copy-out) as a
/// linalg.copy. Barriers: before a copy-in, so that no thread still reads
/// the previous contents (previous K step) or the source is still being
/// written (a fill); after it, so that every thread sees the whole tile;
/// before a copy-out, so that every thread's results are in; after it only
/// when something in the tile follows and may read the result.
static LogicalResult copyWithBarriers(OpBuilder &b, Value src, Value dst,
                                      bool isCopyOut,
                                      DistributionContext &ctx,
                                      Value paddedFull = nullptr) {
  Location loc = src.getLoc();
  // Back-to-back copies (A then B) share the barrier between them (only ops
  // free of memory effects, such as views, between).
  Block *block = b.getInsertionBlock();
  auto point = b.getInsertionPoint();
  while (point != block->begin() && isMemoryEffectFree(&*std::prev(point)))
    --point;
  bool followsBarrier =
      point != block->begin() && isa<gpu::BarrierOp>(*std::prev(point));
  if (!followsBarrier)
    gpu::BarrierOp::create(b, loc);
  // A partial tile's copy-in pads the rest of the full buffer with zeros,
  // after the barrier: other warps may still read the buffer's previous
  // contents before it.
  if (paddedFull) {
    auto type = cast<MemRefType>(paddedFull.getType());
    Value zero = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(type.getElementType())));
    ctx.copies.insert(linalg::FillOp::create(b, loc, zero, paddedFull));
  }
  Operation *copy = linalg::CopyOp::create(b, loc, src, dst);
  ctx.copies.insert(copy);
  if (!isCopyOut) {
    gpu::BarrierOp::create(b, loc);
    return success();
  }
  // The copy-out is created before the op it follows is erased; barrier-free
  // only when it will be the last op of its block.
  Operation *next = copy->getNextNode();
  bool lastInBlock = !next || isBlockTerminator(next);
  if (!lastInBlock)
    gpu::BarrierOp::create(b, loc);
  return success();
}

using CopyFn = std::function<LogicalResult(OpBuilder &, Value, Value)>;

/// The whole buffer `partialLocalView`, what promotion copies a partial
/// operand into, is a view of; null when the view is all of it (a full
/// tile: its sizes are constants, if only as constant operands, equal to
/// the buffer's).
static Value getPaddedBuffer(Value partialLocalView) {
  Value full = getRootMemref(partialLocalView);
  auto view = partialLocalView.getDefiningOp<memref::SubViewOp>();
  if (!view)
    return nullptr;
  ArrayRef<int64_t> shape = cast<MemRefType>(full.getType()).getShape();
  SmallVector<OpFoldResult> sizes = view.getMixedSizes();
  if (sizes.size() == shape.size() &&
      llvm::all_of(llvm::zip(sizes, shape), [](auto pair) {
        return getConstantIntValue(std::get<0>(pair)) == std::get<1>(pair);
      }))
    return nullptr;
  return full;
}

/// Erases the zero fills linalg::promoteSubViews puts before the copies of
/// full tile buffers: they precede the barrier that guards the buffer (its
/// previous contents may still be read), and copyWithBarriers pads after it.
static void eraseUpstreamPadding(OpBuilder &b, Value full) {
  Block *block = b.getInsertionBlock();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(block->begin(), b.getInsertionPoint()))) {
    auto fill = dyn_cast<linalg::FillOp>(&op);
    if (fill && fill.hasPureBufferSemantics() &&
        fill.getOutputs().front() == full)
      fill->erase();
  }
}

/// Promotes operands `operands` of `op` to workgroup memory, with `copyIn`
/// (default: a workgroup-wide copy between barriers) and a workgroup-wide
/// copy-out. With `padPartialTiles`, operands are promoted into buffers of
/// their full tiles, which `op` then uses whole: a partial operand's
/// default copy-in is padded with zeros, and its copy-out copies the part
/// inside the matrix (PaddedTileCopy).
static FailureOr<linalg::LinalgOp>
promoteToWorkgroupMemory(RewriterBase &rewriter, linalg::LinalgOp op,
                         ArrayRef<int64_t> operands, DistributionContext &ctx,
                         bool padPartialTiles, CopyFn copyIn = nullptr) {
  if (!copyIn)
    copyIn = [&](OpBuilder &b, Value src, Value dst) {
      if (padPartialTiles)
        eraseUpstreamPadding(b, getRootMemref(dst));
      return copyWithBarriers(b, src, dst, /*isCopyOut=*/false, ctx,
                              padPartialTiles ? getPaddedBuffer(dst)
                                              : nullptr);
    };
  linalg::LinalgPromotionOptions options;
  options.setOperandsToPromote(operands)
      .setUseFullTileBuffersByDefault(padPartialTiles)
      .setAllocationDeallocationFns(linalg::allocateWorkgroupMemory,
                                    linalg::deallocateWorkgroupMemory)
      .setCopyInOutFns(copyIn, [&](OpBuilder &b, Value src, Value dst) {
        return copyWithBarriers(b, src, dst, /*isCopyOut=*/true, ctx);
      });
  if (failed(linalg::promoteSubviewsPrecondition(op, options)))
    return failure();
  rewriter.setInsertionPoint(op);
  return linalg::promoteSubViews(rewriter, op, options);
}

/// The linalg.fill of a constant that produces the accumulator (the only
/// init) of `op`: one that writes the same buffer earlier in the block, with
/// only ops free of memory effects between them. Null when there is none.
/// (A constant is what the MMA conversions take as a first accumulator;
/// another value is written to C and read back as C.)
static linalg::FillOp getAccumulatorFill(linalg::LinalgOp op) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(getAccumulatorStart(op));
  return fill && fill.hasPureBufferSemantics() &&
                 matchPattern(fill.getInputs().front(), m_Constant())
             ? fill
             : nullptr;
}

/// Whether some row pitch of memref `value` (a stride other than the
/// innermost) is known only at run time.
static bool hasDynamicRowPitch(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return true;
  return llvm::any_of(ArrayRef(strides).drop_back(), ShapedType::isDynamic);
}

/// Stages the accumulator (operand 2) of tensor-core matmul `op` in
/// workgroup memory. Each warp initializes its own part of the staged tile
/// (it is distributed like the root's result): with the value of `fill`
/// when C is produced by it (`fill` is then dead and erased), else with a
/// copy of its part of C. gpucg-tensor-core-vectorization turns that
/// initialization into the accumulator's first value in registers, so the
/// staged buffer is only written after the K loop and read by the
/// workgroup-wide copy-out: it can share the bytes of A and B.
///
/// With `padPartialTiles` a partial tile's accumulator is the full tile's:
/// the fill initializes all of it (the elements outside C are computed and
/// never stored), and a copy of C is a padded copy-in of the workgroup
/// (each warp then reads its part of the staged buffer after a barrier).
/// `copyInByWorkgroup` makes every copy of C such a workgroup copy-in: WMMA
/// fragments load with a constant leading dimension, which a C whose row
/// pitch is known only at run time does not have.
static FailureOr<linalg::LinalgOp>
stageAccumulator(RewriterBase &rewriter, linalg::LinalgOp op,
                 linalg::FillOp fill, DistributionContext &ctx,
                 bool padPartialTiles, bool copyInByWorkgroup) {
  auto initialize = [&](OpBuilder &b, Value src, Value dst) -> LogicalResult {
    Location loc = dst.getLoc();
    if (padPartialTiles)
      eraseUpstreamPadding(b, getRootMemref(dst));
    Value full = padPartialTiles ? getPaddedBuffer(dst) : nullptr;
    if ((full || copyInByWorkgroup) && !fill)
      return copyWithBarriers(b, src, dst, /*isCopyOut=*/false, ctx, full);
    Value target = full ? full : dst;
    Operation *init =
        fill ? linalg::FillOp::create(b, loc, fill.getInputs().front(), target)
                   .getOperation()
             : linalg::CopyOp::create(b, loc, src, dst).getOperation();
    ctx.accumulatorInits.push_back(cast<linalg::LinalgOp>(init));
    return success();
  };
  FailureOr<linalg::LinalgOp> promoted = promoteToWorkgroupMemory(
      rewriter, op, {2}, ctx, padPartialTiles, initialize);
  if (succeeded(promoted) && fill)
    rewriter.eraseOp(fill);
  return promoted;
}

/// A tensor-core matmul whose result feeds a fused epilogue writes it into a
/// temporary that bufferization allocated (memref.alloc, default memory
/// space) inside the workgroup loop. The lanes write their MMA fragments
/// there and the epilogue, distributed over the threads differently, reads
/// other lanes' elements: the workgroup must share one buffer, while a
/// memref.alloc in a kernel is a device allocation per thread. Reallocates
/// the temporary in workgroup memory, statically shaped (each dynamic size
/// by its upper bound; a partial tile takes a view of it).
static LogicalResult shareAccumulatorTemporary(RewriterBase &rewriter,
                                               linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return success();
  auto alloc = op.getDpsInitOperand(0)->get().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc.getType().getMemorySpace())
    return success();
  MemRefType type = alloc.getType();
  SmallVector<int64_t> shape;
  ValueRange dynamicSizes = alloc.getDynamicSizes();
  for (int64_t size : type.getShape()) {
    if (!ShapedType::isDynamic(size)) {
      shape.push_back(size);
      continue;
    }
    Value dynamic = dynamicSizes.front();
    dynamicSizes = dynamicSizes.drop_front();
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(dynamic),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(bound))
      return op.emitOpError()
             << "writes its result into a temporary of type " << type
             << " whose sizes have no constant upper bound; its workgroup "
                "cannot share it in workgroup memory";
    shape.push_back(*bound);
  }
  for (Operation *user : alloc->getUsers())
    if (!isa<linalg::LinalgOp, memref::DeallocOp>(user))
      return op.emitOpError()
             << "writes its result into a temporary that '" << user->getName()
             << "' also uses; gpucg moves into workgroup memory only "
                "temporaries of linalg ops";

  Location loc = alloc.getLoc();
  rewriter.setInsertionPoint(alloc);
  auto workgroup = gpu::AddressSpaceAttr::get(
      rewriter.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  auto sharedType = MemRefType::get(shape, type.getElementType(),
                                    MemRefLayoutAttrInterface(), workgroup);
  Value shared = memref::AllocOp::create(rewriter, loc, sharedType,
                                         alloc.getAlignmentAttr());
  Value replacement = shared;
  if (!type.hasStaticShape()) {
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    replacement = memref::SubViewOp::create(rewriter, loc, shared, offsets,
                                            alloc.getMixedSizes(), strides);
  }
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    if (isa<memref::DeallocOp>(user))
      rewriter.eraseOp(user);
  rewriter.replaceAllUsesWith(alloc.getResult(), replacement);
  rewriter.eraseOp(alloc);
  // The epilogue reads what other threads' fragments wrote.
  rewriter.setInsertionPointAfter(op);
  gpu::BarrierOp::create(rewriter, op.getLoc());
  return success();
}

/// Tiles `op` by `tileSizes` into scf.for loops, distributed over `ctx`'s
/// processors when `distribute` is set. Returns the tiled op.
static FailureOr<linalg::LinalgOp> tileLoops(RewriterBase &rewriter,
                                             linalg::LinalgOp op,
                                             ArrayRef<int64_t> tileSizes,
                                             bool distribute,
                                             const DistributionContext &ctx) {
  if (llvm::all_of(tileSizes, [](int64_t s) { return s == 0; }))
    return op;
  linalg::LinalgTilingOptions options;
  options.setTileSizes(tileSizes).setLoopType(
      linalg::LinalgTilingLoopType::Loops);
  if (distribute)
    options.setDistributionOptions(
        getDistributionOptions(ctx.workgroupSize, ctx.warpSize, ctx.toWarps));
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rewriter, op, options);
  if (failed(tiled))
    return failure();
  rewriter.eraseOp(op);
  return tiled->op;
}

/// The per-warp / per-thread tile sizes of the root's parallel loops: its
/// level-1 sizes with the reduction loops left whole.
static SmallVector<int64_t>
getRootDistributionTileSizes(linalg::LinalgOp rootOp,
                             ArrayRef<int64_t> rootLevel1) {
  SmallVector<int64_t> sizes(rootLevel1);
  for (auto [pos, type] : llvm::enumerate(rootOp.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction)
      sizes[pos] = 0;
  // More than three loops to distribute (a [batch, heads, ...] tile): the
  // outer ones of one iteration in the workgroup's tile (the batch and
  // head a workgroup owns) need no thread dimension of their own.
  SmallVector<int64_t> ranges = rootOp.getStaticLoopRanges();
  auto numDistributed = [&] {
    return llvm::count_if(sizes, [](int64_t s) { return s != 0; });
  };
  for (size_t pos = 0; pos < sizes.size() && numDistributed() > 3; ++pos)
    if (sizes[pos] != 0 && ranges[pos] == 1)
      sizes[pos] = 0;
  return sizes;
}

/// The same sizes per dimension of the root's result, for the other ops of
/// the tile whose loops are those dimensions (fill, elementwise consumers);
/// nothing when the root's result is not indexed by plain loop dimensions.
static std::optional<SmallVector<int64_t>>
getResultDimTileSizes(linalg::LinalgOp rootOp, ArrayRef<int64_t> rootSizes) {
  if (rootOp.getNumDpsInits() != 1)
    return std::nullopt;
  SmallVector<int64_t> sizes;
  for (AffineExpr expr :
       rootOp.getMatchingIndexingMap(rootOp.getDpsInitOperand(0))
           .getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    sizes.push_back(rootSizes[dim.getPosition()]);
  }
  return sizes;
}

/// Whether `op` iterates exactly over the root's result dimensions: one
/// identity-indexed output of that rank and no reduction loop.
static bool iteratesOverResultDims(linalg::LinalgOp op, int64_t resultRank) {
  return op.getNumDpsInits() == 1 && op.getNumReductionLoops() == 0 &&
         op.getNumLoops() == resultRank &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity();
}

/// The vector width of a tensor-core matmul's fused epilogue `ops`
/// distributed over threads: the widest power of two elements, up to 16
/// bytes of their widest element type, that divides the innermost loop's
/// size and keeps aligned the vectors of every operand indexed by that loop
/// (getAlignedVectorWidthThroughViews: a bias indexed by the row alone is
/// read broadcast, whatever its alignment). 1 when a size is dynamic (a
/// partial tile).
static int64_t getEpilogueVectorWidth(ArrayRef<linalg::LinalgOp> ops) {
  int64_t width = 16;
  for (linalg::LinalgOp op : ops) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ranges.empty() || ShapedType::isDynamic(ranges.back()))
      return 1;
    int64_t innerLoop = op.getNumLoops() - 1;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type)
        continue;
      Type element = type.getElementType();
      if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() > 128)
        return 1;
      width = std::min<int64_t>(
          width, 128 / std::max<unsigned>(8, element.getIntOrFloatBitWidth()));
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (map.getNumResults() > 0 &&
          map.getResults().back() ==
              getAffineDimExpr(innerLoop, op.getContext()))
        width = getAlignedVectorWidthThroughViews(width, operand.get());
    }
    while (width > 1 && ranges.back() % width != 0)
      width /= 2;
  }
  return width;
}

/// Distributes the fused consumers `epilogue` of a tensor-core matmul (ops
/// over its result's dimensions, after it in the workgroup tile) over all
/// threads of the workgroup, laid out like a workgroup-wide copy: each thread
/// reads vectors of the accumulator other warps' fragments wrote, applies the
/// epilogue and stores vectors of the result. Per warp instead, each of a
/// warp's 32 lanes would run the whole warp tile: 32 times the work and a
/// tile of registers per thread. All ops get one layout, so that a thread
/// reads back from a temporary between two of them only what it wrote. A
/// barrier before the first makes every warp's fragments visible.
static LogicalResult distributeEpilogue(RewriterBase &rewriter,
                                        ArrayRef<linalg::LinalgOp> epilogue,
                                        ArrayRef<int64_t> workgroupSize) {
  if (epilogue.empty())
    return success();
  int64_t numThreads = 1;
  for (int64_t size : workgroupSize)
    numThreads *= size;
  int64_t width = getEpilogueVectorWidth(epilogue);
  linalg::LinalgOp front = epilogue.front();
  int64_t innerSize = front.getStaticLoopRanges().back();
  // Whole rows of vectors per round, every thread busy: ids past a row's
  // vectors would repeat another thread's.
  int64_t innerVectors = ShapedType::isDynamic(innerSize)
                             ? 32
                             : std::max<int64_t>(1, innerSize / width);
  int64_t threadsPerRow = std::gcd(numThreads, innerVectors);

  Operation *first = front;
  Operation *previous = first->getPrevNode();
  while (previous && !isa<gpu::BarrierOp>(previous) &&
         isMemoryEffectFree(previous))
    previous = previous->getPrevNode();
  if (!previous || !isa<gpu::BarrierOp>(previous)) {
    rewriter.setInsertionPoint(first);
    gpu::BarrierOp::create(rewriter, first->getLoc());
  }

  linalg::LinalgTilingOptions options;
  options.setLoopType(linalg::LinalgTilingLoopType::Loops)
      .setDistributionOptions(
          getFlatThreadDistribution(workgroupSize, threadsPerRow));
  for (linalg::LinalgOp op : epilogue) {
    SmallVector<int64_t> tileSizes(op.getNumLoops(), 1);
    tileSizes.back() = width;
    options.setTileSizes(tileSizes);
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::TiledLinalgOp> tiled =
        linalg::tileLinalgOp(rewriter, op, options);
    // Unreachable: as for the root's reduction loops (distributeRoot).
    if (failed(tiled))
      return op.emitOpError() << "could not be distributed over the "
                              << numThreads << " threads of the workgroup";
    rewriter.eraseOp(op);
  }
  return success();
}

/// A partial tile's tensor-core matmul writing into (a partial view of) a
/// workgroup temporary (shareAccumulatorTemporary) writes the whole of it:
/// the MMA runs on full tiles. Its accumulator fill too; the consumers keep
/// reading the part inside C.
static void useWholeAccumulatorTemporary(RewriterBase &rewriter,
                                         linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return;
  OpOperand *init = op.getDpsInitOperand(0);
  auto view = init->get().getDefiningOp<memref::SubViewOp>();
  if (!view || !isWorkgroupMemory(view.getType()) ||
      !view.getSourceType().hasStaticShape() ||
      view.getSourceType().getRank() != view.getType().getRank() ||
      !llvm::all_of(view.getMixedOffsets(),
                    [](OpFoldResult o) { return isConstantIntValue(o, 0); }) ||
      !llvm::all_of(view.getMixedStrides(),
                    [](OpFoldResult s) { return isConstantIntValue(s, 1); }))
    return;
  linalg::FillOp fill = getAccumulatorFill(op);
  rewriter.modifyOpInPlace(op, [&] { init->set(view.getSource()); });
  if (fill)
    rewriter.modifyOpInPlace(
        fill, [&] { fill.getDpsInitsMutable()[0].set(view.getSource()); });
}

/// Tiles and distributes one root op (and the ops of its tile, `tileOps`)
/// inside a workgroup. With `padPartialTiles` (a tensor-core matmul), the
/// root's operands are promoted into full tile buffers, so that a partial
/// tile runs the full tile's MMA loop; the other ops of a partial tile (a
/// fused consumer on the part inside C) go one element per thread.
static LogicalResult distributeRoot(RewriterBase &rewriter,
                                    linalg::LinalgOp rootOp,
                                    LoweringConfigAttr config,
                                    TranslationInfoAttr info,
                                    SmallVector<linalg::LinalgOp> tileOps,
                                    DistributionContext &ctx,
                                    bool padPartialTiles) {
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  ArrayRef<int64_t> level1 = config.getTileSizes(1);
  if (level1.empty())
    return rootOp.emitOpError()
           << "has no level-1 (per-" << (ctx.toWarps ? "warp" : "thread")
           << ") tile sizes in its gpucg.lowering_config";
  if (level0.size() != rootOp.getNumLoops() ||
      level1.size() != rootOp.getNumLoops())
    return rootOp.emitOpError()
           << "lowering_config levels 0 and 1 need " << rootOp.getNumLoops()
           << " tile sizes each, got " << level0.size() << " and "
           << level1.size();
  SmallVector<int64_t> parallelTiles =
      getRootDistributionTileSizes(rootOp, level1);
  // The root's fused consumers (its epilogue), known before the root is
  // replaced by its tiled copies.
  llvm::SmallPtrSet<Operation *, 4> consumers;
  for (linalg::LinalgOp tileOp : tileOps)
    if (tileOp != rootOp && rootOp->isBeforeInBlock(tileOp))
      consumers.insert(tileOp);
  // Read before the root is replaced by its tiled copies.
  std::optional<SmallVector<int64_t>> resultDimTiles =
      getResultDimTileSizes(rootOp, parallelTiles);
  if (llvm::count_if(parallelTiles, [](int64_t s) { return s != 0; }) > 3)
    return rootOp.emitOpError() << "distributes more than 3 parallel loops "
                                   "over the 3 dimensions of a workgroup";

  SmallVector<int64_t> reductionTiles(rootOp.getNumLoops(), 0);
  for (auto [pos, type] : llvm::enumerate(rootOp.getIteratorTypesArray()))
    if (type == utils::IteratorType::reduction)
      reductionTiles[pos] = level0[pos];

  int64_t numThreads = *info.getNumThreads();
  bool isMatmul = info.getTensorCoreMmaKind().has_value() ||
                  info.getPipeline() == Pipeline::MatmulSimt;
  // A partial tile (of M or N, or a last K step past K) reaches its MMA
  // through full workgroup buffers, also with one warp.
  bool kTail = llvm::any_of(
      llvm::zip(rootOp.getStaticLoopRanges(), reductionTiles), [](auto pair) {
        auto [size, tile] = pair;
        return tile > 0 && (ShapedType::isDynamic(size) || size % tile != 0);
      });
  bool partialTile =
      padPartialTiles && (rootOp.hasDynamicShape() || kTail);
  bool promoteAB = isMatmul && (numThreads > ctx.warpSize || partialTile);
  // Staged only where each warp's part of C is known (its initialization is
  // distributed like the result).
  bool stageC =
      promoteAB && info.getTensorCoreMmaKind().has_value() && resultDimTiles;

  if (info.getTensorCoreMmaKind().has_value() &&
      failed(shareAccumulatorTemporary(rewriter, rootOp)))
    return failure();
  if (partialTile)
    useWholeAccumulatorTemporary(rewriter, rootOp);
  // An accumulator already in workgroup memory needs no staging.
  stageC = stageC &&
           !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
               cast<MemRefType>(rootOp.getDpsInitOperand(0)->get().getType()));

  linalg::LinalgOp op = rootOp;
  if (stageC) {
    linalg::FillOp fill = getAccumulatorFill(rootOp);
    Operation *fillOp = fill ? fill.getOperation() : nullptr;
    FailureOr<linalg::LinalgOp> promoted = stageAccumulator(
        rewriter, op, fill, ctx, padPartialTiles,
        /*copyInByWorkgroup=*/info.getTensorCoreMmaKind() == MmaKind::Wmma &&
            hasDynamicRowPitch(op.getDpsInitOperand(0)->get()));
    if (succeeded(promoted)) {
      op = *promoted;
      tileOps = llvm::filter_to_vector(tileOps, [&](linalg::LinalgOp t) {
        return t.getOperation() != fillOp;
      });
    }
  }
  FailureOr<linalg::LinalgOp> kTiled =
      tileLoops(rewriter, op, reductionTiles, /*distribute=*/false, ctx);
  // Unreachable for verifier-valid linalg ops because tileLinalgOp fails
  // only on non-invertible indexing maps, which the linalg verifier
  // rejects; kept so that a future upstream change fails loudly rather
  // than crashing.
  if (failed(kTiled))
    return rootOp.emitOpError() << "could not tile its reduction loops";
  op = *kTiled;
  if (promoteAB) {
    FailureOr<linalg::LinalgOp> promoted =
        promoteToWorkgroupMemory(rewriter, op, {0, 1}, ctx, padPartialTiles);
    if (succeeded(promoted))
      op = *promoted;
  }
  if (partialTile && op.hasDynamicShape())
    return op.emitOpError()
           << "is a partial tile of a tensor-core matmul whose operands "
              "could not all be promoted into full tile buffers (each "
              "dynamic size needs a constant upper bound)";
  // Unreachable: as for the reduction loops above.
  if (failed(tileLoops(rewriter, op, parallelTiles, /*distribute=*/true, ctx)))
    return op.emitOpError() << "could not be distributed";

  // The other ops of the tile (fill, elementwise consumers, the staged
  // accumulator's initialization). Others (e.g. producers of A) are left to
  // every thread. A partial tile's consumers work on the part inside C, one
  // element per thread; the accumulator's initialization is the root's.
  SmallVector<linalg::LinalgOp> inits = std::move(ctx.accumulatorInits);
  ctx.accumulatorInits.clear();
  if (!resultDimTiles)
    return success();
  DistributionContext threads{ctx.workgroupSize, ctx.warpSize,
                              /*toWarps=*/false, ctx.copies, {}};
  SmallVector<int64_t> elementTiles = llvm::map_to_vector(
      *resultDimTiles, [](int64_t size) -> int64_t { return size ? 1 : 0; });
  SmallVector<linalg::LinalgOp> epilogue;
  auto distribute = [&](linalg::LinalgOp tileOp, bool asRoot) {
    if (tileOp == rootOp || ctx.copies.contains(tileOp) ||
        !iteratesOverResultDims(tileOp, resultDimTiles->size()))
      return success();
    if (ctx.toWarps && consumers.contains(tileOp)) {
      epilogue.push_back(tileOp);
      return success();
    }
    bool perElement = partialTile && !asRoot;
    // Unreachable: as for the root's reduction loops above.
    if (failed(tileLoops(rewriter, tileOp,
                         perElement ? elementTiles : *resultDimTiles,
                         /*distribute=*/true, perElement ? threads : ctx)))
      return LogicalResult(tileOp.emitOpError() << "could not be distributed");
    return success();
  };
  for (linalg::LinalgOp tileOp : tileOps) {
    if (tileOp == rootOp) // Erased: replaced by its tiled copy.
      continue;
    // In a partial tile, an op writing a whole workgroup buffer (the
    // accumulator temporary's fill) is the root's; the others work on the
    // part inside C.
    Value out = tileOp.getNumDpsInits() == 1
                    ? tileOp.getDpsInitOperand(0)->get()
                    : Value();
    bool asRoot = out && isWorkgroupMemory(out.getType()) &&
                  cast<MemRefType>(out.getType()).hasStaticShape();
    if (failed(distribute(tileOp, asRoot)))
      return failure();
  }
  for (linalg::LinalgOp init : inits)
    if (failed(distribute(init, /*asRoot=*/true)))
      return failure();
  return distributeEpilogue(rewriter, epilogue, ctx.workgroupSize);
}

LogicalResult mlir::gpucg::tileAndDistributeInWorkgroup(
    RewriterBase &rewriter, FunctionOpInterface funcOp, bool toWarps) {
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  if (!info)
    return success();
  Pipeline pipeline = info.getPipeline();
  if (pipeline == Pipeline::None || pipeline == Pipeline::WarpReduction)
    return success();
  if (info.getWorkgroupSize().empty())
    return funcOp.emitOpError()
           << "has no workgroup_size in its gpucg.translation_info";
  bool wantsWarps = info.getTensorCoreMmaKind().has_value();
  if (wantsWarps != toWarps)
    return funcOp.emitOpError()
           << "uses pipeline " << stringifyPipeline(pipeline)
           << ", whose level-1 tile sizes are per "
           << (wantsWarps ? "warp" : "thread")
           << "; run gpucg-tile-and-distribute with distribute-to-warp="
           << (wantsWarps ? "true" : "false");
  TargetAttr target = getTarget(funcOp);
  int64_t warpSize =
      info.getSubgroupSize().value_or(target ? target.getWarpSize() : 32);
  if (toWarps && info.getWorkgroupSize()[0] % warpSize != 0)
    return funcOp.emitOpError()
           << "distributes to warps, but workgroup_size x ("
           << info.getWorkgroupSize()[0] << ") is not a multiple of the warp "
           << "size (" << warpSize << ")";

  // Each copy of the root (the specialized full tile and the remainder) is
  // distributed with the ops of its own block.
  FailureOr<SmallVector<linalg::LinalgOp>> roots =
      getWorkgroupTileRoots(funcOp);
  if (failed(roots))
    return failure();

  for (linalg::LinalgOp root : *roots) {
    // A tensor-core kernel's partial tiles (the remainder, a K step past K)
    // run the full tile's MMA loop on padded buffers.
    DistributionContext ctx{info.getWorkgroupSize(), warpSize, toWarps, {},
                            {}};
    if (!root.hasPureBufferSemantics())
      return root.emitOpError() << "must be bufferized before "
                                   "gpucg-tile-and-distribute (run "
                                   "gpucg-bufferize)";
    auto config =
        root->getAttrOfType<LoweringConfigAttr>("gpucg.lowering_config");
    SmallVector<linalg::LinalgOp> tileOps;
    for (Operation &op : *root->getBlock())
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
        tileOps.push_back(linalgOp);
    if (failed(distributeRoot(rewriter, root, config, info, tileOps, ctx,
                              /*padPartialTiles=*/toWarps)))
      return failure();
  }
  return success();
}

namespace {
/// Folds affine.min ops whose bounds value-bounds analysis can order, e.g. a
/// warp tile size min(32 - 16 * tid_y, 16) with tid_y < 2 -> 16.
struct SimplifyAffineMinWithValueBounds
    : public OpRewritePattern<affine::AffineMinOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(affine::AffineMinOp op,
                                PatternRewriter &rewriter) const override {
    return success(affine::simplifyAffineMinOp(rewriter, op));
  }
};

struct TileAndDistributePass
    : public gpucg::impl::TileAndDistributeBase<TileAndDistributePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerSingleIterationLoopDependencies(registry);
  }

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TranslationInfoAttr info = getTranslationInfo(funcOp);
    IRRewriter rewriter(&getContext());
    if (failed(
            tileAndDistributeInWorkgroup(rewriter, funcOp, distributeToWarp)))
      return signalPassFailure();
    if (!info)
      return;

    // Static shapes for the stages after: fold the distribution arithmetic
    // and remove the loops each warp or thread runs once.
    setThreadIdUpperBounds(funcOp, info.getWorkgroupSize());
    RewritePatternSet patterns(&getContext());
    populateRemoveSingleIterationLoopPatterns(patterns);
    patterns.add<SimplifyAffineMinWithValueBounds>(&getContext());
    populateAllCanonicalizationPatterns(patterns);
    (void)applyPatternsGreedily(funcOp, std::move(patterns));
    // Distribution repeats index arithmetic per operand.
    DominanceInfo domInfo(funcOp);
    eliminateCommonSubExpressions(rewriter, domInfo, funcOp);
  }
};
} // namespace
