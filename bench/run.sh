#!/usr/bin/env bash
#===- bench/run.sh - Build, compile the kernels, check and time them -------===#
#
#   bench/run.sh [options]                    all of it, where MLIR and a GPU are
#   bench/run.sh --compile-only OUT [options] here (MLIR, no GPU): kernels -> OUT
#   bench/run.sh --run-only OUT [options]     on the GPU machine (no MLIR)
#
# The whole run: builds gpucg (scripts/build.sh: gpucg-opt, the runtime,
# gpucg-bench), compiles the cases with bench/compile_kernels.py for the
# GPU's chip, runs gpucg-bench (every element checked against cuBLAS, then
# timed), bench/triton_matmul.py when Triton and PyTorch import, and
# bench/plot.py when matplotlib does. Results: BUILD_DIR/bench-results/.
#
# Split between two machines:
#   --compile-only OUT  needs gpucg-opt (built when missing): writes OUT/kernels
#                       (cubins, .abi files, manifest.txt) and OUT/shapes (the
#                       shapes files); OUT is all the GPU machine needs besides
#                       this source tree.
#   --run-only OUT      builds the runtime and gpucg-bench from bench/ with
#                       standalone CMake (cmake -S bench -B build-bench) and
#                       runs OUT's kernels on OUT's shapes; results: OUT/results.
#
# Options:
#   --shapes FILE       a shapes file (repeatable); default: bench/shapes/
#                       {squares,unaligned,llama3,weight-gradients,
#                       layouts,other-types}.txt (--run-only:
#                       OUT/shapes/*.txt)
#   --chip sm_XY        the kernels' chip; default: the GPU's (whole run),
#                       sm_90 (--compile-only: H100, H200)
#   --filter TEXT       only cases whose key or name contains TEXT (repeatable)
#   --wgmma-persistent  sm_90a: warp-specialized wgmma kernels on a persistent
#                       grid of one workgroup per SM (gpucg-compile's
#                       wgmma-persistent)
#   --wgmma-stream-k    sm_90a: warp-specialized wgmma kernels run stream-K on
#                       the persistent grid, the last waves' K steps split evenly
#                       over its workgroups (gpucg-compile's wgmma-stream-k)
#   --wgmma-staged-store
#                       sm_90a: wgmma kernels store C through shared memory
#                       with 16-byte stores (gpucg-compile's wgmma-staged-store)
#   --wgmma-cluster MxN sm_90a: warp-specialized wgmma kernels in thread-block
#                       clusters of M x N workgroups sharing tiles by TMA
#                       multicast (gpucg-compile's wgmma-cluster-m/-n)
#   --workgroup-group-size G
#                       start the tiles in groups of G rows, column by column,
#                       for L2 reuse (gpucg-compile's workgroup-group-size)
#   --split-k S         split each tile's K loop of mma.sync kernels into S
#                       parts, one workgroup each (gpucg-compile's split-k;
#                       1: whole; default 0: the strategy's default)
#   --dynamic-sizes     compile each case with M, N and K dynamic (sizes known
#                       at run time), the case's sizes passed at launch
#   --iterations N      timed runs per kernel (gpucg-bench, Triton)
#   --warmup N          untimed runs first
#   --check             correctness only: no timing, no Triton timing, no plot
#   --build-dir DIR     gpucg's build (default build), or with --run-only the
#                       standalone bench build (default build-bench)
#   --out DIR           results of the whole run (default BUILD_DIR/bench-results)
#   -j N                parallel kernel compilations
#
# Exit status: gpucg-bench's (0 every case agreed, 1 a case mismatched or
# failed); 77 no CUDA GPU or driver here (it says why); 2 bad usage, or a
# build or kernel compilation that could not run at all. Kernels that
# gpucg-compile refuses are not a failure of this script: they are listed by
# compile_kernels.py and shown as NO-KERNEL rows (cuBLAS still timed).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
BENCH_DIR="$SOURCE_DIR/bench"
EXIT_NO_GPU=77

MODE=all
BUNDLE=""
BUILD_DIR=""
OUT_DIR=""
CHIP=""
JOBS=""
SHAPES=()
FILTERS=()
COMPILE_ARGS=()
BENCH_ARGS=()
TRITON_ARGS=()
CHECK=0

usage() {
  sed -n '2,/^#===-.*===#$/{/^#===/d;s/^# \{0,1\}//;p}' "$0" | sed -n '1,49p'
}

die() {
  echo "run.sh: $*" >&2
  exit 2
}

need_value() {
  [[ $# -ge 2 && -n $2 ]] || die "$1 needs a value (see --help)"
}

while [[ $# -gt 0 ]]; do
  case $1 in
  --compile-only | --run-only)
    need_value "$@"
    [[ $MODE == all ]] || die "--compile-only and --run-only exclude each other"
    MODE=${1#--}
    BUNDLE=$2
    shift 2
    ;;
  --shapes) need_value "$@"; SHAPES+=("$2"); shift 2 ;;
  --filter) need_value "$@"; FILTERS+=(--filter "$2"); shift 2 ;;
  --chip) need_value "$@"; CHIP=$2; shift 2 ;;
  --wgmma-persistent) COMPILE_ARGS+=(--wgmma-persistent); shift ;;
  --wgmma-staged-store) COMPILE_ARGS+=(--wgmma-staged-store); shift ;;
  --wgmma-stream-k) COMPILE_ARGS+=(--wgmma-stream-k); shift ;;
  --dynamic-sizes) COMPILE_ARGS+=(--dynamic-sizes); shift ;;
  --wgmma-cluster)
    need_value "$@"
    COMPILE_ARGS+=(--wgmma-cluster "$2")
    shift 2
    ;;
  --workgroup-group-size)
    need_value "$@"
    COMPILE_ARGS+=(--workgroup-group-size "$2")
    shift 2
    ;;
  --split-k)
    need_value "$@"
    COMPILE_ARGS+=(--split-k "$2")
    shift 2
    ;;
  --iterations | --warmup)
    need_value "$@"
    BENCH_ARGS+=("$1" "$2")
    TRITON_ARGS+=("$1" "$2")
    shift 2
    ;;
  --check) CHECK=1; BENCH_ARGS+=(--check); TRITON_ARGS+=(--check); shift ;;
  --build-dir) need_value "$@"; BUILD_DIR=$2; shift 2 ;;
  --out) need_value "$@"; OUT_DIR=$2; shift 2 ;;
  -j) need_value "$@"; JOBS=$2; shift 2 ;;
  -h | --help) usage; exit 0 ;;
  *) die "unknown argument '$1' (see --help)" ;;
  esac
done

default_shapes() {
  local name
  for name in squares unaligned llama3 weight-gradients layouts other-types; do
    SHAPES+=("$BENCH_DIR/shapes/$name.txt")
  done
}

git_commit() {
  local commit
  commit=$(git -C "$SOURCE_DIR" rev-parse --short HEAD 2>/dev/null) || {
    echo unknown
    return
  }
  if [[ -n $(git -C "$SOURCE_DIR" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
    commit+="+changes"
  fi
  echo "$commit"
}

# gpucg-bench --device-info: prints the GPU, or exits 77 with the reason.
probe_gpu() {
  local bench=$1 status=0
  DEVICE_INFO=$("$bench" --device-info) || status=$?
  if ((status == EXIT_NO_GPU)); then
    echo "run.sh: no CUDA GPU here (gpucg-bench said why above); nothing was run." >&2
    echo "run.sh: to measure elsewhere: bench/run.sh --compile-only OUT here," \
      "then bench/run.sh --run-only OUT on the GPU machine (docs/Benchmark.md)" >&2
    exit $EXIT_NO_GPU
  fi
  ((status == 0)) || die "gpucg-bench --device-info failed (status $status)"
  echo "$DEVICE_INFO"
}

compile_kernels() {
  local kernels=$1 status=0
  local args=(--out "$kernels" --chip "$CHIP" --commit "$(git_commit)" --quiet
    "${COMPILE_ARGS[@]}")
  [[ -n $JOBS ]] && args+=(-j "$JOBS")
  local shapes
  for shapes in "${SHAPES[@]}"; do args+=(--shapes "$shapes"); done
  python3 "$BENCH_DIR/compile_kernels.py" "${args[@]}" "${FILTERS[@]}" || status=$?
  case $status in
  0) ;;
  1) echo "run.sh: note: some cases did not compile (listed above); gpucg-bench shows them as NO-KERNEL" ;;
  *) die "compile_kernels.py failed (status $status)" ;;
  esac
}

# run_suite BENCH KERNELS RESULTS: gpucg-bench, then Triton and the plot.
run_suite() {
  local bench=$1 kernels=$2 results=$3 status=0 shapes
  mkdir -p "$results"
  local shape_args=()
  for shapes in "${SHAPES[@]}"; do shape_args+=(--shapes "$shapes"); done

  echo "run.sh: gpucg-bench -> $results/gpucg.csv, $results/gpucg.txt"
  "$bench" "${shape_args[@]}" --kernels "$kernels" --csv "$results/gpucg.csv" \
    --commit "$(git_commit)" "${FILTERS[@]}" "${BENCH_ARGS[@]}" |
    tee "$results/gpucg.txt" || status=${PIPESTATUS[0]}
  if ((status == EXIT_NO_GPU)); then
    echo "run.sh: no CUDA GPU here (see above)" >&2
    exit $EXIT_NO_GPU
  fi
  ((status <= 1)) || die "gpucg-bench could not run (status $status)"

  local triton_status=0
  echo "run.sh: bench/triton_matmul.py -> $results/triton.csv"
  python3 "$BENCH_DIR/triton_matmul.py" "${shape_args[@]}" "${FILTERS[@]}" \
    "${TRITON_ARGS[@]}" --csv "$results/triton.csv" |
    tee "$results/triton.txt" || triton_status=${PIPESTATUS[0]}
  case $triton_status in
  0) ;;
  "$EXIT_NO_GPU")
    echo "run.sh: note: no Triton column (triton_matmul.py said why above)"
    rm -f "$results/triton.csv" "$results/triton.txt"
    ;;
  *) echo "run.sh: warning: triton_matmul.py reported failures (status $triton_status)" ;;
  esac

  if ((CHECK)); then
    echo "run.sh: --check: no timings, no plot"
  else
    local plot_args=(--gpucg "$results/gpucg.csv" --out "$results/tflops.png")
    [[ -f $results/triton.csv ]] && plot_args+=(--triton "$results/triton.csv")
    local plot_status=0
    python3 "$BENCH_DIR/plot.py" "${plot_args[@]}" || plot_status=$?
    case $plot_status in
    0) ;;
    "$EXIT_NO_GPU") echo "run.sh: note: no plot (plot.py said why above)" ;;
    *) echo "run.sh: warning: plot.py failed (status $plot_status)" ;;
    esac
  fi
  echo "run.sh: results in $results"
  return "$status"
}

case $MODE in
all)
  BUILD_DIR=${BUILD_DIR:-$SOURCE_DIR/build}
  OUT_DIR=${OUT_DIR:-$BUILD_DIR/bench-results}
  ((${#SHAPES[@]})) || default_shapes
  "$SOURCE_DIR/scripts/build.sh" "$BUILD_DIR" || die "building gpucg failed"
  BENCH="$BUILD_DIR/bin/gpucg-bench"
  [[ -x $BENCH ]] || die "$BENCH was not built: gpucg-bench needs the CUDA toolkit (cudart, cuBLAS)"
  probe_gpu "$BENCH"
  if [[ -z $CHIP ]]; then
    CHIP=$(grep -o 'sm_[0-9]*' <<<"$DEVICE_INFO" | head -n 1)
    [[ -n $CHIP ]] || die "cannot tell the GPU's chip; give --chip"
  fi
  export GPUCG_OPT="$BUILD_DIR/bin/gpucg-opt"
  compile_kernels "$OUT_DIR/kernels"
  status=0
  run_suite "$BENCH" "$OUT_DIR/kernels" "$OUT_DIR" || status=$?
  exit "$status"
  ;;
compile-only)
  BUILD_DIR=${BUILD_DIR:-$SOURCE_DIR/build}
  CHIP=${CHIP:-sm_90}
  ((${#SHAPES[@]})) || default_shapes
  if [[ -z ${GPUCG_OPT:-} ]]; then
    if [[ ! -x $BUILD_DIR/bin/gpucg-opt ]]; then
      "$SOURCE_DIR/scripts/build.sh" "$BUILD_DIR" || die "building gpucg failed"
    fi
    export GPUCG_OPT="$BUILD_DIR/bin/gpucg-opt"
  fi
  mkdir -p "$BUNDLE/shapes"
  rm -f "$BUNDLE"/shapes/*.txt
  for shapes in "${SHAPES[@]}"; do
    [[ -f $shapes ]] || die "no shapes file $shapes"
    target="$BUNDLE/shapes/$(basename "$shapes")"
    [[ ! -e $target ]] || die "two shapes files named $(basename "$shapes")"
    cp "$shapes" "$target"
  done
  compile_kernels "$BUNDLE/kernels"
  echo "run.sh: wrote $BUNDLE (kernels for $CHIP, shapes); on the GPU machine:"
  echo "  bench/run.sh --run-only $BUNDLE"
  ;;
run-only)
  BUILD_DIR=${BUILD_DIR:-$SOURCE_DIR/build-bench}
  [[ -f $BUNDLE/kernels/manifest.txt ]] ||
    die "$BUNDLE/kernels/manifest.txt not found: write $BUNDLE with --compile-only"
  if ((${#SHAPES[@]} == 0)); then
    for shapes in "$BUNDLE"/shapes/*.txt; do
      [[ -f $shapes ]] && SHAPES+=("$shapes")
    done
    ((${#SHAPES[@]})) || die "no shapes files in $BUNDLE/shapes"
  fi
  [[ -z $CHIP ]] || echo "run.sh: note: --chip is ignored with --run-only (the kernels are compiled)"
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  if [[ ! -f $BUILD_DIR/CMakeCache.txt ]]; then
    cmake -S "$BENCH_DIR" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release ||
      die "configuring bench/ failed"
  fi
  cmake --build "$BUILD_DIR" || die "building the runtime and gpucg-bench failed"
  BENCH="$BUILD_DIR/bin/gpucg-bench"
  [[ -x $BENCH ]] || die "$BENCH was not built: it needs the CUDA toolkit (cudart, cuBLAS)"
  probe_gpu "$BENCH"
  status=0
  run_suite "$BENCH" "$BUNDLE/kernels" "$BUNDLE/results" || status=$?
  exit "$status"
  ;;
esac
