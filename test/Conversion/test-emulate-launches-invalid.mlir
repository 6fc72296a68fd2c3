// RUN: gpucg-opt %s --pass-pipeline='builtin.module(gpucg-test-emulate-launches)' \
// RUN:   -verify-diagnostics

// expected-error @below {{is an emulated thread body of type '!llvm.func<i32 (ptr)>'; it must return nothing}}
llvm.func @body(%p: !llvm.ptr) -> i32 attributes {gpucg_emulator.thread_body} {
  %c = llvm.mlir.constant(0 : i32) : i32
  llvm.return %c : i32
}
