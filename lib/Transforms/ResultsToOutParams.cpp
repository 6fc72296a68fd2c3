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

/// The sizes of returned buffer `value` of `func` as gpucg.result records
/// them: each static size as an integer, each dynamic size of an allocation
/// that is a `memref.dim` of an argument as "argN.dimD", any other as "?".
static ArrayAttr describeResultSizes(func::FuncOp func, Value value) {
  Builder b(func.getContext());
  auto type = cast<MemRefType>(value.getType());
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  ValueRange dynamicSizes = alloc ? alloc.getDynamicSizes() : ValueRange();
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

/// Whether `value` is an argument of `func`, or a cast of one.
static bool isArgument(func::FuncOp func, Value value) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner() == &func.getBody().front();
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
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    if (!isa<MemRefType>(type))
      continue;
    // The allocation every return returns at this position.
    memref::AllocOp alloc;
    for (func::ReturnOp ret : returns) {
      Value operand = ret.getOperand(index);
      if (isArgument(func, operand)) {
        alloc = nullptr;
        break;
      }
      auto allocOp = operand.getDefiningOp<memref::AllocOp>();
      if (!allocOp || (alloc && allocOp != alloc) ||
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
    }
    if (!alloc)
      continue;
    ArrayAttr sizes = describeResultSizes(func, alloc.getResult());
    unsigned number = func.getNumArguments();
    if (failed(func.insertArgument(number, type, DictionaryAttr::get(ctx, {}),
                                   alloc.getLoc())))
      return failure();
    func.setArgAttr(number, gpucg::kResultAttrName, sizes);
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.getResult().replaceAllUsesWith(func.getArgument(number));
    alloc.erase();
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
