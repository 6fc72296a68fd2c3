#!/usr/bin/env bash
#===- build.sh - Configure (once) and build gpucg --------------------------===#
set -euo pipefail

BUILD_DIR=${1:-build}
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
LLVM_PREFIX=/usr/lib/llvm-22

if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -G Ninja -S "$SOURCE_DIR" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
fi
ninja -C "$BUILD_DIR"
