// RUN: gpucg-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(gpucg-collapse-elementwise-dims))' \
// RUN:   | FileCheck %s

/// Rows of 4097 f16 (odd: no vector of 2 or more divides them), every
/// operand an argument indexed by the identity: the two loops become one of
/// 64 * 4097 = 262208 elements (8 f16 divide it), the result expanded back.
// CHECK-LABEL: func.func @odd_rows
//  CHECK-SAME:   (%[[X:.+]]: tensor<64x4097xf16>, %[[Y:.+]]: tensor<64x4097xf16>)
//   CHECK-DAG:   %[[XC:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<64x4097xf16> into tensor<262208xf16>
//   CHECK-DAG:   %[[YC:.+]] = tensor.collapse_shape %[[Y]] {{\[}}[0, 1]] : tensor<64x4097xf16> into tensor<262208xf16>
//       CHECK:   %[[G:.+]] = linalg.generic {{.+}} iterator_types = ["parallel"]} ins(%[[XC]], %[[YC]] : tensor<262208xf16>, tensor<262208xf16>) outs(%{{.+}} : tensor<262208xf16>)
//       CHECK:     arith.addf
//       CHECK:   %[[R:.+]] = tensor.expand_shape %[[G]] {{\[}}[0, 1]] output_shape [64, 4097] : tensor<262208xf16> into tensor<64x4097xf16>
//       CHECK:   return %[[R]]
func.func @odd_rows(%x: tensor<64x4097xf16>, %y: tensor<64x4097xf16>) -> tensor<64x4097xf16> {
  %e = tensor.empty() : tensor<64x4097xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %y : tensor<64x4097xf16>, tensor<64x4097xf16>) outs(%e : tensor<64x4097xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<64x4097xf16>
  return %r : tensor<64x4097xf16>
}

// -----

/// A destination argument, a named op (generalized first), and a leading
/// dynamic size: the static trailing loops merge (4 x 1001 bf16 = 4004,
/// 4 bf16 divide it), the dynamic one stays.
// CHECK-LABEL: func.func @named_into
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x4x1001xbf16>, %[[Y:.+]]: tensor<?x4x1001xbf16>, %[[O:.+]]: tensor<?x4x1001xbf16>)
//   CHECK-DAG:   tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<?x4x1001xbf16> into tensor<?x4004xbf16>
//   CHECK-DAG:   %[[OC:.+]] = tensor.collapse_shape %[[O]] {{\[}}[0], [1, 2]] : tensor<?x4x1001xbf16> into tensor<?x4004xbf16>
//       CHECK:   %[[G:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel"]} {{.+}} outs(%[[OC]] : tensor<?x4004xbf16>)
//       CHECK:     arith.addf
//       CHECK:   tensor.expand_shape %[[G]] {{\[}}[0], [1, 2]] output_shape [%{{.+}}, 4, 1001] : tensor<?x4004xbf16> into tensor<?x4x1001xbf16>
//   CHECK-NOT:   linalg.add
func.func @named_into(%x: tensor<?x4x1001xbf16>, %y: tensor<?x4x1001xbf16>, %o: tensor<?x4x1001xbf16>) -> tensor<?x4x1001xbf16> {
  %r = linalg.add ins(%x, %y : tensor<?x4x1001xbf16>, tensor<?x4x1001xbf16>) outs(%o : tensor<?x4x1001xbf16>) -> tensor<?x4x1001xbf16>
  return %r : tensor<?x4x1001xbf16>
}

// -----

/// i8 rows of 100 take vectors of 4 (of 16); 5 x 4 x 100 = 2000 takes 16:
/// all three loops merge.
// CHECK-LABEL: func.func @i8_rows
//       CHECK:   tensor.collapse_shape %{{.+}} {{\[}}[0, 1, 2]] : tensor<5x4x100xi8> into tensor<2000xi8>
func.func @i8_rows(%x: tensor<5x4x100xi8>) -> tensor<5x4x100xi8> {
  %e = tensor.empty() : tensor<5x4x100xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
    ins(%x : tensor<5x4x100xi8>) outs(%e : tensor<5x4x100xi8>) {
  ^bb0(%a: i8, %o: i8):
    %s = arith.addi %a, %a : i8
    linalg.yield %s : i8
  } -> tensor<5x4x100xi8>
  return %r : tensor<5x4x100xi8>
}

// -----

/// A broadcast along the rows (a bias indexed by the column alone) keeps
/// the loops apart; so does a transpose. Rows a 128-bit vector divides
/// need nothing, and a merge that takes no wider vector (7 x 4097: odd
/// again) is not made.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   tensor.collapse_shape
//   CHECK-NOT:   tensor.expand_shape
//       CHECK:   return
func.func @left_alone(%x: tensor<64x4097xf16>, %b: tensor<4097xf16>, %t: tensor<4097x64xf16>,
                      %w: tensor<64x4096xf16>, %v: tensor<7x4097xf16>)
    -> (tensor<64x4097xf16>, tensor<64x4097xf16>, tensor<64x4096xf16>, tensor<7x4097xf16>) {
  %e = tensor.empty() : tensor<64x4097xf16>
  %bias = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %b : tensor<64x4097xf16>, tensor<4097xf16>) outs(%e : tensor<64x4097xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %c : f16
    linalg.yield %s : f16
  } -> tensor<64x4097xf16>
  %tr = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %t : tensor<64x4097xf16>, tensor<4097x64xf16>) outs(%e : tensor<64x4097xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %c : f16
    linalg.yield %s : f16
  } -> tensor<64x4097xf16>
  %ew = tensor.empty() : tensor<64x4096xf16>
  %aligned = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%w : tensor<64x4096xf16>) outs(%ew : tensor<64x4096xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %a : f16
    linalg.yield %s : f16
  } -> tensor<64x4096xf16>
  %ev = tensor.empty() : tensor<7x4097xf16>
  %odd = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%v : tensor<7x4097xf16>) outs(%ev : tensor<7x4097xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %a : f16
    linalg.yield %s : f16
  } -> tensor<7x4097xf16>
  return %bias, %tr, %aligned, %odd : tensor<64x4097xf16>, tensor<64x4097xf16>, tensor<64x4096xf16>, tensor<7x4097xf16>
}

// -----

/// Other ops depend on the loops: an input another op computes, a result
/// another op reads (the two would be fused into one kernel); a dynamic
/// size outside the innermost one; a plan of the op's own; a reduction.
// CHECK-LABEL: func.func @depended_on
//   CHECK-NOT:   tensor.collapse_shape
//       CHECK:   return
func.func @depended_on(%x: tensor<64x4097xf16>, %d: tensor<?x4097xf16>, %k: tensor<64x4097xf32>)
    -> (tensor<64x4097xf16>, tensor<?x4097xf16>, tensor<64x4097xf16>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64x4097xf16>
  %first = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : tensor<64x4097xf16>) outs(%e : tensor<64x4097xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %a : f16
    linalg.yield %s : f16
  } -> tensor<64x4097xf16>
  %second = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%first : tensor<64x4097xf16>) outs(%e : tensor<64x4097xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.mulf %a, %a : f16
    linalg.yield %s : f16
  } -> tensor<64x4097xf16>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?x4097xf16>
  %ed = tensor.empty(%n) : tensor<?x4097xf16>
  %dyn = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%d : tensor<?x4097xf16>) outs(%ed : tensor<?x4097xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %a : f16
    linalg.yield %s : f16
  } -> tensor<?x4097xf16>
  %planned = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : tensor<64x4097xf16>) outs(%e : tensor<64x4097xf16>)
    attrs = {gpucg.lowering_config = #gpucg.lowering_config<tile_sizes = [[1, 128], [1, 1]]>} {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %a : f16
    linalg.yield %s : f16
  } -> tensor<64x4097xf16>
  %es = tensor.empty() : tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
    ins(%k : tensor<64x4097xf32>) outs(%es : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %second, %dyn, %planned, %sum : tensor<64x4097xf16>, tensor<?x4097xf16>, tensor<64x4097xf16>, tensor<64xf32>
}

// -----

/// A fill: its value is a scalar, which no loop indexes; the fill becomes
/// the generic it stands for, over one loop. An empty tensor is left as it
/// is (workgroup tiling refuses it).
// CHECK-LABEL: func.func @fill
//       CHECK:   %[[G:.+]] = linalg.generic {{.+}} iterator_types = ["parallel"]} ins(%{{.+}} : f16) outs(%{{.+}} : tensor<262208xf16>)
//       CHECK:   tensor.expand_shape %[[G]] {{\[}}[0, 1]] output_shape [64, 4097]
//   CHECK-NOT:   linalg.fill
// CHECK-LABEL: func.func @empty
//   CHECK-NOT:   tensor.collapse_shape
func.func @fill(%v: f16) -> tensor<64x4097xf16> {
  %e = tensor.empty() : tensor<64x4097xf16>
  %r = linalg.fill ins(%v : f16) outs(%e : tensor<64x4097xf16>) -> tensor<64x4097xf16>
  return %r : tensor<64x4097xf16>
}
func.func @empty(%x: tensor<0x4097xf16>) -> tensor<0x4097xf16> {
  %e = tensor.empty() : tensor<0x4097xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : tensor<0x4097xf16>) outs(%e : tensor<0x4097xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %a : f16
    linalg.yield %s : f16
  } -> tensor<0x4097xf16>
  return %r : tensor<0x4097xf16>
}
