#!/usr/bin/env bash
#===- build.sh - Configure (once) and build gpucg --------------------------===#
#
#   scripts/build.sh [--checked] [BUILD_DIR]
#
# Without --checked: the normal Release build (NDEBUG, -O3), in build/ by
# default. With --checked: the checked configuration (docs/Building.md), in
# build-checked/ by default: gpucg's own code with assertions, AddressSanitizer
# and UndefinedBehaviorSanitizer, at -O1 with line tables for readable reports.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

CHECKED=0
if [[ ${1:-} == --checked ]]; then
  CHECKED=1
  shift
fi
if ((CHECKED)); then
  BUILD_DIR=${1:-build-checked}
else
  BUILD_DIR=${1:-build}
fi
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
LLVM_PREFIX=/usr/lib/llvm-22

CONFIG=(
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir"
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
)
if ((CHECKED)); then
  # -O1: ASan's recommended level, and about half the compile time of -O3.
  # -g1: line tables only, enough for file:line in sanitizer reports.
  CONFIG+=(
    -DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1"
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1"
    -DGPUCG_ENABLE_ASSERTIONS=ON
    "-DGPUCG_SANITIZE=address;undefined"
  )
else
  CONFIG+=(-DCMAKE_BUILD_TYPE=Release)
fi

if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -G Ninja -S "$SOURCE_DIR" -B "$BUILD_DIR" "${CONFIG[@]}"
fi
ninja -C "$BUILD_DIR"
