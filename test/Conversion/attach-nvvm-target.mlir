// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpucg-attach-nvvm-target)' | FileCheck %s
// RUN: gpucg-opt %s -split-input-file --pass-pipeline='builtin.module(gpucg-attach-nvvm-target)' | gpucg-opt -split-input-file > /dev/null

// The chip comes from the module's #gpucg.target.
// CHECK: gpu.module @k [#nvvm.target<O = 3, chip = "sm_90">]
module attributes {gpucg.target = #gpucg.target<chip = "sm_90">, gpu.container_module} {
  gpu.module @k {
  }
}

// -----

// A kernel's own target counts as well; those of one module agree.
// CHECK: gpu.module @k [#nvvm.target<O = 3, chip = "sm_80">]
module attributes {gpu.container_module} {
  gpu.module @k {
  }
  func.func @host() attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
    return
  }
  func.func @other_host() attributes {gpucg.target = #gpucg.target<chip = "sm_80", num_sms = 4>} {
    return
  }
}

// -----

// A kernel launched in clusters gets them as nvvm.cluster_dim (PTX
// .reqnctapercluster); one launched without keeps no such attribute.
// CHECK: gpu.module @k [#nvvm.target<O = 3, chip = "sm_90a">]
// CHECK: llvm.func @clustered() attributes {gpu.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.kernel}
// CHECK: llvm.func @plain() attributes {gpu.kernel, nvvm.kernel}
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">, gpu.container_module} {
  gpu.module @k {
    llvm.func @clustered() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
    llvm.func @plain() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@clustered clusters in (%c2, %c1, %c1) blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k::@clustered clusters in (%c2, %c1, %c1) blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k::@plain blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
