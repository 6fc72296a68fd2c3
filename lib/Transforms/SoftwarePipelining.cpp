//===- SoftwarePipelining.cpp - Pipeline the K loop over async copies -----===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Issues the global-to-workgroup async copies of future K steps while the
// current one computes, with upstream scf::pipelineForLoop. gpucg's part is
// the schedule and what makes it valid:
//   - every iteration commits exactly one group of async copies (one
//     nvgpu.device_async_create_group after all copy-issuing ops, the
//     per-loop groups and waits removed), so that "at most W groups pending"
//     means "the data of iteration i has landed";
//   - a single wait, for the stage that reads the copies, allowing
//     depth - 1 (load-global-stage0) or depth - 2 (nvidia-tensorcore) groups
//     in flight;
//   - the barrier before the copies stays with them (nobody still reads the
//     buffer being refilled), the one after the wait with the readers;
//   - the schedule is refused, with an error, when the loop has fewer
//     iterations than stages or a copied-to buffer has fewer copies than the
//     depth (a copy would overwrite data still to be read);
//   - register-staged copies (a global vector read stored whole into
//     workgroup memory, where the rows are too narrowly aligned for
//     cp.async) are split: the read a stage before the readers of workgroup
//     memory, early in the iteration, the store after the MMAs.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_SOFTWAREPIPELINING
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// The top-level op of `loop`'s body that contains `op`.
static Operation *getTopLevelOp(scf::ForOp loop, Operation *op) {
  while (op->getParentOp() != loop.getOperation())
    op = op->getParentOp();
  return op;
}

/// Whether `op` reads workgroup memory into registers (the consumers of the
/// copies).
static bool isSharedMemoryLoad(Operation *op) {
  return isa<gpu::SubgroupMmaLoadMatrixOp, nvgpu::LdMatrixOp, vector::LoadOp,
             vector::TransferReadOp, memref::LoadOp>(op);
}

/// How many copies of the workgroup buffer behind `value` (through views)
/// exist: the `gpucg.num_buffers` that gpucg-multi-buffering put on its
/// allocation, else 1.
static int64_t getNumBufferCopies(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  auto *dialect = value.getContext()->getLoadedDialect<GpucgDialect>();
  Operation *alloc = value.getDefiningOp();
  if (!dialect || !alloc)
    return 1;
  IntegerAttr count = dialect->getNumBuffersAttrHelper().getAttr(alloc);
  return count ? count.getInt() : 1;
}

namespace {
/// A register-staged copy into workgroup memory at the top level of a K
/// loop: a vector read of global memory whose value only a vector store
/// (or transfer_write) into workgroup memory uses, what
/// gpucg-distribute-shared-memory-copy makes of a copy whose global rows
/// are too narrowly aligned for cp.async.
struct StagedCopy {
  Operation *read;
  Operation *store;
  /// The workgroup memref `store` writes.
  Value buffer;
};
} // namespace

/// The global memref `op` reads, if it is a vector read of global memory.
static Value getGlobalVectorReadBase(Operation *op) {
  Value base;
  if (auto read = dyn_cast<vector::TransferReadOp>(op))
    base = read.getBase();
  else if (auto load = dyn_cast<vector::LoadOp>(op))
    base = load.getBase();
  if (!base || !isa<MemRefType>(base.getType()) ||
      isWorkgroupMemory(base.getType()))
    return Value();
  return base;
}

/// The register-staged copies at the top level of `loop`'s body.
static SmallVector<StagedCopy> getStagedCopies(scf::ForOp loop) {
  SmallVector<StagedCopy> copies;
  for (Operation &op : loop.getBody()->without_terminator()) {
    Value stored, base;
    if (auto store = dyn_cast<vector::StoreOp>(op)) {
      stored = store.getValueToStore();
      base = store.getBase();
    } else if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
      stored = write.getVector();
      base = write.getBase();
    } else {
      continue;
    }
    if (!isa<MemRefType>(base.getType()) || !isWorkgroupMemory(base.getType()))
      continue;
    Operation *read = stored.getDefiningOp();
    if (!read || read->getBlock() != loop.getBody() ||
        !getGlobalVectorReadBase(read) || !stored.hasOneUse())
      continue;
    copies.push_back({read, &op, base});
  }
  return copies;
}

namespace {
/// What the pipelining of one K loop works with: its copies, and the stage
/// each kind of op runs in.
struct PipelinePlan {
  unsigned depth;
  PipelineSchedule schedule;
  SmallVector<nvgpu::DeviceAsyncCopyOp> copies;
  SmallVector<StagedCopy> stagedCopies;
  /// The register-staged copies' stage: one before the loads from
  /// workgroup memory (the readers' stage).
  unsigned stagedStage;
  /// The first stage anything runs in (without async copies, the staged
  /// copies').
  unsigned firstStage;
  /// Commit groups a wait lets stay in flight.
  unsigned inFlight;
  bool dynamicTripCount;
};

/// The loop's async copies regrouped: one commit group per iteration.
struct CommitGroup {
  /// The loop's top-level ops that issue the async copies.
  SetVector<Operation *> issuers;
  /// The barrier before the first copy, which guards the buffers the copies
  /// refill; null if there is none.
  gpu::BarrierOp guard;
  nvgpu::DeviceAsyncCreateGroupOp commit;
  nvgpu::DeviceAsyncWaitOp wait;
};
} // namespace

/// Every buffer a copy writes must have a copy per stage in use: `depth` for
/// the async copies, one per stage from the staged copies' to the last for
/// the register-staged ones.
static LogicalResult verifyBufferCopies(const PipelinePlan &plan) {
  for (StagedCopy copy : plan.stagedCopies) {
    int64_t buffers = getNumBufferCopies(copy.buffer);
    int64_t needed = plan.depth - plan.stagedStage;
    if (buffers < needed)
      return copy.store->emitOpError()
             << "stores a register-staged copy into a workgroup buffer with "
             << buffers << " copies, but a depth-" << plan.depth
             << " pipeline keeps " << needed
             << " in use: run gpucg-multi-buffering with num-buffers >= "
             << needed;
  }
  for (nvgpu::DeviceAsyncCopyOp copy : plan.copies) {
    int64_t buffers = getNumBufferCopies(copy.getDst());
    if (buffers < static_cast<int64_t>(plan.depth))
      return copy.emitOpError()
             << "copies into a workgroup buffer with " << buffers
             << " copies, but a depth-" << plan.depth << " pipeline keeps "
             << plan.depth
             << " in flight: run gpucg-multi-buffering with num-buffers >= "
             << plan.depth;
  }
  return success();
}

/// Replaces the loop's commit groups and waits by one group per iteration
/// (when there are async copies) and drops the barriers between copies.
static CommitGroup regroupCopies(RewriterBase &rewriter, scf::ForOp loop,
                                 const PipelinePlan &plan) {
  SmallVector<Operation *> oldGroupOps;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncCreateGroupOp, nvgpu::DeviceAsyncWaitOp>(op))
      oldGroupOps.push_back(op);
  });
  for (Operation *op : llvm::reverse(oldGroupOps)) {
    if (auto group = dyn_cast<nvgpu::DeviceAsyncCreateGroupOp>(op))
      for (Operation *user : llvm::make_early_inc_range(group->getUsers()))
        rewriter.eraseOp(user);
    if (op->use_empty())
      rewriter.eraseOp(op);
  }
  CommitGroup group;
  for (nvgpu::DeviceAsyncCopyOp copy : plan.copies)
    group.issuers.insert(getTopLevelOp(loop, copy));
  // Copies need no barrier between one another: a barrier between two
  // issuers, reads or stores of copies (left from the synchronous copies)
  // only costs. The register-staged stores move after the MMAs, where the
  // barrier before the next iteration's loads from workgroup memory orders
  // them.
  SetVector<Operation *> copyOps(group.issuers.begin(), group.issuers.end());
  for (StagedCopy copy : plan.stagedCopies) {
    copyOps.insert(copy.read);
    copyOps.insert(copy.store);
  }
  // The barrier before the first copy guards the buffers the copies refill
  // (nobody still reads them); with async copies it stays with them.
  Operation *firstCopyOp = copyOps.front();
  for (Operation *copyOp : copyOps)
    if (copyOp->isBeforeInBlock(firstCopyOp))
      firstCopyOp = copyOp;
  for (Operation *prev = firstCopyOp->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    if ((group.guard = dyn_cast<gpu::BarrierOp>(prev)) ||
        !isMemoryEffectFree(prev))
      break;
  }
  for (Operation *copyOp : copyOps) {
    Operation *next = copyOp->getNextNode();
    while (next && isMemoryEffectFree(next))
      next = next->getNextNode();
    if (!next || !isa<gpu::BarrierOp>(next))
      continue;
    Operation *after = next->getNextNode();
    while (after && isMemoryEffectFree(after))
      after = after->getNextNode();
    if (after && copyOps.contains(after))
      rewriter.eraseOp(next);
  }
  if (group.issuers.empty())
    return group;
  Operation *lastIssuer = group.issuers.front();
  for (Operation *issuer : group.issuers)
    if (lastIssuer->isBeforeInBlock(issuer))
      lastIssuer = issuer;
  rewriter.setInsertionPointAfter(lastIssuer);
  SmallVector<Value> tokens = llvm::map_to_vector(
      plan.copies, [](nvgpu::DeviceAsyncCopyOp copy) -> Value {
        return copy.getAsyncToken();
      });
  group.commit =
      nvgpu::DeviceAsyncCreateGroupOp::create(rewriter, loop.getLoc(), tokens);
  group.wait = nvgpu::DeviceAsyncWaitOp::create(
      rewriter, loop.getLoc(), group.commit.getResult(),
      rewriter.getI32IntegerAttr(plan.inFlight));
  return group;
}

/// The stage of each op of the loop body, in the order upstream's pipeliner
/// takes (`scf::PipeliningOption::getScheduleFn`): the copies and their
/// address computations in stage 0, register-staged copies' reads early and
/// their stores last in their stage, with the nvidia-tensorcore schedule the
/// wait and the loads from workgroup memory one stage before the MMAs,
/// everything else in the last stage.
static FailureOr<std::vector<std::pair<Operation *, unsigned>>>
assignStages(scf::ForOp loop, const PipelinePlan &plan,
             const CommitGroup &group) {
  // Stage 0: the copies, what computes their addresses, the commit, and the
  // barrier that guards the buffers they refill.
  Block *body = loop.getBody();
  SetVector<Operation *> stage0;
  if (!group.issuers.empty() && group.guard)
    stage0.insert(group.guard);
  auto addWithSlice = [&](Operation *root, SetVector<Operation *> &set) {
    BackwardSliceOptions options;
    options.inclusive = true;
    options.omitUsesFromAbove = false;
    options.filter = [&](Operation *op) {
      return loop->isProperAncestor(op);
    };
    SetVector<Operation *> slice;
    (void)getBackwardSlice(root, &slice, options);
    for (Operation *op : slice)
      set.insert(getTopLevelOp(loop, op));
  };
  for (Operation *issuer : group.issuers)
    addWithSlice(issuer, stage0);
  if (group.commit)
    stage0.insert(group.commit);

  // Register-staged copies: the reads and what computes the reads' and
  // stores' operands (addresses, the buffer slot) early, the stores last.
  SetVector<Operation *> stagedOps, stagedStores;
  for (StagedCopy copy : plan.stagedCopies) {
    addWithSlice(copy.read, stagedOps);
    addWithSlice(copy.store, stagedOps);
    stagedStores.insert(copy.store);
  }
  for (Operation *op : stage0)
    stagedOps.remove(op);
  for (Operation *op : stagedStores)
    stagedOps.remove(op);

  // nvidia-tensorcore: the wait, the barrier after it and the loads from
  // workgroup memory run one stage before the MMAs.
  SetVector<Operation *> loadStage;
  nvgpu::DeviceAsyncWaitOp wait = group.wait;
  if (plan.schedule == PipelineSchedule::NvidiaTensorCore) {
    if (wait)
      loadStage.insert(wait);
    for (Operation &op : *body) {
      if (stage0.contains(&op) || stagedOps.contains(&op) ||
          stagedStores.contains(&op) || (wait && &op == wait.getOperation()))
        continue;
      bool isLoad = false;
      op.walk([&](Operation *nested) { isLoad |= isSharedMemoryLoad(nested); });
      if (isa<gpu::BarrierOp>(op) || isLoad)
        addWithSlice(&op, loadStage);
    }
    for (Operation *op : stage0)
      loadStage.remove(op);
    for (Operation *op : stagedOps)
      loadStage.remove(op);
    for (Operation *op : stagedStores)
      loadStage.remove(op);
    // Loads must not depend on the values the loop carries (the
    // accumulators): they would have to wait for the previous MMAs.
    for (Operation *op : loadStage)
      for (Value operand : op->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand))
          if (arg.getOwner() == body && arg.getArgNumber() > 0)
            return op->emitOpError()
                   << "loads from workgroup memory using a loop-carried value; "
                      "the nvidia-tensorcore schedule cannot move it ahead of "
                      "the MMAs";
  }

  unsigned lastStage = plan.depth - 1;
  std::vector<std::pair<Operation *, unsigned>> order;
  for (Operation &op : body->without_terminator())
    if (stage0.contains(&op))
      order.push_back({&op, 0});
  for (Operation &op : body->without_terminator())
    if (stagedOps.contains(&op))
      order.push_back({&op, plan.stagedStage});
  for (Operation &op : body->without_terminator())
    if (loadStage.contains(&op))
      order.push_back({&op, lastStage - 1});
  for (Operation &op : body->without_terminator())
    if (!stage0.contains(&op) && !stagedOps.contains(&op) &&
        !stagedStores.contains(&op) && !loadStage.contains(&op))
      order.push_back({&op, lastStage});
  for (Operation &op : body->without_terminator())
    if (stagedStores.contains(&op))
      order.push_back({&op, plan.stagedStage});
  for (auto &[op, stage] : order)
    stage -= plan.firstStage;
  return order;
}

/// Upstream's `scf::PipeliningOption::predicateFn`: makes `op` of an
/// iteration past the loop's end harmless under `predicate` (its iteration
/// exists). An async copy copies nothing (its source element count becomes
/// 0, the destination is zero-filled); a global read reads nothing and
/// yields zeros (which its predicated store then does not store); pure ops,
/// barriers, commits and waits, and reads of workgroup memory run as they
/// are (the commit of an empty group and the barrier are harmless, the stale
/// data read is used by nobody, and upstream selects the loop-carried values
/// of a predicated iteration away); an op with other effects and no results
/// goes under an scf.if. Null (upstream then fails) for anything else.
static Operation *predicateIterationPastEnd(RewriterBase &rewriter,
                                            Operation *op, Value predicate) {
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
    rewriter.setInsertionPoint(copy);
    Location loc = copy.getLoc();
    Value full = copy.getSrcElements();
    if (!full)
      full = arith::ConstantIndexOp::create(
          rewriter, loc, copy.getDstElements().getZExtValue());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value count = arith::SelectOp::create(rewriter, loc, predicate, full, zero);
    rewriter.modifyOpInPlace(
        copy, [&] { copy.getSrcElementsMutable().assign(count); });
    return copy;
  }
  if (getGlobalVectorReadBase(op)) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto type = cast<VectorType>(op->getResult(0).getType());
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, predicate,
                                  /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    auto yield = scf::YieldOp::create(rewriter, loc, op->getResults());
    rewriter.moveOpBefore(op, yield);
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    Value zero = arith::ConstantOp::create(
        rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(type)));
    scf::YieldOp::create(rewriter, loc, zero);
    return ifOp;
  }
  if (isMemoryEffectFree(op) ||
      isa<gpu::BarrierOp, nvgpu::DeviceAsyncCreateGroupOp,
          nvgpu::DeviceAsyncWaitOp>(op))
    return op;
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op))
    if (op->getNumRegions() == 0 &&
        effects.onlyHasEffect<MemoryEffects::Read>())
      return op;
  if (op->getNumResults() != 0)
    return nullptr;
  rewriter.setInsertionPoint(op);
  auto ifOp = scf::IfOp::create(rewriter, op->getLoc(), predicate,
                                /*withElseRegion=*/false);
  rewriter.moveOpBefore(op, ifOp.thenBlock()->getTerminator());
  return ifOp;
}

/// Runs upstream's pipeliner on `loop` with the stages `order`, then, without
/// a peeled epilogue, drains the commit groups still in flight at its exit.
static LogicalResult
runPipeliner(RewriterBase &rewriter, scf::ForOp loop, const PipelinePlan &plan,
             std::vector<std::pair<Operation *, unsigned>> order,
             bool peelEpilogue, bool hasAsyncCopies) {
  scf::PipeliningOption options;
  options.getScheduleFn =
      [order](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &s) {
        s = order;
      };
  options.peelEpilogue = peelEpilogue;
  // The peeled epilogue commits no more groups: each of its iterations must
  // let one group fewer stay in flight.
  options.annotateFn = [inFlight = plan.inFlight](
                           Operation *op,
                           scf::PipeliningOption::PipelinerPart part,
                           unsigned iteration) {
    auto waitOp = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op);
    if (!waitOp || part != scf::PipeliningOption::PipelinerPart::Epilogue)
      return;
    int64_t allowed = std::max<int64_t>(
        0, static_cast<int64_t>(inFlight) - 1 - static_cast<int64_t>(iteration));
    waitOp.setNumGroupsAttr(
        IntegerAttr::get(IntegerType::get(op->getContext(), 32), allowed));
  };
  options.supportDynamicLoops = plan.dynamicTripCount;
  // Without an epilogue, the last iterations predicate the copies of
  // iterations past the end (with a dynamic trip count, the prologue's and
  // the peeled epilogue's predicate theirs too).
  if (!peelEpilogue || plan.dynamicTripCount)
    options.predicateFn = predicateIterationPastEnd;
  // The op after the loop survives its replacement: the drain goes before it.
  Operation *afterLoop = loop->getNextNode();
  // Through upstream's pattern, which owns the replacement of the loop.
  RewritePatternSet patterns(loop.getContext());
  scf::populateSCFLoopPipeliningPatterns(patterns, options);
  bool changed = false;
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  if (failed(applyOpPatternsGreedily({loop.getOperation()}, std::move(patterns),
                                     config, &changed)) ||
      !changed)
    return loop->getParentOp()->emitOpError()
           << "could not software-pipeline its K loop with depth "
           << plan.depth;
  if (!peelEpilogue && hasAsyncCopies) {
    // Without an epilogue, the groups of the predicated iterations past the
    // end are still in flight when the loop exits, and a zero-filling copy
    // still writes its destination: whatever reuses those bytes next (the
    // staged accumulator) would race with them. Drain every group here; the
    // barrier that guards the reuse then covers the other threads' copies.
    rewriter.setInsertionPoint(afterLoop);
    Location loc = afterLoop->getLoc();
    Value group = nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, loc, nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
        ValueRange{});
    nvgpu::DeviceAsyncWaitOp::create(rewriter, loc, group,
                                     rewriter.getI32IntegerAttr(0));
  }
  return success();
}

LogicalResult mlir::gpucg::pipelineAsyncCopyLoop(RewriterBase &rewriter,
                                                 scf::ForOp loop,
                                                 unsigned depth,
                                                 bool peelEpilogue,
                                                 PipelineSchedule schedule) {
  if (depth < 2)
    return success();
  if (schedule == PipelineSchedule::NvidiaTensorCore && depth < 3)
    return loop.emitOpError()
           << "cannot use the nvidia-tensorcore schedule with depth " << depth
           << ": it keeps loads one stage ahead of the MMAs and needs a "
              "depth of at least 3";

  PipelinePlan plan;
  plan.depth = depth;
  plan.schedule = schedule;
  loop.getBody()->walk(
      [&](nvgpu::DeviceAsyncCopyOp copy) { plan.copies.push_back(copy); });
  plan.stagedCopies = getStagedCopies(loop);
  if (plan.copies.empty() && plan.stagedCopies.empty())
    return success(); // Nothing to overlap.

  // Register-staged copies run one stage before the loads from workgroup
  // memory (the readers' stage), their global reads early in the iteration
  // and their stores after the MMAs, so that the loads' latency is spent on
  // the MMAs; they need a buffer for the stage being read and one for each
  // stage between.
  unsigned readerStage =
      schedule == PipelineSchedule::NvidiaTensorCore ? depth - 2 : depth - 1;
  plan.stagedStage = readerStage - 1;
  // Without async copies, nothing runs in the stages before the staged
  // copies': the pipeline starts there.
  plan.firstStage = plan.copies.empty() ? plan.stagedStage : 0;
  unsigned stagesUsed = depth - plan.firstStage;
  plan.inFlight =
      schedule == PipelineSchedule::NvidiaTensorCore ? depth - 2 : depth - 1;

  // A loop of known length must run at least once per stage. One whose
  // length is known only at run time (a dynamic K) is pipelined with every
  // stage of the prologue and epilogue predicated on its iteration existing
  // (upstream's supportDynamicLoops): a copy of an iteration that does not
  // exist copies nothing, so even a loop shorter than the pipeline is right.
  std::optional<APInt> tripCount = loop.getStaticTripCount();
  plan.dynamicTripCount = !tripCount;
  if (tripCount && tripCount->getSExtValue() < static_cast<int64_t>(stagesUsed))
    return loop.emitOpError()
           << "has " << tripCount->getSExtValue() << " iterations; a depth-"
           << depth << " pipeline needs at least " << stagesUsed;

  // The commit group names the copies it commits by their tokens (a group
  // without tokens prints in a form that does not parse again), so each
  // copy must be at the K loop's top level, where its token is visible. A
  // copy nested in a region (a partial tile's remainder, whose copies are
  // distributed with per-thread bounds checks) leaves the loop unpipelined:
  // every iteration still waits for its own copies, so it stays correct.
  if (llvm::any_of(plan.copies, [&](nvgpu::DeviceAsyncCopyOp copy) {
        return copy->getBlock() != loop.getBody();
      }))
    return success();
  if (failed(verifyBufferCopies(plan)))
    return failure();

  CommitGroup group = regroupCopies(rewriter, loop, plan);
  FailureOr<std::vector<std::pair<Operation *, unsigned>>> order =
      assignStages(loop, plan, group);
  if (failed(order))
    return failure();
  return runPipeliner(rewriter, loop, plan, std::move(*order), peelEpilogue,
                      /*hasAsyncCopies=*/!group.issuers.empty());
}

namespace {
struct SoftwarePipeliningPass
    : public gpucg::impl::SoftwarePipeliningBase<SoftwarePipeliningPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    unsigned pipelineDepth = depth;
    if (pipelineDepth == 0) {
      TranslationInfoAttr info = getTranslationInfo(funcOp);
      pipelineDepth = info ? info.getPipelineDepth() : 1;
    }
    // The K loops: loops that both copy into workgroup memory (async or
    // register-staged copies) and compute on tensor cores (the
    // copy-distribution loops only copy).
    SmallVector<scf::ForOp> loops;
    funcOp.walk([&](scf::ForOp loop) {
      bool hasCopies = !getStagedCopies(loop).empty(), hasMma = false;
      loop.getBody()->walk([&](Operation *op) {
        hasCopies |= isa<nvgpu::DeviceAsyncCopyOp>(op);
        hasMma |= isa<nvgpu::MmaSyncOp, gpu::SubgroupMmaComputeOp,
                      vector::ContractionOp>(op);
      });
      if (hasCopies && hasMma)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops)
      if (failed(pipelineAsyncCopyLoop(rewriter, loop, pipelineDepth,
                                       epiloguePeeling, schedule)))
        return signalPassFailure();
  }
};
} // namespace
