//===- MultiBuffering.cpp - Multi-buffer workgroup memory of the K loop ---===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_MULTIBUFFERING
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Whether `value` is `buffer` or a view of it.
static bool isViewOf(Value value, Value buffer) {
  while (value != buffer) {
    auto view = value.getDefiningOp<ViewLikeOpInterface>();
    if (!view)
      return false;
    value = view.getViewSource();
  }
  return true;
}

/// Whether each iteration of `loop` writes `buffer` before reading it: the
/// first op of the body (in program order) that touches the buffer through a
/// view copies into it, or fills the whole of it (a partial tile's padding,
/// PaddedTileCopy). Then no data flows from one iteration to the next, and
/// the iterations may use different buffers.
static bool isOverwrittenEachIteration(scf::ForOp loop, Value buffer) {
  Operation *first = nullptr;
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ViewLikeOpInterface>(op))
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      if (isa<MemRefType>(operand.getType()) && isViewOf(operand, buffer)) {
        first = op;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (!first)
    return false;
  if (auto copy = dyn_cast<linalg::CopyOp>(first))
    return isViewOf(copy.getOutputs().front(), buffer) &&
           !isViewOf(copy.getInputs().front(), buffer);
  if (auto copy = dyn_cast<memref::CopyOp>(first))
    return isViewOf(copy.getTarget(), buffer) &&
           !isViewOf(copy.getSource(), buffer);
  if (auto fill = dyn_cast<linalg::FillOp>(first))
    return fill.hasPureBufferSemantics() &&
           fill.getOutputs().front() == buffer;
  return false;
}

/// Multi-buffers `alloc`, whose users are all in `loop`, `numBuffers` times.
static LogicalResult multiBufferInLoop(RewriterBase &rewriter,
                                       FunctionOpInterface funcOp,
                                       memref::AllocOp alloc, scf::ForOp loop,
                                       unsigned numBuffers) {
  if (!isOverwrittenEachIteration(loop, alloc.getResult()))
    return alloc.emitOpError()
           << "cannot be multi-buffered " << numBuffers
           << " times: an iteration of its loop reads it before writing it "
              "(data carried from one iteration to the next)";
  // Ownership of the analysis is ours (above); upstream's only accepts a
  // memref.copy into the whole buffer.
  FailureOr<memref::AllocOp> multiBuffered = memref::multiBuffer(
      rewriter, alloc, numBuffers, /*skipOverrideAnalysis=*/true);
  if (failed(multiBuffered))
    return alloc.emitOpError()
           << "cannot be multi-buffered " << numBuffers
           << " times: its users are not all directly inside one scf.for "
              "with a single induction variable";
  // Say what the new leading dimension means, so that later passes
  // (software pipelining) need not recognise the views upstream made.
  auto *dialect = funcOp->getContext()->getOrLoadDialect<GpucgDialect>();
  dialect->getNumBuffersAttrHelper().setAttr(
      *multiBuffered,
      rewriter.getI64IntegerAttr(static_cast<int64_t>(numBuffers)));
  return success();
}

LogicalResult mlir::gpucg::multiBufferWorkgroupAllocs(
    RewriterBase &rewriter, FunctionOpInterface funcOp, unsigned numBuffers) {
  if (funcOp.isExternal())
    return success();
  Block &entry = funcOp.getFunctionBody().front();

  // Hoist. Workgroup memory lives as long as the workgroup, so a static
  // allocation may move out of any loop or branch.
  SmallVector<memref::AllocOp> allocs;
  funcOp.walk([&](memref::AllocOp alloc) {
    if (isWorkgroupMemory(alloc.getType()) && alloc.getType().hasStaticShape())
      allocs.push_back(alloc);
  });
  // Hoisted allocations keep their relative order, ahead of everything else.
  Block::iterator insertionPoint = entry.begin();
  for (memref::AllocOp alloc : allocs) {
    if (alloc->getBlock() == &entry)
      continue;
    rewriter.moveOpBefore(alloc, &entry, insertionPoint);
    insertionPoint = std::next(alloc->getIterator());
  }
  if (numBuffers < 2)
    return success();

  for (memref::AllocOp alloc : allocs) {
    // Allocations used outside loops are not the K loop's buffers.
    SetVector<scf::ForOp> loops;
    bool onlyInLoops = true;
    for (Operation *user : alloc->getUsers()) {
      auto parent = user->getParentOfType<scf::ForOp>();
      if (!parent || !funcOp->isAncestor(parent)) {
        onlyInLoops = false;
        break;
      }
      loops.insert(parent);
    }
    if (!onlyInLoops || loops.empty())
      continue;
    // A user in a loop nested in another user's loop (a partial tile's
    // matmul distributed over threads inside its K loop) belongs to the
    // outer loop, which carries the buffer's stages.
    SmallVector<scf::ForOp> outermost;
    for (scf::ForOp loop : loops)
      if (llvm::none_of(loops, [&](scf::ForOp other) {
            return other != loop && other->isAncestor(loop);
          }))
        outermost.push_back(loop);
    // The K loops of a specialized full tile and of its partial remainder
    // never run together: each gets its own allocation, which
    // gpucg-pack-shared-memory-alloc lets them share bytes. Only when each
    // loop overwrites the buffer before reading it: otherwise data flows
    // from one loop to the next through it.
    if (outermost.size() > 1 &&
        !llvm::all_of(outermost, [&](scf::ForOp loop) {
          return isOverwrittenEachIteration(loop, alloc.getResult());
        })) {
      InFlightDiagnostic diag =
          alloc.emitOpError()
          << "cannot be multi-buffered " << numBuffers << " times: its users "
          << "are in " << outermost.size()
          << " different scf.for loops, and multi-buffering needs them all "
             "in one";
      for (scf::ForOp other : outermost)
        diag.attachNote(other.getLoc()) << "a loop with a user";
      return diag;
    }
    SmallVector<std::pair<memref::AllocOp, scf::ForOp>> perLoop = {
        {alloc, outermost.front()}};
    for (scf::ForOp other : ArrayRef(outermost).drop_front()) {
      rewriter.setInsertionPointAfter(alloc);
      auto copy = cast<memref::AllocOp>(rewriter.clone(*alloc));
      rewriter.replaceUsesWithIf(
          alloc.getResult(), copy.getResult(),
          [&](OpOperand &use) { return other->isAncestor(use.getOwner()); });
      perLoop.push_back({copy, other});
    }
    for (auto [buffer, loop] : perLoop)
      if (failed(multiBufferInLoop(rewriter, funcOp, buffer, loop, numBuffers)))
        return failure();
  }
  return success();
}

namespace {
struct MultiBufferingPass
    : public gpucg::impl::MultiBufferingBase<MultiBufferingPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    unsigned count = numBuffers;
    if (count == 0) {
      TranslationInfoAttr info = getTranslationInfo(funcOp);
      count = info ? info.getPipelineDepth() : 1;
    }
    IRRewriter rewriter(&getContext());
    if (failed(multiBufferWorkgroupAllocs(rewriter, funcOp, count)))
      return signalPassFailure();
  }
};
} // namespace
