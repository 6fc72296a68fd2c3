// Random matmuls of every shape through the mma.sync, WMMA and gpucg-compile
// tensor-core paths and the CPU emulator (Inputs/sweep-tensorcore.py,
// docs/Emulation.md): each bit-exact against the untiled kernel in two
// schedules. The first 12 cases of seed 1 cover partial M and N tiles on
// every side, K tails (K = 8, 11, 23, 26, 33 and primes), f16, bf16, i8
// (K = 11: a 4-byte masked cp.async tail) and TF32 operands, B as K x N and
// N x K, C zeroed and accumulated into, pipelines of depth 1 to 4 with the
// epilogue peeled and predicated, and 21-row shapes.
// Longer sweeps:
//   python3 test/Integration/Emulation/Inputs/sweep-tensorcore.py --help
// RUN: %python %S/Inputs/sweep-tensorcore.py --gpucg-opt gpucg-opt \
// RUN:   --reference-runner '%mlir_runner_main' \
// RUN:   --emulated-runner '%mlir_runner_emulated' --seed 1 --count 12 \
// RUN:   --keep-dir %t | FileCheck %s --implicit-check-not=MISMATCH
// CHECK: sweep-tensorcore: 12 cases, 0 failed
