//===- Utils.h - Helpers shared by gpucg's passes ---------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_LIB_TRANSFORMS_UTILS_H
#define GPUCG_LIB_TRANSFORMS_UTILS_H

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/LoweringStrategy.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class Operation;
class Region;
class RewritePatternSet;
class Type;
class Value;

namespace gpucg {

/// Adds the canonicalization patterns of every loaded dialect and registered
/// op to `patterns`: what the `canonicalize` pass applies.
void populateAllCanonicalizationPatterns(RewritePatternSet &patterns);

/// Applies the canonicalization patterns of every loaded dialect and
/// registered op to `region` (what `canonicalize` does, on one region), and
/// erases the ops left dead. Best effort: IR that does not reach a fixed
/// point is still correct.
void canonicalizeRegion(Region &region);

/// Whether `type` is a memref in workgroup (shared) memory. Any other type,
/// memref or not, is not.
bool isWorkgroupMemory(Type type);

/// Whether `forallOp` distributes over workgroups: a non-empty mapping, all
/// of it #gpu.block.
bool isWorkgroupLoop(scf::ForallOp forallOp);

/// Iterations of dimension `dim` of `forallOp` (0 when its upper bound is not
/// above its lower one), or nullopt when a bound or the step is not a
/// constant, the step is not positive, or the extent overflows.
std::optional<int64_t> getStaticTripCount(scf::ForallOp forallOp, unsigned dim);

/// The linalg ops of `funcOp` that carry a `gpucg.lowering_config`, with it,
/// in walk order (a kernel's roots, as the strategy marked them).
SmallVector<std::pair<linalg::LinalgOp, LoweringConfigAttr>>
getLoweringConfigRoots(FunctionOpInterface funcOp);

/// The op that gives the matmul `op` its accumulator's start: on tensors
/// the linalg.fill that produces its init; on buffers the last op before
/// it that reads or writes memory, when that is a linalg.fill of its init
/// or a memref.copy into it (bufferization's copy of a residual into the
/// accumulator's temporary), past views, index arithmetic and allocations.
/// Null when there is none: the init's prior contents are the start.
/// (MatmulWgmma's strategy and lowering, and the tensor-core thread
/// distribution, ask it.)
Operation *getAccumulatorStart(linalg::LinalgOp op);

/// Checks a pass's `mma` option against the MMA family of `info`, a
/// tensor-core pipeline's translation info. Emits an error on `op` and fails
/// when the option contradicts the pipeline; succeeds for `auto` and for
/// pipelines without an MMA family.
LogicalResult verifyMmaOption(Operation *op, TranslationInfoAttr info,
                              MmaPreference mma);

/// Whether `op` is already distributed over the threads of its workgroup:
/// one of its operands depends on `gpu.thread_id`, `gpu.lane_id` or
/// `gpu.subgroup_id`, through the ops that compute it and the loops whose
/// induction variables or iteration arguments it is. Unknown block
/// arguments (of regions that are not loops) count as thread-dependent.
bool dependsOnThreadId(Operation *op);

/// Whether `copy` is a workgroup-wide copy to or from workgroup memory, as
/// gpucg-tile-and-distribute creates them for promoted operands, between
/// barriers: one side is workgroup memory and it is not yet distributed over
/// threads (dependsOnThreadId); or the padding fill of such a copy
/// (PaddedTileCopy). gpucg-distribute-shared-memory-copy spreads these over
/// all threads; a copy one warp does on its own part of a buffer (the
/// accumulator's initial value) is the warp's, like any other warp-level
/// op, and gpucg-tensor-core-vectorization vectorizes it.
bool isWorkgroupCopy(Operation *copy);

/// A copy between global memory and a partial tile of a statically shaped
/// workgroup buffer, the promotion of an operand of a partial workgroup tile
/// (or K step) that the MMA then reads or writes whole:
///   copy-in:  `padding` (a linalg.fill of a constant) writes the whole
///             buffer `full`, and the copy that follows it (with only ops
///             free of memory effects between) writes the part of `full` at
///             its origin that the global source covers;
///   copy-out: the copy reads the part at `full`'s origin, `full` being the
///             whole buffer that part is a view of, into global memory.
/// gpucg-tile-and-distribute makes them; gpucg-distribute-shared-memory-copy
/// moves the whole of `full` (copy-in: the padding with the copy, each vector
/// reading what lies inside the source and the constant elsewhere) or the
/// part of it inside the destination (copy-out).
struct PaddedTileCopy {
  linalg::CopyOp copy;
  /// The fill of a copy-in; null for a copy-out.
  linalg::FillOp padding;
  /// The whole workgroup buffer (or the multi-buffered slot of it).
  Value full;
  bool isCopyIn() const { return static_cast<bool>(padding); }
  /// The partial view in global memory: the copy's source or destination.
  Value getGlobalView() const {
    linalg::CopyOp op = copy;
    return isCopyIn() ? op.getInputs().front() : op.getOutputs().front();
  }
};

/// `copy` as a PaddedTileCopy, or nullopt when it is not one.
std::optional<PaddedTileCopy> matchPaddedTileCopy(linalg::CopyOp copy);

/// The padded copy-in `fill` pads, or nullopt when `fill` is no padding.
std::optional<PaddedTileCopy> getPaddedCopyOfFill(linalg::FillOp fill);

/// The root ops of the workgroup tiles of `funcOp`, a kernel with a
/// gpucg.translation_info: its linalg ops with a gpucg.lowering_config (after
/// workgroup specialization, one in the full tile and one in the
/// remainder). Emits an error on `funcOp` and fails when there is none.
FailureOr<SmallVector<linalg::LinalgOp>>
getWorkgroupTileRoots(FunctionOpInterface funcOp);

/// The flat id of the calling thread, x + y * X + z * X * Y for workgroup
/// size (X, Y, Z), as an expression of three symbols bound to its
/// gpu.thread_id x, y and z.
struct FlatThreadId {
  AffineExpr expr;
  SmallVector<Value, 3> ids;

  FlatThreadId(OpBuilder &b, Location loc, ArrayRef<int64_t> workgroupSize);
  /// `f(flat id)` as an affine.apply.
  Value apply(OpBuilder &b, Location loc,
              function_ref<AffineExpr(AffineExpr)> f) const;
};

/// Cyclic distribution of a tiling's two innermost loops over all threads
/// of a workgroup of `workgroupSize`, by flat thread id: `threadsPerRow`
/// consecutive ids along the innermost loop, and the workgroup's
/// threads / `threadsPerRow` groups of them over the loop outside it. Loops
/// further out are not distributed. The layout of gpucg's workgroup-wide
/// copies (and of a tensor-core matmul's fused epilogue): consecutive
/// threads touch consecutive vectors of a row.
linalg::LinalgLoopDistributionOptions
getFlatThreadDistribution(ArrayRef<int64_t> workgroupSize,
                          int64_t threadsPerRow);

/// Narrows `width` until every vector of the copy stays aligned to its own
/// size in `type`: the width must divide every stride but the innermost, and
/// a static offset. Without that, a row pitch such as 33 f16 (66 bytes) puts
/// every other row's 16-byte vectors off their alignment, which cp.async and
/// vector loads fault on (cudaErrorMisalignedAddress). A dynamic offset is a
/// workgroup or warp tile's origin: its innermost part is a multiple of the
/// tile's innermost size, which `width` divides, and its outer part a
/// multiple of the checked strides; the base pointer is 16-byte aligned
/// (docs/ABI.md). Dynamic strides prove nothing: one element at a time,
/// unless `ignoreDynamicStrides` (what the static layout alone allows, for
/// an access whose run-time pitch is checked at run time) or a
/// `dynamicStrideMultiple` above 1 that every dynamic stride is known to be
/// a multiple of (getKnownRowPitchMultiple).
int64_t getAlignedVectorWidth(int64_t width, MemRefType type,
                              bool ignoreDynamicStrides = false,
                              int64_t dynamicStrideMultiple = 1);

/// getAlignedVectorWidth of every memref type from `memref` up through its
/// views to the allocation or argument, or to the memref.reinterpret_cast
/// that gives the chain its layout: a view that drops or folds dimensions
/// (a thread's 1-D piece of a tile) no longer shows the row pitch of the
/// memref it views. Dynamic strides count as multiples of
/// getKnownRowPitchMultiple.
int64_t getAlignedVectorWidthThroughViews(int64_t width, Value memref,
                                          bool ignoreDynamicStrides = false);

/// A number (in elements) that every row pitch of `memref` is known to be a
/// multiple of, though some are run-time values. Through subviews, casts
/// and collapse_shapes (whose strides are the products of their source's
/// with integers) to either
/// - a memref.reinterpret_cast whose outer strides are constants or values
///   built as multiples of constants (an arith.muli by one, an affine.apply
///   whose expression has a known divisor): the greatest common divisor of
///   those (gpucg-row-pitch-specialization builds such a cast where a
///   run-time check found the pitches aligned), or
/// - a memref of identity layout (an argument or allocation, its rows
///   contiguous): the greatest common divisor of the products of the
///   static sizes inside each outer dimension (128 for
///   memref<?x32x?x128xf16>, 1 for memref<?x?xf16>);
/// 1 elsewhere.
int64_t getKnownRowPitchMultiple(Value memref);

/// Whether some memref from `memref` up through its views has a dynamic
/// stride outside its innermost dimension: a row pitch known only at run
/// time.
bool hasDynamicRowPitchThroughViews(Value memref);

/// Whether the global memory of `memref` is where its accesses would go on
/// a GPU's global state space: no memory space, or #gpu.address_space<global>.
bool isGlobalMemory(Type type);

/// An i1 that is true when the element of `memref` at `indices` lies at an
/// address that is a multiple of `alignment` bytes, computed at run time
/// from the memref's aligned pointer, offset and strides
/// (memref.extract_aligned_pointer_as_index, extract_strided_metadata): a
/// wide access whose alignment rests on run-time sizes asks this first.
Value createIsAddressAligned(OpBuilder &b, Location loc, Value memref,
                             ValueRange indices, int64_t alignment);

/// The allocation (or argument) `value` is a view of, through any chain of
/// view-like ops.
Value getRootMemref(Value value);

/// Whether `op` is the terminator of its block. gpucg's code asks this, not
/// `op->hasTrait<OpTrait::IsTerminator>()`: Block::mightHaveTerminator
/// resolves the trait's TypeID inside libMLIR.so, where it agrees with the
/// op's trait list in every process, libGpucgCAPI.so's included ("Trait
/// TypeIDs" in docs/CAPI.md).
bool isBlockTerminator(Operation *op);

/// Whether `op` may touch memory other than through its memref operands
/// (an op without a memory-effect interface; barriers do not count).
bool hasUnknownMemoryEffects(Operation *op);

/// Whether `root`, the allocation or argument a buffer is a view of, is
/// memory no other buffer of the kernel aliases: a local allocation (alloc
/// or alloca), or an
/// argument of the kernel (gpucg's kernels come from tensors, whose
/// bufferization never makes an output alias an input).
bool isDistinctBuffer(Value root);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_LIB_TRANSFORMS_UTILS_H
