//===- SplitRowsAcrossWorkgroups.cpp - Long rows over several workgroups --===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A WarpReduction kernel gives each row to one workgroup. With few long
// rows (32 rows of 2^20 elements) that leaves most SMs idle. When the
// strategy's level-0 tile of the reduction loop is less than the row, this
// pass gives each part of a row its own workgroup, on the next grid
// dimension: the workgroup reduces its part into a private total from the
// combiner's neutral element and combines that total into the kernel's
// accumulator with an atomic read-modify-write. Every stage of the IR stays
// a correct kernel, so the CPU lowering runs it as it is.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"
#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_SPLITROWSACROSSWORKGROUPS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

bool mlir::gpucg::isAtomicallyCombinable(gpu::AllReduceOperation kind,
                                         Type type) {
  if (!type.isIntOrFloat())
    return false;
  unsigned bits = type.getIntOrFloatBitWidth();
  // Floating-point products would need a compare-and-swap loop on the
  // value's bits; memref.generic_atomic_rmw's lowering to LLVM emits
  // llvm.cmpxchg on the float type itself, which LLVM rejects (MLIR 22.1).
  if (kind == gpu::AllReduceOperation::MUL && isa<FloatType>(type))
    return false;
  return bits == 8 || bits == 16 || bits == 32;
}

scf::ForallOp mlir::gpucg::addWorkgroupLoopDimension(RewriterBase &rewriter,
                                                     scf::ForallOp forallOp,
                                                     int64_t count,
                                                     unsigned gridDim) {
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<OpFoldResult> lbs = forallOp.getMixedLowerBound();
  SmallVector<OpFoldResult> ubs = forallOp.getMixedUpperBound();
  SmallVector<OpFoldResult> steps = forallOp.getMixedStep();
  SmallVector<Attribute> mapping(forallOp.getMappingAttr().getValue());
  lbs.push_back(rewriter.getIndexAttr(0));
  ubs.push_back(rewriter.getIndexAttr(count));
  steps.push_back(rewriter.getIndexAttr(1));
  mapping.push_back(
      gpu::GPUBlockMappingAttr::get(ctx, static_cast<gpu::MappingId>(gridDim)));
  rewriter.setInsertionPoint(forallOp);
  auto newForall =
      scf::ForallOp::create(rewriter, forallOp.getLoc(), lbs, ubs, steps,
                            ValueRange(), rewriter.getArrayAttr(mapping));
  Block *body = newForall.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.mergeBlocks(forallOp.getBody(), body,
                       body->getArguments().drop_back());
  rewriter.eraseOp(forallOp);
  return newForall;
}

std::optional<unsigned>
mlir::gpucg::findInputNotViewableAlongRow(linalg::LinalgOp op) {
  unsigned rowLoop = op.getNumLoops() - 1;
  AffineExpr row = getAffineDimExpr(rowLoop, op->getContext());
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    int64_t uses = llvm::count_if(map.getResults(), [&](AffineExpr expr) {
      return expr.isFunctionOfDim(rowLoop);
    });
    if (uses > 1 || (uses == 1 && !map.getResultPosition(row)))
      return input->getOperandNumber();
  }
  return std::nullopt;
}

/// The memref.atomic_rmw kind that combines like `kind` on `type`; none for
/// products, which its lowering to LLVM does not have.
static std::optional<arith::AtomicRMWKind>
getAtomicRMWKind(gpu::AllReduceOperation kind, Type type) {
  using Kind = arith::AtomicRMWKind;
  bool isFloat = isa<FloatType>(type);
  switch (kind) {
  case gpu::AllReduceOperation::ADD:
    return isFloat ? Kind::addf : Kind::addi;
  case gpu::AllReduceOperation::MUL:
    return std::nullopt;
  case gpu::AllReduceOperation::MINUI:
    return Kind::minu;
  case gpu::AllReduceOperation::MINSI:
    return Kind::mins;
  case gpu::AllReduceOperation::MINNUMF:
    return Kind::minnumf;
  case gpu::AllReduceOperation::MAXUI:
    return Kind::maxu;
  case gpu::AllReduceOperation::MAXSI:
    return Kind::maxs;
  case gpu::AllReduceOperation::MAXNUMF:
    return Kind::maxnumf;
  case gpu::AllReduceOperation::AND:
    return Kind::andi;
  case gpu::AllReduceOperation::OR:
    return Kind::ori;
  case gpu::AllReduceOperation::XOR:
    return Kind::xori;
  case gpu::AllReduceOperation::MINIMUMF:
    return Kind::minimumf;
  case gpu::AllReduceOperation::MAXIMUMF:
    return Kind::maximumf;
  }
  return std::nullopt;
}

Operation *mlir::gpucg::createAtomicCombine(OpBuilder &builder, Location loc,
                                            gpu::AllReduceOperation kind,
                                            Value value, Value buffer,
                                            ValueRange indices) {
  if (std::optional<arith::AtomicRMWKind> rmwKind =
          getAtomicRMWKind(kind, value.getType()))
    return memref::AtomicRMWOp::create(builder, loc, *rmwKind, value, buffer,
                                       indices);
  // A compare-and-swap loop around the combiner (integer products).
  auto generic =
      memref::GenericAtomicRMWOp::create(builder, loc, buffer, indices);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(generic.getBody());
  Value combined =
      vector::makeArithReduction(builder, loc, gpu::convertReductionKind(kind),
                                 generic.getCurrentValue(), value);
  memref::AtomicYieldOp::create(builder, loc, combined);
  return generic;
}

/// The grid dimension (0, 1, 2 for x, y, z) no loop of `forallOp` is mapped
/// to, the first one; none when all three are taken.
static std::optional<unsigned> getFreeGridDim(scf::ForallOp forallOp) {
  bool used[3] = {false, false, false};
  for (Attribute attr : forallOp.getMappingAttr()) {
    auto mapping = cast<gpu::GPUBlockMappingAttr>(attr);
    unsigned id = static_cast<unsigned>(mapping.getMappingId());
    if (id < 3)
      used[id] = true;
  }
  for (unsigned dim = 0; dim < 3; ++dim)
    if (!used[dim])
      return dim;
  return std::nullopt;
}

/// Checks that the workgroup tile of `root` (the body of `forallOp`, or the
/// whole function for a kernel of one workgroup, `forallOp` null), split
/// `split` ways, can combine its part of a row's total atomically; emits an
/// error otherwise. Returns the root's combiner.
static FailureOr<RowReduction> verifySplitTile(linalg::LinalgOp root,
                                               scf::ForallOp forallOp,
                                               int64_t split,
                                               FunctionOpInterface funcOp) {
  auto fail = [&](Operation *op) {
    return op->emitOpError() << "is in a WarpReduction workgroup tile whose "
                                "rows are split across "
                             << split << " workgroups, but ";
  };
  FailureOr<RowReduction> reduction = matchRowReduction(root);
  if (failed(reduction))
    return fail(root) << "is not a reduction of its innermost loop by one "
                         "combiner that gpu.subgroup_reduce performs";
  if (!root.hasPureBufferSemantics())
    return fail(root) << "is not bufferized (run gpucg-bufferize first)";
  Value init = root.getDpsInitOperand(0)->get();
  auto initType = cast<MemRefType>(init.getType());
  auto argument = dyn_cast<BlockArgument>(getRootMemref(init));
  if (!argument || argument.getOwner() != &funcOp.getFunctionBody().front())
    return fail(root) << "its accumulator is not a view of a kernel argument "
                         "(nothing in one kernel can initialize it before "
                         "the workgroups add to it)";
  Block *tile =
      forallOp ? forallOp.getBody() : &funcOp.getFunctionBody().front();
  for (Operation &op : tile->without_terminator())
    if (&op != root.getOperation() && !isa<ViewLikeOpInterface>(op) &&
        !isPure(&op))
      return fail(&op) << "a workgroup that reduces part of a row can run "
                          "nothing but its root '"
                       << root->getName() << "'";
  if (!initType.hasStaticShape() ||
      llvm::any_of(initType.getShape(), [](int64_t s) { return s != 1; }))
    return fail(root) << "its accumulator tile " << initType
                      << " is not one element (one row per workgroup)";
  if (!isAtomicallyCombinable(reduction->kind, initType.getElementType()))
    return fail(root) << "its accumulator type " << initType.getElementType()
                      << " has no atomic "
                      << gpu::stringifyAllReduceOperation(reduction->kind)
                      << " (gpucg has them for integers and floats of 8, "
                         "16 or 32 bits, except floating-point products)";
  if (forallOp && !forallOp.getOutputs().empty())
    return fail(forallOp) << "it has shared outputs (it must be on memrefs)";
  if (forallOp && !getFreeGridDim(forallOp))
    return fail(forallOp) << "its rows take all three grid dimensions";
  return reduction;
}

/// The workgroup loop of `root` with one more dimension of `split` parts on
/// the first free grid dimension (`gridDim`), `root`'s tile moved into it;
/// a new loop of the parts alone on grid x when `forallOp` is null (a
/// kernel of one workgroup, whose tile is the function body). Returns the
/// new loop.
static scf::ForallOp addPartDimension(RewriterBase &rewriter,
                                      linalg::LinalgOp root,
                                      scf::ForallOp forallOp, int64_t split,
                                      unsigned gridDim) {
  if (forallOp)
    return addWorkgroupLoopDimension(rewriter, forallOp, split, gridDim);
  rewriter.setInsertionPoint(root);
  auto newForall = scf::ForallOp::create(
      rewriter, root.getLoc(), ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(split)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)}, ValueRange(),
      rewriter.getArrayAttr({gpu::GPUBlockMappingAttr::get(
          rewriter.getContext(), static_cast<gpu::MappingId>(gridDim))}));
  rewriter.moveOpBefore(root, newForall.getBody()->getTerminator());
  return newForall;
}

/// Splits the rows of the WarpReduction root `root` (one row per workgroup,
/// in `forallOp`) into `split` parts of `tile` elements.
static LogicalResult splitRoot(RewriterBase &rewriter, linalg::LinalgOp root,
                               scf::ForallOp forallOp, int64_t tile,
                               int64_t split, FunctionOpInterface funcOp) {
  FailureOr<RowReduction> reduction =
      verifySplitTile(root, forallOp, split, funcOp);
  if (failed(reduction))
    return failure();
  unsigned rowLoop = root.getNumLoops() - 1;
  // Every input read along the row must index it by the row loop alone.
  if (std::optional<unsigned> input = findInputNotViewableAlongRow(root))
    return root.emitOpError()
           << "reads input #" << *input << " with map "
           << AffineMapAttr::get(root.getIndexingMapsArray()[*input])
           << ", which does not index the row by the row loop alone in one "
              "dimension; its rows cannot be split across workgroups";
  Location loc = root.getLoc();
  MLIRContext *ctx = rewriter.getContext();

  // The workgroup loop with one more dimension: the part of the row.
  unsigned gridDim = forallOp ? *getFreeGridDim(forallOp) : 0;
  scf::ForallOp newForall =
      addPartDimension(rewriter, root, forallOp, split, gridDim);
  Value part = newForall.getBody()->getArguments().back();

  // The inputs' part of the row.
  rewriter.setInsertionPoint(root);
  AffineExpr d0 = rewriter.getAffineDimExpr(0);
  Value offset = affine::AffineApplyOp::create(
      rewriter, loc, AffineMap::get(1, 0, d0 * tile), ValueRange{part});
  for (OpOperand *input : root.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type)
      continue;
    AffineMap map = root.getMatchingIndexingMap(input);
    std::optional<unsigned> rowPos =
        map.getResultPosition(rewriter.getAffineDimExpr(rowLoop));
    if (!rowPos)
      continue;
    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        memref::getMixedSizes(rewriter, loc, input->get());
    SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
    offsets[*rowPos] = offset;
    sizes[*rowPos] = rewriter.getIndexAttr(tile);
    Value view = memref::SubViewOp::create(rewriter, loc, input->get(), offsets,
                                           sizes, strides);
    rewriter.modifyOpInPlace(root, [&] { input->set(view); });
  }

  // The part's total from the neutral element in a temporary, then combined
  // into the accumulator atomically.
  OpOperand *initOperand = root.getDpsInitOperand(0);
  Value init = initOperand->get();
  auto initType = cast<MemRefType>(init.getType());
  auto totalType =
      MemRefType::get(initType.getShape(), initType.getElementType());
  Value total = memref::AllocaOp::create(rewriter, loc, totalType);
  Value neutral = arith::ConstantOp::create(rewriter, loc, reduction->neutral);
  linalg::FillOp::create(rewriter, loc, neutral, total);
  rewriter.modifyOpInPlace(root, [&] { initOperand->set(total); });
  rewriter.setInsertionPointAfter(root);
  SmallVector<Value> zeros(initType.getRank(),
                           arith::ConstantIndexOp::create(rewriter, loc, 0));
  Value value = memref::LoadOp::create(rewriter, loc, total, zeros);
  createAtomicCombine(rewriter, loc, reduction->kind, value, init, zeros);

  // The launch grows along the new grid dimension.
  gpu::GPUDialect::KnownGridSizeAttrHelper gridHelper(ctx);
  if (auto grid = gridHelper.getAttr(funcOp)) {
    SmallVector<int32_t> sizes(grid.asArrayRef());
    if (sizes.size() == 3) {
      sizes[gridDim] *= static_cast<int32_t>(split);
      gridHelper.setAttr(funcOp, DenseI32ArrayAttr::get(ctx, sizes));
    }
  }
  return success();
}

LogicalResult
mlir::gpucg::splitRowsAcrossWorkgroups(RewriterBase &rewriter,
                                       FunctionOpInterface funcOp) {
  TranslationInfoAttr info = getTranslationInfo(funcOp);
  if (!info || info.getPipeline() != Pipeline::WarpReduction)
    return success();
  // A kernel without roots is gpucg-distribute-reduction's error to report.
  SmallVector<std::pair<linalg::LinalgOp, LoweringConfigAttr>> roots =
      getLoweringConfigRoots(funcOp);
  for (auto [root, config] : roots) {
    ArrayRef<int64_t> level0 = config.getTileSizes(0);
    int64_t rowSize = root.getStaticLoopRanges().back();
    if (level0.size() != root.getNumLoops() ||
        root.getNumReductionLoops() == 0 || ShapedType::isDynamic(rowSize))
      continue;
    int64_t tile = level0.back();
    if (tile <= 0 || tile >= rowSize)
      continue;
    if (rowSize % tile != 0)
      return root.emitOpError()
             << "has rows of " << rowSize
             << " elements, not a multiple of its level-0 tile " << tile
             << " of the reduction loop: its rows cannot be split evenly "
                "across workgroups";
    // The root is in its workgroup loop, or, with no row loop to tile, the
    // kernel's one workgroup is the function body.
    auto forallOp = dyn_cast<scf::ForallOp>(root->getParentOp());
    bool inWorkgroupLoop = forallOp && isWorkgroupLoop(forallOp);
    if (!inWorkgroupLoop && (root->getParentOp() != funcOp.getOperation() ||
                             root.getNumParallelLoops() != 0))
      return root.emitOpError()
             << "has a level-0 tile " << tile << " less than its rows of "
             << rowSize
             << " but is not directly in a workgroup loop (an scf.forall "
                "over #gpu.block; run gpucg-tile-and-distribute-to-"
                "workgroups)";
    if (!inWorkgroupLoop)
      forallOp = nullptr;
    if (failed(
            splitRoot(rewriter, root, forallOp, tile, rowSize / tile, funcOp)))
      return failure();
  }
  return success();
}

namespace {
struct SplitRowsAcrossWorkgroupsPass
    : public gpucg::impl::SplitRowsAcrossWorkgroupsBase<
          SplitRowsAcrossWorkgroupsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(splitRowsAcrossWorkgroups(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
