// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpucg-attach-nvvm-target)'

// The chip is the module's gpucg.target's; without one there is none (the
// pipelines' chip option gives the module one, through gpucg-set-target).
// expected-error @+1 {{'builtin.module' op has no gpucg.target to build its GPU binaries for: give the pipeline a chip (chip=sm_XY) or run gpucg-set-target{chip=sm_XY} first}}
module attributes {gpu.container_module} {
  gpu.module @k {
  }
}

// -----

// One binary, one chip: kernels planned for two are an error.
// expected-note @+1 {{the gpucg.target for sm_80}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">, gpu.container_module} {
  gpu.module @k {
  }
  // expected-error @+1 {{'func.func' op was planned for sm_90 but the module holds kernels planned for sm_80; one binary is built for one chip}}
  func.func @host() attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
    return
  }
}
