// Random matmuls of every shape through the mma.sync, WMMA and gpucg-compile
// tensor-core paths and the CPU emulator (Inputs/sweep-tensorcore.py,
// docs/Emulation.md): each bit-exact against the untiled kernel in two
// schedules. The first 12 cases of seed 1 cover partial M and N tiles on
// every side, K tails (K = 8, 11, 23, 26, 33 and primes), f16, bf16, i8
// (K = 11: rows of 11 bytes, copied a byte at a time) and TF32 operands, B
// as K x N and N x K, C zeroed and accumulated into, pipelines of depth 1
// to 4 with the epilogue peeled and predicated, and a dynamic M. The first
// 15 of seed 3 add kernels compiled for sizes known only at run time: M, N
// and K on mma.sync, N and K, K alone through gpucg-compile, and a WMMA
// kernel with a dynamic N that accumulates into C (its C is copied into
// workgroup memory: WMMA loads need a constant row pitch). Cases 65 to 69
// of seed 4 add TF32 kernels with M, N and K dynamic through gpucg-compile:
// 4-byte async copies, so a K loop of run-time length is software-pipelined
// with predicated stages (and WMMA fragments chosen by arith.select). Half
// the kernels with a run-time row pitch round it up to 16 bytes, so that
// gpucg-row-pitch-specialization's aligned copy runs (16-byte async
// copies): cases 6 and 12 of seed 3 (f16, N and K on mma.sync, K through
// gpucg-compile) and 69 of seed 4 (TF32).
// Cases 5, 31, 42 and 55 of seed 11 split K (split-k 4, 3, 4, 4): i8 into
// i32 with 9 x 2 tiles, bf16 with partial tiles, f16 into f16 (the parts'
// sums in f16), and 17 rows with parts of 4.5 K steps (a K tail each).
// Small-M tiles (a user's plan of the strategy's tiles): cases 8 and 10 of
// seed 3 (53 and 38 rows on 32x128 tiles, f16 with B[n, k], i8 with K =
// 73), and cases 31 and 167 of seed 3 and 9 of seed 21 with split-K: 37
// rows in 2 parts, 17 rows (two rows of 16-row tiles) in 4, and i8 on
// 64x128 tiles over 71 rows in 3.
// Longer sweeps:
//   python3 test/Integration/Emulation/Inputs/sweep-tensorcore.py --help
// RUN: %python %S/Inputs/sweep-tensorcore.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 1 --count 12 \
// RUN:   --keep-dir %t | FileCheck %s --check-prefix=SEED1 --implicit-check-not=MISMATCH
// SEED1: sweep-tensorcore: 12 cases, 0 failed
// RUN: %python %S/Inputs/sweep-tensorcore.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 3 --count 15 \
// RUN:   --keep-dir %t | FileCheck %s --check-prefix=SEED3 --implicit-check-not=MISMATCH
// SEED3: sweep-tensorcore: 15 cases, 0 failed
// RUN: %python %S/Inputs/sweep-tensorcore.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 4 --first 65 --count 5 \
// RUN:   --keep-dir %t | FileCheck %s --check-prefix=SEED4 --implicit-check-not=MISMATCH
// SEED4: sweep-tensorcore: 5 cases, 0 failed
// RUN: for i in 5 31 42 55; do %python %S/Inputs/sweep-tensorcore.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 11 --first $i --count 1 \
// RUN:   --keep-dir %t; done | FileCheck %s --check-prefix=SEED11 --implicit-check-not=MISMATCH
// SEED11-COUNT-4: sweep-tensorcore: 1 cases, 0 failed
// RUN: for c in "3 31" "3 167" "21 9"; do set -- $c; %python %S/Inputs/sweep-tensorcore.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed $1 --first $2 --count 1 \
// RUN:   --keep-dir %t; done | FileCheck %s --check-prefix=SMALLM --implicit-check-not=MISMATCH
// SMALLM-COUNT-3: sweep-tensorcore: 1 cases, 0 failed
