// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpucg-attach-nvvm-target)' | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpucg-attach-nvvm-target)' | gpucg-opt -split-input-file > /dev/null

// The chip comes from the module's #gpucg.target.
// CHECK: gpu.module @k [#nvvm.target<O = 3, chip = "sm_90">]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90">, gpu.container_module} {
  gpu.module @k {
  }
}

// -----

// Without one, sm_80.
// CHECK: gpu.module @k [#nvvm.target<O = 3, chip = "sm_80">]
module attributes {gpu.container_module} {
  gpu.module @k {
  }
}
