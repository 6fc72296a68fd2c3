//===- TensorCoreVectorization.cpp - Warp linalg to MMA-shaped vectors ---===//
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
//   1. linalg::vectorize on every static linalg op but the workgroup-wide
//      copies (gpucg-distribute-shared-memory-copy's business);
//   2. multi_reduction(mul) to vector.contract, unit dims dropped,
//      populatePrepareVectorToMMAPatterns (canonical operand layouts);
//   3. vector.contract, its transfers and elementwise ops unrolled to the
//      instruction shape (M x N x K; operands M x K, K x N / N x K, M x N);
//   4. the accumulator's reads and writes hoisted out of the K loop, so
//      that it lives in registers across K steps;
//   5. its initial value forwarded from what initialized it (a fill's
//      constant, a read of C), and the initializing writes, overwritten
//      after the K loop, erased;
//   6. a barrier before the accumulator is written back to workgroup memory,
//      which ends the lifetime of the operands' buffers there.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_TENSORCOREVECTORIZATION
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

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
      SmallVector<int64_t> sizes =
          llvm::map_to_vector(slice.getSizes(), [](Attribute a) {
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


//===----------------------------------------------------------------------===//
// Accumulator initialization
//===----------------------------------------------------------------------===//
//
// The staged accumulator is initialized by each warp in workgroup memory
// (a fill, or a copy of its part of C) and read back at once for the K loop.
// Forwarding the written vector to that read and erasing the write, which
// the write-back after the K loop overwrites, leaves the staging buffer
// untouched until then. Upstream's vector::transferOpflowOpt does the same
// for every read, the consumers' reads of the result included; MLIR 22's
// MMA conversions cannot take a fragment feeding an elementwise op whose
// other operands are no fragments (a bias), so gpucg forwards into
// accumulators only.
//
// Sound for the threads of a workgroup, not only for one: a write is
// forwarded only to a read of the same location through the same index
// values (the same thread's), and the warps' parts of a tile are disjoint,
// so every other access of the location is an op the scans below see.

/// Whether `a` and `b` access the same vector of the same buffer value.
static bool isSameLocation(vector::TransferWriteOp a,
                           vector::TransferReadOp b) {
  return a.getBase() == b.getBase() && a.getIndices() == b.getIndices() &&
         a.getVectorType() == b.getVectorType() &&
         a.getPermutationMap() == b.getPermutationMap() && !a.getMask() &&
         !b.getMask() && !a.hasOutOfBoundsDim() && !b.hasOutOfBoundsDim();
}

/// Whether `op`, or an op nested in it, may access the location `xfer`
/// accesses in `root` (the distinct buffer `xfer`'s base views): any access
/// of `root` does, but one through the same base at a provably disjoint
/// location (another piece of the accumulator); so does any op with unknown
/// memory effects.
static bool mayTouch(Operation *op, Value root,
                     VectorTransferOpInterface xfer) {
  bool touches = false;
  op->walk([&](Operation *nested) {
    if (touches || isa<ViewLikeOpInterface, gpu::BarrierOp>(nested))
      return;
    if (auto other = dyn_cast<VectorTransferOpInterface>(nested))
      if (other.getBase() == xfer.getBase() &&
          vector::isDisjointTransferSet(other, xfer))
        return;
    if (hasUnknownMemoryEffects(nested))
      touches = true;
    for (Value operand : nested->getOperands())
      if (isa<MemRefType>(operand.getType()) && getRootMemref(operand) == root)
        touches = true;
  });
  return touches;
}

/// The transfer_write whose vector `read` reads back: the last op before it
/// in its block that may touch the location, if it is a write of exactly
/// that location. Null otherwise.
static vector::TransferWriteOp getForwardedWrite(vector::TransferReadOp read) {
  Value root = getRootMemref(read.getBase());
  if (!isDistinctBuffer(root))
    return nullptr;
  auto xfer = cast<VectorTransferOpInterface>(read.getOperation());
  for (Operation *op = read->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto write = dyn_cast<vector::TransferWriteOp>(op))
      if (isSameLocation(write, read))
        return write;
    if (mayTouch(op, root, xfer))
      return nullptr;
  }
  return nullptr;
}

/// Whether `write` is overwritten, before anything may read it, by a later
/// write of the same location in its block.
static bool isOverwritten(vector::TransferWriteOp write) {
  Value root = getRootMemref(write.getBase());
  auto xfer = cast<VectorTransferOpInterface>(write.getOperation());
  for (Operation *op = write->getNextNode(); op; op = op->getNextNode()) {
    if (auto later = dyn_cast<vector::TransferWriteOp>(op))
      if (later.getBase() == write.getBase() &&
          later.getIndices() == write.getIndices() &&
          later.getVectorType() == write.getVectorType() &&
          later.getPermutationMap() == write.getPermutationMap() &&
          !later.getMask() && !later.hasOutOfBoundsDim())
        return true;
    if (mayTouch(op, root, xfer))
      return false;
  }
  return false;
}

/// Whether `op`, or an op nested in it, may write memory.
static bool mayWriteMemory(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return mightHaveEffect<MemoryEffects::Write>(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Puts a gpu.barrier before `op` unless one precedes it with only ops in
/// between that `skip` accepts.
static void insertBarrierBefore(RewriterBase &rewriter, Operation *op,
                                function_ref<bool(Operation *)> skip) {
  Operation *prev = op->getPrevNode();
  while (prev && !isa<gpu::BarrierOp>(prev) && skip(prev))
    prev = prev->getPrevNode();
  if (prev && isa<gpu::BarrierOp>(prev))
    return;
  rewriter.setInsertionPoint(op);
  gpu::BarrierOp::create(rewriter, op->getLoc());
}

/// Forwards to each read of an accumulator's first value (an init of a K
/// loop, or a contraction's accumulator) the vector written there just
/// before, and erases the writes that are then overwritten unread. A read
/// of workgroup memory it cannot forward (the staged accumulator
/// initialized in an unexpected way) gets a barrier before it instead: the
/// conversions read it as fragments, elements other lanes wrote.
static void forwardAccumulatorInits(RewriterBase &rewriter,
                                    FunctionOpInterface funcOp) {
  SmallVector<vector::TransferReadOp> reads;
  funcOp.walk([&](vector::TransferReadOp read) {
    if (llvm::any_of(read->getUses(), [](OpOperand &use) {
          auto contract = dyn_cast<vector::ContractionOp>(use.getOwner());
          return isa<scf::ForOp>(use.getOwner()) ||
                 (contract && use.get() == contract.getAcc());
        }))
      reads.push_back(read);
  });
  SetVector<Operation *> forwardedWrites;
  for (vector::TransferReadOp read : reads) {
    vector::TransferWriteOp write = getForwardedWrite(read);
    // Only what the MMA conversions take as an accumulator: a constant, or a
    // read (of C).
    if (write && !write.getVector().getDefiningOp<arith::ConstantOp>() &&
        !write.getVector().getDefiningOp<vector::TransferReadOp>())
      write = nullptr;
    if (!write) {
      // Read as mma fragments, the accumulator holds elements other lanes
      // may have written: they must be visible.
      if (isWorkgroupMemory(read.getBase().getType()))
        insertBarrierBefore(rewriter, read,
                            [](Operation *op) { return !mayWriteMemory(op); });
      continue;
    }
    rewriter.replaceOp(read, write.getVector());
    forwardedWrites.insert(write);
  }
  for (Operation *op : forwardedWrites)
    if (isOverwritten(cast<vector::TransferWriteOp>(op)))
      rewriter.eraseOp(op);
}

//===----------------------------------------------------------------------===//
// Write-back
//===----------------------------------------------------------------------===//

/// Whether `write` writes an accumulator back to workgroup memory: the
/// result of a vector.contract or of a loop carrying it (hoisted).
static bool isAccumulatorWriteBack(vector::TransferWriteOp write) {
  Value value = write.getVector();
  return isWorkgroupMemory(write.getBase().getType()) &&
         (value.getDefiningOp<vector::ContractionOp>() ||
          value.getDefiningOp<scf::ForOp>());
}

/// Puts a gpu.barrier before the first write-back of accumulators to
/// workgroup memory in each block, unless one is there. Other warps may
/// still read the operands' workgroup buffers (ldmatrix of the last K step);
/// the barrier ends their lifetime, so that gpucg-pack-shared-memory-alloc
/// lets the staged accumulator reuse their bytes.
static void separateAccumulatorWriteBack(RewriterBase &rewriter,
                                         FunctionOpInterface funcOp) {
  llvm::SmallPtrSet<Block *, 4> done;
  funcOp.walk([&](vector::TransferWriteOp write) {
    if (isAccumulatorWriteBack(write) && done.insert(write->getBlock()).second)
      insertBarrierBefore(rewriter, write, isMemoryEffectFree);
  });
}

/// Rewrites `generic` as the linalg.contract with its indexing maps when
/// that op's implicit body (casts of A and B to C's type, multiply, add)
/// is exactly `generic`'s, so nothing about the arithmetic changes.
/// (linalg::specializeGenericOp would be the upstream way, but MLIR 22.1's
/// drops a transposed B's map when it makes a batch_matmul.)
static FailureOr<linalg::ContractOp>
convertGenericToContract(RewriterBase &rewriter, linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1 ||
      generic.getNumResults() != 0 ||
      !linalg::isaContractionOpInterface(generic))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(generic);
  auto contract = linalg::ContractOp::create(
      rewriter, generic.getLoc(), generic.getDpsInputs(),
      generic.getDpsInits(), generic.getIndexingMaps());
  if (!OperationEquivalence::isRegionEquivalentTo(
          &generic.getRegion(), &contract.getRegion(),
          OperationEquivalence::IgnoreLocations)) {
    rewriter.eraseOp(contract);
    return failure();
  }
  contract->setDiscardableAttrs(generic->getDiscardableAttrDictionary());
  rewriter.eraseOp(generic);
  return contract;
}

LogicalResult
mlir::gpucg::vectorizeForTensorCores(RewriterBase &rewriter,
                                     FunctionOpInterface funcOp, MmaKind kind,
                                     ArrayRef<int64_t> instructionShape) {
  MLIRContext *ctx = funcOp.getContext();

  // 1. Vectorize the warp-level ops (a partial tile's too: its MMA runs on
  //    full tile buffers). What is left dynamically shaped (a partial
  //    tile's consumers, one element per thread) stays linalg for the loop
  //    lowering.
  SmallVector<linalg::LinalgOp> candidates;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (op.hasPureBufferSemantics() && !op.hasDynamicShape() &&
        !isWorkgroupCopy(op))
      candidates.push_back(op);
  });
  for (linalg::LinalgOp op : candidates) {
    rewriter.setInsertionPoint(op);
    // A linalg.generic contraction vectorizes as broadcasts and a
    // multi_reduction, which the contraction patterns below fold back only
    // for some operand layouts (not a batched (n, k) B, say); left that way
    // it unrolls to thousands of dot products. As a linalg.contract (same
    // indexing maps, same body) it vectorizes straight to one
    // vector.contract.
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
      if (FailureOr<linalg::ContractOp> contract =
              convertGenericToContract(rewriter, generic);
          succeeded(contract))
        op = *contract;
    }
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
    // A generic contraction reads its operands broadcast over the loop it
    // does not use ((m, k) over n): as plain reads and vector.broadcast ops,
    // which the contraction patterns fold into the indexing maps.
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
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
    // Unreachable for MLIR 22 because each of these patterns moves a
    // contraction toward one canonical operand layout and none undoes
    // another; kept so that a future upstream change fails loudly rather
    // than crashing.
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
      return funcOp.emitOpError()
             << "unrolling to the " << stringifyMmaKind(kind)
             << " instruction shape did not converge";
  }

  // 4. The accumulator in registers across the K loop.
  hoistLoopInvariantTransfers(rewriter, funcOp);

  // 5. Its first value straight from what initialized it: the fill's
  //    constant or the read of C, not a round trip through memory.
  forwardAccumulatorInits(rewriter, funcOp);

  // 6. The accumulator's write-back in a phase of its own.
  separateAccumulatorWriteBack(rewriter, funcOp);
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
