//===- MatmulToWgmma.cpp - Workgroup matmul as TMA + warpgroup MMA --------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The workgroup stage of pipeline MatmulWgmma (sm_90a). A MatmulWgmma
// workgroup owns a tileM x tileN block of C and walks K in steps of one
// 128-byte row of A and B:
//
//   host:   one TMA tensor map per operand, built on the kernel's argument
//           (A boxes tileM x tileK, B boxes tileK x 64 or tileN x tileK:
//           128-byte swizzled rows, the only swizzle warpgroup descriptors
//           encode);
//   kernel: a ring of `pipeline_depth` stages in workgroup memory, each
//           with a full mbarrier. One thread starts the TMA loads of a
//           stage and declares its bytes (expect_tx); the multiplying
//           warpgroups wait on the stage's phase and issue the K step's
//           wgmma groups, one per 64-row accumulator in registers (and
//           per wgmma K step of 32 bytes for a K-contiguous B), leaving
//           the step's groups in flight; the stage the previous step read
//           is then refilled (one warpgroup: after a barrier) or released
//           on an empty mbarrier to a producer warpgroup (warp
//           specialization);
//   store:  each f32 accumulator straight to C (nvgpu.warpgroup.mma.store).
//
// Everything is upstream nvgpu ops; gpucg-convert-to-nvvm lowers them.
//
// This file is the match: it reads the kernel and its translation_info into
// a WgmmaKernelPlan (WgmmaKernel.h), emitting an error for anything the
// rewrite cannot build. WgmmaKernel.cpp builds the plan, one stage at a
// time.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "WgmmaKernel.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/LoweringStrategy.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"
#include "gpucg/Transforms/WgmmaLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/bit.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_LOWERMATMULTOWGMMA
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

using wgmma::kSwizzleBytes;
using wgmma::kWarpgroupThreads;
static constexpr int64_t kWarpgroupRows = wgmma::kTileRows;
static constexpr int64_t kMaxTmaBox = wgmma::kMaxBoxSize;
using wgmma::kMaxConsumers;

std::optional<WgmmaLayouts> mlir::gpucg::getWgmmaLayouts(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  MLIRContext *ctx = op->getContext();
  unsigned numLoops = op.getNumLoops();
  // Each operand's map: the batch loops, in the order of the output's
  // leading dimensions, then its own two.
  SmallVector<AffineExpr> batch;
  AffineMap cMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (cMap.getNumResults() != dims->batch.size() + 2)
    return std::nullopt;
  for (AffineExpr result : cMap.getResults().drop_back(2)) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim || !llvm::is_contained(dims->batch, dim.getPosition()))
      return std::nullopt;
    batch.push_back(result);
  }
  auto map = [&](unsigned row, unsigned column) {
    SmallVector<AffineExpr> results(batch);
    results.push_back(getAffineDimExpr(row, ctx));
    results.push_back(getAffineDimExpr(column, ctx));
    return AffineMap::get(numLoops, 0, results, ctx);
  };
  unsigned m = dims->m.front(), n = dims->n.front(), k = dims->k.front();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[2] != map(m, n))
    return std::nullopt;
  WgmmaLayouts layouts;
  if (maps[0] == map(k, m))
    layouts.aKContiguous = false;
  else if (maps[0] != map(m, k))
    return std::nullopt;
  if (maps[1] == map(n, k))
    layouts.bKContiguous = true;
  else if (maps[1] != map(k, n))
    return std::nullopt;
  Type elementType = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  if (elementType.isIntOrFloat() && !wgmma::readsMNMajor(elementType)) {
    layouts.aRestaged = !layouts.aKContiguous;
    layouts.bRestaged = !layouts.bKContiguous;
    layouts.aKContiguous = layouts.bKContiguous = true;
  }
  return layouts;
}

std::string mlir::gpucg::wgmma::whyNoElementTypes(Type a, Type b, Type c) {
  bool supported = a.isF16() || a.isBF16() || a.isF32() || isFloat8(a);
  if (!supported || a != b || !c.isF32())
    return "MatmulWgmma takes two f16, two bf16, two f32 (multiplied as "
           "TF32), two f8E4M3FN or two f8E5M2 operands with an f32 "
           "accumulator";
  return "";
}

std::string mlir::gpucg::whyNoWgmmaEpilogue(linalg::LinalgOp consumer,
                                            Value accumulator,
                                            ArrayRef<int64_t> resultShape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (consumer.getNumLoops() != resultShape.size() ||
      consumer.getNumParallelLoops() != consumer.getNumLoops()) {
    os << "it has " << consumer.getNumLoops() << " loops, "
       << consumer.getNumReductionLoops()
       << " of them reductions; a fused epilogue is elementwise over the "
          "result's "
       << resultShape.size() << " dimensions";
    return text;
  }
  // (A partial tile's sizes may be dynamic.)
  SmallVector<int64_t> ranges = consumer.getStaticLoopRanges();
  if (ranges != resultShape) {
    os << "its loops run over ";
    printShape(os, ranges);
    os << ", not the ";
    printShape(os, resultShape);
    os << " of the matmul's result";
    return text;
  }
  for (OpOperand &operand : consumer->getOpOperands()) {
    AffineMap map = consumer.getMatchingIndexingMap(&operand);
    bool isInit = consumer.isDpsInit(&operand);
    if (!map.isProjectedPermutation()) {
      os << "its operand " << operand.getOperandNumber() << " is indexed by "
         << map << ", which is not a projected permutation of the loops";
      return text;
    }
    if (isInit && !map.isIdentity()) {
      os << "its output " << operand.getOperandNumber() << " is indexed by "
         << map
         << "; a fused epilogue writes element for element (identity "
            "map)";
      return text;
    }
    if (operand.get() != accumulator)
      continue;
    if (!isInit && !map.isIdentity()) {
      os << "it reads the matmul's result through " << map
         << "; a fused epilogue reads it element for element (identity map)";
      return text;
    }
    if (isInit && consumer.payloadUsesValueFromOperand(&operand))
      return "it reads the matmul's result as an output (its payload uses "
             "the output's value); read it as an input";
  }
  return text;
}

bool mlir::gpucg::isZeroFill(linalg::FillOp fill) {
  Value value = fill.value();
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// Returns the kernel argument `value` views and the view's offsets along
/// each of the argument's dimensions: the argument itself, or a chain of
/// unit-stride memref.subviews of it (a batched tile's rank-reducing view of
/// its one matrix, dropBatchLoops', of the workgroup's view) in which each
/// dimension is offset by one subview at most. The view's dimensions must be
/// the argument's last ones (the batch dimensions, if any, dropped).
static FailureOr<ArgumentView> getArgumentView(Value value,
                                               FunctionOpInterface funcOp) {
  Block *entry = &funcOp.getFunctionBody().front();
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return failure();
  SmallVector<memref::SubViewOp> chain;
  while (auto subview = value.getDefiningOp<memref::SubViewOp>()) {
    chain.push_back(subview);
    value = subview.getSource();
  }
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != entry)
    return failure();
  auto argType = cast<MemRefType>(arg.getType());
  Builder b(value.getContext());
  ArgumentView view{
      arg, SmallVector<OpFoldResult>(argType.getRank(), b.getIndexAttr(0))};
  // The argument's dimension each dimension of the view so far is.
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(0, argType.getRank()));
  for (memref::SubViewOp subview : llvm::reverse(chain)) {
    if (!llvm::all_of(subview.getStaticStrides(),
                      [](int64_t s) { return s == 1; }))
      return failure();
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<int64_t> kept;
    for (auto [index, offset] : llvm::enumerate(subview.getMixedOffsets())) {
      OpFoldResult &total = view.offsets[dims[index]];
      if (!isZeroInteger(offset)) {
        if (!isZeroInteger(total))
          return failure();
        total = offset;
      }
      if (!dropped.test(index))
        kept.push_back(dims[index]);
    }
    dims = std::move(kept);
  }
  int64_t rank = argType.getRank();
  if (dims.size() != static_cast<size_t>(type.getRank()) ||
      !llvm::equal(dims, llvm::seq<int64_t>(rank - type.getRank(), rank)))
    return failure();
  return view;
}

/// A batched MatmulWgmma tile multiplies one matrix of its batch: the batch
/// loops of its matmul, and the leading loops of the ops around it (the
/// accumulator's fill or copy, the epilogue), have one iteration there.
/// Drops them, with upstream's linalg::dropUnitDims on rank-reducing views
/// (made once per buffer, next to it; a temporary of the tile is
/// reallocated in its reduced shape), so that the rest of the lowering sees
/// the 2-D tile of a plain matmul. `root` becomes the generic that replaces
/// it, and `config` its lowering_config without the batch loops' sizes.
/// Emits an error where a batch loop of the matmul has more than one
/// iteration, or a temporary is used otherwise; an op that keeps its batch
/// loops is the matchers' to refuse.
static LogicalResult dropBatchLoops(RewriterBase &rewriter,
                                    linalg::LinalgOp &root,
                                    LoweringConfigAttr &config) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(root);
  if (failed(dims) || dims->batch.empty())
    return success();
  SmallVector<unsigned> batchLoops(dims->batch.begin(), dims->batch.end());
  auto numBatch = static_cast<int64_t>(batchLoops.size());
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  for (unsigned pos : batchLoops)
    if (ranges[pos] != 1)
      return root.emitOpError()
             << "has batch loop d" << pos << " of "
             << (ShapedType::isDynamic(ranges[pos])
                     ? std::string("a dynamic number of")
                     : std::to_string(ranges[pos]))
             << " iterations in its workgroup tile; pipeline MatmulWgmma "
                "multiplies one matrix of a batch per workgroup (a batch "
                "tile of 1)";

  // Each buffer's reduced view (or reallocation), made once.
  llvm::DenseMap<Value, Value> reduced;
  SmallVector<std::pair<memref::AllocOp, memref::AllocOp>> reallocated;
  auto reduce = [&](Value buffer,
                    ArrayRef<int64_t> targetShape) -> FailureOr<Value> {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type)
      return failure();
    if (auto it = reduced.find(buffer); it != reduced.end())
      return it->second;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfterValue(buffer);
    Location loc = buffer.getLoc();
    Value result;
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    if (alloc && type.getLayout().isIdentity()) {
      // (The dropped dimensions are static: the dynamic sizes stay.)
      auto newAlloc = memref::AllocOp::create(
          rewriter, loc,
          MemRefType::get(targetShape, type.getElementType(),
                          MemRefLayoutAttrInterface(), type.getMemorySpace()),
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          alloc.getAlignmentAttr());
      reallocated.push_back({alloc, newAlloc});
      result = newAlloc;
    } else {
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(type.getRank(),
                                        rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> sizes =
          memref::getMixedSizes(rewriter, loc, buffer);
      auto resultType = memref::SubViewOp::inferRankReducedResultType(
          targetShape, type, offsets, sizes, strides);
      result = memref::SubViewOp::create(rewriter, loc, resultType, buffer,
                                         offsets, sizes, strides);
    }
    reduced[buffer] = result;
    return result;
  };
  // A buffer of the batch's rank without its leading unit dimensions.
  auto reduceLeading = [&](Value buffer) -> FailureOr<Value> {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || type.getRank() != numBatch + 2 ||
        llvm::any_of(type.getShape().take_front(numBatch),
                     [](int64_t size) { return size != 1; }))
      return failure();
    return reduce(buffer, type.getShape().drop_front(numBatch));
  };

  linalg::ControlDropUnitDims options;
  options.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  options.collapseFn = [&](RewriterBase &, Location, Value operand,
                           ArrayRef<int64_t> targetShape,
                           ArrayRef<ReassociationIndices>,
                           const linalg::ControlDropUnitDims &) {
    return reduce(operand, targetShape);
  };
  SmallVector<Operation *> ops =
      llvm::map_to_vector(root->getBlock()->without_terminator(),
                          [](Operation &op) { return &op; });
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      FailureOr<Value> output = reduceLeading(fill.getDpsInits()[0]);
      if (failed(output))
        continue;
      linalg::FillOp::create(rewriter, fill.getLoc(), fill.value(), *output);
      rewriter.eraseOp(fill);
      continue;
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      FailureOr<Value> source = reduceLeading(copy.getSource());
      FailureOr<Value> target = reduceLeading(copy.getTarget());
      if (failed(source) || failed(target))
        continue;
      memref::CopyOp::create(rewriter, copy.getLoc(), *source, *target);
      rewriter.eraseOp(copy);
      continue;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    bool isRoot = op == root.getOperation();
    if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
        (!isRoot && (linalgOp.getNumLoops() != numBatch + 2 ||
                     linalgOp.getNumParallelLoops() != numBatch + 2)))
      continue;
    // The loops to drop: the matmul's batch loops; an epilogue op's leading
    // ones, which run over the batch dimensions of its identity-mapped
    // output (whyNoWgmmaEpilogue).
    SmallVector<unsigned> loops =
        isRoot ? batchLoops : llvm::to_vector(llvm::seq<unsigned>(0, numBatch));
    options.controlFn = [loops](Operation *) { return loops; };
    // (An op that keeps its batch loops is refused by the matcher: the
    // matmul's by matchWgmmaMatmul, an epilogue op's by
    // matchWgmmaEpilogue.)
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, linalgOp);
      if (failed(generalized))
        continue;
      generic = *generalized;
      if (isRoot)
        root = generic;
    }
    rewriter.setInsertionPoint(generic);
    FailureOr<linalg::DropUnitDimsResult> result =
        linalg::dropUnitDims(rewriter, generic, options);
    if (failed(result) ||
        result->resultOp->getNumResults() != generic->getNumResults())
      continue;
    rewriter.replaceOp(generic, result->replacements);
    if (!isRoot)
      continue;
    // The lowering_config of the plain matmul.
    SmallVector<SmallVector<int64_t>> levels;
    for (int64_t level = 0, e = config.getNumLevels(); level < e; ++level) {
      SmallVector<int64_t> sizes;
      for (auto [pos, size] : llvm::enumerate(config.getTileSizes(level)))
        if (!llvm::is_contained(batchLoops, pos))
          sizes.push_back(size);
      levels.push_back(sizes);
    }
    config = LoweringConfigAttr::get(rewriter.getContext(), levels);
    root = cast<linalg::LinalgOp>(result->resultOp.getOperation());
    root->setAttr("gpucg.lowering_config", config);
  }
  // The reallocated temporaries: what is left of the old buffers are their
  // deallocations.
  for (auto [oldAlloc, newAlloc] : reallocated) {
    for (Operation *user : llvm::make_early_inc_range(oldAlloc->getUsers())) {
      if (!isa<memref::DeallocOp>(user))
        return user->emitOpError()
               << "uses a temporary of a batched MatmulWgmma tile that the "
                  "batch loops were dropped from; the tile's linalg ops, "
                  "copies and deallocations may use it";
      rewriter.setInsertionPoint(user);
      memref::DeallocOp::create(rewriter, user->getLoc(), newAlloc);
      rewriter.eraseOp(user);
    }
    rewriter.eraseOp(oldAlloc);
  }
  return success();
}

/// Checks the bufferized root `op` against what the rewrite needs and
/// collects its pieces; emits an error on `op` otherwise.
static FailureOr<WgmmaMatmul> matchWgmmaMatmul(linalg::LinalgOp op,
                                               FunctionOpInterface funcOp,
                                               TranslationInfoAttr info,
                                               LoweringConfigAttr config) {
  if (!op.hasPureBufferSemantics())
    return op.emitOpError()
           << "is not bufferized; gpucg-lower-matmul-to-wgmma runs after "
              "gpucg-bufferize";
  std::optional<WgmmaLayouts> layouts = getWgmmaLayouts(op);
  if (!layouts || op.getNumLoops() != 3)
    return op.emitOpError()
           << "is not a matmul over loops (m, n, k); pipeline MatmulWgmma "
              "lowers C[m, n] += A * B with A[m, k] or A[k, m], and B[k, n] "
              "or B[n, k]";
  WgmmaMatmul matmul;
  matmul.op = op;
  matmul.layouts = *layouts;
  // How A and B lie in memory (a restaged operand's wgmma layout is
  // K-major, not its own).
  bool aKContiguous = layouts->isAHeldKContiguous();
  bool bKContiguous = layouts->isBHeldKContiguous();
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  if (level0.size() != 3)
    return op.emitOpError() << "has a lowering_config level 0 of "
                            << level0.size() << " sizes for its 3 loops";
  matmul.tileM = level0[0];
  matmul.tileN = level0[1];
  matmul.tileK = level0[2];
  if (llvm::any_of(level0, [](int64_t size) { return size <= 0; }))
    return op.emitOpError()
           << "has a lowering_config level 0 of [" << level0
           << "]; pipeline MatmulWgmma needs positive M, N and K tiles";
  matmul.stages = info.getPipelineDepth();

  // (Memrefs: the op has pure buffer semantics.)
  auto aType = cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto bType = cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto cType = cast<MemRefType>(op.getDpsInits()[0].getType());
  matmul.elementType = aType.getElementType();
  std::string typeReason = wgmma::whyNoElementTypes(
      aType.getElementType(), bType.getElementType(), cType.getElementType());
  if (!typeReason.empty())
    return op.emitOpError()
           << "computes " << cType.getElementType()
           << " += " << aType.getElementType() << " * "
           << bType.getElementType() << "; pipeline " << typeReason;
  for (auto [index, name] : llvm::enumerate(StringRef("AB"))) {
    FailureOr<ArgumentView> view =
        getArgumentView(op.getDpsInputs()[index], funcOp);
    if (failed(view) ||
        !cast<MemRefType>(view->argument.getType()).getLayout().isIdentity())
      return op.emitOpError()
             << "reads " << name
             << " through something other than a unit-stride view of an "
                "identity-layout kernel argument; its TMA tensor map is "
                "built on the argument by the host";
    (index == 0 ? matmul.a : matmul.b) = *view;
  }
  // The whole matmul, from the arguments the tensor maps are built on; TMA
  // reads their rows at a pitch of whole 16-byte units.
  // (A batched argument's leading dimensions are its batch: TMA reads its
  // matrices as one of their rows stacked.)
  // Any size may be dynamic: the host encodes the tensor maps from the
  // run-time sizes, and the K loop, the store guards and a batch's first
  // rows read them from the arguments.
  MemRefType aArgType = matmul.a.getArgumentType();
  MemRefType bArgType = matmul.b.getArgumentType();
  matmul.m = aKContiguous ? matmul.a.getRows() : matmul.a.getColumns();
  matmul.k = aKContiguous ? matmul.a.getColumns() : matmul.a.getRows();
  matmul.n = bKContiguous ? matmul.b.getRows() : matmul.b.getColumns();
  // Split-K (gpucg-split-k-across-workgroups): the workgroup's K is its part
  // of the arguments', from the part's offset (its views'): whole K steps,
  // the last part's reaching past K, where TMA reads zeros.
  if (TranslationInfoAttr info = getTranslationInfo(funcOp);
      info && info.getSplitK() > 1)
    if (int64_t part = getSplitKPart(matmul.k, info.getSplitK(), matmul.tileK,
                                     /*wholeSteps=*/true))
      matmul.k = part;
  // (A dynamic pitch is checked when the host encodes the tensor map.)
  for (auto [name, type] : {std::pair("A", aArgType), {"B", bArgType}}) {
    int64_t columns = type.getShape().back();
    if (ShapedType::isDynamic(columns))
      continue;
    int64_t pitch = columns * matmul.elementBytes();
    if (pitch % wgmma::kTmaPitchAlignment != 0)
      return op.emitOpError()
             << "reads " << name << " from " << type << ", whose rows are "
             << pitch << " bytes apart; TMA reads rows at a pitch of a "
             << "multiple of " << wgmma::kTmaPitchAlignment << " bytes";
  }
  // The strategy's rule for a batched A[k, m] or B[k, n], for a plan
  // written by hand.
  for (auto [operand, view, kRows] :
       {std::tuple("A[k, m]", &matmul.a, !aKContiguous),
        std::tuple("B[k, n]", &matmul.b, !bKContiguous)}) {
    std::string kTailReason = wgmma::whyNoBatchedKTail(
        operand, view->isBatched(), kRows, matmul.k, matmul.tileK);
    if (!kTailReason.empty())
      return op.emitOpError() << "has " << kTailReason;
  }
  // The workgroup's views: its rows of A, its columns of B, all of K; a
  // partial tile's (dynamic, or static and smaller) past M or N.
  auto isTileSize = [](int64_t size, int64_t tile) {
    return ShapedType::isDynamic(size) || (size > 0 && size <= tile);
  };
  int64_t aM = aType.getDimSize(aKContiguous ? 0 : 1);
  int64_t aK = aType.getDimSize(aKContiguous ? 1 : 0);
  int64_t bN = bType.getDimSize(bKContiguous ? 0 : 1);
  int64_t bK = bType.getDimSize(bKContiguous ? 1 : 0);
  if (!isTileSize(aM, matmul.tileM) || aK != matmul.k ||
      !isTileSize(bN, matmul.tileN) || bK != matmul.k || cType.getRank() != 2 ||
      !isTileSize(cType.getDimSize(0), matmul.tileM) ||
      !isTileSize(cType.getDimSize(1), matmul.tileN))
    return op.emitOpError() << "has views " << aType << ", " << bType << " and "
                            << cType << " that are not its workgroup tile "
                            << matmul.tileM << "x" << matmul.tileN
                            << " with all of K; run "
                               "gpucg-tile-and-distribute-to-workgroups first";
  // A tile of fewer than 64 rows: C^T = B^T * A^T, B[n, k] as wgmma's A
  // and A[m, k] as its K-contiguous B. A[k, m] times B[n, k] likewise, at
  // any tile (nvgpu takes an M-contiguous A only with an N-contiguous B):
  // B[n, k] as wgmma's A, A[k, m] as its N-contiguous B.
  if (wgmma::computesTransposed(matmul.tileM, *layouts)) {
    // A[k, m] times B[n, k] takes a dynamic M: wgmma's N is the tile's,
    // and M only sizes the grid, A's tensor map and the store's guard. A
    // small tile is planned for the M it was compiled for.
    bool smallTile = wgmma::isTransposedTile(matmul.tileM);
    if (smallTile && ShapedType::isDynamic(matmul.m))
      return op.emitOpError()
             << "has an M tile of " << matmul.tileM << " rows, fewer than "
             << kWarpgroupRows
             << ", which pipeline MatmulWgmma computes as C^T = B^T * A^T "
                "with M as wgmma's N; that takes a static M, got "
             << aArgType;
    if (smallTile && (!layouts->aKContiguous || !layouts->bKContiguous ||
                      matmul.tileM % wgmma::kNStep != 0))
      return op.emitOpError()
             << "has an M tile of " << matmul.tileM << " rows, fewer than "
             << kWarpgroupRows
             << ", which pipeline MatmulWgmma computes as C^T = B^T * A^T "
                "with M as wgmma's N; that takes K-contiguous operands "
                "(A[m, k], B[n, k]) and an M tile that is a multiple of "
             << wgmma::kNStep;
    matmul.transposed = true;
    matmul.layouts = layouts->getTransposed();
    std::swap(matmul.a, matmul.b);
    std::swap(matmul.m, matmul.n);
    std::swap(matmul.tileM, matmul.tileN);
  }
  int64_t threads = info.getNumThreads().value_or(0);
  matmul.consumers = wgmma::getConsumerWarpgroups(threads);
  if (threads % kWarpgroupThreads != 0 || threads == 0 ||
      matmul.consumers > kMaxConsumers ||
      (matmul.consumers &&
       matmul.tileM % (matmul.consumers * kWarpgroupRows) != 0))
    return op.emitOpError()
           << "has a workgroup of " << threads << " threads for "
           << matmul.tileM << " rows of wgmma tiles (C's "
           << (matmul.transposed ? "columns" : "rows")
           << "); pipeline MatmulWgmma runs one warpgroup (128 threads), or "
              "one producer and one or two consumer warpgroups of 64 or 128 "
              "rows each";
  // (wgmma's operands from here on: a form nvgpu takes.)
  WgmmaOperandTile aTile = matmul.getATile(), bTile = matmul.getBTile();
  if (matmul.tileK * matmul.elementBytes() != kSwizzleBytes ||
      matmul.tileN % bTile.getChunkColumns() ||
      matmul.tileM % aTile.getChunkColumns())
    return op.emitOpError()
           << "has a K tile of " << matmul.tileK << " and an N tile of "
           << matmul.tileN << "; the TMA boxes need a K tile of one 128-byte "
           << "row (" << kSwizzleBytes / matmul.elementBytes()
           << " elements) and an N tile of whole rows";
  if ((aTile.kContiguous && matmul.tileM > kMaxTmaBox) ||
      (bTile.kContiguous && matmul.tileN > kMaxTmaBox))
    return op.emitOpError()
           << "has a " << matmul.tileM << "x" << matmul.tileN
           << " tile; its TMA boxes (a K-contiguous operand's) have at most "
           << kMaxTmaBox << " rows";
  // A restaged operand: its TMA boxes are chunks of whole 128-byte rows of
  // M or N, and the producer warpgroup writes it K-major.
  for (auto [name, restaged, load, outer] :
       {std::tuple("A", matmul.layouts.aRestaged, matmul.getALoadTile(),
                   matmul.tileM),
        std::tuple("B", matmul.layouts.bRestaged, matmul.getBLoadTile(),
                   matmul.tileN)}) {
    if (!restaged)
      continue;
    if (matmul.consumers == 0)
      return op.emitOpError()
             << "restages wgmma's " << name << " (" << matmul.elementType
             << ", not K-contiguous in memory: wgmma reads it K-major only) "
                "through the producer warpgroup of a warp-specialized "
                "workgroup; pipeline MatmulWgmma needs 256 or 384 threads "
                "for it, got "
             << threads;
    if (outer % load.getChunkColumns() != 0)
      return op.emitOpError()
             << "restages wgmma's " << name << " (" << matmul.elementType
             << ", not K-contiguous in memory) from TMA boxes of "
             << load.getChunkColumns() << " columns (128 bytes); its tile of "
             << outer << " is not a multiple of that";
  }
  int64_t rows = matmul.tileM / std::max<int64_t>(matmul.consumers, 1);
  if (matmul.layouts.multipliesPerKStep() && rows != kWarpgroupRows)
    return op.emitOpError()
           << "multiplies "
           << matmul.layouts.getKStepOperandName(matmul.transposed) << " one k"
           << matmul.instructionK()
           << " step at a time, which takes 64 rows per multiplying "
              "warpgroup, got "
           << rows;

  matmul.c = op.getDpsInits()[0];
  // The accumulator starts at zero in registers (nvgpu has no load of one):
  // a zero fill of C's tile before the matmul (getAccumulatorStart) is what
  // it replaces.
  // Without one the matmul accumulates (C += A * B) and the epilogue adds
  // C's prior contents, which must be a kernel argument's: C's own, or
  // those bufferization copied into C's temporary right before.
  Operation *start = getAccumulatorStart(op);
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(start)) {
    if (!isZeroFill(fill))
      return op.emitOpError()
             << "is preceded by a linalg.fill of a non-zero value into its "
                "accumulator; a warpgroup accumulator starts at zero, and the "
                "MatmulWgmma epilogue adds only a kernel argument's prior "
                "contents (C += A * B)";
    matmul.fill = fill;
    return matmul;
  }
  auto copy = dyn_cast_or_null<memref::CopyOp>(start);
  Value prior = copy ? copy.getSource() : matmul.c;
  if (failed(getArgumentView(prior, funcOp)))
    return op.emitOpError()
           << "accumulates into a buffer whose prior contents are not a "
              "unit-stride view of a kernel argument's, and that no zero "
              "fill starts; a warpgroup accumulator starts at zero, and the "
              "MatmulWgmma epilogue adds only a kernel argument's prior "
              "contents (C += A * B)";
  matmul.priorC = prior;
  matmul.priorCopy = copy;
  return matmul;
}

/// The ops after `op` in its block, up to its terminator: the tile's ops
/// after the matmul. (Block::without_terminator decides what the terminator
/// is inside libMLIR.so, as isBlockTerminator in Utils.h does.)
SmallVector<Operation *> mlir::gpucg::getOpsAfter(Operation *op) {
  SmallVector<Operation *> ops;
  bool after = false;
  for (Operation &other : op->getBlock()->without_terminator()) {
    if (after)
      ops.push_back(&other);
    after |= &other == op;
  }
  return ops;
}

/// Follows views down to the buffer they alias.
static Value getViewSource(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Elements of each piece an epilogue thread takes: 16 bytes of elements of
/// `bits` (at most 16), a power of two that divides the N tile (whole
/// 64-element chunks) and N, so that a partial tile's valid columns are
/// whole pieces. A dynamic N may cut a piece: the epilogue runs that one
/// element by element (WgmmaEpilogue::vectorSize).
static int64_t getPieceSize(int64_t bits, int64_t n) {
  auto size = static_cast<int64_t>(llvm::bit_floor(
      static_cast<uint64_t>(std::clamp<int64_t>(128 / bits, 1, 16))));
  if (ShapedType::isDynamic(n))
    return size;
  return std::min(size, n & -n);
}

/// An epilogue without fused ops that stores the staged accumulator to C
/// (C += A * B, partial or transposed tiles, a staged store, stream-K): a
/// copy in 16-byte pieces of f32.
static void storeStagedAccumulator(WgmmaEpilogue &epilogue,
                                   const WgmmaMatmul &matmul) {
  epilogue.storesAccumulator = true;
  epilogue.vectorSize = getPieceSize(32, matmul.cColumns());
}

/// Collects the epilogue of `matmul`: every op after it in its tile with
/// memory effects must be an op whyNoWgmmaEpilogue accepts (or a no-op
/// self copy); emits an error on the first that is not.
static FailureOr<WgmmaEpilogue> matchWgmmaEpilogue(const WgmmaMatmul &matmul) {
  WgmmaEpilogue epilogue;
  Value c = matmul.c;
  // Buffers the epilogue writes, by the buffer they view: each thread
  // runs the ops on its own pieces, so a later op may read them only
  // element for element, as the thread wrote them.
  llvm::SmallDenseMap<Value, Value> written;
  int64_t narrowestBits = 32; // the staged f32 accumulator
  for (Operation *other : getOpsAfter(matmul.op)) {
    if (isa<memref::DeallocOp>(other) &&
        (other->getOperand(0) == c ||
         llvm::is_contained(epilogue.temporaries, other->getOperand(0)))) {
      epilogue.leftovers.push_back(other);
      continue;
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(other);
    if (isMemoryEffectFree(other) ||
        (effects && !effects.hasEffect<MemoryEffects::Read>() &&
         !effects.hasEffect<MemoryEffects::Write>()))
      continue;
    if (auto copy = dyn_cast<memref::CopyOp>(other);
        copy && copy.getSource() == copy.getTarget()) {
      epilogue.leftovers.push_back(copy);
      continue;
    }
    auto consumer = dyn_cast<linalg::LinalgOp>(other);
    // The epilogue tiles each op to its threads' pieces.
    if (!consumer || !isa<TilingInterface>(other))
      return other->emitOpError()
             << "is in a MatmulWgmma workgroup tile after its matmul; the "
                "pipeline fuses only elementwise linalg ops there";
    // (A linalg op with effects is on buffers: the verifier refuses mixed
    // ones, and ops on tensors have none.)
    auto cType = cast<MemRefType>(c.getType());
    std::string reason = whyNoWgmmaEpilogue(consumer, c, cType.getShape());
    if (!reason.empty())
      return other->emitOpError()
             << "cannot be fused into the MatmulWgmma epilogue: " << reason;
    for (OpOperand &operand : consumer->getOpOperands()) {
      Value buffer = operand.get();
      Type element = getElementTypeOrSelf(buffer.getType());
      if (element.isIntOrFloat())
        narrowestBits =
            std::min<int64_t>(narrowestBits, element.getIntOrFloatBitWidth());
      auto it = written.find(getViewSource(buffer));
      bool elementwise = consumer.getMatchingIndexingMap(&operand).isIdentity();
      if (it != written.end() && (it->second != buffer || !elementwise))
        return other->emitOpError()
               << "accesses operand " << operand.getOperandNumber()
               << " other than element for element where an earlier op of "
                  "the MatmulWgmma epilogue writes it; each thread runs the "
                  "epilogue on its own pieces of the tile";
    }
    for (Value init : consumer.getDpsInits()) {
      // A temporary (all of it, written element for element): per piece,
      // a private buffer. (The accumulator itself may be written in place:
      // each thread rewrites its own pieces of the staging buffer.)
      auto alloc = getViewSource(init).getDefiningOp<memref::AllocOp>();
      if (init != c && alloc) {
        if (init != alloc.getResult())
          return other->emitOpError()
                 << "writes a view of a temporary buffer in the MatmulWgmma "
                    "epilogue; the epilogue writes kernel arguments or whole "
                    "temporaries";
        if (!llvm::is_contained(epilogue.temporaries, init))
          epilogue.temporaries.push_back(init);
      }
      written.try_emplace(getViewSource(init), init);
    }
    epilogue.ops.push_back(consumer);
  }
  if (epilogue.ops.empty()) {
    // C += A * B alone, partial tiles or a transposed tile: the epilogue
    // adds C's prior contents to the staged accumulator and stores the sum,
    // or stores the valid part of a partial tile (or all of a transposed
    // one, which registers cannot store), in 16-byte pieces of f32.
    if ((matmul.priorC || matmul.hasPartialTiles() || matmul.transposed) &&
        !c.getDefiningOp<memref::AllocOp>())
      storeStagedAccumulator(epilogue, matmul);
    return epilogue;
  }
  for (Value temporary : epilogue.temporaries) {
    for (OpOperand &use : temporary.getUses()) {
      Operation *user = use.getOwner();
      if (llvm::is_contained(epilogue.leftovers, user))
        continue;
      auto consumer = dyn_cast<linalg::LinalgOp>(user);
      if (!consumer || !llvm::is_contained(epilogue.ops, consumer) ||
          !consumer.getMatchingIndexingMap(&use).isIdentity())
        return user->emitOpError()
               << "uses a temporary of the MatmulWgmma epilogue other than "
                  "element for element in it; the epilogue keeps its "
                  "temporaries in each thread's pieces";
    }
    epilogue.buffers.push_back(temporary.getDefiningOp());
  }
  // The accumulator: a temporary of the tile, replaced by the staging
  // buffer, or a view of a kernel argument that receives a copy of it.
  if (auto alloc = c.getDefiningOp<memref::AllocOp>()) {
    for (Operation *user : c.getUsers()) {
      if (user == matmul.op || user == matmul.fill ||
          user == matmul.priorCopy ||
          llvm::is_contained(epilogue.leftovers, user))
        continue;
      auto consumer = dyn_cast<linalg::LinalgOp>(user);
      if (!consumer || !llvm::is_contained(epilogue.ops, consumer))
        return user->emitOpError()
               << "uses the MatmulWgmma accumulator's temporary buffer "
                  "outside the fused epilogue";
    }
    epilogue.buffers.push_back(alloc);
  } else {
    epilogue.storesAccumulator = true;
  }
  epilogue.vectorSize = getPieceSize(narrowestBits, matmul.cColumns());
  return epilogue;
}

/// The launch facts of `matmul` (wgmma::LaunchFacts) but its tile counts,
/// which the workgroup loop gives.
static wgmma::LaunchFacts getLaunchFacts(const WgmmaMatmul &matmul,
                                         bool staged) {
  wgmma::LaunchFacts facts;
  facts.tileM = matmul.cTileRows();
  facts.tileN = matmul.cTileColumns();
  facts.tileK = matmul.tileK;
  facts.consumers = matmul.consumers;
  facts.ringBytes = matmul.stages * matmul.stageBytes();
  facts.aKContiguous = matmul.layouts.aKContiguous;
  facts.bKContiguous = matmul.layouts.bKContiguous;
  facts.restaged = matmul.layouts.isRestaged();
  facts.staged = staged;
  facts.transposed = matmul.transposed;
  facts.dynamicM = ShapedType::isDynamic(matmul.cRows());
  facts.dynamicN = ShapedType::isDynamic(matmul.cColumns());
  facts.dynamicBatch =
      llvm::any_of(matmul.a.getArgumentType().getShape().drop_back(2),
                   ShapedType::isDynamic);
  if (!ShapedType::isDynamic(matmul.k))
    facts.kSteps = llvm::divideCeil(matmul.k, matmul.tileK);
  return facts;
}

/// The cluster of `info`'s plan for `matmul`: nullopt when its workgroups
/// run alone (no `cluster`, or one of 1 x 1); an error when the kernel
/// cannot take the cluster the plan asks for (the strategy plans one only
/// where it can): no workgroup loop, one whose tiles are not its induction
/// variables (the tiles a cluster shares must be the neighbours the launch
/// groups), what wgmma::whyNoCluster refuses (one warpgroup, tile counts
/// the cluster does not divide, slices of less than a swizzle atom), or
/// clustered dimensions not on grid x, y or z (a
/// `#gpu.block<linear_dim_N>`) or both on the same one.
static FailureOr<std::optional<WgmmaCluster>>
getCluster(TranslationInfoAttr info, const WgmmaMatmul &matmul,
           const WgmmaEpilogue &epilogue, scf::ForallOp workgroupLoop,
           FunctionOpInterface funcOp) {
  if (info.getClusterM() * info.getClusterN() <= 1)
    return std::optional<WgmmaCluster>();
  WgmmaCluster cluster;
  cluster.m = info.getClusterM();
  cluster.n = info.getClusterN();
  auto refuse = [&](const Twine &why) {
    return funcOp.emitOpError()
           << "is planned in clusters of " << cluster.m << " x " << cluster.n
           << " workgroups (cluster), but " << why;
  };
  if (!workgroupLoop)
    return refuse("it has no workgroup loop (an scf.forall over #gpu.block) "
                  "whose tiles a cluster would share");
  // The loop dimension whose induction variable `offset` is, and its trip
  // count; -1 when `offset` is not one.
  auto findLoopDim = [&](OpFoldResult offset) -> std::pair<int64_t, int64_t> {
    auto value = dyn_cast<Value>(offset);
    for (auto [dim, iv] : llvm::enumerate(workgroupLoop.getInductionVars())) {
      if (iv != value)
        continue;
      std::optional<int64_t> trips = getStaticTripCount(workgroupLoop, dim);
      if (!trips)
        return {-1, 0};
      return {static_cast<int64_t>(dim), *trips};
    }
    return {-1, 0};
  };
  // The grid dimension (x, y, z) a loop dimension is on; none for the
  // linear dimensions, which have no cluster shape of their own.
  auto gridDim = [&](int64_t loopDim) -> std::optional<unsigned> {
    auto id = static_cast<unsigned>(
        cast<gpu::GPUBlockMappingAttr>(workgroupLoop.getMappingAttr()[loopDim])
            .getMappingId());
    if (id > static_cast<unsigned>(gpu::MappingId::DimZ))
      return std::nullopt;
    return id;
  };
  // A K-contiguous operand's rows are its M or N, an M- or N-contiguous
  // one's columns.
  auto getOuterOffset = [](const ArgumentView &view, bool kContiguous) {
    return kContiguous ? view.getRowOffset() : view.getColumnOffset();
  };
  auto [mLoopDim, mTiles] = findLoopDim(
      getOuterOffset(matmul.a, matmul.layouts.isAHeldKContiguous()));
  auto [nLoopDim, nTiles] = findLoopDim(
      getOuterOffset(matmul.b, matmul.layouts.isBHeldKContiguous()));
  wgmma::LaunchFacts facts = getLaunchFacts(matmul, !epilogue.empty());
  for (auto [name, size, loopDim, tiles, factsTiles] :
       {std::tuple("M", cluster.m, mLoopDim, mTiles, &facts.mTiles),
        std::tuple("N", cluster.n, nLoopDim, nTiles, &facts.nTiles)}) {
    if (size == 1)
      continue;
    if (loopDim < 0)
      return refuse(Twine("its tile's offset along ") + name +
                    " is not an induction variable of a static dimension of "
                    "the workgroup loop (reordered workgroups keep no "
                    "cluster's neighbours together)");
    *factsTiles = tiles;
  }
  std::string why = wgmma::whyNoCluster(facts, cluster.m, cluster.n);
  if (!why.empty())
    return refuse(why);
  for (auto [name, size, loopDim, dim, clusterLoopDim] :
       {std::tuple("M", cluster.m, mLoopDim, &cluster.mDim, &cluster.mLoopDim),
        std::tuple("N", cluster.n, nLoopDim, &cluster.nDim,
                   &cluster.nLoopDim)}) {
    if (size == 1)
      continue;
    std::optional<unsigned> grid = gridDim(loopDim);
    if (!grid)
      return refuse(Twine("its tiles along ") + name +
                    " are on a linear grid dimension, which has no cluster "
                    "shape");
    *dim = *grid;
    *clusterLoopDim = loopDim;
  }
  if (cluster.m > 1 && cluster.n > 1 && cluster.mDim == cluster.nDim)
    return refuse("its tiles along M and N are on the same grid dimension");
  if (cluster.m == 1)
    cluster.mDim = cluster.nDim == 1 ? 0 : 1;
  if (cluster.n == 1)
    cluster.nDim = cluster.mDim == 0 ? 1 : 0;
  return std::optional<WgmmaCluster>(cluster);
}

/// The persistent grid of `info`'s plan over `workgroupLoop`: nullopt when
/// each tile keeps its own workgroup (no `persistent_workgroups`); an error
/// when the kernel cannot take the grid the plan asks for (the strategy
/// plans one only where it can): no static workgroup loop, or what
/// wgmma::whyNoPersistentGrid refuses (one warpgroup, workgroups that are
/// not whole clusters, no more tiles than workgroups; with stream_k, a
/// dynamic K, clusters, fewer K steps than workgroups). Whether a fused
/// epilogue's staging buffer fits beside the ring is the strategy's budget
/// (verifyLoweringStrategy).
static FailureOr<std::optional<PersistentGrid>>
getPersistentGrid(TranslationInfoAttr info, const WgmmaMatmul &matmul,
                  const WgmmaEpilogue &epilogue, scf::ForallOp workgroupLoop,
                  FunctionOpInterface funcOp,
                  std::optional<WgmmaCluster> &cluster) {
  std::optional<int64_t> workgroups = info.getPersistentWorkgroups();
  if (!workgroups)
    return std::optional<PersistentGrid>();
  bool streamK = info.getStreamK();
  auto refuse = [&](const Twine &why) {
    return funcOp.emitOpError()
           << "is planned " << (streamK ? "stream-K (stream_k) " : "")
           << "on a persistent grid of " << *workgroups
           << " workgroups (persistent_workgroups), but " << why;
  };
  if (!workgroupLoop)
    return refuse("it has no workgroup loop (an scf.forall over #gpu.block) "
                  "to loop over");
  PersistentGrid grid;
  grid.tiles = 1;
  for (auto [lb, ub, step] : llvm::zip(workgroupLoop.getStaticLowerBound(),
                                       workgroupLoop.getStaticUpperBound(),
                                       workgroupLoop.getStaticStep())) {
    if (ShapedType::isDynamic(lb) || ShapedType::isDynamic(ub) ||
        ShapedType::isDynamic(step) || step <= 0)
      return refuse("its workgroup loop has dynamic bounds");
    grid.lowerBounds.push_back(lb);
    grid.steps.push_back(step);
    grid.counts.push_back(llvm::divideCeil(ub - lb, step));
    grid.tiles *= grid.counts.back();
  }
  grid.workgroups = *workgroups;
  // With clusters, whole clusters of workgroups loop over blocks of tiles.
  grid.clusterShape.assign(grid.counts.size(), 1);
  if (cluster) {
    if (cluster->mLoopDim >= 0)
      grid.clusterShape[cluster->mLoopDim] = cluster->m;
    if (cluster->nLoopDim >= 0)
      grid.clusterShape[cluster->nLoopDim] = cluster->n;
  }
  wgmma::LaunchFacts facts =
      getLaunchFacts(matmul, !epilogue.empty() || streamK);
  facts.tiles = grid.tiles;
  std::string why = wgmma::whyNoPersistentGrid(facts, grid.workgroups,
                                               grid.getClusterSize(), streamK);
  if (!why.empty())
    return refuse(why);
  if (streamK)
    grid.kSteps = facts.kSteps;
  if (cluster)
    cluster->persistent = true;
  return std::optional<PersistentGrid>(grid);
}

LogicalResult mlir::gpucg::lowerMatmulToWgmma(RewriterBase &rewriter,
                                              FunctionOpInterface funcOp) {
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  if (!info || info.getPipeline() != Pipeline::MatmulWgmma)
    return success();
  SmallVector<std::pair<linalg::LinalgOp, LoweringConfigAttr>> roots =
      getLoweringConfigRoots(funcOp);
  if (roots.size() != 1)
    return funcOp.emitOpError()
           << "is planned MatmulWgmma but has " << roots.size()
           << " ops with a gpucg.lowering_config; the pipeline lowers one "
              "matmul per kernel";
  auto [root, config] = roots.front();
  if (failed(dropBatchLoops(rewriter, root, config)))
    return failure();
  auto workgroupLoop = dyn_cast<scf::ForallOp>(root->getParentOp());
  if (workgroupLoop && !isWorkgroupLoop(workgroupLoop))
    workgroupLoop = nullptr;
  if (!workgroupLoop && root->getParentOp() != funcOp.getOperation())
    return root.emitOpError()
           << "is not directly in its kernel's workgroup loop (an "
              "scf.forall over #gpu.block) or function body; run "
              "gpucg-tile-and-distribute-to-workgroups";
  // Other ops of the tile before the matmul would run on every thread of
  // the warpgroup (those after it are its epilogue, matchWgmmaEpilogue's).
  Block *tile = root->getBlock();
  for (Operation &other : tile->without_terminator()) {
    if (&other == root.getOperation())
      break;
    if (&other == getAccumulatorStart(root))
      continue;
    // Views, index arithmetic and allocations neither read nor write.
    auto effects = dyn_cast<MemoryEffectOpInterface>(&other);
    if (isMemoryEffectFree(&other) ||
        (effects && !effects.hasEffect<MemoryEffects::Read>() &&
         !effects.hasEffect<MemoryEffects::Write>()))
      continue;
    return other.emitOpError()
           << "is in a MatmulWgmma workgroup tile before its matmul; the "
              "pipeline has no fused prologue";
  }
  FailureOr<WgmmaMatmul> matmul = matchWgmmaMatmul(root, funcOp, info, config);
  if (failed(matmul))
    return failure();
  FailureOr<WgmmaEpilogue> epilogue = matchWgmmaEpilogue(*matmul);
  if (failed(epilogue))
    return failure();
  FailureOr<std::optional<WgmmaCluster>> cluster =
      getCluster(info, *matmul, *epilogue, workgroupLoop, funcOp);
  if (failed(cluster))
    return failure();
  FailureOr<std::optional<PersistentGrid>> grid = getPersistentGrid(
      info, *matmul, *epilogue, workgroupLoop, funcOp, *cluster);
  if (failed(grid))
    return failure();
  // A staged store: the plain kernel's epilogue is a copy of the staged
  // accumulator to C, in 16-byte pieces of f32. Only where the ring holds
  // the staging buffer: the strategy budgeted no other.
  if (info.getStagedStore()) {
    std::string why = wgmma::whyNoStagedStore(
        getLaunchFacts(*matmul, !epilogue->empty()), grid->has_value());
    if (!why.empty())
      return funcOp.emitOpError()
             << "is planned with a staged store (staged_store), but " << why;
    storeStagedAccumulator(*epilogue, *matmul);
  }
  // Stream-K adds a tile's parts in its staging buffer (beside the ring,
  // which the strategy budgeted): a kernel without a fused epilogue stores
  // its accumulator from there.
  if (info.getStreamK() && epilogue->empty())
    storeStagedAccumulator(*epilogue, *matmul);
  WgmmaKernelPlan plan{
      std::move(*matmul), std::move(*epilogue), funcOp,
      workgroupLoop,      std::move(*grid),     std::move(*cluster)};
  return buildWgmmaKernel(rewriter, plan);
}

namespace {
struct LowerMatmulToWgmmaPass
    : public gpucg::impl::LowerMatmulToWgmmaBase<LowerMatmulToWgmmaPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(lowerMatmulToWgmma(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
