// RUN: gpucg-opt %s -verify-diagnostics --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_90})'
// A chip gpucg does not know, on a module without a target:
// RUN: echo 'module {}' | not gpucg-opt --pass-pipeline='builtin.module(gpucg-set-target{chip=sm_42})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: 'builtin.module' op was given an unknown chip 'sm_42' (known: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a); describe other chips with a gpucg.target attribute

// expected-error @+1 {{has a gpucg.target for sm_80 but chip=sm_90 was requested; its kernels were written for one GPU: drop the attribute or the option}}
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
}
