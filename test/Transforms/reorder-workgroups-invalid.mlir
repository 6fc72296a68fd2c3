// RUN: gpucg-opt %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-reorder-workgroups{group-size=-2}))'

// expected-error @+1 {{'func.func' op gpucg-reorder-workgroups: group-size must be 0 or more, got -2}}
func.func @negative_group_size() {
  return
}
