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
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/LoweringStrategy.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/TilingInterface.h"
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
/// Spin budget of each mbarrier try_wait before it retries (PTX's
/// suspend-time hint, as upstream's examples use).
static constexpr int64_t kTryWaitTicks = 10000000;
/// Alignment TMA destinations with 128-byte swizzle need (the swizzle
/// pattern repeats every 8 rows of 128 bytes).
static constexpr int64_t kSwizzledTileAlignment = 1024;
/// Alignment of a fused epilogue's staging buffer: 128-bit vector reads.
static constexpr int64_t kStagingAlignment = 16;
static constexpr int64_t kWarpgroupRows = wgmma::kTileRows;
static constexpr int64_t kMaxTmaBox = wgmma::kMaxBoxSize;
/// setmaxnreg sizes of a warp-specialized workgroup of one producer and two
/// consumer warpgroups (CUTLASS's: 40 + 2 x 232 of 65536 per 128 threads).
static constexpr uint32_t kProducerRegisters = 40;
/// The register split above is for at most wgmma::kMaxConsumers.
static constexpr uint32_t kConsumerRegisters = 232;
using wgmma::kMaxConsumers;

std::optional<WgmmaBLayout> mlir::gpucg::getWgmmaBLayout(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 3 || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[0] != utils::IteratorType::parallel ||
      iterators[1] != utils::IteratorType::parallel ||
      iterators[2] != utils::IteratorType::reduction)
    return std::nullopt;
  MLIRContext *ctx = op->getContext();
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(3, 0, results, ctx);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[0] != map({m, k}) || maps[2] != map({m, n}))
    return std::nullopt;
  if (maps[1] == map({k, n}))
    return WgmmaBLayout::NContiguous;
  if (maps[1] == map({n, k}))
    return WgmmaBLayout::KContiguous;
  return std::nullopt;
}

std::string mlir::gpucg::wgmma::whyNoElementTypes(Type a, Type b, Type c,
                                                  bool bKContiguous) {
  bool supported = a.isF16() || a.isBF16() || isFloat8(a);
  if (!supported || a != b || !c.isF32())
    return "MatmulWgmma takes two f16, two bf16, two f8E4M3FN or two f8E5M2 "
           "operands with an f32 accumulator";
  if (isFloat8(a) && !bKContiguous)
    return "MatmulWgmma multiplies 8-bit floats only with a K-contiguous B "
           "(B[n, k], A * B^T): wgmma transposes 16-bit operands only";
  return "";
}

std::string mlir::gpucg::whyNoWgmmaEpilogue(linalg::LinalgOp consumer,
                                            Value accumulator, int64_t rows,
                                            int64_t columns) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (consumer.getNumLoops() != 2 ||
      consumer.getNumParallelLoops() != consumer.getNumLoops()) {
    os << "it has " << consumer.getNumLoops() << " loops, "
       << consumer.getNumReductionLoops()
       << " of them reductions; a fused epilogue is elementwise over the "
          "tile's two dimensions";
    return text;
  }
  SmallVector<int64_t> ranges = consumer.getStaticLoopRanges();
  if (ranges != ArrayRef<int64_t>{rows, columns}) {
    os << "its loops run over " << ranges[0] << "x" << ranges[1] << ", not the "
       << rows << "x" << columns << " of the matmul's result";
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

namespace {
/// Where a workgroup's view of a kernel argument starts.
struct ArgumentView {
  BlockArgument argument;
  SmallVector<OpFoldResult> offsets;
};

/// The tile and operands of one MatmulWgmma root.
struct WgmmaMatmul {
  linalg::LinalgOp op;
  linalg::FillOp fill;
  ArgumentView a, b;
  Value c;
  int64_t tileM, tileN, tileK, k, stages;
  /// Consumer warpgroups of a warp-specialized workgroup (plus one
  /// producer); 0 when one warpgroup does everything.
  int64_t consumers;
  WgmmaBLayout bLayout;
  Type elementType;

  int64_t elementBytes() const {
    return llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
  }
  /// K of one wgmma instruction (16 for 16-bit operands, 32 for 8-bit).
  int64_t instructionK() const { return wgmma::getInstructionK(elementType); }
  int64_t aTileBytes() const { return tileM * tileK * elementBytes(); }
  /// An N-contiguous B is loaded in column chunks of one swizzled row each;
  /// a K-contiguous B in one box of tileN rows, like A.
  int64_t bChunkColumns() const {
    return bLayout == WgmmaBLayout::KContiguous
               ? tileN
               : kSwizzleBytes / elementBytes();
  }
  int64_t bChunkBytes() const {
    return tileK * bChunkColumns() * elementBytes();
  }
  int64_t numBChunks() const { return tileN / bChunkColumns(); }
  /// The box of one B chunk, outermost first (B's own dimensions).
  SmallVector<int64_t> bBox() const {
    if (bLayout == WgmmaBLayout::KContiguous)
      return {tileN, tileK};
    return {tileK, bChunkColumns()};
  }
  int64_t stageBytes() const {
    return aTileBytes() + numBChunks() * bChunkBytes();
  }
  int64_t numKTiles() const { return k / tileK; }
};
} // namespace

/// Returns the kernel argument `value` views and the view's offsets: the
/// argument itself, or one unit-stride memref.subview of it.
static FailureOr<ArgumentView> getArgumentView(Value value,
                                               FunctionOpInterface funcOp) {
  Block *entry = &funcOp.getFunctionBody().front();
  auto isKernelArgument = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == entry;
  };
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return failure();
  if (isKernelArgument(value)) {
    Builder b(value.getContext());
    return ArgumentView{
        cast<BlockArgument>(value),
        SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(0))};
  }
  auto subview = value.getDefiningOp<memref::SubViewOp>();
  if (!subview || !isKernelArgument(subview.getSource()) ||
      !llvm::all_of(subview.getStaticStrides(),
                    [](int64_t s) { return s == 1; }))
    return failure();
  return ArgumentView{cast<BlockArgument>(subview.getSource()),
                      subview.getMixedOffsets()};
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
  std::optional<WgmmaBLayout> bLayout = getWgmmaBLayout(op);
  if (!bLayout)
    return op.emitOpError()
           << "is not a matmul over loops (m, n, k); pipeline MatmulWgmma "
              "lowers C[m, n] += A[m, k] * B[k, n] or A[m, k] * B[n, k]";
  WgmmaMatmul matmul;
  matmul.op = op;
  matmul.bLayout = *bLayout;
  bool bKContiguous = *bLayout == WgmmaBLayout::KContiguous;
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
  int64_t threads = info.getNumThreads().value_or(0);
  matmul.consumers = wgmma::getConsumerWarpgroups(threads);
  if (threads % kWarpgroupThreads != 0 || threads == 0 ||
      matmul.consumers > kMaxConsumers ||
      (matmul.consumers &&
       matmul.tileM % (matmul.consumers * kWarpgroupRows) != 0))
    return op.emitOpError()
           << "has a workgroup of " << threads << " threads for an M tile of "
           << matmul.tileM
           << "; pipeline MatmulWgmma runs one warpgroup (128 threads), or "
              "one producer and one or two consumer warpgroups of 64 or 128 "
              "rows each";

  auto aType = dyn_cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto bType = dyn_cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto cType = dyn_cast<MemRefType>(op.getDpsInits()[0].getType());
  if (!aType || !bType || !cType || !aType.hasStaticShape() ||
      !bType.hasStaticShape() || !cType.hasStaticShape())
    return op.emitOpError() << "has operands of dynamic shape; pipeline "
                               "MatmulWgmma needs the workgroup's static tiles";
  matmul.elementType = aType.getElementType();
  std::string typeReason =
      wgmma::whyNoElementTypes(aType.getElementType(), bType.getElementType(),
                               cType.getElementType(), bKContiguous);
  if (!typeReason.empty())
    return op.emitOpError()
           << "computes " << cType.getElementType()
           << " += " << aType.getElementType() << " * "
           << bType.getElementType() << "; pipeline " << typeReason;
  matmul.k = aType.getDimSize(1);
  // The workgroup's views: its rows of A, its columns of B, all of K.
  int64_t bN = bType.getDimSize(bKContiguous ? 0 : 1);
  int64_t bK = bType.getDimSize(bKContiguous ? 1 : 0);
  if (aType.getDimSize(0) != matmul.tileM || bN != matmul.tileN ||
      bK != matmul.k ||
      cType.getShape() != ArrayRef<int64_t>{matmul.tileM, matmul.tileN})
    return op.emitOpError() << "has views " << aType << ", " << bType << " and "
                            << cType << " that are not its workgroup tile "
                            << matmul.tileM << "x" << matmul.tileN
                            << " with all of K; run "
                               "gpucg-tile-and-distribute-to-workgroups first";
  if (matmul.tileK * matmul.elementBytes() != kSwizzleBytes ||
      matmul.k % matmul.tileK != 0 || matmul.tileN % matmul.bChunkColumns())
    return op.emitOpError()
           << "has a K tile of " << matmul.tileK << " and an N tile of "
           << matmul.tileN << " for K = " << matmul.k << "; the TMA boxes "
           << "need a K tile of one 128-byte row ("
           << kSwizzleBytes / matmul.elementBytes()
           << " elements) dividing K and an N tile of whole rows";
  if (matmul.tileM > kMaxTmaBox || (bKContiguous && matmul.tileN > kMaxTmaBox))
    return op.emitOpError()
           << "has a " << matmul.tileM << "x" << matmul.tileN
           << " tile; its TMA boxes (A's, and a K-contiguous B's) have at "
              "most "
           << kMaxTmaBox << " rows";
  int64_t rows = matmul.tileM / std::max<int64_t>(matmul.consumers, 1);
  if (bKContiguous && rows != kWarpgroupRows)
    return op.emitOpError()
           << "multiplies a K-contiguous B (B[n, k]) one k"
           << matmul.instructionK()
           << " step at a time, which takes 64 rows per multiplying "
              "warpgroup, got "
           << rows;

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
  matmul.c = op.getDpsInits()[0];
  // The accumulator starts at zero in registers: the fill of C's tile right
  // before the matmul is what it replaces.
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || fill.getDpsInits()[0] != matmul.c || !isZeroFill(fill))
    return op.emitOpError()
           << "is not preceded by a linalg.fill of zero into its "
              "accumulator; a warpgroup accumulator starts at zero (nvgpu "
              "has no load of one)";
  matmul.fill = fill;
  return matmul;
}

namespace {
/// The ops of a MatmulWgmma tile after its matmul that consume the
/// accumulator: the multiplying warpgroups run them, element for element,
/// on the accumulator staged in workgroup memory.
struct WgmmaEpilogue {
  /// The fused elementwise ops, in program order.
  SmallVector<linalg::LinalgOp> ops;
  /// Ops to erase with the tile: no-op `memref.copy %x, %x` bufferization
  /// leaves after in-place consumers, and the deallocations of `buffers`.
  SmallVector<Operation *> leftovers;
  /// Buffers of the tile to erase after them: the accumulator's temporary,
  /// which the staging buffer replaces, and `temporaries`.
  SmallVector<Operation *> buffers;
  /// Temporaries of the tile that epilogue ops write and later ones read
  /// (the intermediate results of a chain of consumers): each piece gets
  /// a private buffer of its own instead.
  SmallVector<Value> temporaries;
  /// Whether the accumulator is a view of a kernel argument that must
  /// still receive the matmul's result (not a temporary of the tile): with
  /// `ops`, or alone for a staged store (WgmmaLaunchOptions::stagedStore).
  bool storesAccumulator = false;
  /// Elements each thread takes at a time: 16 bytes of the narrowest
  /// element type the ops read or write, so that their accesses are
  /// 128-bit vectors.
  int64_t vectorSize = 1;

  /// Whether the accumulator goes from registers straight to C: no op to
  /// run and no staged copy.
  bool empty() const { return ops.empty() && !storesAccumulator; }
};
} // namespace

/// The ops after `op` in its block, up to its terminator: the tile's ops
/// after the matmul. (Block::without_terminator decides what the terminator
/// is inside libMLIR.so, as isBlockTerminator in Utils.h does.)
static SmallVector<Operation *> getOpsAfter(Operation *op) {
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
    std::string reason =
        whyNoWgmmaEpilogue(consumer, c, matmul.tileM, matmul.tileN);
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
  if (epilogue.ops.empty())
    return epilogue;
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
  // A power of two: it divides the N tile (whole 64-element chunks).
  epilogue.vectorSize = static_cast<int64_t>(llvm::bit_floor(
      static_cast<uint64_t>(std::clamp<int64_t>(128 / narrowestBits, 1, 16))));
  return epilogue;
}

/// Returns `value` as an index value.
static Value toValue(OpBuilder &b, Location loc, OpFoldResult value) {
  return getValueOrCreateConstantIndexOp(b, loc, value);
}

namespace {
/// A thread-block cluster of `m x n` workgroups on neighbouring tiles (the
/// workgroup loop's M dimension on grid dimension `mDim`, N on `nDim`): the
/// `m` workgroups of a column of tiles share B's tile, each loading a
/// `1/m` slice of it and multicasting it to all `m`; the `n` of a row
/// share A's the same way.
struct WgmmaCluster {
  int64_t m = 1, n = 1;
  unsigned mDim = 1, nDim = 0;
  /// The workgroup loop's dimensions of M and N (-1: not clustered).
  int64_t mLoopDim = -1, nLoopDim = -1;
  /// On a persistent grid (one dimension, x) the `m x n` workgroups of a
  /// cluster are `m n` consecutive ones, N fastest.
  bool persistent = false;

  int64_t getSize() const { return m * n; }
  /// Sizes along grid x, y, z.
  SmallVector<int64_t> getShape() const {
    SmallVector<int64_t> shape(3, 1);
    if (persistent) {
      shape[0] = getSize();
      return shape;
    }
    shape[mDim] *= m;
    shape[nDim] *= n;
    return shape;
  }
  /// What one more position along `dim` adds to a workgroup's rank in the
  /// cluster (PTX %cluster_ctarank: x fastest).
  int64_t getRankStride(unsigned dim) const {
    SmallVector<int64_t> shape = getShape();
    if (persistent)
      return dim == mDim ? n : 1;
    int64_t stride = 1;
    for (unsigned d = 0; d < dim; ++d)
      stride *= shape[d];
    return stride;
  }
  /// Workgroups whose loads reach a workgroup, and whose loads it reaches:
  /// its row (n, itself included) and the rest of its column.
  int64_t getNumPeers() const { return m + n - 1; }
};
} // namespace

using wgmma::kSwizzleAtomRows;

/// The cluster of `info`'s plan for `matmul`: nullopt when its workgroups
/// run alone (no `cluster`, or one of 1 x 1); an error when the kernel
/// cannot take the cluster the plan asks for (the strategy plans one only
/// where it can): a kernel of one warpgroup (its thread 0 refills a stage
/// as soon as its own warps retire it), no workgroup loop, one whose tiles
/// are not its induction variables (the tiles a cluster shares must be the
/// neighbours the launch groups) or whose clustered dimensions are not on
/// grid x, y or z (a `#gpu.block<linear_dim_N>`), tile counts the cluster
/// does not divide, or slices of less than a swizzle atom.
static FailureOr<std::optional<WgmmaCluster>>
getCluster(TranslationInfoAttr info, const WgmmaMatmul &matmul,
           scf::ForallOp workgroupLoop, FunctionOpInterface funcOp) {
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
  if (matmul.consumers == 0)
    return refuse("a workgroup of one warpgroup has no producer warpgroup to "
                  "wait for the cluster's releases of a stage");
  if (!workgroupLoop)
    return refuse("it has no workgroup loop (an scf.forall over #gpu.block) "
                  "whose tiles a cluster would share");
  bool bKContiguous = matmul.bLayout == WgmmaBLayout::KContiguous;
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
  auto [mLoopDim, mTiles] = findLoopDim(matmul.a.offsets[0]);
  auto [nLoopDim, nTiles] = findLoopDim(matmul.b.offsets[bKContiguous ? 0 : 1]);
  for (auto [name, size, loopDim, tiles, dim, clusterLoopDim] :
       {std::tuple("M", cluster.m, mLoopDim, mTiles, &cluster.mDim,
                   &cluster.mLoopDim),
        std::tuple("N", cluster.n, nLoopDim, nTiles, &cluster.nDim,
                   &cluster.nLoopDim)}) {
    if (size == 1)
      continue;
    if (loopDim < 0)
      return refuse(Twine("its tile's offset along ") + name +
                    " is not an induction variable of a static dimension of "
                    "the workgroup loop (reordered workgroups keep no "
                    "cluster's neighbours together)");
    if (tiles % size != 0)
      return refuse(Twine("its ") + Twine(tiles) + " tiles along " + name +
                    " are not a multiple of " + Twine(size));
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
  int64_t bSliced = bKContiguous ? matmul.tileN : matmul.tileK;
  if (matmul.tileM % (cluster.n * kSwizzleAtomRows) != 0 ||
      bSliced % (cluster.m * kSwizzleAtomRows) != 0)
    return refuse("A's tile of " + Twine(matmul.tileM) + " rows or B's of " +
                  Twine(bSliced) + " does not split into slices of whole " +
                  Twine(kSwizzleAtomRows) + "-row swizzle atoms");
  return std::optional<WgmmaCluster>(cluster);
}

namespace {
/// A persistent grid: `workgroups` workgroups looping over the `tiles` of
/// the workgroup loop, tile t at index t % counts[0] along its first
/// dimension (M), t / counts[0] along the second.
struct PersistentGrid {
  int64_t workgroups = 0, tiles = 0;
  SmallVector<int64_t> lowerBounds, steps, counts;
  /// With clusters: the cluster's extent along each loop dimension. Each
  /// cluster loops over blocks of that many tiles (cluster tiles, in the
  /// same order as tiles), each of its workgroups taking its own tile of
  /// the block.
  SmallVector<int64_t> clusterShape;

  int64_t getClusterSize() const {
    int64_t size = 1;
    for (int64_t extent : clusterShape)
      size *= extent;
    return size;
  }

  /// The workgroup loop's induction variables for the tile at `positions`
  /// (one per loop dimension) of cluster tile `clusterTile`.
  SmallVector<Value> getClusterTileOffsets(OpBuilder &b, Location loc,
                                           Value clusterTile,
                                           ArrayRef<Value> positions) const {
    SmallVector<Value> offsets;
    Value rest = clusterTile;
    for (auto [lb, step, count, extent, position] :
         llvm::zip(lowerBounds, steps, counts, clusterShape, positions)) {
      Value countValue = arith::ConstantIndexOp::create(b, loc, count / extent);
      Value block = arith::RemUIOp::create(b, loc, rest, countValue);
      rest = arith::DivUIOp::create(b, loc, rest, countValue);
      Value index = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, block,
                                arith::ConstantIndexOp::create(b, loc, extent)),
          position);
      offsets.push_back(arith::AddIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, lb),
          arith::MulIOp::create(b, loc, index,
                                arith::ConstantIndexOp::create(b, loc, step))));
    }
    return offsets;
  }

  /// The workgroup loop's induction variables for tile `tileIndex`.
  SmallVector<Value> getTileOffsets(OpBuilder &b, Location loc,
                                    Value tileIndex) const {
    SmallVector<Value> offsets;
    Value rest = tileIndex;
    for (auto [lb, step, count] : llvm::zip(lowerBounds, steps, counts)) {
      Value countValue = arith::ConstantIndexOp::create(b, loc, count);
      Value position = arith::RemUIOp::create(b, loc, rest, countValue);
      rest = arith::DivUIOp::create(b, loc, rest, countValue);
      offsets.push_back(arith::AddIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, lb),
          arith::MulIOp::create(b, loc, position,
                                arith::ConstantIndexOp::create(b, loc, step))));
    }
    return offsets;
  }
};
} // namespace

/// The persistent grid of `info`'s plan over `workgroupLoop`: nullopt when
/// each tile keeps its own workgroup (no `persistent_workgroups`); an error
/// when the kernel cannot take the grid the plan asks for (the strategy
/// plans one only where it can): a kernel of one warpgroup (no producer
/// loads the next tile while it stores the last), no static workgroup loop,
/// workgroups that are not whole clusters, or no more tiles than
/// workgroups. Whether a fused epilogue's staging buffer fits beside the
/// ring is the strategy's budget (verifyLoweringStrategy).
static FailureOr<std::optional<PersistentGrid>>
getPersistentGrid(TranslationInfoAttr info, const WgmmaMatmul &matmul,
                  scf::ForallOp workgroupLoop, FunctionOpInterface funcOp,
                  std::optional<WgmmaCluster> &cluster) {
  std::optional<int64_t> workgroups = info.getPersistentWorkgroups();
  if (!workgroups)
    return std::optional<PersistentGrid>();
  auto refuse = [&](const Twine &why) {
    return funcOp.emitOpError()
           << "is planned on a persistent grid of " << *workgroups
           << " workgroups (persistent_workgroups), but " << why;
  };
  if (matmul.consumers == 0)
    return refuse("a workgroup of one warpgroup has no producer warpgroup to "
                  "load the next tile while it stores the last");
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
    if (grid.workgroups % grid.getClusterSize() != 0)
      return refuse("they are not whole clusters of " +
                    Twine(grid.getClusterSize()));
  }
  if (grid.workgroups >= grid.tiles)
    return refuse("the kernel has only " + Twine(grid.tiles) + " tiles");
  if (cluster)
    cluster->persistent = true;
  return std::optional<PersistentGrid>(grid);
}

// About 950 lines, and the next one to split (issue 36): one function
// because the stages it builds share one set of values — the host's tensor
// maps, the ring's byte offsets, the full, empty and peer barriers, the
// cluster placement, the phase arithmetic — which its lambdas capture. The
// split it waits for: a typed plan of those values (ring, barriers, roles,
// grid) built first, then one builder per stage (ring and barriers, TMA
// producer, consumer loop, epilogue or staged store, persistent grid), each
// taking the plan, with its own lit test. scripts/ptx-snapshot.py shows
// that such a split changes no kernel.
static LogicalResult rewriteWgmmaMatmul(RewriterBase &rewriter,
                                        const WgmmaMatmul &matmul,
                                        const WgmmaEpilogue &epilogue,
                                        FunctionOpInterface funcOp,
                                        scf::ForallOp workgroupLoop,
                                        std::optional<PersistentGrid> grid,
                                        std::optional<WgmmaCluster> cluster) {
  MLIRContext *ctx = rewriter.getContext();
  linalg::LinalgOp op = matmul.op;
  Location loc = op.getLoc();
  // The views the epilogue takes of its other operands follow the matmul:
  // they move before it, where the roles that run the epilogue are built.
  if (!epilogue.empty()) {
    SmallVector<Operation *> views;
    for (Operation *other : getOpsAfter(op))
      if (!llvm::is_contained(epilogue.ops, other) &&
          !llvm::is_contained(epilogue.leftovers, other) &&
          !llvm::is_contained(epilogue.buffers, other))
        views.push_back(other);
    for (Operation *view : views)
      rewriter.moveOpBefore(view, op);
  }
  Type elt = matmul.elementType;
  auto workgroupSpace = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  auto smemType = [&](ArrayRef<int64_t> shape, Type type) {
    return MemRefType::get(shape, type, MemRefLayoutAttrInterface(),
                           workgroupSpace);
  };
  auto tensorMapType = [&](ArrayRef<int64_t> box) {
    return nvgpu::TensorMapDescriptorType::get(
        ctx, smemType(box, elt), nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  };
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };

  // Host: the tensor maps, on the arguments, at the top of the function
  // (gpucg-build-gpu-launch keeps them outside the launch).
  SmallVector<int64_t> aBox = {matmul.tileM, matmul.tileK};
  SmallVector<int64_t> bBox = matmul.bBox();
  Block &entry = funcOp.getFunctionBody().front();
  rewriter.setInsertionPointToStart(&entry);
  auto createTensorMap = [&](BlockArgument arg, ArrayRef<int64_t> box) {
    auto type = cast<MemRefType>(arg.getType());
    Value unranked = memref::CastOp::create(
        rewriter, loc, UnrankedMemRefType::get(type.getElementType(), 0), arg);
    SmallVector<Value> boxSizes = llvm::map_to_vector(box, index);
    return nvgpu::TmaCreateDescriptorOp::create(
               rewriter, loc, tensorMapType(box), unranked, boxSizes)
        .getResult();
  };
  Value aMap = createTensorMap(matmul.a.argument, aBox);
  Value bMap = createTensorMap(matmul.b.argument, bBox);
  // In a cluster, a shared tile is loaded in slices of whole swizzle atoms
  // along its outer dimension (A's rows, B's rows of N or of K), through a
  // map of the slice's box; the warpgroup descriptors keep the whole
  // tile's map, whose box gives wgmma the tile's layout.
  int64_t aSlices = cluster ? cluster->n : 1;
  int64_t bSlices = cluster ? cluster->m : 1;
  SmallVector<int64_t> aSliceBox = {matmul.tileM / aSlices, matmul.tileK};
  SmallVector<int64_t> bSliceBox = bBox;
  bSliceBox[0] /= bSlices;
  Value aLoadMap =
      aSlices > 1 ? createTensorMap(matmul.a.argument, aSliceBox) : aMap;
  Value bLoadMap =
      bSlices > 1 ? createTensorMap(matmul.b.argument, bSliceBox) : bMap;

  // Workgroup memory: the ring of stages, at the top of the workgroup loop
  // (or of the function, for a kernel of one workgroup).
  if (workgroupLoop)
    rewriter.setInsertionPointToStart(workgroupLoop.getBody());
  else
    rewriter.setInsertionPointAfterValue(bMap);
  int64_t ringBytes = matmul.stages * matmul.stageBytes();
  Value ring = memref::AllocOp::create(
      rewriter, loc, smemType({ringBytes}, rewriter.getI8Type()),
      rewriter.getI64IntegerAttr(kSwizzledTileAlignment));
  // A fused epilogue's staging buffer: the f32 accumulator tile, rows
  // padded (see wgmma::kStagingRowPad), 16-byte aligned for vector reads;
  // the ring itself once every K step has retired, if it can hold it and
  // no loads follow (wgmma::isStagedInRing).
  Value staging;
  bool stagedInRing = !epilogue.empty() &&
                      wgmma::isStagedInRing(ringBytes, matmul.tileM,
                                            matmul.tileN, grid.has_value());
  if (!epilogue.empty()) {
    auto paddedType =
        smemType({matmul.tileM, matmul.tileN + wgmma::kStagingRowPad},
                 rewriter.getF32Type());
    Value padded = stagedInRing
                       ? memref::ViewOp::create(
                             rewriter, loc, paddedType, ring,
                             arith::ConstantIndexOp::create(rewriter, loc, 0),
                             ValueRange())
                             .getResult()
                       : memref::AllocOp::create(
                             rewriter, loc, paddedType,
                             rewriter.getI64IntegerAttr(kStagingAlignment))
                             .getResult();
    staging = memref::SubViewOp::create(
        rewriter, loc, padded,
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                               rewriter.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(matmul.tileM),
                               rewriter.getIndexAttr(matmul.tileN)},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                               rewriter.getIndexAttr(1)});
  }

  rewriter.setInsertionPoint(op);
  auto bTileType = smemType({matmul.tileK, matmul.tileN}, elt);
  auto barrierType =
      nvgpu::MBarrierGroupType::get(ctx, workgroupSpace, matmul.stages);
  Value c0 = index(0);
  Value stagesValue = index(matmul.stages);
  Value kTiles = index(matmul.numKTiles());
  Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value isLeader =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid, c0);
  // Full barriers: a stage's TMA bytes have landed. Empty barriers (warp
  // specialization only): every consumer thread has retired the stage.
  Value fullBarriers =
      nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierType);
  Value emptyBarriers;
  if (matmul.consumers)
    emptyBarriers = nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierType);
  // Peer barriers (clusters only): every producer whose multicasts reach
  // this workgroup has seen its own consumers release the stage.
  Value peerBarriers;
  if (cluster)
    peerBarriers = nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierType);

  // Byte offsets of a stage's A tile and B chunks in the ring.
  auto stageBase = [&](OpBuilder &b, Value stage) -> Value {
    return arith::MulIOp::create(
        b, loc, stage,
        arith::ConstantIndexOp::create(b, loc, matmul.stageBytes()));
  };
  auto view = [&](OpBuilder &b, Value base, int64_t offset,
                  MemRefType type) -> Value {
    Value bytes = arith::AddIOp::create(
        b, loc, base, arith::ConstantIndexOp::create(b, loc, offset));
    return memref::ViewOp::create(b, loc, type, ring, bytes, ValueRange());
  };

  // Before generic stores to a staging buffer in the ring: each thread
  // orders the async-proxy accesses of its stages (the TMA loads it waited
  // for, the wgmma reads of its groups, retired) before the generic ones
  // that follow (fence.proxy.async), then a barrier orders every thread's.
  auto fenceRing = [&](OpBuilder &b) {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  };

  // Thread 0 initialises the barriers: a full barrier's phase is one
  // arrival (the loader's expect_tx) and the TMA bytes; an empty barrier's
  // is one arrival of each consumer thread.
  scf::IfOp::create(rewriter, loc, isLeader, [&](OpBuilder &b, Location) {
    for (int64_t stage = 0; stage < matmul.stages; ++stage) {
      Value stageIndex = arith::ConstantIndexOp::create(b, loc, stage);
      nvgpu::MBarrierInitOp::create(b, loc, fullBarriers,
                                    arith::ConstantIndexOp::create(b, loc, 1),
                                    stageIndex, Value());
      if (matmul.consumers)
        nvgpu::MBarrierInitOp::create(
            b, loc, emptyBarriers,
            arith::ConstantIndexOp::create(
                b, loc, kWarpgroupThreads * matmul.consumers),
            stageIndex, Value());
      if (cluster)
        nvgpu::MBarrierInitOp::create(
            b, loc, peerBarriers,
            arith::ConstantIndexOp::create(b, loc, cluster->getNumPeers()),
            stageIndex, Value());
    }
    // Makes the initialised barriers visible to the TMA unit (the async
    // proxy) that completes their transactions, as CUTLASS does.
    NVVM::FenceMbarrierInitOp::create(b, loc);
    nvgpu::TmaPrefetchOp::create(b, loc, aLoadMap, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, bLoadMap, Value());
    scf::YieldOp::create(b, loc);
  });
  // In a cluster, no workgroup may multicast into another's stages or
  // arrive on its barriers before that one has initialised them: a barrier
  // of the whole cluster (which includes this workgroup's threads).
  if (cluster) {
    NVVM::ClusterArriveOp::create(rewriter, loc, rewriter.getUnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, loc, rewriter.getUnitAttr());
  } else {
    gpu::BarrierOp::create(rewriter, loc);
  }

  // Coordinates are innermost first: A[k, m], B[n, k].
  Value aRow = toValue(rewriter, loc, matmul.a.offsets[0]);
  Value aK = toValue(rewriter, loc, matmul.a.offsets[1]);
  bool bKContiguous = matmul.bLayout == WgmmaBLayout::KContiguous;
  Value bK = toValue(rewriter, loc, matmul.b.offsets[bKContiguous ? 1 : 0]);
  Value bColumn =
      toValue(rewriter, loc, matmul.b.offsets[bKContiguous ? 0 : 1]);
  // Where a workgroup is in its cluster: its position along M and N, the
  // multicast masks of its slices of A (to its row of the cluster) and of
  // B (to its column), and the ranks of its peers (WgmmaCluster).
  struct ClusterPlace {
    Value m, n, aMask, bMask;
    SmallVector<Value> peers;
  };
  // On a persistent grid: the position along M and along N, in its cluster,
  // of the workgroup `block` (its rank: block mod the cluster's size, N
  // fastest).
  auto getPersistentClusterPosition = [&](OpBuilder &b, Value block) {
    Value n = arith::ConstantIndexOp::create(b, loc, cluster->n);
    Value rank = arith::RemUIOp::create(
        b, loc, block,
        arith::ConstantIndexOp::create(b, loc, cluster->getSize()));
    return std::make_pair(arith::DivUIOp::create(b, loc, rank, n).getResult(),
                          arith::RemUIOp::create(b, loc, rank, n).getResult());
  };
  auto getClusterPlace = [&](OpBuilder &b) {
    ClusterPlace place;
    auto constant = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    auto position = [&](unsigned dim, int64_t size) -> Value {
      return arith::RemUIOp::create(
          b, loc,
          gpu::BlockIdOp::create(b, loc, static_cast<gpu::Dimension>(dim)),
          constant(size));
    };
    if (grid) {
      std::tie(place.m, place.n) = getPersistentClusterPosition(
          b, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
    } else {
      place.m = position(cluster->mDim, cluster->m);
      place.n = position(cluster->nDim, cluster->n);
    }
    int64_t mStride = cluster->getRankStride(cluster->mDim);
    int64_t nStride = cluster->getRankStride(cluster->nDim);
    auto rank = [&](Value m, Value n) -> Value {
      Value value = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, m, constant(mStride)),
          arith::MulIOp::create(b, loc, n, constant(nStride)));
      return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), value);
    };
    // A mask of `count` ranks `stride` apart, shifted to the workgroup's
    // row or column.
    auto mask = [&](int64_t count, int64_t stride, Value shift) -> Value {
      int64_t bits = 0;
      for (int64_t i = 0; i < count; ++i)
        bits |= int64_t(1) << (i * stride);
      Value shifted = arith::ShLIOp::create(b, loc, constant(bits), shift);
      return arith::IndexCastUIOp::create(b, loc, b.getI16Type(), shifted);
    };
    place.aMask =
        mask(cluster->n, nStride,
             arith::MulIOp::create(b, loc, place.m, constant(mStride)));
    place.bMask =
        mask(cluster->m, mStride,
             arith::MulIOp::create(b, loc, place.n, constant(nStride)));
    for (int64_t n = 0; n < cluster->n; ++n)
      place.peers.push_back(rank(place.m, constant(n)));
    for (int64_t d = 1; d < cluster->m; ++d)
      place.peers.push_back(
          rank(arith::RemUIOp::create(
                   b, loc, arith::AddIOp::create(b, loc, place.m, constant(d)),
                   constant(cluster->m)),
               place.n));
    return place;
  };

  // Loads K tile `kTile` into `stage`, completing on its full barrier;
  // in a cluster (`place`), this workgroup's slices of the tiles, each
  // multicast to the workgroups that share it.
  auto loadStage = [&](OpBuilder &b, Value stage, Value kTile, Value aRow,
                       Value bColumn, const ClusterPlace *place) {
    Value base = stageBase(b, stage);
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, loc, fullBarriers,
        arith::ConstantIndexOp::create(b, loc, matmul.stageBytes()), stage,
        Value());
    Value k = arith::MulIOp::create(
        b, loc, kTile, arith::ConstantIndexOp::create(b, loc, matmul.tileK));
    // Slice `slice` of `slices` of a tile whose rows (outermost, 128 bytes
    // each) start at `tileRow` and at byte `tileBytes` of the stage: its
    // first row, and its view in the stage.
    auto slice = [&](Value tileRow, int64_t tileBytes, int64_t rows,
                     int64_t slices, Value slice, ArrayRef<int64_t> box) {
      if (slices == 1)
        return std::make_pair(tileRow,
                              view(b, base, tileBytes, smemType(box, elt)));
      int64_t sliceRows = rows / slices;
      Value first = arith::MulIOp::create(
          b, loc, slice, arith::ConstantIndexOp::create(b, loc, sliceRows));
      Value bytes = arith::AddIOp::create(
          b, loc, base,
          arith::MulIOp::create(
              b, loc, first,
              arith::ConstantIndexOp::create(b, loc, kSwizzleBytes)));
      return std::make_pair(
          arith::AddIOp::create(b, loc, tileRow, first).getResult(),
          view(b, bytes, tileBytes, smemType(box, elt)));
    };
    auto [aFirstRow, aDestination] =
        slice(aRow, 0, matmul.tileM, aSlices, place ? place->n : Value(),
              aSlices > 1 ? ArrayRef<int64_t>(aSliceBox) : aBox);
    nvgpu::TmaAsyncLoadOp::create(
        b, loc, aDestination, fullBarriers, aLoadMap,
        ValueRange{arith::AddIOp::create(b, loc, aK, k), aFirstRow}, stage,
        aSlices > 1 ? place->aMask : Value(), Value());
    Value kB = arith::AddIOp::create(b, loc, bK, k);
    for (int64_t chunk = 0; chunk < matmul.numBChunks(); ++chunk) {
      Value column =
          arith::AddIOp::create(b, loc, bColumn,
                                arith::ConstantIndexOp::create(
                                    b, loc, chunk * matmul.bChunkColumns()));
      // B's rows are N (K contiguous) or K (N contiguous).
      auto [bFirstRow, bDestination] =
          slice(bKContiguous ? column : kB,
                matmul.aTileBytes() + chunk * matmul.bChunkBytes(), bBox[0],
                bSlices, place ? place->m : Value(),
                bSlices > 1 ? ArrayRef<int64_t>(bSliceBox) : bBox);
      nvgpu::TmaAsyncLoadOp::create(
          b, loc, bDestination, fullBarriers, bLoadMap,
          bKContiguous ? ValueRange{kB, bFirstRow}
                       : ValueRange{column, bFirstRow},
          stage, bSlices > 1 ? place->bMask : Value(), Value());
    }
  };

  // Waits until barrier `stage` of `group` has completed phase `phase` (its
  // parity: phases alternate).
  auto waitForPhase = [&](OpBuilder &b, Value group, Value stage, Value phase) {
    Value parity = arith::TruncIOp::create(
        b, loc, b.getI1Type(),
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), phase));
    nvgpu::MBarrierTryWaitParityOp::create(
        b, loc, group, parity,
        arith::ConstantIndexOp::create(b, loc, kTryWaitTicks), stage);
  };
  // The address of peer barrier `stage` in this workgroup's shared memory.
  auto getPeerBarrierPointer = [&](OpBuilder &b, Value stage) -> Value {
    Value local = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(),
                                               peerBarriers, stage);
    return LLVM::IntToPtrOp::create(
        b, loc,
        LLVM::LLVMPointerType::get(
            ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared)),
        local);
  };
  // One arrival on peer barrier `stage` of the cluster's workgroup of rank
  // `rank` (an i32; possibly this one): its address mapped to that
  // workgroup's shared memory (mapa), and an arrive at cluster scope
  // (nvgpu has no remote arrive).
  auto arriveOnPeer = [&](OpBuilder &b, Value stage, Value rank) {
    Value pointer = getPeerBarrierPointer(b, stage);
    Value remote = NVVM::MapaOp::create(
        b, loc,
        LLVM::LLVMPointerType::get(
            ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
        pointer, rank);
    NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                   NVVM::MemScopeKind::CLUSTER);
  };
  // Waits until peer barrier `stage` has completed phase `phase`, acquiring
  // at cluster scope: the arrivals are the peers' releases at cluster
  // scope, and the PTX memory model orders a release and an acquire only
  // when each one's scope includes the other's thread (nvgpu's wait is
  // CTA-scoped). try_wait gives up after a system-defined time: retry.
  auto waitForPeers = [&](OpBuilder &b, Value stage, Value phase) {
    Value pointer = getPeerBarrierPointer(b, stage);
    Value parity = arith::TruncIOp::create(
        b, loc, b.getI32Type(),
        arith::AndIOp::create(
            b, loc, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), phase),
            arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1)));
    scf::WhileOp::create(
        b, loc, TypeRange{}, ValueRange{},
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value done = NVVM::MBarrierTryWaitOp::create(
              b, loc, b.getI1Type(), pointer, parity, /*ticks=*/Value(),
              NVVM::MemScopeKind::CLUSTER);
          Value notDone = arith::XOrIOp::create(
              b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
          scf::ConditionOp::create(b, loc, notDone, ValueRange{});
        },
        [&](OpBuilder &b, Location loc, ValueRange) {
          scf::YieldOp::create(b, loc);
        });
  };
  // Accumulators are 64 rows each: MLIR 22's lowering of
  // warpgroup.mma.store places the second 64-row block of a taller one
  // N/2 rows (the elements a thread holds of the first) below the first,
  // not 64 (right only for N = 128), so a warpgroup of 128 rows keeps two.
  auto accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
      ctx,
      VectorType::get({kWarpgroupRows, matmul.tileN}, rewriter.getF32Type()));
  // wgmma ops (each its own group) per K step and accumulator block: one,
  // or one per wgmma K step (k16, or k32 for 8-bit floats) for a K-contiguous B
  // (see below).
  int64_t opsPerBlock = bKContiguous ? matmul.tileK / matmul.instructionK() : 1;
  // Waits for the stage of `kTile` to be full (its phase `kTile / stages`)
  // and returns its index.
  auto waitForStage = [&](OpBuilder &b, Value kTile) {
    Value stage = arith::RemUIOp::create(b, loc, kTile, stagesValue);
    waitForPhase(b, fullBarriers, stage,
                 arith::DivUIOp::create(b, loc, kTile, stagesValue));
    return stage;
  };
  // Multiplies the 64 rows of A from `aRow` in `stage` by its B into
  // `acc`, each wgmma group leaving at most `inFlight` in flight.
  auto multiply = [&](OpBuilder &b, Value stage, Value acc, Value aRow,
                      int64_t inFlight) -> Value {
    Value base = stageBase(b, stage);
    Value aBytes = arith::AddIOp::create(
        b, loc, base,
        arith::MulIOp::create(
            b, loc, aRow,
            arith::ConstantIndexOp::create(b, loc, kSwizzleBytes)));
    auto multiplyTiles = [&](Value acc, int64_t offset, MemRefType aType,
                             MemRefType bType, bool transposeB) -> Value {
      Value aDescriptor = nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, aType),
          view(b, aBytes, offset, aType), aMap);
      Value bDescriptor = nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bType),
          view(b, base, matmul.aTileBytes() + offset, bType), bMap);
      return nvgpu::WarpgroupMmaOp::create(
          b, loc, acc.getType(), aDescriptor, bDescriptor,
          static_cast<uint64_t>(inFlight), UnitAttr(),
          transposeB ? b.getUnitAttr() : UnitAttr(), acc);
    };
    // B is K x N with N contiguous: wgmma's transposed-B form, the whole K
    // tile in one op (nvgpu steps its descriptors 16 rows of B at a time).
    if (!bKContiguous)
      return multiplyTiles(acc, 0,
                           smemType({kWarpgroupRows, matmul.tileK}, elt),
                           bTileType, /*transposeB=*/true);
    // B is N x K with K contiguous, laid out like A: nvgpu would step B's
    // descriptor as for the other layout, so each K step is its own op on
    // descriptors 32 bytes further along both tiles' swizzled rows.
    auto aStepType = smemType({kWarpgroupRows, matmul.instructionK()}, elt);
    auto bStepType = smemType({matmul.instructionK(), matmul.tileN}, elt);
    int64_t stepBytes = wgmma::kInstructionKBytes;
    for (int64_t step = 0; step < opsPerBlock; ++step)
      acc = multiplyTiles(acc, step * stepBytes, aStepType, bStepType,
                          /*transposeB=*/false);
    return acc;
  };
  // The K loop of a warpgroup whose `rows` of the tile start at row
  // `firstRow`: `rows / 64` accumulators, each K step's groups leaving
  // the step's own in flight (with two or more stages) so that the step
  // before has retired when `afterStep` runs.
  // With two or more stages a K step's groups stay in flight while the next
  // step is issued, so when a step is issued the one before has retired;
  // with one stage every step retires at once, and frees its own stage.
  int64_t retiredLag = matmul.stages >= 2 ? 1 : 0;
  // `stepBase` (null: 0) numbers the steps across a persistent
  // workgroup's tiles: stages and phases run on from tile to tile.
  auto multiplyAllK = [&](OpBuilder &b, int64_t rows, Value firstRow,
                          Value stepBase,
                          function_ref<void(OpBuilder &, Value)> afterStep) {
    int64_t blocks = rows / kWarpgroupRows;
    int64_t inFlight = retiredLag * blocks * opsPerBlock;
    SmallVector<Value> inits;
    for (int64_t block = 0; block < blocks; ++block)
      inits.push_back(nvgpu::WarpgroupMmaInitAccumulatorOp::create(
          b, loc, accumulatorType));
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0), kTiles,
        arith::ConstantIndexOp::create(b, loc, 1), inits,
        [&](OpBuilder &b, Location, Value kTile, ValueRange iterArgs) {
          Value step =
              stepBase ? arith::AddIOp::create(b, loc, stepBase, kTile) : kTile;
          Value stage = waitForStage(b, step);
          SmallVector<Value> next;
          for (auto [block, acc] : llvm::enumerate(iterArgs)) {
            Value aRow = arith::AddIOp::create(
                b, loc, firstRow,
                arith::ConstantIndexOp::create(
                    b, loc, static_cast<int64_t>(block) * kWarpgroupRows));
            next.push_back(multiply(b, stage, acc, aRow, inFlight));
          }
          afterStep(b, step);
          scf::YieldOp::create(b, loc, next);
        });
    // The last groups must retire before their registers are read.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    return loop.getResults();
  };
  // Stores accumulator block `block` of warpgroup `warpgroup` (null: the
  // only one), whose `warpgroupRows` rows of the tile start at row
  // warpgroup * warpgroupRows. warpgroup.mma.store places each thread's
  // rows by its absolute thread id, 64 rows per warpgroup before it: the
  // view of C starts that much higher.
  auto store = [&](OpBuilder &b, Value acc, Value cTile, Value warpgroup,
                   int64_t warpgroupRows, int64_t block) {
    OpFoldResult row = b.getIndexAttr(block * kWarpgroupRows);
    if (warpgroup && warpgroupRows != kWarpgroupRows)
      row = arith::AddIOp::create(
                b, loc,
                arith::MulIOp::create(
                    b, loc, warpgroup,
                    arith::ConstantIndexOp::create(
                        b, loc, warpgroupRows - kWarpgroupRows)),
                arith::ConstantIndexOp::create(b, loc, block * kWarpgroupRows))
                .getResult();
    Value tile = memref::SubViewOp::create(
        b, loc, cTile, ArrayRef<OpFoldResult>{row, b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(kWarpgroupRows),
                               b.getIndexAttr(matmul.tileN)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    nvgpu::WarpgroupMmaStoreOp::create(b, loc, acc, tile);
  };

  // Runs `body` for this workgroup's tiles with the number of its first
  // K step and a mapping that gives each value of the workgroup loop's body
  // its value for the tile (see `forTile`): once for the workgroup's own
  // tile, or, in a persistent grid, in a loop over the tiles
  // `block + i * workgroups` (`block` a placeholder replaced by the new
  // workgroup loop's induction variable at the end).
  SmallVector<Value> blockPlaceholders;
  // A persistent grid in clusters: cluster `block / size` of the grid's
  // `workgroups / size` takes the cluster tiles `block / size + i *
  // clusters`, and its workgroup of rank `block mod size` (N fastest) the
  // tile at its place in each.
  auto forEachClusterTile =
      [&](OpBuilder &b, Value block,
          function_ref<void(OpBuilder &, Value, IRMapping &)> body) {
        IRMapping mapping;
        auto constant = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(b, loc, v);
        };
        int64_t size = grid->getClusterSize();
        Value clusters = constant(grid->workgroups / size);
        Value first = arith::DivUIOp::create(b, loc, block, constant(size));
        auto [m, n] = getPersistentClusterPosition(b, block);
        SmallVector<Value> positions(grid->counts.size(), constant(0));
        if (cluster->mLoopDim >= 0)
          positions[cluster->mLoopDim] = m;
        if (cluster->nLoopDim >= 0)
          positions[cluster->nLoopDim] = n;
        scf::ForOp::create(
            b, loc, first, constant(grid->tiles / size), clusters, ValueRange(),
            [&](OpBuilder &b, Location, Value clusterTile, ValueRange) {
              Value iteration = arith::DivUIOp::create(
                  b, loc, arith::SubIOp::create(b, loc, clusterTile, first),
                  clusters);
              Value stepBase = arith::MulIOp::create(b, loc, iteration, kTiles);
              mapping.map(
                  workgroupLoop.getInductionVars(),
                  grid->getClusterTileOffsets(b, loc, clusterTile, positions));
              body(b, stepBase, mapping);
              scf::YieldOp::create(b, loc);
            });
      };
  auto forEachTile =
      [&](OpBuilder &b,
          function_ref<void(OpBuilder &, Value, IRMapping &)> body) {
        IRMapping mapping;
        if (!grid) {
          body(b, Value(), mapping);
          return;
        }
        Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
        blockPlaceholders.push_back(block);
        if (cluster) {
          forEachClusterTile(b, block, body);
          return;
        }
        Value workgroups =
            arith::ConstantIndexOp::create(b, loc, grid->workgroups);
        scf::ForOp::create(
            b, loc, block, arith::ConstantIndexOp::create(b, loc, grid->tiles),
            workgroups, ValueRange(),
            [&](OpBuilder &b, Location, Value tileIndex, ValueRange) {
              Value iteration = arith::DivUIOp::create(
                  b, loc, arith::SubIOp::create(b, loc, tileIndex, block),
                  workgroups);
              Value stepBase = arith::MulIOp::create(b, loc, iteration, kTiles);
              mapping.map(workgroupLoop.getInductionVars(),
                          grid->getTileOffsets(b, loc, tileIndex));
              body(b, stepBase, mapping);
              scf::YieldOp::create(b, loc);
            });
      };
  // `value` for the tile of `mapping`: the ops of the workgroup loop's body
  // it depends on (views of the arguments at the tile's offsets), cloned
  // at `b`'s insertion point with the tile's induction variables.
  std::function<Value(OpBuilder &, Value, IRMapping &)> forTile =
      [&](OpBuilder &b, Value value, IRMapping &mapping) -> Value {
    if (Value mapped = mapping.lookupOrNull(value))
      return mapped;
    Operation *def = value.getDefiningOp();
    if (!grid || !def || def->getNumRegions() != 0 ||
        !workgroupLoop->isProperAncestor(def))
      return value;
    for (Value operand : def->getOperands())
      forTile(b, operand, mapping);
    Operation *clone = b.clone(*def, mapping);
    return clone->getResult(cast<OpResult>(value).getResultNumber());
  };

  // Waits until every thread of warpgroup `warpgroup` (null: the only one,
  // the whole workgroup) is here: a named barrier (1 + its index) of its
  // 128 threads, which the other warpgroups do not join.
  // Named barrier `id` (an i32) of `threads` threads, which the others
  // do not join (bar.sync id, threads).
  auto namedBarrier = [&](OpBuilder &b, Value id, int64_t threads) {
    NVVM::BarrierOp::create(
        b, loc, Type(), id,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), threads),
        NVVM::BarrierReductionAttr(), Value());
  };
  auto syncWarpgroup = [&](OpBuilder &b, Value warpgroup) {
    if (!warpgroup) {
      gpu::BarrierOp::create(b, loc);
      return;
    }
    namedBarrier(
        b,
        arith::IndexCastUIOp::create(
            b, loc, b.getI32Type(),
            arith::AddIOp::create(b, loc, warpgroup,
                                  arith::ConstantIndexOp::create(b, loc, 1))),
        kWarpgroupThreads);
  };
  // Runs the fused epilogue on the staged accumulator's `rows` rows from
  // `firstRow` of the tile of `mapping`: the warpgroup's thread `thread`
  // takes the pieces of `vectorSize` columns `thread, thread + 128, ...`,
  // consecutive threads along a row (coalesced 16-byte accesses), and runs
  // every op on each (gpucg-generic-vectorization makes them vectors).
  // Tiling a linalg op to a static piece does not fail; if it did, the
  // piece would be missing: the rewrite reports it.
  Operation *untiledEpilogueOp = nullptr;
  auto runEpilogue = [&](OpBuilder &b, IRMapping &mapping, Value firstRow,
                         int64_t rows, Value thread) {
    // The ops on the tile's operands, the accumulator read from the
    // staging buffer: templates for the pieces, erased below.
    // `sources`: the op each template stands for (the matmul for the copy).
    SmallVector<TilingInterface> templates;
    SmallVector<Operation *> sources;
    if (epilogue.storesAccumulator) {
      templates.push_back(cast<TilingInterface>(
          linalg::CopyOp::create(b, loc, staging, forTile(b, matmul.c, mapping))
              .getOperation()));
      sources.push_back(op);
    }
    for (linalg::LinalgOp epilogueOp : epilogue.ops) {
      IRMapping operands;
      for (Value operand : epilogueOp->getOperands())
        operands.map(operand,
                     operand == matmul.c ? staging
                     // Replaced by a private buffer per piece below.
                     : llvm::is_contained(epilogue.temporaries, operand)
                         ? operand
                         : forTile(b, operand, mapping));
      templates.push_back(
          cast<TilingInterface>(b.clone(*epilogueOp, operands)));
      sources.push_back(epilogueOp);
    }
    int64_t vectorSize = epilogue.vectorSize;
    int64_t piecesPerRow = matmul.tileN / vectorSize;
    scf::ForOp::create(
        b, loc, thread,
        arith::ConstantIndexOp::create(b, loc, rows * piecesPerRow),
        arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads), ValueRange(),
        [&](OpBuilder &b, Location, Value piece, ValueRange) {
          Value perRow = arith::ConstantIndexOp::create(b, loc, piecesPerRow);
          Value row = arith::AddIOp::create(
              b, loc, firstRow, arith::DivUIOp::create(b, loc, piece, perRow));
          Value column = arith::MulIOp::create(
              b, loc, arith::RemUIOp::create(b, loc, piece, perRow),
              arith::ConstantIndexOp::create(b, loc, vectorSize));
          // Each temporary's piece: a private 1 x vectorSize buffer.
          llvm::SmallDenseMap<Value, Value> privates;
          for (Value temporary : epilogue.temporaries)
            privates[temporary] = memref::AllocaOp::create(
                b, loc,
                MemRefType::get(
                    {1, vectorSize},
                    cast<MemRefType>(temporary.getType()).getElementType()));
          for (auto [epilogueOp, source] : llvm::zip(templates, sources)) {
            FailureOr<TilingResult> tiled = epilogueOp.getTiledImplementation(
                b, ArrayRef<OpFoldResult>{row, column},
                ArrayRef<OpFoldResult>{b.getIndexAttr(1),
                                       b.getIndexAttr(vectorSize)});
            if (failed(tiled)) {
              if (!untiledEpilogueOp)
                untiledEpilogueOp = source;
              continue;
            }
            for (Operation *tiledOp : tiled->tiledOps)
              for (OpOperand &operand : tiledOp->getOpOperands()) {
                auto slice = operand.get().getDefiningOp<memref::SubViewOp>();
                if (!slice || !privates.count(slice.getSource()))
                  continue;
                operand.set(privates[slice.getSource()]);
                if (slice->use_empty())
                  slice->erase();
              }
          }
          scf::YieldOp::create(b, loc);
        });
    for (TilingInterface epilogueOp : templates)
      epilogueOp->erase();
  };

  if (matmul.consumers == 0) {
    // One warpgroup does everything. Prologue: thread 0 fills every stage
    // that has a K tile.
    int64_t prologue = std::min(matmul.stages, matmul.numKTiles());
    scf::IfOp::create(rewriter, loc, isLeader, [&](OpBuilder &b, Location) {
      scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 0),
                         arith::ConstantIndexOp::create(b, loc, prologue),
                         arith::ConstantIndexOp::create(b, loc, 1),
                         ValueRange(),
                         [&](OpBuilder &b, Location, Value kTile, ValueRange) {
                           loadStage(b, kTile, kTile, aRow, bColumn,
                                     /*place=*/nullptr);
                           scf::YieldOp::create(b, loc);
                         });
      scf::YieldOp::create(b, loc);
    });

    // The K loop: once a step is issued, the step `retiredLag` before has
    // retired, and its stage is refilled.
    ValueRange accumulators = multiplyAllK(
        rewriter, matmul.tileM, c0, Value(), [&](OpBuilder &b, Value kTile) {
          // Every warp has retired K tile `kTile - retiredLag`: refill its
          // stage with the tile `stages` further on.
          gpu::BarrierOp::create(b, loc);
          Value retired = arith::SubIOp::create(
              b, loc, kTile,
              arith::ConstantIndexOp::create(b, loc, retiredLag));
          Value refill = arith::AddIOp::create(b, loc, retired, stagesValue);
          Value hasRetired = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::sge, kTile,
              arith::ConstantIndexOp::create(b, loc, retiredLag));
          Value hasTile = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, refill, kTiles);
          Value cond = arith::AndIOp::create(
              b, loc, isLeader,
              arith::AndIOp::create(b, loc, hasRetired, hasTile));
          scf::IfOp::create(b, loc, cond, [&](OpBuilder &b, Location) {
            loadStage(b, arith::RemUIOp::create(b, loc, retired, stagesValue),
                      refill, aRow, bColumn, /*place=*/nullptr);
            scf::YieldOp::create(b, loc);
          });
        });
    // Staged in the ring: every warp's groups must have retired, reading
    // the last stages, before any thread writes over them.
    if (stagedInRing) {
      fenceRing(rewriter);
      gpu::BarrierOp::create(rewriter, loc);
    }
    for (auto [block, acc] : llvm::enumerate(accumulators))
      store(rewriter, acc, staging ? staging : matmul.c, Value(), matmul.tileM,
            static_cast<int64_t>(block));
    if (staging) {
      syncWarpgroup(rewriter, Value());
      IRMapping mapping;
      runEpilogue(rewriter, mapping, c0, matmul.tileM, tid);
    }
  } else {
    // Warp specialization: warpgroups 0 .. consumers-1 multiply, each its
    // own `consumerRows` of the tile; the last warpgroup produces, its
    // thread 0 alone issuing TMA loads into stages the consumers released.
    int64_t consumerThreads = kWarpgroupThreads * matmul.consumers;
    int64_t consumerRows = matmul.tileM / matmul.consumers;
    Value isConsumer = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, tid, index(consumerThreads));
    // Registers move from the producer to the consumers (the producer needs
    // few; the sizes are CUTLASS's for one producer and two consumers).
    bool moveRegisters = matmul.consumers >= 2;
    scf::IfOp::create(
        rewriter, loc, isConsumer,
        [&](OpBuilder &b, Location) {
          if (moveRegisters)
            NVVM::SetMaxRegisterOp::create(
                b, loc, kConsumerRegisters,
                NVVM::SetMaxRegisterAction::increase);
          Value warpgroup = arith::DivUIOp::create(
              b, loc, tid,
              arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads));
          Value firstRow = arith::MulIOp::create(
              b, loc, warpgroup,
              arith::ConstantIndexOp::create(b, loc, consumerRows));
          forEachTile(b, [&](OpBuilder &b, Value stepBase, IRMapping &mapping) {
            ValueRange accumulators = multiplyAllK(
                b, consumerRows, firstRow, stepBase,
                [&](OpBuilder &b, Value kTile) {
                  // This thread's K tile `kTile - retiredLag` has retired:
                  // release its stage to the producer. (With one stage that is
                  // this step's: releasing the one before would leave the
                  // producer waiting for a stage the consumers wait to be
                  // refilled.)
                  auto release = [&](OpBuilder &b) {
                    Value retired = arith::SubIOp::create(
                        b, loc, kTile,
                        arith::ConstantIndexOp::create(b, loc, retiredLag));
                    nvgpu::MBarrierArriveOp::create(
                        b, loc, emptyBarriers,
                        arith::RemUIOp::create(b, loc, retired, stagesValue));
                  };
                  if (retiredLag == 0) {
                    release(b);
                    return;
                  }
                  Value hasRetired = arith::CmpIOp::create(
                      b, loc, arith::CmpIPredicate::ne, kTile,
                      arith::ConstantIndexOp::create(b, loc, 0));
                  scf::IfOp::create(b, loc, hasRetired,
                                    [&](OpBuilder &b, Location) {
                                      release(b);
                                      scf::YieldOp::create(b, loc);
                                    });
                });
            Value cTile = staging ? staging : forTile(b, matmul.c, mapping);
            // Staged in the ring: every consumer's groups must have
            // retired, reading the last stages, before any consumer
            // writes over them (a named barrier of all the consumers).
            if (stagedInRing) {
              fenceRing(b);
              // Ids 1 .. consumers are the warpgroups' own.
              namedBarrier(b,
                           arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                        1 + matmul.consumers),
                           consumerThreads);
            }
            for (auto [block, acc] : llvm::enumerate(accumulators))
              store(b, acc, cTile, warpgroup, consumerRows,
                    static_cast<int64_t>(block));
            if (staging) {
              // Each consumer runs the epilogue on its own rows, once all
              // its threads have stored theirs; in a persistent grid it
              // stores the next tile's only after all have read this one.
              syncWarpgroup(b, warpgroup);
              Value thread = arith::RemUIOp::create(
                  b, loc, tid,
                  arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads));
              runEpilogue(b, mapping, firstRow, consumerRows, thread);
              if (grid)
                syncWarpgroup(b, warpgroup);
            }
          });
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &b, Location) {
          if (moveRegisters)
            NVVM::SetMaxRegisterOp::create(
                b, loc, kProducerRegisters,
                NVVM::SetMaxRegisterAction::decrease);
          Value isProducer = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, tid,
              arith::ConstantIndexOp::create(b, loc, consumerThreads));
          scf::IfOp::create(b, loc, isProducer, [&](OpBuilder &b, Location) {
            std::optional<ClusterPlace> place;
            if (cluster)
              place = getClusterPlace(b);
            forEachTile(b, [&](OpBuilder &b, Value stepBase,
                               IRMapping &mapping) {
              Value tileRow = forTile(b, aRow, mapping);
              Value tileColumn = forTile(b, bColumn, mapping);
              scf::ForOp::create(
                  b, loc, arith::ConstantIndexOp::create(b, loc, 0), kTiles,
                  arith::ConstantIndexOp::create(b, loc, 1), ValueRange(),
                  [&](OpBuilder &b, Location, Value kTile, ValueRange) {
                    Value step =
                        stepBase
                            ? arith::AddIOp::create(b, loc, stepBase, kTile)
                            : kTile;
                    Value stage =
                        arith::RemUIOp::create(b, loc, step, stagesValue);
                    // From the second round on, wait until the consumers
                    // released the stage (phase round - 1 of its empty
                    // barrier).
                    Value round =
                        arith::DivUIOp::create(b, loc, step, stagesValue);
                    Value reused = arith::CmpIOp::create(
                        b, loc, arith::CmpIPredicate::ne, round,
                        arith::ConstantIndexOp::create(b, loc, 0));
                    scf::IfOp::create(
                        b, loc, reused, [&](OpBuilder &b, Location) {
                          Value lastRound = arith::SubIOp::create(
                              b, loc, round,
                              arith::ConstantIndexOp::create(b, loc, 1));
                          waitForPhase(b, emptyBarriers, stage, lastRound);
                          // In a cluster, the stage is free once every
                          // peer's consumers released it too: tell each
                          // peer this workgroup's did, and wait for all.
                          // No peer can arrive for the next round before
                          // this round's phase completes here: each peer
                          // needs this workgroup's slice of the round
                          // (loaded after the wait) before its consumers
                          // release the stage again.
                          if (place) {
                            for (Value peer : place->peers)
                              arriveOnPeer(b, stage, peer);
                            waitForPeers(b, stage, lastRound);
                          }
                          scf::YieldOp::create(b, loc);
                        });
                    loadStage(b, stage, kTile, tileRow, tileColumn,
                              place ? &*place : nullptr);
                    scf::YieldOp::create(b, loc);
                  });
            });
            scf::YieldOp::create(b, loc);
          });
          scf::YieldOp::create(b, loc);
        });
  }
  if (untiledEpilogueOp)
    return untiledEpilogueOp->emitOpError()
           << "could not be tiled to the MatmulWgmma epilogue's pieces of 1x"
           << epilogue.vectorSize;
  rewriter.eraseOp(op);
  rewriter.eraseOp(matmul.fill);
  for (linalg::LinalgOp epilogueOp : epilogue.ops)
    rewriter.eraseOp(epilogueOp);
  // The tile's buffers last: their deallocations first.
  for (Operation *leftover : epilogue.leftovers)
    rewriter.eraseOp(leftover);
  for (Operation *buffer : epilogue.buffers)
    rewriter.eraseOp(buffer);
  if (grid) {
    // The workgroup loop becomes one over the persistent grid's
    // workgroups; the old induction variables only feed the tile views the
    // roles no longer use (given their first tile's values).
    rewriter.setInsertionPoint(workgroupLoop);
    auto persistentLoop = scf::ForallOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(grid->workgroups)},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)}, ValueRange(),
        rewriter.getArrayAttr(
            {gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)}));
    Block *body = persistentLoop.getBody();
    rewriter.eraseOp(body->getTerminator());
    rewriter.setInsertionPointToStart(body);
    Value workgroup = persistentLoop.getInductionVars().front();
    rewriter.mergeBlocks(workgroupLoop.getBody(), body,
                         grid->getTileOffsets(rewriter, loc, workgroup));
    for (Value placeholder : blockPlaceholders)
      rewriter.replaceOp(placeholder.getDefiningOp(), workgroup);
    rewriter.eraseOp(workgroupLoop);
    workgroupLoop = persistentLoop;
  }
  // The launch groups the workgroups into the clusters.
  if (cluster)
    ctx->getLoadedDialect<GpucgDialect>()->getClusterShapeAttrHelper().setAttr(
        workgroupLoop, rewriter.getDenseI64ArrayAttr(cluster->getShape()));
  return success();
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
    if (isa<linalg::FillOp>(other) && other.getNextNode() == root)
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
      getCluster(info, *matmul, workgroupLoop, funcOp);
  if (failed(cluster))
    return failure();
  FailureOr<std::optional<PersistentGrid>> grid =
      getPersistentGrid(info, *matmul, workgroupLoop, funcOp, *cluster);
  if (failed(grid))
    return failure();
  // A staged store: the plain kernel's epilogue is a copy of the staged
  // accumulator to C, in 16-byte pieces of f32. Only where the ring holds
  // the staging buffer: the strategy budgeted no other.
  if (info.getStagedStore()) {
    if (!epilogue->empty() ||
        !wgmma::isStagedInRing(matmul->stages * matmul->stageBytes(),
                               matmul->tileM, matmul->tileN, grid->has_value()))
      return funcOp.emitOpError()
             << "is planned with a staged store (staged_store), but "
             << (!epilogue->empty()
                     ? "it has a fused epilogue, which stages the "
                       "accumulator itself"
                 : grid->has_value()
                     ? "a persistent workgroup's ring holds the next "
                       "tile's loads"
                     : "its ring of stages cannot hold the staging "
                       "buffer");
    epilogue->storesAccumulator = true;
    epilogue->vectorSize = 128 / 32;
  }
  return rewriteWgmmaMatmul(rewriter, *matmul, *epilogue, funcOp, workgroupLoop,
                            *grid, *cluster);
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
