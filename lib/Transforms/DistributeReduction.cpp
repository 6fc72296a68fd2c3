//===- DistributeReduction.cpp - A row's reduction over a workgroup -------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A WarpReduction workgroup owns one row of a reduction over the innermost
// loop. Its threads split the row: each reduces, from the combiner's
// neutral element, the vectors at tid * v, (tid + T) * v, ... into a
// private accumulator (a linalg op per step, which gpucg-generic-
// vectorization makes one vector read and a vector.multi_reduction);
// gpu.subgroup_reduce combines the partials of each warp, workgroup memory
// and a second gpu.subgroup_reduce those of the warps, and thread 0 combines
// the total into the output. Floating-point sums are reassociated, as on
// every GPU reduction.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_DISTRIBUTEREDUCTION
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// The gpu.subgroup_reduce operation that `combiner` (the op of a reduction
/// body that combines an element with the accumulator) performs.
static std::optional<gpu::AllReduceOperation>
getAllReduceOperation(Operation *combiner) {
  using Kind = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return Kind::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Kind::MUL; })
      .Case<arith::MinUIOp>([](auto) { return Kind::MINUI; })
      .Case<arith::MinSIOp>([](auto) { return Kind::MINSI; })
      .Case<arith::MinNumFOp>([](auto) { return Kind::MINNUMF; })
      .Case<arith::MaxUIOp>([](auto) { return Kind::MAXUI; })
      .Case<arith::MaxSIOp>([](auto) { return Kind::MAXSI; })
      .Case<arith::MaxNumFOp>([](auto) { return Kind::MAXNUMF; })
      .Case<arith::AndIOp>([](auto) { return Kind::AND; })
      .Case<arith::OrIOp>([](auto) { return Kind::OR; })
      .Case<arith::XOrIOp>([](auto) { return Kind::XOR; })
      .Case<arith::MinimumFOp>([](auto) { return Kind::MINIMUMF; })
      .Case<arith::MaximumFOp>([](auto) { return Kind::MAXIMUMF; })
      .Default([](Operation *) { return std::nullopt; });
}

FailureOr<RowReduction> mlir::gpucg::matchRowReduction(linalg::LinalgOp op) {
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  if (reductionDims.size() != 1 ||
      reductionDims.front() != op.getNumLoops() - 1 ||
      op.getNumDpsInits() != 1 || op->getNumRegions() != 1)
    return failure();
  SmallVector<Operation *> combiners;
  Value reduced =
      matchReduction(op.getRegionOutputArgs(), /*redPos=*/0, combiners);
  if (!reduced || combiners.size() != 1)
    return failure();
  std::optional<gpu::AllReduceOperation> kind =
      getAllReduceOperation(combiners.front());
  std::optional<TypedAttr> neutral =
      arith::getNeutralElement(combiners.front());
  if (!kind || !neutral)
    return failure();
  return RowReduction{*kind, *neutral};
}

/// Whether `value` views a buffer of the kernel's own in the default memory
/// space: a temporary that each thread has a copy of.
static bool isThreadPrivate(Value value) {
  Value base = getRootMemref(value);
  if (!base.getDefiningOp<memref::AllocOp>() &&
      !base.getDefiningOp<memref::AllocaOp>())
    return false;
  Attribute space = cast<MemRefType>(base.getType()).getMemorySpace();
  return !space ||
         (isa<IntegerAttr>(space) && cast<IntegerAttr>(space).getInt() == 0);
}

/// The buffer a memref.atomic_rmw or memref.generic_atomic_rmw updates.
static Value getAtomicallyUpdatedBuffer(Operation *op) {
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op))
    return rmw.getMemref();
  return cast<memref::GenericAtomicRMWOp>(op).getMemref();
}

namespace {
/// How a WarpReduction workgroup runs one op of its row's tile.
enum class RowOpKind {
  /// Reduces the row into one element (matchRowReduction).
  Reduction,
  /// Elementwise over the row, writing a row.
  Elementwise,
  /// Over one element per row (a fill, a scaling of the row's total).
  Scalar,
  /// A copy between the kernel's temporaries (bufferization's).
  PrivateCopy,
  /// An atomic update of a kernel buffer with a value every thread has (the
  /// total of a row split across workgroups): thread 0 runs it.
  KernelAtomic,
};

/// Distributes the row program of one WarpReduction workgroup tile: the
/// linalg ops of the block of `root`, in order, each over the same row.
/// Every op over the row runs in a loop over the thread's steps (`v`
/// elements at tid * v, (tid + T) * v, ...), so that each element of the
/// row belongs to one thread in every op; a reduction then combines the
/// threads' partials, and every thread gets the total. Ops on one element
/// per row run in every thread on its own copies of the kernel's
/// temporaries, and in thread 0 where they write the kernel's buffers.
class RowProgramDistributor {
public:
  RowProgramDistributor(RewriterBase &rewriter, linalg::LinalgOp root,
                        int64_t numThreads, int64_t vectorWidth,
                        int64_t warpSize)
      : rewriter(rewriter), root(root), rootBlock(root->getBlock()),
        rootLoc(root.getLoc()), numThreads(numThreads),
        vectorWidth(vectorWidth), warpSize(warpSize),
        rowRanges(root.getStaticLoopRanges()) {}

  LogicalResult run();

private:
  std::optional<RowOpKind> classify(linalg::LinalgOp op) const;
  linalg::LinalgOp getRecomputableProducer(linalg::LinalgOp consumer,
                                           OpOperand *input) const;
  LogicalResult emitStep(linalg::LinalgOp op, Value step, int64_t width,
                         Value init);
  LogicalResult emitThreadLoop(linalg::LinalgOp op, Value init);
  LogicalResult emitReduction(linalg::LinalgOp op);
  LogicalResult emitBarrierBefore(Operation *op, bool distributed,
                                  bool inThread0);
  void moveIntoThread0(Operation *op, Value buffer);
  Value getThreadId();
  Value getConstantIndex(int64_t value);

  RewriterBase &rewriter;
  /// The root is erased with the rest of the program; its block and
  /// location are what the helpers use.
  linalg::LinalgOp root;
  Block *rootBlock;
  Location rootLoc;
  int64_t numThreads, vectorWidth, warpSize;
  SmallVector<int64_t> rowRanges;
  /// Ops computed again, one step at a time, in each of their consumers'
  /// loops instead of over the whole row.
  llvm::SmallPtrSet<Operation *, 4> recomputed;
  /// The recomputed producer of each input that reads one.
  DenseMap<OpOperand *, linalg::LinalgOp> recomputedInputs;
  /// Kernel buffers written by thread 0 alone, and by the threads' steps,
  /// since the last barrier.
  SmallVector<Value> writtenByThread0, writtenByThreads;
  /// Temporaries of the tile the threads' steps wrote, each thread its own
  /// elements into its own copy: only those elements can be read back.
  SmallVector<Value> privateRows;
  Value threadId;
};
} // namespace

std::optional<RowOpKind>
RowProgramDistributor::classify(linalg::LinalgOp op) const {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  if (ranges == ArrayRef<int64_t>(rowRanges)) {
    if (op.getNumParallelLoops() == op.getNumLoops())
      return op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity()
                 ? std::optional(RowOpKind::Elementwise)
                 : std::nullopt;
    if (succeeded(matchRowReduction(op)))
      return RowOpKind::Reduction;
    return std::nullopt;
  }
  if (op.getNumParallelLoops() == op.getNumLoops() &&
      llvm::all_of(ranges, [](int64_t r) { return r == 1; }))
    return RowOpKind::Scalar;
  return std::nullopt;
}

/// The op that computes `input` of `consumer`, if it can be computed again
/// one step of the row at a time in the consumer's loop instead of over the
/// whole row: elementwise over the row, before the consumer, into a buffer
/// of the kernel's that only it writes and that every reader reads along
/// the row (the identity) in the loop of the thread's steps, and whose own
/// inputs nothing writes in between.
linalg::LinalgOp
RowProgramDistributor::getRecomputableProducer(linalg::LinalgOp consumer,
                                               OpOperand *input) const {
  auto alloc = input->get().getDefiningOp<memref::AllocOp>();
  if (!alloc || !consumer.getMatchingIndexingMap(input).isIdentity())
    return nullptr;
  linalg::LinalgOp producer;
  Operation *lastReader = nullptr;
  for (Operation *user : alloc->getUsers()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp || linalgOp->getBlock() != rootBlock)
      return nullptr;
    if (llvm::is_contained(linalgOp.getDpsInits(), alloc.getResult())) {
      if (producer || classify(linalgOp) != RowOpKind::Elementwise ||
          llvm::is_contained(linalgOp.getDpsInputs(), alloc.getResult()))
        return nullptr;
      producer = linalgOp;
      continue;
    }
    std::optional<RowOpKind> kind = classify(linalgOp);
    if (kind != RowOpKind::Elementwise && kind != RowOpKind::Reduction)
      return nullptr;
    for (OpOperand *operand : linalgOp.getDpsInputOperands())
      if (operand->get() == alloc.getResult() &&
          !linalgOp.getMatchingIndexingMap(operand).isIdentity())
        return nullptr;
    if (!lastReader || lastReader->isBeforeInBlock(linalgOp))
      lastReader = linalgOp;
  }
  if (!producer || !producer->isBeforeInBlock(consumer))
    return nullptr;
  for (Operation *user : alloc->getUsers())
    if (user != producer.getOperation() && !producer->isBeforeInBlock(user))
      return nullptr;
  // What the producer reads must still hold its values at the last reader.
  SmallVector<Value> sources = llvm::map_to_vector(
      producer.getDpsInputs(), [](Value v) { return getRootMemref(v); });
  for (Operation *it = producer->getNextNode(); it && it != lastReader;
       it = it->getNextNode()) {
    SmallVector<Value> written;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(it))
      llvm::append_range(written, linalgOp.getDpsInits());
    else if (auto copy = dyn_cast<memref::CopyOp>(it))
      written.push_back(copy.getTarget());
    for (Value out : written)
      if (llvm::is_contained(sources, getRootMemref(out)))
        return nullptr;
  }
  return producer;
}

Value RowProgramDistributor::getThreadId() {
  if (!threadId) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(rootBlock);
    threadId = gpu::ThreadIdOp::create(rewriter, rootLoc, gpu::Dimension::x);
  }
  return threadId;
}

Value RowProgramDistributor::getConstantIndex(int64_t value) {
  return arith::ConstantIndexOp::create(rewriter, rootLoc, value);
}

/// Emits, at the insertion point (the body of a loop over the thread's
/// steps, whose offset along the row is `step`), `op` tiled to the step of
/// `width` elements: its recomputed producers first, each into a private
/// buffer of the step's size that it reads instead of the row; its output
/// `init` when given (a reduction's private partial), else the step's part
/// of its own.
LogicalResult RowProgramDistributor::emitStep(linalg::LinalgOp op, Value step,
                                              int64_t width, Value init) {
  Location loc = op.getLoc();
  SmallVector<OpFoldResult> offsets(rowRanges.size(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes;
  for (int64_t range : ArrayRef<int64_t>(rowRanges).drop_back())
    sizes.push_back(rewriter.getIndexAttr(range));
  offsets.back() = step;
  sizes.push_back(rewriter.getIndexAttr(width));
  SmallVector<int64_t> stepShape(rowRanges);
  stepShape.back() = width;

  SmallVector<std::pair<unsigned, Value>> stepInputs;
  for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands())) {
    linalg::LinalgOp producer = recomputedInputs.lookup(input);
    if (!producer)
      continue;
    Value buffer;
    {
      // One buffer for all steps, outside the loop.
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(rewriter.getInsertionBlock()->getParentOp());
      buffer = memref::AllocaOp::create(
          rewriter, loc,
          MemRefType::get(
              stepShape, getElementTypeOrSelf(producer.getDpsInits().front())));
    }
    if (failed(emitStep(producer, step, width, buffer)))
      return failure();
    stepInputs.push_back({static_cast<unsigned>(index), buffer});
  }
  FailureOr<TilingResult> tiled =
      cast<TilingInterface>(op.getOperation())
          .getTiledImplementation(rewriter, offsets, sizes);
  // Unreachable for linalg ops because MLIR 22's TilingInterface model for
  // them always succeeds; kept so that a future upstream change fails loudly
  // rather than crashing.
  if (failed(tiled))
    return op.emitOpError()
           << "could not be tiled to one vector of " << width << " per thread";
  auto stepOp = cast<linalg::LinalgOp>(tiled->tiledOps.front());
  rewriter.modifyOpInPlace(stepOp, [&] {
    if (init)
      stepOp.getDpsInitOperand(0)->set(init);
    for (auto [index, buffer] : stepInputs)
      stepOp.getDpsInputOperand(index)->set(buffer);
    stepOp->removeAttr("gpucg.lowering_config");
  });
  return success();
}

/// The loop over the thread's steps of the row, running `op` tiled to each
/// (into `init` when given), at the insertion point. A row of a run-time
/// size N takes the steps of its whole vectors, up to `N floordiv v * v`,
/// then a second loop over the rest, one element per thread and step (a
/// thread takes at most one when v is at most the thread count), so that
/// each element still belongs to the same thread in every op.
LogicalResult RowProgramDistributor::emitThreadLoop(linalg::LinalgOp op,
                                                    Value init) {
  Location loc = op.getLoc();
  AffineExpr s0 = rewriter.getAffineSymbolExpr(0);
  AffineExpr s1 = rewriter.getAffineSymbolExpr(1);
  Value lb = affine::AffineApplyOp::create(
      rewriter, loc, AffineMap::get(0, 1, s0 * vectorWidth),
      ValueRange{getThreadId()});
  auto emitLoop = [&](Value lower, Value upper, int64_t stride,
                      int64_t width) -> LogicalResult {
    auto loop = scf::ForOp::create(rewriter, loc, lower, upper,
                                   getConstantIndex(stride));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    return emitStep(op, loop.getInductionVar(), width, init);
  };
  if (!ShapedType::isDynamic(rowRanges.back()))
    return emitLoop(lb, getConstantIndex(rowRanges.back()),
                    numThreads * vectorWidth, vectorWidth);
  Value rowSize = getValueOrCreateConstantIndexOp(
      rewriter, loc, op.createLoopRanges(rewriter, loc).back().size);
  Value whole = affine::AffineApplyOp::create(
      rewriter, loc,
      AffineMap::get(0, 1, s0.floorDiv(vectorWidth) * vectorWidth),
      ValueRange{rowSize});
  if (failed(emitLoop(lb, whole, numThreads * vectorWidth, vectorWidth)))
    return failure();
  if (vectorWidth == 1)
    return success();
  Value tailLb = affine::AffineApplyOp::create(
      rewriter, loc, AffineMap::get(0, 2, s0 + s1),
      ValueRange{whole, getThreadId()});
  return emitLoop(tailLb, rowSize, numThreads, 1);
}

/// Moves `op`, which writes kernel buffer `buffer` (or a view of it), into
/// an scf.if that only thread 0 runs.
void RowProgramDistributor::moveIntoThread0(Operation *op, Value buffer) {
  Value isFirst =
      arith::CmpIOp::create(rewriter, op->getLoc(), arith::CmpIPredicate::eq,
                            getThreadId(), getConstantIndex(0));
  auto guarded = scf::IfOp::create(rewriter, op->getLoc(), isFirst);
  rewriter.moveOpBefore(op, guarded.thenBlock()->getTerminator());
  writtenByThread0.push_back(getRootMemref(buffer));
}

/// A gpu.barrier before `op` where it reads a kernel buffer that other
/// threads wrote since the last barrier: what thread 0 wrote, and what the
/// threads' steps wrote where `op` is not one of those steps reading its own
/// elements (`distributed` with the identity). Thread 0 itself (`inThread0`)
/// sees its own writes. Reading other threads' elements of a temporary of
/// the tile (each thread has its own copy) is an error.
LogicalResult RowProgramDistributor::emitBarrierBefore(Operation *op,
                                                       bool distributed,
                                                       bool inThread0) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  bool needed = false;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    Value base = getRootMemref(operand.get());
    bool ownElements = distributed && linalgOp &&
                       linalgOp.getMatchingIndexingMap(&operand).isIdentity();
    if (llvm::is_contained(privateRows, base) && !ownElements)
      return op->emitOpError()
             << "reads operand #" << operand.getOperandNumber()
             << ", a temporary of the WarpReduction tile whose elements the "
                "row's threads computed each into its own copy, other than "
                "one thread step at a time along the row; it cannot be split "
                "over the row's threads";
    if (!inThread0 && llvm::is_contained(writtenByThread0, base))
      needed = true;
    if (llvm::is_contained(writtenByThreads, base) && !ownElements)
      needed = true;
  }
  if (!needed)
    return success();
  gpu::BarrierOp::create(rewriter, op->getLoc());
  writtenByThread0.clear();
  writtenByThreads.clear();
  return success();
}

/// Replaces row reduction `op` by the threads' partials, their reduction
/// within and across warps, and the combination of the total with the
/// output: by every thread into its copy of a kernel temporary, by thread 0
/// into a kernel buffer.
LogicalResult RowProgramDistributor::emitReduction(linalg::LinalgOp op) {
  FailureOr<RowReduction> reduction = matchRowReduction(op);
  Value init = op.getDpsInitOperand(0)->get();
  auto initType = cast<MemRefType>(init.getType());
  Location loc = op.getLoc();
  MLIRContext *ctx = op->getContext();
  Type accType = initType.getElementType();
  rewriter.setInsertionPoint(op);
  if (failed(emitBarrierBefore(op, /*distributed=*/true, /*inThread0=*/false)))
    return failure();

  // 1. Each thread's partial, from the neutral element, in a private buffer
  //    that vectorization and the transfer optimizations keep in registers.
  auto privateType = MemRefType::get(initType.getShape(), accType);
  Value partial = memref::AllocaOp::create(rewriter, loc, privateType);
  Value neutral = arith::ConstantOp::create(rewriter, loc, reduction->neutral);
  linalg::FillOp::create(rewriter, loc, neutral, partial);
  if (failed(emitThreadLoop(op, partial)))
    return failure();
  // Indices of the output's one element (none for a 0-d output).
  Value zero = getConstantIndex(0);
  SmallVector<Value> zeros(initType.getRank(), zero);
  Value mine = memref::LoadOp::create(rewriter, loc, partial, zeros);

  // 2. The partials of each warp, then those of the warps.
  Value total =
      gpu::SubgroupReduceOp::create(rewriter, loc, mine, reduction->kind,
                                    /*uniform=*/true);
  int64_t numWarps = numThreads / warpSize;
  if (numWarps > 1) {
    auto sharedType = MemRefType::get(
        {numWarps}, accType, MemRefLayoutAttrInterface{},
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    Value shared = memref::AllocOp::create(rewriter, loc, sharedType);
    Value warpSizeValue = getConstantIndex(warpSize);
    Value lane =
        arith::RemUIOp::create(rewriter, loc, getThreadId(), warpSizeValue);
    Value warp =
        arith::DivUIOp::create(rewriter, loc, getThreadId(), warpSizeValue);
    Value isLeader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, lane, zero);
    auto write = scf::IfOp::create(rewriter, loc, isLeader);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(write.thenBlock()->getTerminator());
      memref::StoreOp::create(rewriter, loc, total, shared, warp);
    }
    gpu::BarrierOp::create(rewriter, loc);
    writtenByThread0.clear();
    writtenByThreads.clear();
    // Every warp reads the warps' partials (the neutral element past them)
    // and reduces them: uniform control flow for the subgroup reduction.
    Value last = getConstantIndex(numWarps - 1);
    Value index = arith::MinUIOp::create(rewriter, loc, lane, last);
    Value value = memref::LoadOp::create(rewriter, loc, shared, index);
    Value count = getConstantIndex(numWarps);
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lane, count);
    Value operand =
        arith::SelectOp::create(rewriter, loc, inRange, value, neutral);
    total = gpu::SubgroupReduceOp::create(rewriter, loc, operand,
                                          reduction->kind, /*uniform=*/true);
  }

  // 3. The total combined with the output's value: every thread has it, so
  //    each updates its own copy of a temporary; a kernel buffer thread 0.
  OpBuilder::InsertionGuard guard(rewriter);
  if (!isThreadPrivate(init)) {
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, getThreadId(), zero);
    auto store = scf::IfOp::create(rewriter, loc, isFirst);
    rewriter.setInsertionPoint(store.thenBlock()->getTerminator());
    writtenByThread0.push_back(getRootMemref(init));
  }
  Value old = memref::LoadOp::create(rewriter, loc, init, zeros);
  Value combined = vector::makeArithReduction(
      rewriter, loc, gpu::convertReductionKind(reduction->kind), total, old);
  memref::StoreOp::create(rewriter, loc, combined, init, zeros);
  return success();
}

// About 150 lines, kept whole: every op of the tile is found a place in the
// row program before anything changes (a failure leaves the IR alone), and
// the order of the moves after that (steps, recomputed temporaries, their
// removal) is the order of the row program itself.
LogicalResult RowProgramDistributor::run() {
  FailureOr<RowReduction> reduction = matchRowReduction(root);
  if (failed(reduction))
    return root.emitOpError()
           << "is not a reduction of its innermost loop with one combiner "
              "that gpu.subgroup_reduce performs (add, mul, min, max, and, "
              "or, xor); pipeline WarpReduction cannot split it over threads";
  if (!root.hasPureBufferSemantics())
    return root.emitOpError() << "must be bufferized before "
                                 "gpucg-distribute-reduction (run "
                                 "gpucg-bufferize)";
  auto initType = cast<MemRefType>(root.getDpsInitOperand(0)->get().getType());
  int64_t rowSize = rowRanges.back();
  if (!initType.hasStaticShape() ||
      llvm::any_of(initType.getShape(), [](int64_t s) { return s != 1; }) ||
      llvm::any_of(ArrayRef(rowRanges).drop_back(), ShapedType::isDynamic))
    return root.emitOpError()
           << "has a workgroup tile of type " << initType
           << " and loop ranges ["
           << llvm::make_range(rowRanges.begin(), rowRanges.end())
           << "]; pipeline WarpReduction needs one row per workgroup (every "
              "parallel loop tiled by 1)";
  if (!ShapedType::isDynamic(rowSize) && rowSize % vectorWidth != 0)
    return root.emitOpError()
           << "has rows of " << rowSize << " elements, not a multiple of its "
           << vectorWidth
           << " per thread and step (level-1 tile of the reduction loop)";
  if (numThreads % warpSize != 0 || numThreads / warpSize > warpSize)
    return root.emitOpError()
           << "is reduced by " << numThreads << " threads; pipeline "
           << "WarpReduction needs a multiple of the warp size " << warpSize
           << " and at most " << warpSize * warpSize;

  // Every op of the tile must have a place in the row program; find them
  // all before changing anything.
  SmallVector<std::pair<Operation *, RowOpKind>> program;
  for (Operation &it : rootBlock->without_terminator()) {
    auto op = dyn_cast<linalg::LinalgOp>(&it);
    if (!op) {
      // Bufferization copies a temporary that two ops update in place (a
      // fill both reductions start from): each thread copies its own.
      auto copy = dyn_cast<memref::CopyOp>(it);
      if ((copy && !isThreadPrivate(copy.getTarget())) ||
          isa<memref::StoreOp>(it))
        return it.emitOpError()
               << "writes a buffer of the kernel's in the workgroup tile of "
                  "a WarpReduction kernel, which distributes only linalg "
                  "ops over its row";
      if (copy)
        program.push_back({copy, RowOpKind::PrivateCopy});
      if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(it)) {
        Value buffer = getAtomicallyUpdatedBuffer(&it);
        if (!it.use_empty())
          return it.emitOpError()
                 << "in the workgroup tile of a WarpReduction kernel has its "
                    "old value read; only thread 0 runs the update";
        if (!isThreadPrivate(buffer))
          program.push_back({&it, RowOpKind::KernelAtomic});
      }
      continue;
    }
    std::optional<RowOpKind> kind = classify(op);
    if (!kind || !op.hasPureBufferSemantics()) {
      InFlightDiagnostic diag =
          op.emitOpError()
          << "is in the workgroup tile of WarpReduction root '"
          << root->getName() << "' but is neither a reduction of its "
          << "innermost loop like the root's (loop ranges "
          << "[" << llvm::make_range(rowRanges.begin(), rowRanges.end())
          << "]), nor elementwise over that row, "
          << "nor over one element per row; it cannot be split over the "
          << "row's threads";
      diag.attachNote(root.getLoc()) << "root here";
      return diag;
    }
    program.push_back({op, *kind});
  }
  // Elementwise ops into temporaries that all their readers can compute
  // again one step at a time (softmax's exponentials, read by the sum and
  // by the division) run only there.
  for (auto [it, kind] : program) {
    if (kind != RowOpKind::Elementwise && kind != RowOpKind::Reduction)
      continue;
    auto op = cast<linalg::LinalgOp>(it);
    for (OpOperand *input : op.getDpsInputOperands())
      if (linalg::LinalgOp producer = getRecomputableProducer(op, input))
        recomputedInputs[input] = producer;
  }
  for (auto [input, producer] : recomputedInputs)
    recomputed.insert(producer);

  for (auto [it, kind] : program) {
    if (recomputed.contains(it))
      continue;
    rewriter.setInsertionPoint(it);
    if (kind == RowOpKind::PrivateCopy) {
      if (failed(emitBarrierBefore(it, /*distributed=*/false,
                                   /*inThread0=*/false)))
        return failure();
      continue;
    }
    if (kind == RowOpKind::KernelAtomic) {
      if (failed(emitBarrierBefore(it, /*distributed=*/false,
                                   /*inThread0=*/true)))
        return failure();
      moveIntoThread0(it, getAtomicallyUpdatedBuffer(it));
      continue;
    }
    auto op = cast<linalg::LinalgOp>(it);
    switch (kind) {
    case RowOpKind::PrivateCopy:
    case RowOpKind::KernelAtomic:
      llvm_unreachable("handled above");
    case RowOpKind::Reduction:
      if (failed(emitReduction(op)))
        return failure();
      break;
    case RowOpKind::Elementwise: {
      if (failed(emitBarrierBefore(op, /*distributed=*/true,
                                   /*inThread0=*/false)) ||
          failed(emitThreadLoop(op, Value())))
        return failure();
      Value out = getRootMemref(op.getDpsInits().front());
      (isThreadPrivate(out) ? privateRows : writtenByThreads).push_back(out);
      break;
    }
    case RowOpKind::Scalar: {
      bool isPrivate = isThreadPrivate(op.getDpsInits().front());
      if (failed(emitBarrierBefore(op, /*distributed=*/false,
                                   /*inThread0=*/!isPrivate)))
        return failure();
      if (isPrivate)
        continue;
      // A kernel buffer: thread 0 writes it.
      moveIntoThread0(op, op.getDpsInits().front());
      continue;
    }
    }
    rewriter.eraseOp(op);
  }
  // The recomputed ops and their row-sized temporaries (with the views the
  // tiling left on them) go away.
  for (Operation *op : recomputed) {
    Value buffer = cast<linalg::LinalgOp>(op).getDpsInits().front();
    rewriter.eraseOp(op);
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      if (isa<memref::SubViewOp>(user) && user->use_empty())
        rewriter.eraseOp(user);
    if (buffer.use_empty())
      rewriter.eraseOp(buffer.getDefiningOp());
  }
  return success();
}

LogicalResult
mlir::gpucg::distributeReductionOverThreads(RewriterBase &rewriter,
                                            FunctionOpInterface funcOp) {
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  if (!info || info.getPipeline() != Pipeline::WarpReduction)
    return success();
  ArrayRef<int64_t> workgroup = info.getWorkgroupSize();
  if (workgroup.empty())
    return funcOp.emitOpError()
           << "has no workgroup_size in its gpucg.translation_info";
  if (workgroup.size() != 3 || workgroup[1] != 1 || workgroup[2] != 1)
    return funcOp.emitOpError()
           << "uses pipeline WarpReduction, which needs workgroup_size "
              "[x, 1, 1], got ["
           << llvm::make_range(workgroup.begin(), workgroup.end()) << "]";
  TargetAttr target = getTarget(funcOp);
  int64_t warpSize =
      info.getSubgroupSize().value_or(target ? target.getWarpSize() : 32);
  FailureOr<SmallVector<linalg::LinalgOp>> roots =
      getWorkgroupTileRoots(funcOp);
  if (failed(roots))
    return failure();
  for (linalg::LinalgOp root : *roots) {
    auto config =
        root->getAttrOfType<LoweringConfigAttr>("gpucg.lowering_config");
    ArrayRef<int64_t> level1 = config.getTileSizes(1);
    int64_t vectorWidth = level1.empty() ? 1 : level1.back();
    if (vectorWidth <= 0)
      return root.emitOpError()
             << "has level-1 tile " << vectorWidth
             << " on its reduction loop; pipeline WarpReduction reads a "
                "positive number of elements per thread and step";
    RowProgramDistributor distributor(rewriter, root, workgroup[0], vectorWidth,
                                      warpSize);
    if (failed(distributor.run()))
      return failure();
  }
  return success();
}

namespace {
struct DistributeReductionPass
    : public gpucg::impl::DistributeReductionBase<DistributeReductionPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(distributeReductionOverThreads(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
