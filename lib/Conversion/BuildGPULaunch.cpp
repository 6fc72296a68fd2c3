//===- BuildGPULaunch.cpp - A kernel's gpu.launch from its own facts -----===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gpucg's pipelines leave a kernel as a func.func whose workgroups are one
// scf.forall over #gpu.block<...>, with thread ids, index math and the packed
// workgroup allocation hoisted above that loop. Upstream's launch builders do
// not fit this shape: `map_forall_to_blocks` refuses non-normalized loops and
// `generate_gpu_launch` wraps only the loop (losing everything hoisted above
// it). This pass moves the whole body into one gpu.launch, maps the loop to
// block ids directly and places workgroup memory where ptxas accepts it.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Conversion/Passes.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_BUILDGPULAUNCH
#include "gpucg/Conversion/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

/// Workgroup memory placements start at multiples of this many bytes: the
/// widest shared-memory access gpucg emits is 128 bits (ldmatrix rows,
/// vector<8xf16> copies).
static constexpr int64_t kWorkgroupMemoryAlignment = 16;
/// ptxas' limit on statically allocated shared memory per kernel.
static constexpr int64_t kDefaultStaticSharedMemoryLimit = 48 * 1024;

static bool isWorkgroupMemory(MemRefType type) {
  return gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type);
}

namespace {
/// One workgroup-memory allocation and where it goes.
struct WorkgroupAllocation {
  memref::AllocOp alloc;
  int64_t bytes;
  int64_t offset;
};
} // namespace

/// Clones into the builder's position the ops that compute `value` from
/// constants and function arguments, so it can be used on the host. Fails
/// (with a diagnostic on `user`) when it depends on anything else.
static FailureOr<Value> cloneToHost(OpBuilder &builder, Value value,
                                   func::FuncOp funcOp, IRMapping &mapping,
                                   Operation *user, StringRef what) {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() == &funcOp.getBody().front())
      return value;
    user->emitOpError() << what
                        << " depends on a region argument; it must be "
                           "computable from constants and kernel arguments";
    return failure();
  }
  Operation *def = value.getDefiningOp();
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def) ||
      isa<gpu::GPUDialect>(def->getDialect())) {
    InFlightDiagnostic diag = user->emitOpError()
                              << what << " depends on '" << def->getName()
                              << "', which cannot be computed on the host";
    diag.attachNote(def->getLoc()) << "defined here";
    return failure();
  }
  for (Value operand : def->getOperands())
    if (failed(cloneToHost(builder, operand, funcOp, mapping, user, what)))
      return failure();
  Operation *clone = builder.clone(*def, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

/// Finds the workgroup loop: the one scf.forall mapped to #gpu.block, which
/// must sit directly in the function body. Returns null when there is none.
static FailureOr<scf::ForallOp> findWorkgroupLoop(func::FuncOp funcOp) {
  SmallVector<scf::ForallOp> loops;
  funcOp.walk([&](scf::ForallOp forall) {
    std::optional<ArrayAttr> mapping = forall.getMapping();
    if (mapping && llvm::any_of(*mapping, llvm::IsaPred<gpu::GPUBlockMappingAttr>))
      loops.push_back(forall);
  });
  if (loops.empty())
    return scf::ForallOp();
  if (loops.size() > 1) {
    InFlightDiagnostic diag =
        funcOp.emitOpError()
        << "has " << loops.size()
        << " scf.forall loops over #gpu.block; a kernel has one workgroup loop";
    for (scf::ForallOp loop : loops)
      diag.attachNote(loop.getLoc()) << "workgroup loop here";
    return failure();
  }
  scf::ForallOp loop = loops.front();
  if (loop->getParentOp() != funcOp) {
    loop.emitOpError()
        << "is the kernel's workgroup loop but is nested in '"
        << loop->getParentOp()->getName()
        << "'; it must be directly in the function body";
    return failure();
  }
  if (!loop.getOutputs().empty()) {
    loop.emitOpError() << "is a workgroup loop over tensors (" <<
        loop.getOutputs().size()
                       << " shared_outs); bufferize the kernel first";
    return failure();
  }
  for (Attribute attr : loop.getMappingAttr()) {
    auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr);
    if (!block || block.getMappingId() > 2) {
      loop.emitOpError() << "maps a dimension to " << attr
                         << "; only #gpu.block<x>, <y> and <z> are supported";
      return failure();
    }
  }
  return loop;
}

/// Computes the allocations' bytes and offsets in one 16-byte-aligned
/// layout. Fails on allocations that cannot live in a launch's workgroup
/// memory.
static FailureOr<SmallVector<WorkgroupAllocation>>
layOutWorkgroupMemory(func::FuncOp funcOp, scf::ForallOp workgroupLoop,
                      int64_t &totalBytes, int64_t &maxAlignment) {
  SmallVector<WorkgroupAllocation> allocations;
  totalBytes = 0;
  maxAlignment = kWorkgroupMemoryAlignment;
  WalkResult walk = funcOp.walk([&](Operation *op) -> WalkResult {
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      if (isWorkgroupMemory(alloca.getType())) {
        alloca.emitOpError()
            << "allocates workgroup memory on the stack; use memref.alloc";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc || !isWorkgroupMemory(alloc.getType()))
      return WalkResult::advance();
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
      alloc.emitOpError() << "allocates workgroup memory of type " << type
                          << "; a launch needs a static shape and an identity "
                             "layout";
      return WalkResult::interrupt();
    }
    Operation *parent = alloc->getParentOp();
    if (parent != funcOp && parent != workgroupLoop) {
      // Allocations in loops or branches would need one buffer per dynamic
      // instance; gpucg's pipelines hoist them, so refuse the rest.
      alloc.emitOpError()
          << "allocates workgroup memory inside '"
          << alloc->getParentOp()->getName()
          << "'; workgroup allocations must be at the top of the kernel";
      return WalkResult::interrupt();
    }
    Type elementType = type.getElementType();
    if (!elementType.isIntOrIndexOrFloat() || elementType.isIndex()) {
      alloc.emitOpError() << "allocates workgroup memory of element type "
                          << elementType
                          << "; only integer and float elements have a size "
                             "the launch can reserve";
      return WalkResult::interrupt();
    }
    int64_t bits = static_cast<int64_t>(elementType.getIntOrFloatBitWidth()) *
                   type.getNumElements();
    int64_t bytes = llvm::divideCeil(bits, 8);
    // An allocation may ask for more (TMA destinations with 128-byte
    // swizzle: 1024 bytes); such allocations go to dynamic shared memory,
    // whose base gpucg-convert-to-nvvm aligns as much.
    int64_t alignment = std::max<int64_t>(kWorkgroupMemoryAlignment,
                                          alloc.getAlignment().value_or(1));
    maxAlignment = std::max(maxAlignment, alignment);
    int64_t offset = llvm::alignTo(totalBytes, alignment);
    allocations.push_back({alloc, bytes, offset});
    totalBytes = offset + bytes;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  totalBytes = llvm::alignTo(totalBytes, kWorkgroupMemoryAlignment);
  return allocations;
}

/// Replaces the workgroup loop by its body, each induction variable becoming
/// `lb + block_id * step`.
static void inlineWorkgroupLoop(RewriterBase &rewriter, scf::ForallOp loop,
                                gpu::KernelDim3 blockIds) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value ids[3] = {blockIds.x, blockIds.y, blockIds.z};
  SmallVector<Value> ivs;
  SmallVector<OpFoldResult> lbs = loop.getMixedLowerBound();
  SmallVector<OpFoldResult> steps = loop.getMixedStep();
  for (auto [dim, attr] : llvm::enumerate(loop.getMappingAttr())) {
    int64_t id = cast<gpu::GPUBlockMappingAttr>(attr).getMappingId();
    AffineExpr blockId, lb, step;
    bindSymbols(rewriter.getContext(), blockId, lb, step);
    OpFoldResult iv = affine::makeComposedFoldedAffineApply(
        rewriter, loc, lb + blockId * step, {ids[id], lbs[dim], steps[dim]});
    ivs.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, iv));
  }
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, loop, ivs);
  rewriter.eraseOp(loop);
}

/// Moves the host-side preparations of `funcOp`'s kernel, TMA tensor maps
/// built on its arguments (`nvgpu.tma.create.descriptor`) and the ops they
/// use, to the top of the function, in order, so that the launch (which
/// takes everything after it) captures them as operands. Returns the last op
/// moved, or null when there are none; fails on a tensor map that depends on
/// anything but constants and function arguments.
static FailureOr<Operation *> hoistHostPreparations(func::FuncOp funcOp) {
  Block &entry = funcOp.getBody().front();
  SmallVector<Operation *> descriptors;
  WalkResult walk = funcOp.walk([&](nvgpu::TmaCreateDescriptorOp op) {
    if (op->getBlock() != &entry) {
      op.emitOpError() << "is not at the top level of @" << funcOp.getSymName()
                       << "; a kernel's tensor maps are built on the host "
                          "before its launch";
      return WalkResult::interrupt();
    }
    descriptors.push_back(op);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (descriptors.empty())
    return static_cast<Operation *>(nullptr);
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  for (Operation *op : descriptors) {
    if (failed(getBackwardSlice(op, &slice, options)))
      return failure();
  }
  for (Operation *op : slice) {
    if (op->getBlock() != &entry || op->getNumRegions() != 0 ||
        !(isa<nvgpu::TmaCreateDescriptorOp>(op) || isMemoryEffectFree(op))) {
      op->emitOpError() << "computes a tensor map's operand in the kernel; "
                           "tensor maps are built on the host from constants "
                           "and function arguments";
      return failure();
    }
  }
  // A constant the kernel uses too stays where it is (the launch takes it,
  // and outlining sinks it into the kernel); the host gets its own copy.
  SmallVector<Operation *> hostOps;
  OpBuilder builder(funcOp.getContext());
  for (Operation *op : slice) {
    bool usedElsewhere = llvm::any_of(
        op->getUsers(), [&](Operation *user) { return !slice.contains(user); });
    if (usedElsewhere && op->hasTrait<OpTrait::ConstantLike>()) {
      builder.setInsertionPoint(op);
      Operation *copy = builder.clone(*op);
      op->replaceUsesWithIf(copy->getResults(), [&](OpOperand &use) {
        return slice.contains(use.getOwner());
      });
      op = copy;
    }
    hostOps.push_back(op);
  }
  // getBackwardSlice returns the ops in an order where each follows its
  // operands' producers, which is what the host needs.
  Operation *last = nullptr;
  for (Operation *op : hostOps) {
    if (last)
      op->moveAfter(last);
    else
      op->moveBefore(&entry, entry.begin());
    last = op;
  }
  return last;
}

/// Checks that `funcOp` is a kernel gpucg can launch: one block, no launch
/// yet, a workgroup size, results written into its arguments. Returns its
/// workgroup loop (null for a kernel of one workgroup).
static FailureOr<scf::ForallOp>
verifyLaunchableKernel(func::FuncOp funcOp,
                       gpucg::TranslationInfoAttr translation) {
  if (!funcOp.getBody().hasOneBlock()) {
    return funcOp.emitOpError()
           << "has " << funcOp.getBody().getBlocks().size()
           << " blocks; a kernel body must be a single block";
  }
  Block &entry = funcOp.getBody().front();
  bool hasLaunch = false;
  funcOp.walk([&](gpu::LaunchOp) { hasLaunch = true; });
  if (hasLaunch)
    return funcOp.emitOpError() << "already contains a gpu.launch";

  if (translation.getWorkgroupSize().empty()) {
    return funcOp.emitOpError()
           << "has a translation_info without a workgroup_size; the block "
              "size of its launch is unknown";
  }

  FailureOr<scf::ForallOp> loop = findWorkgroupLoop(funcOp);
  if (failed(loop))
    return failure();

  // Kernels write their results into arguments: a returned value must be
  // one, or a view of the whole of one (a cast or reshape, which the host
  // computes: a kernel whose loops gpucg-collapse-elementwise-dims merged
  // returns its destination expanded back).
  auto returnOp = cast<func::ReturnOp>(entry.getTerminator());
  for (auto [index, operand] : llvm::enumerate(returnOp.getOperands())) {
    Value viewed = operand;
    while (Operation *def = viewed.getDefiningOp()) {
      if (!isa<memref::CastOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
              def))
        break;
      viewed = def->getOperand(0);
    }
    auto arg = dyn_cast<BlockArgument>(viewed);
    if (!arg || arg.getOwner() != &entry) {
      return returnOp.emitOpError()
             << "returns a value (#" << index
             << ") that is not a kernel argument; a kernel must write its "
                "results into its arguments";
    }
  }
  return *loop;
}

namespace {
/// The operands of a kernel's gpu.launch, computed on the host.
struct LaunchSizes {
  Value grid[3];
  Value block[3];
  /// Null for clusters of one workgroup (a plain launch).
  Value cluster[3] = {nullptr, nullptr, nullptr};
  /// Null when the workgroup memory is launch attributions.
  Value dynamicSharedMemory;
};
} // namespace

/// Builds, at the rewriter's position on the host, the grid (the trip
/// counts of the workgroup loop), the block (the workgroup size), the
/// dynamic shared memory size when `dynamicBytes` is set, and the cluster of
/// a cluster-aware kernel (gpucg.cluster_shape on its workgroup loop),
/// which must tile the grid.
static FailureOr<LaunchSizes>
buildLaunchSizes(IRRewriter &rewriter, func::FuncOp funcOp, scf::ForallOp loop,
                 ArrayRef<int64_t> workgroupSize,
                 std::optional<int64_t> dynamicBytes) {
  MLIRContext *ctx = funcOp.getContext();
  Location loc = funcOp.getLoc();
  LaunchSizes sizes;
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (Value &size : sizes.grid)
    size = one;
  if (loop) {
    IRMapping hostValues;
    SmallVector<OpFoldResult> lbs = loop.getMixedLowerBound();
    SmallVector<OpFoldResult> ubs = loop.getMixedUpperBound();
    SmallVector<OpFoldResult> steps = loop.getMixedStep();
    for (auto [dim, attr] : llvm::enumerate(loop.getMappingAttr())) {
      int64_t id = cast<gpu::GPUBlockMappingAttr>(attr).getMappingId();
      SmallVector<OpFoldResult> bounds;
      for (OpFoldResult bound : {lbs[dim], ubs[dim], steps[dim]}) {
        if (auto value = dyn_cast<Value>(bound)) {
          FailureOr<Value> host = cloneToHost(rewriter, value, funcOp,
                                              hostValues, loop,
                                              "the workgroup loop's bound");
          if (failed(host))
            return failure();
          bounds.push_back(*host);
        } else {
          bounds.push_back(bound);
        }
      }
      AffineExpr lb, ub, step;
      bindSymbols(ctx, lb, ub, step);
      OpFoldResult trips = affine::makeComposedFoldedAffineApply(
          rewriter, loc, (ub - lb).ceilDiv(step), bounds);
      sizes.grid[id] = getValueOrCreateConstantIndexOp(rewriter, loc, trips);
    }
  }
  for (Value &size : sizes.block)
    size = one;
  for (auto [dim, size] : llvm::enumerate(workgroupSize))
    if (size != 1)
      sizes.block[dim] = arith::ConstantIndexOp::create(rewriter, loc, size);
  if (dynamicBytes)
    sizes.dynamicSharedMemory = arith::ConstantIntOp::create(
        rewriter, loc, rewriter.getI32Type(), *dynamicBytes);

  auto *gpucgDialect = ctx->getLoadedDialect<gpucg::GpucgDialect>();
  DenseI64ArrayAttr clusterShape =
      loop ? gpucgDialect->getClusterShapeAttrHelper().getAttr(loop)
           : DenseI64ArrayAttr();
  if (!clusterShape)
    return sizes;
  for (auto [dim, size] : llvm::enumerate(clusterShape.asArrayRef())) {
    // (Clusters of one workgroup along a dimension divide any grid: a
    // dynamic M's rows of tiles in clusters along N.)
    std::optional<int64_t> gridSize = getConstantIntValue(sizes.grid[dim]);
    if (size != 1 && (!gridSize || *gridSize % size != 0))
      return loop.emitOpError()
             << "asks for clusters of " << size << " workgroups along "
             << "xyz"[dim] << ", which must divide the grid's "
             << (gridSize ? std::to_string(*gridSize)
                          : std::string("dynamic size"));
    sizes.cluster[dim] =
        size == 1 ? one : arith::ConstantIndexOp::create(rewriter, loc, size);
  }
  return sizes;
}

/// Replaces each workgroup allocation by its launch attribution or, with
/// dynamic shared memory, by a view of it at the allocation's offset (the
/// base aligned to `maxAlignment`), and drops the deallocations.
static void
replaceWorkgroupAllocations(IRRewriter &rewriter, gpu::LaunchOp launch,
                            ArrayRef<WorkgroupAllocation> allocations,
                            bool useDynamicSharedMemory, int64_t maxAlignment) {
  MLIRContext *ctx = launch.getContext();
  Location loc = launch.getLoc();
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  Value dynamicBase;
  if (useDynamicSharedMemory) {
    auto workgroup = gpu::AddressSpaceAttr::get(
        ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
    auto baseType =
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup);
    auto base = gpu::DynamicSharedMemoryOp::create(rewriter, loc, baseType);
    // The placements assume a base aligned to the most any allocation asked
    // for; gpucg-convert-to-nvvm aligns the shared-memory symbol to it.
    if (maxAlignment > kWorkgroupMemoryAlignment)
      ctx->getLoadedDialect<gpucg::GpucgDialect>()
          ->getAlignmentAttrHelper()
          .setAttr(base, rewriter.getI64IntegerAttr(maxAlignment));
    dynamicBase = base;
  }
  for (auto [index, allocation] : llvm::enumerate(allocations)) {
    memref::AllocOp alloc = allocation.alloc;
    Value replacement;
    if (useDynamicSharedMemory) {
      rewriter.setInsertionPointAfterValue(dynamicBase);
      Value offset = arith::ConstantIndexOp::create(rewriter, alloc.getLoc(),
                                                    allocation.offset);
      replacement =
          memref::ViewOp::create(rewriter, alloc.getLoc(), alloc.getType(),
                                 dynamicBase, offset, ValueRange());
    } else {
      replacement = launch.getWorkgroupAttributions()[index];
    }
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.eraseOp(user);
    rewriter.replaceOp(alloc, replacement);
  }
}

static LogicalResult buildLaunch(func::FuncOp funcOp,
                                 gpucg::TranslationInfoAttr translation) {
  MLIRContext *ctx = funcOp.getContext();
  FailureOr<scf::ForallOp> maybeLoop =
      verifyLaunchableKernel(funcOp, translation);
  if (failed(maybeLoop))
    return failure();
  scf::ForallOp loop = *maybeLoop;
  Block &entry = funcOp.getBody().front();
  auto returnOp = cast<func::ReturnOp>(entry.getTerminator());

  gpucg::TargetAttr target = gpucg::getTarget(funcOp);
  int64_t staticLimit = target ? target.getMaxSharedMemoryPerBlock()
                               : kDefaultStaticSharedMemoryLimit;
  int64_t optinLimit =
      target ? target.getMaxSharedMemoryPerBlockOptin() : staticLimit;
  int64_t workgroupBytes = 0, maxAlignment = 0;
  FailureOr<SmallVector<WorkgroupAllocation>> allocations =
      layOutWorkgroupMemory(funcOp, loop, workgroupBytes, maxAlignment);
  if (failed(allocations))
    return failure();
  // Launch attributions get the lowering's default alignment; views of
  // dynamic shared memory get the placements above.
  bool useDynamicSharedMemory =
      workgroupBytes > staticLimit || maxAlignment > kWorkgroupMemoryAlignment;
  if (workgroupBytes > optinLimit) {
    return funcOp.emitOpError()
           << "needs " << workgroupBytes
           << " bytes of workgroup memory, more than the "
           << (target ? target.getChip() : StringRef("default target"))
           << " opt-in limit of " << optinLimit << " bytes per block";
  }

  // Grid and block on the host, at the top of the function, after the
  // host-side preparations the kernel takes as operands.
  IRRewriter rewriter(ctx);
  FailureOr<Operation *> hostPrologueEnd = hoistHostPreparations(funcOp);
  if (failed(hostPrologueEnd))
    return failure();
  if (*hostPrologueEnd)
    rewriter.setInsertionPointAfter(*hostPrologueEnd);
  else
    rewriter.setInsertionPointToStart(&entry);
  FailureOr<LaunchSizes> sizes = buildLaunchSizes(
      rewriter, funcOp, loop, translation.getWorkgroupSize(),
      useDynamicSharedMemory ? std::optional<int64_t>(workgroupBytes)
                             : std::nullopt);
  if (failed(sizes))
    return failure();

  SmallVector<Type> attributionTypes;
  if (!useDynamicSharedMemory)
    for (WorkgroupAllocation &allocation : *allocations)
      attributionTypes.push_back(allocation.alloc.getType());
  Location loc = funcOp.getLoc();
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, sizes->grid[0], sizes->grid[1], sizes->grid[2],
      sizes->block[0], sizes->block[1], sizes->block[2],
      sizes->dynamicSharedMemory, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, attributionTypes,
      /*privateAttributions=*/{}, sizes->cluster[0], sizes->cluster[1],
      sizes->cluster[2]);
  Block &launchBody = launch.getBody().front();
  // MLIR 22's builder gives a clustered launch's region no arguments for
  // the cluster ids and sizes, which its verifier and printer expect after
  // the block and thread ones.
  unsigned numRegionArguments =
      launch.getNumConfigRegionAttributes() + attributionTypes.size();
  while (launchBody.getNumArguments() < numRegionArguments)
    launchBody.insertArgument(gpu::LaunchOp::kNumConfigRegionAttributes,
                              rewriter.getIndexType(), loc);
  // gpu::LaunchOp's builder leaves the body empty; end it with a terminator
  // and move the kernel's ops before it.
  rewriter.setInsertionPointToEnd(&launchBody);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  // Everything after the host computations moves into the launch.
  for (Operation &op : llvm::make_early_inc_range(llvm::make_range(
           std::next(launch->getIterator()), returnOp->getIterator())))
    op.moveBefore(terminator);
  // A returned view of an argument (verifyLaunchableKernel) moved with the
  // rest; the host computes its own.
  rewriter.setInsertionPoint(returnOp);
  IRMapping hostValues;
  for (OpOperand &operand : returnOp->getOpOperands()) {
    Operation *def = operand.get().getDefiningOp();
    if (!def || !launch->isAncestor(def))
      continue;
    FailureOr<Value> host =
        cloneToHost(rewriter, operand.get(), funcOp, hostValues, returnOp,
                    "the returned view of an argument");
    if (failed(host))
      return failure();
    operand.set(*host);
  }

  // Workgroup memory: launch attributions, or views of dynamic shared memory.
  replaceWorkgroupAllocations(rewriter, launch, *allocations,
                              useDynamicSharedMemory, maxAlignment);
  if (loop)
    inlineWorkgroupLoop(rewriter, loop, launch.getBlockIds());

  // The launch now carries the grid and block; the kernel function the
  // outliner creates gets them back as gpu.known_* attributes.
  funcOp->removeAttr(
      gpu::GPUDialect::KnownBlockSizeAttrHelper(funcOp.getContext()).getName());
  funcOp->removeAttr(
      gpu::GPUDialect::KnownGridSizeAttrHelper(funcOp.getContext()).getName());
  return success();
}

namespace {
struct BuildGPULaunchPass
    : public gpucg::impl::BuildGPULaunchBase<BuildGPULaunchPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    if (funcOp.isDeclaration())
      return;
    gpucg::TranslationInfoAttr translation =
        gpucg::getTranslationInfo(funcOp);
    if (!translation)
      return;
    if (failed(buildLaunch(funcOp, translation)))
      signalPassFailure();
  }
};
} // namespace
