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

/// The op that computes `input` of `root` elementwise in the same tile, if
/// it can be computed one step of the row at a time instead: a linalg op in
/// the root's block before it, all parallel, with the root's loops, whose
/// only output is `input`'s buffer (a local allocation that nothing but the
/// two ops uses), indexed like the root indexes it, by the identity.
static linalg::LinalgOp getFusableProducer(linalg::LinalgOp root,
                                           OpOperand *input) {
  auto alloc = input->get().getDefiningOp<memref::AllocOp>();
  if (!alloc || !root.getMatchingIndexingMap(input).isIdentity())
    return nullptr;
  linalg::LinalgOp producer;
  for (Operation *user : alloc->getUsers()) {
    if (user == root.getOperation())
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp || producer || linalgOp->getBlock() != root->getBlock() ||
        !linalgOp->isBeforeInBlock(root))
      return nullptr;
    producer = linalgOp;
  }
  if (!producer || producer.getNumDpsInits() != 1 ||
      producer.getDpsInits().front() != alloc.getResult() ||
      producer.getNumLoops() != root.getNumLoops() ||
      producer.getNumParallelLoops() != producer.getNumLoops() ||
      !producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
           .isIdentity() ||
      llvm::is_contained(producer.getDpsInputs(), alloc.getResult()))
    return nullptr;
  return producer;
}

/// Distributes the reduction of one root op (a workgroup's row) over the
/// `numThreads` threads of its workgroup, `vectorWidth` elements per thread
/// and step.
static LogicalResult distributeRowReduction(RewriterBase &rewriter,
                                            linalg::LinalgOp op,
                                            int64_t numThreads,
                                            int64_t vectorWidth,
                                            int64_t warpSize) {
  FailureOr<RowReduction> reduction = matchRowReduction(op);
  if (failed(reduction))
    return op.emitOpError()
           << "is not a reduction of its innermost loop with one combiner "
              "that gpu.subgroup_reduce performs (add, mul, min, max, and, "
              "or, xor); pipeline WarpReduction cannot split it over threads";
  if (!op.hasPureBufferSemantics())
    return op.emitOpError() << "must be bufferized before "
                               "gpucg-distribute-reduction (run "
                               "gpucg-bufferize)";
  Value init = op.getDpsInitOperand(0)->get();
  auto initType = cast<MemRefType>(init.getType());
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rowSize = ranges.back();
  if (!initType.hasStaticShape() ||
      llvm::any_of(initType.getShape(), [](int64_t s) { return s != 1; }) ||
      ShapedType::isDynamic(rowSize))
    return op.emitOpError()
           << "has a workgroup tile of type " << initType << " and row size "
           << (ShapedType::isDynamic(rowSize) ? std::string("?")
                                              : std::to_string(rowSize))
           << "; pipeline WarpReduction needs one row per workgroup (every "
              "parallel loop tiled by 1) of static size";
  if (numThreads % warpSize != 0 || numThreads / warpSize > warpSize)
    return op.emitOpError()
           << "is reduced by " << numThreads << " threads; pipeline "
           << "WarpReduction needs a multiple of the warp size " << warpSize
           << " and at most " << warpSize * warpSize;

  // The tile's ops before the root that write its output (a fill of the
  // accumulator), for thread 0 alone.
  SmallVector<Operation *> initializers;
  for (Operation *it = op->getBlock()->empty() ? nullptr
                                               : &op->getBlock()->front();
       it && it != op.getOperation(); it = it->getNextNode())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(it))
      if (llvm::any_of(linalgOp.getDpsInits(),
                       [&](Value out) { return out == init; }))
        initializers.push_back(it);

  Location loc = op.getLoc();
  MLIRContext *ctx = op->getContext();
  Type accType = initType.getElementType();
  rewriter.setInsertionPoint(op);

  // Elementwise producers of the root's inputs fused into the tile (x * x
  // of a sum of squares): computed per step into a private buffer of the
  // step's size instead of by every thread over the whole row.
  SmallVector<std::pair<unsigned, linalg::LinalgOp>> producers;
  for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands()))
    if (linalg::LinalgOp producer = getFusableProducer(op, input))
      producers.push_back({static_cast<unsigned>(index), producer});

  // 1. Each thread's partial, from the neutral element, in a private buffer
  //    that vectorization and the transfer optimizations keep in registers.
  auto privateType = MemRefType::get(initType.getShape(), accType);
  Value partial = memref::AllocaOp::create(rewriter, loc, privateType);
  Value neutral = arith::ConstantOp::create(rewriter, loc, reduction->neutral);
  linalg::FillOp::create(rewriter, loc, neutral, partial);

  Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value lb = affine::AffineApplyOp::create(
      rewriter, loc,
      AffineMap::get(0, 1, rewriter.getAffineSymbolExpr(0) * vectorWidth),
      ValueRange{tid});
  Value ub = arith::ConstantIndexOp::create(rewriter, loc, rowSize);
  Value step =
      arith::ConstantIndexOp::create(rewriter, loc, numThreads * vectorWidth);
  auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step);
  {
    // The root and its fused producers, tiled to the thread's vector of the
    // row at the loop's offset: the root writes into the private partial,
    // each producer into a private buffer of the step's size that the root
    // reads instead of the row-sized one.
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
    SmallVector<OpFoldResult> offsets(ranges.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes;
    for (int64_t range : ArrayRef<int64_t>(ranges).drop_back())
      sizes.push_back(rewriter.getIndexAttr(range));
    offsets.back() = loop.getInductionVar();
    sizes.push_back(rewriter.getIndexAttr(vectorWidth));
    auto tileToStep =
        [&](linalg::LinalgOp source) -> FailureOr<linalg::LinalgOp> {
      FailureOr<TilingResult> tiled =
          cast<TilingInterface>(source.getOperation())
              .getTiledImplementation(rewriter, offsets, sizes);
      if (failed(tiled))
        return op.emitOpError() << "could not be tiled to one vector of "
                                << vectorWidth << " per thread";
      return cast<linalg::LinalgOp>(tiled->tiledOps.front());
    };

    SmallVector<int64_t> stepShape(ranges.begin(), ranges.end());
    stepShape.back() = vectorWidth;
    SmallVector<std::pair<unsigned, Value>> stepInputs;
    for (auto [index, producer] : producers) {
      Value step = memref::AllocaOp::create(
          rewriter, loc,
          MemRefType::get(
              stepShape, getElementTypeOrSelf(producer.getDpsInits().front())));
      FailureOr<linalg::LinalgOp> stepProducer = tileToStep(producer);
      if (failed(stepProducer))
        return failure();
      rewriter.modifyOpInPlace(*stepProducer, [&] {
        stepProducer->getDpsInitOperand(0)->set(step);
      });
      stepInputs.push_back({index, step});
    }
    FailureOr<linalg::LinalgOp> stepRoot = tileToStep(op);
    if (failed(stepRoot))
      return failure();
    rewriter.modifyOpInPlace(*stepRoot, [&] {
      stepRoot->getDpsInitOperand(0)->set(partial);
      for (auto [index, step] : stepInputs)
        stepRoot->getDpsInputOperand(index)->set(step);
      (*stepRoot)->removeAttr("gpucg.lowering_config");
    });
  }
  for (auto [index, producer] : producers)
    rewriter.eraseOp(producer);
  // Indices of the output's one element (none for a 0-d output).
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
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
    Value warpSizeValue =
        arith::ConstantIndexOp::create(rewriter, loc, warpSize);
    Value lane = arith::RemUIOp::create(rewriter, loc, tid, warpSizeValue);
    Value warp = arith::DivUIOp::create(rewriter, loc, tid, warpSizeValue);
    Value isLeader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, lane, zero);
    auto write = scf::IfOp::create(rewriter, loc, isLeader);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(write.thenBlock()->getTerminator());
      memref::StoreOp::create(rewriter, loc, total, shared, warp);
    }
    gpu::BarrierOp::create(rewriter, loc);
    // Every warp reads the warps' partials (the neutral element past them)
    // and reduces them: uniform control flow for the subgroup reduction.
    Value last = arith::ConstantIndexOp::create(rewriter, loc, numWarps - 1);
    Value index = arith::MinUIOp::create(rewriter, loc, lane, last);
    Value value = memref::LoadOp::create(rewriter, loc, shared, index);
    Value count = arith::ConstantIndexOp::create(rewriter, loc, numWarps);
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, lane, count);
    Value operand =
        arith::SelectOp::create(rewriter, loc, inRange, value, neutral);
    total = gpu::SubgroupReduceOp::create(rewriter, loc, operand,
                                          reduction->kind, /*uniform=*/true);
  }

  // 3. Thread 0 adds the row's total into the output. What initializes the
  //    output in the tile (a fill) and what consumes it (fused elementwise
  //    consumers, and the views they use: the rest of the tile) run there
  //    too: run by every thread they would race with thread 0's store.
  Value isFirst =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid, zero);
  auto store = scf::IfOp::create(rewriter, loc, isFirst);
  Operation *yield = store.thenBlock()->getTerminator();
  for (Operation *initializer : initializers)
    rewriter.moveOpBefore(initializer, yield);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(yield);
    Value old = memref::LoadOp::create(rewriter, loc, init, zeros);
    Value combined = vector::makeArithReduction(
        rewriter, loc, gpu::convertReductionKind(reduction->kind), total, old);
    memref::StoreOp::create(rewriter, loc, combined, init, zeros);
  }
  Operation *terminator = op->getBlock()->getTerminator();
  SmallVector<Operation *> consumers;
  for (Operation *it = op->getNextNode(); it != terminator;
       it = it->getNextNode())
    consumers.push_back(it);
  for (Operation *consumer : consumers)
    rewriter.moveOpBefore(consumer, yield);
  rewriter.eraseOp(op);
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
    if (failed(distributeRowReduction(rewriter, root, workgroup[0], vectorWidth,
                                      warpSize)))
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
