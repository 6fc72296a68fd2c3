//===- WgmmaKernel.cpp - The stages of a MatmulWgmma kernel ---------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The builders of a MatmulWgmma kernel from its plan (WgmmaKernel.h), one
// per stage, in the order the kernel runs them. Each has a lit test that
// checks what it builds (test/Transforms/):
//
//   tensor maps     buildTensorMaps        lower-matmul-to-wgmma.mlir,
//                                          -cluster.mlir (slice maps)
//   ring, barriers  buildRing,             lower-matmul-to-wgmma-ring.mlir
//                   buildBarriers
//   TMA producer    loadStage,             lower-matmul-to-wgmma.mlir
//                   buildProducer,         (@matmul, @warp_specialized,
//                   getClusterPlace        @k_contiguous_b), -cluster.mlir
//   consumer loop   multiplyAllK,          lower-matmul-to-wgmma.mlir
//                   buildConsumers         (@matmul, @one_stage,
//                                          @warp_specialized, @k_contiguous_b)
//   store/epilogue  storeAccumulator,      lower-matmul-to-wgmma.mlir,
//                   runEpilogue            -epilogue.mlir
//   grid            forEachTile,           lower-matmul-to-wgmma-persistent
//                   buildPersistentLoop    .mlir, -cluster.mlir (PERSISTENT)
//   stream-K        forEachStreamKPart,    lower-matmul-to-wgmma-stream-k
//                   combineStreamKParts    .mlir
//
// The builders share one set of values (the tensor maps, the ring, the
// barriers, the tile's coordinates), which the builder object holds once
// built; a builder that needs one runs after the one that builds it.
// scripts/ptx-snapshot.py compares the PTX of every benchmark kernel
// before and after a change here.
//
//===----------------------------------------------------------------------===//

#include "WgmmaKernel.h"
#include "Utils.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/TilingInterface.h"

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
/// f32 elements of the 16-byte pieces split-K and stream-K workgroups
/// publish and add of the staged accumulator.
static constexpr int64_t kPartialPiece = 4;
static constexpr int64_t kWarpgroupRows = wgmma::kTileRows;
/// setmaxnreg sizes of a warp-specialized workgroup of one producer and two
/// consumer warpgroups (CUTLASS's: 40 + 2 x 232 of 65536 per 128 threads).
static constexpr uint32_t kProducerRegisters = 40;
/// The register split above is for at most wgmma::kMaxConsumers.
static constexpr uint32_t kConsumerRegisters = 232;

SmallVector<Value>
PersistentGrid::getClusterTileOffsets(OpBuilder &b, Location loc,
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

SmallVector<Value> PersistentGrid::getTileOffsets(OpBuilder &b, Location loc,
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

namespace {
/// The host's TMA tensor maps: the whole tiles' (which give the warpgroup
/// descriptors the tiles' layout) and the ones loads go through (a
/// cluster's slices; the same maps without a cluster).
struct TensorMaps {
  Value a, b, aLoad, bLoad;
};

/// The ring of stages and the accumulator's staging buffer (null when the
/// accumulator goes straight to C).
struct Ring {
  Value buffer, staging;
};

/// The ring's mbarrier groups, one barrier per stage. Full: a stage's TMA
/// bytes have landed (and, with a restaged operand, every producer thread
/// has written its K-major tile). Empty (warp specialization): every
/// consumer thread has retired the stage. Peer (clusters): every producer
/// whose multicasts reach this workgroup has seen its own consumers release
/// the stage. Loaded (a restaged operand): its load tile's TMA bytes have
/// landed.
struct Barriers {
  Value full, empty, peer, loaded;
};

/// Where the workgroup's tile starts in wgmma's A and B: its first row
/// (M) of A and column (N) of B, where K starts in each; and, for batched
/// operands, the first row of the tile's matrix of A and of B among their
/// batches' rows stacked, which the tensor maps read (null: not batched).
struct TileCoordinates {
  Value aRow, aK, bK, bColumn;
  Value aBase, bBase;
};

/// Where a workgroup is in its cluster: its position along M and N, the
/// multicast masks of its slices of A (to its row of the cluster) and of B
/// (to its column), and the ranks of its peers (WgmmaCluster).
struct ClusterPlace {
  Value m, n, aMask, bMask;
  SmallVector<Value> peers;
};

/// The K steps a workgroup runs of one tile: its K tiles `kBegin` up to
/// `kEnd` (null: all of K), K tile `k` being the workgroup's step `base +
/// k` (null base: `k`), so that stages and phases run on from tile to tile.
/// On a stream-K grid also the tile's index among the grid's tiles and the
/// workgroup's slot of partial sums for it.
struct TileSteps {
  Value base, kBegin, kEnd;
  Value tile, slot;
};

/// The body of one tile: given its K steps and the mapping of the workgroup
/// loop's values to the tile's.
using TileBody =
    function_ref<void(OpBuilder &, const TileSteps &, IRMapping &)>;

/// Builds the kernel of one plan; see the file comment for the stages.
class WgmmaKernelBuilder {
public:
  WgmmaKernelBuilder(RewriterBase &rewriter, const WgmmaKernelPlan &plan)
      : rewriter(rewriter), plan(plan), matmul(plan.matmul),
        epilogue(plan.epilogue), workgroupLoop(plan.workgroupLoop),
        ctx(rewriter.getContext()), loc(plan.matmul.op->getLoc()) {}

  LogicalResult build();

private:
  // Types and small helpers.
  MemRefType getWorkgroupMemRefType(ArrayRef<int64_t> shape, Type type) const;
  nvgpu::TensorMapDescriptorType getTensorMapType(ArrayRef<int64_t> box) const;
  Value getIndex(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  Value getStageBase(OpBuilder &b, Value stage) const;
  Value getRingView(OpBuilder &b, Value base, int64_t offset,
                    MemRefType type) const;

  // Stage 1, host: the TMA tensor maps.
  Value createTensorMap(const ArgumentView &view, ArrayRef<int64_t> box);
  void buildTensorMaps();
  // Stage 2: the ring, the staging buffer and the barriers.
  void hoistEpilogueViews();
  void buildRing();
  void buildBarriers();
  void buildTileCoordinates();
  // Stage 3: the TMA producer.
  std::pair<Value, Value> getPersistentClusterPosition(OpBuilder &b,
                                                       Value block) const;
  ClusterPlace getClusterPlace(OpBuilder &b) const;
  void loadStage(OpBuilder &b, Value stage, Value kTile,
                 const TileCoordinates &origin,
                 const ClusterPlace *place) const;
  void waitForPhase(OpBuilder &b, Value group, Value stage, Value phase) const;
  Value getPeerBarrierPointer(OpBuilder &b, Value stage) const;
  void arriveOnPeer(OpBuilder &b, Value stage, Value rank) const;
  void waitForPeers(OpBuilder &b, Value stage, Value phase) const;
  void restageTile(OpBuilder &b, Value base, const WgmmaOperandTile &tile,
                   int64_t tileOffset, int64_t loadOffset, Value thread) const;
  void restageStage(OpBuilder &b, Value stage, Value round, Value thread) const;
  void buildProducer(OpBuilder &b);
  // Stage 4: the consumers' K loop.
  Value waitForStage(OpBuilder &b, Value kTile) const;
  Value multiply(OpBuilder &b, Value stage, Value acc, Value aRow,
                 int64_t inFlight) const;
  ValueRange multiplyAllK(OpBuilder &b, int64_t rows, Value firstRow,
                          const TileSteps &steps,
                          function_ref<void(OpBuilder &, Value)> afterStep);
  std::pair<Value, Value> getKRange(OpBuilder &b, const TileSteps &steps) const;
  void releaseStage(OpBuilder &b, Value kTile) const;
  void buildConsumers(OpBuilder &b);
  // Stage 5: the store or the epilogue.
  void fenceRing(OpBuilder &b) const;
  void createNamedBarrier(OpBuilder &b, Value id, int64_t threads) const;
  void syncWarpgroup(OpBuilder &b, Value warpgroup) const;
  void storeAccumulator(OpBuilder &b, Value acc, Value cTile, Value warpgroup,
                        int64_t warpgroupRows, int64_t block) const;
  LogicalResult verifySplitK();
  LogicalResult verifyStreamK();
  void syncConsumers(OpBuilder &b) const;
  Value createArrivalFlag(OpBuilder &b) const;
  void
  forEachRegionPiece(OpBuilder &b, Value firstRow, int64_t rows, Value thread,
                     function_ref<void(OpBuilder &, Value, Value)> body) const;
  Value getPartialIndex(OpBuilder &b, Value slot, Value row,
                        Value column) const;
  void publishPartials(OpBuilder &b, Value partials, Value slot, Value firstRow,
                       int64_t rows, Value thread) const;
  void addPartials(OpBuilder &b, Value partials, Value count,
                   function_ref<Value(OpBuilder &, Value)> getSlot,
                   Value firstRow, int64_t rows, Value thread) const;
  void combineSplitKParts(OpBuilder &b, Value firstRow, int64_t rows,
                          Value thread,
                          function_ref<void(OpBuilder &)> inLastWorkgroup);
  void combineStreamKParts(OpBuilder &b, const TileSteps &steps, Value firstRow,
                           int64_t rows, Value thread,
                           function_ref<void(OpBuilder &)> inLastWorkgroup);
  std::pair<int64_t, int64_t> getConsumerRegion(int64_t rows) const;
  void runEpilogue(OpBuilder &b, IRMapping &mapping, Value firstRow,
                   int64_t rows, Value thread);
  void runEpiloguePiece(OpBuilder &b, ArrayRef<TilingInterface> templates,
                        ArrayRef<Operation *> sources, Value row, Value column,
                        int64_t vectorSize, bool alignedStores = false);
  Value isPieceAligned(OpBuilder &b, ArrayRef<TilingInterface> templates,
                       Value row, Value column) const;
  // Stage 6: the grid.
  void
  loopOverTiles(OpBuilder &b, Value first, Value end, Value stride,
                function_ref<SmallVector<Value>(OpBuilder &, Value)> getOffsets,
                TileBody body);
  void forEachClusterTile(OpBuilder &b, Value block, TileBody body);
  void forEachStreamKPart(OpBuilder &b, Value block, TileBody body);
  void forEachTile(OpBuilder &b, TileBody body);
  Value getForTile(OpBuilder &b, Value value, IRMapping &mapping) const;
  void buildPersistentLoop();
  // The roles.
  void buildOneWarpgroup();
  void buildWarpSpecialized();
  LogicalResult eraseMatchedOps();
  /// Marks `loop` (the workgroup loop) with the cluster's shape, which the
  /// launch groups its workgroups into.
  void setClusterShape(scf::ForallOp loop) const;

  RewriterBase &rewriter;
  const WgmmaKernelPlan &plan;
  const WgmmaMatmul &matmul;
  const WgmmaEpilogue &epilogue;
  /// The plan's, as a handle whose methods can be called.
  scf::ForallOp workgroupLoop;
  MLIRContext *ctx;
  Location loc;

  // Built by the stages, in this order.
  TensorMaps maps;
  Ring ring;
  Barriers barriers;
  /// At the matmul: index 0, thread id along x, whether it is thread 0,
  /// and the ring's stages and the K loop's steps as index values.
  Value zero, tid, isLeader, stagesValue, kTiles;
  TileCoordinates tile;
  nvgpu::WarpgroupAccumulatorType accumulatorType;
  /// Placeholders of the persistent grid's workgroup id, replaced by its
  /// loop's induction variable (buildPersistentLoop).
  SmallVector<Value> blockPlaceholders;
  /// The first epilogue op a piece could not be tiled from (reported).
  Operation *untiledEpilogueOp = nullptr;
};
} // namespace

//===----------------------------------------------------------------------===//
// Types and small helpers
//===----------------------------------------------------------------------===//

MemRefType WgmmaKernelBuilder::getWorkgroupMemRefType(ArrayRef<int64_t> shape,
                                                      Type type) const {
  auto workgroupSpace = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  return MemRefType::get(shape, type, MemRefLayoutAttrInterface(),
                         workgroupSpace);
}

nvgpu::TensorMapDescriptorType
WgmmaKernelBuilder::getTensorMapType(ArrayRef<int64_t> box) const {
  return nvgpu::TensorMapDescriptorType::get(
      ctx, getWorkgroupMemRefType(box, matmul.elementType),
      nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
}

/// The byte offset of `stage` in the ring.
Value WgmmaKernelBuilder::getStageBase(OpBuilder &b, Value stage) const {
  return arith::MulIOp::create(
      b, loc, stage,
      arith::ConstantIndexOp::create(b, loc, matmul.stageBytes()));
}

/// A view of type `type` of the ring at byte `base + offset`.
Value WgmmaKernelBuilder::getRingView(OpBuilder &b, Value base, int64_t offset,
                                      MemRefType type) const {
  Value bytes = arith::AddIOp::create(
      b, loc, base, arith::ConstantIndexOp::create(b, loc, offset));
  return memref::ViewOp::create(b, loc, type, ring.buffer, bytes, ValueRange());
}

//===----------------------------------------------------------------------===//
// Stage 1, host: the TMA tensor maps
//===----------------------------------------------------------------------===//

/// The tensor map of the argument `view` views, in boxes of `box`: of its
/// matrix, or of a batched argument's matrices as one, their rows stacked
/// (the batch dimensions collapsed into the rows; a box past a matrix's
/// last row reads the next one's, which only lands where
/// whyNoWgmma allows: past M or N, outside what the store writes).
Value WgmmaKernelBuilder::createTensorMap(const ArgumentView &view,
                                          ArrayRef<int64_t> box) {
  MemRefType type = view.getArgumentType();
  Value source = view.argument;
  if (view.isBatched()) {
    int64_t rank = type.getRank();
    SmallVector<ReassociationIndices> groups = {
        llvm::to_vector(llvm::seq<int64_t>(0, rank - 1)), {rank - 1}};
    source = memref::CollapseShapeOp::create(rewriter, loc, source, groups);
  }
  Value unranked = memref::CastOp::create(
      rewriter, loc, UnrankedMemRefType::get(type.getElementType(), 0), source);
  SmallVector<Value> boxSizes =
      llvm::map_to_vector(box, [&](int64_t size) { return getIndex(size); });
  return nvgpu::TmaCreateDescriptorOp::create(
             rewriter, loc, getTensorMapType(box), unranked, boxSizes)
      .getResult();
}

/// The tensor maps, on the arguments, at the top of the function
/// (gpucg-build-gpu-launch keeps them outside the launch). In a cluster, a
/// shared tile is loaded in slices of whole swizzle atoms along its boxes'
/// outer dimension (rows of M or N for a K-contiguous operand, of K
/// otherwise), through a map of the slice's box; the warpgroup descriptors
/// keep the whole tile's map, whose box gives wgmma the tile's layout.
///
/// A restaged operand's map is of its load tile (as the operand lies); its
/// descriptors, of a K-major tile, take that map all the same: a K-major
/// swizzled descriptor reads the swizzle from it (the leading byte offset,
/// from the box, is unused when one wgmma's K lies within a swizzled row).
void WgmmaKernelBuilder::buildTensorMaps() {
  rewriter.setInsertionPointToStart(&plan.funcOp->getRegion(0).front());
  maps.a = createTensorMap(matmul.a, matmul.getALoadTile().getBox());
  maps.b = createTensorMap(matmul.b, matmul.getBLoadTile().getBox());
  maps.aLoad = plan.getASlices() > 1
                   ? createTensorMap(matmul.a, plan.getASliceBox())
                   : maps.a;
  maps.bLoad = plan.getBSlices() > 1
                   ? createTensorMap(matmul.b, plan.getBSliceBox())
                   : maps.b;
}

//===----------------------------------------------------------------------===//
// Stage 2: the ring, the staging buffer and the barriers
//===----------------------------------------------------------------------===//

/// The views the epilogue takes of its other operands follow the matmul:
/// they move before it, where the roles that run the epilogue are built.
void WgmmaKernelBuilder::hoistEpilogueViews() {
  if (epilogue.empty())
    return;
  SmallVector<Operation *> views;
  for (Operation *other : getOpsAfter(matmul.op))
    if (!llvm::is_contained(epilogue.ops, other) &&
        !llvm::is_contained(epilogue.leftovers, other) &&
        !llvm::is_contained(epilogue.buffers, other))
      views.push_back(other);
  for (Operation *view : views)
    rewriter.moveOpBefore(view, matmul.op);
}

/// The ring of stages, at the top of the workgroup loop (or of the
/// function, for a kernel of one workgroup), and a staged accumulator's
/// buffer: the f32 tile, rows padded (see wgmma::kStagingRowPad), 16-byte
/// aligned for vector reads; the ring itself once every K step has retired,
/// if it can hold it and no loads follow (plan.isStagedInRing()).
void WgmmaKernelBuilder::buildRing() {
  if (workgroupLoop)
    rewriter.setInsertionPointToStart(workgroupLoop.getBody());
  else
    rewriter.setInsertionPointAfterValue(maps.b);
  ring.buffer = memref::AllocOp::create(
      rewriter, loc,
      getWorkgroupMemRefType({plan.getRingBytes()}, rewriter.getI8Type()),
      rewriter.getI64IntegerAttr(kSwizzledTileAlignment));
  if (!plan.isStaged())
    return;
  // In C's orientation (a transposed tile's accumulator is stored
  // transposed).
  auto paddedType = getWorkgroupMemRefType(
      {matmul.cTileRows(), matmul.cTileColumns() + wgmma::kStagingRowPad},
      rewriter.getF32Type());
  Value padded =
      plan.isStagedInRing()
          ? memref::ViewOp::create(
                rewriter, loc, paddedType, ring.buffer,
                arith::ConstantIndexOp::create(rewriter, loc, 0), ValueRange())
                .getResult()
          : memref::AllocOp::create(
                rewriter, loc, paddedType,
                rewriter.getI64IntegerAttr(kStagingAlignment))
                .getResult();
  ring.staging = memref::SubViewOp::create(
      rewriter, loc, padded,
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                             rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(matmul.cTileRows()),
                             rewriter.getIndexAttr(matmul.cTileColumns())},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(1)});
}

/// At the matmul: the barriers (Barriers), which thread 0 initialises — a
/// full barrier's phase is one arrival (the loader's expect_tx) and the TMA
/// bytes, with a restaged operand also one arrival of each producer thread,
/// an empty barrier's one arrival of each consumer thread, a peer
/// barrier's one of each peer, a loaded barrier's the loader's and the
/// restaged TMA bytes — before any thread uses them.
void WgmmaKernelBuilder::buildBarriers() {
  rewriter.setInsertionPoint(matmul.op);
  auto barrierType = nvgpu::MBarrierGroupType::get(
      ctx,
      gpu::AddressSpaceAttr::get(ctx,
                                 gpu::GPUDialect::getWorkgroupAddressSpace()),
      matmul.stages);
  zero = getIndex(0);
  stagesValue = getIndex(matmul.stages);
  kTiles = matmul.getNumKTiles(rewriter, loc);
  tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  isLeader =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid, zero);
  barriers.full = nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierType);
  if (plan.isWarpSpecialized())
    barriers.empty =
        nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierType);
  if (plan.cluster)
    barriers.peer = nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierType);
  bool restaged = matmul.layouts.isRestaged();
  if (restaged)
    barriers.loaded =
        nvgpu::MBarrierCreateOp::create(rewriter, loc, barrierType);

  scf::IfOp::create(rewriter, loc, isLeader, [&](OpBuilder &b, Location) {
    for (int64_t stage = 0; stage < matmul.stages; ++stage) {
      Value stageIndex = arith::ConstantIndexOp::create(b, loc, stage);
      nvgpu::MBarrierInitOp::create(
          b, loc, barriers.full,
          arith::ConstantIndexOp::create(b, loc,
                                         restaged ? 1 + kWarpgroupThreads : 1),
          stageIndex, Value());
      if (restaged)
        nvgpu::MBarrierInitOp::create(b, loc, barriers.loaded,
                                      arith::ConstantIndexOp::create(b, loc, 1),
                                      stageIndex, Value());
      if (plan.isWarpSpecialized())
        nvgpu::MBarrierInitOp::create(
            b, loc, barriers.empty,
            arith::ConstantIndexOp::create(
                b, loc, kWarpgroupThreads * matmul.consumers),
            stageIndex, Value());
      if (plan.cluster)
        nvgpu::MBarrierInitOp::create(
            b, loc, barriers.peer,
            arith::ConstantIndexOp::create(b, loc, plan.cluster->getNumPeers()),
            stageIndex, Value());
    }
    // Makes the initialised barriers visible to the TMA unit (the async
    // proxy) that completes their transactions, as CUTLASS does.
    NVVM::FenceMbarrierInitOp::create(b, loc);
    nvgpu::TmaPrefetchOp::create(b, loc, maps.aLoad, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, maps.bLoad, Value());
    scf::YieldOp::create(b, loc);
  });
  // In a cluster, no workgroup may multicast into another's stages or
  // arrive on its barriers before that one has initialised them: a barrier
  // of the whole cluster (which includes this workgroup's threads).
  if (plan.cluster) {
    NVVM::ClusterArriveOp::create(rewriter, loc, rewriter.getUnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, loc, rewriter.getUnitAttr());
  } else {
    gpu::BarrierOp::create(rewriter, loc);
  }
}

Value ArgumentView::getRows(OpBuilder &b, Location loc) const {
  int64_t rows = getRows();
  if (!ShapedType::isDynamic(rows))
    return arith::ConstantIndexOp::create(b, loc, rows);
  return memref::DimOp::create(b, loc, argument, offsets.size() - 2);
}

Value ArgumentView::getColumns(OpBuilder &b, Location loc) const {
  int64_t columns = getColumns();
  if (!ShapedType::isDynamic(columns))
    return arith::ConstantIndexOp::create(b, loc, columns);
  return memref::DimOp::create(b, loc, argument, offsets.size() - 1);
}

Value WgmmaMatmul::getSize(OpBuilder &builder, Location loc, char dim) const {
  int64_t size = dim == 'm' ? m : dim == 'n' ? n : k;
  if (!ShapedType::isDynamic(size))
    return arith::ConstantIndexOp::create(builder, loc, size);
  // A's rows are M (K contiguous in memory) or K, B's N or K.
  if (dim == 'n')
    return layouts.isBHeldKContiguous() ? b.getRows(builder, loc)
                                        : b.getColumns(builder, loc);
  bool rows = (dim == 'm') == layouts.isAHeldKContiguous();
  return rows ? a.getRows(builder, loc) : a.getColumns(builder, loc);
}

Value WgmmaMatmul::getNumKTiles(OpBuilder &builder, Location loc) const {
  if (!ShapedType::isDynamic(k))
    return arith::ConstantIndexOp::create(builder, loc,
                                          llvm::divideCeil(k, tileK));
  return arith::CeilDivUIOp::create(
      builder, loc, getSize(builder, loc, 'k'),
      arith::ConstantIndexOp::create(builder, loc, tileK));
}

void WgmmaKernelBuilder::buildTileCoordinates() {
  auto toValue = [&](OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(rewriter, loc, value);
  };
  // A K-contiguous operand's rows are its M or N, its columns K; an M- or
  // N-contiguous one's the other way round.
  auto outerAndK = [&](const ArgumentView &view, bool kContiguous) {
    return kContiguous ? std::make_pair(toValue(view.getRowOffset()),
                                        toValue(view.getColumnOffset()))
                       : std::make_pair(toValue(view.getColumnOffset()),
                                        toValue(view.getRowOffset()));
  };
  std::tie(tile.aRow, tile.aK) =
      outerAndK(matmul.a, matmul.layouts.isAHeldKContiguous());
  std::tie(tile.bColumn, tile.bK) =
      outerAndK(matmul.b, matmul.layouts.isBHeldKContiguous());
  // The batch's matrix, linearized over the batch dimensions (outermost
  // first; the tile's batch indices are in bounds), times the rows of one.
  auto getBase = [&](const ArgumentView &view) -> Value {
    if (!view.isBatched())
      return Value();
    size_t batchRank = view.offsets.size() - 2;
    SmallVector<Value> indices = llvm::map_to_vector(
        ArrayRef(view.offsets).take_front(batchRank), toValue);
    // (A dynamic batch size is the argument's at run time.)
    SmallVector<OpFoldResult> basis;
    for (auto [dim, size] : llvm::enumerate(
             view.getArgumentType().getShape().take_front(batchRank)))
      basis.push_back(ShapedType::isDynamic(size)
                          ? OpFoldResult(memref::DimOp::create(
                                             rewriter, loc, view.argument, dim)
                                             .getResult())
                          : OpFoldResult(rewriter.getIndexAttr(size)));
    Value index = affine::AffineLinearizeIndexOp::create(
        rewriter, loc, indices, basis, /*disjoint=*/true);
    return arith::MulIOp::create(rewriter, loc, index,
                                 view.getRows(rewriter, loc));
  };
  tile.aBase = getBase(matmul.a);
  tile.bBase = getBase(matmul.b);
}

//===----------------------------------------------------------------------===//
// Stage 3: the TMA producer
//===----------------------------------------------------------------------===//

/// On a persistent grid: the position along M and along N, in its cluster,
/// of the workgroup `block` (its rank: block mod the cluster's size, N
/// fastest).
std::pair<Value, Value>
WgmmaKernelBuilder::getPersistentClusterPosition(OpBuilder &b,
                                                 Value block) const {
  const WgmmaCluster &cluster = *plan.cluster;
  Value n = arith::ConstantIndexOp::create(b, loc, cluster.n);
  Value rank = arith::RemUIOp::create(
      b, loc, block, arith::ConstantIndexOp::create(b, loc, cluster.getSize()));
  return std::make_pair(arith::DivUIOp::create(b, loc, rank, n).getResult(),
                        arith::RemUIOp::create(b, loc, rank, n).getResult());
}

ClusterPlace WgmmaKernelBuilder::getClusterPlace(OpBuilder &b) const {
  const WgmmaCluster &cluster = *plan.cluster;
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
  if (plan.grid) {
    std::tie(place.m, place.n) = getPersistentClusterPosition(
        b, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  } else {
    place.m = position(cluster.mDim, cluster.m);
    place.n = position(cluster.nDim, cluster.n);
  }
  int64_t mStride = cluster.getRankStride(cluster.mDim);
  int64_t nStride = cluster.getRankStride(cluster.nDim);
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
  place.aMask = mask(cluster.n, nStride,
                     arith::MulIOp::create(b, loc, place.m, constant(mStride)));
  place.bMask = mask(cluster.m, mStride,
                     arith::MulIOp::create(b, loc, place.n, constant(nStride)));
  for (int64_t n = 0; n < cluster.n; ++n)
    place.peers.push_back(rank(place.m, constant(n)));
  for (int64_t d = 1; d < cluster.m; ++d)
    place.peers.push_back(
        rank(arith::RemUIOp::create(
                 b, loc, arith::AddIOp::create(b, loc, place.m, constant(d)),
                 constant(cluster.m)),
             place.n));
  return place;
}

/// Loads K tile `kTile` of the tile at `origin` into `stage`, completing on
/// its full barrier (a restaged operand's load tile on its loaded barrier);
/// in a cluster (`place`), this workgroup's slices of the tiles, each
/// multicast to the workgroups that share it.
void WgmmaKernelBuilder::loadStage(OpBuilder &b, Value stage, Value kTile,
                                   const TileCoordinates &origin,
                                   const ClusterPlace *place) const {
  Type elt = matmul.elementType;
  Value base = getStageBase(b, stage);
  nvgpu::MBarrierArriveExpectTxOp::create(
      b, loc, barriers.full,
      arith::ConstantIndexOp::create(b, loc, matmul.getDirectLoadBytes()),
      stage, Value());
  if (barriers.loaded)
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, loc, barriers.loaded,
        arith::ConstantIndexOp::create(b, loc, matmul.getRestagedLoadBytes()),
        stage, Value());
  Value k = arith::MulIOp::create(
      b, loc, kTile, arith::ConstantIndexOp::create(b, loc, matmul.tileK));
  // Each chunk of an operand's tile (WgmmaOperandTile) at `tileBytes` of
  // the stage, whose outer dimension (M or N) starts at `outer` and K at
  // `kStart` in a matrix whose first row in the map is `batchBase` (null:
  // not batched); in a cluster, slice `slice` of `slices` of each chunk's
  // box rows (`sliceBox`: whole 128-byte swizzle rows), multicast by
  // `mask`.
  auto loadTile = [&](const WgmmaOperandTile &operand, int64_t tileBytes,
                      bool restaged, Value outer, Value kStart, Value batchBase,
                      Value map, int64_t slices, ArrayRef<int64_t> sliceBox,
                      Value slice, Value mask) {
    Value barrier = restaged ? barriers.loaded : barriers.full;
    MemRefType sliceType = getWorkgroupMemRefType(sliceBox, elt);
    Value kIndex = arith::AddIOp::create(b, loc, kStart, k);
    for (int64_t chunk = 0; chunk < operand.getNumChunks(); ++chunk) {
      Value column =
          arith::AddIOp::create(b, loc, outer,
                                arith::ConstantIndexOp::create(
                                    b, loc, chunk * operand.getChunkColumns()));
      // The box's rows are M or N (K contiguous) or K.
      Value row = operand.kContiguous ? column : kIndex;
      Value inner = operand.kContiguous ? kIndex : column;
      Value bytes = base;
      int64_t offset = tileBytes + chunk * operand.getChunkBytes();
      if (slices > 1) {
        Value first = arith::MulIOp::create(
            b, loc, slice, arith::ConstantIndexOp::create(b, loc, sliceBox[0]));
        row = arith::AddIOp::create(b, loc, row, first);
        bytes = arith::AddIOp::create(
            b, loc, base,
            arith::MulIOp::create(
                b, loc, first,
                arith::ConstantIndexOp::create(b, loc, kSwizzleBytes)));
      }
      if (batchBase)
        row = arith::AddIOp::create(b, loc, batchBase, row);
      nvgpu::TmaAsyncLoadOp::create(
          b, loc, getRingView(b, bytes, offset, sliceType), barrier, map,
          ValueRange{inner, row}, stage, slices > 1 ? mask : Value(), Value());
    }
  };
  loadTile(matmul.getALoadTile(), matmul.getALoadOffset(),
           matmul.layouts.aRestaged, origin.aRow, origin.aK, origin.aBase,
           maps.aLoad, plan.getASlices(), plan.getASliceBox(),
           place ? place->n : Value(), place ? place->aMask : Value());
  loadTile(matmul.getBLoadTile(), matmul.getBLoadOffset(),
           matmul.layouts.bRestaged, origin.bColumn, origin.bK, origin.bBase,
           maps.bLoad, plan.getBSlices(), plan.getBSliceBox(),
           place ? place->m : Value(), place ? place->bMask : Value());
}

/// Waits until barrier `stage` of `group` has completed phase `phase` (its
/// parity: phases alternate).
void WgmmaKernelBuilder::waitForPhase(OpBuilder &b, Value group, Value stage,
                                      Value phase) const {
  Value parity = arith::TruncIOp::create(
      b, loc, b.getI1Type(),
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), phase));
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, group, parity,
      arith::ConstantIndexOp::create(b, loc, kTryWaitTicks), stage);
}

/// The address of peer barrier `stage` in this workgroup's shared memory.
Value WgmmaKernelBuilder::getPeerBarrierPointer(OpBuilder &b,
                                                Value stage) const {
  Value local = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(),
                                             barriers.peer, stage);
  return LLVM::IntToPtrOp::create(
      b, loc,
      LLVM::LLVMPointerType::get(
          ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared)),
      local);
}

/// One arrival on peer barrier `stage` of the cluster's workgroup of rank
/// `rank` (an i32; possibly this one): its address mapped to that
/// workgroup's shared memory (mapa), and an arrive at cluster scope (nvgpu
/// has no remote arrive).
void WgmmaKernelBuilder::arriveOnPeer(OpBuilder &b, Value stage,
                                      Value rank) const {
  Value pointer = getPeerBarrierPointer(b, stage);
  Value remote = NVVM::MapaOp::create(
      b, loc,
      LLVM::LLVMPointerType::get(
          ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
      pointer, rank);
  NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                 NVVM::MemScopeKind::CLUSTER);
}

/// Waits until peer barrier `stage` has completed phase `phase`, acquiring
/// at cluster scope: the arrivals are the peers' releases at cluster scope,
/// and the PTX memory model orders a release and an acquire only when each
/// one's scope includes the other's thread (nvgpu's wait is CTA-scoped).
/// try_wait gives up after a system-defined time: retry.
void WgmmaKernelBuilder::waitForPeers(OpBuilder &b, Value stage,
                                      Value phase) const {
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
}

/// Writes the load tile at `loadOffset` of the stage at byte `base` (a
/// restaged operand's tile as it lies: chunks of 128-byte rows of M or N,
/// tileK rows each) K-major into wgmma's `tile` at `tileOffset` (a 128-byte
/// row of K for each row of M or N), both 128-byte swizzled, as producer
/// thread `thread` of kWarpgroupThreads: blocks of 4 x 4 elements, each
/// read as four 4-element rows of the load tile and written as four of the
/// K-major tile. (The bits only move: the tiles are viewed as integers of
/// the element's width.) Each quarter-warp's eight threads take the blocks
/// of four K and two M or N neighbours: their 16-byte f32 writes hit eight
/// different 16-byte bank groups, their reads two each.
void WgmmaKernelBuilder::restageTile(OpBuilder &b, Value base,
                                     const WgmmaOperandTile &tile,
                                     int64_t tileOffset, int64_t loadOffset,
                                     Value thread) const {
  constexpr int64_t kBlock = 4;
  int64_t bytes = tile.elementBytes;
  Type bits = b.getIntegerType(bytes * 8);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  MemRefType viewType = getWorkgroupMemRefType({tile.getBytes() / bytes}, bits);
  auto view = [&](int64_t offset) {
    return getRingView(b, base, offset, viewType);
  };
  Value loadView = view(loadOffset), tileView = view(tileOffset);
  // The element at byte `offset` of a 1024-byte aligned tile of 128-byte
  // swizzled rows: bits 4-6 of the offset XOR bits 7-9.
  auto swizzled = [&](Value offset) -> Value {
    Value row = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, offset, constant(7)),
        constant(7));
    Value moved = arith::XOrIOp::create(
        b, loc, offset, arith::ShLIOp::create(b, loc, row, constant(4)));
    return arith::DivUIOp::create(b, loc, moved, constant(bytes));
  };
  // The load tile's chunks (of 128-byte rows of M or N), tileK rows each.
  int64_t chunkColumns = kSwizzleBytes / bytes;
  int64_t chunkBytes = tile.tileK * kSwizzleBytes;
  int64_t kBlocks = tile.tileK / kBlock, outerBlocks = tile.outer / kBlock;
  int64_t blocks = kBlocks * outerBlocks;
  int64_t perThread = llvm::divideCeil(blocks, kWarpgroupThreads);
  auto vectorType = VectorType::get({kBlock}, bits);
  scf::ForOp::create(
      b, loc, constant(0), constant(perThread), constant(1), ValueRange(),
      [&](OpBuilder &b, Location, Value i, ValueRange) {
        Value block = arith::AddIOp::create(
            b, loc, thread,
            arith::MulIOp::create(b, loc, i, constant(kWarpgroupThreads)));
        auto body = [&](OpBuilder &b) {
          // block = ((outerHigh * kBlocks/4 + kHigh) * 2 + outerLow) * 4 +
          // kLow.
          auto parts = affine::AffineDelinearizeIndexOp::create(
              b, loc, block,
              ArrayRef<int64_t>{outerBlocks / 2, kBlocks / 4, 2, 4},
              /*hasOuterBound=*/true);
          AffineExpr high = getAffineDimExpr(0, ctx),
                     low = getAffineDimExpr(1, ctx);
          auto first = [&](Value highPart, Value lowPart, int64_t lows) {
            return affine::AffineApplyOp::create(
                b, loc, AffineMap::get(2, 0, (high * lows + low) * kBlock),
                ValueRange{highPart, lowPart});
          };
          Value outer = first(parts.getResult(0), parts.getResult(2), 2);
          Value k = first(parts.getResult(1), parts.getResult(3), 4);
          // Row k + r of the load tile: chunk outer / chunkColumns, the
          // chunks tileK rows of 128 bytes each.
          SmallVector<Value> rows;
          for (int64_t r = 0; r < kBlock; ++r) {
            AffineExpr o = getAffineDimExpr(0, ctx),
                       kk = getAffineDimExpr(1, ctx);
            Value offset = affine::AffineApplyOp::create(
                b, loc,
                AffineMap::get(2, 0,
                               o.floorDiv(chunkColumns) * chunkBytes +
                                   (kk + r) * kSwizzleBytes +
                                   (o % chunkColumns) * bytes),
                ValueRange{outer, k});
            rows.push_back(vector::LoadOp::create(
                b, loc, vectorType, loadView, ValueRange{swizzled(offset)}));
          }
          // Row outer + c of the K-major tile.
          for (int64_t c = 0; c < kBlock; ++c) {
            SmallVector<Value> column;
            for (int64_t r = 0; r < kBlock; ++r)
              column.push_back(vector::ExtractOp::create(b, loc, rows[r],
                                                         ArrayRef<int64_t>{c}));
            Value written =
                vector::FromElementsOp::create(b, loc, vectorType, column);
            AffineExpr o = getAffineDimExpr(0, ctx),
                       kk = getAffineDimExpr(1, ctx);
            Value offset = affine::AffineApplyOp::create(
                b, loc,
                AffineMap::get(2, 0, (o + c) * kSwizzleBytes + kk * bytes),
                ValueRange{outer, k});
            vector::StoreOp::create(b, loc, written, tileView,
                                    ValueRange{swizzled(offset)});
          }
        };
        if (blocks % kWarpgroupThreads == 0) {
          body(b);
        } else {
          Value inside = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, block, constant(blocks));
          scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
            body(b);
            scf::YieldOp::create(b, loc);
          });
        }
        scf::YieldOp::create(b, loc);
      });
}

/// Producer thread `thread`'s part of restaging `stage` in round `round`
/// (its phase): once the load tiles have landed, its blocks of each
/// restaged operand (restageTile); then it orders its generic writes before
/// the consumers' wgmma reads (fence.proxy.async, before its release) and
/// arrives on the stage's full barrier.
void WgmmaKernelBuilder::restageStage(OpBuilder &b, Value stage, Value round,
                                      Value thread) const {
  waitForPhase(b, barriers.loaded, stage, round);
  Value base = getStageBase(b, stage);
  if (matmul.layouts.aRestaged)
    restageTile(b, base, matmul.getATile(), 0, matmul.getALoadOffset(), thread);
  if (matmul.layouts.bRestaged)
    restageTile(b, base, matmul.getBTile(), matmul.getATile().getBytes(),
                matmul.getBLoadOffset(), thread);
  fenceRing(b);
  nvgpu::MBarrierArriveOp::create(b, loc, barriers.full, stage);
}

/// The producer warpgroup's thread 0: for each of the workgroup's tiles,
/// each K step's loads into the next stage of the ring, once the consumers
/// (and, in a cluster, every peer's consumers) released it. With a restaged
/// operand every producer thread runs this, each waiting for the stage's
/// release and then restaging its part of the stage (restageStage).
void WgmmaKernelBuilder::buildProducer(OpBuilder &b) {
  std::optional<ClusterPlace> place;
  if (plan.cluster)
    place = getClusterPlace(b);
  bool restaged = matmul.layouts.isRestaged();
  Value thread, isLoader;
  if (restaged) {
    thread = arith::SubIOp::create(
        b, loc, tid,
        arith::ConstantIndexOp::create(b, loc,
                                       kWarpgroupThreads * matmul.consumers));
    isLoader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                                     arith::ConstantIndexOp::create(b, loc, 0));
  }
  forEachTile(b, [&](OpBuilder &b, const TileSteps &steps, IRMapping &mapping) {
    TileCoordinates origin = tile;
    for (Value *value :
         {&origin.aRow, &origin.bColumn, &origin.aBase, &origin.bBase})
      if (*value)
        *value = getForTile(b, *value, mapping);
    auto [kBegin, kEnd] = getKRange(b, steps);
    scf::ForOp::create(
        b, loc, kBegin, kEnd, arith::ConstantIndexOp::create(b, loc, 1),
        ValueRange(), [&](OpBuilder &b, Location, Value kTile, ValueRange) {
          Value step = steps.base
                           ? arith::AddIOp::create(b, loc, steps.base, kTile)
                           : kTile;
          Value stage = arith::RemUIOp::create(b, loc, step, stagesValue);
          // From the second round on, wait until the consumers released
          // the stage (phase round - 1 of its empty barrier).
          Value round = arith::DivUIOp::create(b, loc, step, stagesValue);
          Value reused =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, round,
                                    arith::ConstantIndexOp::create(b, loc, 0));
          scf::IfOp::create(b, loc, reused, [&](OpBuilder &b, Location) {
            Value lastRound = arith::SubIOp::create(
                b, loc, round, arith::ConstantIndexOp::create(b, loc, 1));
            waitForPhase(b, barriers.empty, stage, lastRound);
            // In a cluster, the stage is free once every peer's consumers
            // released it too: tell each peer this workgroup's did, and
            // wait for all. No peer can arrive for the next round before
            // this round's phase completes here: each peer needs this
            // workgroup's slice of the round (loaded after the wait)
            // before its consumers release the stage again.
            if (place) {
              for (Value peer : place->peers)
                arriveOnPeer(b, stage, peer);
              waitForPeers(b, stage, lastRound);
            }
            scf::YieldOp::create(b, loc);
          });
          if (!restaged) {
            loadStage(b, stage, kTile, origin, place ? &*place : nullptr);
            scf::YieldOp::create(b, loc);
            return;
          }
          scf::IfOp::create(b, loc, isLoader, [&](OpBuilder &b, Location) {
            loadStage(b, stage, kTile, origin, /*place=*/nullptr);
            scf::YieldOp::create(b, loc);
          });
          restageStage(b, stage, round, thread);
          scf::YieldOp::create(b, loc);
        });
  });
}

//===----------------------------------------------------------------------===//
// Stage 4: the consumers' K loop
//===----------------------------------------------------------------------===//

/// Waits for the stage of `kTile` to be full (its phase `kTile / stages`)
/// and returns its index.
Value WgmmaKernelBuilder::waitForStage(OpBuilder &b, Value kTile) const {
  Value stage = arith::RemUIOp::create(b, loc, kTile, stagesValue);
  waitForPhase(b, barriers.full, stage,
               arith::DivUIOp::create(b, loc, kTile, stagesValue));
  return stage;
}

/// Multiplies the 64 rows of A from `aRow` in `stage` by its B into `acc`,
/// each wgmma group leaving at most `inFlight` in flight.
Value WgmmaKernelBuilder::multiply(OpBuilder &b, Value stage, Value acc,
                                   Value aRow, int64_t inFlight) const {
  Type elt = matmul.elementType;
  WgmmaOperandTile aTile = matmul.getATile(), bTile = matmul.getBTile();
  Value base = getStageBase(b, stage);
  // A's 64 rows: as many 128-byte K rows (K contiguous), or the chunk of
  // 64 columns of M they are (M contiguous: aRow is a multiple of 64), which
  // lies aRow * tileK elements into the tile all the same.
  Value aBytes = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, aRow, arith::ConstantIndexOp::create(b, loc, kSwizzleBytes)));
  // The descriptors' tiles are of what wgmma multiplies: f32 as TF32 (the
  // tensor cores read its top 19 bits), which nvgpu takes as tf32.
  auto getDescriptorType = [&](MemRefType type) {
    if (!type.getElementType().isF32())
      return nvgpu::WarpgroupMatrixDescriptorType::get(ctx, type);
    return nvgpu::WarpgroupMatrixDescriptorType::get(
        ctx, getWorkgroupMemRefType(type.getShape(), b.getTF32Type()));
  };
  auto multiplyTiles = [&](Value acc, int64_t aOffset, int64_t bOffset,
                           MemRefType aType, MemRefType bType) -> Value {
    Value aDescriptor = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc, getDescriptorType(aType),
        getRingView(b, aBytes, aOffset, aType), maps.a);
    Value bDescriptor = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc, getDescriptorType(bType),
        getRingView(b, base, aTile.getBytes() + bOffset, bType), maps.b);
    // nvgpu's transposeA and transposeB are wgmma's MN-major layouts.
    return nvgpu::WarpgroupMmaOp::create(
        b, loc, acc.getType(), aDescriptor, bDescriptor,
        static_cast<uint64_t>(inFlight),
        aTile.kContiguous ? UnitAttr() : b.getUnitAttr(),
        bTile.kContiguous ? UnitAttr() : b.getUnitAttr(), acc);
  };
  // A K-contiguous A times an N-contiguous B: the whole K tile in one op
  // (nvgpu steps A's descriptor 32 bytes along its rows and B's 16 rows at
  // a time).
  if (!matmul.layouts.multipliesPerKStep())
    return multiplyTiles(
        acc, 0, 0, getWorkgroupMemRefType({kWarpgroupRows, matmul.tileK}, elt),
        getWorkgroupMemRefType({matmul.tileK, matmul.tileN}, elt));
  // Otherwise nvgpu would step a descriptor as for the other layout, so
  // each K step is its own op on descriptors one step further along both
  // tiles: 32 bytes along a K-contiguous tile's swizzled rows, a step's
  // rows of K further down an M- or N-contiguous one's chunks.
  int64_t stepK = matmul.instructionK();
  auto aStepType = getWorkgroupMemRefType({kWarpgroupRows, stepK}, elt);
  auto bStepType = getWorkgroupMemRefType({stepK, matmul.tileN}, elt);
  for (int64_t step = 0; step < plan.getOpsPerBlock(); ++step)
    acc =
        multiplyTiles(acc, step * aTile.getKStepBytes(stepK),
                      step * bTile.getKStepBytes(stepK), aStepType, bStepType);
  return acc;
}

/// The K loop of a warpgroup whose `rows` of the tile start at row
/// `firstRow`: `rows / 64` accumulators, each K step's groups leaving the
/// step's own in flight (plan.getRetiredLag()), so that the step before has
/// retired when `afterStep` runs. `steps` says which K tiles of the tile
/// the workgroup runs and how they are numbered among its steps.
ValueRange WgmmaKernelBuilder::multiplyAllK(
    OpBuilder &b, int64_t rows, Value firstRow, const TileSteps &steps,
    function_ref<void(OpBuilder &, Value)> afterStep) {
  int64_t blocks = rows / kWarpgroupRows;
  int64_t inFlight = plan.getRetiredLag() * blocks * plan.getOpsPerBlock();
  SmallVector<Value> inits;
  for (int64_t block = 0; block < blocks; ++block)
    inits.push_back(
        nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accumulatorType));
  auto [kBegin, kEnd] = getKRange(b, steps);
  auto loop = scf::ForOp::create(
      b, loc, kBegin, kEnd, arith::ConstantIndexOp::create(b, loc, 1), inits,
      [&](OpBuilder &b, Location, Value kTile, ValueRange iterArgs) {
        Value step = steps.base
                         ? arith::AddIOp::create(b, loc, steps.base, kTile)
                         : kTile;
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
}

/// The K tiles `steps` runs: its range, or all of K.
std::pair<Value, Value>
WgmmaKernelBuilder::getKRange(OpBuilder &b, const TileSteps &steps) const {
  return {steps.kBegin ? steps.kBegin
                       : arith::ConstantIndexOp::create(b, loc, 0).getResult(),
          steps.kEnd ? steps.kEnd : kTiles};
}

/// After K step `kTile` of a consumer: this thread's K tile `kTile -
/// retiredLag` has retired, and its stage goes back to the producer. (With
/// one stage that is this step's: releasing the one before would leave the
/// producer waiting for a stage the consumers wait to be refilled.)
void WgmmaKernelBuilder::releaseStage(OpBuilder &b, Value kTile) const {
  int64_t retiredLag = plan.getRetiredLag();
  auto release = [&](OpBuilder &b) {
    Value retired = arith::SubIOp::create(
        b, loc, kTile, arith::ConstantIndexOp::create(b, loc, retiredLag));
    nvgpu::MBarrierArriveOp::create(
        b, loc, barriers.empty,
        arith::RemUIOp::create(b, loc, retired, stagesValue));
  };
  if (retiredLag == 0) {
    release(b);
    return;
  }
  Value hasRetired =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, kTile,
                            arith::ConstantIndexOp::create(b, loc, 0));
  scf::IfOp::create(b, loc, hasRetired, [&](OpBuilder &b, Location) {
    release(b);
    scf::YieldOp::create(b, loc);
  });
}

/// Consumer warpgroups 0 .. consumers-1, each multiplying its own
/// `tileM / consumers` rows of each of the workgroup's tiles, then storing
/// them or running the epilogue on them.
void WgmmaKernelBuilder::buildConsumers(OpBuilder &b) {
  int64_t consumerThreads = kWarpgroupThreads * matmul.consumers;
  int64_t consumerRows = matmul.tileM / matmul.consumers;
  Value warpgroup = arith::DivUIOp::create(
      b, loc, tid, arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads));
  Value firstRow = arith::MulIOp::create(
      b, loc, warpgroup, arith::ConstantIndexOp::create(b, loc, consumerRows));
  forEachTile(b, [&](OpBuilder &b, const TileSteps &steps, IRMapping &mapping) {
    ValueRange accumulators = multiplyAllK(
        b, consumerRows, firstRow, steps,
        [&](OpBuilder &b, Value kTile) { releaseStage(b, kTile); });
    Value cTile =
        ring.staging ? ring.staging : getForTile(b, matmul.c, mapping);
    // Staged in the ring: every consumer's groups must have retired,
    // reading the last stages, before any consumer writes over them (a
    // named barrier of all the consumers).
    if (plan.isStagedInRing()) {
      fenceRing(b);
      // Ids 1 .. consumers are the warpgroups' own.
      createNamedBarrier(b,
                         arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                      1 + matmul.consumers),
                         consumerThreads);
    }
    for (auto [block, acc] : llvm::enumerate(accumulators))
      storeAccumulator(b, acc, cTile, warpgroup, consumerRows,
                       static_cast<int64_t>(block));
    if (!ring.staging)
      return;
    // Each consumer runs the epilogue on its own rows, once all its threads
    // have stored theirs; in a persistent grid it stores the next tile's
    // only after all have read this one.
    syncWarpgroup(b, warpgroup);
    Value thread = arith::RemUIOp::create(
        b, loc, tid, arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads));
    // Split-K: only the last workgroup of the tile runs the epilogue, on
    // the sum of the parts.
    if (getTranslationInfo(plan.funcOp).getSplitK() > 1) {
      combineSplitKParts(b, firstRow, consumerRows, thread, [&](OpBuilder &b) {
        runEpilogue(b, mapping, firstRow, consumerRows, thread);
      });
      return;
    }
    // Stream-K: a part of a tile runs the epilogue in the workgroup whose
    // part completes the tile, on the sum of the parts.
    if (plan.grid && plan.grid->isStreamK()) {
      combineStreamKParts(
          b, steps, firstRow, consumerRows, thread, [&](OpBuilder &b) {
            runEpilogue(b, mapping, firstRow, consumerRows, thread);
          });
      syncWarpgroup(b, warpgroup);
      return;
    }
    runEpilogue(b, mapping, firstRow, consumerRows, thread);
    if (plan.grid)
      syncWarpgroup(b, warpgroup);
  });
}

//===----------------------------------------------------------------------===//
// Stage 5: the store or the epilogue
//===----------------------------------------------------------------------===//

/// Before generic stores to a staging buffer in the ring: each thread
/// orders the async-proxy accesses of its stages (the TMA loads it waited
/// for, the wgmma reads of its groups, retired) before the generic ones
/// that follow (fence.proxy.async); a barrier after it orders every
/// thread's.
void WgmmaKernelBuilder::fenceRing(OpBuilder &b) const {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
}

/// Named barrier `id` (an i32) of `threads` threads, which the others do
/// not join (bar.sync id, threads).
void WgmmaKernelBuilder::createNamedBarrier(OpBuilder &b, Value id,
                                            int64_t threads) const {
  NVVM::BarrierOp::create(
      b, loc, Type(), id,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), threads),
      NVVM::BarrierReductionAttr(), Value());
}

/// Waits until every thread of warpgroup `warpgroup` (null: the only one,
/// the whole workgroup) is here: a named barrier (1 + its index) of its 128
/// threads, which the other warpgroups do not join.
void WgmmaKernelBuilder::syncWarpgroup(OpBuilder &b, Value warpgroup) const {
  if (!warpgroup) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  createNamedBarrier(
      b,
      arith::IndexCastUIOp::create(
          b, loc, b.getI32Type(),
          arith::AddIOp::create(b, loc, warpgroup,
                                arith::ConstantIndexOp::create(b, loc, 1))),
      kWarpgroupThreads);
}

/// Stores accumulator block `block` of warpgroup `warpgroup` (null: the
/// only one), whose `warpgroupRows` rows of the tile start at row warpgroup
/// * warpgroupRows. warpgroup.mma.store places each thread's rows by its
/// absolute thread id, 64 rows per warpgroup before it: the view of C
/// starts that much higher. A transposed tile's rows are C's columns: the
/// view is C's columns from there, transposed (scalar stores down C's
/// columns).
void WgmmaKernelBuilder::storeAccumulator(OpBuilder &b, Value acc, Value cTile,
                                          Value warpgroup,
                                          int64_t warpgroupRows,
                                          int64_t block) const {
  OpFoldResult row = b.getIndexAttr(block * kWarpgroupRows);
  if (warpgroup && warpgroupRows != kWarpgroupRows)
    row =
        arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, warpgroup,
                                  arith::ConstantIndexOp::create(
                                      b, loc, warpgroupRows - kWarpgroupRows)),
            arith::ConstantIndexOp::create(b, loc, block * kWarpgroupRows))
            .getResult();
  OpFoldResult one = b.getIndexAttr(1);
  if (matmul.transposed) {
    Value columns = memref::SubViewOp::create(
        b, loc, cTile, ArrayRef<OpFoldResult>{b.getIndexAttr(0), row},
        ArrayRef<OpFoldResult>{b.getIndexAttr(matmul.tileN),
                               b.getIndexAttr(kWarpgroupRows)},
        ArrayRef<OpFoldResult>{one, one});
    AffineMap swap =
        AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, ctx);
    nvgpu::WarpgroupMmaStoreOp::create(
        b, loc, acc,
        memref::TransposeOp::create(b, loc, columns, AffineMapAttr::get(swap)));
    return;
  }
  Value view = memref::SubViewOp::create(
      b, loc, cTile, ArrayRef<OpFoldResult>{row, b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(kWarpgroupRows),
                             b.getIndexAttr(matmul.tileN)},
      ArrayRef<OpFoldResult>{one, one});
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, acc, view);
}

/// Fails, with an error, when the kernel's plan splits K (split_k) but the
/// kernel cannot add the parts: they meet in the staging buffer of a
/// warp-specialized kernel of one tile per workgroup, in the workspace of
/// gpucg-create-split-k-workspace, and the workgroup loop's grid z indexes
/// them (gpucg-split-k-across-workgroups).
LogicalResult WgmmaKernelBuilder::verifySplitK() {
  TranslationInfoAttr info = getTranslationInfo(plan.funcOp);
  if (!info || info.getSplitK() <= 1)
    return success();
  auto fail = [&]() {
    return matmul.op->emitOpError()
           << "is the matmul of a MatmulWgmma kernel that splits K into "
           << info.getSplitK() << " parts (split_k), but ";
  };
  if (!workgroupLoop || !plan.isWarpSpecialized() || plan.grid || plan.cluster)
    return fail() << "the parts are added by the consumer warpgroups of a "
                     "warp-specialized kernel of one tile per workgroup";
  if (!plan.isStaged())
    return fail() << "its accumulator is not staged in workgroup memory, "
                     "where the parts are added (staged_store)";
  if (failed(getSplitKBuffers(plan.funcOp)))
    return failure();
  bool hasZ = false;
  for (auto [dim, mapping] : llvm::enumerate(workgroupLoop.getMappingAttr())) {
    if (!getStaticTripCount(workgroupLoop, dim) ||
        !getConstantIntValue(workgroupLoop.getMixedLowerBound()[dim]) ||
        !getConstantIntValue(workgroupLoop.getMixedStep()[dim]))
      return fail() << "its workgroup loop's dimension " << dim
                    << " has no static bounds";
    hasZ |= cast<gpu::GPUBlockMappingAttr>(mapping).getBlock() ==
            gpu::MappingId::DimZ;
  }
  if (!hasZ)
    return fail() << "its workgroup loop has no dimension on grid z (run "
                     "gpucg-split-k-across-workgroups first)";
  return success();
}

/// The stream-K workspace of kernel `funcOp` on `grid` (a stream-K grid):
/// the module-level buffers gpucg-create-split-k-workspace made, which must
/// hold a counter per tile and two slots of partial sums (f32, a tile's
/// worth each) per workgroup; failure, with an error, when they do not.
static FailureOr<SplitKBuffers> getStreamKBuffers(FunctionOpInterface funcOp,
                                                  const PersistentGrid &grid,
                                                  int64_t tileElements) {
  SplitKBuffers buffers = lookupSplitKGlobals(funcOp);
  buffers.workspace = SplitKWorkspace::getStreamK(
      funcOp->getContext(), grid.tiles, grid.workgroups, tileElements);
  const SplitKWorkspace &ws = buffers.workspace;
  if (!buffers.partials || !buffers.counters ||
      buffers.partials.getType().getElementType() != ws.elementType ||
      buffers.partials.getType().getNumElements() != ws.getNumPartials() ||
      buffers.counters.getType().getNumElements() != ws.tiles)
    return funcOp.emitOpError()
           << "runs stream-K (stream_k) on " << grid.workgroups
           << " workgroups, but its module has no memref.globals @"
           << getSplitKPartialsName(funcOp.getName()) << " of "
           << ws.getNumPartials() << " f32 partial sums and @"
           << getSplitKCountersName(funcOp.getName()) << " of " << ws.tiles
           << " tile counters (run gpucg-create-split-k-workspace first)";
  return buffers;
}

/// Fails, with an error, when the kernel runs stream-K but has no
/// workspace for the parts of its tiles (gpucg-create-split-k-workspace's).
/// They are added in its staging buffer, which lowerMatmulToWgmma gives
/// every stream-K kernel.
LogicalResult WgmmaKernelBuilder::verifyStreamK() {
  if (!plan.grid || !plan.grid->isStreamK())
    return success();
  return getStreamKBuffers(plan.funcOp, *plan.grid,
                           matmul.cTileRows() * matmul.cTileColumns());
}

/// The rows x columns of the staged tile (in C's orientation) that a
/// consumer warpgroup of `rows` rows owns: those rows of all of C's
/// columns, or in a transposed tile (whose rows are C's columns) those
/// columns of all of C's rows. The epilogue and the split-K sum run on it.
std::pair<int64_t, int64_t>
WgmmaKernelBuilder::getConsumerRegion(int64_t rows) const {
  if (matmul.transposed)
    return {matmul.cTileRows(), rows};
  return {rows, matmul.cTileColumns()};
}

/// The named barrier of all consumer warpgroups' threads (id 1 +
/// consumers; ids 1 .. consumers are the warpgroups' own).
void WgmmaKernelBuilder::syncConsumers(OpBuilder &b) const {
  createNamedBarrier(b,
                     arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                  1 + matmul.consumers),
                     kWarpgroupThreads * matmul.consumers);
}

/// The i32 in workgroup memory through which the arriving thread tells the
/// others whether their workgroup is the last of a tile (allocated at the
/// function's start, with the kernel's other workgroup buffers).
Value WgmmaKernelBuilder::createArrivalFlag(OpBuilder &b) const {
  OpBuilder::InsertionGuard guard(b);
  FunctionOpInterface funcOp = plan.funcOp;
  b.setInsertionPointToStart(&funcOp.getFunctionBody().front());
  return memref::AllocOp::create(
      b, loc,
      MemRefType::get(
          {1}, b.getI32Type(), MemRefLayoutAttrInterface(),
          gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
}

/// Calls `body(row, column)` for each 16-byte piece of the staged tile's
/// region of a consumer warpgroup of `rows` rows from `firstRow`
/// (getConsumerRegion) that its thread `thread` takes: pieces `thread,
/// thread + 128, ...`, row by row.
void WgmmaKernelBuilder::forEachRegionPiece(
    OpBuilder &b, Value firstRow, int64_t rows, Value thread,
    function_ref<void(OpBuilder &, Value, Value)> body) const {
  // (Plain variables: the lambda below captures them, which C++17 does not
  // allow of structured bindings.)
  int64_t regionRows, regionColumns;
  std::tie(regionRows, regionColumns) = getConsumerRegion(rows);
  int64_t piecesPerRow = regionColumns / kPartialPiece;
  bool transposed = matmul.transposed;
  scf::ForOp::create(
      b, loc, thread,
      arith::ConstantIndexOp::create(b, loc, regionRows * piecesPerRow),
      arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads), ValueRange(),
      [&](OpBuilder &b, Location loc, Value piece, ValueRange) {
        AffineExpr p, first;
        bindDims(ctx, p);
        bindSymbols(ctx, first);
        AffineExpr rowExpr = p.floorDiv(piecesPerRow);
        AffineExpr columnExpr = (p % piecesPerRow) * kPartialPiece;
        if (transposed)
          columnExpr = columnExpr + first;
        else
          rowExpr = rowExpr + first;
        Value row = affine::AffineApplyOp::create(
            b, loc, AffineMap::get(1, 1, rowExpr), ValueRange{piece, firstRow});
        Value column = affine::AffineApplyOp::create(
            b, loc, AffineMap::get(1, 1, columnExpr),
            ValueRange{piece, firstRow});
        body(b, row, column);
        scf::YieldOp::create(b, loc);
      });
}

/// The index of element (`row`, `column`) of the staged tile in slot
/// `slot` (one tile's partial sums) of the partial sums.
Value WgmmaKernelBuilder::getPartialIndex(OpBuilder &b, Value slot, Value row,
                                          Value column) const {
  AffineExpr s, r, c;
  bindSymbols(ctx, s, r, c);
  return affine::AffineApplyOp::create(
      b, loc,
      AffineMap::get(0, 3,
                     s * (matmul.cTileRows() * matmul.cTileColumns()) +
                         r * matmul.cTileColumns() + c),
      ValueRange{slot, row, column});
}

/// Stores the warpgroup's region of the staged tile into slot `slot` of
/// `partials`, each thread its pieces (forEachRegionPiece).
void WgmmaKernelBuilder::publishPartials(OpBuilder &b, Value partials,
                                         Value slot, Value firstRow,
                                         int64_t rows, Value thread) const {
  auto pieceType = VectorType::get({kPartialPiece}, b.getF32Type());
  forEachRegionPiece(
      b, firstRow, rows, thread, [&](OpBuilder &b, Value row, Value column) {
        Value value = vector::LoadOp::create(b, loc, pieceType, ring.staging,
                                             ValueRange{row, column});
        vector::StoreOp::create(
            b, loc, value, partials,
            ValueRange{getPartialIndex(b, slot, row, column)});
      });
}

/// Stores into the warpgroup's region of the staged tile the sum of slots
/// `getSlot(0)`, ..., `getSlot(count - 1)` of `partials`, added in that
/// order (from zero), each thread its pieces.
void WgmmaKernelBuilder::addPartials(
    OpBuilder &b, Value partials, Value count,
    function_ref<Value(OpBuilder &, Value)> getSlot, Value firstRow,
    int64_t rows, Value thread) const {
  auto pieceType = VectorType::get({kPartialPiece}, b.getF32Type());
  Value zero =
      arith::ConstantOp::create(b, loc, pieceType, b.getZeroAttr(pieceType));
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  forEachRegionPiece(
      b, firstRow, rows, thread, [&](OpBuilder &b, Value row, Value column) {
        auto sum = scf::ForOp::create(
            b, loc, c0, count, c1, ValueRange{zero},
            [&](OpBuilder &b, Location loc, Value index, ValueRange acc) {
              Value value = vector::LoadOp::create(
                  b, loc, pieceType, partials,
                  ValueRange{
                      getPartialIndex(b, getSlot(b, index), row, column)});
              scf::YieldOp::create(
                  b, loc,
                  ValueRange{arith::AddFOp::create(b, loc, acc[0], value)});
            });
        vector::StoreOp::create(b, loc, sum.getResult(0), ring.staging,
                                ValueRange{row, column});
      });
}

/// Split-K: each consumer warpgroup publishes its `rows` rows from
/// `firstRow` of the staged accumulator (a transposed tile's: those
/// columns of all of C's rows) into this part's slot of the kernel's
/// partial sums (publishPartials), then the consumers count the
/// workgroup's arrival (createSplitKArrival, with a named barrier of all of
/// them). In the last workgroup of the tile, each warpgroup adds the parts
/// of its region in part order into the staging buffer and runs
/// `inLastWorkgroup` (the epilogue) on it; the other workgroups are done.
void WgmmaKernelBuilder::combineSplitKParts(
    OpBuilder &b, Value firstRow, int64_t rows, Value thread,
    function_ref<void(OpBuilder &)> inLastWorkgroup) {
  SplitKBuffers buffers = *getSplitKBuffers(plan.funcOp);
  const SplitKWorkspace &ws = buffers.workspace;
  auto [tile, part] = *getSplitKTileAndPart(b, workgroupLoop);
  Value partials = memref::GetGlobalOp::create(
      b, loc, buffers.partials.getType(), buffers.partials.getName());
  Value counters = memref::GetGlobalOp::create(
      b, loc, buffers.counters.getType(), buffers.counters.getName());
  // Part p of tile t: slot t * parts + p.
  int64_t parts = ws.parts;
  auto getSlot = [&](OpBuilder &b, Value partValue) -> Value {
    AffineExpr t, p;
    bindSymbols(ctx, t, p);
    return affine::AffineApplyOp::create(b, loc,
                                         AffineMap::get(0, 2, t * parts + p),
                                         ValueRange{tile, partValue});
  };
  publishPartials(b, partials, getSlot(b, part), firstRow, rows, thread);
  OpBuilder::InsertionGuard guard(b);
  Value flag = createArrivalFlag(b);
  Value isLast =
      createSplitKArrival(b, loc, counters, tile, tid, flag, ws.parts,
                          [&](OpBuilder &b) { syncConsumers(b); });
  auto lastIf = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
  b.setInsertionPointToStart(lastIf.thenBlock());
  addPartials(b, partials, arith::ConstantIndexOp::create(b, loc, ws.parts),
              getSlot, firstRow, rows, thread);
  // Each warpgroup's epilogue reads its own rows, once all its threads
  // stored them.
  Value warpgroup = arith::DivUIOp::create(
      b, loc, tid, arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads));
  syncWarpgroup(b, warpgroup);
  inLastWorkgroup(b);
}

/// Stream-K, after the consumer warpgroups staged the accumulator of
/// `steps`' K tiles of a tile: a whole tile runs `inLastWorkgroup` (the
/// epilogue) at once. A part of one is published into the workgroup's slot
/// for the tile, and the consumers count its K steps into the tile's
/// counter (createSplitKArrival); the workgroup whose steps complete the
/// tile's K adds the parts of all the tile's workgroups into the staging
/// buffer, in workgroup order, and runs `inLastWorkgroup`. Which workgroup
/// completes a tile depends on timing; the order of the sum does not.
///
/// The tile's workgroups are those whose steps reach into it: the first
/// runs its first step (t * kSteps), the last its last ((t + 1) * kSteps -
/// 1), and step x is workgroup ((x + 1) * G - 1) / U's (G workgroups, U
/// steps in all). A workgroup's slot for the tile is its first (0) if the
/// tile is the first its steps reach, else its second (1).
void WgmmaKernelBuilder::combineStreamKParts(
    OpBuilder &b, const TileSteps &steps, Value firstRow, int64_t rows,
    Value thread, function_ref<void(OpBuilder &)> inLastWorkgroup) {
  const PersistentGrid &grid = *plan.grid;
  int64_t kSteps = grid.kSteps, units = grid.getNumUnits();
  int64_t workgroups = grid.workgroups;
  SplitKBuffers buffers = *getStreamKBuffers(
      plan.funcOp, grid, matmul.cTileRows() * matmul.cTileColumns());
  Value partials = memref::GetGlobalOp::create(
      b, loc, buffers.partials.getType(), buffers.partials.getName());
  Value counters = memref::GetGlobalOp::create(
      b, loc, buffers.counters.getType(), buffers.counters.getName());
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value isPart = arith::OrIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, steps.kBegin, c0),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, steps.kEnd,
                            arith::ConstantIndexOp::create(b, loc, kSteps)));
  OpBuilder::InsertionGuard guard(b);
  Value flag = createArrivalFlag(b);
  // A part: published and counted; a whole tile is its own last.
  auto partIf = scf::IfOp::create(b, loc, TypeRange{b.getI1Type()}, isPart,
                                  /*withElseRegion=*/true);
  b.setInsertionPointToStart(partIf.thenBlock());
  publishPartials(b, partials, steps.slot, firstRow, rows, thread);
  Value amount = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      arith::SubIOp::create(b, loc, steps.kEnd, steps.kBegin));
  Value lastCount = arith::SubIOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, kSteps, 32), amount);
  Value arrivedLast =
      createSplitKArrival(b, loc, counters, steps.tile, tid, flag, amount,
                          lastCount, [&](OpBuilder &b) { syncConsumers(b); });
  scf::YieldOp::create(b, loc, arrivedLast);
  b.setInsertionPointToStart(partIf.elseBlock());
  scf::YieldOp::create(b, loc,
                       ValueRange{arith::ConstantIntOp::create(b, loc, 1, 1)});
  b.setInsertionPointAfter(partIf);

  auto lastIf =
      scf::IfOp::create(b, loc, partIf.getResult(0), /*withElseRegion=*/false);
  b.setInsertionPointToStart(lastIf.thenBlock());
  auto sumIf = scf::IfOp::create(b, loc, isPart, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard inSum(b);
    b.setInsertionPointToStart(sumIf.thenBlock());
    // (t: the tile's index among the stream-K tiles.)
    AffineExpr t = getAffineDimExpr(0, ctx) - grid.getDataParallelTiles();
    AffineExpr first = ((t * kSteps + 1) * workgroups - 1).floorDiv(units);
    AffineExpr last = ((t + 1) * kSteps * workgroups - 1).floorDiv(units);
    Value count = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, last - first + 1), ValueRange{steps.tile});
    auto getSlot = [&](OpBuilder &b, Value index) -> Value {
      // Workgroup w = first + index; the first tile its steps reach:
      // (w * U / G) / kSteps among the stream-K tiles.
      AffineExpr i = getAffineDimExpr(1, ctx);
      Value w =
          affine::AffineApplyOp::create(b, loc, AffineMap::get(2, 0, first + i),
                                        ValueRange{steps.tile, index});
      AffineExpr wExpr = getAffineDimExpr(0, ctx);
      Value firstTile = affine::AffineApplyOp::create(
          b, loc,
          AffineMap::get(1, 0,
                         (wExpr * units).floorDiv(workgroups).floorDiv(kSteps) +
                             grid.getDataParallelTiles()),
          ValueRange{w});
      Value second = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, steps.tile,
                                firstTile),
          arith::ConstantIndexOp::create(b, loc, 1),
          arith::ConstantIndexOp::create(b, loc, 0));
      AffineExpr s = getAffineDimExpr(1, ctx);
      return affine::AffineApplyOp::create(
          b, loc, AffineMap::get(2, 0, wExpr * kStreamKSlotsPerWorkgroup + s),
          ValueRange{w, second});
    };
    addPartials(b, partials, count, getSlot, firstRow, rows, thread);
    // Each warpgroup's epilogue reads its own rows, once all its threads
    // stored them.
    syncWarpgroup(b, arith::DivUIOp::create(b, loc, tid,
                                            arith::ConstantIndexOp::create(
                                                b, loc, kWarpgroupThreads)));
  }
  inLastWorkgroup(b);
}

/// Runs the fused epilogue on the staged accumulator's `rows` rows from
/// `firstRow` of the tile of `mapping` (a transposed tile's: all of C's
/// rows, of those columns): the warpgroup's thread `thread` takes the
/// pieces of `vectorSize` columns `thread, thread + 128, ...`, consecutive
/// threads along a row (coalesced 16-byte accesses), and runs every op on
/// each (gpucg-generic-vectorization makes them vectors).
/// Tiling a linalg op to a static piece does not fail; if it did, the piece
/// would be missing: build() reports it.
void WgmmaKernelBuilder::runEpilogue(OpBuilder &b, IRMapping &mapping,
                                     Value firstRow, int64_t rows,
                                     Value thread) {
  // The ops on the tile's operands, the accumulator read from the staging
  // buffer: templates for the pieces, erased below. `sources`: the op each
  // template stands for (the matmul for the copy).
  SmallVector<TilingInterface> templates;
  SmallVector<Operation *> sources;
  // C += A * B: first the prior contents of C's tile, added to the staged
  // product (a sum in another order than the untiled kernel's, as any split
  // of K is). Alone, the sum goes straight to C; before fused ops, which
  // read the matmul's result from the staging buffer, into it, and from
  // there to C.
  bool sumsIntoC = matmul.priorC && epilogue.ops.empty();
  if (matmul.priorC) {
    templates.push_back(cast<TilingInterface>(
        linalg::AddOp::create(
            b, loc,
            ValueRange{ring.staging, getForTile(b, matmul.priorC, mapping)},
            ValueRange{sumsIntoC ? getForTile(b, matmul.c, mapping)
                                 : ring.staging})
            .getOperation()));
    sources.push_back(matmul.op);
  }
  if (epilogue.storesAccumulator && !sumsIntoC) {
    templates.push_back(cast<TilingInterface>(
        linalg::CopyOp::create(b, loc, ring.staging,
                               getForTile(b, matmul.c, mapping))
            .getOperation()));
    sources.push_back(matmul.op);
  }
  for (linalg::LinalgOp epilogueOp : epilogue.ops) {
    IRMapping operands;
    for (Value operand : epilogueOp->getOperands())
      operands.map(operand, operand == matmul.c ? ring.staging
                            // Replaced by a private buffer per piece below.
                            : llvm::is_contained(epilogue.temporaries, operand)
                                ? operand
                                : getForTile(b, operand, mapping));
    templates.push_back(cast<TilingInterface>(b.clone(*epilogueOp, operands)));
    sources.push_back(epilogueOp);
  }
  int64_t vectorSize = epilogue.vectorSize;
  // The part of C's tile: rows from `regionRow`, columns from
  // `regionColumn` (null: 0).
  Value regionRow = matmul.transposed ? Value() : firstRow;
  Value regionColumn = matmul.transposed ? firstRow : Value();
  int64_t regionRows, regionColumns;
  std::tie(regionRows, regionColumns) = getConsumerRegion(rows);
  int64_t piecesPerRow = regionColumns / vectorSize;
  // A partial tile's pieces past M or N are skipped (its valid columns are
  // whole pieces: getPieceSize); what the tile's views give them would lie
  // outside the matrix. (Tile coordinates are wgmma's A row and B column.)
  Value firstTileRow, firstTileColumn;
  if (matmul.hasPartialTiles()) {
    firstTileRow = getForTile(b, tile.aRow, mapping);
    firstTileColumn = getForTile(b, tile.bColumn, mapping);
    if (matmul.transposed)
      std::swap(firstTileRow, firstTileColumn);
  }
  auto offsetBy = [&](OpBuilder &b, Value base, Value offset) -> Value {
    return base ? arith::AddIOp::create(b, loc, base, offset).getResult()
                : offset;
  };
  scf::ForOp::create(
      b, loc, thread,
      arith::ConstantIndexOp::create(b, loc, regionRows * piecesPerRow),
      arith::ConstantIndexOp::create(b, loc, kWarpgroupThreads), ValueRange(),
      [&](OpBuilder &b, Location, Value piece, ValueRange) {
        Value perRow = arith::ConstantIndexOp::create(b, loc, piecesPerRow);
        Value row = offsetBy(b, regionRow,
                             arith::DivUIOp::create(b, loc, piece, perRow));
        Value column =
            offsetBy(b, regionColumn,
                     arith::MulIOp::create(
                         b, loc, arith::RemUIOp::create(b, loc, piece, perRow),
                         arith::ConstantIndexOp::create(b, loc, vectorSize)));
        if (!firstTileRow) {
          runEpiloguePiece(b, templates, sources, row, column, vectorSize);
          scf::YieldOp::create(b, loc);
          return;
        }
        auto isBelow = [&](Value first, Value offset, Value size) {
          return arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult,
              arith::AddIOp::create(b, loc, first, offset), size);
        };
        // (Dynamic sizes are the arguments' at run time.)
        Value cColumns = matmul.getCColumns(b, loc);
        Value inside = arith::AndIOp::create(
            b, loc, isBelow(firstTileRow, row, matmul.getCRows(b, loc)),
            isBelow(firstTileColumn, column, cColumns));
        scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
          if (!ShapedType::isDynamic(matmul.cColumns())) {
            runEpiloguePiece(b, templates, sources, row, column, vectorSize);
            scf::YieldOp::create(b, loc);
            return;
          }
          // A dynamic N may end inside the piece, and C's rows are a
          // run-time size apart, which proves no alignment: a whole piece
          // whose stores land on 16-byte boundaries (asked at run time) is
          // one vector store each; the others, the valid elements (N -
          // column of them, at most a piece) one at a time.
          Value left = arith::SubIOp::create(
              b, loc, cColumns,
              arith::AddIOp::create(b, loc, firstTileColumn, column));
          Value vectorSizeValue =
              arith::ConstantIndexOp::create(b, loc, vectorSize);
          Value whole = arith::AndIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, left,
                                    vectorSizeValue),
              isPieceAligned(b, templates, row, column));
          scf::IfOp::create(
              b, loc, whole,
              [&](OpBuilder &b, Location) {
                runEpiloguePiece(b, templates, sources, row, column, vectorSize,
                                 /*alignedStores=*/true);
                scf::YieldOp::create(b, loc);
              },
              [&](OpBuilder &b, Location) {
                scf::ForOp::create(
                    b, loc, arith::ConstantIndexOp::create(b, loc, 0),
                    arith::MinUIOp::create(b, loc, left, vectorSizeValue),
                    arith::ConstantIndexOp::create(b, loc, 1), ValueRange(),
                    [&](OpBuilder &b, Location, Value element, ValueRange) {
                      runEpiloguePiece(
                          b, templates, sources, row,
                          arith::AddIOp::create(b, loc, column, element), 1);
                      scf::YieldOp::create(b, loc);
                    });
                scf::YieldOp::create(b, loc);
              });
          scf::YieldOp::create(b, loc);
        });
        scf::YieldOp::create(b, loc);
      });
  for (TilingInterface epilogueOp : templates)
    epilogueOp->erase();
}

/// The global memory (kernel arguments' tile views) that `templates`
/// write: their outputs other than the staging buffer and temporaries.
static SmallVector<Value> getGlobalOutputs(ArrayRef<TilingInterface> templates,
                                           ArrayRef<Value> temporaries) {
  SmallVector<Value> outputs;
  for (TilingInterface epilogueOp : templates)
    for (Value init :
         cast<linalg::LinalgOp>(epilogueOp.getOperation()).getDpsInits()) {
      auto type = dyn_cast<MemRefType>(init.getType());
      if (type && !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type) &&
          !llvm::is_contained(temporaries, init) &&
          !llvm::is_contained(outputs, init))
        outputs.push_back(init);
    }
  return outputs;
}

/// Bytes to which a piece's vector store of `elementType` is aligned when
/// its address allows: its own bytes, at most the widest store (which
/// every kernel argument's base is aligned to).
static int64_t getPieceAlignment(Type elementType, int64_t vectorSize) {
  return std::min<int64_t>(
      kMaxGlobalAccessBytes,
      vectorSize * llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8));
}

/// Whether every global store of the piece at `row`, `column` of the tile
/// lands on its alignment (getPieceAlignment), from the addresses at run
/// time: the tile view's aligned pointer, offset and row stride.
Value WgmmaKernelBuilder::isPieceAligned(OpBuilder &b,
                                         ArrayRef<TilingInterface> templates,
                                         Value row, Value column) const {
  Value aligned = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (Value output : getGlobalOutputs(templates, epilogue.temporaries)) {
    Type elementType = cast<MemRefType>(output.getType()).getElementType();
    aligned = arith::AndIOp::create(
        b, loc, aligned,
        createIsAddressAligned(
            b, loc, output, {row, column},
            getPieceAlignment(elementType, epilogue.vectorSize)));
  }
  return aligned;
}

/// One thread's piece of the epilogue, `vectorSize` elements at `row`,
/// `column` of the tile: each of `templates` (the op of `sources`) tiled to
/// it, a temporary's piece in a private 1 x vectorSize buffer. With
/// `alignedStores` (the piece's global addresses known aligned at run
/// time, isPieceAligned), what the ops write to global memory goes to
/// private buffers too, and from there to memory in one vector store each
/// that carries its alignment (which the lowering cannot prove from a
/// run-time row stride).
void WgmmaKernelBuilder::runEpiloguePiece(OpBuilder &b,
                                          ArrayRef<TilingInterface> templates,
                                          ArrayRef<Operation *> sources,
                                          Value row, Value column,
                                          int64_t vectorSize,
                                          bool alignedStores) {
  llvm::SmallDenseMap<Value, Value> privates;
  SmallVector<Value> globalOutputs, written;
  if (alignedStores)
    globalOutputs = getGlobalOutputs(templates, epilogue.temporaries);
  for (Value temporary : epilogue.temporaries)
    privates[temporary] = memref::AllocaOp::create(
        b, loc,
        MemRefType::get(
            {1, vectorSize},
            cast<MemRefType>(temporary.getType()).getElementType()));
  for (auto [epilogueOp, source] : llvm::zip(templates, sources)) {
    FailureOr<TilingResult> tiled =
        TilingInterface(epilogueOp)
            .getTiledImplementation(
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
        if (!slice)
          continue;
        Value source = slice.getSource();
        // A global output's piece: private from its first write on (a
        // read before it is of the memory's prior contents), with those
        // contents where the op reads its output.
        auto linalgOp = dyn_cast<linalg::LinalgOp>(tiledOp);
        if (alignedStores && !privates.count(source) && linalgOp &&
            linalgOp.isDpsInit(&operand) &&
            llvm::is_contained(globalOutputs, source)) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(tiledOp);
          auto type = cast<MemRefType>(source.getType());
          Value buffer = memref::AllocaOp::create(
              b, loc, MemRefType::get({1, vectorSize}, type.getElementType()));
          if (linalgOp.payloadUsesValueFromOperand(&operand))
            memref::CopyOp::create(b, loc, slice, buffer);
          privates[source] = buffer;
          written.push_back(source);
        }
        if (!privates.count(source))
          continue;
        operand.set(privates[source]);
        if (slice->use_empty())
          slice->erase();
      }
  }
  for (Value output : written) {
    auto type = cast<MemRefType>(output.getType());
    auto vectorType = VectorType::get({vectorSize}, type.getElementType());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value piece = vector::LoadOp::create(b, loc, vectorType, privates[output],
                                         ValueRange{zero, zero});
    // Into the memref the tile views (subviews, a batch's rank-reducing)
    // view, at their indices there (upstream's resolution, which
    // fold-memref-alias-ops uses): folding the views into the store later
    // would drop its alignment.
    IRRewriter resolver(b);
    Value memref = output;
    SmallVector<Value> indices = {row, column};
    while (auto view = memref.getDefiningOp<memref::SubViewOp>()) {
      SmallVector<Value> sourceIndices;
      affine::resolveIndicesIntoOpWithOffsetsAndStrides(
          resolver, loc, view.getMixedOffsets(), view.getMixedStrides(),
          view.getDroppedDims(), ValueRange(indices), sourceIndices);
      indices = std::move(sourceIndices);
      memref = view.getSource();
    }
    auto store = vector::StoreOp::create(b, loc, piece, memref, indices);
    store.setAlignment(static_cast<uint64_t>(
        getPieceAlignment(type.getElementType(), vectorSize)));
  }
}

//===----------------------------------------------------------------------===//
// Stage 6: the grid
//===----------------------------------------------------------------------===//

/// A persistent workgroup's loop over tiles (or a cluster's blocks of
/// tiles) `first, first + stride, ...` below `end`: `body` runs for each
/// with its first K step (the loop's iteration times a tile's K steps:
/// stages and phases run on from tile to tile) and the workgroup loop's
/// induction variables mapped to `getOffsets` of the tile.
void WgmmaKernelBuilder::loopOverTiles(
    OpBuilder &b, Value first, Value end, Value stride,
    function_ref<SmallVector<Value>(OpBuilder &, Value)> getOffsets,
    TileBody body) {
  IRMapping mapping;
  scf::ForOp::create(
      b, loc, first, end, stride, ValueRange(),
      [&](OpBuilder &b, Location, Value tile, ValueRange) {
        Value iteration = arith::DivUIOp::create(
            b, loc, arith::SubIOp::create(b, loc, tile, first), stride);
        TileSteps steps;
        steps.base = arith::MulIOp::create(b, loc, iteration, kTiles);
        mapping.map(workgroupLoop.getInductionVars(), getOffsets(b, tile));
        body(b, steps, mapping);
        scf::YieldOp::create(b, loc);
      });
}

/// A persistent grid in clusters: cluster `block / size` of the grid's
/// `workgroups / size` takes the cluster tiles `block / size + i *
/// clusters`, and its workgroup of rank `block mod size` (N fastest) the
/// tile at its place in each.
void WgmmaKernelBuilder::forEachClusterTile(OpBuilder &b, Value block,
                                            TileBody body) {
  const PersistentGrid &grid = *plan.grid;
  const WgmmaCluster &cluster = *plan.cluster;
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t size = grid.getClusterSize();
  Value clusters = constant(grid.workgroups / size);
  Value first = arith::DivUIOp::create(b, loc, block, constant(size));
  auto [m, n] = getPersistentClusterPosition(b, block);
  SmallVector<Value> positions(grid.counts.size(), constant(0));
  if (cluster.mLoopDim >= 0)
    positions[cluster.mLoopDim] = m;
  if (cluster.nLoopDim >= 0)
    positions[cluster.nLoopDim] = n;
  loopOverTiles(
      b, first, constant(grid.tiles / size), clusters,
      [&](OpBuilder &b, Value clusterTile) {
        return grid.getClusterTileOffsets(b, loc, clusterTile, positions);
      },
      body);
}

/// Stream-K: workgroup `block` of the grid's G first runs its share of the
/// data-parallel tiles (PersistentGrid::getDataParallelTiles: `block`,
/// `block + G`, ..., whole), then steps `block * U / G` up to `(block + 1)
/// * U / G` (rounded down) of the U K steps of the stream-K tiles after
/// them, tile by tile. For each tile it reaches, `body` runs the tile's K
/// tiles among them (all of a tile's, or a part that other workgroups
/// complete). A workgroup's steps are numbered from its first, so that
/// stages and phases run on from tile to tile.
void WgmmaKernelBuilder::forEachStreamKPart(OpBuilder &b, Value block,
                                            TileBody body) {
  const PersistentGrid &grid = *plan.grid;
  int64_t units = grid.getNumUnits(), kSteps = grid.kSteps;
  int64_t dataParallel = grid.getDataParallelTiles();
  int64_t wholeTiles = dataParallel / grid.workgroups;
  AffineExpr w = getAffineDimExpr(0, ctx);
  AffineExpr beginExpr = (w * units).floorDiv(grid.workgroups);
  AffineExpr endExpr = ((w + 1) * units).floorDiv(grid.workgroups);
  auto apply = [&](AffineExpr expr) -> Value {
    return affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, expr),
                                         ValueRange{block});
  };
  // The steps and the first and last stream-K tile (counted from the first
  // stream-K tile) of this workgroup.
  Value begin = apply(beginExpr), end = apply(endExpr);
  Value firstTile = apply(beginExpr.floorDiv(kSteps));
  // Iteration i of the loop: whole tile `block + i G` while i < wholeTiles,
  // then stream-K tile `firstTile + i - wholeTiles`.
  Value iterations =
      apply(endExpr.ceilDiv(kSteps) - beginExpr.floorDiv(kSteps) + wholeTiles);
  IRMapping mapping;
  scf::ForOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, 0), iterations,
      arith::ConstantIndexOp::create(b, loc, 1), ValueRange(),
      [&](OpBuilder &b, Location, Value iteration, ValueRange) {
        auto constant = [&](int64_t value) -> Value {
          return arith::ConstantIndexOp::create(b, loc, value);
        };
        AffineExpr first = getAffineDimExpr(0, ctx);
        AffineExpr i = getAffineDimExpr(1, ctx);
        Value c0 = constant(0);
        Value streamTile = affine::AffineApplyOp::create(
            b, loc, AffineMap::get(2, 0, first + i - wholeTiles),
            ValueRange{firstTile, iteration});
        Value tileStart =
            arith::MulIOp::create(b, loc, streamTile, constant(kSteps));
        TileSteps steps;
        steps.kBegin = arith::MaxSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, begin, tileStart), c0);
        steps.kEnd = arith::MinSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, end, tileStart),
            constant(kSteps));
        // K tile k of a stream-K tile is the workgroup's step wholeTiles
        // kSteps + tileStart - begin + k (its first stream-K step follows
        // its whole tiles' steps).
        steps.base = arith::AddIOp::create(
            b, loc, arith::SubIOp::create(b, loc, tileStart, begin),
            constant(wholeTiles * kSteps));
        steps.tile =
            arith::AddIOp::create(b, loc, streamTile, constant(dataParallel));
        // Slot 0 for the first stream-K tile the workgroup's steps reach,
        // 1 for the last (the only others are whole).
        AffineExpr s = getAffineDimExpr(1, ctx);
        steps.slot = affine::AffineApplyOp::create(
            b, loc, AffineMap::get(2, 0, w * kStreamKSlotsPerWorkgroup + s),
            ValueRange{block, arith::SelectOp::create(
                                  b, loc,
                                  arith::CmpIOp::create(
                                      b, loc, arith::CmpIPredicate::ne,
                                      streamTile, firstTile),
                                  constant(1), c0)});
        if (wholeTiles > 0) {
          // A data-parallel tile: all its K tiles, iteration i's steps.
          Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              iteration, constant(wholeTiles));
          auto select = [&](Value ifWhole, Value otherwise) -> Value {
            return arith::SelectOp::create(b, loc, whole, ifWhole, otherwise);
          };
          steps.kBegin = select(c0, steps.kBegin);
          steps.kEnd = select(constant(kSteps), steps.kEnd);
          steps.base =
              select(arith::MulIOp::create(b, loc, iteration, constant(kSteps)),
                     steps.base);
          steps.tile =
              select(affine::AffineApplyOp::create(
                         b, loc, AffineMap::get(2, 0, w + i * grid.workgroups),
                         {block, iteration}),
                     steps.tile);
        }
        mapping.map(workgroupLoop.getInductionVars(),
                    grid.getTileOffsets(b, loc, steps.tile));
        body(b, steps, mapping);
        scf::YieldOp::create(b, loc);
      });
}

/// Runs `body` for this workgroup's tiles: once for the workgroup's own
/// tile, or, on a persistent grid, in a loop over the tiles `block + i *
/// workgroups` (`block` a placeholder replaced by the new workgroup loop's
/// induction variable in buildPersistentLoop).
void WgmmaKernelBuilder::forEachTile(OpBuilder &b, TileBody body) {
  IRMapping mapping;
  if (!plan.grid) {
    body(b, TileSteps(), mapping);
    return;
  }
  const PersistentGrid &grid = *plan.grid;
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  blockPlaceholders.push_back(block);
  if (plan.cluster) {
    forEachClusterTile(b, block, body);
    return;
  }
  if (grid.isStreamK()) {
    forEachStreamKPart(b, block, body);
    return;
  }
  Value workgroups = arith::ConstantIndexOp::create(b, loc, grid.workgroups);
  loopOverTiles(
      b, block, arith::ConstantIndexOp::create(b, loc, grid.tiles), workgroups,
      [&](OpBuilder &b, Value tileIndex) {
        return grid.getTileOffsets(b, loc, tileIndex);
      },
      body);
}

/// `value` for the tile of `mapping`: the ops of the workgroup loop's body
/// it depends on (views of the arguments at the tile's offsets), cloned at
/// `b`'s insertion point with the tile's induction variables.
Value WgmmaKernelBuilder::getForTile(OpBuilder &b, Value value,
                                     IRMapping &mapping) const {
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!plan.grid || !def || def->getNumRegions() != 0 ||
      !workgroupLoop->isProperAncestor(def))
    return value;
  for (Value operand : def->getOperands())
    getForTile(b, operand, mapping);
  Operation *clone = b.clone(*def, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

/// The workgroup loop becomes one over the persistent grid's workgroups;
/// the old induction variables only feed the tile views the roles no longer
/// use (given their first tile's values).
void WgmmaKernelBuilder::buildPersistentLoop() {
  rewriter.setInsertionPoint(workgroupLoop);
  auto persistentLoop = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(plan.grid->workgroups)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)}, ValueRange(),
      rewriter.getArrayAttr(
          {gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)}));
  Block *body = persistentLoop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.setInsertionPointToStart(body);
  Value workgroup = persistentLoop.getInductionVars().front();
  rewriter.mergeBlocks(workgroupLoop.getBody(), body,
                       plan.grid->getTileOffsets(rewriter, loc, workgroup));
  for (Value placeholder : blockPlaceholders)
    rewriter.replaceOp(placeholder.getDefiningOp(), workgroup);
  rewriter.eraseOp(workgroupLoop);
  // The launch groups the workgroups into the clusters.
  if (plan.cluster)
    setClusterShape(persistentLoop);
}

//===----------------------------------------------------------------------===//
// The roles
//===----------------------------------------------------------------------===//

/// One warpgroup does everything: thread 0 fills every stage that has a K
/// tile, then the K loop refills the stage of the step `retiredLag` before
/// once every warp has retired it; the accumulators go to C, or through the
/// staging buffer to the epilogue.
void WgmmaKernelBuilder::buildOneWarpgroup() {
  int64_t retiredLag = plan.getRetiredLag();
  // The first stages' loads: as many as there are stages and K tiles (a
  // constant when K is static).
  Value prologue =
      rewriter.createOrFold<arith::MinUIOp>(loc, stagesValue, kTiles);
  scf::IfOp::create(rewriter, loc, isLeader, [&](OpBuilder &b, Location) {
    scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 0),
                       prologue, arith::ConstantIndexOp::create(b, loc, 1),
                       ValueRange(),
                       [&](OpBuilder &b, Location, Value kTile, ValueRange) {
                         loadStage(b, kTile, kTile, tile, /*place=*/nullptr);
                         scf::YieldOp::create(b, loc);
                       });
    scf::YieldOp::create(b, loc);
  });

  ValueRange accumulators = multiplyAllK(
      rewriter, matmul.tileM, zero, TileSteps(),
      [&](OpBuilder &b, Value kTile) {
        // Every warp has retired K tile `kTile - retiredLag`: refill its
        // stage with the tile `stages` further on.
        gpu::BarrierOp::create(b, loc);
        Value retired = arith::SubIOp::create(
            b, loc, kTile, arith::ConstantIndexOp::create(b, loc, retiredLag));
        Value refill = arith::AddIOp::create(b, loc, retired, stagesValue);
        Value hasRetired = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sge, kTile,
            arith::ConstantIndexOp::create(b, loc, retiredLag));
        Value hasTile = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                              refill, kTiles);
        Value cond = arith::AndIOp::create(
            b, loc, isLeader,
            arith::AndIOp::create(b, loc, hasRetired, hasTile));
        scf::IfOp::create(b, loc, cond, [&](OpBuilder &b, Location) {
          loadStage(b, arith::RemUIOp::create(b, loc, retired, stagesValue),
                    refill, tile, /*place=*/nullptr);
          scf::YieldOp::create(b, loc);
        });
      });
  // Staged in the ring: every warp's groups must have retired, reading the
  // last stages, before any thread writes over them.
  if (plan.isStagedInRing()) {
    fenceRing(rewriter);
    gpu::BarrierOp::create(rewriter, loc);
  }
  for (auto [block, acc] : llvm::enumerate(accumulators))
    storeAccumulator(rewriter, acc, ring.staging ? ring.staging : matmul.c,
                     Value(), matmul.tileM, static_cast<int64_t>(block));
  if (!ring.staging)
    return;
  syncWarpgroup(rewriter, Value());
  IRMapping mapping;
  runEpilogue(rewriter, mapping, zero, matmul.tileM, tid);
}

/// Warp specialization: warpgroups 0 .. consumers-1 multiply
/// (buildConsumers); the last produces, its thread 0 alone issuing TMA
/// loads into stages the consumers released (buildProducer), all its
/// threads restaging a restaged operand's tiles. Registers move
/// from the producer to two consumers (the producer needs few; the sizes
/// are CUTLASS's for one producer and two consumers).
void WgmmaKernelBuilder::buildWarpSpecialized() {
  int64_t consumerThreads = kWarpgroupThreads * matmul.consumers;
  Value isConsumer = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ult, tid, getIndex(consumerThreads));
  bool moveRegisters = matmul.consumers >= 2;
  scf::IfOp::create(
      rewriter, loc, isConsumer,
      [&](OpBuilder &b, Location) {
        if (moveRegisters)
          NVVM::SetMaxRegisterOp::create(b, loc, kConsumerRegisters,
                                         NVVM::SetMaxRegisterAction::increase);
        buildConsumers(b);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location) {
        if (moveRegisters)
          NVVM::SetMaxRegisterOp::create(b, loc, kProducerRegisters,
                                         NVVM::SetMaxRegisterAction::decrease);
        // A restaged operand takes every producer thread.
        if (matmul.layouts.isRestaged()) {
          buildProducer(b);
          scf::YieldOp::create(b, loc);
          return;
        }
        Value isProducer = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq, tid,
            arith::ConstantIndexOp::create(b, loc, consumerThreads));
        scf::IfOp::create(b, loc, isProducer, [&](OpBuilder &b, Location) {
          buildProducer(b);
          scf::YieldOp::create(b, loc);
        });
        scf::YieldOp::create(b, loc);
      });
}

/// Erases what the kernel replaces: the matmul, its fill, the epilogue's
/// ops, then the tile's leftovers and buffers (their deallocations first).
LogicalResult WgmmaKernelBuilder::eraseMatchedOps() {
  if (untiledEpilogueOp)
    return untiledEpilogueOp->emitOpError()
           << "could not be tiled to the MatmulWgmma epilogue's pieces of 1x"
           << epilogue.vectorSize;
  rewriter.eraseOp(matmul.op);
  if (matmul.fill)
    rewriter.eraseOp(matmul.fill);
  if (matmul.priorCopy)
    rewriter.eraseOp(matmul.priorCopy);
  for (linalg::LinalgOp epilogueOp : epilogue.ops)
    rewriter.eraseOp(epilogueOp);
  for (Operation *leftover : epilogue.leftovers)
    rewriter.eraseOp(leftover);
  for (Operation *buffer : epilogue.buffers)
    rewriter.eraseOp(buffer);
  return success();
}

void WgmmaKernelBuilder::setClusterShape(scf::ForallOp loop) const {
  ctx->getLoadedDialect<GpucgDialect>()->getClusterShapeAttrHelper().setAttr(
      loop, rewriter.getDenseI64ArrayAttr(plan.cluster->getShape()));
}

LogicalResult WgmmaKernelBuilder::build() {
  if (failed(verifySplitK()) || failed(verifyStreamK()))
    return failure();
  hoistEpilogueViews();
  buildTensorMaps();
  buildRing();
  buildBarriers();
  buildTileCoordinates();
  // Accumulators are 64 rows each: MLIR 22's lowering of
  // warpgroup.mma.store places the second 64-row block of a taller one N/2
  // rows (the elements a thread holds of the first) below the first, not
  // 64 (right only for N = 128), so a warpgroup of 128 rows keeps two.
  accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
      ctx,
      VectorType::get({kWarpgroupRows, matmul.tileN}, rewriter.getF32Type()));
  if (plan.isWarpSpecialized())
    buildWarpSpecialized();
  else
    buildOneWarpgroup();
  if (failed(eraseMatchedOps()))
    return failure();
  if (plan.grid)
    buildPersistentLoop();
  else if (plan.cluster)
    setClusterShape(workgroupLoop);
  return success();
}

LogicalResult mlir::gpucg::buildWgmmaKernel(RewriterBase &rewriter,
                                            const WgmmaKernelPlan &plan) {
  return WgmmaKernelBuilder(rewriter, plan).build();
}
