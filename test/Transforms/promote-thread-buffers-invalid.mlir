// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-promote-thread-buffers{max-bytes=-1}))' -verify-diagnostics

// expected-error @below {{gpucg-promote-thread-buffers needs a max-bytes of at least 0, got -1}}
func.func @negative_limit() {
  return
}
