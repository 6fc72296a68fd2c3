//===- Transforms.h - Reusable gpucg transformations ------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transformations behind gpucg's passes, for use by other passes, pass
// pipelines and transform scripts.
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_TRANSFORMS_H
#define GPUCG_TRANSFORMS_TRANSFORMS_H

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/LogicalResult.h"

namespace mlir {
class DialectRegistry;
class Operation;
class RewritePatternSet;
class RewriterBase;
class FunctionOpInterface;
class ModuleOp;
namespace linalg {
class FillOp;
class LinalgOp;
} // namespace linalg
namespace scf {
class ForOp;
class ForallOp;
} // namespace scf

namespace gpucg {

/// The widest global load or store gpucg emits: 128 bits (`ld.global.v4`,
/// `st.global.v4`, a 16-byte `cp.async`).
inline constexpr int64_t kMaxGlobalAccessBytes = 16;

/// The alignment gpucg assumes of every kernel argument's base address
/// (docs/ABI.md: cudaMalloc gives 256) and gives every workgroup buffer
/// (gpucg-build-gpu-launch): enough for the widest access.
inline constexpr int64_t kBufferAlignment = 16;
static_assert(kBufferAlignment >= kMaxGlobalAccessBytes,
              "a buffer's base must take the widest access");

/// Makes `chip` the GPU of `module`: its `gpucg.target` becomes NVIDIA's
/// description of the chip (TargetAttr::getForChip), unless the module
/// already describes that chip. A module described as another chip, or a
/// chip gpucg does not know, is an error on the module.
LogicalResult setTargetChip(ModuleOp module, StringRef chip);

/// Prints `shape` as MLIR writes a shaped type's: the sizes joined by `x`,
/// `?` for a dynamic one (`2x?x64`).
void printShape(llvm::raw_ostream &os, ArrayRef<int64_t> shape);

/// Whether `type` (or its element type) is a float of 8 bits or fewer
/// (f8E4M3FN, f8E5M2, the FNUZ formats, f6, f4, f8E8M0FNU): LLVM has no type
/// for them, and arith's conversions to and from them no lowering.
bool isSmallFloat(Type type);

/// Patterns rewriting arith.extf from and arith.truncf to small floats
/// (isSmallFloat) into integer arithmetic on their bits, with arith's exact
/// meaning: every rounding mode, NaN, infinity, overflow and signed zero as
/// APFloat defines them for the format. Sources of truncf: f16, bf16, f32,
/// f64 and small floats.
void populateExpandSmallFloatConversionPatterns(RewritePatternSet &patterns);

/// Patterns rewriting the conversions NVVM has instructions for (sm_89+):
/// arith.truncf from f32, f16 or bf16 to f8E4M3FN or f8E5M2 rounding to
/// nearest even (`cvt.rn.satfinite` on pairs, then selects that give
/// overflow, infinity and NaN arith's meaning), and arith.extf from them
/// (`cvt.rn.f16x2` on pairs, exact). They take precedence over
/// populateExpandSmallFloatConversionPatterns where both apply.
void populateNVVMFloat8ConversionPatterns(RewritePatternSet &patterns);

/// Under `root`: arith arithmetic on small floats computed in f32 (upstream's
/// emulate-unsupported-floats), then every conversion to or from a small
/// float expanded (populateExpandSmallFloatConversionPatterns, and with
/// `useNVVMFloat8` populateNVVMFloat8ConversionPatterns first). Emits an
/// error on each conversion it cannot expand and fails.
LogicalResult expandSmallFloats(Operation *root, bool useNVVMFloat8 = false);

/// Whether kernels of `pipeline` have per-thread level-1 tile sizes, which
/// gpucg's SIMT stages distribute over threads: SimtDistribute, Vectorize
/// and MatmulSimt.
bool isDistributedOverThreads(Pipeline pipeline);

/// Re-plans kernel `funcOp` as SimtDistribute when its pipeline is neither
/// None nor distributed over threads (isDistributedOverThreads): the
/// translation_info becomes SimtDistribute on the same workgroup size, and
/// each op with a gpucg.lowering_config keeps its level-0 sizes and gets
/// level-1 sizes of one element per thread over the (innermost three)
/// parallel loops tiled at level 0. Functions without a translation_info are
/// left alone. Emits an error and fails when there is no workgroup size or
/// no op with a lowering_config.
LogicalResult replanAsSimtDistribute(FunctionOpInterface funcOp);

/// Tiles the parallel loops of `rootOp` by its `gpucg.lowering_config`
/// level-0 sizes into an `scf.forall` mapped to `#gpu.block<x/y/z>` (the
/// innermost tiled loop is x). More than three tiled loops share z: the
/// forall's outer dimensions are linearized into one (static trip counts
/// only), which `affine.delinearize_index` splits back in the body. On
/// tensors, the chain of elementwise consumers
/// after the root is tiled with it and every producer is fused into the
/// tile; on memrefs the root alone is tiled. Returns the forall, or null when
/// no loop is tiled; emits an error and fails when the root cannot be tiled.
/// The untiled producers are left for dead-code elimination.
FailureOr<scf::ForallOp> tileAndDistributeToWorkgroups(RewriterBase &rewriter,
                                                       linalg::LinalgOp rootOp);

/// Versions each vector access of global memory under `root` whose
/// alignment rests on run-time sizes (gpucg-version-vector-alignment): an
/// scf.if on its address being a multiple of its bytes (at most 16) and,
/// for a masked transfer, its mask being whole, with a vector.load or
/// vector.store claiming that alignment in the then-branch and the access
/// as it was in the else-branch. Returns how many accesses it versioned.
int64_t versionVectorAlignment(RewriterBase &rewriter, Operation *root);

/// Reorders the tiles of `forallOp`, a workgroup loop, in groups of
/// `groupSize` rows of tiles (block y), column by column within a group, so
/// that workgroups started together share rows of A and columns of B in L2
/// (gpucg-reorder-workgroups). Replaces the uses of the x and y induction
/// variables in the body by the reordered ones. Returns whether the loop
/// was reordered: a loop without static x and y dimensions of more than one
/// tile each, or a `groupSize` below 2, is left alone.
bool reorderWorkgroups(RewriterBase &rewriter, scf::ForallOp forallOp,
                       int64_t groupSize);

/// Tiles and distributes the work of each workgroup of kernel `funcOp`
/// (bufferized, workgroup-tiled, carrying gpucg.translation_info and a root
/// op with gpucg.lowering_config): stages the accumulator of tensor-core
/// matmuls in workgroup memory (each warp initializes its part from the
/// fill producing C, or from C; the workgroup copies the tile out after the
/// K loop), promotes A and B (more than one warp) of matmuls to workgroup
/// memory with barriers, tiles the reduction loops by the level-0 sizes
/// into scf.for, and distributes the parallel loops of the tile's linalg
/// ops by the level-1 sizes cyclically over warps (`toWarps`) or threads.
/// Functions without a translation_info, or with pipeline None or
/// WarpReduction, are left alone.
LogicalResult tileAndDistributeInWorkgroup(RewriterBase &rewriter,
                                           FunctionOpInterface funcOp,
                                           bool toWarps);

/// Hoists the statically shaped workgroup-memory allocations of `funcOp` to
/// its entry block, then multi-buffers `numBuffers` times, with upstream
/// memref::multiBuffer, each one whose users are all inside one scf.for.
/// Allocations used outside loops are left alone. Emits an error and fails
/// for an allocation used only inside loops that cannot be multi-buffered.
LogicalResult multiBufferWorkgroupAllocs(RewriterBase &rewriter,
                                         FunctionOpInterface funcOp,
                                         unsigned numBuffers);

/// Vectorizes the static warp-level linalg ops of `funcOp` (all but
/// workgroup-wide copies), canonicalizes the contractions for MMA conversion
/// (`populatePrepareVectorToMMAPatterns`), unrolls vector.contract and the
/// vector ops around it to `instructionShape` (M, N, K of the MMA
/// instruction), hoists the accumulator out of the K loop, forwards its
/// initial value from what initialized it (a fill's constant, a read of C)
/// and puts a barrier before its write-back to workgroup memory.
LogicalResult vectorizeForTensorCores(RewriterBase &rewriter,
                                      FunctionOpInterface funcOp, MmaKind kind,
                                      ArrayRef<int64_t> instructionShape);

/// Vectorizes every linalg op of `funcOp` whose iteration space is static,
/// non-empty and of at most `maxVectorElements` points with upstream
/// linalg::vectorize (reductions become vector.multi_reduction), but the
/// workgroup-wide copies to or from workgroup memory. Ops it does not take
/// are left as they are.
void vectorizeThreadTiles(RewriterBase &rewriter, FunctionOpInterface funcOp,
                          int64_t maxVectorElements);

/// Hoists loop-invariant code out of every scf.for in `root`, then moves
/// each vector.transfer_read / vector.transfer_write pair of a loop on the
/// same loop-invariant location out of it, carrying the vector in
/// iter_args. Only for locations in a distinct buffer (an allocation or a
/// kernel argument) that nothing else in the loop touches.
void hoistLoopInvariantTransfers(RewriterBase &rewriter, Operation *root);

/// Casts leading unit dimensions away from the vector ops of `funcOp`,
/// hoists loop-invariant transfers (hoistLoopInvariantTransfers) and, when
/// `funcOp` has no gpu.barrier, forwards stores to loads and removes dead
/// stores (vector::transferOpflowOpt).
LogicalResult optimizeVectorTransfers(RewriterBase &rewriter,
                                      FunctionOpInterface funcOp);

/// The next link of the chain of elementwise consumers that workgroup tiling
/// fuses after a root (getWorkgroupTilingTarget): the one user of `value`
/// when it is an elementwise linalg op on tensors with one result that reads
/// `value` and writes its result with identity maps; null otherwise.
linalg::LinalgOp getFusedElementwiseConsumer(Value value);

/// Returns the op that workgroup tiling tiles for root `rootOp` (fusing the
/// rest of the kernel into its tiles) and that op's tile sizes: the last op
/// of the chain of elementwise consumers of the root, whose loops are the
/// root's result dimensions, then of the op that reads that chain's result
/// once per row of the root's loops (softmax's division, RMSNorm's scaling)
/// and of that op's elementwise consumers; or the root itself. Reduction
/// loops are never tiled.
std::pair<linalg::LinalgOp, SmallVector<int64_t>>
getWorkgroupTilingTarget(linalg::LinalgOp rootOp,
                         ArrayRef<int64_t> rootTileSizes);

/// A reduction over an op's innermost loop that gpu.subgroup_reduce can
/// perform across threads: its combiner's operation and neutral element.
struct RowReduction {
  gpu::AllReduceOperation kind;
  TypedAttr neutral;
};

/// Matches `op`: one reduction loop, the innermost, one output, and a body
/// whose value for the output is combined with the accumulator by one op of
/// a kind gpu.subgroup_reduce has (add, mul, min, max, and, or, xor) and
/// with a neutral element. Fails otherwise.
FailureOr<RowReduction> matchRowReduction(linalg::LinalgOp op);

/// For a WarpReduction kernel (after workgroup tiling and bufferization:
/// one row per workgroup), replaces each root op by a reduction split over
/// the workgroup's threads: per-thread partials of `v` elements per step
/// (the level-1 size of the reduction loop) from the neutral element, a
/// gpu.subgroup_reduce per warp, the warps' partials through workgroup
/// memory and a second gpu.subgroup_reduce, and thread 0 combining the total
/// into the output. Other kernels are left alone.
LogicalResult distributeReductionOverThreads(RewriterBase &rewriter,
                                             FunctionOpInterface funcOp);

/// The first input of row reduction `op` whose indexing map does not read
/// the row (the innermost loop) in exactly one dimension indexed by that
/// loop alone (`d1 * 2`, a diagonal `(d1, d1)`): its part of a row is no
/// subview. None when every input can be viewed at a part of the row.
std::optional<unsigned> findInputNotViewableAlongRow(linalg::LinalgOp op);

/// Whether an accumulator of `type` can be combined with `kind` by an atomic
/// read-modify-write (createAtomicCombine): integers and floats of 8, 16 or
/// 32 bits, except floating-point products.
bool isAtomicallyCombinable(gpu::AllReduceOperation kind, Type type);

/// Creates the atomic update `buffer[indices] = kind(buffer[indices],
/// value)`: a memref.atomic_rmw where it has the kind, else (products) a
/// memref.generic_atomic_rmw around the combiner. `kind` and the type of
/// `value` must be isAtomicallyCombinable. Returns the new op.
Operation *createAtomicCombine(OpBuilder &builder, Location loc,
                               gpu::AllReduceOperation kind, Value value,
                               Value buffer, ValueRange indices);

/// For a WarpReduction kernel (after workgroup tiling and bufferization)
/// whose root's level-0 tile `t` of the reduction loop is less than its rows
/// of `n` elements: adds a dimension of `n / t` workgroups to the workgroup
/// loop, on the first free grid dimension, and makes each workgroup reduce
/// its `t` elements of the row into a private total from the neutral element
/// and combine that total into the accumulator with createAtomicCombine.
/// The root must be alone in its tile and accumulate into a kernel argument
/// (whyRowsCannotSplit); otherwise emits an error. Other kernels and roots
/// that reduce whole rows are left alone.
LogicalResult splitRowsAcrossWorkgroups(RewriterBase &rewriter,
                                        FunctionOpInterface funcOp);

/// The workgroup loop `forallOp` (on memrefs, no shared outputs) with one
/// more dimension of `count` workgroups, mapped to grid dimension `gridDim`,
/// which no dimension of the loop takes yet; the body moves into the new
/// loop unchanged. Returns the new loop, whose last induction variable is
/// the new dimension's. Does not update `gpu.known_grid_size`.
scf::ForallOp addWorkgroupLoopDimension(RewriterBase &rewriter,
                                        scf::ForallOp forallOp, int64_t count,
                                        unsigned gridDim);

/// The most run-time sizes a launch's workgroup count may multiply: the
/// ABI's grid formulas (docs/ABI.md, GPUCG_ABI_MAX_GRID_TERMS) count a
/// product of up to this many sizes (`argN.dimD`, `ceildiv argN.dimD S`)
/// and a constant. Workgroup tiling refuses a kernel whose grid z would
/// need more.
inline constexpr int64_t kMaxGridSizeTerms = 3;

/// The symbols of the module-level buffers of split-K kernel `funcName`
/// (createSplitKWorkspaces): the partial sums, and one arrival counter per
/// output tile.
std::string getSplitKPartialsName(StringRef funcName);
std::string getSplitKCountersName(StringRef funcName);

/// The split-K workspace of a kernel with `split_k = S` and workgroup tiles
/// of `tileElements` accumulator elements of `elementType` on a grid of
/// `tiles` output tiles: `tiles * S * tileElements` partial sums, and
/// `tiles` i32 arrival counters. A stream-K kernel's (`stream_k`) has two
/// slots of partial sums per workgroup of its persistent grid (a
/// workgroup's K steps start in one tile and end in another, and only
/// those two may be partial), and counts K steps per tile.
struct SplitKWorkspace {
  Type elementType;
  int64_t tiles = 0;
  int64_t parts = 1;
  int64_t tileElements = 0;
  /// Tiles' worth of partial sums: `tiles * parts`, or two per workgroup
  /// of a stream-K grid.
  int64_t slots = 0;
  int64_t getNumPartials() const { return slots * tileElements; }

  /// The workspace of `parts` parts of each of `tiles` output tiles.
  static SplitKWorkspace getSplitK(Type elementType, int64_t tiles,
                                   int64_t parts, int64_t tileElements);
  /// The workspace of a stream-K grid of `workgroups` over `tiles` output
  /// tiles: f32 partial sums (MatmulWgmma's staged accumulator), two slots
  /// per workgroup. gpucg-create-split-k-workspace sizes the buffers with
  /// it, and MatmulWgmma checks them with it.
  static SplitKWorkspace getStreamK(MLIRContext *context, int64_t tiles,
                                    int64_t workgroups, int64_t tileElements);
};

/// Partial-sum slots per workgroup of a stream-K grid: one for the tile its
/// K steps start in, one for the tile they end in.
inline constexpr int64_t kStreamKSlotsPerWorkgroup = 2;

/// The workspace of kernel `funcOp` (after gpucg-split-k-across-workgroups
/// or workgroup tiling of a plan with `split_k` above 1), from its plan and
/// its root; failure with an error when the plan's facts are missing.
FailureOr<SplitKWorkspace> getSplitKWorkspace(FunctionOpInterface funcOp);

/// For each function of `module` whose plan has `split_k` above 1 or
/// `stream_k`: creates
/// its module-level buffers (getSplitKPartialsName, getSplitKCountersName)
/// as `memref.global`s, the counters zero-initialized (each kernel leaves
/// them zero again), the partial sums uninitialized. Existing ones of the
/// right types are kept.
LogicalResult createSplitKWorkspaces(ModuleOp module);

/// For a MatmulTensorCoreMmaSync kernel with `split_k = S` above 1 (after
/// workgroup tiling and bufferization, before gpucg-workgroup-
/// specialization): adds a dimension of S workgroups on grid z to the
/// workgroup loop, and makes the root matmul of each read its part of K:
/// `K / S` elements of A and B from `part * K / S`. The accumulator's fill
/// and the epilogue stay; gpucg-combine-split-k adds the parts up. Other
/// kernels are left alone; a kernel the plan's checks (whyNoSplitK) should
/// have refused is an error.
LogicalResult splitKAcrossWorkgroups(RewriterBase &rewriter,
                                     FunctionOpInterface funcOp);

/// For a kernel split by splitKAcrossWorkgroups, after gpucg-vector-to-gpu
/// (its K loops carry the mma.sync accumulators as vectors): after each K
/// loop, every thread stores its accumulators into the kernel's partial
/// sums (this part's slot of the tile), fences them (membar.gl) and
/// synchronizes the workgroup; thread 0 counts the workgroup's arrival
/// atomically in the tile's counter, and the last of the tile's S
/// workgroups to arrive (which resets the counter) reads all S partial sums
/// in part order, adds them and runs the rest of the tile (its epilogue)
/// on the total; the others skip it. The order of the sum does not depend
/// on which workgroup comes last. Emits an error when the kernel has no
/// such K loop or its accumulators do not start from zero.
LogicalResult combineSplitK(RewriterBase &rewriter, FunctionOpInterface funcOp);

/// In the body of `workgroupLoop`, the workgroup loop of a split-K kernel
/// (its dimensions on grid x and y index the output tiles, the one on z the
/// parts), at `b`'s insertion point: the output tile's index in the
/// kernel's arrival counters (`y * tiles_x + x`) and the part of K.
/// Failure, with an error on the loop, when its bounds are not static or
/// it has no dimension on grid z.
FailureOr<std::pair<Value, Value>>
getSplitKTileAndPart(OpBuilder &b, scf::ForallOp workgroupLoop);

/// The module-level buffers of split-K kernel `funcOp` made by
/// createSplitKWorkspaces, and what they hold for its gpu.known_grid_size:
/// failure, with an error on the function, when they are missing or do not
/// fit its tiles.
struct SplitKBuffers {
  memref::GlobalOp partials, counters;
  SplitKWorkspace workspace;
};
FailureOr<SplitKBuffers> getSplitKBuffers(FunctionOpInterface funcOp);

/// The memref.globals named getSplitKPartialsName and getSplitKCountersName
/// of `funcOp` nearest to it, either null where there is none; the
/// workspace is left empty (getSplitKBuffers, and the stream-K lowering,
/// check them against the plan).
SplitKBuffers lookupSplitKGlobals(FunctionOpInterface funcOp);

/// The arrival of a split-K workgroup at its output tile's counter, once its
/// threads stored their partial sums: a fence (membar.gl) and `barrier`
/// (the threads that stored them meet); thread `thread` 0 adds 1 to
/// `counters[tile]` atomically, fences, and, if it was the last of `parts`,
/// stores 0 back into the counter (for the next launch) and 1 into `flag`
/// (an i32 in workgroup memory; else 0); `barrier` again. Returns whether
/// the workgroup is the last of its tile (an i1 read from the flag).
Value createSplitKArrival(OpBuilder &b, Location loc, Value counters,
                          Value tile, Value thread, Value flag, int64_t parts,
                          function_ref<void(OpBuilder &)> barrier);
/// The same arrival counting `amount` (an i32: a stream-K workgroup's K
/// steps of the tile) into the counter: the workgroup is the last when the
/// counter held `lastCount` (an i32: the tile's K steps less `amount`).
Value createSplitKArrival(OpBuilder &b, Location loc, Value counters,
                          Value tile, Value thread, Value flag, Value amount,
                          Value lastCount,
                          function_ref<void(OpBuilder &)> barrier);

/// Replaces each statically shaped memref.alloc of `funcOp` in the default
/// memory space of at most `maxBytes` bytes (integer or float elements, not
/// returned) by a memref.alloca with the same alignment, erasing its
/// deallocations: a kernel's per-thread temporaries on the thread's stack.
void promoteThreadBuffersToStack(RewriterBase &rewriter,
                                 FunctionOpInterface funcOp, int64_t maxBytes);

/// Splits every copy to or from workgroup memory in `funcOp` over all
/// threads of a workgroup of `workgroupSize`, each moving up to 128 bits per
/// step (vector transfers for static shapes, one element at a time for
/// dynamic ones), cyclically over rows.
LogicalResult distributeSharedMemoryCopies(RewriterBase &rewriter,
                                           FunctionOpInterface funcOp,
                                           ArrayRef<int64_t> workgroupSize);

/// Turns each global-to-workgroup vector copy of `funcOp` (a 1-D
/// `vector.transfer_read` whose value a `vector.transfer_write` into
/// workgroup memory stores, unmasked or a padded copy's) of 4, 8 or 16
/// bytes into `nvgpu.device_async_copy` in groups, each waited for at once
/// (as upstream's `nvgpu::createAsyncGroups`, L1 bypassed for 16-byte
/// copies); software pipelining relaxes the waits. A copy whose vectors
/// the global row pitch does not keep aligned to their size (a
/// register-staged copy) stays a read and a write: cp.async would fault.
void convertWorkgroupCopiesToAsync(RewriterBase &rewriter,
                                   FunctionOpInterface funcOp);

/// Turns each copy of a partial tile's padded copy-in (a 1-D
/// `vector.transfer_read` of global memory masked by `vector.create_mask
/// %n` with a zero padding, written whole into workgroup memory) into an
/// `nvgpu.device_async_copy` of `%n` source elements, which fills the rest
/// with zeros; consecutive copies form a group, waited for at once. Of any
/// element type: upstream's createAsyncGroups takes such reads only with a
/// padding that is no integer zero (so no i8), and any float padding.
void convertPaddedCopiesToAsync(RewriterBase &rewriter,
                                FunctionOpInterface funcOp);

/// How convertVectorsToTensorCoreOps converts.
struct TensorCoreConversionOptions {
  /// Let f32 operands run as TF32; otherwise they are an error.
  bool useTf32 = true;
  /// Swizzle workgroup buffers against bank conflicts where
  /// swizzlesWorkgroupMemory(kind) (mma.sync).
  bool swizzle = true;
  /// Emit a remark on each workgroup allocation saying whether it was
  /// swizzled, and why not.
  bool reportSwizzle = false;
};

/// Converts the MMA-shaped vector ops of `funcOp` to tensor-core ops with
/// upstream's conversions: WMMA (`gpu.subgroup_mma_*`) or mma.sync
/// (`nvgpu.mma.sync` with `nvgpu.ldmatrix`), and global-to-workgroup vector
/// copies to grouped `nvgpu.device_async_copy`. For mma.sync with
/// `options.swizzle`, then applies upstream's XOR swizzle
/// (`nvgpu::optimizeSharedMemoryReadsAndWrites`) to every workgroup buffer
/// it is correct for and that is not padded (isPaddedWorkgroupAllocation):
/// statically shaped, rows of a power of two of at least 32 bytes, every
/// access an async copy, ldmatrix, load or store of at most 16 bytes that
/// indexes the buffer itself once views are folded (plain 1-D transfers of
/// workgroup memory are made vector.load / vector.store first). bf16
/// mma.sync contractions are converted as f16 ones, and their ldmatrix and
/// mma.sync ops given their bf16 type back. f32 operands (TF32 on tensor
/// cores) are an error unless `options.useTf32`.
LogicalResult
convertVectorsToTensorCoreOps(RewriterBase &rewriter,
                              FunctionOpInterface funcOp, MmaKind kind,
                              const TensorCoreConversionOptions &options);

/// Whether gpucg avoids bank conflicts of MMA family `kind` by swizzling
/// workgroup buffers (gpucg-vector-to-gpu{swizzle}): true for mma.sync,
/// whose ldmatrix reads whole 16-byte row pieces that an XOR swizzle can
/// spread over the banks; false for WMMA, whose loads take a plain leading
/// dimension that no swizzle can express.
bool swizzlesWorkgroupMemory(MmaKind kind);

/// The bits of padding per workgroup-memory row that gpucg's tensor-core
/// pipelines use against bank conflicts for MMA family `kind`
/// (gpucg-reduce-bank-conflicts{padding-bits}): 128 for WMMA, 0 for
/// mma.sync (swizzled instead, see swizzlesWorkgroupMemory). The lowering
/// strategy counts `bits / 8` bytes per row in its shared-memory budget.
int64_t getDefaultBankConflictPaddingBits(MmaKind kind);

/// Pads the innermost dimension of every statically shaped, identity-layout
/// workgroup-memory allocation of rank >= 2 in `funcOp` by `paddingBits`
/// (a whole number of elements, sized by the data layout) and rewrites its
/// users through a subview of the padded buffer (re-creating subviews with
/// their new strides). Allocations whose users cannot take another layout,
/// whose element type has no data-layout size (or size 0), or that are
/// already padded, are left alone. Emits an error and fails when
/// `paddingBits` is not a multiple of an allocation's element size or the
/// padded size overflows.
LogicalResult padWorkgroupAllocations(RewriterBase &rewriter,
                                      FunctionOpInterface funcOp,
                                      uint64_t paddingBits);

/// Whether `alloc` is an allocation padded by padWorkgroupAllocations: its
/// only user is the view `memref.subview %alloc[0, ...] [sizes] [1, ...]`
/// that hides the padding of the innermost dimension.
bool isPaddedWorkgroupAllocation(memref::AllocOp alloc);

/// Replaces the statically shaped workgroup-memory allocations of `funcOp`
/// by views into one i8 buffer, letting allocations that are never live at
/// the same time share bytes: ranges of one block separated by a gpu.barrier
/// (or exclusive branches of an scf.if) and, when that block can run again
/// (a loop body, any repeating region), also separated by a barrier on the
/// path into the next iteration. docs/passes/pack-shared-memory-alloc.md
/// has the exact rule.
LogicalResult packWorkgroupAllocations(RewriterBase &rewriter,
                                       FunctionOpInterface funcOp);

/// Replaces each op of `funcOp` implementing linalg::AggregatedOpInterface
/// (linalg.softmax) by the structured ops its decomposeOperation builds.
/// Emits an error on the op and fails when a decomposition fails.
LogicalResult decomposeAggregateOps(RewriterBase &rewriter,
                                    FunctionOpInterface funcOp);

/// The trailing loops of `op` that gpucg-collapse-elementwise-dims merges
/// into one, in order; empty when it leaves `op` alone. Taken for an
/// all-parallel op on tensors with one result whose innermost size is
/// static but no multiple of a 128-bit vector of its result's element (a
/// row of 4097 f16), the longest run of static trailing loops that every
/// operand's indexing map keeps contiguous (identity maps; a broadcast
/// operand keeps none), where their product takes a wider vector than the
/// innermost size alone; its operands are arguments of the function (or,
/// for its init, a tensor.empty) and its result goes to func.return only,
/// so that no other op's tiles or fusion depend on its loops, and it has no
/// plan of its own (a gpucg.lowering_config or compilation_info). Where the
/// innermost size alone is what keeps `op` from vectors but the loops are
/// not merged, `whyNot` (if given) says why, in words.
SmallVector<int64_t>
getElementwiseLoopsToCollapse(linalg::LinalgOp op,
                              std::string *whyNot = nullptr);

/// Collapses the loops getElementwiseLoopsToCollapse gives of every op of
/// `funcOp` (upstream's linalg::collapseOpIterationDims, a named op
/// generalized first): its operands are collapsed by tensor.collapse_shape
/// and its result expanded back. Emits an error on an op and fails when
/// upstream's rewrite fails.
LogicalResult collapseElementwiseDims(RewriterBase &rewriter,
                                      FunctionOpInterface funcOp);

/// The attribute on each argument gpucg-results-to-out-params adds for a
/// returned buffer: its sizes as an array of integers (static sizes) and
/// strings ("argN.dimD", "?").
inline constexpr llvm::StringLiteral kResultAttrName = "gpucg.result";

/// The (argument, dimension) of a size spelled "argN.dimD" (kResultAttrName,
/// the kernel ABI); nullopt for anything else ("?", a number).
std::optional<std::pair<unsigned, unsigned>>
parseArgumentDimension(StringRef text);

/// Turns every buffer a function of `module` returns into an argument
/// appended to it (docs/passes/results-to-out-params.md): the allocation
/// becomes the argument, which carries kResultAttrName, and call sites
/// allocate it. Emits an error and fails for a returned buffer the function
/// does not allocate.
LogicalResult promoteResultsToOutParams(ModuleOp module);

/// How gpucg-software-pipelining assigns a K loop's ops to stages.
enum class PipelineSchedule {
  /// Global-to-workgroup copies in stage 0, everything else in the last.
  LoadGlobalStage0,
  /// As above, and the loads from workgroup memory into registers one stage
  /// before the MMAs (depth >= 3).
  NvidiaTensorCore,
};

/// Software-pipelines `loop` (a K loop issuing async copies into
/// multi-buffered workgroup memory) with upstream scf::pipelineForLoop,
/// `depth` stages, one commit group per iteration and one wait allowing the
/// copies of the other stages in flight. Emits an error and fails for a
/// schedule it cannot prove valid: too few iterations or buffers, or loads
/// that depend on loop-carried values (nvidia-tensorcore).
LogicalResult pipelineAsyncCopyLoop(RewriterBase &rewriter, scf::ForOp loop,
                                    unsigned depth, bool peelEpilogue,
                                    PipelineSchedule schedule);

/// Wraps the body of workgroup loop `forallOp` (memref form) in
/// `scf.if (full tile) {static copy} else {original}` where its tile sizes
/// are `affine.min`s of a constant tile and a remainder, then canonicalizes
/// the static copy. Returns failure (without changing the IR) when there is
/// nothing to specialize.
LogicalResult specializeWorkgroupTile(RewriterBase &rewriter,
                                      scf::ForallOp forallOp);

/// Wraps the body of workgroup loop `forallOp` (memref form) in
/// `scf.if (aligned pitches) {copy on aligned views} else {original}` where
/// a root of the body (a linalg op with a gpucg.lowering_config) reads a
/// global memref, defined above the loop, whose row pitch is a run-time
/// value (gpucg-row-pitch-specialization). Returns failure (without
/// changing the IR) when there is none, or the body was versioned so
/// already.
LogicalResult specializeRowPitch(RewriterBase &rewriter,
                                 scf::ForallOp forallOp);

/// Whether `fill` writes zero (integer or floating-point).
bool isZeroFill(linalg::FillOp fill);

/// Facts of sm_90a's warpgroup MMA and TMA that pipeline MatmulWgmma's
/// strategy and its lowering both build on.
namespace wgmma {
/// Threads of a warpgroup, which issues each wgmma together.
constexpr int64_t kWarpgroupThreads = 128;
/// wgmma's M: rows of one accumulator tile (and the rows per warpgroup that
/// `nvgpu.warpgroup.mma.store` places by thread id).
constexpr int64_t kTileRows = 64;
/// Consumer warpgroups of a warp-specialized workgroup, at most (with the
/// producer, 384 threads).
constexpr int64_t kMaxConsumers = 2;
/// The consumer warpgroups of a MatmulWgmma plan of `threads` threads per
/// workgroup: 0 for one warpgroup that loads and multiplies, else the
/// workgroup's warpgroups less the producer.
inline int64_t getConsumerWarpgroups(int64_t threads) {
  return threads > kWarpgroupThreads ? threads / kWarpgroupThreads - 1 : 0;
}
/// Rows of a 128-byte swizzle atom: a tile a cluster shares is loaded in
/// slices of whole atoms, so that each slice keeps the swizzle pattern of
/// the whole tile.
constexpr int64_t kSwizzleAtomRows = 8;
/// Bytes of each row of A and B one wgmma instruction reads along K: K = 16
/// for 16-bit operands, 32 for 8-bit floats.
constexpr int64_t kInstructionKBytes = 32;
/// K of one wgmma instruction for operands of `elementType` (whole bytes).
inline int64_t getInstructionK(Type elementType) {
  return kInstructionKBytes / (elementType.getIntOrFloatBitWidth() / 8);
}
/// Whether `type` is an 8-bit float wgmma multiplies (e4m3 or e5m2).
inline bool isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}
/// Why pipeline MatmulWgmma cannot compute `c += a * b`, in words that
/// follow "it computes C += A * B; " (empty when it can): both operands
/// f16, both bf16, both f32 (multiplied as TF32), or both the same 8-bit
/// float (f8E4M3FN, f8E5M2), into an f32 accumulator; e4m3 times e5m2 is a
/// wgmma form nvgpu does not lower. (Any layout: an f32 or 8-bit operand
/// that is not K-contiguous is restaged, WgmmaLayouts::aRestaged.)
std::string whyNoElementTypes(Type a, Type b, Type c);
/// Whether wgmma reads operands of `type` from workgroup memory M- or
/// N-major (transposed) as well as K-major: 16-bit ones only.
inline bool readsMNMajor(Type type) {
  return type.getIntOrFloatBitWidth() == 16;
}
/// wgmma's widest N, and the step of its N (8 to 256 in steps of 8).
constexpr int64_t kMaxN = 256;
constexpr int64_t kNStep = 8;
/// Whether a MatmulWgmma tile of `tileM` rows of C is computed transposed,
/// as C^T = B^T * A^T: fewer rows than one wgmma tile (a decode step's M)
/// would leave most of it padding, so C's tile columns (B[n, k]'s rows)
/// become wgmma's M, in 64-row tiles, and C's tile rows (A's) its N, in
/// steps of kNStep; the accumulator is staged, and stored back transposed.
inline bool isTransposedTile(int64_t tileM) { return tileM < kTileRows; }
/// A and B tiles are TMA boxes of 128-byte swizzled rows, the only swizzle
/// `nvgpu.warpgroup.generate.descriptor` encodes (and a swizzled box's
/// innermost dimension is exactly the swizzle): K tiles of 128 bytes.
constexpr int64_t kSwizzleBytes = 128;
/// The most elements of one dimension of a TMA box.
constexpr int64_t kMaxBoxSize = 256;
/// TMA reads rows whose pitch (in global memory) is a multiple of this many
/// bytes; a box that runs past the matrix reads zeros there.
constexpr int64_t kTmaPitchAlignment = 16;
/// f32 elements a fused epilogue's staging buffer adds to each row of the
/// tile: rows 8 banks apart, so that the 4 rows each half-warp's 64-bit
/// accumulator stores (an f32 pair per lane) write at once cover all 32
/// banks (unpadded rows of a multiple of 32 floats: 4-way conflicts).
constexpr int64_t kStagingRowPad = 8;
/// Bytes of workgroup memory the staging buffer of a fused epilogue takes
/// for a tileM x tileN tile (the f32 accumulator, rows padded).
inline int64_t getEpilogueStagingBytes(int64_t tileM, int64_t tileN) {
  return tileM * (tileN + kStagingRowPad) * 4;
}
/// Shared memory beside the ring and the staging buffer: the mbarriers
/// (static) and the padding that puts the ring, in dynamic shared memory,
/// at a 1024-byte boundary (ptxas reports 1025 bytes of static shared
/// memory for 4 stages).
constexpr int64_t kReservedSharedMemory = 2048;
/// Whether a fused epilogue stages the accumulator in the ring of stages
/// itself, once every K step has retired, rather than in a buffer of its
/// own: when no loads follow the tile's (one workgroup per tile, not a
/// persistent grid) and the ring of `ringBytes` holds the staging buffer.
inline bool isStagedInRing(int64_t ringBytes, int64_t tileM, int64_t tileN,
                           bool persistent) {
  return !persistent && ringBytes >= getEpilogueStagingBytes(tileM, tileN);
}
} // namespace wgmma

/// How a MatmulWgmma matmul holds A and B in memory. Each operand is
/// K-contiguous (A[m, k], B[n, k]: a TMA box of its tile's rows of one
/// 128-byte K row each, wgmma's own K-major layout) or M- and N-contiguous
/// (A[k, m], B[k, n]: boxes of 64 columns, K rows each, multiplied through
/// wgmma's transposed, MN-major layout, which 16-bit operands only have).
///
/// The two layouts are the ones wgmma reads from workgroup memory. An f32 or
/// 8-bit operand, which wgmma reads K-major only, that is M- or
/// N-contiguous in memory is K-contiguous here and `restaged`: TMA loads its
/// tile as it lies into a staging area of the stage, and the producer
/// warpgroup writes it K-major into the stage's tile: warp-specialized
/// plans only, without clusters.
struct WgmmaLayouts {
  bool aKContiguous = true;
  bool bKContiguous = false;
  /// Whether A (B) is M- (N-) contiguous in memory and restaged.
  bool aRestaged = false;
  bool bRestaged = false;

  /// The layouts of wgmma's operands when the tile is computed as C^T =
  /// B^T * A^T (wgmma::isTransposedTile): B is then wgmma's A, A its B.
  WgmmaLayouts getTransposed() const {
    return {bKContiguous, aKContiguous, bRestaged, aRestaged};
  }
  bool isRestaged() const { return aRestaged || bRestaged; }
  /// The restaged operands, in words (empty when none is).
  const char *getRestagedOperandName() const {
    return aRestaged && bRestaged ? "A[k, m] and B[k, n]"
           : aRestaged            ? "A[k, m]"
           : bRestaged            ? "B[k, n]"
                                  : "";
  }
  /// Whether A (B) is K-contiguous in memory (A[m, k], B[n, k]).
  bool isAHeldKContiguous() const { return aKContiguous && !aRestaged; }
  bool isBHeldKContiguous() const { return bKContiguous && !bRestaged; }
  /// Whether each wgmma K step (wgmma::getInstructionK) is its own
  /// `nvgpu.warpgroup.mma`: nvgpu steps A's descriptor along a K-major row
  /// and B's by 16 rows of an N-major one, whatever their layout, so only
  /// a K-contiguous A times an N-contiguous B takes a whole K tile in one
  /// op. The one-step ops take 64 rows per multiplying warpgroup.
  bool multipliesPerKStep() const { return !aKContiguous || bKContiguous; }
  /// Whether MLIR 22's `nvgpu.warpgroup.mma` takes these (wgmma's)
  /// layouts: its verifier refuses a transposed (M-contiguous) A with an
  /// untransposed (K-contiguous) B, though wgmma has that form.
  bool isNvgpuForm() const { return aKContiguous || !bKContiguous; }
  /// The operand that makes these (wgmma's) layouts take one op per K
  /// step, in words; `transposed` names the matmul's operand of a tile
  /// computed as C^T = B^T * A^T (whose A is B[n, k], K-contiguous, by
  /// isNvgpuForm).
  const char *getKStepOperandName(bool transposed) const {
    if (!aKContiguous)
      return "an M-contiguous A (A[k, m])";
    return transposed ? "A[m, k] as wgmma's K-contiguous B"
                      : "a K-contiguous B (B[n, k])";
  }
  bool operator==(const WgmmaLayouts &other) const {
    return aKContiguous == other.aKContiguous &&
           bKContiguous == other.bKContiguous && aRestaged == other.aRestaged &&
           bRestaged == other.bRestaged;
  }
};

namespace wgmma {
/// Whether MatmulWgmma computes a tile of `tileM` rows of a matmul whose
/// operands are laid out as `layouts` say as C^T = B^T * A^T: a small tile
/// (isTransposedTile), or A[k, m] times B[n, k] of any tile, which nvgpu
/// takes only that way (B[n, k] as wgmma's K-major A, A[k, m] as its
/// N-major B: !isNvgpuForm).
inline bool computesTransposed(int64_t tileM, const WgmmaLayouts &layouts) {
  return isTransposedTile(tileM) || !layouts.isNvgpuForm();
}
} // namespace wgmma

/// The layouts of A and B when `op` is a contraction with one m, one n and
/// one k loop, and any number of batch loops, with C[b..., m, n], A[b...,
/// m, k] or A[b..., k, m], and B[b..., k, n] or B[b..., n, k]: the batch
/// loops outermost in each operand, in the same order; std::nullopt
/// otherwise. An M- or N-contiguous operand of a type wgmma reads K-major
/// only (readsMNMajor) is restaged.
std::optional<WgmmaLayouts> getWgmmaLayouts(linalg::LinalgOp op);

/// Why `consumer`, an op after a MatmulWgmma matmul whose accumulator (the
/// matmul's result tensor, or its buffer after bufferization) is
/// `accumulator`, cannot be fused into the matmul's epilogue over a result
/// of shape `resultShape` (the batch sizes, if any, then rows and columns);
/// empty when it can. A fused op is elementwise over the result: parallel
/// loops of exactly that range, indexing maps that are projected
/// permutations, every output written element for element (identity map),
/// the accumulator read element for element and never read as an output.
std::string whyNoWgmmaEpilogue(linalg::LinalgOp consumer, Value accumulator,
                               ArrayRef<int64_t> resultShape);

/// For a MatmulWgmma kernel (after workgroup tiling and bufferization):
/// replaces its matmul root and the zero fill before it (for C += A * B,
/// none: the epilogue adds C's prior contents) by a TMA + mbarrier
/// ring of `pipeline_depth` stages feeding `nvgpu.warpgroup.mma`, with the
/// tensor maps built on the kernel's A and B arguments at the top of the
/// function and the accumulator stored to C, or, when elementwise ops after
/// the matmul consume it (whyNoWgmmaEpilogue), to a staging buffer in
/// workgroup memory from which the multiplying warpgroups run those ops,
/// each thread on 16-byte pieces of rows. The launch shape is the
/// translation_info's: a persistent grid (`persistent_workgroups`),
/// thread-block clusters (`cluster`) and a staged store (`staged_store`).
/// Emits an error when the root is not such a matmul (matchWgmmaMatmul says
/// which part) or cannot take that launch shape; other kernels are left
/// alone.
LogicalResult lowerMatmulToWgmma(RewriterBase &rewriter,
                                 FunctionOpInterface funcOp);

/// Records `workgroupSize` ([x, y, z]) as the `upper_bound` of every
/// `gpu.thread_id` nested under `root`, keeping an existing tighter bound, so
/// that value-bounds analysis knows the range of each thread id.
void setThreadIdUpperBounds(Operation *root, ArrayRef<int64_t> workgroupSize);

/// Adds patterns that inline `scf.for` and unmapped `scf.forall` ops proven,
/// with `ValueBoundsOpInterface`, to execute exactly one iteration.
void populateRemoveSingleIterationLoopPatterns(RewritePatternSet &patterns);

/// Registers the external `ValueBoundsOpInterface` models the single-iteration
/// proofs rely on (affine, arith, gpu, memref, scf, tensor).
void registerSingleIterationLoopDependencies(DialectRegistry &registry);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_TRANSFORMS_TRANSFORMS_H
