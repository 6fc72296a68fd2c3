//===- LowerWorkgroup.cpp - Dispatch kernels on their translation_info ---===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A module may hold kernels lowered by different pipelines. After the shared
// front (strategy, workgroup tiling, bufferization), this pass runs, per
// kernel, the in-workgroup pipeline its translation_info names, as a dynamic
// pass pipeline.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Pipelines/Passes.h"

#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_LOWERWORKGROUP
#include "gpucg/Pipelines/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

namespace {
struct LowerWorkgroupPass
    : public gpucg::impl::LowerWorkgroupBase<LowerWorkgroupPass> {
  using Base::Base;

  void setPipelineOptions(TensorCorePipelineOptions &options) const {
    options.padding = padding;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    // Every pipeline this pass may run; dynamic pipelines must declare them.
    for (MmaKind kind : {MmaKind::Wmma, MmaKind::MmaSync}) {
      OpPassManager pm(func::FuncOp::getOperationName());
      TensorCorePipelineOptions options;
      setPipelineOptions(options);
      buildTensorCoreWorkgroupPipeline(pm, kind, options);
      pm.getDependentDialects(registry);
    }
    OpPassManager simt(func::FuncOp::getOperationName());
    buildSimtWorkgroupPipeline(simt);
    simt.getDependentDialects(registry);
    OpPassManager vectorize(func::FuncOp::getOperationName());
    buildVectorizeWorkgroupPipeline(vectorize);
    vectorize.getDependentDialects(registry);
    OpPassManager reduction(func::FuncOp::getOperationName());
    buildWarpReductionWorkgroupPipeline(reduction);
    reduction.getDependentDialects(registry);
    OpPassManager wgmma(func::FuncOp::getOperationName());
    buildWgmmaWorkgroupPipeline(wgmma);
    wgmma.getDependentDialects(registry);
  }

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TranslationInfoAttr translation = getTranslationInfo(funcOp);
    if (!translation || funcOp.isDeclaration())
      return;
    OpPassManager pm(func::FuncOp::getOperationName());
    TensorCorePipelineOptions options;
    setPipelineOptions(options);
    switch (translation.getPipeline()) {
    case Pipeline::MatmulTensorCore:
      buildTensorCoreWorkgroupPipeline(pm, MmaKind::Wmma, options);
      break;
    case Pipeline::MatmulTensorCoreMmaSync:
      buildTensorCoreWorkgroupPipeline(pm, MmaKind::MmaSync, options);
      break;
    // Each thread's tile as vectors: elementwise and short-row kernels, and
    // the SIMT matmul's register tiles (its K steps as vector.contract).
    case Pipeline::Vectorize:
    case Pipeline::MatmulSimt:
      buildVectorizeWorkgroupPipeline(pm);
      break;
    case Pipeline::WarpReduction:
      buildWarpReductionWorkgroupPipeline(pm);
      break;
    case Pipeline::SimtDistribute:
      buildSimtWorkgroupPipeline(pm);
      break;
    case Pipeline::MatmulWgmma:
      buildWgmmaWorkgroupPipeline(pm);
      break;
    default:
      funcOp.emitOpError()
          << "has translation_info pipeline '"
          << stringifyPipeline(translation.getPipeline())
          << "', which gpucg cannot lower to a GPU binary yet (supported: "
             "MatmulTensorCore, MatmulTensorCoreMmaSync, MatmulWgmma, "
             "SimtDistribute, Vectorize, MatmulSimt, WarpReduction)";
      return signalPassFailure();
    }
    if (failed(runPipeline(pm, funcOp)))
      signalPassFailure();
  }
};
} // namespace
