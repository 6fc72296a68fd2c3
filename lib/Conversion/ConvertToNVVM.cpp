//===- ConvertToNVVM.cpp - gpucg kernels to LLVM + NVVM in one go -------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's gpu-lower-to-nvvm-pipeline runs one conversion pass per dialect.
// On gpucg's kernels that order matters and goes wrong: 1-D transfers on
// workgroup memory stay unconverted, and an scf.for carrying both
// !gpu.mma_matrix values and async tokens fails unless scf is lowered first.
// This pass does what IREE's ConvertToNVVM did: structured control flow and
// vector/memref forms are simplified first, then every dialect goes to LLVM
// and NVVM in a single conversion with one type converter, and anything that
// survives is an error.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Conversion/ExportKernels.h"
#include "gpucg/Conversion/NVGPUToNVVM.h"
#include "gpucg/Conversion/Passes.h"
#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/LoweringOptions.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_CONVERTTONVVM
#include "gpucg/Conversion/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

//===----------------------------------------------------------------------===//
// Alignment of vector loads and stores
//===----------------------------------------------------------------------===//

/// Returns how many trailing zero bits `value` is known to have (capped at
/// 32): a lower bound on log2 of the largest power of two dividing it.
static unsigned knownTrailingZeros(Value value, unsigned depth = 0) {
  constexpr unsigned kMax = 32;
  if (depth > 16)
    return 0;
  if (std::optional<int64_t> constant = getConstantIntValue(value)) {
    if (*constant == 0)
      return kMax;
    return std::min<unsigned>(kMax, llvm::countr_zero(
                                        static_cast<uint64_t>(*constant)));
  }
  auto recurse = [&](Value v) { return knownTrailingZeros(v, depth + 1); };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // An scf.for induction variable is lb + k * step.
    if (auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == forOp.getInductionVar())
        return std::min(recurse(forOp.getLowerBound()),
                        recurse(forOp.getStep()));
    return 0;
  }
  Operation *op = value.getDefiningOp();
  if (isa<arith::AddIOp, arith::SubIOp, arith::XOrIOp, arith::OrIOp,
          arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp,
          arith::SelectOp>(op)) {
    unsigned result = kMax;
    for (Value operand : op->getOperands().take_back(2))
      result = std::min(result, recurse(operand));
    return result;
  }
  if (isa<arith::MulIOp>(op))
    return std::min(kMax, recurse(op->getOperand(0)) + recurse(op->getOperand(1)));
  if (isa<arith::AndIOp>(op))
    return std::max(recurse(op->getOperand(0)), recurse(op->getOperand(1)));
  if (isa<arith::ShLIOp>(op)) {
    if (std::optional<int64_t> shift = getConstantIntValue(op->getOperand(1)))
      return std::min<unsigned>(kMax, recurse(op->getOperand(0)) + *shift);
    return recurse(op->getOperand(0));
  }
  if (isa<arith::RemUIOp, arith::RemSIOp>(op)) {
    // a mod 2^k keeps min(tz(a), k) zeros; a mod m keeps gcd-power zeros.
    return std::min(recurse(op->getOperand(0)), recurse(op->getOperand(1)));
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op))
    return recurse(op->getOperand(0));
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    // Only the affine forms the lowering keeps: constant * operand sums.
    AffineExpr expr = apply.getAffineMap().getResult(0);
    unsigned numDims = apply.getAffineMap().getNumDims();
    std::function<unsigned(AffineExpr)> visit = [&](AffineExpr e) -> unsigned {
      if (auto c = dyn_cast<AffineConstantExpr>(e))
        return c.getValue() == 0
                   ? kMax
                   : std::min<unsigned>(kMax, llvm::countr_zero(static_cast<
                                                   uint64_t>(c.getValue())));
      if (auto d = dyn_cast<AffineDimExpr>(e))
        return recurse(apply.getOperand(d.getPosition()));
      if (auto s = dyn_cast<AffineSymbolExpr>(e))
        return recurse(apply.getOperand(numDims + s.getPosition()));
      auto bin = cast<AffineBinaryOpExpr>(e);
      unsigned lhs = visit(bin.getLHS()), rhs = visit(bin.getRHS());
      switch (e.getKind()) {
      case AffineExprKind::Add:
        return std::min(lhs, rhs);
      case AffineExprKind::Mul:
        return std::min(kMax, lhs + rhs);
      case AffineExprKind::Mod:
        return std::min(lhs, rhs);
      default:
        return 0;
      }
    };
    return visit(expr);
  }
  return 0;
}

/// The strides and offset of `type`'s layout, all static; fails where any
/// is dynamic (or the layout is not strided).
static LogicalResult
getStaticStridesAndOffset(MemRefType type, SmallVectorImpl<int64_t> &strides,
                          int64_t &offset) {
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return failure();
  return success();
}

/// Returns the alignment in bytes (a power of two, at most
/// `gpucg::kBufferAlignment`) that the base of `memref` is known to have.
static int64_t knownBaseAlignment(Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    // Kernel arguments and workgroup attributions.
    if (isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return gpucg::kBufferAlignment;
    return 1;
  }
  Operation *def = memref.getDefiningOp();
  if (isa<gpu::DynamicSharedMemoryOp>(def))
    return gpucg::kBufferAlignment;
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    unsigned zeros = knownTrailingZeros(view.getByteShift());
    int64_t offsetAlignment =
        zeros >= 5 ? gpucg::kBufferAlignment : (int64_t(1) << zeros);
    return std::min(knownBaseAlignment(view.getSource()), offsetAlignment);
  }
  if (auto alloc = dyn_cast<memref::AllocOp>(def))
    return std::min<int64_t>(gpucg::kBufferAlignment,
                             alloc.getAlignment().value_or(1));
  // A reinterpret_cast starts from its source's base pointer (its own
  // offset is in its type); expand-strided-metadata makes one of every
  // view, from the base buffer of its source's metadata.
  if (auto cast = dyn_cast<memref::ReinterpretCastOp>(def))
    return knownBaseAlignment(cast.getSource());
  if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(def))
    if (memref == metadata.getBaseBuffer())
      return knownBaseAlignment(metadata.getSource());
  return 1;
}

/// Rewrites each memref.collapse_shape of a static layout (static strides
/// and offset; sizes may be dynamic) as the reinterpret_cast of its source
/// to that layout, which addresses the same elements. Folded into its loads and
/// stores (fold-memref-alias-ops), a collapse_shape indexes its source through
/// a delinearization, whose remainders prove no alignment: the rows of an
/// elementwise kernel whose loops gpucg-collapse-elementwise-dims merged (a
/// 64x4097 f16 add as one row of 262208) would be read and written element by
/// element instead of in 128-bit accesses.
static void collapseShapesToReinterpretCasts(gpu::GPUModuleOp module) {
  SmallVector<memref::CollapseShapeOp> collapses;
  module.walk([&](memref::CollapseShapeOp op) { collapses.push_back(op); });
  IRRewriter rewriter(module.getContext());
  for (memref::CollapseShapeOp op : collapses) {
    MemRefType type = op.getResultType();
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(getStaticStridesAndOffset(type, strides, offset)))
      continue;
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    // Each size the product of its group's source sizes (a dynamic M of
    // C viewed as [M, heads * 128]).
    SmallVector<OpFoldResult> sizes;
    for (auto [dim, group] : llvm::enumerate(op.getReassociationIndices())) {
      if (!type.isDynamicDim(dim)) {
        sizes.push_back(rewriter.getIndexAttr(type.getDimSize(dim)));
        continue;
      }
      Value size = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t source : group)
        size = arith::MulIOp::create(
            rewriter, loc, size,
            memref::DimOp::create(rewriter, loc, op.getSrc(), source));
      sizes.push_back(size);
    }
    SmallVector<OpFoldResult> strideValues =
        getAsIndexOpFoldResult(rewriter.getContext(), strides);
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, type, op.getSrc(), rewriter.getIndexAttr(offset), sizes,
        strideValues);
  }
}

/// Sets the `alignment` of a vector.load / vector.store from what is known of
/// its base and indices, so that the lowering emits one 128-bit access
/// instead of scalar ones.
template <typename OpTy>
static void inferVectorAccessAlignment(OpTy op) {
  MemRefType type = op.getMemRefType();
  Type elementType = type.getElementType();
  if (!elementType.isIntOrFloat() || op.getAlignment())
    return;
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  if (elementBytes == 0)
    return;
  int64_t vectorBytes =
      elementBytes * op.getVectorType().getNumElements();
  if (!llvm::isPowerOf2_64(vectorBytes) || vectorBytes <= elementBytes)
    return;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStaticStridesAndOffset(type, strides, offset)))
    return;
  int64_t alignment = std::min(vectorBytes, knownBaseAlignment(op.getBase()));
  auto limit = [&](int64_t byteMultiple, unsigned zeros) {
    // The byte offset byteMultiple * 2^zeros * k is a multiple of this.
    if (byteMultiple == 0)
      return;
    unsigned total = std::min<unsigned>(
        32, llvm::countr_zero(static_cast<uint64_t>(byteMultiple)) + zeros);
    alignment = std::min<int64_t>(alignment, int64_t(1) << std::min(total, 30u));
  };
  limit(offset * elementBytes, 0);
  for (auto [index, stride] : llvm::zip_equal(op.getIndices(), strides))
    limit(stride * elementBytes, knownTrailingZeros(index));
  if (alignment > elementBytes)
    op.setAlignment(static_cast<uint64_t>(alignment));
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertToNVVMPass
    : public gpucg::impl::ConvertToNVVMBase<ConvertToNVVMPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<cf::ControlFlowDialect, arith::ArithDialect, scf::SCFDialect,
                    memref::MemRefDialect, vector::VectorDialect,
                    affine::AffineDialect>();
  }

  /// With `bare-pointers`, the module's kernels take bare pointers when
  /// their arguments allow (canPassBarePointers: static shapes, identity
  /// layouts), memref descriptors otherwise, as gpucg-export-kernels
  /// describes each. One lowering serves the whole module, so its kernels
  /// must agree.
  FailureOr<bool> chooseBarePointers(gpu::GPUModuleOp module) {
    if (!useBarePointers)
      return false;
    gpu::GPUFuncOp bare, descriptors;
    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      (gpucg::canPassBarePointers(func.getArgumentTypes()) ? bare
                                                           : descriptors) =
          func;
    });
    if (bare && descriptors) {
      InFlightDiagnostic diag =
          descriptors.emitOpError()
          << "takes arguments that need memref descriptors (a dynamic shape "
             "or a strided layout), but kernel '"
          << bare.getName()
          << "' of the same gpu.module takes bare pointers; one module has "
             "one calling convention: put them in separate modules (as "
             "gpu-kernel-outlining does) or lower with bare-pointers=false";
      diag.attachNote(bare.getLoc()) << "the kernel that takes bare pointers";
      return failure();
    }
    if (descriptors) {
      // Not the convention the option names: a host lowered with upstream's
      // gpu-to-llvm{use-bare-pointers-for-kernels=true} would pass this
      // kernel bare pointers without complaint.
      for (auto [index, type] :
           llvm::enumerate(descriptors.getArgumentTypes())) {
        if (gpucg::canPassBarePointers(type))
          continue;
        descriptors.emitWarning()
            << "takes memref descriptors, not bare pointers: argument #"
            << index << " has type " << type
            << " (a bare pointer needs a static shape and an identity "
               "layout); its .abi says calling_convention "
               "memref_descriptors, and a host lowered with gpu-to-llvm "
               "must use use-bare-pointers-for-kernels=false to launch it";
        break;
      }
    }
    return !descriptors;
  }

  /// Vector, memref and affine forms the LLVM conversion does not take,
  /// rewritten into ones it does.
  LogicalResult simplify(gpu::GPUModuleOp module) {
    MLIRContext *ctx = &getContext();
    {
      // Linalg ops on buffers that no earlier stage vectorized (the scalar
      // remainder path of workgroup specialization, each thread on its own
      // elements) run as the loops they stand for.
      SmallVector<linalg::LinalgOp> linalgOps;
      module.walk([&](linalg::LinalgOp op) {
        if (op.hasPureBufferSemantics())
          linalgOps.push_back(op);
      });
      IRRewriter rewriter(ctx);
      for (linalg::LinalgOp op : linalgOps) {
        rewriter.setInsertionPoint(op);
        // Unreachable for linalg ops on buffers because linalgOpToLoops
        // fails only when a loop it builds has no induction variable, which
        // scf.for always has; kept so that a future upstream change fails
        // loudly rather than crashing.
        if (failed(linalg::linalgOpToLoops(rewriter, op)))
          return op.emitOpError() << "could not be lowered to loops";
        rewriter.eraseOp(op);
      }
    }
    // Conversions to and from floats of 8 bits and fewer (an f8 matmul's
    // operands, a cast of its result) as integer arithmetic: neither LLVM
    // nor NVVM lowers them.
    if (failed(gpucg::expandSmallFloats(module, nvvmFloat8)))
      return failure();
    collapseShapesToReinterpretCasts(module);
    {
      RewritePatternSet patterns(ctx);
      memref::populateFoldMemRefAliasOpPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      populateVectorToSCFConversionPatterns(
          patterns, VectorTransferToSCFOptions().enableFullUnroll());
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      vector::populateVectorMaskMaterializationPatterns(
          patterns, /*force32BitVectorIndices=*/false);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerParallel);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::EltWise);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateVectorGatherLoweringPatterns(patterns);
      vector::populateVectorStepLoweringPatterns(patterns);
      vector::populateVectorFromElementsUnrollPatterns(patterns);
      vector::populateVectorToElementsUnrollPatterns(patterns);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      // Slices inserted into a vector the small-float expansion takes apart
      // (NVVM's f8x2 conversions work on pairs of scalars) as shuffles.
      vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
      // Warp reductions as butterfly shuffles (gpu.shuffle xor), 32 bits at
      // a time; NVVM has no other lowering for floating-point ones.
      populateGpuLowerSubgroupReduceToShufflePatterns(
          patterns, /*subgroupSize=*/32, /*shuffleBitwidth=*/32);
      if (failed(applyPatternsGreedily(module, std::move(patterns))))
        return module.emitOpError()
               << "vector and memref simplification did not converge";
    }
    {
      RewritePatternSet patterns(ctx);
      memref::populateExpandStridedMetadataPatterns(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns))))
        return module.emitOpError()
               << "strided-metadata expansion did not converge";
    }
    // While loops are still scf.for, whose induction variables' alignment
    // (lower bound and step) is known.
    module.walk([](Operation *op) {
      if (auto load = dyn_cast<vector::LoadOp>(op))
        inferVectorAccessAlignment(load);
      else if (auto store = dyn_cast<vector::StoreOp>(op))
        inferVectorAccessAlignment(store);
    });
    {
      // Structured control flow to branches before the LLVM conversion: an
      // scf.for carrying !gpu.mma_matrix values and async tokens cannot be
      // converted together with its body's types.
      RewritePatternSet patterns(ctx);
      populateAffineToStdConversionPatterns(patterns);
      // affine.linearize_index and delinearize_index (a batched wgmma
      // tile's matrix) as arithmetic.
      affine::populateAffineExpandIndexOpsPatterns(patterns);
      populateSCFToControlFlowConversionPatterns(patterns);
      ConversionTarget target(*ctx);
      target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                             memref::MemRefDialect, vector::VectorDialect>();
      target.addIllegalDialect<affine::AffineDialect, scf::SCFDialect>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      target.addIllegalDialect<affine::AffineDialect, scf::SCFDialect>();
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return failure();
    }
    {
      // The affine lowering's floor and ceiling divisions (arith.floordivsi
      // of a workgroup index delinearized over the loops sharing grid z) as
      // the arithmetic the LLVM conversion takes.
      RewritePatternSet patterns(ctx);
      arith::populateCeilFloorDivExpandOpsPatterns(patterns);
      walkAndApplyPatterns(module, std::move(patterns));
    }
    return success();
  }

  LogicalResult convertToLLVM(gpu::GPUModuleOp module, bool barePointers) {
    MLIRContext *ctx = &getContext();
    LowerToLLVMOptions options(ctx);
    options.overrideIndexBitwidth(indexBitwidth);
    options.useBarePtrCallConv = barePointers;
    LLVMTypeConverter converter(ctx, options);
    configureGpuToNVVMTypeConverter(converter);
    // Upstream's nvgpu-to-nvvm pass adds these in the pass, not in its
    // populate function: async-copy tokens are i32 group ids.
    converter.addConversion([ctx](nvgpu::DeviceAsyncTokenType) -> Type {
      return IntegerType::get(ctx, 32);
    });
    // The Hopper types, as upstream's pass converts them: an mbarrier group
    // is its shared-memory array, tokens and warpgroup descriptors are i64, a
    // tensor map is a generic pointer (a kernel parameter), and a warpgroup
    // accumulator is one struct of its tileN / 2 f32 per thread for each m64
    // tile.
    converter.addConversion(
        [&converter, ctx](nvgpu::MBarrierGroupType type) -> Type {
          return converter.convertType(nvgpu::getMBarrierMemrefType(ctx, type));
        });
    converter.addConversion([ctx](nvgpu::MBarrierTokenType) -> Type {
      return IntegerType::get(ctx, 64);
    });
    converter.addConversion(
        [ctx](nvgpu::WarpgroupMatrixDescriptorType) -> Type {
          return IntegerType::get(ctx, 64);
        });
    converter.addConversion([ctx](nvgpu::TensorMapDescriptorType) -> Type {
      return LLVM::LLVMPointerType::get(ctx);
    });
    converter.addConversion(
        [ctx](nvgpu::WarpgroupAccumulatorType type) -> Type {
          VectorType fragmented = type.getFragmented();
          int64_t tiles = fragmented.getDimSize(0) / kWgmmaSizeM;
          int64_t perThread = fragmented.getDimSize(1) / 2;
          Type tile = LLVM::LLVMStructType::getLiteral(
              ctx, SmallVector<Type>(perThread, fragmented.getElementType()));
          return LLVM::LLVMStructType::getLiteral(
              ctx, SmallVector<Type>(tiles, tile));
        });

    RewritePatternSet patterns(ctx);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    populateVectorToLLVMConversionPatterns(converter, patterns);
    populateGpuToNVVMConversionPatterns(converter, patterns);
    populateGpuWMMAToNVVMConversionPatterns(converter, patterns);
    gpucg::populateGpucgNVGPUToNVVMConversionPatterns(converter, patterns);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*ctx);
    configureGpuToNVVMConversionLegality(target);
    target.addIllegalDialect<nvgpu::NVGPUDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return failure();

    OpPassManager cleanup(gpu::GPUModuleOp::getOperationName());
    // NVVM ops without an LLVM intrinsic (the mbarrier try_wait spin loop,
    // predicated mbarrier and TMA ops) as the inline PTX they describe.
    cleanup.addPass(createConvertNVVMToLLVMPass());
    cleanup.addPass(createReconcileUnrealizedCastsPass());
    cleanup.addPass(createCanonicalizerPass());
    cleanup.addPass(createCSEPass());
    return runPipeline(cleanup, module);
  }

  /// Fails, naming it, on the first op that is not LLVM or NVVM. An op that
  /// was not converted is reported before the casts its users left behind.
  LogicalResult checkFullyConverted(gpu::GPUModuleOp module) {
    Operation *unconverted = nullptr;
    UnrealizedConversionCastOp cast;
    module.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(op->getDialect()))
        return WalkResult::advance();
      if (auto castOp = dyn_cast<UnrealizedConversionCastOp>(op)) {
        if (!cast)
          cast = castOp;
        return WalkResult::advance();
      }
      unconverted = op;
      return WalkResult::interrupt();
    });
    if (unconverted) {
      unconverted->emitOpError()
          << "was not converted to the LLVM or NVVM dialect "
             "(gpucg-convert-to-nvvm)";
      return failure();
    }
    if (cast) {
      cast.emitOpError()
          << "remains after conversion to NVVM: a value of type "
          << cast.getOperandTypes() << " has no conversion to "
          << cast.getResultTypes()
          << " (an op of that type has no LLVM lowering, e.g. an n-D "
             "vector load or store)";
      return failure();
    }
    return success();
  }

  /// Workgroup attributions become shared-memory globals; without an
  /// alignment they would be byte-aligned and 128-bit accesses would fault.
  void alignWorkgroupAttributions(gpu::GPUModuleOp module) {
    StringAttr alignName =
        StringAttr::get(&getContext(), LLVM::LLVMDialect::getAlignAttrName());
    module.walk([&](gpu::GPUFuncOp func) {
      for (unsigned index = 0, e = func.getNumWorkgroupAttributions();
           index < e; ++index) {
        auto existing = dyn_cast_or_null<IntegerAttr>(
            func.getWorkgroupAttributionAttr(index, alignName));
        if (existing && existing.getInt() >= gpucg::kBufferAlignment)
          continue;
        func.setWorkgroupAttributionAttr(
            index, alignName,
            IntegerAttr::get(IntegerType::get(&getContext(), 64),
                             gpucg::kBufferAlignment));
      }
    });
  }

  /// The alignment gpucg-build-gpu-launch placed dynamic shared memory's
  /// allocations for (a 128-byte-swizzled TMA tile wants 1024), at least the
  /// 16 bytes the lowering gives the symbol anyway.
  uint64_t getDynamicSharedMemoryAlignment(gpu::GPUModuleOp module) {
    uint64_t alignment = 0;
    auto *dialect = getContext().getLoadedDialect<gpucg::GpucgDialect>();
    if (!dialect)
      return alignment;
    module.walk([&](gpu::DynamicSharedMemoryOp op) {
      if (IntegerAttr attr = dialect->getAlignmentAttrHelper().getAttr(op))
        alignment = std::max<uint64_t>(alignment, attr.getInt());
    });
    return alignment;
  }

  /// Aligns the dynamic shared memory symbol(s) of `module` to `alignment`.
  void alignDynamicSharedMemory(gpu::GPUModuleOp module, uint64_t alignment) {
    module.walk([&](LLVM::GlobalOp global) {
      if (global.getAddrSpace() !=
              static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared) ||
          !global.getSymName().starts_with("__dynamic_shmem_"))
        return;
      if (global.getAlignment().value_or(0) < alignment)
        global.setAlignment(alignment);
    });
  }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    alignWorkgroupAttributions(module);
    uint64_t dynamicAlignment = getDynamicSharedMemoryAlignment(module);
    FailureOr<bool> barePointers = chooseBarePointers(module);
    if (failed(barePointers) || failed(simplify(module)) ||
        failed(convertToLLVM(module, *barePointers)) ||
        failed(checkFullyConverted(module)))
      return signalPassFailure();
    if (dynamicAlignment)
      alignDynamicSharedMemory(module, dynamicAlignment);
  }
};
} // namespace
