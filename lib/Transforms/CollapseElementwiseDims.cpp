//===- CollapseElementwiseDims.cpp - One loop for contiguous rows ---------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An elementwise kernel over rows whose size no 128-bit vector divides (a
// residual add over 64x4097 f16) is planned one element per thread: a
// vector along the row would start misaligned in most rows. Its operands
// are contiguous, though, so the rows are one run of elements, and the op
// over the merged loops takes 128-bit vectors (its full workgroup tiles
// every 16 bytes, the partial last one element by element). This merges
// them before the strategy plans the kernel, with upstream's
// linalg::collapseOpIterationDims, where nothing else depends on the
// loops: the operands are the function's arguments and the result is
// returned.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_COLLAPSEELEMENTWISEDIMS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

/// The widest vector of at most `limit` elements (a power of two) whose
/// size divides `size`.
static int64_t getDividingVectorWidth(int64_t size, int64_t limit) {
  int64_t width = limit;
  while (width > 1 && size % width != 0)
    width /= 2;
  return width;
}

/// Whether `value` is an argument of the function around `op`.
static bool isFunctionArgument(Value value, Operation *op) {
  auto arg = dyn_cast<BlockArgument>(value);
  auto func = op->getParentOfType<FunctionOpInterface>();
  return arg && func && arg.getOwner() == &func.getFunctionBody().front();
}

SmallVector<int64_t>
mlir::gpucg::getElementwiseLoopsToCollapse(linalg::LinalgOp op,
                                           std::string *whyNot) {
  int64_t numLoops = op.getNumLoops();
  if (!op.hasPureTensorSemantics() || numLoops < 2 ||
      op.getNumParallelLoops() != numLoops || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1)
    return {};
  // The strategy's vectors: 128 bits of the result's element, whole bytes
  // (i1 keeps whole 128-bit vectors, selectVectorizeStrategy).
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      element.getIntOrFloatBitWidth() > 64)
    return {};
  int64_t limit = 128 / element.getIntOrFloatBitWidth();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t inner = ranges.back();
  if (ShapedType::isDynamic(inner) ||
      getDividingVectorWidth(inner, limit) == limit)
    return {};
  auto refuse = [&](const Twine &reason) {
    if (whyNot)
      *whyNot = reason.str();
    return SmallVector<int64_t>();
  };
  // A plan written for the loops as they are.
  auto *dialect = op->getContext()->getLoadedDialect<gpucg::GpucgDialect>();
  if (dialect && (dialect->getLoweringConfigAttrHelper().isAttrPresent(op) ||
                  dialect->getCompilationInfoAttrHelper().isAttrPresent(op)))
    return refuse("it has a plan of its own for its loops as they are");
  // Nothing else may depend on the loops: the operands come from the
  // caller (a scalar input, a fill's value, depends on none), the result
  // goes back to it.
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<ShapedType>(input->get().getType()) &&
        !isFunctionArgument(input->get(), op))
      return refuse("its input #" + Twine(input->getOperandNumber()) +
                    " is no argument of the function (another op's result, "
                    "or a view of an argument)");
  Value init = op.getDpsInitOperand(0)->get();
  if (!isFunctionArgument(init, op) && !init.getDefiningOp<tensor::EmptyOp>())
    return refuse("its init is neither an argument of the function nor a "
                  "tensor.empty");
  if (!llvm::all_of(op->getUsers(),
                    [](Operation *user) { return isa<func::ReturnOp>(user); }))
    return refuse("its result is used by an op other than func.return");
  // The longest static run of trailing loops every map keeps contiguous.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<int64_t> loops;
  int64_t product = inner;
  for (int64_t first = numLoops - 2; first >= 0; --first) {
    if (ShapedType::isDynamic(ranges[first]))
      break;
    auto range = llvm::seq<int64_t>(first, numLoops);
    ReassociationIndices candidate(range.begin(), range.end());
    if (!linalg::areDimSequencesPreserved(maps, {candidate}))
      break;
    loops.assign(candidate.begin(), candidate.end());
    product = 1;
    for (int64_t loop : loops)
      product *= ranges[loop];
  }
  if (loops.empty()) {
    if (ShapedType::isDynamic(ranges[numLoops - 2]))
      return refuse("the size of the loop outside the innermost one is "
                    "dynamic");
    return refuse("an operand's indexing map keeps the innermost loop apart "
                  "from the one outside it (a broadcast along the rows, or a "
                  "transpose)");
  }
  // An empty kernel stays as it is (workgroup tiling refuses it).
  if (product == 0)
    return {};
  if (getDividingVectorWidth(product, limit) <=
      getDividingVectorWidth(inner, limit))
    return refuse("its loops " + Twine(loops.front()) + " to " +
                  Twine(loops.back()) + " merged (" + Twine(product) +
                  " elements) take no wider vector");
  return loops;
}

LogicalResult mlir::gpucg::collapseElementwiseDims(RewriterBase &rewriter,
                                                   FunctionOpInterface funcOp) {
  // Each op with the loops it merges, decided before any is rewritten.
  SmallVector<std::pair<linalg::LinalgOp, SmallVector<int64_t>>> merges;
  funcOp.walk([&](linalg::LinalgOp op) {
    SmallVector<int64_t> loops = getElementwiseLoopsToCollapse(op);
    if (!loops.empty())
      merges.emplace_back(op, std::move(loops));
  });
  for (auto &[op, loops] : merges) {
    rewriter.setInsertionPoint(op);
    // Upstream collapses linalg.generic and linalg.copy; a named op as
    // the generic it stands for.
    if (!isa<linalg::GenericOp, linalg::CopyOp>(op)) {
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generic))
        continue; // Left as it is: the strategy plans it unmerged.
      op = *generic;
    }
    ReassociationIndices group(loops.begin(), loops.end());
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(op, {group}, rewriter);
    if (failed(collapsed))
      return op->emitOpError()
             << "could not have its loops " << loops.front() << " to "
             << loops.back()
             << " merged (linalg::collapseOpIterationDims failed), which "
                "gpucg-collapse-elementwise-dims found contiguous in every "
                "operand";
    rewriter.replaceOp(op, collapsed->results);
  }
  return success();
}

namespace {
struct CollapseElementwiseDimsPass
    : public gpucg::impl::CollapseElementwiseDimsBase<
          CollapseElementwiseDimsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(gpucg::collapseElementwiseDims(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
