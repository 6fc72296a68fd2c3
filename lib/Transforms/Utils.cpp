//===- Utils.cpp - Helpers shared by gpucg's passes -----------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

void mlir::gpucg::populateAllCanonicalizationPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

void mlir::gpucg::canonicalizeRegion(Region &region) {
  RewritePatternSet patterns(region.getContext());
  populateAllCanonicalizationPatterns(patterns);
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(region, std::move(patterns), config);
}

bool mlir::gpucg::isWorkgroupMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(memref);
}

LogicalResult mlir::gpucg::verifyMmaOption(Operation *op,
                                           TranslationInfoAttr info,
                                           MmaPreference mma) {
  std::optional<MmaKind> kind = info.getTensorCoreMmaKind();
  if (!kind)
    return op->emitOpError()
           << "was given an mma option, but its pipeline "
           << stringifyPipeline(info.getPipeline())
           << " does not run on tensor cores";
  if (mma == MmaPreference::Auto)
    return success();
  MmaKind requested =
      mma == MmaPreference::Wmma ? MmaKind::Wmma : MmaKind::MmaSync;
  if (requested != *kind)
    return op->emitOpError()
           << "was given mma=" << (requested == MmaKind::Wmma ? "wmma" : "mma-sync")
           << ", but its pipeline " << stringifyPipeline(info.getPipeline())
           << " uses " << stringifyMmaKind(*kind);
  return success();
}
