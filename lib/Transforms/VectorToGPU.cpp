//===- VectorToGPU.cpp - MMA-shaped vectors to tensor-core ops ------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Orchestrates upstream's conversions; gpucg decides only which ones run:
//   - WMMA: convertVectorToMMAOps (gpu.subgroup_mma_*);
//   - mma.sync: convertVectorToNVVMCompatibleMMASync (nvgpu.mma.sync and
//     nvgpu.ldmatrix), TF32 enabled for f32 operands;
//   - global-to-workgroup vector copies become nvgpu.device_async_copy in
//     groups, each group waited for at once (as upstream's
//     nvgpu::createAsyncGroups does, plus what it lacks: zero-padded
//     integer copies and the alignment cp.async needs, without which a
//     register-staged copy stays a read and a write); software pipelining
//     relaxes the waits;
//   - mma.sync only: the XOR swizzle of
//     nvgpu::optimizeSharedMemoryReadsAndWrites on every workgroup buffer
//     gpucg proves it correct for. It runs last, once every access of the
//     buffer is one upstream rewrites (async copy, ldmatrix, load, store)
//     and, after folding the views, indexes the allocation itself.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_VECTORTOGPU
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

bool mlir::gpucg::swizzlesWorkgroupMemory(MmaKind kind) {
  return kind == MmaKind::MmaSync;
}

//===----------------------------------------------------------------------===//
// Swizzle
//===----------------------------------------------------------------------===//

/// The swizzle permutes 16-byte chunks within a row (upstream's
/// kDefaultVectorSizeBits).
static constexpr int64_t kSwizzleChunkBits = 128;

/// The memref operand of `access` if it is an access upstream's swizzle
/// rewrites, with the number of bits it moves: a read by nvgpu.ldmatrix
/// (one 16-byte row per lane), memref.load or vector.load, a write by
/// nvgpu.device_async_copy (its destination), memref.store or vector.store.
static std::optional<std::pair<Value, int64_t>>
getSwizzlableAccess(Operation *access) {
  auto bitsOf = [](Type type) -> int64_t {
    if (auto vector = dyn_cast<VectorType>(type))
      return vector.getNumElements() *
             vector.getElementType().getIntOrFloatBitWidth();
    return type.getIntOrFloatBitWidth();
  };
  if (auto ldmatrix = dyn_cast<nvgpu::LdMatrixOp>(access))
    return std::make_pair(ldmatrix.getSrcMemref(), kSwizzleChunkBits);
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(access)) {
    auto type = cast<MemRefType>(copy.getDst().getType());
    return std::make_pair(copy.getDst(), copy.getDstElements().getZExtValue() *
                                             type.getElementTypeBitWidth());
  }
  if (auto load = dyn_cast<memref::LoadOp>(access))
    return std::make_pair(load.getMemRef(), bitsOf(load.getType()));
  if (auto store = dyn_cast<memref::StoreOp>(access))
    return std::make_pair(store.getMemRef(),
                          bitsOf(store.getValueToStore().getType()));
  if (auto load = dyn_cast<vector::LoadOp>(access))
    return std::make_pair(load.getBase(), bitsOf(load.getVectorType()));
  if (auto store = dyn_cast<vector::StoreOp>(access))
    return std::make_pair(store.getBase(), bitsOf(store.getVectorType()));
  return std::nullopt;
}

/// Checks that upstream's swizzle is correct and useful on `alloc`; if not,
/// says why in `reason`. Upstream assumes, without checking, that every
/// access of the buffer is one it rewrites, that no access spans two 16-byte
/// chunks, and that a row holds a power-of-two number of chunks (the XOR of
/// a column would otherwise leave the row); gpucg checks all three. gpucg's
/// own accesses are aligned to their size, a power of two up to 16 bytes
/// (16-byte copies and ldmatrix rows, 8-byte mma.sync fragment rows), which
/// is what keeps one within a chunk.
static LogicalResult checkSwizzlePreconditions(memref::AllocOp alloc,
                                               llvm::raw_ostream &reason) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || type.getRank() < 2 ||
      !type.getLayout().isIdentity() || !type.getElementType().isIntOrFloat()) {
    reason << "not a static, identity-layout buffer of rank >= 2 of integers "
              "or floats";
    return failure();
  }
  int64_t elementBits = type.getElementTypeBitWidth();
  if (elementBits % 8 != 0 || kSwizzleChunkBits % elementBits != 0) {
    reason << elementBits
           << "-bit elements do not fill a 16-byte chunk in whole bytes";
    return failure();
  }
  int64_t rowBytes = type.getShape().back() * elementBits / 8;
  if (!llvm::isPowerOf2_64(type.getShape().back()) ||
      rowBytes * 8 <= kSwizzleChunkBits) {
    reason << "rows of " << rowBytes
           << " bytes, not a power of two of at least 32 bytes";
    return failure();
  }
  if (alloc->use_empty()) {
    reason << "no accesses";
    return failure();
  }
  for (Operation *user : alloc->getUsers()) {
    std::optional<std::pair<Value, int64_t>> access = getSwizzlableAccess(user);
    if (!access || access->first != alloc.getResult()) {
      reason << "used by '" << user->getName()
             << "', which the swizzle does not rewrite";
      return failure();
    }
    if (access->second > kSwizzleChunkBits) {
      reason << "'" << user->getName() << "' moves " << access->second
             << " bits, more than one 16-byte chunk";
      return failure();
    }
  }
  return success();
}

/// The innermost op of `funcOp` enclosing every user of `value` (`funcOp`
/// itself at worst).
static Operation *getInnermostEnclosingOp(FunctionOpInterface funcOp,
                                          Value value) {
  Operation *first = *value.getUsers().begin();
  for (Operation *parent = first->getParentOp(); parent != funcOp;
       parent = parent->getParentOp()) {
    if (llvm::all_of(value.getUsers(), [&](Operation *user) {
          return parent->isProperAncestor(user);
        }))
      return parent;
  }
  return funcOp;
}

/// Applies upstream's swizzle to `alloc` within `scope`, which encloses all
/// its accesses. Upstream refuses a scope containing any memref.subview (it
/// does no alias analysis); checkSwizzlePreconditions proved that no view of
/// `alloc` exists, so the bodies of `scope`'s regions without an access
/// (the remainder path of workgroup specialization, with its views for
/// linalg ops) are moved aside meanwhile. Upstream only adds index
/// computations in front of accesses.
static LogicalResult swizzleAllocation(memref::AllocOp alloc,
                                       Operation *scope) {
  SmallVector<std::pair<Region *, std::unique_ptr<Region>>> aside;
  for (Region &region : scope->getRegions()) {
    if (llvm::any_of(alloc->getUsers(), [&](Operation *user) {
          return region.isAncestor(user->getParentRegion());
        }))
      continue;
    auto body = std::make_unique<Region>();
    body->takeBody(region);
    aside.emplace_back(&region, std::move(body));
  }
  LogicalResult result =
      nvgpu::optimizeSharedMemoryReadsAndWrites(scope, alloc.getResult());
  for (auto &[region, body] : aside)
    region->takeBody(*body);
  return result;
}

/// Rewrites the plain transfers of workgroup memory that the conversions
/// leave (the reads of a staged accumulator's copy-out) as vector.load /
/// vector.store, the accesses upstream's swizzle rewrites: 1-D, unmasked,
/// in bounds, along a unit-stride innermost dimension.
static void lowerWorkgroupTransfers(RewriterBase &rewriter,
                                    FunctionOpInterface funcOp) {
  auto isPlain = [](VectorTransferOpInterface xfer) {
    auto type = dyn_cast<MemRefType>(xfer.getBase().getType());
    return type && isWorkgroupMemory(type) && type.isLastDimUnitStride() &&
           !xfer.getMask() && !xfer.hasOutOfBoundsDim() &&
           xfer.getVectorType().getRank() == 1 &&
           xfer.getPermutationMap().isMinorIdentity();
  };
  SmallVector<VectorTransferOpInterface> transfers;
  funcOp.walk([&](VectorTransferOpInterface xfer) {
    if (isPlain(xfer))
      transfers.push_back(xfer);
  });
  for (VectorTransferOpInterface xfer : transfers) {
    rewriter.setInsertionPoint(xfer);
    if (auto read = dyn_cast<vector::TransferReadOp>(xfer.getOperation()))
      rewriter.replaceOpWithNewOp<vector::LoadOp>(
          read, read.getVectorType(), read.getBase(), read.getIndices());
    else if (auto write =
                 dyn_cast<vector::TransferWriteOp>(xfer.getOperation()))
      rewriter.replaceOpWithNewOp<vector::StoreOp>(
          write, write.getVector(), write.getBase(), write.getIndices());
  }
}

/// Swizzles the workgroup buffers of `funcOp` that upstream's swizzle is
/// correct and useful for: after folding the views of workgroup memory into
/// the accesses (multi-buffer slices, distributed copies), every buffer
/// that checkSwizzlePreconditions accepts and that
/// gpucg-reduce-bank-conflicts did not pad. Others stay as they are. With
/// `report`, says what it did to each buffer in a remark.
static void swizzleWorkgroupAllocations(FunctionOpInterface funcOp,
                                        bool report) {
  SmallVector<memref::AllocOp> allocs;
  funcOp.walk([&](memref::AllocOp alloc) {
    if (!isWorkgroupMemory(alloc.getType()))
      return;
    // Padded rows already start in different banks.
    if (!isPaddedWorkgroupAllocation(alloc))
      allocs.push_back(alloc);
    else if (report)
      alloc.emitRemark() << "not swizzled: padded against bank conflicts";
  });
  if (allocs.empty())
    return;

  RewritePatternSet patterns(funcOp.getContext());
  memref::populateFoldMemRefAliasOpPatterns(patterns);
  (void)applyPatternsGreedily(funcOp, std::move(patterns));

  for (memref::AllocOp alloc : allocs) {
    std::string reason;
    llvm::raw_string_ostream os(reason);
    if (succeeded(checkSwizzlePreconditions(alloc, os)) &&
        failed(swizzleAllocation(
            alloc, getInnermostEnclosingOp(funcOp, alloc.getResult()))))
      os << "refused by nvgpu::optimizeSharedMemoryReadsAndWrites";
    if (!report)
      continue;
    if (reason.empty())
      alloc.emitRemark() << "swizzled";
    else
      alloc.emitRemark() << "not swizzled: " << reason;
  }
}

//===----------------------------------------------------------------------===//
// bf16 mma.sync
//===----------------------------------------------------------------------===//

// MLIR 22's mma.sync conversion has no bf16 fragments, though the PTX ISA
// lays out the bf16 fragments of m16n8k16 exactly as the f16 ones. A bf16
// contraction is converted as an f16 one reading its operands through an
// `unrealized_conversion_cast` of the bf16 buffer to f16; afterwards its
// nvgpu.ldmatrix ops read the bf16 buffer again and its nvgpu.mma.sync ops
// take bf16 fragments. Only the types change: no value is ever converted.

/// `type` with element type `elementType`.
static Type withElementType(Type type, Type elementType) {
  return cast<ShapedType>(type).clone(elementType);
}

/// Makes every bf16 vector.contract of `funcOp` whose operands are
/// vector.transfer_read ops of bf16 memrefs an f16 one over f16 views of
/// those memrefs. Returns the casts that make the views.
static SmallVector<UnrealizedConversionCastOp>
punBf16Contractions(RewriterBase &rewriter, FunctionOpInterface funcOp) {
  Type f16 = rewriter.getF16Type();
  SmallVector<UnrealizedConversionCastOp> casts;
  DenseMap<Value, Value> punned;
  // The f16 read of bf16 read `value`, or null.
  auto pun = [&](Value value) -> Value {
    if (Value known = punned.lookup(value))
      return known;
    auto read = value.getDefiningOp<vector::TransferReadOp>();
    if (!read || read.getMask() || !isa<MemRefType>(read.getBase().getType()))
      return nullptr;
    rewriter.setInsertionPoint(read);
    Location loc = read.getLoc();
    auto view = UnrealizedConversionCastOp::create(
        rewriter, loc, withElementType(read.getBase().getType(), f16),
        read.getBase());
    casts.push_back(view);
    Value padding = arith::ConstantOp::create(rewriter, loc, f16,
                                              rewriter.getZeroAttr(f16));
    Value f16Read = vector::TransferReadOp::create(
        rewriter, loc, cast<VectorType>(withElementType(read.getType(), f16)),
        view.getResult(0), read.getIndices(), read.getPermutationMapAttr(),
        padding, /*mask=*/Value(), read.getInBoundsAttr());
    punned[value] = f16Read;
    return f16Read;
  };
  SmallVector<vector::ContractionOp> contracts;
  funcOp.walk([&](vector::ContractionOp contract) {
    if (getElementTypeOrSelf(contract.getLhsType()).isBF16() &&
        getElementTypeOrSelf(contract.getRhsType()).isBF16())
      contracts.push_back(contract);
  });
  for (vector::ContractionOp contract : contracts) {
    Value lhs = pun(contract.getLhs());
    Value rhs = pun(contract.getRhs());
    if (!lhs || !rhs)
      continue; // Left for the conversion to refuse.
    rewriter.modifyOpInPlace(contract, [&] {
      contract.getLhsMutable().assign(lhs);
      contract.getRhsMutable().assign(rhs);
    });
  }
  return casts;
}

/// Erases the ops of `funcOp` left dead by the conversions.
static void eraseDeadOps(RewriterBase &rewriter, FunctionOpInterface funcOp) {
  funcOp->walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
    if (op != funcOp.getOperation() && isOpTriviallyDead(op))
      rewriter.eraseOp(op);
  });
}

/// The error for bf16 fragments gpucg cannot give their type back.
static LogicalResult emitUnsupportedBf16Fragment(Operation *op) {
  return op->emitOpError()
         << "handles a bf16 mma.sync fragment, which gpucg only converts when "
            "it is loaded by nvgpu.ldmatrix, or by vector.load or memref.load "
            "ops inserted into a zero vector, and nvgpu.mma.sync uses it "
            "directly";
}

namespace {
/// Rebuilds, with bf16 elements, the f16 fragments that the upstream
/// conversion made from the f16 views of bf16 buffers. A fragment is one of
/// the shapes that conversion emits: an nvgpu.ldmatrix of a view, or
/// per-lane vector.load (rows) or memref.load (elements) ops of a view
/// inserted into a zero vector (the operands it cannot load with ldmatrix,
/// e.g. from global memory).
class Bf16FragmentBuilder {
public:
  Bf16FragmentBuilder(RewriterBase &rewriter,
                      ArrayRef<UnrealizedConversionCastOp> views)
      : rewriter(rewriter), bf16(rewriter.getBF16Type()) {
    for (UnrealizedConversionCastOp view : views)
      bufferOfView[view.getResult(0)] = view.getOperand(0);
  }

  /// The bf16 counterpart of f16 fragment `value`, or null (with an error)
  /// when `value` is not built from the views as above.
  Value getBf16(Value value) {
    if (Value known = rebuilt.lookup(value))
      return known;
    Operation *def = value.getDefiningOp();
    if (!def) {
      (void)emitUnsupportedBf16Fragment(
          value.getParentBlock()->getParentOp());
      return nullptr;
    }
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(def);
    Value result =
        llvm::TypeSwitch<Operation *, Value>(def)
            .Case([&](nvgpu::LdMatrixOp op) -> Value {
              Value buffer = bufferOfView.lookup(op.getSrcMemref());
              if (!buffer)
                return nullptr;
              return nvgpu::LdMatrixOp::create(
                  rewriter, op.getLoc(), withElementType(op.getType(), bf16),
                  buffer, op.getIndices(), op.getTransposeAttr(),
                  op.getNumTilesAttr());
            })
            .Case([&](vector::LoadOp op) -> Value {
              Value buffer = bufferOfView.lookup(op.getBase());
              if (!buffer)
                return nullptr;
              return vector::LoadOp::create(
                  rewriter, op.getLoc(),
                  cast<VectorType>(withElementType(op.getType(), bf16)),
                  buffer, op.getIndices());
            })
            .Case([&](memref::LoadOp op) -> Value {
              Value buffer = bufferOfView.lookup(op.getMemRef());
              if (!buffer)
                return nullptr;
              return memref::LoadOp::create(rewriter, op.getLoc(), buffer,
                                            op.getIndices());
            })
            .Case([&](vector::InsertOp op) -> Value {
              Value element = getBf16(op.getValueToStore());
              Value dest = element ? getBf16(op.getDest()) : Value();
              if (!dest)
                return nullptr;
              return vector::InsertOp::create(rewriter, op.getLoc(), element,
                                              dest, op.getMixedPosition());
            })
            .Case([&](vector::BroadcastOp op) -> Value {
              if (!matchPattern(op.getSource(), m_AnyZeroFloat()))
                return nullptr;
              return zero(op.getLoc(), op.getType());
            })
            .Case([&](arith::ConstantOp op) -> Value {
              if (!matchPattern(op.getResult(), m_AnyZeroFloat()))
                return nullptr;
              return zero(op.getLoc(), op.getType());
            })
            .Default([](Operation *) { return Value(); });
    if (!result) {
      (void)emitUnsupportedBf16Fragment(def);
      return nullptr;
    }
    rebuilt[value] = result;
    return result;
  }

private:
  Value zero(Location loc, Type f16Type) {
    auto type = cast<VectorType>(withElementType(f16Type, bf16));
    return arith::ConstantOp::create(
        rewriter, loc, type,
        DenseElementsAttr::get(type, rewriter.getZeroAttr(bf16)));
  }

  RewriterBase &rewriter;
  Type bf16;
  DenseMap<Value, Value> bufferOfView;
  DenseMap<Value, Value> rebuilt;
};
} // namespace

/// Gives the fragments of the contractions punBf16Contractions made f16
/// their bf16 type back: every nvgpu.mma.sync that uses a value read through
/// an f16 view multiplies bf16 fragments rebuilt from the bf16 buffers (the
/// bits loaded are the same). Fails, with an error, where a view is used
/// otherwise or a fragment is built in another way.
static LogicalResult
restoreBf16Fragments(RewriterBase &rewriter, FunctionOpInterface funcOp,
                     ArrayRef<UnrealizedConversionCastOp> casts) {
  if (casts.empty())
    return success();
  // The conversion leaves the f16 contractions and reads it replaced: erase
  // them (and the views nothing uses: `casts` must not be read again).
  DenseSet<Operation *> views;
  for (UnrealizedConversionCastOp view : casts)
    views.insert(view);
  auto getLiveViews = [&] {
    SmallVector<UnrealizedConversionCastOp> live;
    funcOp.walk([&](UnrealizedConversionCastOp view) {
      if (views.contains(view))
        live.push_back(view);
    });
    return live;
  };
  eraseDeadOps(rewriter, funcOp);
  SmallVector<UnrealizedConversionCastOp> liveViews = getLiveViews();

  SetVector<nvgpu::MmaSyncOp> mmas;
  for (UnrealizedConversionCastOp view : liveViews) {
    for (Operation *user : view->getUsers()) {
      if (!isa<nvgpu::LdMatrixOp, vector::LoadOp, memref::LoadOp>(user))
        return emitUnsupportedBf16Fragment(user);
      SetVector<Operation *> slice;
      getForwardSlice(user, &slice);
      for (Operation *op : slice)
        if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op))
          mmas.insert(mma);
    }
  }
  Bf16FragmentBuilder builder(rewriter, liveViews);
  for (nvgpu::MmaSyncOp mma : mmas) {
    Value a = builder.getBf16(mma.getMatrixA());
    Value b = a ? builder.getBf16(mma.getMatrixB()) : Value();
    if (!b)
      return failure();
    rewriter.setInsertionPoint(mma);
    rewriter.replaceOpWithNewOp<nvgpu::MmaSyncOp>(
        mma, mma.getType(), a, b, mma.getMatrixC(), mma.getMmaShapeAttr(),
        mma.getTf32EnabledAttr());
  }
  // Dead now: the f16 fragments, the views' loads and the views.
  eraseDeadOps(rewriter, funcOp);
  // A view still used feeds something other than an mma.sync fragment.
  SmallVector<UnrealizedConversionCastOp> leftViews = getLiveViews();
  if (!leftViews.empty())
    return emitUnsupportedBf16Fragment(*leftViews.front()->getUsers().begin());
  return success();
}

//===----------------------------------------------------------------------===//
// Conversion
//===----------------------------------------------------------------------===//

namespace {
/// Keeps the first reason a rewrite through `rewriter` gives for failing
/// (`notifyMatchFailure`) while in scope, and passes every notification on
/// to the rewriter's own listener. Upstream's MMA conversions say why they
/// fail only that way.
class FirstMatchFailure : public RewriterBase::ForwardingListener {
public:
  explicit FirstMatchFailure(RewriterBase &rewriter)
      : ForwardingListener(rewriter.getListener()), rewriter(rewriter),
        previous(rewriter.getListener()) {
    rewriter.setListener(this);
  }
  ~FirstMatchFailure() override { rewriter.setListener(previous); }

  void
  notifyMatchFailure(Location loc,
                     function_ref<void(Diagnostic &)> reasonCallback) override {
    if (!failureLoc) {
      Diagnostic reason(loc, DiagnosticSeverity::Note);
      reasonCallback(reason);
      failureLoc = loc;
      failureReason = reason.str();
    }
    ForwardingListener::notifyMatchFailure(loc, reasonCallback);
  }

  /// Attaches the failure kept, if any, to `diag` as a note at its op.
  void attachTo(InFlightDiagnostic &diag) const {
    if (!failureLoc)
      return;
    Diagnostic &note = diag.attachNote(*failureLoc)
                       << "MLIR 22's conversion failed here: " << failureReason;
    // Upstream's word for an operand it made no MMA fragment of.
    if (failureReason == "no mapping")
      note << " (an operand of this op is not a value the conversion made an "
              "MMA fragment of, such as a function argument)";
  }

private:
  RewriterBase &rewriter;
  OpBuilder::Listener *previous;
  std::optional<Location> failureLoc;
  std::string failureReason;
};
} // namespace

/// The element count `read` reads, when it is a padded copy's: a 1-D
/// transfer_read of global memory masked by `vector.create_mask %n`, with a
/// zero padding (what cp.async fills the rest with). Null otherwise.
static Value getPaddedReadCount(vector::TransferReadOp read) {
  Value mask = read.getMask();
  if (!mask || read.getVectorType().getRank() != 1 ||
      !read.getPermutationMap().isMinorIdentity() || !read.isDimInBounds(0) ||
      isWorkgroupMemory(read.getBase().getType()) ||
      !cast<MemRefType>(read.getBase().getType()).isLastDimUnitStride())
    return nullptr;
  auto createMask = mask.getDefiningOp<vector::CreateMaskOp>();
  if (!createMask || createMask.getNumOperands() != 1 ||
      !(matchPattern(read.getPadding(), m_AnyZeroFloat()) ||
        matchPattern(read.getPadding(), m_Zero())))
    return nullptr;
  return createMask.getOperand(0);
}

/// Bytes one async copy of `type` moves.
static int64_t getCopyBytes(VectorType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// The global read of a vector copy into workgroup memory that cp.async can
/// make of `write`: a 1-D, in-bounds, minor-identity transfer_read of global
/// memory whose vector an unmasked such transfer_write into workgroup
/// memory stores, of 4, 8 or 16 bytes, unmasked (unless `paddedOnly`) or a
/// padded copy's (getPaddedReadCount), with both sides' vectors aligned to
/// their size (getAlignedVectorWidth): cp.async faults otherwise, and
/// upstream's createAsyncGroups leaves that check a TODO. A copy whose
/// global rows are not aligned so (gpucg-distribute-shared-memory-copy's
/// register-staged copies) stays a read and a write. Null otherwise.
static vector::TransferReadOp getAsyncCopyRead(vector::TransferWriteOp write,
                                               bool paddedOnly) {
  auto read = write.getVector().getDefiningOp<vector::TransferReadOp>();
  if (!read || write.getMask() || !write.isDimInBounds(0) ||
      write.getVectorType().getRank() != 1 ||
      !write.getPermutationMap().isMinorIdentity() ||
      !write.hasPureBufferSemantics() ||
      !isWorkgroupMemory(write.getBase().getType()) ||
      !cast<MemRefType>(write.getBase().getType()).isLastDimUnitStride())
    return nullptr;
  if (read.getMask() ? !getPaddedReadCount(read)
                     : paddedOnly || read.getVectorType().getRank() != 1 ||
                           !read.getPermutationMap().isMinorIdentity() ||
                           !read.isDimInBounds(0) ||
                           !read.hasPureBufferSemantics() ||
                           isWorkgroupMemory(read.getBase().getType()) ||
                           !cast<MemRefType>(read.getBase().getType())
                                .isLastDimUnitStride())
    return nullptr;
  VectorType type = write.getVectorType();
  int64_t bytes = getCopyBytes(type);
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return nullptr;
  int64_t elements = type.getNumElements();
  for (Value base : {read.getBase(), write.getBase()})
    if (getAlignedVectorWidthThroughViews(elements, base) != elements)
      return nullptr;
  return read;
}

/// Turns the copies getAsyncCopyRead takes into nvgpu.device_async_copy,
/// consecutive ones (only ops free of memory effects between them) one
/// group, waited for right after it.
static void convertCopiesToAsync(RewriterBase &rewriter,
                                 FunctionOpInterface funcOp, bool paddedOnly) {
  SmallVector<vector::TransferWriteOp> writes;
  funcOp.walk([&](vector::TransferWriteOp write) {
    if (getAsyncCopyRead(write, paddedOnly))
      writes.push_back(write);
  });
  SmallVector<SmallVector<vector::TransferWriteOp>> groups;
  for (vector::TransferWriteOp write : writes) {
    if (!groups.empty()) {
      Operation *prev = write->getPrevNode();
      while (prev && isMemoryEffectFree(prev))
        prev = prev->getPrevNode();
      // The read of this copy may sit between the two writes.
      if (prev == write.getVector().getDefiningOp()) {
        prev = prev->getPrevNode();
        while (prev && isMemoryEffectFree(prev))
          prev = prev->getPrevNode();
      }
      if (prev == groups.back().back().getOperation()) {
        groups.back().push_back(write);
        continue;
      }
    }
    groups.push_back({write});
  }
  for (ArrayRef<vector::TransferWriteOp> group : groups) {
    SmallVector<Value> tokens;
    for (vector::TransferWriteOp write : group) {
      vector::TransferReadOp read = getAsyncCopyRead(write, paddedOnly);
      VectorType type = write.getVectorType();
      rewriter.setInsertionPoint(write);
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          rewriter, write.getLoc(),
          nvgpu::DeviceAsyncTokenType::get(rewriter.getContext()),
          write.getBase(), write.getIndices(), read.getBase(),
          read.getIndices(), rewriter.getIndexAttr(type.getNumElements()),
          read.getMask() ? getPaddedReadCount(read) : Value(),
          getCopyBytes(type) == 16 ? rewriter.getUnitAttr() : UnitAttr()));
    }
    vector::TransferWriteOp last = group.back();
    rewriter.setInsertionPointAfter(last);
    auto commit = nvgpu::DeviceAsyncCreateGroupOp::create(
        rewriter, last.getLoc(), tokens);
    nvgpu::DeviceAsyncWaitOp::create(rewriter, last.getLoc(),
                                     commit.getResult(), IntegerAttr());
    for (vector::TransferWriteOp write : group) {
      Operation *read = write.getVector().getDefiningOp();
      rewriter.eraseOp(write);
      if (read->use_empty())
        rewriter.eraseOp(read);
    }
  }
}

void mlir::gpucg::convertPaddedCopiesToAsync(RewriterBase &rewriter,
                                             FunctionOpInterface funcOp) {
  convertCopiesToAsync(rewriter, funcOp, /*paddedOnly=*/true);
}

void mlir::gpucg::convertWorkgroupCopiesToAsync(RewriterBase &rewriter,
                                                FunctionOpInterface funcOp) {
  convertCopiesToAsync(rewriter, funcOp, /*paddedOnly=*/false);
}

LogicalResult mlir::gpucg::convertVectorsToTensorCoreOps(
    RewriterBase &rewriter, FunctionOpInterface funcOp, MmaKind kind,
    const TensorCoreConversionOptions &options) {
  MLIRContext *ctx = funcOp.getContext();
  // First: upstream's MMA conversions slice through a vector.create_mask's
  // operands and fail on the index arithmetic of a padded copy's count.
  convertPaddedCopiesToAsync(rewriter, funcOp);
  {
    RewritePatternSet patterns(ctx);
    populatePrepareVectorToMMAPatterns(patterns,
                                       /*useNvGpu=*/kind == MmaKind::MmaSync);
    // Unreachable for MLIR 22 because each of these patterns moves a
    // contraction toward one canonical operand layout and none undoes
    // another; kept so that a future upstream change fails loudly rather
    // than crashing.
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return funcOp.emitOpError()
             << "MMA preparation patterns did not converge";
  }

  // Upstream's conversions take matrix contractions only (2-D operands and
  // accumulator), and on a long chain of anything else they spend time
  // quadratic in its length in backward slices before skipping it (a
  // transposed i8 operand unrolls to hundreds of row-times-row dot
  // products). Say so before calling them.
  WalkResult notMatrix = funcOp.walk([&](vector::ContractionOp contract) {
    auto accType = dyn_cast<VectorType>(contract.getAccType());
    if (contract.getLhsType().getRank() == 2 &&
        contract.getRhsType().getRank() == 2 && accType &&
        accType.getRank() == 2)
      return WalkResult::advance();
    contract.emitOpError()
        << "was not converted to "
        << (kind == MmaKind::Wmma ? "WMMA" : "mma.sync")
        << " operations: it is not a matrix multiply (operands "
        << contract.getLhsType() << " and " << contract.getRhsType()
        << " into " << contract.getAccType()
        << "; tensor cores take 2-D operands and accumulator), as the "
           "operands' layout left it after unrolling";
    return WalkResult::interrupt();
  });
  if (notMatrix.wasInterrupted())
    return failure();

  {
    // Upstream's conversions fail on an op of a contraction's chain: one
    // they have no conversion for (mma.sync only, with an error of their
    // own on it) or one they cannot convert (with a match-failure reason
    // only, e.g. an operand they made no fragment of: kept for the note).
    FirstMatchFailure firstFailure(rewriter);
    auto conversionFailed = [&]() {
      InFlightDiagnostic diag =
          funcOp.emitOpError()
          << "could not convert to "
          << (kind == MmaKind::Wmma ? "WMMA" : "mma.sync")
          << " operations: MLIR 22's conversion failed on an op that "
             "produces or uses a contraction's operands or result";
      firstFailure.attachTo(diag);
      return diag;
    };
    if (kind == MmaKind::Wmma) {
      if (failed(convertVectorToMMAOps(rewriter, funcOp)))
        return conversionFailed();
    } else {
      SmallVector<UnrealizedConversionCastOp> bf16Views =
          punBf16Contractions(rewriter, funcOp);
      if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, funcOp)))
        return conversionFailed();
      if (failed(restoreBf16Fragments(rewriter, funcOp, bf16Views)))
        return failure();
    }
  }

  // f32 operands run as TF32 on tensor cores (WMMA m16n16k8).
  WalkResult tf32 = funcOp.walk([&](gpu::SubgroupMmaComputeOp mma) {
    auto type = cast<gpu::MMAMatrixType>(mma.getOpA().getType());
    if (!type.getElementType().isF32() || options.useTf32)
      return WalkResult::advance();
    mma.emitOpError() << "multiplies f32 operands, which tensor cores only "
                         "do as TF32; run with tf32=true or use a SIMT "
                         "pipeline";
    return WalkResult::interrupt();
  });
  if (tf32.wasInterrupted())
    return failure();

  convertWorkgroupCopiesToAsync(rewriter, funcOp);

  // After the async copies: upstream's swizzle does not rewrite the
  // vector.transfer_write they replace.
  if (options.swizzle && swizzlesWorkgroupMemory(kind)) {
    lowerWorkgroupTransfers(rewriter, funcOp);
    swizzleWorkgroupAllocations(funcOp, options.reportSwizzle);
  }

  // The conversions leave the replaced vector ops behind, dead.
  RewritePatternSet patterns(ctx);
  populateAllCanonicalizationPatterns(patterns);
  (void)applyPatternsGreedily(funcOp, std::move(patterns));
  // Upstream's conversions skip what they cannot take and still succeed; a
  // contraction left behind would run on no tensor core at all.
  // (Checked once canonicalization erased the ops they replaced.)
  WalkResult unconverted =
      funcOp.walk([&](vector::ContractionOp contract) {
        contract.emitOpError()
            << "was not converted to "
            << (kind == MmaKind::Wmma ? "WMMA" : "mma.sync")
            << " operations: MLIR 22's conversion takes only row-major A, "
               "column-major or row-major B and a result of the operands' "
               "layout, with element types it has an instruction for";
        return WalkResult::interrupt();
      });
  if (unconverted.wasInterrupted())
    return failure();
  return success();
}

namespace {
struct VectorToGPUPass : public gpucg::impl::VectorToGPUBase<VectorToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TranslationInfoAttr info = getTranslationInfo(funcOp);
    if (!info)
      return;
    std::optional<MmaKind> kind = info.getTensorCoreMmaKind();
    if (!kind) {
      // A pipelined SIMT matmul: only its copies become asynchronous.
      if (info.getPipeline() == Pipeline::MatmulSimt &&
          info.getPipelineDepth() > 1) {
        IRRewriter rewriter(&getContext());
        convertWorkgroupCopiesToAsync(rewriter, funcOp);
        // The global reads the copies replaced are left behind, dead.
        RewritePatternSet patterns(&getContext());
        populateAllCanonicalizationPatterns(patterns);
        (void)applyPatternsGreedily(funcOp, std::move(patterns));
      }
      return;
    }
    if (failed(verifyMmaOption(funcOp, info, mma)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    TensorCoreConversionOptions options;
    options.useTf32 = tf32;
    options.swizzle = swizzle;
    options.reportSwizzle = reportSwizzle;
    if (failed(convertVectorsToTensorCoreOps(rewriter, funcOp, *kind, options)))
      return signalPassFailure();
  }
};
} // namespace
