//===- TensorCoreVectorization.cpp - Warp-level linalg to MMA-shaped vectors ===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// After gpucg-tile-and-distribute each warp owns static linalg ops on its
// warp tile. This pass turns them into vector ops cut to the MMA
// instruction's shape, the form upstream's VectorToGPU conversions take:
//   1. linalg::vectorize on every static linalg op but the workgroup-memory
//      copies (gpucg-distribute-shared-memory-copy's business);
//   2. multi_reduction(mul) to vector.contract, unit dims dropped,
//      populatePrepareVectorToMMAPatterns (canonical operand layouts);
//   3. vector.contract, its transfers and elementwise ops unrolled to the
//      instruction shape (M x N x K; operands M x K, K x N / N x K, M x N);
//   4. the accumulator's reads and writes hoisted out of the K loop, so
//      that it lives in registers across K steps.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_TENSORCOREVECTORIZATION
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Copies into or out of workgroup memory are distributed over all threads
/// by gpucg-distribute-shared-memory-copy, not vectorized per warp here.
static bool isWorkgroupMemoryCopy(linalg::LinalgOp op) {
  auto copy = dyn_cast<linalg::CopyOp>(op.getOperation());
  return copy && (isWorkgroupMemory(copy.getInputs().front().getType()) ||
                  isWorkgroupMemory(copy.getOutputs().front().getType()));
}

/// Native unroll shape of `contract`'s iteration space: the instruction's
/// M, N, K at its m, n, k dims, 1 elsewhere (batch).
static std::optional<SmallVector<int64_t>>
getContractNativeShape(vector::ContractionOp contract, ArrayRef<int64_t> inst) {
  SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
  unsigned numDims = maps[0].getNumDims();
  SmallVector<int64_t> shape(numDims, 1);
  for (unsigned dim = 0; dim < numDims; ++dim) {
    bool inLhs = maps[0].isFunctionOfDim(dim);
    bool inRhs = maps[1].isFunctionOfDim(dim);
    bool inAcc = maps[2].isFunctionOfDim(dim);
    if (inLhs && inAcc && !inRhs)
      shape[dim] = inst[0];
    else if (inRhs && inAcc && !inLhs)
      shape[dim] = inst[1];
    else if (inLhs && inRhs && !inAcc)
      shape[dim] = inst[2];
  }
  return shape;
}

/// Projects the contract's native shape through `map` (an operand's
/// indexing map) to the operand's shape.
static SmallVector<int64_t> projectShape(AffineMap map,
                                         ArrayRef<int64_t> iterShape) {
  SmallVector<int64_t> shape;
  for (AffineExpr expr : map.getResults())
    shape.push_back(iterShape[cast<AffineDimExpr>(expr).getPosition()]);
  return shape;
}

/// The unroll shape of every vector op feeding or fed by an MMA: the
/// contract itself, its operands' reads, and the accumulator's elementwise
/// users and writes (M x N).
static std::optional<SmallVector<int64_t>>
getNativeShape(Operation *op, ArrayRef<int64_t> inst) {
  if (auto contract = dyn_cast<vector::ContractionOp>(op))
    return getContractNativeShape(contract, inst);

  // A value used as a contract operand takes that operand's shape.
  auto operandShape = [&](Value value) -> std::optional<SmallVector<int64_t>> {
    for (OpOperand &use : value.getUses()) {
      auto contract = dyn_cast<vector::ContractionOp>(use.getOwner());
      if (!contract)
        continue;
      std::optional<SmallVector<int64_t>> iter =
          getContractNativeShape(contract, inst);
      if (!iter)
        return std::nullopt;
      unsigned idx = use.getOperandNumber();
      if (idx > 2)
        return std::nullopt;
      return projectShape(contract.getIndexingMapsArray()[idx], *iter);
    }
    return std::nullopt;
  };
  if (op->getNumResults() == 1 && isa<VectorType>(op->getResult(0).getType())) {
    Value result = op->getResult(0);
    if (auto shape = operandShape(result))
      return shape;
    // Once the contract is unrolled, its operands are read through slices
    // of one size: unroll to that size so each slice is a read of its own.
    std::optional<SmallVector<int64_t>> sliceShape;
    bool allSlices = !result.use_empty();
    for (Operation *user : result.getUsers()) {
      auto slice = dyn_cast<vector::ExtractStridedSliceOp>(user);
      if (!slice || slice.hasNonUnitStrides()) {
        allSlices = false;
        break;
      }
      SmallVector<int64_t> sizes = llvm::map_to_vector(
          slice.getSizes(), [](Attribute a) {
            return cast<IntegerAttr>(a).getInt();
          });
      if (sliceShape && *sliceShape != sizes) {
        allSlices = false;
        break;
      }
      sliceShape = sizes;
    }
    if (allSlices && sliceShape &&
        static_cast<int64_t>(sliceShape->size()) ==
            cast<VectorType>(result.getType()).getRank())
      return sliceShape;
  }

  // Anything else 2-D on the accumulator's tile: M x N of some contract in
  // the function with the same element type.
  VectorType type;
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    type = write.getVectorType();
  else if (op->getNumResults() == 1 &&
           OpTrait::hasElementwiseMappableTraits(op))
    type = dyn_cast<VectorType>(op->getResult(0).getType());
  if (!type || type.getRank() < 2)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> result;
  op->getParentOfType<FunctionOpInterface>().walk(
      [&](vector::ContractionOp contract) {
        if (getElementTypeOrSelf(contract.getAccType()) !=
            type.getElementType())
          return WalkResult::advance();
        std::optional<SmallVector<int64_t>> iter =
            getContractNativeShape(contract, inst);
        if (!iter)
          return WalkResult::advance();
        SmallVector<int64_t> acc =
            projectShape(contract.getIndexingMapsArray()[2], *iter);
        SmallVector<int64_t> shape(type.getRank(), 1);
        shape[type.getRank() - 2] = acc[acc.size() - 2];
        shape.back() = acc.back();
        result = shape;
        return WalkResult::interrupt();
      });
  return result;
}

/// The allocation (or argument) `value` is a view of.
static Value getRootMemref(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Whether `op` may touch memory other than through its memref operands.
static bool hasUnknownMemoryEffects(Operation *op) {
  if (isa<gpu::BarrierOp>(op) || isMemoryEffectFree(op))
    return false;
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  return !isa<MemoryEffectOpInterface>(op);
}

/// Moves one read/write pair of `loop` on the same loop-invariant location
/// out of the loop, carrying the vector in iter_args. The location must be a
/// view of a local allocation that nothing else in the loop touches.
/// Upstream's linalg::hoistRedundantVectorTransfers gives up on any buffer
/// that has views, which every warp's part of a promoted accumulator is.
static FailureOr<scf::ForOp> hoistOneAccumulator(RewriterBase &rewriter,
                                                 scf::ForOp loop) {
  Block *body = loop.getBody();
  for (auto read : body->getOps<vector::TransferReadOp>()) {
    if (read.getMask() || !loop.isDefinedOutsideOfLoop(read.getBase()) ||
        !llvm::all_of(read.getIndices(), [&](Value index) {
          return loop.isDefinedOutsideOfLoop(index);
        }))
      continue;
    vector::TransferWriteOp write;
    for (auto candidate : body->getOps<vector::TransferWriteOp>())
      if (candidate.getBase() == read.getBase() &&
          candidate.getIndices() == read.getIndices() &&
          candidate.getVectorType() == read.getVectorType() &&
          candidate.getPermutationMap() == read.getPermutationMap() &&
          !candidate.getMask() && read->isBeforeInBlock(candidate))
        write = candidate;
    if (!write)
      continue;
    Value root = getRootMemref(read.getBase());
    if (!root.getDefiningOp<memref::AllocOp>())
      continue;
    bool conflict = false;
    body->walk([&](Operation *op) {
      if (op == read || op == write || isa<ViewLikeOpInterface>(op))
        return;
      // The other pieces of the same accumulator, when provably disjoint.
      if (auto transfer = dyn_cast<VectorTransferOpInterface>(op))
        if (transfer.getBase() == read.getBase() &&
            vector::isDisjointTransferSet(
                transfer, cast<VectorTransferOpInterface>(read.getOperation())))
          return;
      if (hasUnknownMemoryEffects(op))
        conflict = true;
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()) &&
            getRootMemref(operand) == root)
          conflict = true;
    });
    if (conflict)
      continue;

    rewriter.moveOpBefore(read, loop);
    FailureOr<LoopLikeOpInterface> newLoop =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(
                rewriter, read.getResult(),
                /*replaceInitOperandUsesInLoop=*/true,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return SmallVector<Value>{write.getVector()};
                });
    if (failed(newLoop))
      return failure();
    auto forOp = cast<scf::ForOp>(newLoop->getOperation());
    rewriter.moveOpAfter(write, forOp);
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign(forOp->getResults().back());
    });
    return forOp;
  }
  return failure();
}

/// Keeps accumulators in registers across the K loops of `funcOp`.
static void hoistAccumulators(RewriterBase &rewriter,
                              FunctionOpInterface funcOp) {
  SmallVector<scf::ForOp> loops;
  funcOp.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    // The warp's view of the accumulator is loop-invariant once thread ids
    // and subviews are out of the loop.
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    FailureOr<scf::ForOp> current = loop;
    while (succeeded(current))
      if (FailureOr<scf::ForOp> next = hoistOneAccumulator(rewriter, *current);
          succeeded(next))
        current = next;
      else
        break;
  }
}

LogicalResult mlir::gpucg::vectorizeForTensorCores(
    RewriterBase &rewriter, FunctionOpInterface funcOp, MmaKind kind,
    ArrayRef<int64_t> instructionShape) {
  MLIRContext *ctx = funcOp.getContext();

  // 1. Vectorize the warp-level ops.
  SmallVector<linalg::LinalgOp> candidates;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (op.hasPureBufferSemantics() && !op.hasDynamicShape() &&
        !isWorkgroupMemoryCopy(op))
      candidates.push_back(op);
  });
  for (linalg::LinalgOp op : candidates) {
    rewriter.setInsertionPoint(op);
    // Contractions become vector.contract directly (with the element
    // extensions folded in), not multi_reduction(mul(ext, ext)).
    if (succeeded(linalg::vectorize(rewriter, op, /*inputVectorSizes=*/{},
                                    /*inputScalableVecDims=*/{},
                                    /*vectorizeNDExtract=*/false,
                                    /*flatten1DDepthwiseConv=*/false,
                                    /*assumeDynamicDimsMatchVecSizes=*/false,
                                    /*createNamedContraction=*/true)))
      rewriter.eraseOp(op);
  }

  // 2. Canonical contractions. The MMA preparation runs on its own: it
  //    transposes operands that the contraction patterns would fold back.
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateFoldArithExtensionPatterns(patterns);
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return funcOp.emitOpError()
             << "contraction canonicalization did not converge";
  }
  {
    RewritePatternSet patterns(ctx);
    populatePrepareVectorToMMAPatterns(patterns,
                                       /*useNvGpu=*/kind == MmaKind::MmaSync);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return funcOp.emitOpError() << "MMA preparation did not converge";
  }

  // A reduction that did not become a vector.contract (a body that is not
  // a multiply-add of the operands) has no MMA form: say so here, before
  // unrolling blows it up into thousands of scalar-shaped ops.
  WalkResult leftover = funcOp.walk([&](vector::MultiDimReductionOp op) {
    op.emitOpError()
        << "is a reduction that did not become a vector.contract (the "
           "contraction's body is not a multiply-add of its operands), which "
           "tensor cores cannot run";
    return WalkResult::interrupt();
  });
  if (leftover.wasInterrupted())
    return failure();

  // 3. Unroll to the instruction shape.
  {
    RewritePatternSet patterns(ctx);
    vector::UnrollVectorOptions options;
    options.setNativeShapeFn(
        [&](Operation *op) { return getNativeShape(op, instructionShape); });
    vector::populateVectorUnrollPatterns(patterns, options);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return funcOp.emitOpError() << "unrolling to the " << stringifyMmaKind(kind)
                                  << " instruction shape did not converge";
  }

  // 4. The accumulator in registers across the K loop.
  hoistAccumulators(rewriter, funcOp);
  return success();
}

namespace {
struct TensorCoreVectorizationPass
    : public gpucg::impl::TensorCoreVectorizationBase<
          TensorCoreVectorizationPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TranslationInfoAttr info = getTranslationInfo(funcOp);
    if (!info)
      return;
    std::optional<MmaKind> kind = info.getTensorCoreMmaKind();
    if (!kind)
      return; // Not a tensor-core kernel.
    if (failed(verifyMmaOption(funcOp, info, mma)))
      return signalPassFailure();
    // The instruction is the strategy's: level 2 of the root's config.
    SmallVector<int64_t, 3> inst;
    WalkResult found = funcOp.walk([&](linalg::LinalgOp op) {
      auto config =
          op->getAttrOfType<LoweringConfigAttr>("gpucg.lowering_config");
      if (!config)
        return WalkResult::advance();
      FailureOr<linalg::ContractionDimensions> dims =
          linalg::inferContractionDims(op);
      ArrayRef<int64_t> level2 = config.getTileSizes(2);
      if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
          dims->k.size() != 1 || level2.size() != op.getNumLoops()) {
        op.emitOpError() << "needs a contraction with one M, N and K loop and "
                            "a level-2 (instruction) tile size per loop for "
                            "tensor-core vectorization";
        return WalkResult::interrupt();
      }
      inst = {level2[dims->m.front()], level2[dims->n.front()],
              level2[dims->k.front()]};
      return WalkResult::interrupt();
    });
    if (inst.empty()) {
      if (!found.wasInterrupted())
        funcOp.emitOpError() << "has a tensor-core translation_info but no "
                                "op with a gpucg.lowering_config";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    if (failed(vectorizeForTensorCores(rewriter, funcOp, *kind, inst)))
      return signalPassFailure();
  }
};
} // namespace
