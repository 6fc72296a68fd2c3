//===- Utils.cpp - Helpers shared by gpucg's passes -----------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::gpucg;

void mlir::gpucg::populateAllCanonicalizationPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

void mlir::gpucg::canonicalizeRegion(Region &region) {
  RewritePatternSet patterns(region.getContext());
  populateAllCanonicalizationPatterns(patterns);
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(region, std::move(patterns), config);
}

bool mlir::gpucg::isWorkgroupMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(memref);
}

bool mlir::gpucg::isWorkgroupLoop(scf::ForallOp forallOp) {
  std::optional<ArrayAttr> mapping = forallOp.getMapping();
  return mapping && !mapping->empty() &&
         llvm::all_of(*mapping, llvm::IsaPred<gpu::GPUBlockMappingAttr>);
}

std::optional<int64_t> mlir::gpucg::getStaticTripCount(scf::ForallOp forallOp,
                                                       unsigned dim) {
  std::optional<int64_t> lower =
      getConstantIntValue(forallOp.getMixedLowerBound()[dim]);
  std::optional<int64_t> upper =
      getConstantIntValue(forallOp.getMixedUpperBound()[dim]);
  std::optional<int64_t> step =
      getConstantIntValue(forallOp.getMixedStep()[dim]);
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  if (*upper <= *lower)
    return 0;
  std::optional<int64_t> extent = llvm::checkedSub(*upper, *lower);
  if (!extent)
    return std::nullopt;
  return llvm::divideCeilSigned(*extent, *step);
}

LogicalResult mlir::gpucg::verifyMmaOption(Operation *op,
                                           TranslationInfoAttr info,
                                           MmaPreference mma) {
  std::optional<MmaKind> kind = info.getTensorCoreMmaKind();
  // A pipeline without tensor cores has no family to contradict (the passes
  // leave such kernels alone).
  if (!kind || mma == MmaPreference::Auto)
    return success();
  MmaKind requested =
      mma == MmaPreference::Wmma ? MmaKind::Wmma : MmaKind::MmaSync;
  if (requested != *kind)
    return op->emitOpError()
           << "was given mma="
           << (requested == MmaKind::Wmma ? "wmma" : "mma-sync")
           << ", but its pipeline " << stringifyPipeline(info.getPipeline())
           << " uses " << stringifyMmaKind(*kind);
  return success();
}

/// Adds to `worklist` the values that block argument `arg` takes: a loop's
/// bounds and steps for its induction variable, the init and the yielded
/// value for an iteration argument. Returns false for arguments it cannot
/// follow (function arguments are not followed and return true).
static bool pushBlockArgumentSources(BlockArgument arg,
                                     SmallVectorImpl<Value> &worklist) {
  Operation *parent = arg.getOwner()->getParentOp();
  if (!parent || isa<FunctionOpInterface>(parent))
    return true;
  auto loop = dyn_cast<LoopLikeOpInterface>(parent);
  if (!loop)
    return false;
  auto pushAll = [&](std::optional<SmallVector<OpFoldResult>> values) {
    if (!values)
      return false;
    for (OpFoldResult ofr : *values)
      if (auto value = dyn_cast<Value>(ofr))
        worklist.push_back(value);
    return true;
  };
  std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
  if (ivs && llvm::is_contained(*ivs, Value(arg)))
    return pushAll(loop.getLoopLowerBounds()) &&
           pushAll(loop.getLoopUpperBounds()) && pushAll(loop.getLoopSteps());
  if (OpOperand *init = loop.getTiedLoopInit(arg)) {
    worklist.push_back(init->get());
    if (OpOperand *yielded = loop.getTiedLoopYieldedValue(arg))
      worklist.push_back(yielded->get());
    return true;
  }
  return false;
}

bool mlir::gpucg::dependsOnThreadId(Operation *op) {
  SmallVector<Value> worklist(op->getOperands());
  llvm::SmallPtrSet<Value, 16> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (!pushBlockArgumentSources(arg, worklist))
        return true;
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp>(def))
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

bool mlir::gpucg::isWorkgroupCopy(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return getPaddedCopyOfFill(fill).has_value();
  auto copy = dyn_cast<linalg::CopyOp>(op);
  return copy && copy.hasPureBufferSemantics() &&
         (isWorkgroupMemory(copy.getInputs().front().getType()) ||
          isWorkgroupMemory(copy.getOutputs().front().getType())) &&
         !dependsOnThreadId(copy);
}

namespace {
/// Where a view starts in the buffer it views: the buffer, the view's
/// offset in each of the buffer's dimensions, and the buffer dimension each
/// of the view's dimensions is.
struct ViewOrigin {
  Value root;
  SmallVector<OpFoldResult> offsets;
  SmallVector<int64_t> dims;
};
} // namespace

/// The origin of `view` through a chain of unit-stride memref.subview ops,
/// or nullopt when a stride is not 1 or two offsets of one dimension are
/// both non-zero (their sum is no value of the IR).
static std::optional<ViewOrigin> getViewOrigin(Value view) {
  auto subview = view.getDefiningOp<memref::SubViewOp>();
  if (!subview) {
    auto type = dyn_cast<MemRefType>(view.getType());
    if (!type)
      return std::nullopt;
    ViewOrigin origin{view, {}, {}};
    Builder b(view.getContext());
    origin.offsets.assign(type.getRank(), b.getIndexAttr(0));
    origin.dims = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    return origin;
  }
  if (!llvm::all_of(subview.getMixedStrides(), [](OpFoldResult stride) {
        return isConstantIntValue(stride, 1);
      }))
    return std::nullopt;
  std::optional<ViewOrigin> origin = getViewOrigin(subview.getSource());
  if (!origin)
    return std::nullopt;
  for (auto [dim, offset] : llvm::enumerate(subview.getMixedOffsets())) {
    OpFoldResult &total = origin->offsets[origin->dims[dim]];
    if (isConstantIntValue(offset, 0))
      continue;
    if (!isConstantIntValue(total, 0))
      return std::nullopt;
    total = offset;
  }
  llvm::SmallBitVector dropped = subview.getDroppedDims();
  SmallVector<int64_t> kept;
  for (auto [dim, rootDim] : llvm::enumerate(origin->dims))
    if (!dropped.test(dim))
      kept.push_back(rootDim);
  origin->dims = std::move(kept);
  return origin;
}

/// Whether `a` and `b` are the same value: the same SSA value, or results
/// of equivalent side-effect-free ops (say two copies of an affine.apply
/// that CSE has not merged yet) on the same values, to a small depth.
static bool isSameValue(Value a, Value b, int depth = 4) {
  if (a == b)
    return true;
  auto x = dyn_cast<OpResult>(a), y = dyn_cast<OpResult>(b);
  if (!x || !y || depth == 0 || x.getResultNumber() != y.getResultNumber() ||
      !isPure(x.getOwner()) || x.getOwner()->getNumRegions() != 0)
    return false;
  return OperationEquivalence::isEquivalentTo(
      x.getOwner(), y.getOwner(),
      [&](Value p, Value q) { return success(isSameValue(p, q, depth - 1)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// Whether `a` and `b` start at the same element of the same buffer.
static bool haveSameOrigin(Value a, Value b) {
  std::optional<ViewOrigin> x = getViewOrigin(a), y = getViewOrigin(b);
  return x && y && x->root == y->root && x->dims == y->dims &&
         llvm::equal(x->offsets, y->offsets,
                     [](OpFoldResult p, OpFoldResult q) {
                       if (isEqualConstantIntOrValue(p, q))
                         return true;
                       auto u = dyn_cast<Value>(p), v = dyn_cast<Value>(q);
                       return u && v && isSameValue(u, v);
                     });
}

/// Whether `view` is a statically shaped view of workgroup memory.
static bool isStaticWorkgroupView(Value view) {
  auto type = dyn_cast<MemRefType>(view.getType());
  return type && type.hasStaticShape() && isWorkgroupMemory(type);
}

std::optional<gpucg::PaddedTileCopy>
mlir::gpucg::matchPaddedTileCopy(linalg::CopyOp copy) {
  if (!copy.hasPureBufferSemantics() || dependsOnThreadId(copy))
    return std::nullopt;
  Value src = copy.getInputs().front(), dst = copy.getOutputs().front();
  // Copy-in: the fill that pads the buffer is the write before the copy.
  if (isWorkgroupMemory(dst.getType()) && !isWorkgroupMemory(src.getType())) {
    Operation *prev = copy->getPrevNode();
    while (prev && isMemoryEffectFree(prev))
      prev = prev->getPrevNode();
    auto fill = dyn_cast_or_null<linalg::FillOp>(prev);
    if (!fill || !fill.hasPureBufferSemantics() || dependsOnThreadId(fill) ||
        !matchPattern(fill.getInputs().front(), m_Constant()))
      return std::nullopt;
    Value full = fill.getOutputs().front();
    if (!isStaticWorkgroupView(full) || !haveSameOrigin(full, dst) ||
        cast<MemRefType>(full.getType()).getRank() !=
            cast<MemRefType>(dst.getType()).getRank())
      return std::nullopt;
    return PaddedTileCopy{copy, fill, full};
  }
  // Copy-out: a partial view of a whole buffer at its origin.
  if (isWorkgroupMemory(src.getType()) && !isWorkgroupMemory(dst.getType()) &&
      !cast<MemRefType>(src.getType()).hasStaticShape()) {
    std::optional<ViewOrigin> origin = getViewOrigin(src);
    if (!origin || !isStaticWorkgroupView(origin->root) ||
        cast<MemRefType>(origin->root.getType()).getRank() !=
            cast<MemRefType>(src.getType()).getRank() ||
        !llvm::all_of(origin->offsets, [](OpFoldResult offset) {
          return isConstantIntValue(offset, 0);
        }))
      return std::nullopt;
    return PaddedTileCopy{copy, nullptr, origin->root};
  }
  return std::nullopt;
}

std::optional<gpucg::PaddedTileCopy>
mlir::gpucg::getPaddedCopyOfFill(linalg::FillOp fill) {
  Operation *next = fill->getNextNode();
  while (next && isMemoryEffectFree(next))
    next = next->getNextNode();
  auto copy = dyn_cast_or_null<linalg::CopyOp>(next);
  if (!copy)
    return std::nullopt;
  std::optional<PaddedTileCopy> padded = matchPaddedTileCopy(copy);
  if (!padded || padded->padding != fill)
    return std::nullopt;
  return padded;
}

int64_t mlir::gpucg::getAlignedVectorWidth(int64_t width, MemRefType type,
                                           bool ignoreDynamicStrides,
                                           int64_t dynamicStrideMultiple) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1)
    return 1;
  auto narrowTo = [&](int64_t value) {
    while (width > 1 && value % width != 0)
      width /= 2;
  };
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back()) {
    if (ShapedType::isDynamic(stride)) {
      if (ignoreDynamicStrides)
        continue;
      if (dynamicStrideMultiple <= 1)
        return 1;
      narrowTo(dynamicStrideMultiple);
      continue;
    }
    narrowTo(stride);
  }
  if (!ShapedType::isDynamic(offset))
    narrowTo(offset);
  return width;
}

int64_t mlir::gpucg::getAlignedVectorWidthThroughViews(
    int64_t width, Value memref, bool ignoreDynamicStrides) {
  int64_t multiple = getKnownRowPitchMultiple(memref);
  while (memref) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type)
      return 1;
    width = getAlignedVectorWidth(width, type, ignoreDynamicStrides, multiple);
    // A reinterpret_cast's layout starts from its source's base pointer,
    // whatever the source's own strides and offset.
    if (memref.getDefiningOp<memref::ReinterpretCastOp>())
      break;
    auto view = memref.getDefiningOp<ViewLikeOpInterface>();
    memref = view ? view.getViewSource() : Value();
  }
  return width;
}

/// A positive number `value` is known to be a multiple of (1 when nothing is
/// known): a constant's magnitude, the product of an arith.muli's operands'
/// multiples, the largest known divisor of a one-result affine.apply.
static int64_t getKnownMultiple(OpFoldResult value) {
  // Past this, a multiple says nothing more about alignment.
  constexpr int64_t kCap = int64_t(1) << 30;
  auto clamp = [&](int64_t multiple) {
    return multiple == 0 ? kCap : std::min(std::abs(multiple), kCap);
  };
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return *constant == std::numeric_limits<int64_t>::min() ? kCap
                                                            : clamp(*constant);
  auto v = dyn_cast<Value>(value);
  if (!v)
    return 1;
  if (auto mul = v.getDefiningOp<arith::MulIOp>())
    return std::min(kCap, getKnownMultiple(mul.getLhs()) *
                              getKnownMultiple(mul.getRhs()));
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>())
    return clamp(apply.getAffineMap().getResult(0).getLargestKnownDivisor());
  return 1;
}

int64_t mlir::gpucg::getKnownRowPitchMultiple(Value memref) {
  while (memref) {
    Operation *def = memref.getDefiningOp();
    if (auto cast = dyn_cast_or_null<memref::ReinterpretCastOp>(def)) {
      SmallVector<OpFoldResult> strides = cast.getMixedStrides();
      if (strides.size() < 2)
        return 1;
      int64_t multiple = 0;
      for (OpFoldResult stride : ArrayRef(strides).drop_back())
        multiple = std::gcd(multiple, getKnownMultiple(stride));
      return std::max<int64_t>(multiple, 1);
    }
    if (isa_and_nonnull<memref::SubViewOp, memref::CastOp,
                        memref::CollapseShapeOp>(def)) {
      memref = cast<ViewLikeOpInterface>(def).getViewSource();
      continue;
    }
    // The root. An identity layout's rows are contiguous: each outer stride
    // is the product of the sizes inside it, a multiple of their static
    // ones (memref<?x32x?x128xf16>: 128 * ?, 128 and 128 * ? * 32).
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || !type.getLayout().isIdentity() || type.getRank() < 2)
      return 1;
    constexpr int64_t kCap = int64_t(1) << 30;
    int64_t multiple = 0, inner = 1;
    for (int64_t size : llvm::reverse(type.getShape().drop_front())) {
      if (!ShapedType::isDynamic(size))
        inner = size == 0 ? 0 : std::min(kCap, inner * size);
      multiple = std::gcd(multiple, inner);
    }
    return std::max<int64_t>(multiple, 1);
  }
  return 1;
}

bool mlir::gpucg::hasDynamicRowPitchThroughViews(Value memref) {
  while (memref) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (type && succeeded(type.getStridesAndOffset(strides, offset)) &&
        llvm::any_of(ArrayRef<int64_t>(strides).drop_back(),
                     ShapedType::isDynamic))
      return true;
    auto view = memref.getDefiningOp<ViewLikeOpInterface>();
    memref = view ? view.getViewSource() : Value();
  }
  return false;
}

bool mlir::gpucg::isGlobalMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  Attribute space = memref.getMemorySpace();
  if (!space)
    return true;
  auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
  return gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Global;
}

Value mlir::gpucg::createIsAddressAligned(OpBuilder &b, Location loc,
                                          Value memref, ValueRange indices,
                                          int64_t alignment) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t elementBytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value element = metadata.getOffset();
  for (auto [index, stride] : llvm::zip_equal(indices, metadata.getStrides()))
    element = arith::AddIOp::create(
        b, loc, element, arith::MulIOp::create(b, loc, index, stride));
  Value address = arith::AddIOp::create(
      b, loc, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref),
      arith::MulIOp::create(
          b, loc, element,
          arith::ConstantIndexOp::create(b, loc, elementBytes)));
  Value misalignment = arith::RemUIOp::create(
      b, loc, address, arith::ConstantIndexOp::create(b, loc, alignment));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misalignment,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

Value mlir::gpucg::getRootMemref(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

bool mlir::gpucg::isBlockTerminator(Operation *op) {
  Block *block = op->getBlock();
  return block && &block->back() == op && block->mightHaveTerminator();
}

bool mlir::gpucg::hasUnknownMemoryEffects(Operation *op) {
  if (isa<gpu::BarrierOp>(op) || isMemoryEffectFree(op))
    return false;
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  return !isa<MemoryEffectOpInterface>(op);
}

bool mlir::gpucg::isDistinctBuffer(Value root) {
  if (root.getDefiningOp<memref::AllocOp>() ||
      root.getDefiningOp<memref::AllocaOp>())
    return true;
  auto arg = dyn_cast<BlockArgument>(root);
  return arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

Operation *mlir::gpucg::getAccumulatorStart(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  Value init = op.getDpsInitOperand(0)->get();
  if (op.hasPureTensorSemantics())
    return init.getDefiningOp<linalg::FillOp>();
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev))
      return fill.getDpsInits()[0] == init ? prev : nullptr;
    if (auto copy = dyn_cast<memref::CopyOp>(prev))
      return copy.getTarget() == init ? prev : nullptr;
    auto effects = dyn_cast<MemoryEffectOpInterface>(prev);
    if (!isMemoryEffectFree(prev) &&
        (!effects || effects.hasEffect<MemoryEffects::Read>() ||
         effects.hasEffect<MemoryEffects::Write>()))
      return nullptr;
  }
  return nullptr;
}

SmallVector<std::pair<linalg::LinalgOp, gpucg::LoweringConfigAttr>>
mlir::gpucg::getLoweringConfigRoots(FunctionOpInterface funcOp) {
  SmallVector<std::pair<linalg::LinalgOp, LoweringConfigAttr>> roots;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (auto config =
            op->getAttrOfType<LoweringConfigAttr>("gpucg.lowering_config"))
      roots.push_back({op, config});
  });
  return roots;
}

FailureOr<SmallVector<linalg::LinalgOp>>
mlir::gpucg::getWorkgroupTileRoots(FunctionOpInterface funcOp) {
  SmallVector<linalg::LinalgOp> roots;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr("gpucg.lowering_config"))
      roots.push_back(op);
  });
  if (roots.empty())
    return funcOp.emitOpError()
           << "has a gpucg.translation_info but no op with a "
              "gpucg.lowering_config (run gpucg-select-lowering-strategy)";
  return roots;
}

FlatThreadId::FlatThreadId(OpBuilder &b, Location loc,
                           ArrayRef<int64_t> workgroupSize) {
  AffineExpr x, y, z;
  bindSymbols(b.getContext(), x, y, z);
  expr = x + y * workgroupSize[0] + z * (workgroupSize[0] * workgroupSize[1]);
  for (gpu::Dimension dim :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    ids.push_back(gpu::ThreadIdOp::create(b, loc, dim));
}

Value FlatThreadId::apply(OpBuilder &b, Location loc,
                          function_ref<AffineExpr(AffineExpr)> f) const {
  return affine::AffineApplyOp::create(b, loc, AffineMap::get(0, 3, f(expr)),
                                       ids);
}

linalg::LinalgLoopDistributionOptions
mlir::gpucg::getFlatThreadDistribution(ArrayRef<int64_t> workgroupSize,
                                       int64_t threadsPerRow) {
  SmallVector<int64_t, 3> size(workgroupSize);
  int64_t numThreads = 1;
  for (int64_t s : size)
    numThreads *= s;
  int64_t rowThreads = std::max<int64_t>(1, numThreads / threadsPerRow);
  linalg::LinalgLoopDistributionOptions distribution;
  distribution.procInfo = [=](OpBuilder &b, Location loc,
                              ArrayRef<Range> ranges) {
    FlatThreadId flat(b, loc, size);
    SmallVector<linalg::ProcInfo> infos(ranges.size());
    for (auto [i, info] : llvm::enumerate(infos)) {
      if (i + 1 == ranges.size()) {
        info = {flat.apply(b, loc,
                           [&](AffineExpr t) { return t % threadsPerRow; }),
                arith::ConstantIndexOp::create(b, loc, threadsPerRow),
                linalg::DistributionMethod::Cyclic};
      } else if (i + 2 == ranges.size()) {
        info = {flat.apply(
                    b, loc,
                    [&](AffineExpr t) { return t.floorDiv(threadsPerRow); }),
                arith::ConstantIndexOp::create(b, loc, rowThreads),
                linalg::DistributionMethod::Cyclic};
      } else {
        info = {arith::ConstantIndexOp::create(b, loc, 0),
                arith::ConstantIndexOp::create(b, loc, 1),
                linalg::DistributionMethod::None};
      }
    }
    return infos;
  };
  return distribution;
}

void mlir::gpucg::printShape(llvm::raw_ostream &os, ArrayRef<int64_t> shape) {
  llvm::interleave(
      shape, os,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << "?";
        else
          os << size;
      },
      "x");
}
