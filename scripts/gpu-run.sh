#!/usr/bin/env bash
#===- scripts/gpu-run.sh - One prepared, budgeted GPU run ------------------===#
#
#   scripts/gpu-run.sh plan [--smoke]                  the plan, estimated
#   scripts/gpu-run.sh prepare DIR [--smoke] [-j N]    here: MLIR, no GPU
#   scripts/gpu-run.sh run DIR [--budget S] [--export OUT]
#                                                      there: a GPU, no MLIR
#   scripts/gpu-run.sh run DIR --dry-run               here: the flow, no GPU
#   scripts/gpu-run.sh record RESULTS                  here: into the docs
#
# Everything not yet measured, in one call of at most eight minutes on the
# GPU machine: the GPU tests and compute-sanitizer, the matmuls in six
# variants against cuBLAS and Triton, the memory-bound kernels, Nsight
# Compute on the two kernels furthest from cuBLAS. bench/gpu_run.py does the
# work; its header says what each step runs, and docs/Benchmark.md how a
# session with a GPU uses it.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
exec python3 "$(cd "$(dirname "$0")/.." && pwd)/bench/gpu_run.py" "$@"
