//===- ResultsToOutParams.cpp - Returned buffers as output arguments ------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kernel function that returned a new tensor returns, once bufferized, the
// memref.alloc holding it; a GPU kernel cannot hand its caller an
// allocation. Each such result becomes an argument appended to the
// function, which replaces the allocation, with the allocation's sizes
// recorded on it (gpucg.result) for the kernel ABI, so that a caller can
// allocate the output from its inputs; call sites in the module allocate it.
//
// Upstream's promoteBufferResultsToOutParams does the same to every memref
// result of a function, and copies into the new argument what is not an
// allocation. gpucg kernels also return their arguments (a destination
// written in place: drop-equivalent-buffer-results leaves public functions
// alone), which must stay as they are, and a copy in a kernel function
// would be a host-side copy of device memory: this rewrite converts
// allocations only, leaves arguments, and refuses the rest.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/BitVector.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_RESULTSTOOUTPARAMS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

/// The sizes of a returned buffer of type `type` as gpucg.result records
/// them: each static size as an integer, each dynamic size (one of
/// `dynamicSizes`, in order) that is a `memref.dim` of an argument of `func`
/// as "argN.dimD", any other as "?".
static ArrayAttr describeResultSizes(func::FuncOp func, MemRefType type,
                                     ValueRange dynamicSizes) {
  Builder b(func.getContext());
  SmallVector<Attribute> sizes;
  for (int64_t size : type.getShape()) {
    if (!ShapedType::isDynamic(size)) {
      sizes.push_back(b.getI64IntegerAttr(size));
      continue;
    }
    std::string text = "?";
    if (!dynamicSizes.empty()) {
      Value dynamic = dynamicSizes.front();
      dynamicSizes = dynamicSizes.drop_front();
      auto dim = dynamic.getDefiningOp<memref::DimOp>();
      auto arg =
          dim ? dyn_cast<BlockArgument>(dim.getSource()) : BlockArgument();
      std::optional<int64_t> index =
          dim ? dim.getConstantIndex() : std::nullopt;
      if (arg && arg.getOwner() == &func.getBody().front() && index)
        text = "arg" + std::to_string(arg.getArgNumber()) + ".dim" +
               std::to_string(*index);
    }
    sizes.push_back(b.getStringAttr(text));
  }
  return b.getArrayAttr(sizes);
}

/// The ops that view a whole buffer as another type, outermost first, from
/// `value` back to the buffer they view: casts and reshapes
/// (memref.expand_shape, memref.collapse_shape; gpucg-collapse-elementwise-
/// dims leaves an expand_shape around the result of the kernel it
/// collapses). Returns the buffer.
static Value stripWholeViews(Value value, SmallVectorImpl<Operation *> &views) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto cast = dyn_cast<memref::CastOp>(op))
      value = cast.getSource();
    else if (auto expand = dyn_cast<memref::ExpandShapeOp>(op))
      value = expand.getSrc();
    else if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op))
      value = collapse.getSrc();
    else
      break;
    views.push_back(op);
  }
  // An expand_shape of a collapse_shape that it undoes (bufferization of a
  // collapsed kernel over a new tensor: the allocation is collapsed for the
  // kernel and expanded back) views the buffer as it is.
  for (size_t i = 0; i + 1 < views.size();) {
    auto expand = dyn_cast<memref::ExpandShapeOp>(views[i]);
    auto collapse = dyn_cast<memref::CollapseShapeOp>(views[i + 1]);
    if (expand && collapse && expand.getResultType() == collapse.getSrcType() &&
        expand.getReassociationIndices() ==
            collapse.getReassociationIndices()) {
      views.erase(views.begin() + i, views.begin() + i + 2);
      i = i > 0 ? i - 1 : 0;
      continue;
    }
    ++i;
  }
  return value;
}

/// Whether `value` is an argument of `func`, or a cast or reshape of one.
static bool isArgument(func::FuncOp func, Value value) {
  SmallVector<Operation *> views;
  auto arg = dyn_cast<BlockArgument>(stripWholeViews(value, views));
  return arg && arg.getOwner() == &func.getBody().front();
}

/// The dynamic sizes of a returned buffer that views (`views`, outermost
/// first) `alloc`: the allocation's own, or the output sizes of the
/// outermost view where that is an expand_shape; none (each size "?") for
/// another view.
static SmallVector<Value> getReturnedDynamicSizes(memref::AllocOp alloc,
                                                  ArrayRef<Operation *> views) {
  if (views.empty())
    return llvm::to_vector(alloc.getDynamicSizes());
  auto expand = dyn_cast<memref::ExpandShapeOp>(views.front());
  if (!expand)
    return {};
  return llvm::to_vector(expand.getOutputShape());
}

/// Whether undoWholeViews can undo `views`: no collapse_shape of a dynamic
/// source, whose sizes the new argument does not give.
static bool canUndoWholeViews(ArrayRef<Operation *> views) {
  return llvm::none_of(views, [](Operation *view) {
    auto collapse = dyn_cast<memref::CollapseShapeOp>(view);
    return collapse && !collapse.getSrcType().hasStaticShape();
  });
}

/// Builds, from `output` (the new argument, of the returned type), a view
/// of the type of the buffer that `views` (outermost first) view: each view
/// undone in turn (an expand_shape by a collapse_shape of the same
/// reassociation, a collapse_shape by an expand_shape to its source's
/// static shape, a cast by a cast back). Needs canUndoWholeViews.
static Value undoWholeViews(OpBuilder &b, Value output,
                            ArrayRef<Operation *> views) {
  Value current = output;
  for (Operation *view : views) {
    Location loc = view->getLoc();
    if (auto castOp = dyn_cast<memref::CastOp>(view)) {
      current =
          memref::CastOp::create(b, loc, castOp.getSource().getType(), current);
    } else if (auto expand = dyn_cast<memref::ExpandShapeOp>(view)) {
      current =
          memref::CollapseShapeOp::create(b, loc, expand.getSrcType(), current,
                                          expand.getReassociationIndices());
    } else {
      auto collapse = cast<memref::CollapseShapeOp>(view);
      MemRefType source = collapse.getSrcType();
      current = memref::ExpandShapeOp::create(
          b, loc, source, current, collapse.getReassociationIndices());
    }
  }
  return current;
}

/// What promoteFunctionResults did to one function: the results it removed
/// and, for each, the sizes recorded on its new argument.
struct PromotedResults {
  llvm::BitVector removed;
  SmallVector<ArrayAttr> sizes;
};

/// Appends an argument for each result of `func` that is an allocation of
/// it, replacing the allocation, and removes the result.
static FailureOr<PromotedResults> promoteFunctionResults(func::FuncOp func) {
  MLIRContext *ctx = func.getContext();
  PromotedResults promoted;
  promoted.removed.resize(func.getNumResults());
  if (func.isExternal() || func.getNumResults() == 0)
    return promoted;
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
  // The views through which promoted allocations were returned, outermost
  // first: dead once the returns no longer return them.
  SmallVector<Operation *> returnedViews;
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    if (!isa<MemRefType>(type))
      continue;
    // The allocation every return returns at this position, directly or
    // through the same views.
    memref::AllocOp alloc;
    Value returned;
    SmallVector<Operation *> views;
    for (func::ReturnOp ret : returns) {
      Value operand = ret.getOperand(index);
      if (isArgument(func, operand)) {
        alloc = nullptr;
        break;
      }
      SmallVector<Operation *> operandViews;
      auto allocOp = stripWholeViews(operand, operandViews)
                         .getDefiningOp<memref::AllocOp>();
      if (!allocOp || (alloc && (allocOp != alloc || operand != returned)) ||
          allocOp->getParentOp() != func) {
        std::string what = "a buffer it does not allocate";
        if (Operation *op = operand.getDefiningOp())
          what = "the result of '" + op->getName().getStringRef().str() + "'";
        return ret.emitOpError()
               << "returns, as result #" << index << ", " << what
               << ", which gpucg cannot make an output argument: only a "
                  "buffer the function allocates at its top level (a new "
                  "tensor from tensor.empty) becomes one; return a new "
                  "tensor, or write into an argument";
      }
      alloc = allocOp;
      returned = operand;
      views = std::move(operandViews);
    }
    if (!alloc)
      continue;
    if (!canUndoWholeViews(views))
      return returns.front().emitOpError()
             << "returns, as result #" << index
             << ", a collapse_shape of an allocation of dynamic sizes, which "
                "gpucg cannot make an output argument; return the "
                "allocation, or write into an argument";
    ArrayAttr sizes = describeResultSizes(
        func, cast<MemRefType>(type), getReturnedDynamicSizes(alloc, views));
    unsigned number = func.getNumArguments();
    if (failed(func.insertArgument(number, type, DictionaryAttr::get(ctx, {}),
                                   alloc.getLoc())))
      return failure();
    func.setArgAttr(number, gpucg::kResultAttrName, sizes);
    // The allocation becomes the argument, seen through the views undone.
    OpBuilder b(alloc);
    Value buffer = undoWholeViews(b, func.getArgument(number), views);
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.getResult().replaceAllUsesWith(buffer);
    alloc.erase();
    llvm::append_range(returnedViews, views);
    promoted.removed.set(index);
    promoted.sizes.push_back(sizes);
  }
  if (promoted.removed.none())
    return promoted;
  for (func::ReturnOp ret : returns) {
    SmallVector<Value> kept;
    for (auto [index, operand] : llvm::enumerate(ret.getOperands()))
      if (!promoted.removed.test(index))
        kept.push_back(operand);
    ret.getOperandsMutable().assign(kept);
  }
  for (Operation *view : returnedViews)
    if (view->use_empty())
      view->erase();
  if (failed(func.eraseResults(promoted.removed)))
    return failure();
  return promoted;
}

/// Rewrites `call` of a function whose results `promoted` removed: each
/// becomes an allocation before the call, passed as its new argument.
static LogicalResult updateCall(func::CallOp call,
                                const PromotedResults &promoted) {
  OpBuilder b(call);
  Location loc = call.getLoc();
  SmallVector<Value> operands(call.getOperands());
  SmallVector<Value> outputs;
  unsigned next = 0;
  for (OpResult result : call.getResults()) {
    if (!promoted.removed.test(result.getResultNumber()))
      continue;
    auto type = cast<MemRefType>(result.getType());
    ArrayAttr sizes = promoted.sizes[next++];
    SmallVector<Value> dynamicSizes;
    for (auto [dim, size] : llvm::enumerate(sizes)) {
      if (!type.isDynamicDim(dim))
        continue;
      std::optional<std::pair<unsigned, unsigned>> source =
          gpucg::parseArgumentDimension(cast<StringAttr>(size).getValue());
      if (!source || source->first >= call.getNumOperands())
        return call.emitOpError()
               << "calls @" << call.getCallee() << ", whose result #"
               << result.getResultNumber() << " has a dynamic size (dimension "
               << dim
               << ") that is none of its arguments' sizes; the caller "
                  "cannot allocate it";
      dynamicSizes.push_back(memref::DimOp::create(
          b, loc, call.getOperand(source->first), source->second));
    }
    Value output = memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()),
        dynamicSizes);
    if (output.getType() != type)
      output = memref::CastOp::create(b, loc, type, output);
    outputs.push_back(output);
    operands.push_back(output);
  }
  SmallVector<Type> resultTypes;
  SmallVector<Value> keptResults;
  for (OpResult result : call.getResults())
    if (!promoted.removed.test(result.getResultNumber())) {
      resultTypes.push_back(result.getType());
      keptResults.push_back(result);
    }
  auto newCall =
      func::CallOp::create(b, loc, call.getCalleeAttr(), resultTypes, operands);
  for (auto [old, replacement] :
       llvm::zip_equal(keptResults, newCall.getResults()))
    old.replaceAllUsesWith(replacement);
  next = 0;
  for (OpResult result : call.getResults())
    if (promoted.removed.test(result.getResultNumber()))
      result.replaceAllUsesWith(outputs[next++]);
  call.erase();
  return success();
}

std::optional<std::pair<unsigned, unsigned>>
mlir::gpucg::parseArgumentDimension(StringRef text) {
  unsigned arg, dim;
  if (!text.consume_front("arg"))
    return std::nullopt;
  auto [argText, dimText] = text.split(".dim");
  if (argText.getAsInteger(10, arg) || dimText.getAsInteger(10, dim))
    return std::nullopt;
  return std::make_pair(arg, dim);
}

LogicalResult mlir::gpucg::promoteResultsToOutParams(ModuleOp module) {
  llvm::DenseMap<StringAttr, PromotedResults> promotedByName;
  for (auto func : module.getOps<func::FuncOp>()) {
    FailureOr<PromotedResults> promoted = promoteFunctionResults(func);
    if (failed(promoted))
      return failure();
    if (promoted->removed.any())
      promotedByName[func.getSymNameAttr()] = std::move(*promoted);
  }
  if (promotedByName.empty())
    return success();
  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) {
    if (promotedByName.count(call.getCalleeAttr().getAttr()))
      calls.push_back(call);
  });
  for (func::CallOp call : calls)
    if (failed(
            updateCall(call, promotedByName[call.getCalleeAttr().getAttr()])))
      return failure();
  return success();
}

namespace {
struct ResultsToOutParamsPass
    : public gpucg::impl::ResultsToOutParamsBase<ResultsToOutParamsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(gpucg::promoteResultsToOutParams(getOperation())))
      return signalPassFailure();
  }
};
} // namespace
