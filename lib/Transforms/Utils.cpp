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
                                           StringRef mma) {
  std::optional<MmaKind> kind = info.getTensorCoreMmaKind();
  assert(kind && "expected the translation info of a tensor-core pipeline");
  if (mma == "auto")
    return success();
  // The option spells the enum's `mma_sync` the way pass options are
  // spelled elsewhere, with a dash.
  std::optional<MmaKind> requested =
      symbolizeMmaKind(mma == "mma-sync" ? StringRef("mma_sync") : mma);
  if (!requested)
    return op->emitOpError() << "unknown mma kind '" << mma
                             << "'; expected auto, wmma or mma-sync";
  if (*requested != *kind)
    return op->emitOpError() << "was given mma=" << mma << ", but its pipeline "
                             << stringifyPipeline(info.getPipeline())
                             << " uses " << stringifyMmaKind(*kind);
  return success();
}
