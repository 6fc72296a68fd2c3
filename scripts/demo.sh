#!/usr/bin/env bash
#===- demo.sh - Run the bundled examples through gpucg's passes ------------===#
#
# Grows with the pipeline. Today:
#  1. examples/matmul_bias_relu.mlir through the front half (strategy,
#     workgroup tiling, bufferization, workgroup specialization), then a CPU
#     run of the untiled and the tiled kernel, compared element by element;
#  2. examples/matmul_512x128x512_f16.mlir (the seed) through the named
#     mma.sync pipeline, summarised;
#  3. examples/matmul_simt_tile.mlir through gpucg-remove-single-iteration-loop,
#     with gpucg-opt and with Debian's mlir-opt loading the gpucg plugin;
#  4. the seed through gpucg-compile down to PTX and a cubin: the strategy
#     chosen, its ABI file, the PTX instruction counts, what ptxas reports.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

BUILD_DIR=${1:-build}
SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
GPUCG_OPT="$BUILD_DIR/bin/gpucg-opt"
LLVM_PREFIX=/usr/lib/llvm-22
MLIR_OPT=$LLVM_PREFIX/bin/mlir-opt
PLUGIN="$BUILD_DIR/lib/GpucgPlugin.so"
OUT="$BUILD_DIR/demo"
mkdir -p "$OUT"

run_on_cpu() {
  "$LLVM_PREFIX/bin/mlir-runner" -e main -entry-point-result=void \
    -shared-libs="$LLVM_PREFIX/lib/libmlir_runner_utils.so,$LLVM_PREFIX/lib/libmlir_c_runner_utils.so" |
    sed -e 's/base@ = 0x[0-9a-f]* //'
}

#--- 1. The front half on a matmul + bias + ReLU ----------------------------#
EXAMPLE="$SOURCE_DIR/examples/matmul_bias_relu.mlir"
FRONT='func.func(gpucg-select-lowering-strategy,gpucg-tile-and-distribute-to-workgroups),gpucg-bufferize,func.func(gpucg-workgroup-specialization)'

echo "=== $EXAMPLE"
echo "--- strategy (gpucg-select-lowering-strategy)"
"$GPUCG_OPT" "$EXAMPLE" --mlir-print-local-scope \
  --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' |
  grep -oE 'gpucg\.(translation_info|lowering_config) = #[^>]*>' | sed 's/^/  /'

echo "--- kernel after the workgroup stages: $FRONT"
"$GPUCG_OPT" "$EXAMPLE" --pass-pipeline="builtin.module($FRONT)" \
  > "$OUT/matmul_bias_relu.tiled.mlir"
# Print the kernel only (not the host stand-in @main).
awk '/func.func @kernel/,/^  }$/' "$OUT/matmul_bias_relu.tiled.mlir"

echo "--- CPU check: untiled kernel vs. tiled and specialized kernel"
"$GPUCG_OPT" "$EXAMPLE" --pass-pipeline='builtin.module(gpucg-test-lower-to-cpu)' |
  run_on_cpu > "$OUT/matmul_bias_relu.ref.txt"
"$GPUCG_OPT" "$EXAMPLE" \
  --pass-pipeline="builtin.module($FRONT,gpucg-test-lower-to-cpu)" |
  run_on_cpu > "$OUT/matmul_bias_relu.tiled.txt"
values=$(grep -o -- '-\?[0-9][0-9.e+-]*' "$OUT/matmul_bias_relu.tiled.txt" | wc -l)
if cmp -s "$OUT/matmul_bias_relu.ref.txt" "$OUT/matmul_bias_relu.tiled.txt"; then
  echo "  identical output ($values numbers printed, the 100x72 result included)"
else
  echo "  MISMATCH between untiled and tiled results:" >&2
  diff "$OUT/matmul_bias_relu.ref.txt" "$OUT/matmul_bias_relu.tiled.txt" | head >&2
  exit 1
fi

#--- 2. The whole mma.sync pipeline on the seed matmul ----------------------#
SEED="$SOURCE_DIR/examples/matmul_512x128x512_f16.mlir"
echo
echo "=== $SEED through gpucg-matmul-mma-sync{chip=sm_80}"
"$GPUCG_OPT" "$SEED" --pass-pipeline='builtin.module(gpucg-matmul-mma-sync{chip=sm_80})' \
  > "$OUT/matmul_512x128x512_f16.mma-sync.mlir"
count() { grep -c -- "$1" "$OUT/matmul_512x128x512_f16.mma-sync.mlir" || true; }
echo "  workgroup memory: $(grep -o 'memref<[0-9]*xi8, #gpu.address_space<workgroup>>' "$OUT/matmul_512x128x512_f16.mma-sync.mlir" | head -n 1) (one packed buffer)"
echo "  nvgpu.mma.sync: $(count 'nvgpu.mma.sync(')  nvgpu.ldmatrix: $(count 'nvgpu.ldmatrix')  nvgpu.device_async_copy: $(count 'nvgpu.device_async_copy')"
echo "  K loop waits: $(grep -o 'numGroups = [0-9]*' "$OUT/matmul_512x128x512_f16.mma-sync.mlir" | sort | uniq -c | tr -s ' ' | paste -sd, -)"
echo "  full output: $OUT/matmul_512x128x512_f16.mma-sync.mlir"

#--- 3. Removing single-iteration loops, with gpucg-opt and the plugin ------#
EXAMPLE="$SOURCE_DIR/examples/matmul_simt_tile.mlir"
PIPELINE='builtin.module(func.func(gpucg-remove-single-iteration-loop))'
count_loops() { grep -c 'scf.for' || true; }

echo
echo "=== $EXAMPLE"
echo "--- gpucg-opt --pass-pipeline='$PIPELINE'"
"$GPUCG_OPT" "$EXAMPLE" --pass-pipeline="$PIPELINE" |
  tee "$OUT/matmul_simt_tile.out.mlir" | grep -v '^#'
echo "--- the same through Debian's mlir-opt with the gpucg plugin"
"$MLIR_OPT" "$EXAMPLE" --load-dialect-plugin="$PLUGIN" \
  --load-pass-plugin="$PLUGIN" --pass-pipeline="$PIPELINE" \
  > "$OUT/matmul_simt_tile.plugin.mlir"
if cmp -s "$OUT/matmul_simt_tile.out.mlir" "$OUT/matmul_simt_tile.plugin.mlir"; then
  echo "  identical output"
else
  echo "  outputs differ:" >&2
  diff "$OUT/matmul_simt_tile.out.mlir" "$OUT/matmul_simt_tile.plugin.mlir" >&2
  exit 1
fi
echo "  scf.for loops: $(count_loops < "$EXAMPLE") before, $(count_loops < "$OUT/matmul_simt_tile.out.mlir") after"

#--- 4. The seed matmul down to a GPU binary -------------------------------#
echo
echo "=== $SEED through gpucg-compile to PTX, a cubin and its ABI file"
KDIR="$OUT/seed-kernel"
rm -rf "$KDIR"
"$GPUCG_OPT" "$SEED" --mlir-print-local-scope \
  --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' |
  grep -oE 'gpucg\.(translation_info|lowering_config) = #[^>]*>' |
  sed 's/^/  chosen: /'
"$GPUCG_OPT" "$SEED" \
  --pass-pipeline="builtin.module(gpucg-compile{format=isa output-dir=$KDIR})" \
  -o "$OUT/matmul_512x128x512_f16.ptx.mlir"
echo "  launch facts ($KDIR/matmul_kernel.abi):"
grep -E '^(grid_.|block_.|dynamic_shared_memory|calling_convention|argument) ' \
  "$KDIR/matmul_kernel.abi" | paste -sd ';' - | sed 's/;/; /g; s/^/    /'
ptx_count() { grep -c -- "$1" "$KDIR/matmul_kernel.ptx" || true; }
echo "  PTX: mma.sync $(ptx_count 'mma.sync.aligned'), ldmatrix $(ptx_count 'ldmatrix.sync'), cp.async $(ptx_count 'cp.async.cg.shared.global'), 128-bit global stores $(ptx_count 'st.global.v4')"
PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [[ -x "$PTXAS" ]]; then
  "$GPUCG_OPT" "$SEED" \
    --pass-pipeline="builtin.module(gpucg-compile{format=bin output-dir=$KDIR})" \
    -o /dev/null
  echo "  cubin: $KDIR/matmul_kernel.cubin ($(stat -c %s "$KDIR/matmul_kernel.cubin") bytes); ptxas -v says:"
  "$PTXAS" -arch=sm_80 -v "$KDIR/matmul_kernel.ptx" -o /dev/null 2>&1 |
    grep -E 'registers|spill|stack' | sed 's/ptxas info *: */    /'
else
  echo "  (no ptxas: the CUDA toolkit is not installed; PTX only)"
fi
