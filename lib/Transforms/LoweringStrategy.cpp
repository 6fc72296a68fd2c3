//===- LoweringStrategy.cpp - Kernel strategy selection -------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The heuristics are documented, with their reasons, in
// docs/passes/select-lowering-strategy.md.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Transforms/LoweringStrategy.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::gpucg;

//===----------------------------------------------------------------------===//
// Root op
//===----------------------------------------------------------------------===//

FailureOr<linalg::LinalgOp>
mlir::gpucg::getKernelRootOp(FunctionOpInterface funcOp) {
  SmallVector<linalg::LinalgOp> linalgOps, configured, withReductions;
  funcOp.walk([&](linalg::LinalgOp op) {
    linalgOps.push_back(op);
    if (op->hasAttr("gpucg.compilation_info") ||
        op->hasAttr("gpucg.lowering_config"))
      configured.push_back(op);
    if (op.getNumReductionLoops() > 0)
      withReductions.push_back(op);
  });
  if (linalgOps.empty())
    return linalg::LinalgOp();
  if (configured.size() > 1) {
    InFlightDiagnostic diag =
        configured[1]->emitOpError()
        << "is the second op of kernel '" << funcOp.getName()
        << "' with a gpucg.compilation_info or gpucg.lowering_config; a "
           "kernel has one root op";
    diag.attachNote(configured[0]->getLoc()) << "first one here";
    return diag;
  }
  if (configured.size() == 1)
    return configured.front();
  if (withReductions.size() > 1) {
    InFlightDiagnostic diag =
        withReductions[1]->emitOpError()
        << "is the second op with reduction loops in kernel '"
        << funcOp.getName()
        << "'; gpucg lowers one root op per kernel: split the kernel or put "
           "a gpucg.compilation_info on the root";
    diag.attachNote(withReductions[0]->getLoc()) << "first one here";
    return diag;
  }
  if (withReductions.size() == 1)
    return withReductions.front();
  return linalgOps.back();
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

/// `a * b` and `a + b` for non-negative sizes, saturated at INT64_MAX: the
/// strategy compares products of user-given sizes with limits, and a
/// product that does not fit is simply over every limit.
static int64_t mulSat(int64_t a, int64_t b) {
  int64_t result;
  return llvm::MulOverflow(a, b, result) ? std::numeric_limits<int64_t>::max()
                                         : result;
}
static int64_t addSat(int64_t a, int64_t b) {
  int64_t result;
  return llvm::AddOverflow(a, b, result) ? std::numeric_limits<int64_t>::max()
                                         : result;
}

namespace {
/// A contraction root with one m, one n and one k loop (and any number of
/// batch loops): what the matmul pipelines handle.
struct MatmulShape {
  unsigned mPos, nPos, kPos;
  SmallVector<unsigned> batchPos;
  SmallVector<int64_t> loopRanges;
  Type aType, bType, cType;

  int64_t m() const { return loopRanges[mPos]; }
  int64_t n() const { return loopRanges[nPos]; }
  int64_t k() const { return loopRanges[kPos]; }
  bool isStatic() const {
    return llvm::none_of(loopRanges, ShapedType::isDynamic);
  }
  /// Product of the batch sizes (1 without batch loops), saturated.
  int64_t batch() const {
    int64_t product = 1;
    for (unsigned pos : batchPos)
      product = mulSat(product, loopRanges[pos]);
    return product;
  }
};
} // namespace

static std::optional<MatmulShape> getMatmulShape(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  MatmulShape shape;
  shape.mPos = dims->m.front();
  shape.nPos = dims->n.front();
  shape.kPos = dims->k.front();
  shape.batchPos.assign(dims->batch.begin(), dims->batch.end());
  shape.loopRanges = op.getStaticLoopRanges();
  shape.aType = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
  shape.bType = getElementTypeOrSelf(op.getDpsInputOperand(1)->get());
  shape.cType = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  return shape;
}

/// Bytes of one element in workgroup memory; index is 64 bits on NVPTX.
static int64_t getByteWidth(Type type) {
  if (!type.isIntOrFloat())
    return 8;
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

static int64_t ceilDiv(int64_t a, int64_t b) { return llvm::divideCeil(a, b); }

static std::string formatList(ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(values, os);
  os << ']';
  return text;
}

//===----------------------------------------------------------------------===//
// Tensor-core strategy
//===----------------------------------------------------------------------===//

/// Whether MLIR 22's vector-to-GPU conversions lower `kind` for these
/// operands: mma.sync (convertVectorToNVVMCompatibleMMASync) handles f16 and
/// i8 but not bf16 or TF32 operands; WMMA (convertVectorToMMAOps) handles f16
/// and f32 (TF32) but not bf16 or i8.
static bool hasTensorCoreConversion(MmaKind kind, Type operandType) {
  if (operandType.isF16())
    return true;
  if (kind == MmaKind::MmaSync)
    return operandType.isInteger(8);
  return operandType.isF32();
}

/// The MMA family a tensor-core strategy uses on `target`, if any can
/// lower these operands.
static std::optional<MmaKind> resolveMmaKind(MmaPreference preference,
                                             TargetAttr target,
                                             Type operandType) {
  std::optional<MmaKind> kind;
  switch (preference) {
  case MmaPreference::Wmma:
    kind = MmaKind::Wmma;
    break;
  case MmaPreference::MmaSync:
    kind = MmaKind::MmaSync;
    break;
  case MmaPreference::Auto:
    if (target.getComputeCapability() >= 80 &&
        hasTensorCoreConversion(MmaKind::MmaSync, operandType))
      return MmaKind::MmaSync;
    kind = MmaKind::Wmma;
    if (!hasTensorCoreConversion(*kind, operandType))
      kind = MmaKind::MmaSync;
    break;
  }
  if (!hasTensorCoreConversion(*kind, operandType))
    return std::nullopt;
  return kind;
}

/// The instruction gpucg prefers among the target's shapes for these types:
/// square 16x16 for WMMA, the deepest K for mma.sync (fewer instructions per
/// K step).
static MmaShapeAttr pickMmaShape(TargetAttr target, MmaKind kind, Type a,
                                 Type b, Type c) {
  SmallVector<MmaShapeAttr> shapes = target.getMmaShapes(kind, a, b, c);
  MmaShapeAttr best;
  for (MmaShapeAttr shape : shapes) {
    if (!best) {
      best = shape;
      continue;
    }
    if (kind == MmaKind::Wmma) {
      if (shape.getM() == shape.getN() && best.getM() != best.getN())
        best = shape;
    } else if (shape.getK() > best.getK() ||
               (shape.getK() == best.getK() && shape.getM() > best.getM())) {
      best = shape;
    }
  }
  return best;
}

static Pipeline getTensorCorePipeline(MmaKind kind) {
  return kind == MmaKind::Wmma ? Pipeline::MatmulTensorCore
                               : Pipeline::MatmulTensorCoreMmaSync;
}

/// Bytes of workgroup memory a tensor-core workgroup tile needs with `depth`
/// pipeline stages: the A (tM x tK) and B (tK x tN) tiles once per stage and
/// the accumulator (tM x tN) once, every row padded as the pipeline of
/// `kind` pads it (getDefaultBankConflictPaddingBits).
static int64_t getTensorCoreSharedMemory(const MatmulShape &shape,
                                         MmaKind kind, int64_t tileM,
                                         int64_t tileN, int64_t tileK,
                                         int64_t depth) {
  // Budget the widest padding any tensor-core pipeline applies by default
  // (getDefaultBankConflictPaddingBits, which the pipelines ask too), so the
  // choice holds whether the pipeline pads or swizzles.
  (void)kind;
  const int64_t kRowPadding =
      std::max(getDefaultBankConflictPaddingBits(MmaKind::Wmma),
               getDefaultBankConflictPaddingBits(MmaKind::MmaSync)) /
      8;
  auto buffer = [&](int64_t rows, int64_t columns, Type type) {
    return mulSat(rows, addSat(mulSat(columns, getByteWidth(type)),
                               kRowPadding));
  };
  int64_t a = buffer(tileM, tileK, shape.aType);
  int64_t b = buffer(tileK, tileN, shape.bType);
  int64_t c = buffer(tileM, tileN, shape.cType);
  return addSat(mulSat(depth, addSat(a, b)), c);
}

namespace {
/// A workgroup tile of a tensor-core matmul, split over warpsX x warpsY warps
/// (x over N, y over M), whatever the target's warp size.
struct TensorCoreTile {
  int64_t m, n;
  int64_t warpsX, warpsY;
};
} // namespace

// Largest first. The warp tiles (32x64, 32x32, 16x16, 16x16) are multiples
// of every MMA shape.
static constexpr TensorCoreTile kTensorCoreTiles[] = {
    {128, 128, 4, 2}, {64, 64, 2, 2}, {32, 32, 2, 2}, {16, 16, 1, 1}};

/// Enough workgroups to give each SM of a large GPU (108 on an A100, 132 on
/// an H100) work at about one workgroup per SM.
static constexpr int64_t kMinWorkgroups = 64;

/// PTX defines the operand fragments of warp-level MMA (WMMA, mma.sync) over
/// the 32 lanes of a warp.
static constexpr int64_t kMmaWarpSize = 32;

static std::optional<LoweringStrategy>
selectTensorCoreStrategy(linalg::LinalgOp op, const MatmulShape &shape,
                         TargetAttr target, MmaPreference preference) {
  if (!shape.isStatic() || shape.aType != shape.bType ||
      target.getWarpSize() != kMmaWarpSize)
    return std::nullopt;
  std::optional<MmaKind> maybeKind =
      resolveMmaKind(preference, target, shape.aType);
  if (!maybeKind)
    return std::nullopt;
  MmaKind kind = *maybeKind;
  MmaShapeAttr inst =
      pickMmaShape(target, kind, shape.aType, shape.bType, shape.cType);
  if (!inst)
    return std::nullopt;
  int64_t m = shape.m(), n = shape.n(), k = shape.k();
  if (m < inst.getM() || n < inst.getN() || k < inst.getK())
    return std::nullopt;

  // K is never specialized: it needs whole K tiles. Prefer 64-byte rows of
  // A (2 x 128-bit copies per thread and row), then 32-byte ones.
  int64_t tileK = 0;
  for (int64_t bytes : {64, 32, 16}) {
    int64_t candidate = bytes / getByteWidth(shape.aType);
    if (candidate % inst.getK() == 0 && k % candidate == 0) {
      tileK = candidate;
      break;
    }
  }
  if (tileK == 0 && k % inst.getK() == 0)
    tileK = inst.getK();
  if (tileK == 0)
    return std::nullopt;

  // The largest aligned tile that still makes enough workgroups, else the
  // smallest aligned one; 16x16 (one warp) only when 32x32 does not fit.
  // Unaligned shapes take 32x32 (or 16x16) tiles and rely on workgroup
  // specialization for the partial ones.
  // Tiles whose workgroup the target cannot run, or whose single-stage
  // buffers exceed its shared memory, are never candidates.
  int64_t warp = target.getWarpSize();
  auto fits = [&](const TensorCoreTile &tile) {
    int64_t threads = mulSat(mulSat(tile.warpsX, tile.warpsY), warp);
    return threads <= target.getMaxThreadsPerBlock() &&
           getTensorCoreSharedMemory(shape, kind, tile.m, tile.n, tileK, 1) <=
               target.getMaxSharedMemoryPerBlockOptin();
  };
  const TensorCoreTile *chosen = nullptr;
  const TensorCoreTile *smallestAligned = nullptr;
  const TensorCoreTile *oneWarpTile = &kTensorCoreTiles[3];
  const TensorCoreTile *twoByTwoWarpTile = &kTensorCoreTiles[2];
  for (const TensorCoreTile &tile : kTensorCoreTiles) {
    if (&tile == oneWarpTile || m % tile.m != 0 || n % tile.n != 0 ||
        !fits(tile))
      continue;
    smallestAligned = &tile;
    int64_t workgroups =
        mulSat(mulSat(ceilDiv(m, tile.m), ceilDiv(n, tile.n)), shape.batch());
    if (!chosen && workgroups >= kMinWorkgroups)
      chosen = &tile;
  }
  if (!chosen)
    chosen = smallestAligned;
  if (!chosen) {
    bool fitsTwoWarps = m >= 32 && n >= 32;
    bool alignedTo16 = m % 16 == 0 && n % 16 == 0;
    chosen = fitsTwoWarps && !alignedTo16 && fits(*twoByTwoWarpTile)
                 ? twoByTwoWarpTile
                 : oneWarpTile;
  }
  if (!fits(*chosen))
    return std::nullopt;
  int64_t workgroupX = chosen->warpsX * warp;
  int64_t workgroupY = chosen->warpsY;

  // Software-pipelining depth: cp.async (sm_80+) makes deeper pipelines pay;
  // keep them within the static shared-memory limit so that no opt-in is
  // needed by default.
  int64_t depth = 1;
  if (target.getComputeCapability() >= 80) {
    for (int64_t candidate : {4, 3, 2}) {
      if (getTensorCoreSharedMemory(shape, kind, chosen->m, chosen->n, tileK,
                                    candidate) <=
          target.getMaxSharedMemoryPerBlock()) {
        depth = candidate;
        break;
      }
    }
  }

  // No more stages than K steps: software pipelining needs one K step per
  // stage.
  depth = std::max<int64_t>(1, std::min<int64_t>(depth, k / tileK));

  int64_t numLoops = op.getNumLoops();
  SmallVector<int64_t> level0(numLoops, 0), level1(numLoops, 0),
      level2(numLoops, 0);
  for (unsigned pos : shape.batchPos)
    level0[pos] = level1[pos] = 1;
  level0[shape.mPos] = chosen->m;
  level0[shape.nPos] = chosen->n;
  level0[shape.kPos] = tileK;
  level1[shape.mPos] = chosen->m / chosen->warpsY;
  level1[shape.nPos] = chosen->n / chosen->warpsX;
  level2[shape.mPos] = inst.getM();
  level2[shape.nPos] = inst.getN();
  level2[shape.kPos] = inst.getK();

  MLIRContext *ctx = op->getContext();
  LoweringStrategy strategy;
  strategy.translationInfo = TranslationInfoAttr::get(
      ctx, getTensorCorePipeline(kind),
      {workgroupX, workgroupY, 1}, warp, depth,
      /*storeStage=*/1, kind);
  strategy.loweringConfig =
      LoweringConfigAttr::get(ctx, ArrayRef<SmallVector<int64_t>>{
                                       level0, level1, level2});
  return strategy;
}

//===----------------------------------------------------------------------===//
// SIMT strategies
//===----------------------------------------------------------------------===//

namespace {
struct SimtMatmulTile {
  int64_t m, n, k;
  int64_t workgroupX, workgroupY;
};
} // namespace

// Each thread computes (m / workgroupY) x (n / workgroupX) outputs. Tried in
// order; the first that divides the problem wins.
static constexpr SimtMatmulTile kSimtMatmulTiles[] = {
    {32, 128, 32, 32, 8}, {128, 64, 8, 16, 8}, {16, 256, 16, 64, 2},
    {8, 32, 32, 8, 8},    {32, 128, 4, 32, 8}, {8, 128, 4, 32, 1},
    {16, 64, 4, 16, 2},   {1, 128, 8, 32, 1}};

static std::optional<LoweringStrategy>
selectSimtMatmulStrategy(linalg::LinalgOp op, const MatmulShape &shape,
                         TargetAttr target) {
  if (!shape.isStatic())
    return std::nullopt;
  for (const SimtMatmulTile &tile : kSimtMatmulTiles) {
    if (shape.m() % tile.m != 0 || shape.n() % tile.n != 0 ||
        shape.k() % tile.k != 0 ||
        tile.workgroupX * tile.workgroupY > target.getMaxThreadsPerBlock())
      continue;
    int64_t numLoops = op.getNumLoops();
    SmallVector<int64_t> level0(numLoops, 0), level1(numLoops, 0);
    for (unsigned pos : shape.batchPos)
      level0[pos] = level1[pos] = 1;
    level0[shape.mPos] = tile.m;
    level0[shape.nPos] = tile.n;
    level0[shape.kPos] = tile.k;
    level1[shape.mPos] = tile.m / tile.workgroupY;
    level1[shape.nPos] = tile.n / tile.workgroupX;
    MLIRContext *ctx = op->getContext();
    return LoweringStrategy{
        TranslationInfoAttr::get(ctx, Pipeline::MatmulSimt,
                                 {tile.workgroupX, tile.workgroupY, 1},
                                 std::nullopt, 1, 1, std::nullopt),
        LoweringConfigAttr::get(ctx,
                                ArrayRef<SmallVector<int64_t>>{level0, level1})};
  }
  return std::nullopt;
}

/// Rows of a SIMT reduction a workgroup owns, one per thread.
static constexpr int64_t kSimtReductionRows = 256;
/// Threads of the generic SIMT strategy, one output element each.
static constexpr int64_t kSimtThreads = 128;

/// The strategy for anything: one thread per element of the innermost
/// parallel loop, reduction loops left whole. Correct for every shape,
/// dynamic included; the specialized pipelines are faster where they apply.
static LoweringStrategy selectSimtDistributeStrategy(linalg::LinalgOp op,
                                                     TargetAttr target) {
  int64_t numLoops = op.getNumLoops();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> parallelDims;
  op.getParallelDims(parallelDims);
  SmallVector<int64_t> level0(numLoops, 0), level1(numLoops, 0);
  int64_t threads = 1;
  if (!parallelDims.empty()) {
    unsigned inner = parallelDims.back();
    for (unsigned pos : parallelDims)
      level0[pos] = level1[pos] = 1;
    threads = op.getNumReductionLoops() > 0 ? kSimtReductionRows : kSimtThreads;
    // Whole warps, within the target's limit (a multiple of the warp size).
    threads = std::min(threads, target.getMaxThreadsPerBlock());
    // Small static loops get a workgroup of whole warps that covers them.
    if (!ShapedType::isDynamic(ranges[inner]) && ranges[inner] < threads)
      threads = std::max<int64_t>(
          target.getWarpSize(),
          llvm::alignTo(ranges[inner], target.getWarpSize()));
    level0[inner] = threads;
  }
  MLIRContext *ctx = op->getContext();
  return LoweringStrategy{
      TranslationInfoAttr::get(ctx, Pipeline::SimtDistribute, {threads, 1, 1},
                               std::nullopt, 1, 1, std::nullopt),
      LoweringConfigAttr::get(ctx,
                              ArrayRef<SmallVector<int64_t>>{level0, level1})};
}

/// One warp group per row for rows of at least a warp's worth of vectors.
static std::optional<LoweringStrategy>
selectWarpReductionStrategy(linalg::LinalgOp op, TargetAttr target) {
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  int64_t numLoops = op.getNumLoops();
  if (reductionDims.size() != 1 ||
      reductionDims.front() != static_cast<unsigned>(numLoops - 1) ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  int64_t rowSize = op.getStaticLoopRanges().back();
  Type elementType = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (ShapedType::isDynamic(rowSize) || rowSize == 0 ||
      !elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() > 32)
    return std::nullopt;
  int64_t warp = target.getWarpSize();
  int64_t vector = 128 / elementType.getIntOrFloatBitWidth();
  while (vector > 1 && rowSize % (warp * vector) != 0)
    vector /= 2;
  if (rowSize % (warp * vector) != 0)
    return std::nullopt;
  int64_t threads = rowSize / vector;
  while (threads > target.getMaxThreadsPerBlock() && threads % 2 == 0)
    threads /= 2;
  if (threads > target.getMaxThreadsPerBlock() || threads % warp != 0)
    return std::nullopt;

  SmallVector<int64_t> level0(numLoops, 1), level1(numLoops, 0);
  level0.back() = threads * vector;
  level1.back() = vector;
  MLIRContext *ctx = op->getContext();
  return LoweringStrategy{
      TranslationInfoAttr::get(ctx, Pipeline::WarpReduction, {threads, 1, 1},
                               warp, 1, 1, std::nullopt),
      LoweringConfigAttr::get(ctx,
                              ArrayRef<SmallVector<int64_t>>{level0, level1})};
}

/// 128-bit vectors along the innermost loop of an all-parallel op.
static std::optional<LoweringStrategy>
selectVectorizeStrategy(linalg::LinalgOp op, TargetAttr target) {
  int64_t numLoops = op.getNumLoops();
  if (numLoops == 0 || op.getNumReductionLoops() != 0 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  int64_t inner = op.getStaticLoopRanges().back();
  Type elementType = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (ShapedType::isDynamic(inner) || !elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() > 64)
    return std::nullopt;
  int64_t vector = 128 / elementType.getIntOrFloatBitWidth();
  if (inner % vector != 0)
    return std::nullopt;
  int64_t threads = std::clamp<int64_t>(
      inner / vector, 1,
      std::min(kSimtThreads, target.getMaxThreadsPerBlock()));
  SmallVector<int64_t> level0(numLoops, 1), level1(numLoops, 1);
  level0.back() = threads * vector;
  level1.back() = vector;
  MLIRContext *ctx = op->getContext();
  return LoweringStrategy{
      TranslationInfoAttr::get(ctx, Pipeline::Vectorize, {threads, 1, 1},
                               std::nullopt, 1, 1, std::nullopt),
      LoweringConfigAttr::get(ctx,
                              ArrayRef<SmallVector<int64_t>>{level0, level1})};
}

std::string mlir::gpucg::explainNoTensorCoreStrategy(
    linalg::LinalgOp rootOp, TargetAttr target, MmaPreference preference) {
  std::optional<MatmulShape> shape = getMatmulShape(rootOp);
  if (!shape)
    return "it is not a contraction with one M, one N and one K loop";
  if (!shape->isStatic())
    return "its shapes are dynamic";
  if (shape->aType != shape->bType)
    return "its A and B element types differ";
  if (target.getWarpSize() != kMmaWarpSize) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "warp-level MMA needs a warp of " << kMmaWarpSize << " lanes, but "
       << target.getChip() << " has warp_size " << target.getWarpSize();
    return text;
  }
  std::optional<MmaKind> kind =
      resolveMmaKind(preference, target, shape->aType);
  if (!kind) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "MLIR 22 lowers no tensor-core operation of the requested family "
          "for "
       << shape->aType << " operands (mma.sync: f16, i8; WMMA: f16, f32)";
    return text;
  }
  MmaShapeAttr inst = pickMmaShape(target, *kind, shape->aType, shape->bType,
                                   shape->cType);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!inst) {
    os << target.getChip() << " has no " << stringifyMmaKind(*kind)
       << " instruction for " << shape->aType << " * " << shape->bType
       << " -> " << shape->cType;
    return text;
  }
  if (shape->m() < inst.getM() || shape->n() < inst.getN()) {
    os << "M x N = " << shape->m() << " x " << shape->n()
       << " is smaller than the " << inst.getM() << " x " << inst.getN()
       << " instruction";
    return text;
  }
  if (shape->k() < inst.getK() || shape->k() % inst.getK() != 0) {
    os << "K = " << shape->k() << " is not a positive multiple of the "
       << "instruction's K (" << inst.getK() << ")";
    return text;
  }
  os << "no workgroup tile fits " << target.getChip() << "'s limits ("
     << target.getMaxThreadsPerBlock() << " threads of warp size "
     << target.getWarpSize() << ", "
     << target.getMaxSharedMemoryPerBlockOptin()
     << " bytes of shared memory per workgroup)";
  return text;
}

LoweringStrategy mlir::gpucg::selectLoweringStrategy(
    linalg::LinalgOp rootOp, TargetAttr target, MmaPreference mmaPreference) {
  if (std::optional<MatmulShape> shape = getMatmulShape(rootOp)) {
    if (auto strategy =
            selectTensorCoreStrategy(rootOp, *shape, target, mmaPreference))
      return *strategy;
    if (auto strategy = selectSimtMatmulStrategy(rootOp, *shape, target))
      return *strategy;
    return selectSimtDistributeStrategy(rootOp, target);
  }
  if (rootOp.getNumReductionLoops() > 0) {
    if (auto strategy = selectWarpReductionStrategy(rootOp, target))
      return *strategy;
    return selectSimtDistributeStrategy(rootOp, target);
  }
  if (auto strategy = selectVectorizeStrategy(rootOp, target))
    return *strategy;
  return selectSimtDistributeStrategy(rootOp, target);
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

static StringRef getLoopName(const MatmulShape &shape, unsigned pos) {
  if (pos == shape.mPos)
    return "M";
  if (pos == shape.nPos)
    return "N";
  if (pos == shape.kPos)
    return "K";
  return "batch";
}

static LogicalResult verifyTensorCoreStrategy(linalg::LinalgOp op,
                                              const LoweringStrategy &strategy,
                                              TargetAttr target) {
  TranslationInfoAttr info = strategy.translationInfo;
  LoweringConfigAttr config = strategy.loweringConfig;
  ArrayRef<int64_t> workgroup = info.getWorkgroupSize();
  StringRef pipelineName = stringifyPipeline(info.getPipeline());
  int64_t warp = target.getWarpSize();

  if (warp != kMmaWarpSize)
    return op.emitOpError()
           << "pipeline " << pipelineName << " needs a warp of "
           << kMmaWarpSize << " lanes (PTX's MMA fragments span 32), but "
           << target.getChip() << " has warp_size " << warp;
  if (workgroup[2] != 1)
    return op.emitOpError()
           << "pipeline " << pipelineName
           << " needs workgroup_size z == 1, got workgroup_size "
           << formatList(workgroup);
  if (workgroup[0] % warp != 0)
    return op.emitOpError()
           << "pipeline " << pipelineName << " needs workgroup_size x ("
           << workgroup[0] << ") to be a multiple of the warp size (" << warp
           << ") of " << target.getChip();

  std::optional<MatmulShape> shape = getMatmulShape(op);
  if (!shape)
    return op.emitOpError()
           << "pipeline " << pipelineName
           << " needs a contraction root op with one M, one N and one K loop";
  for (auto [pos, size] : llvm::enumerate(shape->loopRanges))
    if (ShapedType::isDynamic(size))
      return op.emitOpError()
             << "pipeline " << pipelineName
             << " needs static shapes, but loop " << pos << " ("
             << getLoopName(*shape, pos) << ") is dynamic";

  MmaKind kind = *info.getTensorCoreMmaKind();
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  int64_t tileM = level0[shape->mPos], tileN = level0[shape->nPos],
          tileK = level0[shape->kPos];
  if (tileM <= 0 || tileN <= 0 || tileK <= 0)
    return op.emitOpError()
           << "pipeline " << pipelineName
           << " needs positive workgroup tile sizes for M, N and K, got "
           << tileM << ", " << tileN << ", " << tileK;
  if (shape->k() % tileK != 0)
    return op.emitOpError()
           << "problem size K = " << shape->k()
           << " is not a multiple of the K tile " << tileK << "; pipeline "
           << pipelineName << " needs whole K tiles";
  if (info.getPipelineDepth() > shape->k() / tileK)
    return op.emitOpError()
           << "pipeline_depth " << info.getPipelineDepth() << " exceeds the "
           << shape->k() / tileK << " K steps (K = " << shape->k()
           << ", K tile " << tileK
           << "); software pipelining needs a K step per stage";

  // The instruction: level 2 when given, else gpucg's preference.
  MmaShapeAttr inst;
  ArrayRef<int64_t> level2 = config.getTileSizes(2);
  if (!level2.empty()) {
    for (MmaShapeAttr candidate : target.getMmaShapes(
             kind, shape->aType, shape->bType, shape->cType))
      if (candidate.getM() == level2[shape->mPos] &&
          candidate.getN() == level2[shape->nPos] &&
          candidate.getK() == level2[shape->kPos])
        inst = candidate;
    if (!inst)
      return op.emitOpError()
             << target.getChip() << " has no " << stringifyMmaKind(kind)
             << " instruction of shape " << level2[shape->mPos] << "x"
             << level2[shape->nPos] << "x" << level2[shape->kPos] << " for "
             << shape->aType << " * " << shape->bType << " -> "
             << shape->cType;
  } else {
    inst = pickMmaShape(target, kind, shape->aType, shape->bType,
                        shape->cType);
    if (!inst)
      return op.emitOpError()
             << target.getChip() << " has no " << stringifyMmaKind(kind)
             << " instruction for " << shape->aType << " * " << shape->bType
             << " -> " << shape->cType;
  }

  if (!hasTensorCoreConversion(kind, shape->aType))
    return op.emitOpError()
           << "pipeline " << pipelineName << " cannot take " << shape->aType
           << " operands: MLIR 22's "
           << (kind == MmaKind::Wmma ? "WMMA conversion handles f16 and f32"
                                     : "mma.sync conversion handles f16 and i8")
           << " only";

  // Warp tiles: the workgroup is (x / warp) x y warps over N x M.
  int64_t warpsX = workgroup[0] / warp, warpsY = workgroup[1];
  if (tileM % warpsY != 0 || tileN % warpsX != 0)
    return op.emitOpError()
           << "workgroup tile " << tileM << "x" << tileN
           << " (MxN) does not split evenly over the " << warpsY << "x"
           << warpsX << " warps of workgroup_size " << formatList(workgroup);
  int64_t warpM = tileM / warpsY, warpN = tileN / warpsX;
  if (warpM % inst.getM() != 0 || warpN % inst.getN() != 0 ||
      tileK % inst.getK() != 0)
    return op.emitOpError()
           << "warp tile " << warpM << "x" << warpN << "x" << tileK
           << " (MxNxK) is not a multiple of the " << stringifyMmaKind(kind)
           << " instruction shape " << inst.getM() << "x" << inst.getN()
           << "x" << inst.getK() << " for " << shape->aType << " * "
           << shape->bType << " -> " << shape->cType;

  int64_t total = getTensorCoreSharedMemory(*shape, kind, tileM, tileN, tileK,
                                            info.getPipelineDepth());
  if (total > target.getMaxSharedMemoryPerBlockOptin())
    return op.emitOpError()
           << "needs " << total << " bytes of shared memory (A " << tileM
           << "x" << tileK << " and B " << tileK << "x" << tileN
           << " tiles times pipeline_depth " << info.getPipelineDepth()
           << ", plus the " << tileM << "x" << tileN
           << " accumulator, rows padded by "
           << std::max(getDefaultBankConflictPaddingBits(MmaKind::Wmma),
                       getDefaultBankConflictPaddingBits(MmaKind::MmaSync)) /
                  8
           << " bytes), more than the "
           << target.getMaxSharedMemoryPerBlockOptin() << " bytes "
           << target.getChip() << " allows per workgroup";
  return success();
}

static LogicalResult verifyMatmulSimtStrategy(linalg::LinalgOp op,
                                              const LoweringStrategy &strategy) {
  std::optional<MatmulShape> shape = getMatmulShape(op);
  if (!shape)
    return op.emitOpError() << "pipeline MatmulSimt needs a contraction root "
                               "op with one M, one N and one K loop";
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  for (unsigned pos : {shape->mPos, shape->nPos, shape->kPos}) {
    int64_t size = shape->loopRanges[pos], tile = level0[pos];
    if (ShapedType::isDynamic(size))
      return op.emitOpError() << "pipeline MatmulSimt needs static shapes, "
                                 "but loop "
                              << pos << " (" << getLoopName(*shape, pos)
                              << ") is dynamic";
    if (tile <= 0 || size % tile != 0)
      return op.emitOpError()
             << "problem size " << getLoopName(*shape, pos) << " = " << size
             << " is not a multiple of its workgroup tile " << tile
             << "; pipeline MatmulSimt needs whole tiles (SimtDistribute "
                "takes any shape)";
  }
  ArrayRef<int64_t> workgroup = strategy.translationInfo.getWorkgroupSize();
  int64_t tileM = level0[shape->mPos], tileN = level0[shape->nPos];
  if (tileM % workgroup[1] != 0 || tileN % workgroup[0] != 0)
    return op.emitOpError()
           << "workgroup tile " << tileM << "x" << tileN
           << " (MxN) does not split evenly over workgroup_size "
           << formatList(workgroup) << " (x over N, y over M)";
  return success();
}

static LogicalResult
verifyWarpReductionStrategy(linalg::LinalgOp op,
                            const LoweringStrategy &strategy,
                            TargetAttr target) {
  ArrayRef<int64_t> workgroup = strategy.translationInfo.getWorkgroupSize();
  int64_t warp = target.getWarpSize();
  if (workgroup[1] != 1 || workgroup[2] != 1 || workgroup[0] % warp != 0)
    return op.emitOpError()
           << "pipeline WarpReduction needs workgroup_size [x, 1, 1] with x a "
              "multiple of the warp size ("
           << warp << "), got " << formatList(workgroup);
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  unsigned numLoops = op.getNumLoops();
  if (reductionDims.size() != 1 || reductionDims.front() != numLoops - 1)
    return op.emitOpError() << "pipeline WarpReduction needs exactly one "
                               "reduction loop, the innermost one";
  int64_t rowSize = op.getStaticLoopRanges().back();
  int64_t tile = strategy.loweringConfig.getTileSizes(0).back();
  if (ShapedType::isDynamic(rowSize) || tile <= 0 || rowSize % tile != 0)
    return op.emitOpError()
           << "pipeline WarpReduction needs a static reduction size that is a "
              "multiple of its tile, got size "
           << (ShapedType::isDynamic(rowSize) ? std::string("?")
                                              : std::to_string(rowSize))
           << " and tile " << tile;
  return success();
}

LogicalResult
mlir::gpucg::verifyLoweringStrategy(linalg::LinalgOp rootOp,
                                    const LoweringStrategy &strategy,
                                    TargetAttr target) {
  TranslationInfoAttr info = strategy.translationInfo;
  LoweringConfigAttr config = strategy.loweringConfig;
  StringRef pipelineName = stringifyPipeline(info.getPipeline());
  if (info.getPipeline() == Pipeline::None)
    return success();

  ArrayRef<int64_t> workgroup = info.getWorkgroupSize();
  if (workgroup.empty())
    return rootOp.emitOpError()
           << "pipeline " << pipelineName << " needs a workgroup_size";
  int64_t threads = *info.getNumThreads();
  if (threads > target.getMaxThreadsPerBlock())
    return rootOp.emitOpError()
           << "workgroup_size " << formatList(workgroup) << " has " << threads
           << " threads; " << target.getChip() << " allows at most "
           << target.getMaxThreadsPerBlock() << " per workgroup";
  if (info.getSubgroupSize() && *info.getSubgroupSize() != target.getWarpSize())
    return rootOp.emitOpError()
           << "subgroup_size " << *info.getSubgroupSize()
           << " differs from the warp size " << target.getWarpSize() << " of "
           << target.getChip();

  unsigned numLoops = rootOp.getNumLoops();
  for (unsigned level = 0; level < config.getNumLevels(); ++level) {
    size_t numSizes = config.getTileSizes(level).size();
    if (numSizes != numLoops)
      return rootOp.emitOpError()
             << "lowering_config level " << level << " has " << numSizes
             << " tile sizes, but the op has " << numLoops << " loops";
  }
  SmallVector<unsigned> parallelDims;
  rootOp.getParallelDims(parallelDims);
  int64_t tiledParallel = llvm::count_if(parallelDims, [&](unsigned pos) {
    return config.getTileSizes(0)[pos] != 0;
  });
  if (tiledParallel > 3)
    return rootOp.emitOpError()
           << "lowering_config level 0 tiles " << tiledParallel
           << " parallel loops, but a grid has at most 3 dimensions";

  switch (info.getPipeline()) {
  case Pipeline::MatmulTensorCore:
  case Pipeline::MatmulTensorCoreMmaSync:
    return verifyTensorCoreStrategy(rootOp, strategy, target);
  case Pipeline::MatmulSimt:
    return verifyMatmulSimtStrategy(rootOp, strategy);
  case Pipeline::WarpReduction:
    return verifyWarpReductionStrategy(rootOp, strategy, target);
  default:
    return success();
  }
}

LoweringStrategy
mlir::gpucg::completeLoweringStrategy(linalg::LinalgOp rootOp,
                                      const LoweringStrategy &strategy,
                                      TargetAttr target) {
  TranslationInfoAttr info = strategy.translationInfo;
  LoweringConfigAttr config = strategy.loweringConfig;
  Pipeline pipeline = info.getPipeline();
  std::optional<MmaKind> mmaKind = info.getTensorCoreMmaKind();
  bool isTensorCore = mmaKind.has_value();
  std::optional<MatmulShape> shape = getMatmulShape(rootOp);
  unsigned wantedLevels = isTensorCore ? 3 : pipeline == Pipeline::MatmulSimt ? 2 : 0;
  if (!shape || config.getNumLevels() >= wantedLevels)
    return strategy;

  SmallVector<SmallVector<int64_t>> levels;
  for (unsigned level = 0; level < config.getNumLevels(); ++level)
    levels.emplace_back(config.getTileSizes(level));
  ArrayRef<int64_t> workgroup = info.getWorkgroupSize();
  int64_t numLoops = rootOp.getNumLoops();
  const SmallVector<int64_t> &level0 = levels.front();
  if (levels.size() < 2) {
    SmallVector<int64_t> level1(numLoops, 0);
    for (unsigned pos : shape->batchPos)
      level1[pos] = 1;
    int64_t splitX = isTensorCore ? workgroup[0] / target.getWarpSize()
                                  : workgroup[0];
    level1[shape->mPos] = level0[shape->mPos] / workgroup[1];
    level1[shape->nPos] = level0[shape->nPos] / splitX;
    levels.push_back(level1);
  }
  if (isTensorCore && levels.size() < 3) {
    MmaShapeAttr inst = pickMmaShape(target, *mmaKind, shape->aType, shape->bType,
                                     shape->cType);
    SmallVector<int64_t> level2(numLoops, 0);
    level2[shape->mPos] = inst.getM();
    level2[shape->nPos] = inst.getN();
    level2[shape->kPos] = inst.getK();
    levels.push_back(level2);
  }
  return LoweringStrategy{
      info, LoweringConfigAttr::get(rootOp->getContext(), levels)};
}
