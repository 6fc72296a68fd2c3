//===- PackSharedMemoryAlloc.cpp - One workgroup buffer for all -----------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Workgroup memory limits occupancy. Allocations that are never live at the
// same time can share bytes. For a pair of allocations A and B, let C be the
// innermost block of the function that contains (an ancestor of) every op
// that may access A or B, and [firstX, lastX] the ops of C that contain the
// accesses of X. A and B may share bytes when every path between an access
// of one and an access of the other passes a gpu.barrier of C:
//
//   1. Within one execution of C:
//      - barrier-separated: lastE is before firstL (E the earlier range, L
//        the later) and a gpu.barrier of C lies between them; or
//      - exclusive regions: both ranges are one op of C, a
//        RegionBranchOpInterface op, with all accesses of A in one of its
//        regions and all of B in another, neither reachable from the other
//        (the two paths of an scf.if, two cases of an scf.index_switch).
//   2. Across executions of C, when C may execute more than once per run of
//      the function (see `mayRepeat`): also a gpu.barrier of C after lastL
//      or before firstE, on the path that wraps around from iteration i's
//      later accesses to iteration i+1's earlier ones. For exclusive regions
//      E = L, so the barrier is after or before the region op.
//
// Every allocation becomes a memref.view at a byte offset into one i8
// buffer, placed first-fit by decreasing size.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// Alignment of the buffer and of every offset in it (the widest vector
/// access), unless an allocation asks for more.
static constexpr int64_t kMinAlignment = 16;
/// Allocations above this size or alignment are left alone: no workgroup
/// memory is that large, and sums of them cannot overflow.
static constexpr int64_t kMaxBytes = int64_t(1) << 32;

namespace {
/// A packed allocation and the ops that may access it.
struct AllocInfo {
  memref::AllocOp alloc;
  int64_t bytes = 0;
  int64_t alignment = kMinAlignment;
  int64_t offset = 0;
  /// Every op that may access the allocation: the users of the allocation
  /// and of its aliases, and the ops waiting on its asynchronous copies.
  SmallVector<Operation *> users;
  /// The address leaves the memref type, where accesses cannot be followed:
  /// the allocation keeps bytes of its own.
  bool escapes = false;
};

/// The ops of a block that contain the accesses of an allocation.
struct UseRange {
  Operation *first = nullptr;
  Operation *last = nullptr;
};
} // namespace

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

/// The bytes of a statically shaped memref of `type`, or nullopt. Only
/// integer and float elements have a size gpucg is sure of; index, vector,
/// complex and other element types are left alone rather than guessed.
/// Elements take a power-of-two number of bytes (i1 and i4 one, i24 and tf32
/// four), as the LLVM data layout stores them, so a view is never too small.
static std::optional<int64_t> getByteSize(MemRefType type) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return std::nullopt;
  uint64_t bits = element.getIntOrFloatBitWidth();
  int64_t size = llvm::PowerOf2Ceil(std::max<uint64_t>(bits, 8)) / 8;
  for (int64_t dim : type.getShape()) {
    if (dim < 0 || (dim != 0 && size > kMaxBytes / dim))
      return std::nullopt;
    size *= dim;
  }
  if (size > kMaxBytes)
    return std::nullopt;
  return size;
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

/// Whether a value of `type` may carry an allocation's address (a memref) or
/// the completion of an asynchronous access to it (an async token: the copy
/// is only done where its token is waited on).
static bool mayCarryAccess(Type type) {
  return isa<BaseMemRefType, nvgpu::DeviceAsyncTokenType, gpu::AsyncTokenType>(
      type);
}

/// Fills `info.users` with every op that may access `root`, following
/// aliases: view results, any memref result of a user, values forwarded
/// into regions (iter_args), out of regions (terminators' parents) and
/// along branches, and async tokens. Over-approximates: a larger set only
/// keeps allocations apart. Returns false where the allocation must not be
/// rewritten (a user frees it).
static bool collectAccesses(Value root, AllocInfo &info) {
  SmallVector<Value> worklist{root};
  DenseSet<Value> seen{root};
  auto follow = [&](auto values) {
    for (Value value : values)
      if (mayCarryAccess(value.getType()) && seen.insert(value).second)
        worklist.push_back(value);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == value) {
          follow(user->getResults());
          continue;
        }
      if (hasEffect<MemoryEffects::Free>(user, value))
        return false;
      if (isa<memref::ExtractAlignedPointerAsIndexOp,
              UnrealizedConversionCastOp>(user))
        info.escapes = true;
      info.users.push_back(user);
      follow(user->getResults());
      for (Region &region : user->getRegions())
        for (Block &block : region)
          follow(block.getArguments());
      if (!isBlockTerminator(user))
        continue;
      for (Block *successor : user->getSuccessors())
        follow(successor->getArguments());
      if (Operation *parent = user->getParentOp()) {
        follow(parent->getResults());
        for (Region &region : parent->getRegions())
          for (Block &block : region)
            follow(block.getArguments());
      }
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Liveness
//===----------------------------------------------------------------------===//

/// The innermost block of `funcOp`'s body that contains an ancestor of every
/// op of `ops`, or null (ops in several blocks of the function body).
static Block *findCommonBlock(Operation *funcOp, ArrayRef<Operation *> ops) {
  Block *block = ops.front()->getBlock();
  while (block) {
    if (llvm::all_of(ops, [&](Operation *op) {
          return block->findAncestorOpInBlock(*op) != nullptr;
        }))
      return block;
    Operation *parent = block->getParentOp();
    if (!parent || parent == funcOp)
      return nullptr;
    block = parent->getBlock();
  }
  return nullptr;
}

/// The first and last ops of `block` that contain an op of `ops`, all of
/// which lie in `block`.
static UseRange getRange(Block *block, ArrayRef<Operation *> ops) {
  UseRange range;
  for (Operation *op : ops) {
    Operation *top = block->findAncestorOpInBlock(*op);
    if (!range.first || top->isBeforeInBlock(range.first))
      range.first = top;
    if (!range.last || range.last->isBeforeInBlock(top))
      range.last = top;
  }
  return range;
}

/// Whether a gpu.barrier lies in [begin, end) of one block.
static bool hasBarrier(Block::iterator begin, Block::iterator end) {
  return llvm::any_of(llvm::make_range(begin, end),
                      [](Operation &op) { return isa<gpu::BarrierOp>(op); });
}

/// Whether the control flow graph of `block`'s region leads from `block`
/// back to itself.
static bool isInCycle(Block *block) {
  return llvm::any_of(block->getSuccessors(), [&](Block *successor) {
    return successor == block || successor->isReachable(block);
  });
}

/// Whether `region` may execute more than once per execution of its parent
/// op, in one workgroup. Conservative: a region of an op that neither is a
/// loop nor describes its control flow (RegionBranchOpInterface) may.
static bool mayRepeat(Region &region) {
  Operation *op = region.getParentOp();
  // Each iteration of a workgroup loop has workgroup memory of its own.
  if (auto forallOp = dyn_cast<scf::ForallOp>(op))
    return !isWorkgroupLoop(forallOp);
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op))
    if (llvm::is_contained(loop.getLoopRegions(), &region))
      return true;
  if (auto branch = dyn_cast<RegionBranchOpInterface>(op))
    return branch.isRepetitiveRegion(region.getRegionNumber());
  return true;
}

/// Whether `block` may execute more than once per run of `funcOp`: it or the
/// block of one of its ancestor ops lies on a control-flow cycle, or a
/// region on the way up to the function may repeat.
static bool mayRepeat(Block *block, Operation *funcOp) {
  while (true) {
    if (isInCycle(block))
      return true;
    Operation *parent = block->getParentOp();
    if (!parent || parent == funcOp)
      return false;
    if (mayRepeat(*block->getParent()))
      return true;
    block = parent->getBlock();
    if (!block)
      return true;
  }
}

/// The region of `op` containing every op of `ops`, or null.
static Region *getCommonRegion(Operation *op, ArrayRef<Operation *> ops) {
  Region *common = nullptr;
  for (Operation *user : ops) {
    Region *found = nullptr;
    for (Region &region : op->getRegions())
      if (region.findAncestorOpInRegion(*user))
        found = &region;
    if (!found || (common && found != common))
      return nullptr;
    common = found;
  }
  return common;
}

/// Whether all of `a` and all of `b` lie in two regions of `op` that never
/// both run in one execution of `op`, as its RegionBranchOpInterface says.
static bool areInExclusiveRegions(Operation *op, ArrayRef<Operation *> a,
                                  ArrayRef<Operation *> b) {
  if (!isa<RegionBranchOpInterface>(op))
    return false;
  Region *regionA = getCommonRegion(op, a);
  Region *regionB = getCommonRegion(op, b);
  if (!regionA || !regionB || regionA == regionB)
    return false;
  // `op` is the innermost RegionBranchOpInterface op containing both
  // representatives, which is where upstream's helper compares regions.
  return insideMutuallyExclusiveRegions(a.front(), b.front());
}

/// Whether `a` and `b` are never live at the same time (see the file
/// comment for the rule).
static bool areDisjointInTime(Operation *funcOp, const AllocInfo &a,
                              const AllocInfo &b) {
  // An allocation nobody accesses is never live.
  if (a.users.empty() || b.users.empty())
    return true;
  if (a.escapes || b.escapes)
    return false;
  SmallVector<Operation *> users(a.users);
  users.append(b.users);
  Block *block = findCommonBlock(funcOp, users);
  if (!block)
    return false;
  UseRange rangeA = getRange(block, a.users), rangeB = getRange(block, b.users);

  // One execution of `block`.
  UseRange early, late;
  if (rangeA.last->isBeforeInBlock(rangeB.first)) {
    early = rangeA;
    late = rangeB;
  } else if (rangeB.last->isBeforeInBlock(rangeA.first)) {
    early = rangeB;
    late = rangeA;
  } else if (rangeA.first == rangeA.last && rangeB.first == rangeB.last &&
             rangeA.first == rangeB.first &&
             areInExclusiveRegions(rangeA.first, a.users, b.users)) {
    early = late = rangeA;
  } else {
    return false;
  }
  if (early.last != late.first &&
      !hasBarrier(std::next(early.last->getIterator()),
                  late.first->getIterator()))
    return false;

  // The next execution of `block`: from the later range to the block's end,
  // or from its start to the earlier range.
  if (!mayRepeat(block, funcOp))
    return true;
  return hasBarrier(std::next(late.last->getIterator()), block->end()) ||
         hasBarrier(block->begin(), early.first->getIterator());
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

/// Whether the allocations in `op`'s regions are those of the function `op`
/// is in, which a view of a buffer at the function's entry can replace: the
/// regions of control flow (RegionBranchOpInterface, LoopLikeOpInterface)
/// but a gpu.launch's, whose workgroup memory is the launch's own. Any other
/// op with regions might be isolated from above (a nested function or
/// module): its allocations are left alone. The test is by interface rather
/// than by `OpTrait::IsIsolatedFromAbove`, whose TypeID gpucg's code must
/// not resolve (isBlockTerminator, in Utils.h).
static bool sharesFunctionWorkgroupMemory(Operation *op) {
  return isa<RegionBranchOpInterface, LoopLikeOpInterface>(op) &&
         !isa<gpu::LaunchOp>(op);
}

/// The allocations of `funcOp` that can become views into one buffer at its
/// entry: statically shaped, identity-layout workgroup allocations of a
/// known size, in the function's own control flow (not in a gpu.launch or
/// a nested function; sharesFunctionWorkgroupMemory), and never freed.
static std::vector<AllocInfo> collectAllocations(FunctionOpInterface funcOp) {
  std::vector<AllocInfo> infos;
  funcOp->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != funcOp.getOperation() && op->getNumRegions() != 0 &&
        !sharesFunctionWorkgroupMemory(op))
      return WalkResult::skip();
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc)
      return WalkResult::advance();
    MemRefType type = alloc.getType();
    if (!isWorkgroupMemory(type) || !type.hasStaticShape() ||
        !type.getLayout().isIdentity())
      return WalkResult::advance();
    std::optional<int64_t> bytes = getByteSize(type);
    int64_t alignment = std::max<int64_t>(
        kMinAlignment, static_cast<int64_t>(alloc.getAlignment().value_or(0)));
    if (!bytes || alignment > kMaxBytes)
      return WalkResult::advance();
    AllocInfo info;
    info.alloc = alloc;
    info.bytes = *bytes;
    info.alignment = alignment;
    if (collectAccesses(alloc.getResult(), info))
      infos.push_back(std::move(info));
    return WalkResult::advance();
  });
  return infos;
}

/// Assigns offsets first fit, largest allocation first, each aligned to its
/// own alignment; returns the total size.
static int64_t assignOffsets(Operation *funcOp, std::vector<AllocInfo> &infos) {
  // disjoint[i][j]: infos[i] and infos[j] may share bytes.
  size_t count = infos.size();
  std::vector<std::vector<bool>> disjoint(count, std::vector<bool>(count));
  for (size_t i = 0; i < count; ++i)
    for (size_t j = i + 1; j < count; ++j)
      disjoint[i][j] = disjoint[j][i] =
          areDisjointInTime(funcOp, infos[i], infos[j]);

  SmallVector<size_t> order = llvm::to_vector(llvm::seq<size_t>(0, count));
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return infos[a].bytes > infos[b].bytes;
  });
  SmallVector<size_t> placed;
  int64_t total = 0;
  for (size_t index : order) {
    AllocInfo &info = infos[index];
    int64_t offset = 0;
    bool moved = true;
    while (moved) {
      moved = false;
      for (size_t other : placed) {
        const AllocInfo &o = infos[other];
        bool overlapsInSpace =
            offset < o.offset + o.bytes && o.offset < offset + info.bytes;
        if (overlapsInSpace && !disjoint[index][other]) {
          offset = llvm::alignTo(o.offset + o.bytes, info.alignment);
          moved = true;
        }
      }
    }
    info.offset = offset;
    placed.push_back(index);
    total = std::max(total, offset + info.bytes);
  }
  return total;
}

LogicalResult
mlir::gpucg::packWorkgroupAllocations(RewriterBase &rewriter,
                                      FunctionOpInterface funcOp) {
  if (funcOp.isExternal())
    return success();
  std::vector<AllocInfo> infos = collectAllocations(funcOp);
  if (infos.size() < 2)
    return success();
  int64_t total = assignOffsets(funcOp, infos);
  int64_t alignment = kMinAlignment;
  for (const AllocInfo &info : infos)
    alignment = std::max(alignment, info.alignment);

  Block &entry = funcOp.getFunctionBody().front();
  rewriter.setInsertionPointToStart(&entry);
  Location loc = funcOp.getLoc();
  auto bufferType = MemRefType::get(
      {total}, rewriter.getI8Type(), MemRefLayoutAttrInterface{},
      infos.front().alloc.getType().getMemorySpace());
  auto buffer = memref::AllocOp::create(rewriter, loc, bufferType,
                                        rewriter.getI64IntegerAttr(alignment));
  rewriter.setInsertionPointAfter(buffer);
  for (AllocInfo &info : infos) {
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
    : public gpucg::impl::PackSharedMemoryAllocBase<PackSharedMemoryAllocPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(packWorkgroupAllocations(rewriter, getOperation())))
      return signalPassFailure();
  }
};
} // namespace
