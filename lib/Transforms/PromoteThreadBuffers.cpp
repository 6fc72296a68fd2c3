//===- PromoteThreadBuffers.cpp - Small thread buffers onto the stack ----===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Bufferization gives the temporaries of a kernel's tile (a fused producer's
// result, an accumulator from tensor.empty + linalg.fill) memref.alloc ops
// in the default memory space. In a kernel each thread that runs one
// allocates its own buffer, which the NVVM lowering makes a device malloc
// that nothing frees: slow, and a launch repeated often enough exhausts the
// device heap. On the thread's stack (memref.alloca) the same buffer is
// freed when the thread ends, and LLVM keeps it in registers when its
// accesses are static. Upstream's promote-buffers-to-stack decides by size
// alone, which would also move workgroup memory onto the stack.
//
//===----------------------------------------------------------------------===//

#include "gpucg/Transforms/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_PROMOTETHREADBUFFERS
#include "gpucg/Transforms/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using namespace mlir::gpucg;

/// Whether `alloc` is a thread's statically shaped buffer of at most
/// `maxBytes` bytes in the default memory space, freed by nothing but
/// memref.dealloc.
static bool isSmallThreadBuffer(memref::AllocOp alloc, int64_t maxBytes) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || type.getMemorySpace() ||
      !type.getElementType().isIntOrFloat())
    return false;
  int64_t bits = type.getNumElements() *
                 static_cast<int64_t>(type.getElementTypeBitWidth());
  if (bits > 8 * maxBytes)
    return false;
  // Returned or otherwise escaping the function, it must outlive the stack.
  return llvm::none_of(alloc->getUsers(), [](Operation *user) {
    return user->hasTrait<OpTrait::ReturnLike>();
  });
}

void mlir::gpucg::promoteThreadBuffersToStack(RewriterBase &rewriter,
                                              FunctionOpInterface funcOp,
                                              int64_t maxBytes) {
  SmallVector<memref::AllocOp> allocs;
  funcOp.walk([&](memref::AllocOp alloc) {
    if (isSmallThreadBuffer(alloc, maxBytes))
      allocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : allocs) {
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.eraseOp(user);
    rewriter.setInsertionPoint(alloc);
    rewriter.replaceOpWithNewOp<memref::AllocaOp>(
        alloc, alloc.getType(), alloc.getDynamicSizes(),
        alloc.getSymbolOperands(), alloc.getAlignmentAttr());
  }
}

namespace {
struct PromoteThreadBuffersPass
    : public gpucg::impl::PromoteThreadBuffersBase<PromoteThreadBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxBytes < 0) {
      getOperation().emitOpError()
          << "gpucg-promote-thread-buffers needs a max-bytes of at least 0, "
             "got "
          << maxBytes.getValue();
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    promoteThreadBuffersToStack(rewriter, getOperation(), maxBytes);
  }
};
} // namespace
