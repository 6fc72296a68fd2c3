//===- Utils.h - Helpers shared by gpucg's passes ---------------*- C++ -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_LIB_TRANSFORMS_UTILS_H
#define GPUCG_LIB_TRANSFORMS_UTILS_H

namespace mlir {
class Region;

namespace gpucg {

/// Applies the canonicalization patterns of every loaded dialect and
/// registered op to `region` (what `canonicalize` does, on one region), and
/// erases the ops left dead. Best effort: IR that does not reach a fixed
/// point is still correct.
void canonicalizeRegion(Region &region);

} // namespace gpucg
} // namespace mlir

#endif // GPUCG_LIB_TRANSFORMS_UTILS_H
