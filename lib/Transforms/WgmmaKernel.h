//===- WgmmaKernel.h - The plan of a MatmulWgmma kernel ---------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Transforms. gpucg-lower-matmul-to-wgmma in two halves: the
// match (MatmulToWgmma.cpp) reads the kernel and its translation_info into
// a WgmmaKernelPlan, emitting every error, and the stage builders
// (WgmmaKernel.cpp) turn the plan into IR, failing on nothing it checked.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_LIB_TRANSFORMS_WGMMAKERNEL_H
#define GPUCG_LIB_TRANSFORMS_WGMMAKERNEL_H

#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

namespace mlir {
class RewriterBase;
namespace gpucg {

/// Where a workgroup's view of a kernel argument starts: an offset along
/// each of the argument's dimensions. The view is of its last two (a
/// batched argument's leading dimensions are the batch, one matrix of which
/// the view is).
struct ArgumentView {
  BlockArgument argument;
  SmallVector<OpFoldResult> offsets;

  MemRefType getArgumentType() const {
    return cast<MemRefType>(argument.getType());
  }
  /// The view's first row and column in its matrix.
  OpFoldResult getRowOffset() const { return offsets[offsets.size() - 2]; }
  OpFoldResult getColumnOffset() const { return offsets.back(); }
  /// The matrix's rows and columns (either may be dynamic).
  int64_t getRows() const {
    return getArgumentType().getDimSize(offsets.size() - 2);
  }
  int64_t getColumns() const { return getArgumentType().getShape().back(); }
  /// The matrix's rows and columns at run time: a constant, or a memref.dim
  /// of the argument built at `b`'s insertion point.
  Value getRows(OpBuilder &b, Location loc) const;
  Value getColumns(OpBuilder &b, Location loc) const;
  bool isBatched() const { return offsets.size() > 2; }
};

/// How one wgmma operand's tile lies in a stage of the ring, as TMA loads
/// it: K-contiguous, one box of its `outer` rows (of M or N) of one
/// 128-byte K row each; M- or N-contiguous, chunks of one swizzled row of
/// M or N columns each, tileK rows, one after the other (the MN-major
/// layout's leading byte offset is a chunk's bytes).
struct WgmmaOperandTile {
  bool kContiguous;
  int64_t outer, tileK, elementBytes;

  int64_t getChunkColumns() const {
    return kContiguous ? outer : wgmma::kSwizzleBytes / elementBytes;
  }
  int64_t getNumChunks() const { return outer / getChunkColumns(); }
  int64_t getChunkBytes() const {
    return tileK * getChunkColumns() * elementBytes;
  }
  int64_t getBytes() const { return outer * tileK * elementBytes; }
  /// The box of one chunk, outermost first (the argument's own dimensions).
  SmallVector<int64_t> getBox() const {
    if (kContiguous)
      return {outer, tileK};
    return {tileK, getChunkColumns()};
  }
  /// Bytes one wgmma K step of `stepK` elements moves along the tile: along
  /// each 128-byte K row, or by that many rows of K.
  int64_t getKStepBytes(int64_t stepK) const {
    return kContiguous ? stepK * elementBytes : stepK * wgmma::kSwizzleBytes;
  }
};

/// The tile and operands of one MatmulWgmma root, as wgmma multiplies
/// them: `a`, `b`, m, n, tileM and tileN are wgmma's A, B, M and N, which
/// are the matmul's own unless the tile is `transposed`.
struct WgmmaMatmul {
  linalg::LinalgOp op;
  /// The zero fill of C the accumulator's start replaces; null with
  /// `priorC`.
  linalg::FillOp fill;
  ArgumentView a, b;
  Value c;
  /// The whole matmul's M, N and K (A's and B's arguments); tiles past M or
  /// N are partial (TMA reads zeros past the matrix, the staged store
  /// writes only what lies inside), and so is the last K tile past K. Each
  /// may be dynamic (a small transposed tile's n, C's M, never is): the
  /// arguments' sizes at run time (getSize).
  int64_t m, n, k;
  int64_t tileM, tileN, tileK, stages;
  /// Whether wgmma computes the tile as C^T = B^T * A^T
  /// (wgmma::computesTransposed: a tile of fewer than 64 rows, or A[k, m]
  /// times B[n, k]): `a` is then the matmul's B[n, k], `b` its A (A[m, k],
  /// K-contiguous, or A[k, m], N-contiguous as wgmma's B), and m, tileM are
  /// C's columns, n, tileN its rows. The accumulator is staged, stored to
  /// the staging buffer transposed.
  bool transposed = false;
  /// Consumer warpgroups of a warp-specialized workgroup (plus one
  /// producer); 0 when one warpgroup does everything.
  int64_t consumers;
  /// C += A * B: the view of a kernel argument whose contents the
  /// accumulator starts from, which the epilogue adds to the staged product:
  /// C itself, or what `priorCopy` copies into C's temporary. Null when a
  /// zero fill starts it.
  Value priorC;
  memref::CopyOp priorCopy;
  /// wgmma's operands' layouts (a transposed tile's are the matmul's
  /// swapped).
  WgmmaLayouts layouts;
  Type elementType;

  int64_t elementBytes() const {
    return llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
  }
  /// K of one wgmma instruction (16 for 16-bit operands, 32 for 8-bit).
  int64_t instructionK() const { return wgmma::getInstructionK(elementType); }
  /// wgmma's A and B tiles in a stage: A's first, then B's, then a
  /// restaged operand's load tile (A's, then B's).
  WgmmaOperandTile getATile() const {
    return {layouts.aKContiguous, tileM, tileK, elementBytes()};
  }
  WgmmaOperandTile getBTile() const {
    return {layouts.bKContiguous, tileN, tileK, elementBytes()};
  }
  /// The tiles TMA loads of A and B: wgmma's, or a restaged operand's as it
  /// lies in memory (M- or N-contiguous), which the producer warpgroup
  /// writes K-major into wgmma's tile.
  WgmmaOperandTile getALoadTile() const {
    WgmmaOperandTile tile = getATile();
    tile.kContiguous = !layouts.aRestaged && tile.kContiguous;
    return tile;
  }
  WgmmaOperandTile getBLoadTile() const {
    WgmmaOperandTile tile = getBTile();
    tile.kContiguous = !layouts.bRestaged && tile.kContiguous;
    return tile;
  }
  /// Where in a stage TMA loads A's and B's tiles: wgmma's tile, or a
  /// restaged operand's load tile after both of wgmma's.
  int64_t getALoadOffset() const {
    return layouts.aRestaged ? getATile().getBytes() + getBTile().getBytes()
                             : 0;
  }
  int64_t getBLoadOffset() const {
    int64_t wgmmaTiles = getATile().getBytes() + getBTile().getBytes();
    if (!layouts.bRestaged)
      return getATile().getBytes();
    return layouts.aRestaged ? wgmmaTiles + getATile().getBytes() : wgmmaTiles;
  }
  /// Bytes TMA loads per stage into wgmma's tiles (the full barrier's) and
  /// into restaged load tiles (the loaded barrier's).
  int64_t getDirectLoadBytes() const {
    return (layouts.aRestaged ? 0 : getATile().getBytes()) +
           (layouts.bRestaged ? 0 : getBTile().getBytes());
  }
  int64_t getRestagedLoadBytes() const {
    return (layouts.aRestaged ? getATile().getBytes() : 0) +
           (layouts.bRestaged ? getBTile().getBytes() : 0);
  }
  int64_t stageBytes() const {
    return getATile().getBytes() + getBTile().getBytes() +
           getRestagedLoadBytes();
  }
  bool hasPartialTiles() const {
    return ShapedType::isDynamic(m) || ShapedType::isDynamic(n) ||
           m % tileM != 0 || n % tileN != 0;
  }
  /// M (`'m'`), N (`'n'`) or K (`'k'`) of wgmma's operands at run time, at
  /// `b`'s insertion point: a constant, or the size of the argument of A
  /// or B that gives it.
  Value getSize(OpBuilder &builder, Location loc, char dim) const;
  /// K tiles of the whole K (the last one partial where the K tile does
  /// not divide K) at run time, likewise.
  Value getNumKTiles(OpBuilder &builder, Location loc) const;
  /// C's rows and columns, in the whole matmul and in a tile.
  int64_t cRows() const { return transposed ? n : m; }
  int64_t cColumns() const { return transposed ? m : n; }
  Value getCRows(OpBuilder &builder, Location loc) const {
    return getSize(builder, loc, transposed ? 'n' : 'm');
  }
  Value getCColumns(OpBuilder &builder, Location loc) const {
    return getSize(builder, loc, transposed ? 'm' : 'n');
  }
  int64_t cTileRows() const { return transposed ? tileN : tileM; }
  int64_t cTileColumns() const { return transposed ? tileM : tileN; }
};

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
  /// 128-bit vectors. With a static N, the valid columns of a partial tile
  /// are whole pieces; a dynamic N may end inside one, which then runs
  /// element by element.
  int64_t vectorSize = 1;

  /// Whether the accumulator goes from registers straight to C: no op to
  /// run and no staged copy.
  bool empty() const { return ops.empty() && !storesAccumulator; }
};

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

/// A persistent grid: `workgroups` workgroups looping over the `tiles` of
/// the workgroup loop, tile t at index t % counts[0] along its first
/// dimension (M), t / counts[0] along the second.
struct PersistentGrid {
  int64_t workgroups = 0, tiles = 0;
  /// Stream-K (`stream_k`): the K steps of each tile; 0 when each
  /// workgroup takes whole tiles. The tiles of the last one or two waves
  /// (getStreamKTiles) are split: their K steps, tile by tile, evenly over
  /// the workgroups (workgroup w runs steps `w * units / workgroups` up to
  /// `(w + 1) * units / workgroups`, rounded down).
  int64_t kSteps = 0;
  bool isStreamK() const { return kSteps != 0; }
  /// Stream-K's data-parallel tiles: all but the last full wave and the
  /// partial one run whole, tile t by workgroup t mod workgroups, before
  /// the stream-K tiles (CUTLASS's data-parallel + stream-K hybrid): where
  /// there are many waves, fewer tiles are split, and their parts added,
  /// while the last waves still share the work evenly.
  int64_t getDataParallelTiles() const {
    int64_t waves = tiles / workgroups;
    return waves > 1 ? (waves - 1) * workgroups : 0;
  }
  /// The tiles after them, whose K steps the workgroups split, and those
  /// steps (stream-K's units of work).
  int64_t getStreamKTiles() const { return tiles - getDataParallelTiles(); }
  int64_t getNumUnits() const { return getStreamKTiles() * kSteps; }
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
                                           ArrayRef<Value> positions) const;
  /// The workgroup loop's induction variables for tile `tileIndex`.
  SmallVector<Value> getTileOffsets(OpBuilder &b, Location loc,
                                    Value tileIndex) const;
};

/// The typed plan of one MatmulWgmma kernel, complete before any IR is
/// built: what was matched (the matmul, its epilogue, the workgroup loop),
/// the launch shape translation_info asked for and the kernel can take, and
/// what every stage builder derives from them.
struct WgmmaKernelPlan {
  WgmmaMatmul matmul;
  WgmmaEpilogue epilogue;
  FunctionOpInterface funcOp;
  /// The scf.forall over #gpu.block around the matmul; null for a kernel of
  /// one workgroup.
  scf::ForallOp workgroupLoop;
  std::optional<PersistentGrid> grid;
  std::optional<WgmmaCluster> cluster;

  /// Whether a producer warpgroup loads for consumer warpgroups (else one
  /// warpgroup does everything).
  bool isWarpSpecialized() const { return matmul.consumers != 0; }
  /// Slices a workgroup of a cluster loads of A's tile (one per workgroup of
  /// its cluster row, which share it) and of B's (one per workgroup of its
  /// column): whole swizzle atoms along each box's outer dimension.
  int64_t getASlices() const { return cluster ? cluster->n : 1; }
  int64_t getBSlices() const { return cluster ? cluster->m : 1; }
  /// The boxes of those slices (the chunks' own without a cluster).
  SmallVector<int64_t> getASliceBox() const {
    SmallVector<int64_t> box = matmul.getALoadTile().getBox();
    box[0] /= getASlices();
    return box;
  }
  SmallVector<int64_t> getBSliceBox() const {
    SmallVector<int64_t> box = matmul.getBLoadTile().getBox();
    box[0] /= getBSlices();
    return box;
  }
  int64_t getRingBytes() const { return matmul.stages * matmul.stageBytes(); }
  /// Whether the accumulator goes through a staging buffer in workgroup
  /// memory (a fused epilogue or a staged store) ...
  bool isStaged() const { return !epilogue.empty(); }
  /// ... and whether that buffer is the ring itself, once every K step has
  /// retired (wgmma::isStagedInRing).
  bool isStagedInRing() const {
    return isStaged() &&
           wgmma::isStagedInRing(getRingBytes(), matmul.cTileRows(),
                                 matmul.cTileColumns(), grid.has_value());
  }
  /// K steps between the one just issued and the last that has retired:
  /// with two or more stages a step's wgmma groups stay in flight while the
  /// next is issued; with one, every step retires at once and frees its own
  /// stage.
  int64_t getRetiredLag() const { return matmul.stages >= 2 ? 1 : 0; }
  /// wgmma ops (each its own group) per K step and 64-row accumulator: one
  /// (A K-contiguous, B N-contiguous: nvgpu steps both descriptors over the
  /// whole K tile), or one per wgmma K step (WgmmaLayouts::
  /// multipliesPerKStep).
  int64_t getOpsPerBlock() const {
    return matmul.layouts.multipliesPerKStep()
               ? matmul.tileK / matmul.instructionK()
               : 1;
  }
};

/// The ops after `op` in its block, up to its terminator: the tile's ops
/// after the matmul.
SmallVector<Operation *> getOpsAfter(Operation *op);

/// Builds the kernel of `plan` in place of its matmul, fill and epilogue,
/// which it erases: the host's tensor maps, the ring and its barriers, the
/// roles (one warpgroup, or a TMA producer and multiplying consumers), the
/// store or epilogue, and a persistent grid's loop. Fails, with an error,
/// only where an epilogue op cannot be tiled to its pieces.
LogicalResult buildWgmmaKernel(RewriterBase &rewriter,
                               const WgmmaKernelPlan &plan);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_LIB_TRANSFORMS_WGMMAKERNEL_H
