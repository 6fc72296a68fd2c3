//===- SplitK.cpp - Split-K across workgroups, combined in a fixed order --===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A matmul with few output tiles (M = 16 or 128 rows of a Llama layer, a
// 1000^3 problem in 128 x 128 tiles) leaves SMs idle whatever its main loop
// does. Split-K gives each tile's K loop to S workgroups (grid z) and adds
// their partial sums up afterwards, in one kernel:
//
//   1. gpucg-create-split-k-workspace (module, after bufferization): the
//      kernel's partial sums and per-tile arrival counters as module-level
//      globals, which gpu-kernel-outlining copies into the GPU module, so
//      nothing changes for a caller;
//   2. gpucg-split-k-across-workgroups (first in the mma.sync and wgmma
//      workgroup pipelines): the workgroup loop's z dimension of S parts,
//      each reading its part of K of A and B; every later stage compiles the
//      part as an ordinary tile whose K is K / S;
//   3. gpucg-combine-split-k (after gpucg-vector-to-gpu): after the K loop,
//      each workgroup publishes its accumulators and counts its arrival; the
//      last one of the tile adds the S partial sums in part order and runs
//      the epilogue. Which workgroup is last depends on timing; the order of
//      the sum does not, so results do not either. MatmulWgmma kernels do
//      this in their consumer warpgroups, on the staged accumulator
//      (combineSplitKParts in WgmmaKernel.cpp), with the helpers below.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/LoweringStrategy.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_SPLITKACROSSWORKGROUPS
#define GEN_PASS_DEF_CREATESPLITKWORKSPACE
#define GEN_PASS_DEF_COMBINESPLITK
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

std::string mlir::gpucg::getSplitKPartialsName(StringRef funcName) {
  return ("__gpucg_split_k_partials_" + funcName).str();
}

std::string mlir::gpucg::getSplitKCountersName(StringRef funcName) {
  return ("__gpucg_split_k_counters_" + funcName).str();
}

/// The one root (lowering_config) of split-K kernel `funcOp`, or an error.
static FailureOr<std::pair<linalg::LinalgOp, LoweringConfigAttr>>
getSplitKRoot(FunctionOpInterface funcOp, int64_t splitK) {
  auto roots = getLoweringConfigRoots(funcOp);
  if (roots.size() != 1)
    return funcOp.emitOpError()
           << "splits K into " << splitK << " parts (split_k) but has "
           << roots.size()
           << " ops with a gpucg.lowering_config; expected one root matmul";
  auto [root, config] = roots.front();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(root);
  // Each input is read along K in one dimension: a part is its subview.
  auto readsAlongK = [&](OpOperand *input) {
    return root.getMatchingIndexingMap(input)
        .getResultPosition(
            getAffineDimExpr(*dims->k.begin(), root.getContext()))
        .has_value();
  };
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || !dims->batch.empty() ||
      config.getTileSizes(0).size() != root.getNumLoops() ||
      !llvm::all_of(root.getDpsInputOperands(), readsAlongK))
    return root.emitOpError()
           << "is the root of a kernel that splits K into " << splitK
           << " parts (split_k), but is not an unbatched matmul with one "
              "level-0 tile size per loop";
  return roots.front();
}

/// The workspace of stream-K kernel `funcOp` (after workgroup tiling): a
/// counter per tile of its gpu.known_grid_size (batches included), two
/// slots per workgroup of its persistent grid.
static FailureOr<SplitKWorkspace>
getStreamKWorkspace(FunctionOpInterface funcOp, TranslationInfoAttr info) {
  auto roots = getLoweringConfigRoots(funcOp);
  FailureOr<linalg::ContractionDimensions> dims =
      roots.size() == 1 ? linalg::inferContractionDims(roots.front().first)
                        : FailureOr<linalg::ContractionDimensions>(failure());
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      roots.front().second.getTileSizes(0).size() !=
          roots.front().first.getNumLoops())
    return funcOp.emitOpError()
           << "runs stream-K (stream_k) but has no one root matmul with a "
              "gpucg.lowering_config of one level-0 tile size per loop";
  LoweringConfigAttr config = roots.front().second;
  auto grid = gpu::GPUDialect::KnownGridSizeAttrHelper(funcOp->getContext())
                  .getAttr(funcOp);
  if (!grid || grid.size() != 3)
    return funcOp.emitOpError()
           << "runs stream-K (stream_k) but has no gpu.known_grid_size (run "
              "gpucg-tile-and-distribute-to-workgroups first)";
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  return SplitKWorkspace::getStreamK(
      funcOp->getContext(), int64_t(grid[0]) * grid[1] * grid[2],
      info.getPersistentWorkgroups().value_or(0),
      level0[dims->m.front()] * level0[dims->n.front()]);
}

SplitKWorkspace SplitKWorkspace::getSplitK(Type elementType, int64_t tiles,
                                           int64_t parts,
                                           int64_t tileElements) {
  SplitKWorkspace workspace;
  workspace.elementType = elementType;
  workspace.tiles = tiles;
  workspace.parts = parts;
  workspace.tileElements = tileElements;
  workspace.slots = tiles * parts;
  return workspace;
}

SplitKWorkspace SplitKWorkspace::getStreamK(MLIRContext *context, int64_t tiles,
                                            int64_t workgroups,
                                            int64_t tileElements) {
  SplitKWorkspace workspace;
  workspace.elementType = Float32Type::get(context);
  workspace.tiles = tiles;
  workspace.tileElements = tileElements;
  workspace.slots = kStreamKSlotsPerWorkgroup * workgroups;
  return workspace;
}

FailureOr<SplitKWorkspace>
mlir::gpucg::getSplitKWorkspace(FunctionOpInterface funcOp) {
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  if (info && info.getStreamK())
    return getStreamKWorkspace(funcOp, info);
  int64_t splitK = info ? info.getSplitK() : 1;
  FailureOr<std::pair<linalg::LinalgOp, LoweringConfigAttr>> root =
      getSplitKRoot(funcOp, splitK);
  if (failed(root))
    return failure();
  auto [op, config] = *root;
  auto grid = gpu::GPUDialect::KnownGridSizeAttrHelper(funcOp->getContext())
                  .getAttr(funcOp);
  if (!grid || grid.size() != 3)
    return funcOp.emitOpError()
           << "splits K into " << splitK
           << " parts (split_k) but has no gpu.known_grid_size (run "
              "gpucg-tile-and-distribute-to-workgroups first)";
  linalg::ContractionDimensions dims = *linalg::inferContractionDims(op);
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  return SplitKWorkspace::getSplitK(
      getElementTypeOrSelf(op.getDpsInitOperand(0)->get()),
      int64_t(grid[0]) * grid[1], splitK,
      level0[dims.m.front()] * level0[dims.n.front()]);
}

//===----------------------------------------------------------------------===//
// The workspace
//===----------------------------------------------------------------------===//

/// The global `name` of `type` in `module`: the existing one if its type is
/// `type`, else a new one with `initialValue` (null: uninitialized).
static FailureOr<memref::GlobalOp>
getOrCreateGlobal(OpBuilder &builder, SymbolTable &symbols, ModuleOp module,
                  StringRef name, MemRefType type, Attribute initialValue) {
  if (Operation *existing = symbols.lookup(name)) {
    auto global = dyn_cast<memref::GlobalOp>(existing);
    if (!global || global.getType() != type)
      return existing->emitOpError()
             << "has the name of a split-K buffer of type " << type
             << ", but is not a memref.global of that type";
    return global;
  }
  builder.setInsertionPointToStart(module.getBody());
  auto global = memref::GlobalOp::create(
      builder, module.getLoc(), name, builder.getStringAttr("private"), type,
      initialValue ? initialValue : builder.getUnitAttr(),
      /*constant=*/false, /*alignment=*/builder.getI64IntegerAttr(16));
  symbols.insert(global);
  return global;
}

LogicalResult mlir::gpucg::createSplitKWorkspaces(ModuleOp module) {
  SymbolTable symbols(module);
  OpBuilder builder(module.getContext());
  for (auto funcOp : module.getOps<FunctionOpInterface>()) {
    TranslationInfoAttr info = getTranslationInfo(funcOp);
    if (!info || (info.getSplitK() <= 1 && !info.getStreamK()) ||
        funcOp.isExternal())
      continue;
    FailureOr<SplitKWorkspace> workspace = getSplitKWorkspace(funcOp);
    if (failed(workspace))
      return failure();
    auto partialsType =
        MemRefType::get({workspace->getNumPartials()}, workspace->elementType);
    auto countersType =
        MemRefType::get({workspace->tiles}, builder.getI32Type());
    if (failed(getOrCreateGlobal(builder, symbols, module,
                                 getSplitKPartialsName(funcOp.getName()),
                                 partialsType, Attribute())) ||
        failed(getOrCreateGlobal(
            builder, symbols, module, getSplitKCountersName(funcOp.getName()),
            countersType,
            DenseElementsAttr::get(
                RankedTensorType::get({workspace->tiles}, builder.getI32Type()),
                builder.getI32IntegerAttr(0)))))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The parts of K
//===----------------------------------------------------------------------===//

LogicalResult mlir::gpucg::splitKAcrossWorkgroups(RewriterBase &rewriter,
                                                  FunctionOpInterface funcOp) {
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  if (!info || info.getSplitK() <= 1)
    return success();
  int64_t splitK = info.getSplitK();
  FailureOr<std::pair<linalg::LinalgOp, LoweringConfigAttr>> rootAndConfig =
      getSplitKRoot(funcOp, splitK);
  if (failed(rootAndConfig))
    return failure();
  linalg::LinalgOp root = rootAndConfig->first;
  auto fail = [&](Operation *op) {
    return op->emitOpError() << "is in a kernel that splits K into " << splitK
                             << " parts (split_k), but ";
  };
  if (!root.hasPureBufferSemantics())
    return fail(root) << "is not bufferized (run gpucg-bufferize first)";
  auto forallOp = dyn_cast<scf::ForallOp>(root->getParentOp());
  if (!forallOp || !isWorkgroupLoop(forallOp))
    return fail(root) << "is not directly in a workgroup loop (an scf.forall "
                         "over #gpu.block; run gpucg-tile-and-distribute-to-"
                         "workgroups)";
  if (!forallOp.getOutputs().empty())
    return fail(forallOp) << "it has shared outputs (it must be on memrefs)";
  for (Attribute mapping : forallOp.getMappingAttr())
    if (cast<gpu::GPUBlockMappingAttr>(mapping).getBlock() ==
        gpu::MappingId::DimZ)
      return fail(forallOp) << "its tiles already take grid z, which the "
                               "parts of K take";

  unsigned kLoop = *linalg::inferContractionDims(root)->k.begin();
  int64_t k = root.getStaticLoopRanges()[kLoop];
  // MatmulWgmma's parts are whole K steps, the last reaching past K (its
  // view runs past the argument's end there; TMA, which reads the argument
  // itself, fills those steps with zeros); mma.sync's divide K.
  int64_t tileK = rootAndConfig->second.getTileSizes(0)[kLoop];
  bool wholeSteps = info.getPipeline() == Pipeline::MatmulWgmma;
  int64_t part = ShapedType::isDynamic(k)
                     ? 0
                     : getSplitKPart(k, splitK, tileK, wholeSteps);
  if (!part) {
    InFlightDiagnostic diag = fail(root) << "its K of "
                                         << (ShapedType::isDynamic(k) ? -1 : k)
                                         << " elements is not static and ";
    if (wholeSteps)
      diag << "split into parts of whole K steps of " << tileK
           << ", each starting before K ends";
    else
      diag << "a multiple of " << splitK;
    return diag;
  }

  Location loc = root.getLoc();
  scf::ForallOp newForall = addWorkgroupLoopDimension(
      rewriter, forallOp, splitK, static_cast<unsigned>(gpu::MappingId::DimZ));
  Value partIndex = newForall.getInductionVars().back();
  rewriter.setInsertionPoint(root);
  AffineExpr d0 = rewriter.getAffineDimExpr(0);
  Value offset = affine::AffineApplyOp::create(
      rewriter, loc, AffineMap::get(1, 0, d0 * part), ValueRange{partIndex});
  AffineExpr kExpr = rewriter.getAffineDimExpr(kLoop);
  for (OpOperand *input : root.getDpsInputOperands()) {
    // A bufferized root's inputs are memrefs; getSplitKRoot checked that
    // each reads K in one dimension.
    auto type = cast<MemRefType>(input->get().getType());
    unsigned kPos =
        *root.getMatchingIndexingMap(input).getResultPosition(kExpr);
    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        memref::getMixedSizes(rewriter, loc, input->get());
    SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
    offsets[kPos] = offset;
    sizes[kPos] = rewriter.getIndexAttr(part);
    Value view = memref::SubViewOp::create(rewriter, loc, input->get(), offsets,
                                           sizes, strides);
    rewriter.modifyOpInPlace(root, [&] { input->set(view); });
  }

  gpu::GPUDialect::KnownGridSizeAttrHelper gridHelper(rewriter.getContext());
  if (auto grid = gridHelper.getAttr(funcOp)) {
    SmallVector<int32_t> sizes(grid.asArrayRef());
    if (sizes.size() == 3) {
      sizes[2] *= static_cast<int32_t>(splitK);
      gridHelper.setAttr(funcOp,
                         DenseI32ArrayAttr::get(rewriter.getContext(), sizes));
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The sum of the parts
//===----------------------------------------------------------------------===//

/// Whether `value` is a constant zero (a scalar or a splat vector).
static bool isZeroConstant(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// The K loops of workgroup loop `forallOp`: the scf.for ops in its tile,
/// outside any other scf.for, that run mma.sync and carry values.
static SmallVector<scf::ForOp> getKLoops(scf::ForallOp forallOp) {
  SmallVector<scf::ForOp> loops;
  forallOp.getBody()->walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    bool hasMma = false;
    loop.walk([&](nvgpu::MmaSyncOp) { hasMma = true; });
    if (hasMma && loop.getNumResults() > 0)
      loops.push_back(loop);
    return WalkResult::skip();
  });
  return loops;
}

/// The facts every K loop's fixup shares.
struct SplitKFixup {
  SplitKWorkspace workspace;
  memref::GlobalOp partials, counters;
  Value flag;   // memref<1xi32> in workgroup memory
  Value tile;   // the output tile's index in the counters
  Value part;   // this workgroup's part of K
  Value thread; // the thread's linear id in its workgroup
  int64_t threads = 0;
};

Value mlir::gpucg::createSplitKArrival(
    OpBuilder &b, Location loc, Value counters, Value tile, Value thread,
    Value flag, int64_t parts, function_ref<void(OpBuilder &)> barrier) {
  return createSplitKArrival(
      b, loc, counters, tile, thread, flag,
      arith::ConstantIntOp::create(b, loc, 1, 32),
      arith::ConstantIntOp::create(b, loc, parts - 1, 32), barrier);
}

Value mlir::gpucg::createSplitKArrival(
    OpBuilder &b, Location loc, Value counters, Value tile, Value thread,
    Value flag, Value amount, Value lastCount,
    function_ref<void(OpBuilder &)> barrier) {
  auto fence = [&] { NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU); };
  fence();
  barrier(b);
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, c0);
  auto thread0If = scf::IfOp::create(b, loc, isThread0,
                                     /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(thread0If.thenBlock());
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value arrived = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addi, amount, counters, ValueRange{tile});
    fence();
    Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         arrived, lastCount);
    auto resetIf = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
    b.setInsertionPointToStart(resetIf.thenBlock());
    memref::StoreOp::create(b, loc, zero, counters, ValueRange{tile});
    b.setInsertionPointAfter(resetIf);
    Value flagValue = arith::ExtUIOp::create(b, loc, b.getI32Type(), isLast);
    memref::StoreOp::create(b, loc, flagValue, flag, ValueRange{c0});
  }
  barrier(b);
  Value flagValue = memref::LoadOp::create(b, loc, flag, ValueRange{c0});
  Value zero32 = arith::ConstantIntOp::create(b, loc, 0, 32);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flagValue,
                               zero32);
}

/// Rewrites the code after K loop `loop` (see combineSplitK).
static LogicalResult combineAfterLoop(RewriterBase &rewriter, scf::ForOp loop,
                                      SplitKFixup &fixup) {
  Location loc = loop.getLoc();
  const SplitKWorkspace &ws = fixup.workspace;
  Block *block = loop->getBlock();
  if (block->mightHaveTerminator() && block->getTerminator()->getNumOperands())
    return loop.emitOpError()
           << "is a K loop of a split-K kernel in a block whose terminator "
              "yields values; the rest of the block cannot be skipped by the "
              "workgroups that are not the last of their tile";
  // Each accumulator: a static vector of the workspace's element type,
  // starting from zero; together one element of the tile per thread.
  SmallVector<int64_t> sizes, prefixes;
  int64_t perThread = 0;
  for (auto [index, result] : llvm::enumerate(loop.getResults())) {
    auto type = dyn_cast<VectorType>(result.getType());
    if (!type || !type.hasStaticShape() ||
        type.getElementType() != ws.elementType)
      return loop.emitOpError()
             << "is a K loop of a split-K kernel, but its result #" << index
             << " of type " << result.getType() << " is not a vector of "
             << ws.elementType << " (an mma.sync accumulator)";
    if (!isZeroConstant(loop.getInitArgs()[index]))
      return loop.emitOpError()
             << "is a K loop of a split-K kernel, but its accumulator #"
             << index
             << " does not start from zero: each part of K must sum its own "
                "products, and the parts are added once";
    prefixes.push_back(perThread);
    sizes.push_back(type.getNumElements());
    perThread += type.getNumElements();
  }
  if (perThread * fixup.threads != ws.tileElements)
    return loop.emitOpError()
           << "is a K loop of a split-K kernel whose " << fixup.threads
           << " threads hold " << perThread
           << " accumulator elements each, not the " << ws.tileElements
           << " elements of the workgroup tile";

  // The rest of the block: what only the last workgroup runs.
  SmallVector<Operation *> rest;
  for (Operation *op = loop->getNextNode(); op && !isBlockTerminator(op);
       op = op->getNextNode())
    rest.push_back(op);

  rewriter.setInsertionPointAfter(loop);
  MLIRContext *ctx = rewriter.getContext();
  Value partials = memref::GetGlobalOp::create(
      rewriter, loc, fixup.partials.getType(), fixup.partials.getName());
  Value counters = memref::GetGlobalOp::create(
      rewriter, loc, fixup.counters.getType(), fixup.counters.getName());
  // Element offset of accumulator `index` of `part` in the tile's slot:
  // ((tile * S + part) * tileElements) + prefix * threads + thread * size.
  AffineExpr tile, part, thread;
  bindSymbols(ctx, tile, part, thread);
  auto offsetOf = [&](Value partValue, int64_t index,
                      OpBuilder *builder = nullptr) {
    AffineExpr expr = (tile * ws.parts + part) * ws.tileElements +
                      prefixes[index] * fixup.threads + thread * sizes[index];
    return affine::AffineApplyOp::create(
        builder ? *builder : rewriter, loc, AffineMap::get(0, 3, expr),
        ValueRange{fixup.tile, partValue, fixup.thread});
  };

  // 1. Publish this part's sums.
  for (auto [index, result] : llvm::enumerate(loop.getResults())) {
    auto flat = VectorType::get({sizes[index]}, ws.elementType);
    Value vector = vector::ShapeCastOp::create(rewriter, loc, flat, result);
    vector::StoreOp::create(rewriter, loc, vector, partials,
                            ValueRange{offsetOf(fixup.part, index)});
  }
  // 2. Count the workgroup's arrival; the last one learns it is.
  Value isLast = createSplitKArrival(
      rewriter, loc, counters, fixup.tile, fixup.thread, fixup.flag, ws.parts,
      [&](OpBuilder &b) { gpu::BarrierOp::create(b, loc); });

  // 3. The last workgroup adds the parts in part order and runs the rest.
  auto lastIf = scf::IfOp::create(rewriter, loc, isLast,
                                  /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(lastIf.thenBlock());
  Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value numParts = arith::ConstantIndexOp::create(rewriter, loc, ws.parts);
  // One loop over the parts, all accumulators at once: the loads of a part
  // are independent of each other.
  SmallVector<Value> starts;
  SmallVector<VectorType> flatTypes;
  for (int64_t size : sizes) {
    auto flat = VectorType::get({size}, ws.elementType);
    flatTypes.push_back(flat);
    starts.push_back(arith::ConstantOp::create(rewriter, loc, flat,
                                               rewriter.getZeroAttr(flat)));
  }
  auto sum = scf::ForOp::create(
      rewriter, loc, c0, numParts, c1, starts,
      [&](OpBuilder &b, Location bodyLoc, Value partValue, ValueRange acc) {
        SmallVector<Value> added;
        for (auto [index, flat] : llvm::enumerate(flatTypes)) {
          Value loaded = vector::LoadOp::create(
              b, bodyLoc, flat, partials,
              ValueRange{offsetOf(partValue, index, &b)});
          added.push_back(
              isa<FloatType>(ws.elementType)
                  ? arith::AddFOp::create(b, bodyLoc, acc[index], loaded)
                        .getResult()
                  : arith::AddIOp::create(b, bodyLoc, acc[index], loaded)
                        .getResult());
        }
        scf::YieldOp::create(b, bodyLoc, added);
      });
  SmallVector<Value> totals;
  for (auto [result, total] :
       llvm::zip_equal(loop.getResults(), sum.getResults()))
    totals.push_back(
        vector::ShapeCastOp::create(rewriter, loc, result.getType(), total));
  Operation *thenYield = lastIf.thenBlock()->getTerminator();
  for (Operation *op : rest)
    rewriter.moveOpBefore(op, thenYield);
  for (auto [result, total] : llvm::zip_equal(loop.getResults(), totals))
    rewriter.replaceUsesWithIf(result, total, [&](OpOperand &use) {
      return lastIf->isProperAncestor(use.getOwner()) &&
             use.getOwner() != total.getDefiningOp();
    });
  return success();
}

SplitKBuffers mlir::gpucg::lookupSplitKGlobals(FunctionOpInterface funcOp) {
  auto lookup = [&](const std::string &name) -> memref::GlobalOp {
    return dyn_cast_or_null<memref::GlobalOp>(
        SymbolTable::lookupNearestSymbolFrom(
            funcOp, StringAttr::get(funcOp->getContext(), name)));
  };
  SplitKBuffers buffers;
  buffers.partials = lookup(getSplitKPartialsName(funcOp.getName()));
  buffers.counters = lookup(getSplitKCountersName(funcOp.getName()));
  return buffers;
}

FailureOr<SplitKBuffers>
mlir::gpucg::getSplitKBuffers(FunctionOpInterface funcOp) {
  // The workspace as gpucg-create-split-k-workspace made it: the root (and
  // its lowering_config) is gone once the tile is vectorized.
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  int64_t splitK = info ? info.getSplitK() : 1;
  SplitKBuffers buffers = lookupSplitKGlobals(funcOp);
  auto grid = gpu::GPUDialect::KnownGridSizeAttrHelper(funcOp->getContext())
                  .getAttr(funcOp);
  int64_t tiles = grid && grid.size() == 3 ? int64_t(grid[0]) * grid[1] : 0;
  if (!buffers.partials || !buffers.counters || tiles == 0 ||
      buffers.counters.getType().getNumElements() != tiles ||
      buffers.partials.getType().getNumElements() % (tiles * splitK) != 0)
    return funcOp.emitOpError()
           << "splits K into " << splitK
           << " parts (split_k) but its module has no memref.globals @"
           << getSplitKPartialsName(funcOp.getName()) << " and @"
           << getSplitKCountersName(funcOp.getName())
           << " for the output tiles of its gpu.known_grid_size (run "
              "gpucg-create-split-k-workspace first)";
  buffers.workspace = SplitKWorkspace::getSplitK(
      buffers.partials.getType().getElementType(), tiles, splitK,
      buffers.partials.getType().getNumElements() / (tiles * splitK));
  return buffers;
}

FailureOr<std::pair<Value, Value>>
mlir::gpucg::getSplitKTileAndPart(OpBuilder &b, scf::ForallOp forallOp) {
  MLIRContext *ctx = b.getContext();
  Location loc = forallOp.getLoc();
  Value tileX, tileY, part;
  int64_t tilesX = 1;
  for (auto [dim, mapping] : llvm::enumerate(forallOp.getMappingAttr())) {
    std::optional<int64_t> trips = getStaticTripCount(forallOp, dim);
    std::optional<int64_t> lb =
        getConstantIntValue(forallOp.getMixedLowerBound()[dim]);
    std::optional<int64_t> step =
        getConstantIntValue(forallOp.getMixedStep()[dim]);
    if (!trips || !lb || !step)
      return forallOp.emitOpError()
             << "is the workgroup loop of a split-K kernel, but its dimension "
             << dim << " has no static bounds";
    AffineExpr iv = getAffineDimExpr(0, ctx);
    Value index = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, (iv - *lb).floorDiv(*step)),
        ValueRange{forallOp.getInductionVars()[dim]});
    switch (cast<gpu::GPUBlockMappingAttr>(mapping).getBlock()) {
    case gpu::MappingId::DimX:
      tileX = index;
      tilesX = *trips;
      break;
    case gpu::MappingId::DimY:
      tileY = index;
      break;
    case gpu::MappingId::DimZ:
      part = index;
      break;
    default:
      break;
    }
  }
  if (!part)
    return forallOp.emitOpError()
           << "is the workgroup loop of a split-K kernel, but has no dimension "
              "on grid z (run gpucg-split-k-across-workgroups first)";
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  AffineExpr x, y;
  bindSymbols(ctx, y, x);
  Value tile = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(0, 2, y * tilesX + x),
      ValueRange{tileY ? tileY : c0, tileX ? tileX : c0});
  return std::make_pair(tile, part);
}

LogicalResult mlir::gpucg::combineSplitK(RewriterBase &rewriter,
                                         FunctionOpInterface funcOp) {
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  if (!info || info.getSplitK() <= 1)
    return success();
  FailureOr<SplitKBuffers> buffers = getSplitKBuffers(funcOp);
  if (failed(buffers))
    return failure();
  SplitKFixup fixup;
  fixup.partials = buffers->partials;
  fixup.counters = buffers->counters;
  fixup.workspace = buffers->workspace;
  SplitKWorkspace *workspace = &fixup.workspace;

  SmallVector<scf::ForallOp> workgroupLoops;
  funcOp.walk([&](scf::ForallOp forallOp) {
    if (isWorkgroupLoop(forallOp))
      workgroupLoops.push_back(forallOp);
  });
  if (workgroupLoops.size() != 1)
    return funcOp.emitOpError()
           << "splits K into " << workspace->parts
           << " parts (split_k) but has " << workgroupLoops.size()
           << " workgroup loops; expected one";
  scf::ForallOp forallOp = workgroupLoops.front();
  SmallVector<scf::ForOp> loops = getKLoops(forallOp);
  if (loops.empty())
    return funcOp.emitOpError()
           << "splits K into " << workspace->parts
           << " parts (split_k) but its workgroup tile has no K loop (an "
              "scf.for of nvgpu.mma.sync ops carrying the accumulators; run "
              "gpucg-vector-to-gpu first)";

  MLIRContext *ctx = rewriter.getContext();
  Location loc = forallOp.getLoc();
  rewriter.setInsertionPointToStart(forallOp.getBody());
  FailureOr<std::pair<Value, Value>> tileAndPart =
      getSplitKTileAndPart(rewriter, forallOp);
  if (failed(tileAndPart))
    return failure();
  std::tie(fixup.tile, fixup.part) = *tileAndPart;
  ArrayRef<int64_t> block = info.getWorkgroupSize();
  fixup.threads = block[0] * block[1] * block[2];
  Value tx = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value ty = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::y);
  Value tz = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::z);
  AffineExpr ex, ey, ez;
  bindSymbols(ctx, ex, ey, ez);
  fixup.thread = affine::AffineApplyOp::create(
      rewriter, loc, AffineMap::get(0, 3, ex + block[0] * (ey + block[1] * ez)),
      ValueRange{tx, ty, tz});

  // The flag that tells the workgroup it is the last of its tile: workgroup
  // memory, allocated with the kernel's other workgroup buffers.
  rewriter.setInsertionPointToStart(&funcOp.getFunctionBody().front());
  auto flagType = MemRefType::get(
      {1}, rewriter.getI32Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  fixup.flag = memref::AllocOp::create(rewriter, loc, flagType);

  for (scf::ForOp loop : loops)
    if (failed(combineAfterLoop(rewriter, loop, fixup)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Passes
//===----------------------------------------------------------------------===//

namespace {
struct SplitKAcrossWorkgroupsPass
    : public gpucg::impl::SplitKAcrossWorkgroupsBase<
          SplitKAcrossWorkgroupsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(splitKAcrossWorkgroups(rewriter, getOperation())))
      signalPassFailure();
  }
};

struct CreateSplitKWorkspacePass
    : public gpucg::impl::CreateSplitKWorkspaceBase<CreateSplitKWorkspacePass> {
  void runOnOperation() override {
    if (failed(createSplitKWorkspaces(getOperation())))
      signalPassFailure();
  }
};

struct CombineSplitKPass
    : public gpucg::impl::CombineSplitKBase<CombineSplitKPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(combineSplitK(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
