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
#include "gpucg/Transforms/WgmmaLaunch.h"

#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::gpucg;

//===----------------------------------------------------------------------===//
// Root op
//===----------------------------------------------------------------------===//

bool mlir::gpucg::isReductionOfSameRows(linalg::LinalgOp op,
                                        linalg::LinalgOp other) {
  auto isRowReduction = [](linalg::LinalgOp candidate) {
    // One reduction loop, the innermost, and one output (matchRowReduction).
    if (failed(matchRowReduction(candidate)))
      return false;
    // The result has one element per row, and every input is read either
    // along the row or once per row (a mean subtracted from each element).
    unsigned numLoops = candidate.getNumLoops();
    AffineMap rowMap =
        AffineMap::getMultiDimIdentityMap(numLoops, candidate->getContext())
            .dropResult(numLoops - 1);
    if (candidate.getMatchingIndexingMap(candidate.getDpsInitOperand(0)) !=
        rowMap)
      return false;
    return llvm::all_of(candidate.getDpsInputOperands(), [&](OpOperand *in) {
      AffineMap map = candidate.getMatchingIndexingMap(in);
      return map.isIdentity() || map == rowMap;
    });
  };
  return isRowReduction(op) && isRowReduction(other) &&
         op.getStaticLoopRanges() == other.getStaticLoopRanges();
}

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
  // Several reductions of the same rows (softmax's max and sum, LayerNorm's
  // mean and variance) are one kernel: the last one is its root, and
  // workgroup tiling fuses the others into its row's tile.
  if (withReductions.size() > 1 &&
      llvm::all_of(withReductions, [&](linalg::LinalgOp op) {
        return isReductionOfSameRows(op, withReductions.front());
      }))
    return withReductions.back();
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
  /// This shape with each dynamic size replaced by the size the
  /// tensor-core strategy plans it for: kDynamicSizeEstimate for M, N and
  /// K, 1 for a batch loop.
  MatmulShape getPlanningShape() const;
  /// Product of the batch sizes (1 without batch loops), saturated.
  int64_t batch() const {
    int64_t product = 1;
    for (unsigned pos : batchPos)
      product = mulSat(product, loopRanges[pos]);
    return product;
  }
};
} // namespace

/// What a dynamic M, N or K is planned for: large enough for the 64-byte K
/// tile and every pipeline depth, and for tiles of 64 x 64 (the middle
/// candidate) on a chip of about 100 SMs, a compromise between large run-time
/// sizes (where 128 x 128 would do better) and small ones (a prompt of a few
/// tokens, where every row of a tile past M is padding).
static constexpr int64_t kDynamicSizeEstimate = 1024;

MatmulShape MatmulShape::getPlanningShape() const {
  MatmulShape planned = *this;
  for (auto [pos, size] : llvm::enumerate(planned.loopRanges))
    if (ShapedType::isDynamic(size))
      size = llvm::is_contained(batchPos, pos) ? 1 : kDynamicSizeEstimate;
  return planned;
}

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
// Tensor-core instructions
//===----------------------------------------------------------------------===//

/// Whether gpucg's tensor-core pipelines lower `kind` for these operands:
/// mma.sync handles f16, bf16 and i8 operands (bf16 mma.sync, which MLIR 22's
/// NVGPU-to-NVVM conversion lacks, through gpucg's own lowering) but not
/// TF32; WMMA (MLIR 22's convertVectorToMMAOps) handles f16 and f32 (TF32)
/// but not bf16 or i8.
static bool hasTensorCoreConversion(MmaKind kind, Type operandType) {
  if (operandType.isF16())
    return true;
  if (kind == MmaKind::MmaSync)
    return operandType.isBF16() || operandType.isInteger(8);
  return operandType.isF32();
}

/// The operand types `kind` takes, in words (for diagnostics).
static StringRef describeTensorCoreOperands(MmaKind kind) {
  return kind == MmaKind::Wmma ? "f16 and f32 (TF32)" : "f16, bf16 and i8";
}

/// The MMA family a tensor-core strategy uses on `target`, if any can
/// lower these operands.
static std::optional<MmaKind>
resolveMmaKind(MmaPreference preference, TargetAttr target, Type operandType) {
  std::optional<MmaKind> kind;
  switch (preference) {
  case MmaPreference::Wmma:
    kind = MmaKind::Wmma;
    break;
  case MmaPreference::MmaSync:
    kind = MmaKind::MmaSync;
    break;
  case MmaPreference::Wgmma:
    return std::nullopt;
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

/// PTX defines the operand fragments of warp-level MMA (WMMA, mma.sync) over
/// the 32 lanes of a warp.
static constexpr int64_t kMmaWarpSize = 32;

//===----------------------------------------------------------------------===//
// Tensor-core resources: shared memory and registers
//===----------------------------------------------------------------------===//

namespace {
/// The workgroup memory of a tensor-core workgroup tile, in bytes, every row
/// padded as the pipeline of its MMA family pads it by default
/// (getDefaultBankConflictPaddingBits: WMMA pads, mma.sync swizzles).
struct TensorCoreSharedMemory {
  /// pipeline_depth x (A tile + B tile): the multi-buffered operands.
  int64_t operands;
  /// The C tile staged for the final store. The accumulator itself lives in
  /// registers during the K loop, and the staging buffer is packed into the
  /// operands' bytes (dead by then), so it only costs what it exceeds them by.
  int64_t cStaging;
  int64_t rowPadding;
  /// Whether M or N leaves partial tiles. Workgroup specialization then
  /// gives them a path of their own with its own multi-buffered operands,
  /// which gpucg-pack-shared-memory-alloc cannot yet overlap with the full
  /// path's staging buffer (allocated above the specialization's scf.if,
  /// so live across both paths): the two add up.
  bool partialTiles;

  int64_t total() const {
    return partialTiles ? addSat(operands, cStaging)
                        : std::max(operands, cStaging);
  }
};
} // namespace

/// Bytes of the workgroup buffer of operand `operand` of `op` for the tile
/// sizes `tile` (one per loop): its tile shape follows the operand's
/// indexing map (so a transposed B is a tN x tK buffer), and each innermost
/// row is padded by `rowPadding` bytes.
static int64_t getOperandTileBytes(linalg::LinalgOp op, OpOperand &operand,
                                   ArrayRef<int64_t> tile, int64_t rowPadding) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  Type elementType = getElementTypeOrSelf(operand.get());
  int64_t rows = 1, row = 1;
  for (auto [idx, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    int64_t size = dim ? tile[dim.getPosition()] : 1;
    if (idx + 1 == map.getNumResults())
      row = size;
    else
      rows = mulSat(rows, size);
  }
  return mulSat(rows,
                addSat(mulSat(row, getByteWidth(elementType)), rowPadding));
}

static TensorCoreSharedMemory
getTensorCoreSharedMemory(linalg::LinalgOp op, const MatmulShape &shape,
                          MmaKind kind, int64_t tileM, int64_t tileN,
                          int64_t tileK, int64_t depth) {
  SmallVector<int64_t> tile(shape.loopRanges.size(), 1);
  tile[shape.mPos] = tileM;
  tile[shape.nPos] = tileN;
  tile[shape.kPos] = tileK;
  int64_t padding = getDefaultBankConflictPaddingBits(kind) / 8;
  int64_t a = getOperandTileBytes(op, *op.getDpsInputOperand(0), tile, padding);
  int64_t b = getOperandTileBytes(op, *op.getDpsInputOperand(1), tile, padding);
  int64_t c = getOperandTileBytes(op, *op.getDpsInitOperand(0), tile, padding);
  bool partialTiles = ShapedType::isDynamic(shape.m()) ||
                      ShapedType::isDynamic(shape.n()) ||
                      shape.m() % tileM != 0 || shape.n() % tileN != 0;
  return {mulSat(depth, addSat(a, b)), c, padding, partialTiles};
}

/// Registers for addresses, indices, the loop counter and predicates beside
/// the MMA fragments, calibrated with ptxas on gpucg's 4096^3 f16 -> f32
/// mma.sync kernel (64x64 warp tiles, no spills: 238 to 248 registers per
/// thread on sm_80, 240 on sm_90, as the pipelines evolve); rounded up.
static constexpr int64_t kTensorCoreOverheadRegisters = 56;

/// 32-bit registers per thread a warp tile of warpM x warpN needs: its
/// accumulator fragments (they stay in registers over the whole K loop), the
/// A and B fragments of two instruction K steps (the next ones load while the
/// current ones multiply), and kTensorCoreOverheadRegisters. A 64x64 f32
/// warp tile with m16n8k16: 128 + 2 x (16 + 16) + 56 = 248.
static int64_t estimateTensorCoreRegisters(const MatmulShape &shape,
                                           MmaShapeAttr inst, int64_t warpM,
                                           int64_t warpN) {
  auto registers = [](int64_t elements, Type type) {
    return ceilDiv(mulSat(elements, getByteWidth(type)), 4 * kMmaWarpSize);
  };
  int64_t acc = registers(mulSat(warpM, warpN), shape.cType);
  int64_t a = registers(mulSat(warpM, inst.getK()), shape.aType);
  int64_t b = registers(mulSat(warpN, inst.getK()), shape.bType);
  return addSat(addSat(acc, mulSat(2, addSat(a, b))),
                kTensorCoreOverheadRegisters);
}

//===----------------------------------------------------------------------===//
// Tensor-core strategy
//===----------------------------------------------------------------------===//

namespace {
/// A workgroup tile of a tensor-core matmul, split over warpsX x warpsY warps
/// (x over N, y over M), whatever the target's warp size.
struct TensorCoreTile {
  int64_t m, n;
  int64_t warpsX, warpsY;

  int64_t warpM() const { return m / warpsY; }
  int64_t warpN() const { return n / warpsX; }
};
} // namespace

// Largest first. The warp tiles (64x64, 32x32, 16x16, 16x16) are multiples
// of every instruction pickMmaShape picks. No wider tile: on an H100, 128x256
// on 8 warps of 64x64 (255 registers, one workgroup per SM) ran 4096^3 f16
// at 339 TFLOP/s where 128x128 on 4 warps (two workgroups per SM) ran 422,
// and 8192^3 at 363 against 436 (docs/performance.md).
static constexpr TensorCoreTile kTensorCoreTiles[] = {
    {128, 128, 2, 2}, // 4 warps of 64x64
    {64, 64, 2, 2},   // 4 warps of 32x32
    {32, 32, 2, 2},   // 4 warps of 16x16
    {16, 16, 1, 1},   // 1 warp
};
static constexpr const TensorCoreTile *kTwoByTwoWarpTile = &kTensorCoreTiles[2];
static constexpr const TensorCoreTile *kOneWarpTile = &kTensorCoreTiles[3];

// The tiles of a small M (a decode step, a short prompt): every row of the
// matmul in one row of tiles, 128 columns wide, with the warps side by side
// along N, so each workgroup reads a 128-column block of B (the weights,
// most of the bytes) once and shares its few rows of A among four warps;
// the SMs are filled by splitting K (getDefaultSplitK), not by narrower
// tiles that read A again for every 16 columns. mma.sync only: WMMA
// kernels keep K whole, and sm_90a's MatmulWgmma computes a small M as
// transposed tiles of its own.
static constexpr TensorCoreTile kSmallMTiles[] = {
    {16, 128, 4, 1}, // 4 warps of 16x32
    {32, 128, 4, 1}, // 4 warps of 32x32
    {64, 128, 2, 2}, // 4 warps of 32x64
};

/// A tile may leave at most 1/kMaxPaddingFraction of its grid's work to the
/// padding of partial tiles.
static constexpr int64_t kMaxPaddingFraction = 8;
/// Stages of the software pipeline: 4 hides a global load's latency behind
/// three K steps of MMAs; more stages buy little at a K tile of 64 bytes.
static constexpr int64_t kMaxPipelineDepth = 4;
/// Workgroups per SM the depth leaves room for, where registers allow it:
/// one workgroup's barrier stall is then covered by the other's MMAs.
static constexpr int64_t kWorkgroupsPerSmGoal = 2;

namespace {
/// What one tensor-core decision depends on.
struct TensorCoreContext {
  linalg::LinalgOp op;
  const MatmulShape &shape;
  TargetAttr target;
  MmaKind kind;
  MmaShapeAttr inst;
  int64_t tileK;

  int64_t threads(const TensorCoreTile &tile) const {
    return mulSat(mulSat(tile.warpsX, tile.warpsY), target.getWarpSize());
  }
  int64_t registers(const TensorCoreTile &tile) const {
    return estimateTensorCoreRegisters(shape, inst, tile.warpM(), tile.warpN());
  }
  int64_t sharedMemory(const TensorCoreTile &tile, int64_t depth) const {
    return getTensorCoreSharedMemory(op, shape, kind, tile.m, tile.n, tileK,
                                     depth)
        .total();
  }
  /// Whether the target runs `tile` at all: its threads, its registers and
  /// its single-stage buffers.
  bool fits(const TensorCoreTile &tile) const {
    int64_t registersPerThread = registers(tile);
    return threads(tile) <= target.getMaxThreadsPerBlock() &&
           registersPerThread <= target.getMaxRegistersPerThread() &&
           mulSat(threads(tile), registersPerThread) <=
               target.getMaxRegistersPerBlock() &&
           sharedMemory(tile, 1) <= target.getMaxSharedMemoryPerBlockOptin();
  }
};
} // namespace

/// Prefer 64-byte rows of A (4 x 128-bit copies per thread and row), then
/// 32 and 16 bytes, then the instruction's K, when one divides K. Otherwise
/// the last K step is partial: it is zero-padded to the whole tile (its
/// copies fill what lies past K with zeros, gpucg-tile-and-distribute's
/// PaddedTileCopy), one step of the same pipelined loop. It then takes the
/// 64-byte tile, or for a K below it the smallest tile (a multiple of the
/// instruction's K) that holds K in one step.
static int64_t pickKTile(const MatmulShape &shape, MmaShapeAttr inst) {
  SmallVector<int64_t> candidates;
  for (int64_t bytes : {64, 32, 16}) {
    int64_t candidate = bytes / getByteWidth(shape.aType);
    if (candidate > 0 && candidate % inst.getK() == 0)
      candidates.push_back(candidate);
  }
  candidates.push_back(inst.getK());
  for (int64_t candidate : candidates)
    if (shape.k() % candidate == 0)
      return candidate;
  int64_t oneStep = 0;
  for (int64_t candidate : candidates)
    if (candidate >= shape.k())
      oneStep = candidate; // The candidates shrink: the last is the smallest.
  return oneStep ? oneStep : candidates.front();
}

/// The largest candidate tile that the target runs, that leaves little work
/// to partial tiles, and whose grid gives every SM a workgroup; else the
/// smallest such tile (the most workgroups); else, for shapes no candidate
/// covers well, 32x32 on 2x2 warps with partial tiles, or 16x16 on one warp
/// when M or N is below 32 or M and N are multiples of 16 (partial tiles
/// are zero-padded to the full one).
static const TensorCoreTile *pickWorkgroupTile(const TensorCoreContext &ctx) {
  int64_t m = ctx.shape.m(), n = ctx.shape.n();
  const TensorCoreTile *smallest = nullptr;
  for (const TensorCoreTile &tile : kTensorCoreTiles) {
    if (&tile == kOneWarpTile || tile.m > m || tile.n > n || !ctx.fits(tile))
      continue;
    int64_t tilesM = ceilDiv(m, tile.m), tilesN = ceilDiv(n, tile.n);
    int64_t area = mulSat(m, n);
    int64_t padding =
        mulSat(mulSat(tilesM, tile.m), mulSat(tilesN, tile.n)) - area;
    if (mulSat(padding, kMaxPaddingFraction) > area)
      continue;
    smallest = &tile;
    if (mulSat(mulSat(tilesM, tilesN), ctx.shape.batch()) >=
        ctx.target.getNumSms())
      return &tile;
  }
  if (smallest)
    return smallest;
  bool fitsTwoWarps = m >= 32 && n >= 32;
  bool alignedTo16 = m % 16 == 0 && n % 16 == 0;
  const TensorCoreTile *fallback =
      fitsTwoWarps && !alignedTo16 && ctx.fits(*kTwoByTwoWarpTile)
          ? kTwoByTwoWarpTile
          : kOneWarpTile;
  return ctx.fits(*fallback) ? fallback : nullptr;
}

/// The software-pipelining depth of `tile`: 1 without cp.async (before
/// sm_80); else the deepest of kMaxPipelineDepth ... 3 stages (at most one
/// per K step) whose buffers let kWorkgroupsPerSmGoal workgroups share an
/// SM's shared memory (where registers let that many run), then fewer
/// workgroups per SM, then 2 stages, then 1.
static int64_t pickPipelineDepth(const TensorCoreContext &ctx,
                                 const TensorCoreTile &tile) {
  if (ctx.target.getComputeCapability() < 80)
    return 1;
  int64_t maxDepth =
      std::min<int64_t>(kMaxPipelineDepth, ceilDiv(ctx.shape.k(), ctx.tileK));
  // max_registers_per_block is the SM's register file on every known chip.
  int64_t byRegisters = ctx.target.getMaxRegistersPerBlock() /
                        mulSat(ctx.threads(tile), ctx.registers(tile));
  int64_t goal = std::clamp<int64_t>(byRegisters, 1, kWorkgroupsPerSmGoal);
  // The SM's shared memory is the opt-in limit per block plus the 1 KB the
  // driver reserves per block on every known chip; the limit is the budget.
  int64_t budget = ctx.target.getMaxSharedMemoryPerBlockOptin();
  for (int64_t minDepth : {std::min<int64_t>(3, maxDepth), int64_t(2)})
    for (int64_t perSm = goal; perSm >= 1; --perSm)
      for (int64_t depth = maxDepth; depth >= minDepth; --depth)
        if (mulSat(perSm, ctx.sharedMemory(tile, depth)) <= budget)
          return depth;
  return 1;
}

/// The small-M tile (kSmallMTiles) of an mma.sync matmul of 16 to 127 rows:
/// the tallest no taller than M (a tile taller than the matrix is not
/// built: M = 20 takes two rows of 16-row tiles, the second partial), if
/// N takes its 128 columns with little padding and the target runs it;
/// else null. From 128 rows the general tiles read B no more often.
static const TensorCoreTile *pickSmallMTile(const TensorCoreContext &ctx) {
  int64_t m = ctx.shape.m(), n = ctx.shape.n();
  if (ctx.kind != MmaKind::MmaSync || m >= kTensorCoreTiles[0].m)
    return nullptr;
  for (const TensorCoreTile &tile : llvm::reverse(kSmallMTiles)) {
    if (tile.m > m)
      continue;
    int64_t padding = mulSat(ceilDiv(n, tile.n), tile.n) - n;
    if (tile.n > n || mulSat(padding, kMaxPaddingFraction) > n ||
        !ctx.fits(tile))
      return nullptr;
    return &tile;
  }
  return nullptr;
}

/// The workgroups of `strategy`'s grid with the split of K it would take:
/// the one `request` asks for where the kernel can take it, else the
/// strategy's default (getDefaultSplitK) unless the request rules that out.
static int64_t countWorkgroupsWithSplitK(linalg::LinalgOp op,
                                         const MatmulShape &shape,
                                         const LoweringStrategy &strategy,
                                         TargetAttr target,
                                         const LaunchRequest &request) {
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  int64_t workgroups = mulSat(mulSat(ceilDiv(shape.m(), level0[shape.mPos]),
                                     ceilDiv(shape.n(), level0[shape.nPos])),
                              shape.batch());
  int64_t parts = 1;
  if (request.splitK > 0) {
    if (whyNoSplitK(op, strategy, request.splitK).empty())
      parts = request.splitK;
  } else if (request.takesDefaultSplitK()) {
    parts = getDefaultSplitK(op, strategy, target).parts;
  }
  return mulSat(workgroups, parts);
}

static std::optional<LoweringStrategy>
selectTensorCoreStrategy(linalg::LinalgOp op, const MatmulShape &actualShape,
                         TargetAttr target, MmaPreference preference,
                         const LaunchRequest &request) {
  if (actualShape.aType != actualShape.bType ||
      target.getWarpSize() != kMmaWarpSize)
    return std::nullopt;
  // Dynamic sizes are planned for kDynamicSizeEstimate: partial tiles and K
  // tails are zero-padded at run time whatever the sizes turn out to be.
  MatmulShape shape = actualShape.getPlanningShape();
  std::optional<MmaKind> kind = resolveMmaKind(preference, target, shape.aType);
  if (!kind)
    return std::nullopt;
  MmaShapeAttr inst =
      pickMmaShape(target, *kind, shape.aType, shape.bType, shape.cType);
  // Below the smallest workgroup tile in M or N, most of every MMA would be
  // padding: another plan (SIMT, or WarpReduction for a matrix-vector
  // product) does better.
  if (!inst || shape.m() < kOneWarpTile->m || shape.n() < kOneWarpTile->n ||
      shape.k() < 1)
    return std::nullopt;
  int64_t tileK = pickKTile(shape, inst);

  TensorCoreContext ctx{op, shape, target, *kind, inst, tileK};
  auto planTile = [&](const TensorCoreTile &tile) {
    int64_t depth = pickPipelineDepth(ctx, tile);
    int64_t numLoops = op.getNumLoops();
    SmallVector<int64_t> level0(numLoops, 0), level1(numLoops, 0),
        level2(numLoops, 0);
    for (unsigned pos : shape.batchPos)
      level0[pos] = level1[pos] = 1;
    level0[shape.mPos] = tile.m;
    level0[shape.nPos] = tile.n;
    level0[shape.kPos] = tileK;
    level1[shape.mPos] = tile.warpM();
    level1[shape.nPos] = tile.warpN();
    level2[shape.mPos] = inst.getM();
    level2[shape.nPos] = inst.getN();
    level2[shape.kPos] = inst.getK();

    MLIRContext *context = op->getContext();
    int64_t warp = target.getWarpSize();
    LoweringStrategy strategy;
    strategy.translationInfo = TranslationInfoAttr::get(
        context, getTensorCorePipeline(*kind),
        {tile.warpsX * warp, tile.warpsY, 1}, warp, depth,
        /*storeStage=*/1, *kind);
    strategy.loweringConfig = LoweringConfigAttr::get(
        context, ArrayRef<SmallVector<int64_t>>{level0, level1, level2});
    return strategy;
  };

  const TensorCoreTile *tile = pickWorkgroupTile(ctx);
  if (!tile)
    return std::nullopt;
  LoweringStrategy strategy = planTile(*tile);
  // A small M takes its row of wide tiles where, with the split of K the
  // kernel takes, they give every SM a workgroup or at least as many
  // workgroups as the general tile (whose grid then leaves SMs idle too).
  if (const TensorCoreTile *smallM = pickSmallMTile(ctx)) {
    LoweringStrategy wide = planTile(*smallM);
    int64_t wideWorkgroups =
        countWorkgroupsWithSplitK(op, shape, wide, target, request);
    int64_t workgroups =
        countWorkgroupsWithSplitK(op, shape, strategy, target, request);
    if (wideWorkgroups >= std::min(workgroups, target.getNumSms()))
      return wide;
  }
  return strategy;
}

//===----------------------------------------------------------------------===//
// Warpgroup MMA strategy (sm_90a)
//===----------------------------------------------------------------------===//

bool mlir::gpucg::isTensorCorePipeline(Pipeline pipeline) {
  return pipeline == Pipeline::MatmulTensorCore ||
         pipeline == Pipeline::MatmulTensorCoreMmaSync ||
         pipeline == Pipeline::MatmulWgmma;
}

bool mlir::gpucg::hasWarpgroupMma(TargetAttr target) {
  // The `a` features (wgmma, setmaxnreg) are not forward compatible: the
  // target's description says which chips have them.
  return target.hasWarpgroupMma();
}

using wgmma::kWarpgroupThreads;
static constexpr int64_t kWgmmaM = wgmma::kTileRows;
/// The f32 accumulator registers per thread one warpgroup may hold (of 255).
static constexpr int64_t kMaxWgmmaAccumulatorsPerThread = 128;
using wgmma::kReservedSharedMemory;
/// More stages than this hide no more latency for one warpgroup.
static constexpr int64_t kMaxWgmmaStages = 4;
using wgmma::kMaxConsumers;

/// The consumer warpgroups of a MatmulWgmma plan.
static int64_t getWgmmaConsumers(TranslationInfoAttr info) {
  return wgmma::getConsumerWarpgroups(info.getNumThreads().value_or(0));
}

/// The K tile (and B column chunk) of MatmulWgmma for elements of `type`.
static int64_t getWgmmaKTile(Type type) {
  return wgmma::kSwizzleBytes / getByteWidth(type);
}

/// Bytes of workgroup memory one stage of A and B tiles takes, with the
/// load tile of each operand `layouts` restages.
static int64_t getWgmmaStageBytes(const MatmulShape &shape,
                                  WgmmaLayouts layouts, int64_t tileM,
                                  int64_t tileN, int64_t tileK) {
  int64_t rows = tileM + tileN + (layouts.aRestaged ? tileM : 0) +
                 (layouts.bRestaged ? tileN : 0);
  return rows * tileK * getByteWidth(shape.aType);
}

/// Whether a MatmulWgmma tile of `tileM x tileN` (C's) gives each operand
/// `layouts` restages whole 128-byte rows of its M or N: the chunks of the
/// TMA boxes it is loaded in as it lies.
static bool takesRestagedTile(const MatmulShape &shape, WgmmaLayouts layouts,
                              int64_t tileM, int64_t tileN) {
  int64_t chunk = wgmma::kSwizzleBytes / getByteWidth(shape.aType);
  return (!layouts.aRestaged || tileM % chunk == 0) &&
         (!layouts.bRestaged || tileN % chunk == 0);
}

/// The linalg.fill that gives the matmul `op` its accumulator
/// (getAccumulatorStart), if one does.
static linalg::FillOp getAccumulatorFill(linalg::LinalgOp op) {
  return dyn_cast_or_null<linalg::FillOp>(getAccumulatorStart(op));
}

/// The M tile of a matmul of `m` rows computed as C^T = B^T * A^T: its rows
/// in wgmma's N steps ...
static int64_t getTransposedTileM(int64_t m) {
  return llvm::alignTo(m, wgmma::kNStep);
}

/// ... which MatmulWgmma plans when that tile is fewer than 64 rows
/// (wgmma::isTransposedTile) and the operands take it: B[n, k] as wgmma's
/// K-major A, A[m, k] as its K-major B (restaged ones too). (A 16-bit B[k,
/// n] would be wgmma's transposed A times an untransposed B, which nvgpu
/// refuses, and an A[k, m] an N-major B narrower than the 64-column boxes
/// such a B is loaded in.) Any other small M takes one 64-row tile, its
/// rows past M padding (kPaddedSmallMTiles).
/// (A restaged A[k, m] would be loaded in boxes of 128 bytes of M, more
/// than such a tile's rows.)
static bool takesTransposedTile(const MatmulShape &shape,
                                WgmmaLayouts layouts) {
  return !ShapedType::isDynamic(shape.m()) &&
         wgmma::isTransposedTile(getTransposedTileM(shape.m())) &&
         layouts.aKContiguous && layouts.bKContiguous && !layouts.aRestaged;
}

/// Whether the accumulator of the matmul `op` starts at zero.
static bool isZeroFilled(linalg::LinalgOp op) {
  linalg::FillOp fill = getAccumulatorFill(op);
  return fill && isZeroFill(fill);
}

/// Whether the matmul `op` accumulates into its function's argument (C += A
/// * B): its init is one, and no fill overwrites it first.
static bool accumulatesIntoArgument(linalg::LinalgOp op) {
  auto arg = dyn_cast<BlockArgument>(op.getDpsInitOperand(0)->get());
  auto funcOp = op->getParentOfType<FunctionOpInterface>();
  return arg && funcOp && arg.getOwner() == &funcOp.getFunctionBody().front() &&
         !getAccumulatorFill(op);
}

std::string mlir::gpucg::whyNoWgmma(linalg::LinalgOp op, TargetAttr target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!hasWarpgroupMma(target)) {
    os << target.getChip()
       << " has no warpgroup MMA (wgmma.mma_async and its TMA operands need "
          "sm_90a)";
    return text;
  }
  std::optional<MatmulShape> shape = getMatmulShape(op);
  if (!shape)
    return "it is not a contraction with one M, one N and one K loop";
  // Any size may be dynamic (a prompt's tokens, a hidden size or a batch
  // known at run time): it sizes the grid, the tensor maps (which the host
  // encodes from the run-time sizes), the K loop and the store guards at
  // run time.
  // A M x K or K x M, B K x N or N x K (TMA boxes of 128-byte rows along
  // K, M or N), C M x N; batch loops outermost, a grid dimension.
  std::optional<WgmmaLayouts> layouts = getWgmmaLayouts(op);
  if (!layouts)
    return "its operands are not A[m, k] or A[k, m], B[k, n] or B[n, k], "
           "and C[m, n], after the same batch dimensions if any (a "
           "transposed C, or a batch dimension inside a matrix, is not "
           "supported)";
  // How A and B lie in memory (which the pitch and batch rules are of).
  bool aKContiguous = layouts->isAHeldKContiguous();
  bool bKContiguous = layouts->isBHeldKContiguous();
  std::string typeReason =
      wgmma::whyNoElementTypes(shape->aType, shape->bType, shape->cType);
  if (!typeReason.empty()) {
    os << "it computes " << shape->cType << " += " << shape->aType << " * "
       << shape->bType << "; " << typeReason;
    return text;
  }
  // An empty matmul (a batch of no tokens) has no tile to plan: a tile of
  // its 0 rows or columns would divide the grid by zero.
  if (llvm::is_contained(shape->loopRanges, 0)) {
    os << "M x N x K = ";
    printShape(os, shape->m());
    os << " x ";
    printShape(os, shape->n());
    os << " x ";
    printShape(os, shape->k());
    os << " has an empty dimension: there is nothing to multiply";
    return text;
  }
  // A wgmma tile has 64 rows. Fewer rows of C are computed as C^T = B^T *
  // A^T where the operands take it (takesTransposedTile), C's columns as
  // wgmma's 64-row tiles and its rows as wgmma's N, else in one 64-row
  // tile, padded; either way N fills a wgmma tile at least.
  if (!ShapedType::isDynamic(shape->n()) && shape->n() < kWgmmaM) {
    os << "M x N = ";
    printShape(os, shape->m());
    os << " x " << shape->n() << " has fewer than " << kWgmmaM
       << " columns, and most of each " << kWgmmaM << "x" << kWgmmaM
       << " wgmma tile would be padding";
    return text;
  }
  // TMA boxes that run past the matrix read zeros, so partial tiles and a
  // K tail need no other path; but TMA reads rows whose pitch is a multiple
  // of 16 bytes. (A dynamic pitch is checked when the launcher encodes the
  // tensor map: cuTensorMapEncodeTiled refuses another.)
  int64_t elementBytes = getByteWidth(shape->aType);
  for (auto [name, dim, size] :
       {std::tuple("A", aKContiguous ? "K" : "M",
                   aKContiguous ? shape->k() : shape->m()),
        std::tuple("B", bKContiguous ? "K" : "N",
                   bKContiguous ? shape->k() : shape->n())}) {
    if (ShapedType::isDynamic(size) ||
        size * elementBytes % wgmma::kTmaPitchAlignment == 0)
      continue;
    os << "its " << name << " rows of " << dim << " = " << size << " "
       << shape->aType << " elements are " << size * elementBytes
       << " bytes, not a multiple of " << wgmma::kTmaPitchAlignment
       << " (the row pitch TMA reads)";
    return text;
  }
  // A batch's operands share one tensor map each, over the batches' rows
  // stacked (the rule the lowering checks too).
  for (auto [operand, kRows] :
       {std::pair("A[k, m]", !aKContiguous), {"B[k, n]", !bKContiguous}}) {
    std::string kTailReason =
        wgmma::whyNoBatchedKTail(operand, !shape->batchPos.empty(), kRows,
                                 shape->k(), getWgmmaKTile(shape->aType));
    if (!kTailReason.empty())
      return "it has " + kTailReason;
  }
  auto funcOp = op->getParentOfType<FunctionOpInterface>();
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto arg = dyn_cast<BlockArgument>(input->get());
    if (!funcOp || !arg ||
        arg.getOwner() != &funcOp.getFunctionBody().front()) {
      os << "its " << (input->getOperandNumber() == 0 ? "A" : "B")
         << " operand is not an argument of its function; TMA reads A and B "
            "through tensor maps the host builds on the kernel's arguments";
      return text;
    }
  }
  // A warpgroup accumulator starts at zero (nvgpu has no load of one): a
  // zero fill is what it replaces, and an argument's prior contents (C +=
  // A * B) are added to the product in the epilogue.
  if (!isZeroFilled(op) && !accumulatesIntoArgument(op)) {
    Operation *init = getAccumulatorFill(op);
    if (!init)
      init = op.getDpsInitOperand(0)->get().getDefiningOp();
    os << "its accumulator starts as "
       << (isa_and_nonnull<linalg::FillOp>(init) ? "a linalg.fill of non-zero"
           : init
               ? "the result of '" + init->getName().getStringRef().str() + "'"
               : std::string("a value that is not a kernel argument"))
       << ", not a linalg.fill of zero or an argument of its function (a "
          "warpgroup accumulator starts at zero, and the epilogue adds only "
          "an argument's prior contents)";
    return text;
  }
  // Workgroup tiling fuses the matmul into a chain of elementwise consumers
  // (getFusedElementwiseConsumer decides each link); any other user would
  // stay outside the kernel. The chain ends in a result that is only
  // returned. Each link must also be one the epilogue runs.
  // A reshape of the result that is only returned (the heads of an
  // attention projection, x * Wq as [tokens, heads, 128]) is a view of the
  // same buffer: the kernel writes C through it.
  std::function<bool(Operation *)> isReturn = [&](Operation *user) {
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user))
      return llvm::all_of(user->getUsers(), isReturn);
    return user->hasTrait<OpTrait::ReturnLike>();
  };
  // (A matmul on buffers has no result: the epilogue it has is the one
  // after bufferization, which gpucg-lower-matmul-to-wgmma matches.)
  Value value = op->getNumResults() == 1 ? op->getResult(0) : Value();
  for (int64_t position = 0; value && !llvm::all_of(value.getUsers(), isReturn);
       ++position) {
    StringRef what =
        position == 0 ? "its result" : "the result of its consumer";
    if (!value.hasOneUse()) {
      os << what << " has " << llvm::range_size(value.getUses())
         << " uses; MatmulWgmma fuses a chain of elementwise consumers, each "
            "the only user of the result before it";
      return text;
    }
    Operation *user = *value.getUsers().begin();
    auto consumer = dyn_cast<linalg::LinalgOp>(user);
    if (!consumer) {
      os << what << " is used by '" << user->getName()
         << "'; MatmulWgmma fuses only elementwise linalg consumers";
      return text;
    }
    std::string reason = whyNoWgmmaEpilogue(
        consumer, value, cast<ShapedType>(value.getType()).getShape());
    if (!reason.empty()) {
      os << "its consumer '" << user->getName()
         << "' cannot be fused into its epilogue: " << reason;
      return text;
    }
    if (consumer->getNumResults() != 1) {
      os << "its consumer '" << user->getName() << "' has "
         << consumer->getNumResults()
         << " results; workgroup tiling fuses consumers of one result";
      return text;
    }
    if (getFusedElementwiseConsumer(value) != consumer) {
      os << "its consumer '" << user->getName()
         << "' is not fused by workgroup tiling, which takes elementwise ops "
            "on tensors (parallel loops, permutation maps, a payload of "
            "scalar elementwise ops) that read the result and write theirs "
            "element for element";
      return text;
    }
    value = consumer->getResult(0);
  }
  return text;
}

/// Whether a MatmulWgmma plan of `op` in `tileM x tileN` tiles stages the
/// accumulator in workgroup memory: an epilogue (consumers it fuses, or the
/// accumulator's prior contents to add: C += A * B), partial tiles, whose
/// valid rows and columns only the staged store writes (a dynamic M or N
/// may leave one), or a transposed tile, which goes to C through the
/// staging buffer.
static bool isWgmmaStaged(linalg::LinalgOp op, int64_t tileM, int64_t tileN) {
  MatmulShape shape = *getMatmulShape(op);
  return wgmma::computesTransposed(tileM, *getWgmmaLayouts(op)) ||
         ShapedType::isDynamic(shape.m()) || ShapedType::isDynamic(shape.n()) ||
         shape.m() % tileM != 0 || shape.n() % tileN != 0 ||
         accumulatesIntoArgument(op) ||
         llvm::any_of(op->getUsers(), [](Operation *user) {
           return !user->hasTrait<OpTrait::ReturnLike>();
         });
}

/// Whether a MatmulWgmma plan with a ring of `ringBytes` needs a staging
/// buffer beside the ring: its accumulator is `staged` (isWgmmaStaged) and
/// the ring cannot hold it, or (`persistent`) the ring takes the next
/// tile's loads.
static bool needsOwnStaging(bool staged, int64_t ringBytes, int64_t tileM,
                            int64_t tileN, bool persistent) {
  return staged && !wgmma::isStagedInRing(ringBytes, tileM, tileN, persistent);
}

/// Bytes of workgroup memory a MatmulWgmma plan takes: its ring of
/// `ringBytes`, the mbarriers and the ring's alignment, and the staging
/// buffer where it needs its own (needsOwnStaging). The one sum the
/// verifier, the split-K check and the persistent-grid check share.
static int64_t getWgmmaSharedMemoryBytes(bool staged, int64_t ringBytes,
                                         int64_t tileM, int64_t tileN,
                                         bool persistent) {
  bool own = needsOwnStaging(staged, ringBytes, tileM, tileN, persistent);
  return addSat(addSat(ringBytes, kReservedSharedMemory),
                own ? wgmma::getEpilogueStagingBytes(tileM, tileN) : 0);
}

static int64_t getWgmmaSharedMemoryBytes(linalg::LinalgOp op,
                                         int64_t ringBytes, int64_t tileM,
                                         int64_t tileN,
                                         bool persistent = false) {
  return getWgmmaSharedMemoryBytes(isWgmmaStaged(op, tileM, tileN), ringBytes,
                                   tileM, tileN, persistent);
}

namespace {
/// A MatmulWgmma workgroup tile and the consumer warpgroups that multiply it
/// (0: one warpgroup loads and multiplies). kWarpSpecializedTiles and
/// kSingleWarpgroupTiles hold wgmma's orientation (m: wgmma's M, which the
/// multiplying warpgroups split); the small-M tables, and a plan's tile,
/// hold C's rows and columns.
struct WgmmaTile {
  int64_t m, n, consumers;

  /// The tile of C of a matmul computed as C^T = B^T * A^T, whose wgmma
  /// tile this is.
  WgmmaTile getTransposed() const { return {n, m, consumers}; }
};

/// The grid a MatmulWgmma plan is made for, which decides what shares
/// workgroup memory with its ring: on a persistent grid the next tile's
/// loads land in the ring, so a staged accumulator takes a buffer of its
/// own beside it; stream-K adds each tile's parts in that buffer, so every
/// tile stages.
struct WgmmaGrid {
  bool persistent = false;
  bool streamK = false;
};
} // namespace

/// Warp-specialized tiles, best first: one producer and two consumer
/// warpgroups of 64 rows each (CUTLASS's 128x256 and 128x128 Hopper tiles).
static constexpr WgmmaTile kWarpSpecializedTiles[] = {{128, 256, 2},
                                                      {128, 128, 2}};
/// Tiles of one warpgroup, for shapes the warp-specialized tiles do not
/// divide: 128x128 and 64x256 keep 128 accumulators per thread.
static constexpr WgmmaTile kSingleWarpgroupTiles[] = {
    {128, 128, 0}, {64, 256, 0}, {128, 64, 0}, {64, 128, 0}, {64, 64, 0}};

/// The stages of A and B tiles that fit the workgroup memory `target`
/// leaves a MatmulWgmma tile of `op` on `grid` (at most kMaxWgmmaStages,
/// and no more than its K tiles).
static int64_t getWgmmaStages(linalg::LinalgOp op, const MatmulShape &shape,
                              TargetAttr target, int64_t tileM, int64_t tileN,
                              WgmmaGrid grid = {}) {
  int64_t tileK = getWgmmaKTile(shape.aType);
  int64_t stageBytes =
      getWgmmaStageBytes(shape, *getWgmmaLayouts(op), tileM, tileN, tileK);
  auto fit = [&](int64_t free) {
    return std::min({kMaxWgmmaStages, ceilDiv(shape.k(), tileK),
                     std::max<int64_t>(free, 0) / stageBytes});
  };
  int64_t free =
      target.getMaxSharedMemoryPerBlockOptin() - kReservedSharedMemory;
  int64_t stages = fit(free);
  // A fused epilogue whose staging buffer the ring cannot hold (or, on a
  // persistent grid, may not) takes its own, from the ring's share.
  bool staged = isWgmmaStaged(op, tileM, tileN) || grid.streamK;
  if (needsOwnStaging(staged, stages * stageBytes, tileM, tileN,
                      grid.persistent))
    stages = fit(free - wgmma::getEpilogueStagingBytes(tileM, tileN));
  return stages;
}

/// The tiles of C a MatmulWgmma plan of `op` on `grid` takes, among those
/// that leave room for two stages (or all K tiles, if fewer) next to a
/// staging buffer:
/// the ones that divide the matmul; else (partial tiles, whose loads read
/// zeros past the matrix and whose staged store writes only what lies
/// inside) those that pad M x N by at most 1/8; else the least padded. A
/// matmul computed as C^T = B^T * A^T (wgmma::computesTransposed) takes
/// each table tile transposed, wgmma's M along C's columns.
static SmallVector<WgmmaTile> getWgmmaTileCandidates(linalg::LinalgOp op,
                                                     const MatmulShape &shape,
                                                     TargetAttr target,
                                                     WgmmaLayouts layouts,
                                                     WgmmaGrid grid) {
  int64_t kTiles = ceilDiv(shape.k(), getWgmmaKTile(shape.aType));
  bool transposed = !layouts.isNvgpuForm();
  WgmmaLayouts wgmmaLayouts = transposed ? layouts.getTransposed() : layouts;
  SmallVector<WgmmaTile> fitting;
  for (ArrayRef<WgmmaTile> tiles :
       {ArrayRef(kWarpSpecializedTiles), ArrayRef(kSingleWarpgroupTiles)})
    for (const WgmmaTile &t : tiles) {
      // One op per K step takes warpgroups of 64 rows
      // (verifyWgmmaStrategy).
      int64_t rows = t.m / std::max<int64_t>(t.consumers, 1);
      if (wgmmaLayouts.multipliesPerKStep() && rows != kWgmmaM)
        continue;
      // A restaged operand takes the producer warpgroup, and 128-byte rows
      // of its M or N.
      WgmmaTile tile = transposed ? t.getTransposed() : t;
      if (layouts.isRestaged() &&
          (!t.consumers || !takesRestagedTile(shape, layouts, tile.m, tile.n)))
        continue;
      if (getWgmmaStages(op, shape, target, tile.m, tile.n, grid) <
          std::min<int64_t>(2, kTiles))
        continue;
      fitting.push_back(tile);
    }
  auto padded = [&](const WgmmaTile &t) {
    return llvm::alignTo(shape.m(), t.m) * llvm::alignTo(shape.n(), t.n);
  };
  auto select = [&](auto predicate) {
    SmallVector<WgmmaTile> selected;
    llvm::copy_if(fitting, std::back_inserter(selected), predicate);
    return selected;
  };
  SmallVector<WgmmaTile> dividing = select([&](const WgmmaTile &t) {
    return shape.m() % t.m == 0 && shape.n() % t.n == 0;
  });
  if (!dividing.empty())
    return dividing;
  uint64_t area = shape.m() * shape.n();
  SmallVector<WgmmaTile> close =
      select([&](const WgmmaTile &t) { return 8 * padded(t) <= 9 * area; });
  if (!close.empty() || fitting.empty())
    return close;
  uint64_t least = padded(*llvm::min_element(
      fitting, [&](auto &x, auto &y) { return padded(x) < padded(y); }));
  return select([&](const WgmmaTile &t) { return padded(t) == least; });
}

/// Of the candidate tiles (getWgmmaTileCandidates), the warp-specialized
/// one that gives every SM a workgroup, else the warp-specialized one with
/// the most workgroups, else the first single-warpgroup one.
static std::optional<WgmmaTile>
pickWgmmaTile(linalg::LinalgOp op, const MatmulShape &shape, TargetAttr target,
              WgmmaLayouts layouts, WgmmaGrid grid) {
  SmallVector<WgmmaTile> candidates =
      getWgmmaTileCandidates(op, shape, target, layouts, grid);
  auto workgroups = [&](const WgmmaTile &t) {
    return mulSat(ceilDiv(shape.m(), t.m) * ceilDiv(shape.n(), t.n),
                  shape.batch());
  };
  std::optional<WgmmaTile> best;
  for (const WgmmaTile &tile : candidates) {
    if (!tile.consumers)
      continue;
    if (workgroups(tile) >= target.getNumSms())
      return tile;
    if (!best || workgroups(tile) > workgroups(*best))
      best = tile;
  }
  if (best)
    return best;
  for (const WgmmaTile &tile : candidates)
    if (!tile.consumers)
      return tile;
  return std::nullopt;
}

/// Tiles of C's columns for a transposed tile (wgmma's M; its rows, M
/// rounded up to wgmma's N step, are the tile's M), best first: two
/// consumers of 64 rows, or a producer and one consumer. K-contiguous
/// operands take warpgroups of 64 rows.
static constexpr WgmmaTile kTransposedTiles[] = {{0, 128, 2}, {0, 64, 1}};
/// Tiles of a small M whose operands take no transposed tile of fewer than
/// 64 rows (takesTransposedTile), best first: one 64-row wgmma tile, its
/// rows past M reading TMA's zeros and left out of the store, a producer
/// and one consumer. (A decode step is bound by reading the weights: the
/// padded rows cost tensor-core time it has to spare, not memory time.) A[k,
/// m] times B[n, k], always computed transposed, takes kTransposedTiles of
/// 64 rows instead (wgmma's N: one 64-column box of A).
static constexpr WgmmaTile kPaddedSmallMTiles[] = {{kWgmmaM, 128, 1},
                                                   {kWgmmaM, 64, 1}};

/// The tile of a matmul of M fewer than 64, of `tiles` (kTransposedTiles
/// or kPaddedSmallMTiles), with `tileM` rows: the first that gives every SM
/// a workgroup, else the one with the most, among those whose rows a
/// restaged operand takes (takesRestagedTile); none if it takes none.
/// (A decode step reads each weight once; more workgroups read them in
/// parallel.)
static std::optional<WgmmaTile> pickSmallMWgmmaTile(const MatmulShape &shape,
                                                    WgmmaLayouts layouts,
                                                    TargetAttr target,
                                                    ArrayRef<WgmmaTile> tiles,
                                                    int64_t tileM) {
  const WgmmaTile *best = nullptr;
  auto workgroups = [&](const WgmmaTile &t) {
    return mulSat(ceilDiv(shape.n(), t.n), shape.batch());
  };
  for (const WgmmaTile &tile : tiles) {
    if (!takesRestagedTile(shape, layouts, tileM, tile.n))
      continue;
    if (workgroups(tile) >= target.getNumSms()) {
      best = &tile;
      break;
    }
    if (!best || workgroups(tile) > workgroups(*best))
      best = &tile;
  }
  if (!best)
    return std::nullopt;
  return WgmmaTile{tileM, best->n, best->consumers};
}

/// The MatmulWgmma plan of `op` for `grid` (its tile and stages; the
/// launch shape is applyLaunchRequest's).
static std::optional<LoweringStrategy>
planWgmmaStrategy(linalg::LinalgOp op, const MatmulShape &actualShape,
                  TargetAttr target, WgmmaGrid grid) {
  // A dynamic M is planned as kDynamicSizeEstimate rows: the tiles of a
  // small M are not taken.
  MatmulShape shape = actualShape.getPlanningShape();
  int64_t tileK = getWgmmaKTile(shape.aType);
  WgmmaLayouts layouts = *getWgmmaLayouts(op);
  std::optional<WgmmaTile> tile;
  if (takesTransposedTile(shape, layouts))
    tile = pickSmallMWgmmaTile(shape, layouts, target, kTransposedTiles,
                               getTransposedTileM(shape.m()));
  else if (wgmma::isTransposedTile(getTransposedTileM(shape.m())))
    tile =
        pickSmallMWgmmaTile(shape, layouts, target,
                            layouts.isNvgpuForm() ? ArrayRef(kPaddedSmallMTiles)
                                                  : ArrayRef(kTransposedTiles),
                            kWgmmaM);
  else
    tile = pickWgmmaTile(op, shape, target, layouts, grid);
  if (!tile)
    return std::nullopt;
  int64_t stages = getWgmmaStages(op, shape, target, tile->m, tile->n, grid);
  if (stages < 1)
    return std::nullopt;

  // One matrix of a batch per workgroup.
  SmallVector<int64_t> level0(op.getNumLoops(), 0);
  for (unsigned pos : shape.batchPos)
    level0[pos] = 1;
  level0[shape.mPos] = tile->m;
  level0[shape.nPos] = tile->n;
  level0[shape.kPos] = tileK;
  MLIRContext *context = op->getContext();
  LoweringStrategy strategy;
  strategy.translationInfo = TranslationInfoAttr::get(
      context, Pipeline::MatmulWgmma,
      {kWarpgroupThreads * (tile->consumers ? tile->consumers + 1 : 1), 1, 1},
      target.getWarpSize(), stages, /*storeStage=*/1, std::nullopt);
  strategy.loweringConfig =
      LoweringConfigAttr::get(context, ArrayRef<SmallVector<int64_t>>{level0});
  return strategy;
}

/// What `request` asks of a MatmulWgmma plan's grid and `strategy` takes
/// (applyLaunchRequest): 2 stream-K, 1 a persistent grid, 0 neither.
static int getGridTaken(linalg::LinalgOp op, const LoweringStrategy &strategy,
                        TargetAttr target, const LaunchRequest &request,
                        SmallVectorImpl<std::string> *notTaken = nullptr) {
  TranslationInfoAttr info =
      applyLaunchRequest(op, strategy, target, request, notTaken)
          .translationInfo;
  return info.getStreamK() ? 2 : info.getPersistentWorkgroups() ? 1 : 0;
}

/// The MatmulWgmma plan of `op`: its own tile and stages, or, where
/// `request` asks for a persistent grid or stream-K that this plan cannot
/// take for want of room beside its ring (a 128x256 tile's 135168-byte
/// staging buffer leaves it too few stages), the plan made for that grid
/// if that one takes it, with a note in `notes` saying why its tile.
static std::optional<LoweringStrategy>
selectWgmmaStrategy(linalg::LinalgOp op, const MatmulShape &actualShape,
                    TargetAttr target, const LaunchRequest &request,
                    SmallVectorImpl<std::string> *notes) {
  if (!whyNoWgmma(op, target).empty())
    return std::nullopt;
  std::optional<LoweringStrategy> own =
      planWgmmaStrategy(op, actualShape, target, /*grid=*/{});
  if (!own || !(request.wgmmaPersistent || request.wgmmaStreamK) ||
      !whyInvalidLaunchRequest(request).empty())
    return own;
  std::optional<LoweringStrategy> forGrid = planWgmmaStrategy(
      op, actualShape, target,
      {/*persistent=*/true, /*streamK=*/request.wgmmaStreamK});
  if (!forGrid || (forGrid->loweringConfig == own->loweringConfig &&
                   forGrid->translationInfo == own->translationInfo))
    return own;
  SmallVector<std::string> ownNotes;
  int ownTakes = getGridTaken(op, *own, target, request, &ownNotes);
  if (getGridTaken(op, *forGrid, target, request) <= ownTakes)
    return own;
  // What the own plan does not take, and why (applyLaunchRequest's words).
  StringRef asked = request.wgmmaStreamK ? "stream-K" : "a persistent grid";
  std::string prefix = (asked + " not taken: ").str();
  const std::string *why = llvm::find_if(
      ownNotes, [&](StringRef note) { return note.starts_with(prefix); });
  if (why == ownNotes.end())
    return own;
  if (notes) {
    MatmulShape shape = *getMatmulShape(op);
    auto describe = [&](const LoweringStrategy &s, llvm::raw_ostream &os) {
      ArrayRef<int64_t> tile = s.loweringConfig.getTileSizes(0);
      int64_t stages = s.translationInfo.getPipelineDepth();
      os << tile[shape.mPos] << "x" << tile[shape.nPos] << " in " << stages
         << (stages == 1 ? " stage" : " stages");
    };
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "tile ";
    describe(*forGrid, os);
    os << " for " << asked << ", not its own ";
    describe(*own, os);
    os << ", on which " << asked
       << " cannot run: " << StringRef(*why).drop_front(prefix.size());
    notes->push_back(text);
  }
  return forGrid;
}

//===----------------------------------------------------------------------===//
// Launch shape
//===----------------------------------------------------------------------===//

/// Workgroups of a thread-block cluster every sm_90 launch supports.
static constexpr int64_t kMaxClusterWorkgroups = 8;
/// Workgroups of a grid along x, at most (and so of a group of rows or a
/// persistent grid; translation_info's bound).
static constexpr int64_t kMaxGridWorkgroups = (int64_t(1) << 31) - 1;

int64_t mlir::gpucg::getSplitKPart(int64_t k, int64_t parts, int64_t tileK,
                                   bool wholeSteps) {
  if (k <= 0 || parts < 1 || (wholeSteps && tileK <= 0))
    return 0;
  if (!wholeSteps)
    return k % parts == 0 ? k / parts : 0;
  int64_t part = mulSat(ceilDiv(ceilDiv(k, tileK), parts), tileK);
  return mulSat(parts - 1, part) < k ? part : 0;
}

/// The K of each of `splitK` parts of `rootOp`'s K loop under `strategy`
/// (getSplitKPart); 0 where there is none.
static int64_t getPlannedSplitKPart(linalg::LinalgOp rootOp,
                                    const LoweringStrategy &strategy,
                                    int64_t splitK) {
  std::optional<MatmulShape> shape = getMatmulShape(rootOp);
  if (!shape || !strategy.loweringConfig)
    return 0;
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  if (level0.size() != rootOp.getNumLoops())
    return 0;
  return getSplitKPart(shape->k(), splitK, level0[shape->kPos],
                       strategy.translationInfo.getPipeline() ==
                           Pipeline::MatmulWgmma);
}

/// The launch facts of `strategy`, a MatmulWgmma plan of `op` that
/// verifyWgmmaStrategy's tile checks accept.
static wgmma::LaunchFacts
getWgmmaLaunchFacts(linalg::LinalgOp op, const LoweringStrategy &strategy) {
  MatmulShape shape = *getMatmulShape(op);
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  wgmma::LaunchFacts facts;
  facts.tileM = level0[shape.mPos];
  facts.tileN = level0[shape.nPos];
  facts.tileK = level0[shape.kPos];
  facts.dynamicM = ShapedType::isDynamic(shape.m());
  facts.mTiles = facts.dynamicM ? 1 : ceilDiv(shape.m(), facts.tileM);
  facts.dynamicN = ShapedType::isDynamic(shape.n());
  facts.nTiles = facts.dynamicN ? 1 : ceilDiv(shape.n(), facts.tileN);
  facts.dynamicBatch = llvm::any_of(shape.batchPos, [&](unsigned pos) {
    return ShapedType::isDynamic(shape.loopRanges[pos]);
  });
  facts.tiles =
      mulSat(facts.mTiles * facts.nTiles, shape.getPlanningShape().batch());
  facts.consumers = getWgmmaConsumers(strategy.translationInfo);
  WgmmaLayouts layouts = *getWgmmaLayouts(op);
  facts.ringBytes = mulSat(strategy.translationInfo.getPipelineDepth(),
                           getWgmmaStageBytes(shape, layouts, facts.tileM,
                                              facts.tileN, facts.tileK));
  facts.aKContiguous = layouts.aKContiguous;
  facts.bKContiguous = layouts.bKContiguous;
  facts.restaged = layouts.isRestaged();
  if (!ShapedType::isDynamic(shape.k()))
    facts.kSteps = ceilDiv(shape.k(), facts.tileK);
  // Stream-K adds the parts of a tile in its staging buffer.
  facts.staged = isWgmmaStaged(op, facts.tileM, facts.tileN) ||
                 strategy.translationInfo.getStreamK();
  facts.transposed = wgmma::computesTransposed(facts.tileM, layouts);
  return facts;
}

/// Why a MatmulWgmma plan cannot run on a persistent grid of `workgroups`
/// workgroups in clusters of `clusterSize` on `target`, in words; empty
/// when it can: wgmma::whyNoPersistentGrid, and a fused epilogue's staging
/// buffer beside the ring within the target's shared memory.
static std::string whyNoWgmmaPersistentGrid(const wgmma::LaunchFacts &facts,
                                            int64_t workgroups,
                                            int64_t clusterSize,
                                            TargetAttr target, bool streamK) {
  std::string text =
      wgmma::whyNoPersistentGrid(facts, workgroups, clusterSize, streamK);
  if (!text.empty() || !facts.staged)
    return text;
  llvm::raw_string_ostream os(text);
  int64_t staging = wgmma::getEpilogueStagingBytes(facts.tileM, facts.tileN);
  int64_t bytes =
      getWgmmaSharedMemoryBytes(facts.staged, facts.ringBytes, facts.tileM,
                                facts.tileN, /*persistent=*/true);
  if (bytes > target.getMaxSharedMemoryPerBlockOptin())
    os << "its accumulator's staging buffer (" << staging
       << " bytes) does not fit beside the ring (" << facts.ringBytes
       << " bytes) in the " << target.getMaxSharedMemoryPerBlockOptin()
       << " bytes " << target.getChip()
       << " allows, and a persistent workgroup cannot stage in the ring, "
          "where the next tile's loads land";
  return text;
}

/// Checks the launch shape of `strategy`, a MatmulWgmma plan of `op` whose
/// tiles verifyWgmmaStrategy accepted, against what the kernel can take.
static LogicalResult verifyWgmmaLaunchShape(linalg::LinalgOp op,
                                            const LoweringStrategy &strategy,
                                            TargetAttr target) {
  TranslationInfoAttr info = strategy.translationInfo;
  wgmma::LaunchFacts plan = getWgmmaLaunchFacts(op, strategy);
  int64_t m = info.getClusterM(), n = info.getClusterN();
  if (m * n > 1) {
    std::string reason = wgmma::whyNoCluster(plan, m, n);
    if (!reason.empty())
      return op.emitOpError() << "cannot run in clusters of " << m << " x " << n
                              << " workgroups (cluster): " << reason;
    if (info.getWorkgroupGroupSize() != 1)
      return op.emitOpError()
             << "has workgroup_group_size = " << info.getWorkgroupGroupSize()
             << " and a cluster; a cluster's workgroups are neighbours in "
                "the launch order, which a group order changes";
  }
  if (std::optional<int64_t> workgroups = info.getPersistentWorkgroups()) {
    std::string reason = whyNoWgmmaPersistentGrid(plan, *workgroups, m * n,
                                                  target, info.getStreamK());
    if (!reason.empty())
      return op.emitOpError()
             << "cannot run "
             << (info.getStreamK() ? "stream-K (stream_k) " : "")
             << "on a persistent grid of " << *workgroups
             << " workgroups (persistent_workgroups): " << reason;
  }
  if (info.getStagedStore()) {
    std::string reason = wgmma::whyNoStagedStore(
        plan, info.getPersistentWorkgroups().has_value());
    if (!reason.empty())
      return op.emitOpError()
             << "cannot store its accumulator through the staging buffer "
                "(staged_store): "
             << reason;
  }
  return success();
}

std::string mlir::gpucg::whyInvalidLaunchRequest(const LaunchRequest &request) {
  std::string text;
  llvm::raw_string_ostream os(text);
  int64_t m = request.wgmmaClusterM, n = request.wgmmaClusterN;
  if (request.workgroupGroupSize < 0 ||
      request.workgroupGroupSize > kMaxGridWorkgroups)
    os << "workgroup-group-size must be from 0 to " << kMaxGridWorkgroups
       << ", got " << request.workgroupGroupSize;
  else if (request.wgmmaPersistentWorkgroups < 0 ||
           request.wgmmaPersistentWorkgroups > kMaxGridWorkgroups)
    os << "wgmma-persistent-workgroups must be from 0 (the target's SM "
          "count) to "
       << kMaxGridWorkgroups << ", got " << request.wgmmaPersistentWorkgroups;
  else if (m < 1 || n < 1 || m > kMaxClusterWorkgroups ||
           n > kMaxClusterWorkgroups || m * n > kMaxClusterWorkgroups)
    os << "wgmma-cluster-m x wgmma-cluster-n must be 1 to "
       << kMaxClusterWorkgroups
       << " workgroups (the portable cluster size), got " << m << " x " << n;
  else if (request.splitK < 0 ||
           request.splitK > TranslationInfoAttr::kMaxSplitK)
    os << "split-k must be from 0 (the strategy's default) to "
       << TranslationInfoAttr::kMaxSplitK << ", got " << request.splitK;
  return text;
}

LoweringStrategy
mlir::gpucg::applyLaunchRequest(linalg::LinalgOp rootOp,
                                const LoweringStrategy &strategy,
                                TargetAttr target, const LaunchRequest &request,
                                SmallVectorImpl<std::string> *notTaken) {
  TranslationInfoAttr info = strategy.translationInfo;
  if (info.getWorkgroupGroupSize() != 1 || info.getPersistentWorkgroups() ||
      !info.getCluster().empty() || info.getStagedStore() ||
      info.getSplitK() != 1 || info.getStreamK())
    return strategy;
  auto note = [&](const Twine &part, const std::string &reason) {
    if (notTaken && !reason.empty())
      notTaken->push_back((part + " not taken: " + reason).str());
  };
  int64_t groupSize =
      request.workgroupGroupSize > 1 ? request.workgroupGroupSize : 1;
  std::optional<int64_t> persistentWorkgroups;
  SmallVector<int64_t> cluster;
  bool stagedStore = false;
  bool streamK = false;
  if (info.getPipeline() == Pipeline::MatmulWgmma) {
    wgmma::LaunchFacts plan = getWgmmaLaunchFacts(rootOp, strategy);
    int64_t m = request.wgmmaClusterM, n = request.wgmmaClusterN;
    if (m * n > 1) {
      std::string why = wgmma::whyNoCluster(plan, m, n);
      note("clusters of " + Twine(m) + "x" + Twine(n) + " workgroups", why);
      if (why.empty())
        cluster = {m, n};
    }
    int64_t clusterSize = cluster.empty() ? 1 : m * n;
    if (!cluster.empty() && groupSize != 1) {
      note("workgroup groups of " + Twine(groupSize) + " rows",
           "a cluster's workgroups are neighbours in the launch order");
      groupSize = 1;
    }
    if (request.wgmmaPersistent || request.wgmmaStreamK) {
      int64_t asked = request.wgmmaPersistentWorkgroups > 0
                          ? request.wgmmaPersistentWorkgroups
                          : target.getNumSms();
      // Whole clusters loop over blocks of tiles.
      int64_t workgroups = asked - asked % clusterSize;
      // Stream-K stages every tile, where its parts are added.
      auto whyNoGrid = [&](bool forStreamK) {
        wgmma::LaunchFacts facts = plan;
        facts.staged |= forStreamK;
        return workgroups < 1
                   ? std::to_string(asked) +
                         " workgroups are fewer than a cluster of " +
                         std::to_string(clusterSize)
                   : whyNoWgmmaPersistentGrid(facts, workgroups, clusterSize,
                                              target, forStreamK);
      };
      if (request.wgmmaStreamK) {
        std::string why = whyNoGrid(/*forStreamK=*/true);
        note("stream-K", why);
        streamK = why.empty();
      }
      if (streamK)
        persistentWorkgroups = workgroups;
      else if (request.wgmmaPersistent) {
        std::string why = whyNoGrid(/*forStreamK=*/false);
        note("a persistent grid", why);
        if (why.empty())
          persistentWorkgroups = workgroups;
      }
    }
    if (request.wgmmaStagedStore && !plan.staged && !streamK) {
      std::string why =
          wgmma::whyNoStagedStore(plan, persistentWorkgroups.has_value());
      note("a staged store", why);
      stagedStore = why.empty();
    }
  } else if (request.wgmmaStreamK &&
             (info.getPipeline() == Pipeline::MatmulTensorCoreMmaSync ||
              info.getPipeline() == Pipeline::MatmulTensorCore))
    note("stream-K", "the kernel takes pipeline " +
                         stringifyPipeline(info.getPipeline()).str() +
                         ", and stream-K is built for MatmulWgmma's "
                         "persistent grid");
  int64_t splitK = 1;
  int64_t depth = info.getPipelineDepth();
  if (request.splitK > 1) {
    // The plan with the split: at most one stage per K step of a part, and
    // a MatmulWgmma kernel's accumulator staged, where the parts are added.
    std::optional<MatmulShape> shape = getMatmulShape(rootOp);
    int64_t splitDepth = depth;
    if (int64_t part = getPlannedSplitKPart(rootOp, strategy, request.splitK);
        shape && part > 0) {
      int64_t tileK = strategy.loweringConfig.getTileSizes(0)[shape->kPos];
      splitDepth = std::min(depth, ceilDiv(part, tileK));
    }
    bool splitStaged =
        stagedStore || (info.getPipeline() == Pipeline::MatmulWgmma &&
                        !getWgmmaLaunchFacts(rootOp, strategy).staged);
    // (Only a pipeline that splits may carry split_k: the attribute's
    // verifier says so, and whyNoSplitK says why for the others.)
    LoweringStrategy candidate = strategy;
    if (info.getPipeline() == Pipeline::MatmulTensorCoreMmaSync ||
        info.getPipeline() == Pipeline::MatmulWgmma)
      candidate.translationInfo = TranslationInfoAttr::get(
          info.getContext(), info.getPipeline(), info.getWorkgroupSize(),
          info.getSubgroupSize(), splitDepth, info.getStoreStage(),
          info.getMmaKind(), groupSize, persistentWorkgroups, cluster,
          splitStaged, request.splitK, /*streamK=*/false);
    std::string why =
        persistentWorkgroups ? "the kernel runs on a persistent grid"
        : !cluster.empty()   ? "the kernel runs in thread-block clusters"
                             : whyNoSplitK(rootOp, candidate, request.splitK);
    note("a split of K into " + Twine(request.splitK) + " parts", why);
    if (why.empty()) {
      splitK = request.splitK;
      depth = splitDepth;
      stagedStore = splitStaged;
    }
  }
  LoweringStrategy result = strategy;
  result.translationInfo = TranslationInfoAttr::get(
      info.getContext(), info.getPipeline(), info.getWorkgroupSize(),
      info.getSubgroupSize(), depth, info.getStoreStage(), info.getMmaKind(),
      groupSize, persistentWorkgroups, cluster, stagedStore, splitK, streamK);
  return result;
}

static LogicalResult verifyWgmmaStrategy(linalg::LinalgOp op,
                                         const LoweringStrategy &strategy,
                                         TargetAttr target) {
  std::string reason = whyNoWgmma(op, target);
  if (!reason.empty())
    return op.emitOpError() << "cannot take pipeline MatmulWgmma: " << reason;
  MatmulShape shape = *getMatmulShape(op);
  TranslationInfoAttr info = strategy.translationInfo;
  LoweringConfigAttr config = strategy.loweringConfig;
  ArrayRef<int64_t> workgroup = info.getWorkgroupSize();
  int64_t threads = *info.getNumThreads();
  int64_t consumers = getWgmmaConsumers(info);
  if (threads != workgroup[0] || threads % kWarpgroupThreads != 0 ||
      consumers > kMaxConsumers)
    return op.emitOpError()
           << "pipeline MatmulWgmma runs one warpgroup, or one producer and "
              "one or two consumer warpgroups, per workgroup: workgroup_size "
              "must be [128, 1, 1], [256, 1, 1] or [384, 1, 1], got "
           << formatList(workgroup);
  if (config.getNumLevels() != 1)
    return op.emitOpError()
           << "pipeline MatmulWgmma takes one tiling level (the workgroup "
              "tile), got "
           << config.getNumLevels();
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  for (unsigned pos : shape.batchPos)
    if (level0[pos] != 1)
      return op.emitOpError()
             << "pipeline MatmulWgmma tiles each batch loop by 1 (one "
                "matrix per workgroup), got a tile of "
             << level0[pos] << " for batch loop d" << pos;
  int64_t tileM = level0[shape.mPos], tileN = level0[shape.nPos],
          tileK = level0[shape.kPos];
  int64_t wantedK = getWgmmaKTile(shape.aType);
  if (tileK != wantedK)
    return op.emitOpError()
           << "pipeline MatmulWgmma needs a K tile of " << wantedK << " "
           << shape.aType << " elements (one 128-byte swizzled row), got "
           << tileK;
  // A restaged operand (f32 or 8-bit, not K-contiguous): the producer
  // warpgroup writes it K-major, from boxes of 128-byte rows of its M or N.
  WgmmaLayouts held = *getWgmmaLayouts(op);
  if (held.isRestaged()) {
    StringRef operand = held.getRestagedOperandName();
    if (consumers == 0)
      return op.emitOpError()
             << "pipeline MatmulWgmma restages " << shape.aType << " "
             << operand
             << " (wgmma reads it K-major only) through the producer "
                "warpgroup of a warp-specialized workgroup: workgroup_size "
                "must be [256, 1, 1] or [384, 1, 1], got "
             << formatList(workgroup);
    if (!takesRestagedTile(shape, held, tileM, tileN))
      return op.emitOpError()
             << "pipeline MatmulWgmma restages " << shape.aType << " "
             << operand << " from TMA boxes of 128-byte rows of "
             << (held.aRestaged && tileM % (wantedK) != 0 ? "M" : "N") << " ("
             << wantedK << " elements), which the " << tileM << "x" << tileN
             << " tile does not divide into";
  }
  // A tile of fewer than 64 rows, and A[k, m] times B[n, k], are computed
  // as C^T = B^T * A^T: the tile's columns are wgmma's M, its rows wgmma's
  // N (whyNoWgmma checked the layouts a small tile takes).
  WgmmaLayouts layouts = *getWgmmaLayouts(op);
  bool smallTile = wgmma::isTransposedTile(tileM);
  bool transposed = wgmma::computesTransposed(tileM, layouts);
  if (smallTile && tileM % wgmma::kNStep != 0)
    return op.emitOpError()
           << "pipeline MatmulWgmma computes an M tile of fewer than "
           << kWgmmaM << " rows as C^T = B^T * A^T, with the M tile as "
           << "wgmma's N: it must be a multiple of " << wgmma::kNStep
           << ", got " << tileM;
  if (smallTile && ShapedType::isDynamic(shape.m()))
    return op.emitOpError()
           << "pipeline MatmulWgmma computes an M tile of fewer than "
           << kWgmmaM
           << " rows as C^T = B^T * A^T, which takes a static M, got an M "
              "tile of "
           << tileM << " and a dynamic M";
  if (smallTile && (!layouts.aKContiguous || !layouts.bKContiguous))
    return op.emitOpError()
           << "pipeline MatmulWgmma computes an M tile of fewer than "
           << kWgmmaM
           << " rows as C^T = B^T * A^T, which takes A[m, k] and B[n, k] "
              "(K-contiguous), got an M tile of "
           << tileM << " and "
           << (layouts.aKContiguous ? "B[k, n]" : "A[k, m]");
  // wgmma's operands.
  if (transposed)
    layouts = layouts.getTransposed();
  int64_t wgmmaTileM = transposed ? tileN : tileM;
  int64_t wgmmaTileN = transposed ? tileM : tileN;
  StringRef wgmmaM = transposed ? "N" : "M";
  // Each consumer warpgroup (or the one warpgroup) owns rows of the tile.
  int64_t multipliers = std::max<int64_t>(consumers, 1);
  int64_t rows = wgmmaTileM / multipliers;
  if ((rows != kWgmmaM && rows != 2 * kWgmmaM) ||
      rows * multipliers != wgmmaTileM)
    return op.emitOpError()
           << "pipeline MatmulWgmma needs an " << wgmmaM
           << " tile of 64 or 128 rows per multiplying warpgroup (m64 wgmma "
              "tiles"
           << (transposed ? " of C^T" : "") << "), got " << wgmmaTileM
           << " for " << multipliers << " warpgroup(s)";
  if (layouts.multipliesPerKStep() && rows != kWgmmaM)
    return op.emitOpError()
           << "pipeline MatmulWgmma multiplies "
           << layouts.getKStepOperandName(transposed) << " one k"
           << wgmma::getInstructionK(shape.aType)
           << " step at a time, which takes 64 rows per multiplying "
              "warpgroup, got "
           << rows;
  // wgmma's N is B's TMA boxes of 128-byte rows: along its K-contiguous
  // rows, or 128 bytes of its N-contiguous columns each (A[k, m] as
  // wgmma's B: C's rows).
  if ((!transposed || !layouts.bKContiguous) &&
      (wgmmaTileN < wantedK || wgmmaTileN > wgmma::kMaxN ||
       wgmmaTileN % wantedK != 0))
    return op.emitOpError()
           << "pipeline MatmulWgmma needs an " << (transposed ? "M" : "N")
           << " tile that is a multiple of " << wantedK << " ("
           << (transposed ? "A[k, m]" : "B") << "'s 128-byte TMA boxes"
           << (transposed ? ", wgmma's N in C^T = B^T * A^T" : "")
           << ") between " << wantedK << " and " << wgmma::kMaxN
           << " (wgmma's widest N), got " << wgmmaTileN;
  if (rows * wgmmaTileN / kWarpgroupThreads > kMaxWgmmaAccumulatorsPerThread)
    return op.emitOpError()
           << "the " << rows << "x" << wgmmaTileN
           << " tile of a warpgroup needs "
           << rows * wgmmaTileN / kWarpgroupThreads
           << " f32 accumulator registers per thread; one warpgroup holds at "
              "most "
           << kMaxWgmmaAccumulatorsPerThread;
  if (failed(verifyWgmmaLaunchShape(op, strategy, target)))
    return failure();
  int64_t stages = info.getPipelineDepth();
  int64_t ringBytes =
      mulSat(stages, getWgmmaStageBytes(shape, *getWgmmaLayouts(op), tileM,
                                        tileN, tileK));
  // (A persistent grid's staging buffer beside its ring, which
  // verifyWgmmaLaunchShape checked, counts here too.)
  bool persistent = info.getPersistentWorkgroups().has_value();
  bool staged = getWgmmaLaunchFacts(op, strategy).staged;
  bool ownStaging =
      needsOwnStaging(staged, ringBytes, tileM, tileN, persistent);
  int64_t bytes =
      getWgmmaSharedMemoryBytes(staged, ringBytes, tileM, tileN, persistent);
  if (bytes > target.getMaxSharedMemoryPerBlockOptin()) {
    InFlightDiagnostic diag =
        op.emitOpError()
        << "needs " << bytes << " bytes of shared memory, more than the "
        << target.getMaxSharedMemoryPerBlockOptin() << " bytes "
        << target.getChip()
        << " allows per workgroup (max_shared_memory_per_block_optin): "
           "pipeline_depth "
        << stages << " x (A " << tileM << "x" << tileK << " + B " << tileK
        << "x" << tileN << " tiles), " << kReservedSharedMemory
        << " for the mbarriers and the ring's 1024-byte alignment";
    if (ownStaging)
      diag << ", and " << wgmma::getEpilogueStagingBytes(tileM, tileN)
           << " for the accumulator's staging buffer (the f32 " << tileM << "x"
           << tileN << " accumulator, rows padded by " << wgmma::kStagingRowPad
           << "), which the ring is too small to hold";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SIMT strategies
//===----------------------------------------------------------------------===//

/// A plan of SIMT pipeline `pipeline` on a workgroup of `workgroup`
/// threads with tiling levels 0 (workgroup) and 1 (thread), and the
/// subgroup size it relies on, if any.
static LoweringStrategy
makeSimtStrategy(linalg::LinalgOp op, Pipeline pipeline,
                 ArrayRef<int64_t> workgroup, ArrayRef<int64_t> level0,
                 ArrayRef<int64_t> level1,
                 std::optional<int64_t> subgroupSize = std::nullopt,
                 int64_t pipelineDepth = 1) {
  MLIRContext *ctx = op->getContext();
  return LoweringStrategy{
      TranslationInfoAttr::get(ctx, pipeline, workgroup, subgroupSize,
                               pipelineDepth, 1, std::nullopt),
      LoweringConfigAttr::get(
          ctx, ArrayRef<SmallVector<int64_t>>{SmallVector<int64_t>(level0),
                                              SmallVector<int64_t>(level1)})};
}

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

/// Bytes of workgroup memory a MatmulSimt workgroup's A and B tiles take,
/// once per pipeline stage.
static int64_t getSimtMatmulStageBytes(const MatmulShape &shape, int64_t m,
                                       int64_t n, int64_t k) {
  auto bytes = [](Type type) {
    return static_cast<int64_t>(type.getIntOrFloatBitWidth() / 8);
  };
  return mulSat(m, mulSat(k, bytes(shape.aType))) +
         mulSat(k, mulSat(n, bytes(shape.bType)));
}

/// Two stages (the copies of the next K step in flight while the current
/// one computes) where cp.async exists (sm_80 on), the workgroup's A and B
/// tiles go through workgroup memory (more than one warp), there are two K
/// steps, and both stages fit the static 48 KB a workgroup gets without
/// opting in; else one.
static int64_t pickSimtMatmulPipelineDepth(const MatmulShape &shape,
                                           const SimtMatmulTile &tile,
                                           TargetAttr target) {
  if (target.getComputeCapability() < 80 ||
      tile.workgroupX * tile.workgroupY <= target.getWarpSize() ||
      shape.k() / tile.k < 2 || !shape.aType.isIntOrFloat() ||
      !shape.bType.isIntOrFloat())
    return 1;
  int64_t twoStages =
      mulSat(2, getSimtMatmulStageBytes(shape, tile.m, tile.n, tile.k));
  return twoStages <= target.getMaxSharedMemoryPerBlock() ? 2 : 1;
}

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
    int64_t depth = pickSimtMatmulPipelineDepth(shape, tile, target);
    return makeSimtStrategy(op, Pipeline::MatmulSimt,
                            {tile.workgroupX, tile.workgroupY, 1}, level0,
                            level1, std::nullopt, depth);
  }
  return std::nullopt;
}

/// The parallel loops tiled at level 0, innermost first: the loops
/// gpucg-tile-and-distribute-to-workgroups maps to grid x, y and z (the
/// ones beyond the innermost two sharing z: getGridZLoops).
static SmallVector<unsigned> getTiledParallelLoops(linalg::LinalgOp op,
                                                   ArrayRef<int64_t> level0) {
  SmallVector<unsigned> loops;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (int64_t d = static_cast<int64_t>(level0.size()) - 1; d >= 0; --d)
    if (iterators[d] == utils::IteratorType::parallel && level0[d] != 0)
      loops.push_back(d);
  return loops;
}

/// The first three of them: the loops on grid x, y and z, and those a SIMT
/// workgroup tile is distributed over, to thread x, y and z.
static SmallVector<unsigned>
getDistributedParallelLoops(linalg::LinalgOp op, ArrayRef<int64_t> level0) {
  SmallVector<unsigned> loops = getTiledParallelLoops(op, level0);
  loops.truncate(std::min<size_t>(loops.size(), 3));
  return loops;
}

/// CUDA's limits on a grid: 2^31 - 1 workgroups along x, 65535 along y and
/// z (every chip gpucg targets).
static constexpr int64_t kMaxGridSize[3] = {2147483647, 65535, 65535};

namespace {
/// A grid dimension with more workgroups than CUDA allows.
struct GridOverflow {
  unsigned dim;  // 0, 1, 2: x, y, z
  unsigned pos;  // the loop mapped to it (of those sharing z, the one with
                 // the most workgroups)
  int64_t count; // its workgroups (along z, all its loops' together)
  /// The loops sharing grid z, outermost first, when more than three are
  /// tiled (gpucg-tile-and-distribute-to-workgroups linearizes them).
  SmallVector<unsigned> shared;
};
} // namespace

/// The parallel loops tiled at level 0 beyond the innermost two, outermost
/// first: the loops on grid z, linearized into it when there are several.
static SmallVector<unsigned> getGridZLoops(linalg::LinalgOp op,
                                           ArrayRef<int64_t> level0) {
  SmallVector<unsigned> loops = getTiledParallelLoops(op, level0);
  if (loops.size() <= 2)
    return {};
  return llvm::to_vector(llvm::reverse(ArrayRef(loops).drop_front(2)));
}

WorkgroupOrder
mlir::gpucg::getDefaultWorkgroupOrder(linalg::LinalgOp rootOp,
                                      const LoweringStrategy &strategy,
                                      TargetAttr target) {
  // Measured for MatmulWgmma only; the mma.sync and WMMA kernels keep the
  // launch order (grouped, their workgroup-specialized kernels of partial
  // tiles took up to 54 more registers than their aligned neighbours).
  WorkgroupOrder order;
  if (strategy.translationInfo.getPipeline() != Pipeline::MatmulWgmma ||
      !getMatmulShape(rootOp))
    return order;
  // The workgroup grid: the innermost tiled parallel loop on x (columns of
  // tiles), the next on y (rows), the rest on z.
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  SmallVector<int64_t> ranges = rootOp.getStaticLoopRanges();
  SmallVector<int64_t> counts;
  for (unsigned d : getTiledParallelLoops(rootOp, level0)) {
    if (ShapedType::isDynamic(ranges[d]))
      return order;
    counts.push_back(ceilDiv(ranges[d], level0[d]));
  }
  if (counts.size() < 2)
    return order;
  int64_t columns = counts[0], rows = counts[1];
  int64_t workgroups = 1;
  for (int64_t count : counts)
    workgroups = mulSat(workgroups, count);
  if (rows < 2 || columns < 2 || workgroups <= target.getNumSms())
    return order;
  order.groupSize = std::min(rows, kDefaultWorkgroupGroupRows);
  llvm::raw_string_ostream os(order.reason);
  os << "the default workgroup order: " << workgroups
     << " workgroups are more than the " << target.getNumSms()
     << " SMs run at once, which in the launch order would take whole rows "
        "of "
     << columns << " tiles, each reading every column block of B";
  return order;
}

/// Why the MatmulWgmma plan `strategy` of `rootOp` cannot split K into
/// parts of `part` elements (K steps of `tileK`); empty when it can. The
/// consumer warpgroups publish their rows of the staged accumulator and the
/// last workgroup sums the parts into the staging buffer before the
/// epilogue.
static std::string whyNoWgmmaSplitK(linalg::LinalgOp rootOp,
                                    const LoweringStrategy &strategy) {
  TranslationInfoAttr info = strategy.translationInfo;
  wgmma::LaunchFacts facts = getWgmmaLaunchFacts(rootOp, strategy);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (facts.consumers == 0)
    os << "the kernel has one warpgroup, not consumer warpgroups that "
          "publish their rows of the tile";
  else if (info.getPersistentWorkgroups())
    os << "the kernel runs on a persistent grid";
  else if (!info.getCluster().empty() &&
           info.getClusterM() * info.getClusterN() > 1)
    os << "the kernel runs in thread-block clusters";
  else if (!facts.staged) {
    std::string staged = wgmma::whyNoStagedStore(facts, /*persistent=*/false);
    if (!staged.empty())
      os << "its accumulator cannot go through the staging buffer, where "
            "the parts are added: "
         << staged;
  } else if (TargetAttr target = getTarget(rootOp)) {
    // A part's fewer K steps may shorten the ring (at most one stage per
    // step) below the staging buffer an epilogue, partial tiles or a
    // transposed tile need, which then takes its own room beside the ring.
    int64_t staging = wgmma::getEpilogueStagingBytes(facts.tileM, facts.tileN);
    int64_t bytes = getWgmmaSharedMemoryBytes(rootOp, facts.ringBytes,
                                              facts.tileM, facts.tileN);
    if (bytes > target.getMaxSharedMemoryPerBlockOptin())
      os << "its ring of " << info.getPipelineDepth()
         << " stages (at most one per K step of a part) is too small to hold "
            "the accumulator's staging buffer of "
         << staging << " bytes, and the two beside each other with "
         << kReservedSharedMemory << " more need " << bytes
         << " bytes, more than the " << target.getMaxSharedMemoryPerBlockOptin()
         << " bytes " << target.getChip()
         << " allows per workgroup (max_shared_memory_per_block_optin)";
  }
  return text;
}

std::string mlir::gpucg::whyNoSplitK(linalg::LinalgOp rootOp,
                                     const LoweringStrategy &strategy,
                                     int64_t splitK) {
  std::string text;
  llvm::raw_string_ostream os(text);
  TranslationInfoAttr info = strategy.translationInfo;
  if (splitK < 1 || splitK > TranslationInfoAttr::kMaxSplitK) {
    os << "a split of K into " << splitK << " parts is not from 1 to "
       << TranslationInfoAttr::kMaxSplitK;
    return text;
  }
  bool wgmmaPlan = info.getPipeline() == Pipeline::MatmulWgmma;
  if (info.getPipeline() != Pipeline::MatmulTensorCoreMmaSync && !wgmmaPlan) {
    os << "split-K is built for pipelines MatmulTensorCoreMmaSync and "
          "MatmulWgmma, and this kernel is planned for "
       << stringifyPipeline(info.getPipeline());
    return text;
  }
  std::optional<MatmulShape> shape = getMatmulShape(rootOp);
  if (!shape) {
    os << "the root is not a matmul (one M, one N and one K loop)";
    return text;
  }
  if (!shape->batchPos.empty()) {
    os << "the matmul has batch loops, which take grid z";
    return text;
  }
  if (!shape->isStatic()) {
    os << "the matmul has dynamic sizes (M x N x K = ";
    printShape(os, {shape->m(), shape->n(), shape->k()});
    os << "), and split-K counts its tiles and parts when it compiles";
    return text;
  }
  if (!rootOp.hasPureTensorSemantics()) {
    os << "the matmul is not on tensors";
    return text;
  }
  for (OpOperand *input : rootOp.getDpsInputOperands())
    if (!isa<BlockArgument>(input->get())) {
      os << "operand #" << input->getOperandNumber()
         << " of the matmul is computed in the kernel (a fused producer), "
            "and each part of K reads its slice of a kernel argument";
      return text;
    }
  if (!isZeroFilled(rootOp)) {
    os << "the accumulator does not start from a linalg.fill of zero (each "
          "part sums its own products, and the parts are added once)";
    return text;
  }
  int64_t k = shape->k();
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  int64_t tileK = level0[shape->kPos];
  // MatmulWgmma's parts are whole K steps, the last reaching past K (TMA
  // reads zeros there): whole steps keep a part's boxes out of the next
  // part's K. mma.sync's parts divide K.
  int64_t part = getSplitKPart(k, splitK, tileK, /*wholeSteps=*/wgmmaPlan);
  if (!part) {
    if (wgmmaPlan)
      os << "K = " << k << " in K steps of " << tileK << " has no " << splitK
         << " parts of whole K steps that each start before K ends";
    else
      os << "K = " << k << " is not a multiple of " << splitK << " parts";
    return text;
  }
  if (!wgmmaPlan)
    for (Type type : {shape->aType, shape->bType}) {
      int64_t bytes = getByteWidth(type);
      if (part * bytes % 16 != 0) {
        os << "a part of K of " << part << " " << type << " elements is "
           << part * bytes
           << " bytes, not a multiple of 16: the next part's rows would "
              "start off the 16-byte alignment of the operands' async copies";
        return text;
      }
    }
  if (tileK <= 0 || part < 2 * tileK) {
    os << "a part of K of " << part << " elements is less than two K steps of "
       << tileK << " (the K loop a part's sum is published after)";
    return text;
  }
  if (wgmmaPlan)
    return whyNoWgmmaSplitK(rootOp, strategy);
  return text;
}

SplitK mlir::gpucg::getDefaultSplitK(linalg::LinalgOp rootOp,
                                     const LoweringStrategy &strategy,
                                     TargetAttr target) {
  SplitK split;
  std::optional<MatmulShape> shape = getMatmulShape(rootOp);
  Pipeline pipeline = strategy.translationInfo.getPipeline();
  if ((pipeline != Pipeline::MatmulTensorCoreMmaSync &&
       pipeline != Pipeline::MatmulWgmma) ||
      !shape || !shape->isStatic() || !shape->batchPos.empty())
    return split;
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  int64_t tiles = mulSat(ceilDiv(shape->m(), level0[shape->mPos]),
                         ceilDiv(shape->n(), level0[shape->nPos]));
  int64_t sms = target.getNumSms();
  if (tiles >= sms)
    return split;
  int64_t tileK = level0[shape->kPos];
  int64_t best = 1;
  std::string whyNotTwo;
  // Parts that divide K first (MatmulWgmma may take parts whose last one
  // reaches past K, but an even split keeps every part's work the same):
  // uneven ones only where the even ones leave SMs idle.
  for (bool evenOnly : {true, false}) {
    if (tiles * best >= sms)
      break;
    for (int64_t parts = 2; parts <= kDefaultMaxSplitK; ++parts) {
      // A K too short to split needs no word: there is nothing to share.
      if (tileK <= 0 || shape->k() / parts < kDefaultMinSplitKSteps * tileK)
        break;
      std::string why = whyNoSplitK(rootOp, strategy, parts);
      if (!why.empty()) {
        if (parts == 2)
          whyNotTwo = why;
        continue;
      }
      bool even =
          getPlannedSplitKPart(rootOp, strategy, parts) * parts == shape->k();
      if (evenOnly && !even)
        continue;
      if (parts > best)
        best = parts;
      if (tiles * parts >= sms)
        break;
    }
  }
  if (best == 1) {
    // A kernel that leaves SMs idle with a K long enough to share says why
    // it does not split it.
    if (!whyNotTwo.empty())
      split.reason = "no split-K: " + std::to_string(tiles) +
                     " tiles are fewer than the " + std::to_string(sms) +
                     " SMs, but " + whyNotTwo;
    else if (shape->k() / 2 >= kDefaultMinSplitKSteps * tileK)
      split.reason = "no split-K: " + std::to_string(tiles) +
                     " tiles are fewer than the " + std::to_string(sms) +
                     " SMs, but no part count up to " +
                     std::to_string(kDefaultMaxSplitK) +
                     " splits K = " + std::to_string(shape->k()) +
                     " into parts the kernel can take";
    return split;
  }
  split.parts = best;
  llvm::raw_string_ostream os(split.reason);
  int64_t part = getPlannedSplitKPart(rootOp, strategy, best);
  os << "split-K by default: " << tiles << " tiles are fewer than the " << sms
     << " SMs, so K = " << shape->k() << " is split into " << best
     << " parts of " << part;
  if (part * best != shape->k())
    os << " (the last " << shape->k() - part * (best - 1)
       << ", its K steps past K reading zeros)";
  os << " (" << tiles * best << " workgroups), added in a fixed order";
  return split;
}

/// The first grid dimension, x first, along which level-0 tiles `level0`
/// give `op`'s static loops more workgroups than CUDA allows; nothing when
/// the grid fits (dynamic loops are sized on the host). Grid z counts the
/// workgroups of every loop beyond the innermost two.
static std::optional<GridOverflow> findGridOverflow(linalg::LinalgOp op,
                                                    ArrayRef<int64_t> level0) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto countOf = [&](unsigned pos) {
    return llvm::divideCeil(ranges[pos], level0[pos]);
  };
  for (auto [dim, pos] :
       llvm::enumerate(getDistributedParallelLoops(op, level0))) {
    if (dim == 2 || ShapedType::isDynamic(ranges[pos]))
      continue;
    int64_t count = countOf(pos);
    if (count > kMaxGridSize[dim])
      return GridOverflow{static_cast<unsigned>(dim), pos, count, {}};
  }
  SmallVector<unsigned> zLoops = getGridZLoops(op, level0);
  if (zLoops.empty() || llvm::any_of(zLoops, [&](unsigned pos) {
        return ShapedType::isDynamic(ranges[pos]);
      }))
    return std::nullopt;
  int64_t count = 1;
  for (unsigned pos : zLoops)
    count = mulSat(count, countOf(pos));
  if (count <= kMaxGridSize[2])
    return std::nullopt;
  unsigned widest = *llvm::max_element(
      zLoops, [&](unsigned x, unsigned y) { return countOf(x) < countOf(y); });
  return GridOverflow{2, widest, count,
                      zLoops.size() > 1 ? zLoops : SmallVector<unsigned>()};
}

/// Enlarges the level-0 tiles of the loops on grid y and z (and x) of a SIMT
/// plan until its static grid fits CUDA's limits: 2^28 elements as rows of
/// 4096 are 65536 rows. Each tile becomes a multiple of the old one, so
/// every thread just loops cyclically over more of it.
static LoweringStrategy fitGridToLimits(linalg::LinalgOp op,
                                        LoweringStrategy strategy) {
  LoweringConfigAttr config = strategy.loweringConfig;
  SmallVector<SmallVector<int64_t>> levels;
  for (unsigned level = 0; level < config.getNumLevels(); ++level)
    levels.emplace_back(config.getTileSizes(level));
  std::optional<GridOverflow> overflow = findGridOverflow(op, levels.front());
  if (!overflow)
    return strategy;
  // (The loop enlarged along z is the one with the most workgroups, so
  // each round divides them.)
  for (; overflow; overflow = findGridOverflow(op, levels.front()))
    levels.front()[overflow->pos] *=
        llvm::divideCeil(overflow->count, kMaxGridSize[overflow->dim]);
  strategy.loweringConfig = LoweringConfigAttr::get(op->getContext(), levels);
  return strategy;
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
  return makeSimtStrategy(op, Pipeline::SimtDistribute, {threads, 1, 1}, level0,
                          level1);
}

/// The bit width of `op`'s widest input element, which sets the width of
/// the vectors a reduction reads; nothing when an operand's element is not
/// an integer or float of 8 to 64 bits, or there is no input.
static std::optional<unsigned> getWidestInputBitwidth(linalg::LinalgOp op) {
  unsigned bits = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    Type type = getElementTypeOrSelf(operand.get());
    if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() < 8 ||
        type.getIntOrFloatBitWidth() > 64)
      return std::nullopt;
    if (op.isDpsInput(&operand))
      bits = std::max(bits, type.getIntOrFloatBitWidth());
  }
  if (bits == 0)
    return std::nullopt;
  return bits;
}

bool mlir::gpucg::isRowProgramRoot(linalg::LinalgOp rootOp) {
  if (rootOp.getNumReductionLoops() == 0)
    return false;
  SmallVector<int64_t> ones(rootOp.getNumLoops(), 1);
  linalg::LinalgOp target = getWorkgroupTilingTarget(rootOp, ones).first;
  if (target != rootOp && target.getNumLoops() == rootOp.getNumLoops())
    return true;
  auto funcOp = rootOp->getParentOfType<FunctionOpInterface>();
  if (!funcOp)
    return false;
  bool otherReduction = false;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (op != rootOp && op.getNumReductionLoops() > 0 &&
        isReductionOfSameRows(op, rootOp))
      otherReduction = true;
  });
  return otherReduction;
}

std::string mlir::gpucg::whyRowsCannotSplit(linalg::LinalgOp op,
                                            bool deterministicReductions) {
  std::string text;
  llvm::raw_string_ostream os(text);
  FailureOr<RowReduction> reduction = matchRowReduction(op);
  if (failed(reduction)) {
    os << "it is not a reduction of its innermost loop by one combiner";
    return text;
  }
  // The workgroups combine their totals into the accumulator's value, which
  // must be there before any of them starts: a kernel argument.
  Value init = op.getDpsInitOperand(0)->get();
  auto argument = dyn_cast<BlockArgument>(init);
  auto funcOp = op->getParentOfType<FunctionOpInterface>();
  if (!funcOp || !argument ||
      argument.getOwner() != &funcOp.getFunctionBody().front()) {
    os << "its accumulator is not an argument of the kernel (nothing in "
          "one kernel can initialize it before the workgroups add to it)";
    return text;
  }
  // A workgroup reduces only part of a row: nothing else in the kernel may
  // read the row or its total.
  linalg::LinalgOp other;
  funcOp.walk([&](linalg::LinalgOp it) {
    if (it != op && !other)
      other = it;
  });
  if (other) {
    os << "'" << other->getName()
       << "' is in the same kernel, and a workgroup that reduces part of a "
          "row must be the kernel's only op";
    return text;
  }
  for (Operation *user : op->getUsers())
    if (!user->hasTrait<OpTrait::ReturnLike>()) {
      os << "its total is read by '" << user->getName()
         << "' in the same kernel, before every workgroup has added to it";
      return text;
    }
  Type elementType = getElementTypeOrSelf(init);
  if (!isAtomicallyCombinable(reduction->kind, elementType)) {
    os << "its accumulator type " << elementType << " has no atomic "
       << gpu::stringifyAllReduceOperation(reduction->kind)
       << " (gpucg has them for integers and floats of 8, 16 or 32 bits, "
          "except floating-point products)";
    return text;
  }
  // Floating-point products never split (no atomic); sums would be rounded
  // in the order the workgroups finish.
  if (deterministicReductions && isa<FloatType>(elementType) &&
      reduction->kind == gpu::AllReduceOperation::ADD) {
    os << "deterministic-reductions is set, and the workgroups would round "
          "their floating-point sum in whatever order they finish";
    return text;
  }
  if (op.getNumParallelLoops() >= 3) {
    os << "its " << op.getNumParallelLoops()
       << " parallel loops take all three grid dimensions";
    return text;
  }
  if (std::optional<unsigned> input = findInputNotViewableAlongRow(op)) {
    os << "its input #" << *input
       << " does not index the row by the row loop alone in one dimension "
          "(its part of a row would be no view)";
    return text;
  }
  return text;
}

/// Workgroups per row of a WarpReduction kernel whose rows are too few to
/// give every SM kWorkgroupsPerSmGoal workgroups (32 rows of 2^20 on 132
/// SMs): powers of two until they do, as long as each workgroup keeps at
/// least kMinSplitRowSteps steps of all its threads (`step` elements each)
/// to hide its memory latency and amortize its atomic update. 1 when the
/// rows cannot split (whyRowsCannotSplit).
static int64_t selectRowSplit(linalg::LinalgOp op, TargetAttr target,
                              int64_t step, bool deterministicReductions) {
  constexpr int64_t kMinSplitRowSteps = 8;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rowSize = ranges.back();
  int64_t rows = 1;
  for (int64_t range : ArrayRef(ranges).drop_back()) {
    if (ShapedType::isDynamic(range))
      return 1;
    rows = mulSat(rows, range);
  }
  if (!whyRowsCannotSplit(op, deterministicReductions).empty())
    return 1;
  int64_t wanted = kWorkgroupsPerSmGoal * target.getNumSms();
  int64_t split = 1;
  while (mulSat(rows, split) < wanted && rowSize % (2 * split * step) == 0 &&
         rowSize / (2 * split) >= kMinSplitRowSteps * step &&
         2 * split <= kMaxGridSize[1])
    split *= 2;
  return split;
}

/// Threads of a WarpReduction plan for rows of a run-time size: 4 warps, 512
/// f16 per step.
static constexpr int64_t kDynamicRowReductionThreads = 128;

/// One warp group per row for rows of at least a warp's worth of vectors.
/// With `anyRowSize` (a row program, which only WarpReduction distributes),
/// shorter or odd rows too: whole warps, lanes past the row idle.
static std::optional<LoweringStrategy>
selectWarpReductionStrategy(linalg::LinalgOp op, TargetAttr target,
                            bool anyRowSize = false,
                            bool deterministicReductions = false) {
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  int64_t numLoops = op.getNumLoops();
  if (reductionDims.size() != 1 ||
      reductionDims.front() != static_cast<unsigned>(numLoops - 1) ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  // The threads' partials are combined by gpu.subgroup_reduce.
  if (failed(matchRowReduction(op)))
    return std::nullopt;
  int64_t rowSize = op.getStaticLoopRanges().back();
  // Warps reduce with 32-bit shuffles.
  Type elementType = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  std::optional<unsigned> inputBits = getWidestInputBitwidth(op);
  if (rowSize == 0 || !inputBits || !elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() > 32)
    return std::nullopt;
  int64_t warp = target.getWarpSize();
  SmallVector<int64_t> level0(numLoops, 1), level1(numLoops, 0);
  int64_t vector = 128 / *inputBits;
  // A row of a run-time size: the whole row per workgroup (level 0 leaves
  // the reduction loop untiled), 128-bit steps of
  // kDynamicRowReductionThreads threads, the elements past the last whole
  // vector one per thread (gpucg-distribute-reduction). The steps'
  // alignment under a run-time pitch is decided at run time, once per
  // workgroup (gpucg-row-pitch-specialization) or per step
  // (gpucg-version-vector-alignment).
  if (ShapedType::isDynamic(rowSize)) {
    if (*inputBits % 8 != 0 || vector < 1)
      return std::nullopt;
    int64_t threads = std::min<int64_t>(
        kDynamicRowReductionThreads,
        llvm::alignDown(target.getMaxThreadsPerBlock(), warp));
    if (threads < warp || vector > threads)
      return std::nullopt;
    level0.back() = 0;
    level1.back() = vector;
    return makeSimtStrategy(op, Pipeline::WarpReduction, {threads, 1, 1},
                            level0, level1, warp);
  }
  while (vector > 1 && rowSize % (warp * vector) != 0)
    vector /= 2;
  int64_t threads = rowSize / vector;
  while (threads > target.getMaxThreadsPerBlock() && threads % 2 == 0)
    threads /= 2;
  // Rows shorter than one 128-bit step of a whole warp (512 bytes) would
  // leave lanes idle or loads narrow: Vectorize reduces them per thread,
  // unless they are a row program's.
  if (rowSize * *inputBits >= warp * 128 && rowSize % (warp * vector) == 0 &&
      threads <= target.getMaxThreadsPerBlock() && threads % warp == 0) {
    // Level 0 of the reduction loop: the part of the row one workgroup
    // reduces (all of it, unless few rows split across workgroups).
    level0.back() = rowSize / selectRowSplit(op, target, threads * vector,
                                             deterministicReductions);
    level1.back() = vector;
    return makeSimtStrategy(op, Pipeline::WarpReduction, {threads, 1, 1},
                            level0, level1, warp);
  }
  if (!anyRowSize)
    return std::nullopt;
  // The widest vector that divides the row, and a thread per vector in
  // whole warps (at most a workgroup's worth, looping over the rest).
  vector = 128 / *inputBits;
  while (vector > 1 && rowSize % vector != 0)
    vector /= 2;
  threads =
      std::min<int64_t>(llvm::alignTo(rowSize / vector, warp),
                        llvm::alignDown(target.getMaxThreadsPerBlock(), warp));
  if (threads == 0)
    return std::nullopt;
  level0.back() = rowSize;
  level1.back() = vector;
  return makeSimtStrategy(op, Pipeline::WarpReduction, {threads, 1, 1}, level0,
                          level1, warp);
}

/// Threads of a Vectorize plan along a dynamic innermost size.
static constexpr int64_t kDynamicRowVectorizeThreads = 64;

/// Vectors along the innermost loop of an all-parallel op: 128 bits of the
/// output's element, or the widest power of two of elements that divides a
/// static innermost size (64 bits for rows of 100 f16), at least two. A
/// dynamic innermost size takes 128 bits: the full workgroup tiles run the
/// vectors, their rows' alignment decided at run time (once per workgroup
/// by gpucg-row-pitch-specialization, per access by
/// gpucg-version-vector-alignment), the partial one element by element.
static std::optional<LoweringStrategy>
selectVectorizeStrategy(linalg::LinalgOp op, TargetAttr target) {
  int64_t numLoops = op.getNumLoops();
  if (numLoops == 0 || op.getNumReductionLoops() != 0 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  int64_t inner = op.getStaticLoopRanges().back();
  Type elementType = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() > 64)
    return std::nullopt;
  unsigned bits = elementType.getIntOrFloatBitWidth();
  int64_t vector = 128 / bits;
  bool dynamic = ShapedType::isDynamic(inner);
  // (Elements of fewer than 8 bits, i1, keep whole 128-bit vectors of a
  // static size: narrower ones would not be whole bytes.)
  if (bits % 8 != 0 && (dynamic || inner % vector != 0))
    return std::nullopt;
  while (!dynamic && vector > 1 && inner % vector != 0)
    vector /= 2;
  if (vector < 2)
    return std::nullopt;
  int64_t maxThreads = std::min(kSimtThreads, target.getMaxThreadsPerBlock());
  // A dynamic row takes two warps' worth (512 f16): the tile past its end,
  // run element by element, is then at most that long.
  int64_t threads = dynamic
                        ? std::min(kDynamicRowVectorizeThreads, maxThreads)
                        : std::clamp<int64_t>(inner / vector, 1, maxThreads);
  SmallVector<int64_t> level0(numLoops, 1), level1(numLoops, 1);
  level0.back() = threads * vector;
  level1.back() = vector;
  return makeSimtStrategy(op, Pipeline::Vectorize, {threads, 1, 1}, level0,
                          level1);
}

std::string mlir::gpucg::whyNoElementwiseVectors(linalg::LinalgOp rootOp,
                                                 TargetAttr target) {
  if (rootOp.getNumLoops() == 0 || rootOp.getNumReductionLoops() != 0 ||
      getMatmulShape(rootOp) || selectVectorizeStrategy(rootOp, target))
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  if (rootOp.getNumDpsInits() != 1) {
    os << "it has " << rootOp.getNumDpsInits()
       << " results, and Vectorize plans ops of one";
    return text;
  }
  Type element = getElementTypeOrSelf(rootOp.getDpsInitOperand(0)->get());
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() > 64) {
    os << "its result's element type " << element
       << " is no integer or float of at most 64 bits";
    return text;
  }
  unsigned bits = element.getIntOrFloatBitWidth();
  int64_t inner = rootOp.getStaticLoopRanges().back();
  os << "its innermost size (";
  if (ShapedType::isDynamic(inner))
    os << "dynamic";
  else
    os << inner;
  os << ")";
  if (bits % 8 != 0) {
    os << " is no multiple of a 128-bit vector (" << 128 / bits << " x "
       << element << "), and narrower vectors of " << element
       << " are no whole bytes";
    return text;
  }
  os << " is odd, so no vector of 2 or more " << element
     << " divides its rows (a vector along them would start misaligned in "
        "most), ";
  std::string whyNotMerged;
  if (!getElementwiseLoopsToCollapse(rootOp, &whyNotMerged).empty())
    os << "and its loops were not merged into one run of elements: run "
          "gpucg-collapse-elementwise-dims before the strategy (the "
          "pipelines do)";
  else if (!whyNotMerged.empty())
    os << "and its loops cannot be merged into one run of elements "
          "(gpucg-collapse-elementwise-dims): "
       << whyNotMerged;
  else
    os << "and its loops cannot be merged into one run of elements";
  return text;
}

/// Rows of a short-row reduction each thread reduces at once (independent
/// accumulators, and loads in flight), and the threads of its workgroup.
static constexpr int64_t kVectorReductionRowsPerThread = 4;
static constexpr int64_t kVectorReductionThreads = 64;

/// Reductions over an innermost row too short or too odd for a warp per row
/// (WarpReduction): each thread reduces whole rows, reading a 128-bit vector
/// of each of its rows per K step and adding it into a vector accumulator
/// that stays in registers.
static std::optional<LoweringStrategy>
selectVectorizeReductionStrategy(linalg::LinalgOp op, TargetAttr target) {
  SmallVector<unsigned> reductionDims, parallelDims;
  op.getReductionDims(reductionDims);
  op.getParallelDims(parallelDims);
  int64_t numLoops = op.getNumLoops();
  if (reductionDims.size() != 1 ||
      reductionDims.front() != static_cast<unsigned>(numLoops - 1) ||
      parallelDims.empty() || parallelDims.size() > 3 ||
      op.getNumDpsInits() != 1 || op.getNumDpsInputs() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rowSize = ranges.back();
  if (ShapedType::isDynamic(rowSize) || rowSize == 0)
    return std::nullopt;
  // The widest input element sets the vector width (128 bits of it); the
  // accumulator, one element per row, may be wider (f16 rows summed in f32).
  std::optional<unsigned> bits = getWidestInputBitwidth(op);
  if (!bits)
    return std::nullopt;
  int64_t vector = 128 / *bits;
  while (vector > 1 && rowSize % vector != 0)
    vector /= 2;

  // Fewer rows than a workgroup's worth: all of them in one (whole, so
  // vectorized) tile, one row per thread of whole warps.
  unsigned inner = parallelDims.back();
  int64_t rowsPerThread = kVectorReductionRowsPerThread;
  int64_t threads =
      std::min(kVectorReductionThreads, target.getMaxThreadsPerBlock());
  int64_t rows = ranges[inner];
  int64_t tileRows = threads * rowsPerThread;
  if (!ShapedType::isDynamic(rows) && rows < tileRows) {
    rowsPerThread = 1;
    tileRows = rows;
    // At least one warp, also for no rows at all (an empty kernel, which
    // workgroup tiling then refuses).
    threads = std::min(target.getMaxThreadsPerBlock(),
                       static_cast<int64_t>(llvm::alignTo(
                           std::max<int64_t>(rows, 1), target.getWarpSize())));
  }
  SmallVector<int64_t> level0(numLoops, 0), level1(numLoops, 0);
  for (unsigned pos : parallelDims)
    level0[pos] = level1[pos] = 1;
  level0[inner] = tileRows;
  level1[inner] = rowsPerThread;
  level0.back() = vector;
  return makeSimtStrategy(op, Pipeline::Vectorize, {threads, 1, 1}, level0,
                          level1);
}

std::string
mlir::gpucg::whyPrecisionRulesOutTensorCores(linalg::LinalgOp op,
                                             const StrategyOptions &options) {
  if (options.f32Precision != F32Precision::Ieee)
    return "";
  std::optional<MatmulShape> shape = getMatmulShape(op);
  if (!shape || (!shape->aType.isF32() && !shape->bType.isF32()))
    return "";
  return "its f32 operands are to be multiplied in IEEE f32 "
         "(f32-precision=ieee), and tensor cores multiply f32 only as TF32 "
         "(10-bit mantissas)";
}

std::string
mlir::gpucg::explainNoTensorCoreStrategy(linalg::LinalgOp rootOp,
                                         TargetAttr target,
                                         const StrategyOptions &options) {
  MmaPreference preference = options.mma;
  std::string precision = whyPrecisionRulesOutTensorCores(rootOp, options);
  if (!precision.empty())
    return precision;
  if (preference == MmaPreference::Wgmma)
    return whyNoWgmma(rootOp, target);
  std::optional<MatmulShape> shape = getMatmulShape(rootOp);
  if (!shape)
    return "it is not a contraction with one M, one N and one K loop";
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
    os << "gpucg lowers no tensor-core operation of the requested family "
          "for "
       << shape->aType << " operands (mma.sync: f16, bf16, i8; WMMA: f16, "
       << "f32)";
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
  shape = shape->getPlanningShape();
  if (shape->m() < kOneWarpTile->m || shape->n() < kOneWarpTile->n) {
    os << "M x N = " << shape->m() << " x " << shape->n()
       << " is below the smallest tensor-core workgroup tile ("
       << kOneWarpTile->m << " x " << kOneWarpTile->n
       << "): most of every MMA would multiply padding";
    return text;
  }
  if (shape->k() < 1) {
    os << "K = " << shape->k() << ": there is nothing to multiply";
    return text;
  }
  os << "no workgroup tile fits " << target.getChip() << "'s limits ("
     << target.getMaxThreadsPerBlock() << " threads of warp size "
     << target.getWarpSize() << ", " << target.getMaxRegistersPerThread()
     << " registers per thread, "
     << target.getMaxSharedMemoryPerBlockOptin()
     << " bytes of shared memory per workgroup)";
  return text;
}

/// Whether matmul `op` is a matrix-vector product (M or N is 1) whose
/// operands both run along K, its innermost loop, contiguously: `A * B^T`
/// with M = 1 (a linear layer on one token) or N = 1. Each output element
/// is then a dot product of two contiguous rows, which WarpReduction
/// reduces with one warp-wide 128-bit step after another; a tensor-core
/// tile would use 1 of its 16 rows and leave too few workgroups to keep
/// the memory busy.
static bool isRowwiseMatrixVectorProduct(linalg::LinalgOp op,
                                         const MatmulShape &shape) {
  if (shape.m() != 1 && shape.n() != 1)
    return false;
  if (shape.kPos != op.getNumLoops() - 1)
    return false;
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return map.getNumResults() > 0 &&
           map.getResults().back() ==
               getAffineDimExpr(shape.kPos, op->getContext());
  });
}

/// The plan selectLoweringStrategy makes before `options.pipelineDepth`.
static LoweringStrategy selectOwnStrategy(linalg::LinalgOp rootOp,
                                          TargetAttr target,
                                          const StrategyOptions &options,
                                          SmallVectorImpl<std::string> *notes) {
  MmaPreference mmaPreference = options.mma;
  bool deterministicReductions = options.deterministicReductions;
  if (std::optional<MatmulShape> shape = getMatmulShape(rootOp)) {
    bool tensorCores = whyPrecisionRulesOutTensorCores(rootOp, options).empty();
    // A matrix-vector product is a reduction of rows, not a tensor-core
    // matmul, unless a tensor-core pipeline was asked for by name.
    if (mmaPreference == MmaPreference::Auto &&
        isRowwiseMatrixVectorProduct(rootOp, *shape))
      if (auto strategy = selectWarpReductionStrategy(
              rootOp, target, /*anyRowSize=*/false, deterministicReductions))
        if (!findGridOverflow(rootOp, strategy->loweringConfig.getTileSizes(0)))
          return *strategy;
    if (tensorCores && (mmaPreference == MmaPreference::Auto ||
                        mmaPreference == MmaPreference::Wgmma))
      if (auto strategy = selectWgmmaStrategy(rootOp, *shape, target,
                                              options.launch, notes))
        return *strategy;
    if (tensorCores)
      if (auto strategy = selectTensorCoreStrategy(
              rootOp, *shape, target, mmaPreference, options.launch))
        return *strategy;
    if (auto strategy = selectSimtMatmulStrategy(rootOp, *shape, target))
      return *strategy;
    return fitGridToLimits(rootOp,
                           selectSimtDistributeStrategy(rootOp, target));
  }
  if (isRowProgramRoot(rootOp))
    if (auto strategy = selectWarpReductionStrategy(rootOp, target,
                                                    /*anyRowSize=*/true))
      return *strategy;
  if (rootOp.getNumReductionLoops() > 0) {
    // One row per workgroup: a grid too large for it (more than 65535
    // batches on y or z) is a Vectorize one, which fits.
    if (auto strategy = selectWarpReductionStrategy(
            rootOp, target, /*anyRowSize=*/false, deterministicReductions))
      if (!findGridOverflow(rootOp, strategy->loweringConfig.getTileSizes(0)))
        return *strategy;
    if (auto strategy = selectVectorizeReductionStrategy(rootOp, target))
      return fitGridToLimits(rootOp, *strategy);
    return fitGridToLimits(rootOp,
                           selectSimtDistributeStrategy(rootOp, target));
  }
  if (auto strategy = selectVectorizeStrategy(rootOp, target))
    return fitGridToLimits(rootOp, *strategy);
  return fitGridToLimits(rootOp, selectSimtDistributeStrategy(rootOp, target));
}

LoweringStrategy
mlir::gpucg::selectLoweringStrategy(linalg::LinalgOp rootOp, TargetAttr target,
                                    const StrategyOptions &options,
                                    SmallVectorImpl<std::string> *notes) {
  LoweringStrategy strategy = selectOwnStrategy(rootOp, target, options, notes);
  TranslationInfoAttr info = strategy.translationInfo;
  std::optional<MatmulShape> shape = getMatmulShape(rootOp);
  if (options.pipelineDepth <= 0 || !isTensorCorePipeline(info.getPipeline()) ||
      !shape)
    return strategy;
  // The caller's depth, for the pipelines whose K loop is software
  // pipelined over that many stages, and at most one stage per K step (as
  // the strategy's own); verifyLoweringStrategy budgets it.
  int64_t depth = options.pipelineDepth;
  int64_t tileK = strategy.loweringConfig.getTileSizes(0)[shape->kPos];
  if (!ShapedType::isDynamic(shape->k()) && tileK > 0)
    depth = std::min(depth, std::max<int64_t>(ceilDiv(shape->k(), tileK), 1));
  strategy.translationInfo = TranslationInfoAttr::get(
      info.getContext(), info.getPipeline(), info.getWorkgroupSize(),
      info.getSubgroupSize(), depth, info.getStoreStage(), info.getMmaKind(),
      info.getWorkgroupGroupSize(), info.getPersistentWorkgroups(),
      info.getCluster(), info.getStagedStore(), info.getSplitK(),
      info.getStreamK());
  return strategy;
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

/// Checks that `depth` stages of the tileM x tileN x tileK tile fit into
/// the target's opt-in shared memory per workgroup.
static LogicalResult
verifyTensorCoreSharedMemory(linalg::LinalgOp op, const MatmulShape &shape,
                             MmaKind kind, int64_t tileM, int64_t tileN,
                             int64_t tileK, int64_t depth, TargetAttr target) {
  TensorCoreSharedMemory bytes =
      getTensorCoreSharedMemory(op, shape, kind, tileM, tileN, tileK, depth);
  int64_t limit = target.getMaxSharedMemoryPerBlockOptin();
  if (bytes.total() <= limit)
    return success();
  return op.emitOpError()
         << "needs " << bytes.total() << " bytes of shared memory, more than "
         << "the " << limit << " bytes " << target.getChip()
         << " allows per workgroup (max_shared_memory_per_block_optin): "
         << "pipeline_depth " << depth << " x (A " << tileM << "x" << tileK
         << " + B " << tileK << "x" << tileN << " tiles) take "
         << bytes.operands << " bytes, and the " << tileM << "x" << tileN
         << " C tile staged for the store, "
         << (bytes.partialTiles
                 ? "which partial tiles' path keeps apart from their "
                   "operands, "
                 : "which reuses their bytes, ")
         << bytes.cStaging << " (rows padded by " << bytes.rowPadding
         << " bytes for " << stringifyMmaKind(kind) << ")";
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
  // Dynamic sizes are zero-padded at run time like partial tiles; only the
  // depth check below needs K.

  MmaKind kind = *info.getTensorCoreMmaKind();
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  int64_t tileM = level0[shape->mPos], tileN = level0[shape->nPos],
          tileK = level0[shape->kPos];
  if (tileM <= 0 || tileN <= 0 || tileK <= 0)
    return op.emitOpError()
           << "pipeline " << pipelineName
           << " needs positive workgroup tile sizes for M, N and K, got "
           << tileM << ", " << tileN << ", " << tileK;
  int64_t kSteps = ceilDiv(shape->k(), tileK);
  if (!ShapedType::isDynamic(shape->k()) && info.getPipelineDepth() > kSteps)
    return op.emitOpError()
           << "pipeline_depth " << info.getPipelineDepth() << " exceeds the "
           << kSteps << " K steps (K = " << shape->k() << ", K tile "
           << tileK << "); software pipelining needs a K step per stage";

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
           << " operands: gpucg's " << stringifyMmaKind(kind)
           << " lowering handles " << describeTensorCoreOperands(kind)
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

  return verifyTensorCoreSharedMemory(op, *shape, kind, tileM, tileN, tileK,
                                      info.getPipelineDepth(), target);
}

static LogicalResult verifyMatmulSimtStrategy(linalg::LinalgOp op,
                                              const LoweringStrategy &strategy,
                                              TargetAttr target) {
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
  // Pipelined K loops: a stage per K step at most, all in workgroup memory.
  int64_t depth = strategy.translationInfo.getPipelineDepth();
  int64_t tileK = level0[shape->kPos];
  if (depth > 1) {
    if (depth > shape->k() / tileK)
      return op.emitOpError()
             << "pipeline_depth " << depth << " exceeds the "
             << shape->k() / tileK << " K steps (K = " << shape->k()
             << ", tile " << tileK << ")";
    int64_t bytes =
        mulSat(depth, getSimtMatmulStageBytes(*shape, tileM, tileN, tileK));
    if (bytes > target.getMaxSharedMemoryPerBlockOptin())
      return op.emitOpError()
             << "pipeline_depth " << depth << " needs " << bytes
             << " bytes of workgroup memory for its A and B tiles (" << tileM
             << "x" << tileK << " and " << tileK << "x" << tileN
             << " per stage); " << target.getChip() << " allows at most "
             << target.getMaxSharedMemoryPerBlockOptin();
  }
  return success();
}

static LogicalResult
verifyWarpReductionStrategy(linalg::LinalgOp op,
                            const LoweringStrategy &strategy, TargetAttr target,
                            bool deterministicReductions) {
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
  if (failed(matchRowReduction(op)))
    return op.emitOpError()
           << "pipeline WarpReduction needs a body whose value is combined "
              "with the accumulator by one op that gpu.subgroup_reduce "
              "performs (add, mul, min, max, and, or, xor)";
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  for (unsigned pos = 0; pos + 1 < numLoops; ++pos)
    if (level0[pos] != 1)
      return op.emitOpError()
             << "pipeline WarpReduction reduces one row per workgroup, but "
                "the level-0 tile of parallel loop "
             << pos << " is " << level0[pos] << " (expected 1)";
  int64_t rowSize = op.getStaticLoopRanges().back();
  int64_t tile = level0.back();
  // A row of a run-time size is reduced whole by its workgroup (level 0 of
  // the reduction loop 0: untiled).
  if (ShapedType::isDynamic(rowSize)) {
    if (tile != 0)
      return op.emitOpError()
             << "pipeline WarpReduction reduces a row of a run-time size "
                "whole in one workgroup: the level-0 tile of its reduction "
                "loop must be 0 (untiled), got "
             << tile;
    return success();
  }
  if (tile <= 0 || rowSize % tile != 0)
    return op.emitOpError()
           << "pipeline WarpReduction needs a reduction size that is a "
              "multiple of its tile, got size "
           << rowSize << " and tile " << tile;
  ArrayRef<int64_t> level1 = strategy.loweringConfig.getTileSizes(1);
  if (!level1.empty() && level1.back() > 0 && tile % level1.back() != 0)
    return op.emitOpError()
           << "pipeline WarpReduction gives each workgroup " << tile
           << " elements of a row (level-0 tile of the reduction loop), not "
              "a multiple of the "
           << level1.back() << " its threads read per step (level-1 tile)";
  if (tile == rowSize)
    return success();
  // A row split across workgroups.
  int64_t split = rowSize / tile;
  std::string reason = whyRowsCannotSplit(op, deterministicReductions);
  if (!reason.empty())
    return op.emitOpError()
           << "pipeline WarpReduction would split each row of " << rowSize
           << " elements across " << split << " workgroups (level-0 tile "
           << tile << " of the reduction loop), but " << reason
           << "; give the whole row (" << rowSize << ") as its level-0 tile";
  unsigned splitDim = op.getNumParallelLoops();
  if (split > kMaxGridSize[splitDim])
    return op.emitOpError()
           << "pipeline WarpReduction would split each row of " << rowSize
           << " elements across " << split << " workgroups along grid "
           << "xyz"[splitDim] << " (level-0 tile " << tile
           << " of the reduction loop); CUDA grids have at most "
           << kMaxGridSize[splitDim];
  return success();
}

static LogicalResult verifyVectorizeStrategy(linalg::LinalgOp op,
                                             const LoweringStrategy &strategy) {
  // Given level-1 sizes are taken as they are (the distribution is cyclic);
  // without them, each thread's tile is its equal share of the workgroup's.
  if (strategy.loweringConfig.getNumLevels() >= 2)
    return success();
  ArrayRef<int64_t> level0 = strategy.loweringConfig.getTileSizes(0);
  ArrayRef<int64_t> workgroup = strategy.translationInfo.getWorkgroupSize();
  for (auto [dim, pos] :
       llvm::enumerate(getDistributedParallelLoops(op, level0)))
    if (level0[pos] % workgroup[dim] != 0)
      return op.emitOpError()
             << "workgroup tile " << level0[pos] << " of loop " << pos
             << " does not split evenly over the " << workgroup[dim]
             << " threads of workgroup_size " << formatList(workgroup)
             << "; pipeline Vectorize without level-1 (per-thread) tile "
                "sizes needs a multiple";
  return success();
}

/// Checks the split-K of `strategy` (a plan whose tiles the pipeline's own
/// checks accepted) against the kernel and its K steps.
static LogicalResult verifySplitK(linalg::LinalgOp rootOp,
                                  const LoweringStrategy &strategy) {
  TranslationInfoAttr info = strategy.translationInfo;
  LoweringConfigAttr config = strategy.loweringConfig;
  if (info.getSplitK() == 1)
    return success();
  std::string reason = whyNoSplitK(rootOp, strategy, info.getSplitK());
  if (!reason.empty())
    return rootOp.emitOpError() << "cannot split K into " << info.getSplitK()
                                << " parts (split_k): " << reason;
  MatmulShape shape = *getMatmulShape(rootOp);
  int64_t steps =
      ceilDiv(getPlannedSplitKPart(rootOp, strategy, info.getSplitK()),
              config.getTileSizes(0)[shape.kPos]);
  if (info.getPipelineDepth() > steps)
    return rootOp.emitOpError()
           << "has pipeline_depth = " << info.getPipelineDepth()
           << ", more stages than the " << steps << " K steps of each of its "
           << info.getSplitK() << " parts of K (split_k)";
  return success();
}

LogicalResult mlir::gpucg::verifyLoweringStrategy(
    linalg::LinalgOp rootOp, const LoweringStrategy &strategy,
    TargetAttr target, const StrategyOptions &options) {
  TranslationInfoAttr info = strategy.translationInfo;
  LoweringConfigAttr config = strategy.loweringConfig;
  StringRef pipelineName = stringifyPipeline(info.getPipeline());
  if (info.getPipeline() == Pipeline::None)
    return success();
  if (isTensorCorePipeline(info.getPipeline())) {
    std::string precision = whyPrecisionRulesOutTensorCores(rootOp, options);
    if (!precision.empty())
      return rootOp.emitOpError()
             << "is planned for tensor-core pipeline " << pipelineName
             << ", but " << precision
             << "; plan it for pipeline MatmulSimt, or compile with "
                "f32-precision=tf32";
  }
  if (info.getPipeline() != Pipeline::WarpReduction && isRowProgramRoot(rootOp))
    return rootOp.emitOpError()
           << "reduces rows that other ops of its kernel read again (a "
              "second reduction of the same rows, or an op that reads its "
              "result once per row: softmax, RMSNorm, LayerNorm); only "
              "pipeline WarpReduction distributes such a kernel, not "
           << pipelineName
           << " (WarpReduction needs a combiner gpu.subgroup_reduce performs "
              "on at most 32 bits, and elements of whole bytes)";

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
  ArrayRef<int64_t> level0 = config.getTileSizes(0);
  // More than three tiled loops share grid z (workgroup tiling linearizes
  // them), which the ABI counts as a constant times at most
  // kMaxGridSizeTerms run-time sizes.
  if (tiledParallel > 3) {
    SmallVector<unsigned> dynamic;
    for (unsigned pos : getGridZLoops(rootOp, level0))
      if (ShapedType::isDynamic(rootOp.getStaticLoopRanges()[pos]))
        dynamic.push_back(pos);
    if (static_cast<int64_t>(dynamic.size()) > kMaxGridSizeTerms) {
      InFlightDiagnostic diag = rootOp.emitOpError();
      diag << "lowering_config level 0 tiles " << tiledParallel
           << " parallel loops; a grid has 3 dimensions, so the outer "
           << tiledParallel - 2
           << " share grid z, whose workgroups are counted as a constant "
              "times at most "
           << kMaxGridSizeTerms << " run-time sizes, and loops ";
      llvm::interleaveComma(dynamic, diag);
      return diag << " are dynamic (give all but " << kMaxGridSizeTerms
                  << " a static size, or pass the batches as fewer "
                     "dimensions)";
    }
  }
  if (std::optional<GridOverflow> overflow = findGridOverflow(rootOp, level0)) {
    InFlightDiagnostic diag = rootOp.emitOpError();
    diag << "lowering_config level 0 gives " << overflow->count
         << " workgroups along grid "
         << "xyz"[overflow->dim];
    if (overflow->shared.empty()) {
      diag << " (loop " << overflow->pos << " of size "
           << rootOp.getStaticLoopRanges()[overflow->pos] << ", tile "
           << level0[overflow->pos] << ")";
    } else {
      diag << " (loops ";
      llvm::interleaveComma(overflow->shared, diag);
      diag << " together, of sizes ";
      llvm::interleave(
          overflow->shared, diag,
          [&](unsigned pos) { diag << rootOp.getStaticLoopRanges()[pos]; },
          " x ");
      diag << " in tiles of ";
      llvm::interleave(
          overflow->shared, diag, [&](unsigned pos) { diag << level0[pos]; },
          " x ");
      diag << ")";
    }
    diag << "; CUDA grids have at most " << kMaxGridSize[overflow->dim];
    return diag;
  }

  switch (info.getPipeline()) {
  case Pipeline::MatmulTensorCore:
  case Pipeline::MatmulTensorCoreMmaSync:
    if (failed(verifyTensorCoreStrategy(rootOp, strategy, target)))
      return failure();
    return verifySplitK(rootOp, strategy);
  case Pipeline::MatmulSimt:
    return verifyMatmulSimtStrategy(rootOp, strategy, target);
  case Pipeline::MatmulWgmma:
    if (failed(verifyWgmmaStrategy(rootOp, strategy, target)))
      return failure();
    return verifySplitK(rootOp, strategy);
  case Pipeline::WarpReduction:
    return verifyWarpReductionStrategy(rootOp, strategy, target,
                                       options.deterministicReductions);
  case Pipeline::Vectorize:
    return verifyVectorizeStrategy(rootOp, strategy);
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
  if (pipeline == Pipeline::Vectorize) {
    if (config.getNumLevels() != 1)
      return strategy;
    ArrayRef<int64_t> level0 = config.getTileSizes(0);
    ArrayRef<int64_t> workgroup = info.getWorkgroupSize();
    SmallVector<int64_t> level1(level0.size(), 0);
    for (auto [dim, pos] :
         llvm::enumerate(getDistributedParallelLoops(rootOp, level0)))
      level1[pos] = level0[pos] / workgroup[dim];
    return LoweringStrategy{
        info, LoweringConfigAttr::get(
                  rootOp->getContext(),
                  ArrayRef<SmallVector<int64_t>>{SmallVector<int64_t>(level0),
                                                 level1})};
  }
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

//===----------------------------------------------------------------------===//
// The plan in words
//===----------------------------------------------------------------------===//

/// The report's words on a MatmulWgmma tile of `tileM` rows of `op` that
/// restages an operand, is computed as C^T = B^T * A^T
/// (wgmma::computesTransposed) or pads a small M to 64 rows: what the plan
/// does and why.
static void describeWgmmaTile(llvm::raw_ostream &os, linalg::LinalgOp op,
                              const MatmulShape &shape, int64_t tileM) {
  std::optional<WgmmaLayouts> layouts = getWgmmaLayouts(op);
  if (!layouts)
    return;
  if (layouts->isRestaged())
    os << "; " << shape.aType << " " << layouts->getRestagedOperandName()
       << " restaged K-major by the producer warpgroup (wgmma reads "
       << (shape.aType.isF32() ? "TF32" : "8-bit")
       << " operands K-major only): each tile loaded as it lies, then "
          "written K-major in shared memory";
  if (wgmma::isTransposedTile(tileM))
    os << "; small M: computed as C^T = B^T * A^T, the " << shape.m()
       << " rows as wgmma's N in a tile of " << tileM
       << ", the weights as its 64-row M";
  else if (!layouts->isNvgpuForm())
    os << "; A[k, m] times B[n, k] computed as C^T = B^T * A^T (MLIR 22's "
          "nvgpu.warpgroup.mma takes an M-contiguous A only with an "
          "N-contiguous B), the "
       << tileM << " rows of the tile as wgmma's N";
  if (ShapedType::isDynamic(shape.m()) || shape.m() >= kWgmmaM ||
      wgmma::isTransposedTile(tileM))
    return;
  os << "; small M: the " << shape.m() << (shape.m() == 1 ? " row" : " rows")
     << " padded to one " << tileM
     << "-row tile, which costs tensor-core time, not reads of B; ";
  if (!layouts->isNvgpuForm())
    os << "whole boxes of 64 columns of A[k, m] (wgmma's N-major B)";
  else if (layouts->aRestaged)
    os << "not transposed (C^T = B^T * A^T) as A[m, k] would be: a "
          "restaged A[k, m] is loaded in boxes of 128 bytes of M, more than "
          "its rows";
  else if (!layouts->aKContiguous)
    os << "not transposed (C^T = B^T * A^T) as A[m, k] would be: A[k, m] "
          "would be an N-major B of fewer than 64 columns";
  else
    os << "not transposed (C^T = B^T * A^T) as B[n, k] would be: B[k, n] "
          "would be wgmma's M-contiguous A, which nvgpu takes only with an "
          "N-contiguous B";
}

std::string mlir::gpucg::describePlan(linalg::LinalgOp rootOp,
                                      const LoweringStrategy &strategy,
                                      TargetAttr target,
                                      const StrategyOptions &options,
                                      ArrayRef<std::string> launchNotes) {
  TranslationInfoAttr info = strategy.translationInfo;
  LoweringConfigAttr config = strategy.loweringConfig;
  std::string text;
  llvm::raw_string_ostream os(text);
  auto func = rootOp->getParentOfType<FunctionOpInterface>();
  os << "plan of @" << (func ? func.getName() : StringRef("?"))
     << ": pipeline " << stringifyPipeline(info.getPipeline());
  std::optional<MmaKind> kind = info.getTensorCoreMmaKind();
  ArrayRef<int64_t> workgroup = info.getWorkgroupSize();
  auto joined = [&](ArrayRef<int64_t> sizes) {
    llvm::interleave(sizes, os, "x");
  };
  bool wgmma = info.getPipeline() == Pipeline::MatmulWgmma;
  if (kind) {
    os << " (" << stringifyMmaKind(*kind);
    if (config && config.getNumLevels() > 2) {
      os << " ";
      joined(config.getTileSizes(2));
    }
    os << ")";
  } else if (wgmma) {
    os << " (wgmma)";
  }
  if (!workgroup.empty()) {
    os << ", workgroup ";
    joined(workgroup);
    os << " threads";
  }
  if (config) {
    StringRef second = kind ? "warp" : wgmma ? "warpgroup" : "thread";
    for (unsigned level = 0, e = std::min<unsigned>(config.getNumLevels(), 2);
         level < e; ++level) {
      ArrayRef<int64_t> sizes = config.getTileSizes(level);
      if (sizes.empty())
        continue;
      os << ", " << (level == 0 ? StringRef("workgroup") : second)
         << " tile ";
      joined(sizes);
    }
  }
  if (info.getPipelineDepth() > 1)
    os << ", " << info.getPipelineDepth() << " stages";
  if (info.getStoreStage() != 1)
    os << ", store stage " << info.getStoreStage();
  if (std::optional<int64_t> workgroups = info.getPersistentWorkgroups())
    os << ", persistent grid of " << *workgroups << " workgroups";
  if (info.getStreamK())
    os << ", stream-K (the last waves' K steps split evenly over the "
          "workgroups, partial tiles added in workgroup order)";
  if (!info.getCluster().empty())
    os << ", clusters of " << info.getClusterM() << "x" << info.getClusterN()
       << " workgroups";
  if (info.getStagedStore())
    os << ", staged store";
  if (info.getSplitK() != 1)
    os << ", K split into " << info.getSplitK()
       << " parts (split-K, one workgroup each)";
  if (info.getWorkgroupGroupSize() != 1)
    os << ", workgroups in groups of " << info.getWorkgroupGroupSize()
       << " rows";
  os << " on " << target.getChip();
  std::optional<MatmulShape> shape = getMatmulShape(rootOp);
  if ((kind || wgmma) && shape && shape->aType.isF32())
    os << "; f32 operands as TF32 (10-bit mantissa, f32 accumulation)";
  if (!kind && !wgmma && shape)
    os << "; not on tensor cores: "
       << explainNoTensorCoreStrategy(rootOp, target, options);
  if (info.getPipeline() == Pipeline::SimtDistribute) {
    std::string scalar = whyNoElementwiseVectors(rootOp, target);
    if (!scalar.empty())
      os << "; one element per thread: " << scalar;
  }
  if (kind == MmaKind::MmaSync && shape && config && shape->isStatic()) {
    ArrayRef<int64_t> level0 = config.getTileSizes(0);
    for (const TensorCoreTile &tile : kSmallMTiles)
      if (level0.size() == rootOp.getNumLoops() &&
          level0[shape->mPos] == tile.m && level0[shape->nPos] == tile.n &&
          shape->m() < kTensorCoreTiles[0].m && workgroup.size() == 3 &&
          workgroup[0] == tile.warpsX * target.getWarpSize() &&
          workgroup[1] == tile.warpsY) {
        int64_t rowsOfTiles = ceilDiv(shape->m(), tile.m);
        os << "; small M: the " << shape->m() << " rows in ";
        if (rowsOfTiles == 1)
          os << "one row";
        else
          os << rowsOfTiles << " rows";
        os << " of " << tile.m << "x" << tile.n << " tiles on ";
        if (tile.warpsY == 1)
          os << tile.warpsX << " warps side by side along N";
        else
          os << tile.warpsY << "x" << tile.warpsX << " warps";
        os << ", so B is read " << (rowsOfTiles == 1 ? "once" : "once per row")
           << (info.getSplitK() > 1 ? " (each part of K its slice)" : "");
      }
  }
  if (wgmma && shape && config && config.getNumLevels() >= 1 &&
      config.getTileSizes(0).size() == rootOp.getNumLoops())
    describeWgmmaTile(os, rootOp, *shape, config.getTileSizes(0)[shape->mPos]);
  for (const std::string &note : launchNotes)
    os << "; " << note;
  return text;
}
