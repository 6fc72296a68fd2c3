// RUN: gpucg-opt %s -verify-diagnostics --pass-pipeline='builtin.module(gpucg-attach-nvvm-target{chip=sm_90})'

// expected-error @+1 {{was planned for sm_80 (gpucg.target) but chip=sm_90 was requested}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">, gpu.container_module} {
  gpu.module @k {
  }
}
