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
//     nvgpu.ldmatrix), TF32 enabled for f32 operands, and the shared-memory
//     swizzle of nvgpu::optimizeSharedMemoryReadsAndWrites on every
//     workgroup buffer whose accesses it can rewrite;
//   - global-to-workgroup vector copies become nvgpu.device_async_copy in
//     groups (nvgpu::createAsyncGroups), each group waited for at once;
//     software pipelining relaxes the waits.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_VECTORTOGPU
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;


/// Regions upstream's MMA conversions must not see: the remainder branches
/// of workgroup specialization, which keep scalar linalg ops (the
/// conversions reject every scalar arith.extf they walk over). They are set
/// aside while the conversions run and put back afterwards.
class RemainderPathsAside {
public:
  explicit RemainderPathsAside(FunctionOpInterface funcOp) {
    funcOp.walk([&](scf::IfOp ifOp) {
      Region &elseRegion = ifOp.getElseRegion();
      if (elseRegion.empty())
        return;
      bool hasContract = false, hasLinalg = false;
      elseRegion.walk([&](Operation *op) {
        hasContract |= isa<vector::ContractionOp>(op);
        hasLinalg |= isa<linalg::LinalgOp>(op);
      });
      if (hasContract || !hasLinalg)
        return;
      auto aside = std::make_unique<Region>();
      aside->takeBody(elseRegion);
      asides.emplace_back(ifOp, std::move(aside));
    });
  }
  ~RemainderPathsAside() {
    for (auto &[ifOp, region] : asides)
      ifOp.getElseRegion().takeBody(*region);
  }

private:
  SmallVector<std::pair<scf::IfOp, std::unique_ptr<Region>>> asides;
};

LogicalResult mlir::gpucg::convertVectorsToTensorCoreOps(
    RewriterBase &rewriter, FunctionOpInterface funcOp, MmaKind kind,
    bool useTf32) {
  MLIRContext *ctx = funcOp.getContext();
  // Set aside only around the conversions: the pattern rewrites below would
  // see values used only there as dead.
  std::optional<RemainderPathsAside> aside;
  {
    RewritePatternSet patterns(ctx);
    populatePrepareVectorToMMAPatterns(patterns,
                                       /*useNvGpu=*/kind == MmaKind::MmaSync);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return funcOp.emitOpError()
             << "MMA preparation patterns did not converge";
  }

  aside.emplace(funcOp);
  if (kind == MmaKind::Wmma) {
    if (failed(convertVectorToMMAOps(rewriter, funcOp)))
      return funcOp.emitOpError() << "could not convert to WMMA operations";
  } else {
    if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, funcOp)))
      return funcOp.emitOpError()
             << "could not convert to mma.sync operations";
  }
  aside.reset();
  if (kind == MmaKind::MmaSync) {
    // Swizzle workgroup buffers where the rewrite applies; elsewhere it
    // refuses and the buffer stays as it is.
    SmallVector<memref::AllocOp> allocs;
    funcOp.walk([&](memref::AllocOp alloc) {
      if (isWorkgroupMemory(alloc.getType()))
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs)
      (void)nvgpu::optimizeSharedMemoryReadsAndWrites(funcOp,
                                                      alloc.getResult());
  }

  // f32 operands run as TF32 on tensor cores (WMMA m16n16k8).
  WalkResult tf32 = funcOp.walk([&](gpu::SubgroupMmaComputeOp mma) {
    auto type = cast<gpu::MMAMatrixType>(mma.getOpA().getType());
    if (!type.getElementType().isF32() || useTf32)
      return WalkResult::advance();
    mma.emitOpError() << "multiplies f32 operands, which tensor cores only "
                         "do as TF32; run with tf32=true or use a SIMT "
                         "pipeline";
    return WalkResult::interrupt();
  });
  if (tf32.wasInterrupted())
    return failure();

  nvgpu::createAsyncGroups(rewriter, funcOp, /*bypassL1=*/true);

  // The conversions leave the replaced vector ops behind, dead.
  RewritePatternSet patterns(ctx);
  populateAllCanonicalizationPatterns(patterns);
  (void)applyPatternsGreedily(funcOp, std::move(patterns));
  return success();
}

namespace {
struct VectorToGPUPass
    : public gpucg::impl::VectorToGPUBase<VectorToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TranslationInfoAttr info = getTranslationInfo(funcOp);
    if (!info)
      return;
    std::optional<MmaKind> kind = info.getTensorCoreMmaKind();
    if (!kind)
      return; // Not a tensor-core kernel.
    if (failed(verifyMmaOption(funcOp, info, mma)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    if (failed(convertVectorsToTensorCoreOps(rewriter, funcOp, *kind, tf32)))
      return signalPassFailure();
  }
};
} // namespace
