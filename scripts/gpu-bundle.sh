#!/usr/bin/env bash
#===- scripts/gpu-bundle.sh - GPU tests where MLIR and the GPU are apart ---===#
#
#   scripts/gpu-bundle.sh prepare DIR [--chip sm_XY]   here: MLIR, no GPU
#   scripts/gpu-bundle.sh run DIR [--sanitize] [--build-dir B]  there: a GPU, no MLIR
#   scripts/gpu-bundle.sh run DIR --dry-run [--build-dir B]     here: what run would do
#
# test/Integration/GPU runs under lit where gpucg-opt, mlir-runner and a GPU
# are on one machine. When they are not (docs/Benchmark.md: a GPU machine
# with CUDA but no MLIR), this script splits the same tests in two:
#
# prepare  compiles, with this checkout's build (build/bin/gpucg-opt), what
#          every GPU test needs:
#            mlir/      each .mlir test's host module, lowered by its own RUN
#                       line's pipeline, translated to LLVM IR and compiled to
#                       an object (mlir-translate-22, llc-22): mlir-runner's
#                       JIT, ahead of time; a small C driver supplies main()
#                       and the printI64/printNewline the tests call;
#            launch/    the kernels kernel-launch.c loads (ABI + binary);
#            check/     gpucg-bench's check.txt cases, as cubins for the GPU's
#                       chip and as sm_80 PTX for the driver's JIT;
#            python/    the kernel test/python/gpu.py loads;
#            runtime/   test/Runtime/gpu-errors.test's kernels; its other RUN
#                       lines run there as written;
#            bench/     the full benchmark's kernels (bench/run.sh
#                       --compile-only);
#            memory/    the memory-bound benchmark's kernels
#                       (bench/memory_bound.py --compile-only);
#            tools/     FileCheck, not, and the libraries they need.
# run      builds the runtime (its unit tests too) and gpucg-bench with
#          standalone CMake, runs every prepared test against the tests' own
#          CHECK lines, with --sanitize also gpucg-bench --check under
#          compute-sanitizer (memcheck, then racecheck on the small cases),
#          and prints one PASS/FAIL line per test. gpucg-bench builds in
#          the background while the tests that need only the runtime run;
#          --build-dir DIR builds there (default: build-gpu/ in the tree).
#          The timed benchmarks are separate: scripts/gpu-run.sh runs them
#          and this in one budgeted call (docs/Benchmark.md).
#          --dry-run (no GPU needed) builds the same, runs the GPU probe
#          against the runtime's fake driver, checks that every file each
#          test needs was prepared, and prints one DRY-RUN line per test
#          instead of running it (scripts/gpu-run.sh run --dry-run).
#
# Exit status: 0 every test passed, 1 a test failed, 2 bad usage or a missing
# tool, 77 (run) no GPU.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
GPU_TESTS="$SOURCE_DIR/test/Integration/GPU"

die() {
  echo "gpu-bundle.sh: $*" >&2
  exit 2
}

usage() {
  sed -n '2,/^#===-.*===#$/{/^#===/d;s/^# \{0,1\}//;p}' "$0"
}

[[ $# -ge 2 ]] || { usage >&2; exit 2; }
MODE=$1
BUNDLE=$2
shift 2
# Absolute: the tests run in folders of their own.
mkdir -p "$BUNDLE"
BUNDLE=$(cd "$BUNDLE" && pwd)
CHIP=sm_90
SANITIZE=0
DRY_RUN=0
BUILD_DIR=""
while [[ $# -gt 0 ]]; do
  case $1 in
  --build-dir) [[ $# -ge 2 ]] || die "--build-dir needs a value"; BUILD_DIR=$2; shift 2 ;;
  --chip) [[ $# -ge 2 ]] || die "--chip needs a value"; CHIP=$2; shift 2 ;;
  --sanitize) SANITIZE=1; shift ;;
  --dry-run) DRY_RUN=1; shift ;;
  -h | --help) usage; exit 0 ;;
  *) die "unknown argument '$1'" ;;
  esac
done

# The gpucg-opt pipeline of a .mlir test's RUN line that writes %t.mlir,
# with lit's substitutions for this bundle.
host_pipeline() {
  local test=$1
  grep -o "gpucg-opt %s --pass-pipeline='[^']*' -o %t.mlir" "$test" |
    sed -e "s/^gpucg-opt %s --pass-pipeline='//" -e "s/' -o %t.mlir$//" \
      -e "s/%gpucg_gpu_chip/$CHIP/g"
}

# The RUN lines of a '#' comment test, continuation lines joined.
run_lines() {
  sed -n 's/^# RUN: \{0,1\}//p' "$1" | awk '/\\$/ {sub(/\\$/, ""); line = line $0; next} {print line $0; line = ""}'
}

prepare() {
  local opt="$SOURCE_DIR/build/bin/gpucg-opt" tool
  [[ -x $opt ]] || die "no $opt: build gpucg first (make build)"
  for tool in mlir-translate-22 llc-22 llvm-objcopy-22 FileCheck-22; do
    command -v "$tool" >/dev/null || die "$tool not found (llvm-22-tools, mlir-22-tools)"
  done
  rm -rf "$BUNDLE"/{mlir,launch,check,python,memory,tools}
  mkdir -p "$BUNDLE"/{mlir,launch,check,python,tools/lib}
  echo "$CHIP" >"$BUNDLE/chip"
  git -C "$SOURCE_DIR" rev-parse --short HEAD >"$BUNDLE/commit" 2>/dev/null || echo unknown >"$BUNDLE/commit"

  # The .mlir tests: the host module to an object; the test itself is the
  # FileCheck file.
  local test name pipeline
  for test in "$GPU_TESTS"/*.mlir; do
    name=$(basename "$test" .mlir)
    pipeline=$(host_pipeline "$test")
    [[ -n $pipeline ]] || die "$test: no 'gpucg-opt %s ... -o %t.mlir' RUN line"
    "$opt" "$test" --pass-pipeline="$pipeline" -o "$BUNDLE/mlir/$name.host.mlir"
    mlir-translate-22 --mlir-to-llvmir "$BUNDLE/mlir/$name.host.mlir" -o "$BUNDLE/mlir/$name.ll"
    llc-22 -O2 -filetype=obj -relocation-model=pic "$BUNDLE/mlir/$name.ll" -o "$BUNDLE/mlir/$name.o"
    # The test's @main becomes gpucg_mlir_main; the driver owns main().
    llvm-objcopy-22 --redefine-sym main=gpucg_mlir_main "$BUNDLE/mlir/$name.o"
    cp "$test" "$BUNDLE/mlir/$name.checks"
    rm -f "$BUNDLE/mlir/$name.ll"
    echo "prepared mlir/$name"
  done
  # matmul-dynamic-shared-memory.mlir also checks its ABI file: that needs
  # no GPU, so it is checked here.
  "$opt" "$GPU_TESTS/matmul-dynamic-shared-memory.mlir" \
    --pass-pipeline="builtin.module(gpucg-compile{format=isa output-dir=$BUNDLE/launch/abi-check})" -o /dev/null
  FileCheck-22 "$GPU_TESTS/matmul-dynamic-shared-memory.mlir" --check-prefix=ABI \
    <"$BUNDLE/launch/abi-check/matmul_kernel.abi"
  rm -rf "$BUNDLE/launch/abi-check"

  # kernel-launch.c's kernels, as its RUN lines compile them.
  "$opt" "$GPU_TESTS/matmul-f16.mlir" \
    --pass-pipeline="builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=$BUNDLE/launch/f16})" -o /dev/null
  "$opt" "$GPU_TESTS/matmul-bf16.mlir" \
    --pass-pipeline="builtin.module(gpucg-compile{chip=$CHIP format=bin bare-pointers=false output-dir=$BUNDLE/launch/bf16})" -o /dev/null
  "$opt" "$GPU_TESTS/matmul-dynamic-shared-memory.mlir" \
    --pass-pipeline="builtin.module(gpucg-compile{format=isa output-dir=$BUNDLE/launch/shared})" -o /dev/null
  cp "$GPU_TESTS/kernel-launch.c" "$BUNDLE/launch/"
  echo "prepared launch"

  # gpucg-bench --check's kernels (bench-check-*.test).
  local shapes="$SOURCE_DIR/bench/shapes/check.txt"
  cp "$shapes" "$GPU_TESTS"/bench-check-*.test "$BUNDLE/check/"
  GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
    --filter check- --chip "$CHIP" --format bin --out "$BUNDLE/check/native" --quiet
  GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
    --filter check- --chip sm_80 --format isa --out "$BUNDLE/check/sm80-ptx" --quiet
  # The warpgroup-MMA kernels (bench-check-wgmma.test), for an sm_90 GPU.
  if [[ $CHIP == sm_90 ]]; then
    GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
      --filter check-aligned- --chip sm_90a --format bin --out "$BUNDLE/check/sm90a" --quiet
    # The same on a persistent grid of one workgroup (it loops over the tiles).
    GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
      --filter check-aligned- --chip sm_90a --format bin --wgmma-persistent 1 \
      --out "$BUNDLE/check/sm90a-persistent" --quiet
    # Tiles started in groups of 2 rows (gpucg-reorder-workgroups), in and
    # out of a persistent grid.
    GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
      --filter check-aligned- --chip sm_90a --format bin --workgroup-group-size 2 \
      --out "$BUNDLE/check/sm90a-grouped" --quiet
    GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
      --filter check-aligned- --chip sm_90a --format bin --workgroup-group-size 2 \
      --wgmma-persistent 3 --out "$BUNDLE/check/sm90a-grouped-persistent" --quiet
    # Staged stores: the accumulator through the ring, 16-byte stores of C.
    GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
      --filter check-aligned- --chip sm_90a --format bin --wgmma-staged-store \
      --out "$BUNDLE/check/sm90a-staged" --quiet
    # Thread-block clusters of 2 x 2 and 2 x 1 workgroups sharing tiles by
    # TMA multicast.
    GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
      --filter check-aligned- --chip sm_90a --format bin --wgmma-cluster 2x2 \
      --out "$BUNDLE/check/sm90a-cluster2x2" --quiet
    GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" --shapes "$shapes" \
      --filter check-aligned- --chip sm_90a --format bin --wgmma-cluster 2x1 \
      --out "$BUNDLE/check/sm90a-cluster2x1" --quiet
    # 8-bit floats (bench-check-wgmma-f8.test): fp8.txt's check cases.
    cp "$SOURCE_DIR/bench/shapes/fp8.txt" "$BUNDLE/check/"
    GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/compile_kernels.py" \
      --shapes "$SOURCE_DIR/bench/shapes/fp8.txt" --filter check-f8- --chip sm_90a \
      --format bin --out "$BUNDLE/check/sm90a-f8" --quiet
  fi
  echo "prepared check"

  # test/python/gpu.py's kernel (GPUCG_TEST_KERNEL_DIR).
  "$opt" "$SOURCE_DIR/examples/matmul_512x128x512_f16.mlir" \
    --pass-pipeline="builtin.module(gpucg-compile{chip=sm_80 format=isa output-dir=$BUNDLE/python})" -o /dev/null
  echo "prepared python"

  # The memory-bound benchmark's kernels, for the GPU's chip.
  GPUCG_OPT=$opt python3 "$SOURCE_DIR/bench/memory_bound.py" \
    --compile-only "$BUNDLE/memory" --chip "$CHIP" --format bin >/dev/null
  echo "prepared memory"

  # test/Runtime/gpu-errors.test: its files and kernels here, the rest there.
  local runtime_test="$SOURCE_DIR/test/Runtime/gpu-errors.test" line
  mkdir -p "$BUNDLE/runtime/work"
  cp "$runtime_test" "$BUNDLE/runtime/"
  split-file-22 "$runtime_test" "$BUNDLE/runtime/work"
  while IFS= read -r line; do
    [[ $line == gpucg-opt* ]] || continue
    (cd "$BUNDLE/runtime/work" && eval "${line/gpucg-opt/$opt}") ||
      die "gpu-errors.test: '$line' failed"
  done < <(run_lines "$runtime_test" | sed "s/%gpucg_gpu_chip/$CHIP/g")
  echo "prepared runtime"

  # FileCheck, not, and what they link beyond a base system.
  local filecheck lib
  filecheck=$(readlink -f "$(command -v FileCheck-22)")
  cp "$filecheck" "$BUNDLE/tools/FileCheck"
  cp "$(readlink -f /usr/lib/llvm-22/bin/not)" "$BUNDLE/tools/not"
  for lib in $(ldd "$filecheck" | awk '/libz3/ {print $3}'); do
    gzip -c "$lib" >"$BUNDLE/tools/lib/$(basename "$lib").gz"
  done
  ls "$SOURCE_DIR/build/lib/libgpucg_cuda_runtime.so" >/dev/null
  echo "bundle: $BUNDLE ($(du -sh "$BUNDLE" | cut -f1)); there: scripts/gpu-bundle.sh run $BUNDLE"
}

FAILED=()
PASSED=()

# record NAME STATUS
record() {
  if [[ $2 == 0 ]]; then
    PASSED+=("$1")
    echo "PASS: $1"
  else
    FAILED+=("$1")
    echo "FAIL: $1 (status $2)"
  fi
}

# The C side, built on the GPU machine with standalone CMake: the runtime
# (and what its tests need) now, gpucg-bench in the background; BENCH_PID.
build_c_side() {
  local build=$1 generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  mkdir -p "$build/logs"
  {
    cmake -S "$SOURCE_DIR/runtime" -B "$build/runtime" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release &&
      cmake --build "$build/runtime" --target gpucg_cuda_runtime gpucg_fake_cuda \
        gpucg-cuda-probe gpucg-runtime-tests
  } >"$build/logs/build-runtime.log" 2>&1 ||
    die "building the runtime failed ($build/logs/build-runtime.log)"
  {
    cmake -S "$SOURCE_DIR/bench" -B "$build/bench" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release &&
      cmake --build "$build/bench" --target gpucg-bench
  } >"$build/logs/build-bench.log" 2>&1 &
  BENCH_PID=$!
}

wait_for_bench() {
  local build=$1
  wait "$BENCH_PID" || die "building gpucg-bench failed ($build/logs/build-bench.log)"
}

run() {
  [[ -f $BUNDLE/chip ]] || die "$BUNDLE was not written by 'prepare'"
  local build=${BUILD_DIR:-$SOURCE_DIR/build-gpu}
  build_c_side "$build"
  local rt_lib="$build/runtime/lib" bench="$build/bench/bin/gpucg-bench"
  local probe_status=0
  if ((DRY_RUN)); then
    GPUCG_CUDA_DRIVER="$rt_lib/libgpucg_fake_cuda.so" "$build/runtime/bin/gpucg-cuda-probe" ||
      probe_status=$?
    ((probe_status == 0)) || die "--dry-run: the probe failed on the fake driver ($probe_status)"
    wait_for_bench "$build"
    dry_run "$bench" "$build/logs"
    return
  fi
  "$build/runtime/bin/gpucg-cuda-probe" || probe_status=$?
  ((probe_status == 0)) || { echo "gpu-bundle.sh: no usable GPU (gpucg-cuda-probe: $probe_status)"; exit 77; }

  local tools="$BUNDLE/tools" lib
  for lib in "$tools"/lib/*.gz; do
    [[ -e ${lib%.gz} ]] || gzip -dc "$lib" >"${lib%.gz}"
  done
  filecheck() { LD_LIBRARY_PATH="$tools/lib" "$tools/FileCheck" "$@"; }
  local cc=${CC:-cc} logs="$build/logs" status
  mkdir -p "$logs"
  local cflags=(-std=c11 -D_POSIX_C_SOURCE=200809L -I"$SOURCE_DIR/runtime/include")
  local rt_link=(-L"$rt_lib" -lgpucg_cuda_runtime -Wl,-rpath,"$rt_lib")

  # gpu-errors.test's RUN lines but the kernels' compilation, as lit would
  # run them (pipefail), in a copy of the prepared folder.
  rm -rf "$build/runtime-work" && cp -r "$BUNDLE/runtime/work" "$build/runtime-work"
  status=0
  while IFS= read -r line; do
    [[ $line == gpucg-opt* || $line == "rm -rf"* || $line == split-file* ]] && continue
    line=${line//%gpucg_runtime_tests/$build/runtime/bin/gpucg-runtime-tests}
    line=${line//%s/$BUNDLE/runtime/gpu-errors.test}
    line=${line//FileCheck /$tools/FileCheck }
    line=${line//not /$tools/not }
    echo "\$ $line" >>"$logs/gpu-errors.log"
    (cd "$build/runtime-work" && set -o pipefail &&
      export LD_LIBRARY_PATH="$tools/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" &&
      eval "$line") >>"$logs/gpu-errors.log" 2>&1 || {
      status=1
      echo "(failed)" >>"$logs/gpu-errors.log"
    }
  done < <(run_lines "$BUNDLE/runtime/gpu-errors.test")
  record runtime/gpu-errors "$status"

  # The .mlir tests, ahead of time.
  cat >"$build/mlir-driver.c" <<'EOF'
/* main() and the mlir_c_runner_utils functions the GPU tests call. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
void gpucg_mlir_main(void);
void printI64(int64_t value) { printf("%" PRId64, value); }
void printNewline(void) { putchar('\n'); }
/* float -> bf16, rounding to nearest even (NaN stays NaN): the compiler-rt
 * builtin that LLVM calls for arith.truncf to bf16, which older libgcc lacks.
 * bf16 is returned like _Float16, in the low half of %xmm0. */
_Float16 __truncsfbf2(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint16_t half = (bits & 0x7fffffffu) > 0x7f800000u
                      ? (uint16_t)((bits >> 16) | 0x40u)
                      : (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  _Float16 result;
  memcpy(&result, &half, sizeof result);
  return result;
}
int main(void) {
  gpucg_mlir_main();
  return fflush(stdout) == 0 ? 0 : 1;
}
EOF
  local object name
  for object in "$BUNDLE"/mlir/*.o; do
    name=$(basename "$object" .o)
    status=0
    { "$cc" -O1 "$build/mlir-driver.c" "$object" -o "$build/$name" "${rt_link[@]}" &&
      "$build/$name" >"$logs/$name.out" 2>"$logs/$name.err" &&
      filecheck "$BUNDLE/mlir/$name.checks" --input-file "$logs/$name.out"; } || status=$?
    record "mlir/$name" "$status"
  done

  # kernel-launch.c.
  local launch="$BUNDLE/launch"
  status=0
  { "$cc" "${cflags[@]}" -Wall -Wextra -Werror "$launch/kernel-launch.c" -o "$build/kernel-launch" "${rt_link[@]}" &&
    "$build/kernel-launch" "$launch/f16/matmul_aligned_kernel.abi" "$launch/f16/matmul_unaligned_kernel.abi" \
      "$launch/bf16/matmul_aligned_kernel.abi" "$launch/bf16/matmul_unaligned_kernel.abi" \
      "$launch/shared/matmul_kernel.abi" >"$logs/kernel-launch.out" 2>&1 &&
    filecheck "$launch/kernel-launch.c" --input-file "$logs/kernel-launch.out"; } || status=$?
  record launch/kernel-launch "$status"

  # test/python/gpu.py with the prepared kernel.
  status=0
  GPUCG_RUNTIME_LIB="$rt_lib/libgpucg_cuda_runtime.so" GPUCG_TEST_KERNEL_DIR="$BUNDLE/python" \
    PYTHONPATH="$SOURCE_DIR/python" python3 "$SOURCE_DIR/test/python/gpu.py" >"$logs/python-gpu.log" 2>&1 || status=$?
  record python/gpu.py "$status"

  # The rest needs gpucg-bench, built meanwhile.
  wait_for_bench "$build"

  # gpucg-bench --check, as bench-check-{aligned,unaligned}.test run it.
  local kind kernels
  for kind in aligned unaligned; do
    for kernels in native sm80-ptx; do
      status=0
      { "$bench" --check --shapes "$BUNDLE/check/check.txt" --filter "check-$kind-" \
          --kernels "$BUNDLE/check/$kernels" >"$logs/check-$kind-$kernels.out" 2>&1 &&
        filecheck "$BUNDLE/check/bench-check-$kind.test" --input-file "$logs/check-$kind-$kernels.out"; } || status=$?
      record "check/$kind-$kernels" "$status"
    done
  done

  if [[ -d $BUNDLE/check/sm90a ]]; then
    status=0
    { "$bench" --check --shapes "$BUNDLE/check/check.txt" --filter check-aligned- \
        --kernels "$BUNDLE/check/sm90a" >"$logs/check-wgmma.out" 2>&1 &&
      filecheck "$BUNDLE/check/bench-check-wgmma.test" --input-file "$logs/check-wgmma.out"; } || status=$?
    record check/wgmma-sm90a "$status"
  fi
  if [[ -d $BUNDLE/check/sm90a-persistent ]]; then
    status=0
    { "$bench" --check --shapes "$BUNDLE/check/check.txt" --filter check-aligned- \
        --kernels "$BUNDLE/check/sm90a-persistent" >"$logs/check-wgmma-persistent.out" 2>&1 &&
      filecheck "$BUNDLE/check/bench-check-wgmma.test" --input-file "$logs/check-wgmma-persistent.out"; } || status=$?
    record check/wgmma-sm90a-persistent "$status"
  fi
  for variant in sm90a-grouped sm90a-grouped-persistent sm90a-staged \
    sm90a-cluster2x2 sm90a-cluster2x1; do
    [[ -d $BUNDLE/check/$variant ]] || continue
    status=0
    { "$bench" --check --shapes "$BUNDLE/check/check.txt" --filter check-aligned- \
        --kernels "$BUNDLE/check/$variant" >"$logs/check-$variant.out" 2>&1 &&
      filecheck "$BUNDLE/check/bench-check-wgmma.test" --input-file "$logs/check-$variant.out"; } || status=$?
    record "check/wgmma-$variant" "$status"
  done

  if [[ -d $BUNDLE/check/sm90a-f8 ]]; then
    status=0
    { "$bench" --check --host-check 2147483648 --shapes "$BUNDLE/check/fp8.txt" \
        --filter check-f8- --kernels "$BUNDLE/check/sm90a-f8" >"$logs/check-wgmma-f8.out" 2>&1 &&
      filecheck "$BUNDLE/check/bench-check-wgmma-f8.test" --input-file "$logs/check-wgmma-f8.out"; } || status=$?
    record check/wgmma-sm90a-f8 "$status"
  fi

  if ((SANITIZE)); then
    # Every check case under memcheck; the small ones under racecheck (shared
    # memory hazards between the pipeline's stages) and synccheck.
    local tool
    for tool in memcheck racecheck synccheck; do
      local filter=(--filter check-)
      [[ $tool == memcheck ]] || filter=(--filter check-aligned-f16 --filter check-unaligned-f16 --filter check-aligned-bf16)
      status=0
      compute-sanitizer --tool "$tool" --error-exitcode 99 "$bench" --check \
        --shapes "$BUNDLE/check/check.txt" "${filter[@]}" \
        --kernels "$BUNDLE/check/native" >"$logs/sanitizer-$tool.log" 2>&1 || status=$?
      record "compute-sanitizer/$tool" "$status"
    done
  fi

  echo "logs: $logs"
  echo "# ${#PASSED[@]} passed, ${#FAILED[@]} failed${FAILED:+: ${FAILED[*]}}"
  ((${#FAILED[@]} == 0))
}

# dry NAME FILE...: the test NAME would run on these prepared files.
dry() {
  local name=$1 file missing=()
  shift
  for file in "$@"; do
    [[ -e $file ]] || missing+=("$file")
  done
  if ((${#missing[@]})); then
    FAILED+=("$name")
    echo "FAIL: $name (not prepared: ${missing[*]})"
  else
    PASSED+=("$name")
    echo "DRY-RUN: $name"
  fi
}

# run --dry-run: each test of run(), its files checked, nothing run on a GPU.
dry_run() {
  local bench=$1 object kind kernels variant
  dry runtime/gpu-errors "$BUNDLE/runtime/gpu-errors.test" "$BUNDLE/runtime/work"
  for object in "$BUNDLE"/mlir/*.o; do
    [[ -e $object ]] || continue
    dry "mlir/$(basename "$object" .o)" "$object" "${object%.o}.checks"
  done
  dry launch/kernel-launch "$BUNDLE/launch/kernel-launch.c" \
    "$BUNDLE/launch/f16/matmul_aligned_kernel.abi" "$BUNDLE/launch/bf16/matmul_aligned_kernel.abi" \
    "$BUNDLE/launch/shared/matmul_kernel.abi"
  for kind in aligned unaligned; do
    for kernels in native sm80-ptx; do
      dry "check/$kind-$kernels" "$BUNDLE/check/$kernels/manifest.txt" "$BUNDLE/check/bench-check-$kind.test"
    done
  done
  for variant in sm90a sm90a-persistent sm90a-grouped sm90a-grouped-persistent \
    sm90a-staged sm90a-cluster2x2 sm90a-cluster2x1 sm90a-f8; do
    [[ -d $BUNDLE/check/$variant ]] || continue
    dry "check/wgmma-$variant" "$BUNDLE/check/$variant/manifest.txt"
  done
  dry python/gpu.py "$SOURCE_DIR/test/python/gpu.py" "$BUNDLE/python"
  # gpucg-bench reads every check kernel's .abi file without a GPU.
  local status=0 logs=$2
  "$bench" --dry-run --shapes "$BUNDLE/check/check.txt" --filter check- \
    --kernels native="$BUNDLE/check/native" >"$logs/dry-run-check.out" 2>&1 ||
    status=$?
  record "check/abi-files (gpucg-bench --dry-run)" "$status"
  echo "# ${#PASSED[@]} prepared (dry run: nothing ran on a GPU), ${#FAILED[@]} failed${FAILED:+: ${FAILED[*]}}"
  ((${#FAILED[@]} == 0))
}

case $MODE in
prepare) prepare ;;
run) run ;;
*) usage >&2; exit 2 ;;
esac
