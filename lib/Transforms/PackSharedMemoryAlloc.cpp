//===- PackSharedMemoryAlloc.cpp - One workgroup buffer for all -----------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Workgroup memory limits occupancy. Allocations that are never live at the
// same time can share bytes. gpucg proves two cases:
//   - exclusive branches: all uses of one allocation are in one branch of an
//     scf.if, all uses of the other in the other branch (workgroup
//     specialization's full-tile and remainder paths);
//   - barrier-separated ranges: both allocations are used only within the
//     same block, and a gpu.barrier in that block separates the last use of
//     one from the first use of the other (nobody still reads the first
//     when the second is written).
// Every allocation becomes a memref.view at a byte offset into one i8
// buffer, placed first-fit by decreasing size.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_PACKSHAREDMEMORYALLOC
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

namespace {
struct AllocInfo {
  memref::AllocOp alloc;
  int64_t bytes = 0;
  int64_t offset = 0;
  /// Every op that uses the allocation, through views.
  SmallVector<Operation *> users;
  /// The innermost block containing all uses, and the first and last of
  /// its ops that contain a use.
  Block *block = nullptr;
  Operation *first = nullptr, *last = nullptr;
};
} // namespace

static void collectUsers(Value value, SmallVectorImpl<Operation *> &users) {
  for (Operation *user : value.getUsers()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(user))
      if (view.getViewSource() == value) {
        for (Value result : user->getResults())
          collectUsers(result, users);
        continue;
      }
    users.push_back(user);
  }
}

/// The ancestor of `op` in `block`, or null.
static Operation *getAncestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Whether `a` and `b` are never live at the same time.
static bool areDisjointInTime(const AllocInfo &a, const AllocInfo &b) {
  // Exclusive branches of some scf.if.
  for (Operation *parent = a.block ? a.block->getParentOp() : nullptr; parent;
       parent = parent->getParentOp()) {
    auto ifOp = dyn_cast<scf::IfOp>(parent);
    if (!ifOp || ifOp.getElseRegion().empty())
      continue;
    auto branchOf = [&](const AllocInfo &info) -> int {
      bool inThen = llvm::all_of(info.users, [&](Operation *op) {
        return ifOp.getThenRegion().isAncestor(op->getParentRegion());
      });
      bool inElse = llvm::all_of(info.users, [&](Operation *op) {
        return ifOp.getElseRegion().isAncestor(op->getParentRegion());
      });
      return inThen ? 0 : inElse ? 1 : -1;
    };
    int branchA = branchOf(a), branchB = branchOf(b);
    if (branchA >= 0 && branchB >= 0 && branchA != branchB)
      return true;
  }
  // Barrier-separated ranges of one block.
  if (!a.block || a.block != b.block)
    return false;
  const AllocInfo &early = a.last->isBeforeInBlock(b.first) ? a : b;
  const AllocInfo &late = &early == &a ? b : a;
  if (!early.last->isBeforeInBlock(late.first))
    return false;
  for (Operation *op = early.last->getNextNode(); op && op != late.first;
       op = op->getNextNode())
    if (isa<gpu::BarrierOp>(op))
      return true;
  return false;
}

LogicalResult mlir::gpucg::packWorkgroupAllocations(
    RewriterBase &rewriter, FunctionOpInterface funcOp) {
  if (funcOp.isExternal())
    return success();
  std::vector<AllocInfo> infos;
  DataLayout layout = DataLayout::closest(funcOp);
  funcOp.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    auto space =
        dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
    if (!space || space.getValue() != gpu::AddressSpace::Workgroup ||
        !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat())
      return;
    AllocInfo info;
    info.alloc = alloc;
    info.bytes = type.getNumElements() *
                 llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    collectUsers(alloc.getResult(), info.users);
    if (!info.users.empty()) {
      // The innermost block that contains every use.
      Block *block = info.users.front()->getBlock();
      while (block && !llvm::all_of(info.users, [&](Operation *op) {
               return getAncestorIn(block, op);
             }))
        block = block->getParentOp() ? block->getParentOp()->getBlock()
                                     : nullptr;
      info.block = block;
      if (block) {
        for (Operation *op : info.users) {
          Operation *top = getAncestorIn(block, op);
          if (!info.first || top->isBeforeInBlock(info.first))
            info.first = top;
          if (!info.last || info.last->isBeforeInBlock(top))
            info.last = top;
        }
      }
    }
    infos.push_back(std::move(info));
  });
  if (infos.size() < 2)
    return success();

  // First fit, largest first, 16-byte aligned (the widest vector access).
  constexpr int64_t kAlignment = 16;
  std::vector<AllocInfo *> order;
  for (AllocInfo &info : infos)
    order.push_back(&info);
  llvm::stable_sort(order, [](AllocInfo *a, AllocInfo *b) {
    return a->bytes > b->bytes;
  });
  std::vector<AllocInfo *> placed;
  int64_t total = 0;
  for (AllocInfo *info : order) {
    int64_t offset = 0;
    bool moved = true;
    while (moved) {
      moved = false;
      for (AllocInfo *other : placed) {
        bool overlapsInSpace = offset < other->offset + other->bytes &&
                               other->offset < offset + info->bytes;
        if (overlapsInSpace && !areDisjointInTime(*info, *other)) {
          offset = llvm::alignTo(other->offset + other->bytes, kAlignment);
          moved = true;
        }
      }
    }
    info->offset = offset;
    placed.push_back(info);
    total = std::max(total, offset + info->bytes);
  }

  Block &entry = funcOp.getFunctionBody().front();
  rewriter.setInsertionPointToStart(&entry);
  Location loc = funcOp.getLoc();
  MemRefType firstType = infos.front().alloc.getType();
  auto bufferType =
      MemRefType::get({total}, rewriter.getI8Type(), MemRefLayoutAttrInterface{},
                      firstType.getMemorySpace());
  auto buffer = memref::AllocOp::create(rewriter, loc, bufferType,
                                        rewriter.getI64IntegerAttr(kAlignment));
  for (AllocInfo &info : infos) {
    rewriter.setInsertionPointAfter(buffer);
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, info.offset);
    auto view = memref::ViewOp::create(rewriter, info.alloc.getLoc(),
                                       info.alloc.getType(), buffer, offset,
                                       ValueRange{});
    rewriter.replaceOp(info.alloc, view.getResult());
  }
  return success();
}

namespace {
struct PackSharedMemoryAllocPass
    : public gpucg::impl::PackSharedMemoryAllocBase<
          PackSharedMemoryAllocPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(packWorkgroupAllocations(rewriter, getOperation())))
      return signalPassFailure();
  }
};
} // namespace
