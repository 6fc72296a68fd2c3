// gpucg-export-kernels reports the files it cannot make.
// RUN: rm -rf %t && mkdir -p %t && touch %t/file
// An output-dir under a regular file cannot be created.
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(gpucg-export-kernels{output-dir=%t/file/out})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: cannot create {{.*}}file/out: {{.+}}
// A directory where the binary should go cannot be written over.
// RUN: mkdir -p %t/out/k.cubin
// RUN: not gpucg-opt %s --pass-pipeline='builtin.module(gpucg-export-kernels{output-dir=%t/out})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: error: cannot write {{.*}}out{{/|\\}}k.cubin: {{.+}}

module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.binary @k [#gpu.object<#nvvm.target, bin = "x">]
}
