// RUN: gpucg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpucg-attach-nvvm-target)'

/// A kernel has one cluster shape (PTX .reqnctapercluster): two launches
/// that disagree cannot both be right.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">, gpu.container_module} {
  gpu.module @k {
    llvm.func @kernel() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-note @+1 {{the other launch}}
    gpu.launch_func @k::@kernel clusters in (%c2, %c1, %c1) blocks in (%c2, %c2, %c1) threads in (%c1, %c1, %c1)
    // expected-error @+1 {{launches @k::@kernel in clusters of array<i32: 1, 2, 1> but another launch uses array<i32: 2, 1, 1>; a kernel has one cluster shape}}
    gpu.launch_func @k::@kernel clusters in (%c1, %c2, %c1) blocks in (%c2, %c2, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

/// The cluster shape is compiled into the kernel: it must be a constant.
module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">, gpu.container_module} {
  gpu.module @k {
    llvm.func @kernel() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  func.func @host(%n: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{launches its kernel in clusters of a size that is not a constant; the kernel's nvvm.cluster_dim must be one}}
    gpu.launch_func @k::@kernel clusters in (%n, %c1, %c1) blocks in (%c2, %c2, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
