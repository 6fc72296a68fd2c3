//===- WgmmaLaunch.h - Launch shapes a MatmulWgmma kernel takes -*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules of a MatmulWgmma kernel's launch shape (thread-block clusters, a
// persistent grid, a staged store) over the facts they depend on, written
// once: gpucg-select-lowering-strategy plans and verifies by them from a
// matmul's shape and its plan, gpucg-lower-matmul-to-wgmma verifies a plan
// by them from the kernel's IR, and both give the same reason in the same
// words. What only one of them can know stays with it: the shared-memory
// budget (the strategy's) and the workgroup loop's form (the pass's). One
// operand rule that the tensor maps of a batch impose is written here too,
// for the same reason (whyNoBatchedKTail).
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_TRANSFORMS_WGMMALAUNCH_H
#define GPUCG_TRANSFORMS_WGMMALAUNCH_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace gpucg {
namespace wgmma {

/// What the launch shape of a MatmulWgmma kernel depends on.
struct LaunchFacts {
  /// The workgroup tile.
  int64_t tileM = 0, tileN = 0, tileK = 0;
  /// Tiles along M and N (1 along a dimension whose count is unknown and
  /// not clustered), and in all (a lower bound when M, N or a batch size
  /// is dynamic).
  int64_t mTiles = 1, nTiles = 1, tiles = 1;
  /// Whether M, N or a batch size is dynamic: the tiles along it are
  /// counted at run time.
  bool dynamicM = false, dynamicN = false, dynamicBatch = false;
  /// K steps (of the K tile) of each tile; 0 when K is dynamic.
  int64_t kSteps = 0;
  /// Consumer warpgroups (wgmma::getConsumerWarpgroups); 0 when one
  /// warpgroup does everything.
  int64_t consumers = 0;
  /// Bytes of the ring of stages.
  int64_t ringBytes = 0;
  /// Whether A is M x K and B is N x K (K contiguous; WgmmaLayouts), and
  /// whether the accumulator is staged in workgroup memory anyway: a fused
  /// epilogue consumes it, the epilogue adds C's prior contents (C += A *
  /// B), or tiles are partial.
  bool aKContiguous = true, bKContiguous = false, staged = false;
  /// Whether an operand is restaged (WgmmaLayouts::isRestaged): loaded as
  /// it lies and written K-major by the producer warpgroup.
  bool restaged = false;
  /// Whether the tile is computed as C^T = B^T * A^T
  /// (wgmma::computesTransposed).
  bool transposed = false;
};

/// Why the kernel cannot run in thread-block clusters of `m x n`
/// workgroups, in words; empty when it can. The workgroups of a cluster each
/// load a slice of the tiles they share, in whole swizzle atoms, and a
/// producer warpgroup waits for the whole cluster's releases of a stage.
std::string whyNoCluster(const LaunchFacts &facts, int64_t m, int64_t n);

/// Why the kernel cannot run on a persistent grid of `workgroups`
/// workgroups in clusters of `clusterSize`, in words; empty when it can
/// (shared memory aside: a fused epilogue's staging buffer must fit beside
/// the ring, as the next tile's loads land in it). Its producer warpgroup
/// loads the next tile while the consumers store the last. With
/// `streamK`, the workgroups split the tiles' K steps evenly among them
/// (stream_k): that needs a static K, no clusters and at least one K step
/// per workgroup, not more tiles than workgroups.
std::string whyNoPersistentGrid(const LaunchFacts &facts, int64_t workgroups,
                                int64_t clusterSize, bool streamK = false);

/// Why the kernel cannot store its accumulator through the staging buffer
/// (a staged store), in words; empty when it can: the buffer takes the
/// ring's place once every K step has retired, which a persistent
/// workgroup's ring never has.
std::string whyNoStagedStore(const LaunchFacts &facts, bool persistent);

/// Why a batched matmul whose operand `operand` ("A[k, m]" or "B[k, n]")
/// has rows of K (`kRows`) cannot run with K = `k` in K tiles of `tileK`
/// elements (K dynamic: any K), in words (completing "it has ...");
/// empty when it can. One
/// tensor map reads the batch's matrices as one, their rows stacked, so the
/// last K tile's rows past K would be the next matrix's, not zeros, and the
/// other operand's zeros past K times an inf or NaN there would make the
/// sum NaN (or both operands' next matrices would add to it). Past M or N
/// the next matrix's rows only fill what the store leaves out.
std::string whyNoBatchedKTail(llvm::StringRef operand, bool batched, bool kRows,
                              int64_t k, int64_t tileK);

} // namespace wgmma
} // namespace gpucg
} // namespace mlir

#endif // GPUCG_TRANSFORMS_WGMMALAUNCH_H
