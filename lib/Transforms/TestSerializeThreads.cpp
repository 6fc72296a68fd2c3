//===- TestSerializeThreads.cpp - Run a workgroup's threads in sequence ---===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Test only. Thread-distributed kernels whose threads never synchronize
// compute the same result when the threads run one after another, which lets
// the CPU tests check gpucg-tile-and-distribute's numerics with mlir-runner.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_TESTSERIALIZETHREADS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

/// The block whose ops one thread runs: the body of the enclosing workgroup
/// loop, else the function body.
static Block *getWorkgroupBlock(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    auto forall = dyn_cast<scf::ForallOp>(parent);
    if (forall && gpucg::isWorkgroupLoop(forall))
      return forall.getBody();
  }
  return &op->getParentOfType<func::FuncOp>().getBody().front();
}

namespace {
struct TestSerializeThreadsPass
    : public gpucg::impl::TestSerializeThreadsBase<TestSerializeThreadsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    // Workgroup memory has no CPU lowering (upstream's LLVM conversion
    // reports the address space and carries on): refuse it here.
    WalkResult shared = funcOp.walk([&](Operation *op) {
      for (Type type : op->getResultTypes()) {
        auto memref = dyn_cast<MemRefType>(type);
        auto space = memref ? dyn_cast_if_present<gpu::AddressSpaceAttr>(
                                  memref.getMemorySpace())
                            : gpu::AddressSpaceAttr();
        if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
          continue;
        op->emitOpError()
            << "yields workgroup memory (" << type
            << "), which a kernel whose threads run one after another on the "
               "CPU does not have; gpucg-test-emulate-on-cpu runs such "
               "kernels";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (shared.wasInterrupted())
      return signalPassFailure();
    SmallVector<gpu::ThreadIdOp> threadIds;
    funcOp.walk([&](gpu::ThreadIdOp op) { threadIds.push_back(op); });
    if (threadIds.empty())
      return;
    auto *gpuDialect = getContext().getLoadedDialect<gpu::GPUDialect>();
    DenseI32ArrayAttr blockSize =
        gpuDialect->getKnownBlockSizeAttrHelper().getAttr(funcOp);
    if (!blockSize || blockSize.size() != 3) {
      funcOp.emitOpError() << "uses gpu.thread_id but has no "
                              "gpu.known_block_size to serialize its threads";
      return signalPassFailure();
    }
    // Barriers and collectives need the threads to run together.
    WalkResult barrier = funcOp.walk([&](Operation *op) {
      if (!isa<gpu::BarrierOp, gpu::SubgroupReduceOp, gpu::AllReduceOp,
               gpu::ShuffleOp>(op))
        return WalkResult::advance();
      op->emitOpError() << "synchronizes the threads of a "
                        << (isa<gpu::BarrierOp, gpu::AllReduceOp>(op)
                                ? "workgroup"
                                : "warp")
                        << "; they cannot run one after another";
      return WalkResult::interrupt();
    });
    if (barrier.wasInterrupted())
      return signalPassFailure();

    SetVector<Block *> blocks;
    for (gpu::ThreadIdOp op : threadIds)
      blocks.insert(getWorkgroupBlock(op));

    IRRewriter rewriter(&getContext());
    for (Block *block : blocks) {
      Operation *terminator = block->getTerminator();
      for (Value operand : terminator->getOperands())
        if (operand.getParentBlock() == block && !isa<BlockArgument>(operand)) {
          terminator->emitOpError()
              << "uses a value computed by the threads of a workgroup; they "
                 "cannot run one after another";
          return signalPassFailure();
        }
      // Loops z, y, x around everything but the terminator.
      rewriter.setInsertionPointToStart(block);
      Location loc = funcOp.getLoc();
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      SmallVector<Value, 3> ivs(3);
      Block *innermost = block;
      Operation *firstLoop = nullptr;
      for (int dim = 2; dim >= 0; --dim) {
        Value count =
            arith::ConstantIndexOp::create(rewriter, loc, blockSize[dim]);
        auto loop = scf::ForOp::create(rewriter, loc, zero, count, one);
        if (!firstLoop)
          firstLoop = loop;
        ivs[dim] = loop.getInductionVar();
        innermost = loop.getBody();
        rewriter.setInsertionPointToStart(innermost);
      }
      for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
               std::next(firstLoop->getIterator()), terminator->getIterator())))
        rewriter.moveOpBefore(&op, innermost->getTerminator());
      for (gpu::ThreadIdOp op : threadIds)
        if (firstLoop->isAncestor(op))
          rewriter.replaceOp(
              op, ivs[static_cast<unsigned>(op.getDimension())]);
    }
  }
};
} // namespace
