//===- WgmmaLaunch.cpp - Launch shapes a MatmulWgmma kernel takes ---------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg/Transforms/WgmmaLaunch.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::gpucg;

std::string mlir::gpucg::wgmma::whyNoCluster(const LaunchFacts &facts,
                                             int64_t m, int64_t n) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // A slice is of the tile's box rows: its rows of M or N (K contiguous),
  // or of K.
  int64_t aSliced = facts.aKContiguous ? facts.tileM : facts.tileK;
  int64_t bSliced = facts.bKContiguous ? facts.tileN : facts.tileK;
  if (facts.transposed)
    os << "its tile of " << facts.tileM
       << " rows is computed as C^T = B^T * A^T, whose workgroups share no "
          "cluster's tiles yet";
  else if (facts.consumers == 0)
    os << "a workgroup of one warpgroup has no producer warpgroup to wait "
          "for the cluster's releases of a stage";
  else if (facts.restaged)
    os << "its producer warpgroup restages an f32 or 8-bit operand that is "
          "not K-contiguous (wgmma reads it K-major only), which it does "
          "not do for a cluster's multicast slices yet";
  else if (facts.dynamicM && m > 1)
    os << "its M is dynamic, so its tiles along M may not be a multiple of "
       << m;
  else if (facts.mTiles % m != 0)
    os << "its " << facts.mTiles << " tiles along M are not a multiple of "
       << m;
  else if (facts.dynamicN && n > 1)
    os << "its N is dynamic, so its tiles along N may not be a multiple of "
       << n;
  else if (facts.nTiles % n != 0)
    os << "its " << facts.nTiles << " tiles along N are not a multiple of "
       << n;
  else if (aSliced % (n * kSwizzleAtomRows) != 0)
    os << "A's tile of " << aSliced << " rows does not split into " << n
       << " slices of whole " << kSwizzleAtomRows << "-row swizzle atoms";
  else if (bSliced % (m * kSwizzleAtomRows) != 0)
    os << "B's tile of " << bSliced << " rows does not split into " << m
       << " slices of whole " << kSwizzleAtomRows << "-row swizzle atoms";
  return text;
}

std::string mlir::gpucg::wgmma::whyNoPersistentGrid(const LaunchFacts &facts,
                                                    int64_t workgroups,
                                                    int64_t clusterSize,
                                                    bool streamK) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (facts.consumers == 0)
    os << "a workgroup of one warpgroup has no producer warpgroup to load "
          "the next tile while it stores the last";
  else if (facts.dynamicM || facts.dynamicN || facts.dynamicBatch)
    os << "its "
       << (facts.dynamicM   ? "M is"
           : facts.dynamicN ? "N is"
                            : "batch size is")
       << " dynamic, and a persistent grid's workgroups walk a tile "
          "count known when the kernel is compiled";
  else if (streamK && facts.kSteps == 0)
    os << "its K is dynamic, and stream-K splits a count of K steps known "
          "when the kernel is compiled";
  else if (streamK && clusterSize > 1)
    os << "the workgroups of a cluster share their tiles' loads, which "
          "stream-K's parts of K do not line up for";
  else if (streamK && facts.tiles * facts.kSteps < workgroups)
    os << "its " << facts.tiles * facts.kSteps << " K steps (" << facts.tiles
       << " tiles of " << facts.kSteps << ") are fewer than the " << workgroups
       << " workgroups";
  else if (workgroups % clusterSize != 0)
    os << "its " << workgroups << " workgroups are not whole clusters of "
       << clusterSize;
  else if (!streamK && facts.tiles <= workgroups)
    os << "its " << facts.tiles << " tiles take no more than " << workgroups
       << " workgroups";
  return text;
}

std::string mlir::gpucg::wgmma::whyNoStagedStore(const LaunchFacts &facts,
                                                 bool persistent) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (facts.staged)
    os << "it stages the accumulator anyway (a fused epilogue, C += A * B, "
          "partial tiles or a transposed tile)";
  else if (persistent)
    os << "a persistent workgroup's ring holds the next tile's loads";
  else if (!isStagedInRing(facts.ringBytes, facts.tileM, facts.tileN,
                           /*persistent=*/false))
    os << "its ring of " << facts.ringBytes << " bytes cannot hold the "
       << getEpilogueStagingBytes(facts.tileM, facts.tileN)
       << "-byte staging buffer";
  return text;
}

std::string mlir::gpucg::wgmma::whyNoBatchedKTail(StringRef operand,
                                                  bool batched, bool kRows,
                                                  int64_t k, int64_t tileK) {
  std::string text;
  bool dynamic = ShapedType::isDynamic(k);
  if (!batched || !kRows || (!dynamic && k % tileK == 0))
    return text;
  llvm::raw_string_ostream os(text);
  os << "a batched " << operand << " with ";
  if (dynamic)
    os << "a dynamic K, which may not be";
  else
    os << "K = " << k << ", not";
  os << " a multiple of the K tile (" << tileK
     << " elements): TMA reads the batches of " << operand.take_front(1)
     << " as one matrix of their K rows stacked, so the last K tile's rows "
        "past K would be the next batch's, not zeros";
  return text;
}
