#!/usr/bin/env bash
#===- demo.sh - Run the bundled example through gpucg's passes -------------===#
#
# Grows with the pipeline: today it runs gpucg-remove-single-iteration-loop on
# a thread-distributed matmul tile, with gpucg-opt and with Debian's mlir-opt
# loading the gpucg plugin.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

BUILD_DIR=${1:-build}
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
EXAMPLE="$SOURCE_DIR/examples/matmul_simt_tile.mlir"
GPUCG_OPT="$BUILD_DIR/bin/gpucg-opt"
MLIR_OPT=/usr/lib/llvm-22/bin/mlir-opt
PLUGIN="$BUILD_DIR/lib/GpucgPlugin.so"
PIPELINE='builtin.module(func.func(gpucg-remove-single-iteration-loop))'

count_loops() { grep -c 'scf.for' || true; }

echo "=== input: $EXAMPLE"
grep -v '^//' "$EXAMPLE" | sed '/^$/d'

echo
echo "=== gpucg-opt --pass-pipeline='$PIPELINE'"
"$GPUCG_OPT" "$EXAMPLE" --pass-pipeline="$PIPELINE" | tee "$BUILD_DIR/demo-out.mlir"

echo
echo "=== the same through Debian's mlir-opt with the gpucg plugin"
"$MLIR_OPT" "$EXAMPLE" --load-dialect-plugin="$PLUGIN" \
  --load-pass-plugin="$PLUGIN" --pass-pipeline="$PIPELINE" \
  > "$BUILD_DIR/demo-out-plugin.mlir"
if cmp -s "$BUILD_DIR/demo-out.mlir" "$BUILD_DIR/demo-out-plugin.mlir"; then
  echo "identical output"
else
  echo "outputs differ:" >&2
  diff "$BUILD_DIR/demo-out.mlir" "$BUILD_DIR/demo-out-plugin.mlir" >&2
  exit 1
fi

echo
echo "scf.for loops: $(count_loops < "$EXAMPLE") before, $(count_loops < "$BUILD_DIR/demo-out.mlir") after"
