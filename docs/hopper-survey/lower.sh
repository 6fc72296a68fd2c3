#!/bin/bash
# usage: lower.sh name   (reads name.mlir). Manual path, no gpu-module-to-binary.
set -o pipefail
n=$1
P='builtin.module(convert-nvgpu-to-nvvm,gpu-kernel-outlining,gpu.module(expand-strided-metadata,lower-affine,convert-vector-to-scf,convert-scf-to-cf,convert-nvvm-to-llvm,convert-gpu-to-nvvm,convert-to-llvm,canonicalize,cse,reconcile-unrealized-casts))'
echo "== mlir-opt"; mlir-opt-22 $n.mlir --pass-pipeline="$P" -o $n.ll.mlir 2>&1 | head -${HEADN:-30} || exit 1
[ -s $n.ll.mlir ] || exit 1
python3 extract.py $n.ll.mlir $n.dev.mlir
echo "== mlir-translate"; mlir-translate-22 --mlir-to-llvmir $n.dev.mlir -o $n.ll 2>&1 | head -30; [ -s $n.ll ] || exit 1
echo "== llc"; llc-22 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 $n.ll -o $n.ptx 2>&1 | head -30; [ -s $n.ptx ] || exit 1
echo "== ptxas"; ptxas -arch=sm_90a $n.ptx -o $n.cubin 2>&1 | head -30 && [ -s $n.cubin ] && echo "PTXAS OK $(stat -c %s $n.cubin) bytes"
