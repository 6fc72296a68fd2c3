//===- Passes.td - gpucg emulator passes (test only) -------*- tablegen -*-===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GPUCG_EMULATION_PASSES_TD
#define GPUCG_EMULATION_PASSES_TD

include "mlir/Pass/PassBase.td"


def TestEmulateGpu : Pass<"gpucg-test-emulate-gpu", "ModuleOp"> {
  let summary = "Test only: turn each gpu.launch into calls of the CPU "
                "emulator runtime (libgpucg_emulator)";
  let description = [{
    For `gpucg-test-emulate-on-cpu` (docs/Emulation.md). Each `gpu.launch`
    (as `gpucg-build-gpu-launch` makes it) becomes:

    * a host-side `gpucg_emu_configure` call with its grid, block and
      workgroup-memory size, then a call of a new function holding the
      launch body (`<kernel>_emulated_thread_<n>`, marked
      `gpucg_emulator.thread_body`), which `gpucg-test-emulate-launches`
      later turns into a `gpucg_emu_launch` of every thread as a fiber;
    * in that body, every GPU operation becomes a runtime call with GPU
      semantics: thread, block and lane ids; `gpu.barrier`; `gpu.shuffle`
      (and `gpu.subgroup_reduce`, lowered to shuffles as for NVVM);
      `nvgpu.ldmatrix` and `nvgpu.mma.sync` with the PTX fragment layouts;
      `nvgpu.device_async_copy`/`create_group`/`wait` that land data only
      when waited for; WMMA (`gpu.subgroup_mma_*`) on per-lane vectors;
      workgroup memory as views of the runtime's per-workgroup buffer;
    * every access to workgroup memory reports its bytes to the runtime's
      race detector (`check-races`);
    * the workgroup address space is then dropped, so the CPU lowering
      takes the memrefs.

    Each call that can fail at run time carries its op's location, so the
    emulator's errors name the op. An operation of the `gpu`, `nvgpu` or
    `nvvm` dialects that the emulator does not model is an error naming it.
  }];
  let options = [
    Option<"checkRaces", "check-races", "bool", "true",
           "Report every workgroup-memory access to the race detector; "
           "false also turns off the runtime's own checks of ldmatrix reads "
           "and async-copy landings">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect"
  ];
}


def TestEmulateNVVMConversions
    : Pass<"gpucg-test-emulate-nvvm-conversions", "ModuleOp"> {
  let summary = "Test only: NVVM's 8-bit float conversions as calls of the "
                "emulator's models";
  let description = [{
    Rewrites every `nvvm.convert.f32x2.to.f8x2` (round to nearest,
    `satfinite`, an `i16` result) and `nvvm.convert.f8x2.to.f16x2` of
    `f8E4M3FN` or `f8E5M2` in the module, kernels and host code alike,
    into calls of `gpucg_emu_cvt_f32x2_to_f8x2` /
    `gpucg_emu_cvt_f8x2_to_f16x2` of `libgpucg_emulator.so`, which model the
    PTX instructions (`runtime/include/gpucg_emulator.h`), so that code using
    `gpucg-expand-small-floats{nvvm-float8=true}` runs on the CPU. Part of
    `gpucg-test-emulate-on-cpu`. Another form of these ops is an error.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}


def TestEmulateLaunches : Pass<"gpucg-test-emulate-launches", "ModuleOp"> {
  let summary = "Test only: launch emulated thread bodies as fibers "
                "(after the LLVM conversion)";
  let description = [{
    The last step of `gpucg-test-emulate-on-cpu`. For each `llvm.func`
    marked `gpucg_emulator.thread_body`, adds a trampoline that takes one
    pointer to a struct of the body's (LLVM-lowered) arguments, and
    replaces each call of the body by that struct, filled on the caller's
    stack, and a call `gpucg_emu_launch(trampoline, struct)`: the runtime
    runs the trampoline once per emulated thread.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // GPUCG_EMULATION_PASSES_TD
