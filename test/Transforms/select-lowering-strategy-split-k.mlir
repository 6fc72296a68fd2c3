// Split-K (split-k=0, the default): a MatmulTensorCoreMmaSync plan the
// strategy chooses with fewer output tiles than the target's SMs splits
// each tile's K loop into the fewest parts (at most 16, each of at least 4
// K steps, each a whole number of 16-byte vectors) that give every SM a
// workgroup; the report says why, and why not where a kernel with a K
// long enough to share cannot take it. Only unbatched static matmuls whose
// A and B are kernel arguments and whose accumulator starts from a fill of
// zero split.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s
// split-k=1 keeps every K loop whole; split-k=2 asks for 2 parts, which a
// kernel that cannot take them declines with a note.
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true split-k=1}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy{report=true split-k=2}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO
// The plans parse, verify and keep their split:
// RUN: gpucg-opt %s --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' \
// RUN:   | gpucg-opt --pass-pipeline='builtin.module(func.func(gpucg-select-lowering-strategy))' | FileCheck %s --check-prefix=AGAIN

// Llama-3-8B's k/v projection at M = 128 on sm_90 (132 SMs): 128 x 1024 in
// 32 x 32 tiles is 128 tiles; 2 parts of 2048 give 256 workgroups.
// REMARK: remark: plan of @llama_kv_m128: {{.*}}, 4 stages, K split into 2 parts (split-K, one workgroup each) on sm_90; split-K by default: 128 tiles are fewer than the 132 SMs, so K = 4096 is split into 2 parts of 2048 (256 workgroups), added in a fixed order
// Enough tiles (1000^3 in 64 x 64 tiles: 256), a short K, a batch: whole K,
// without a word.
// REMARK: remark: plan of @cube_1000: {{.*}} stages on sm_90{{$}}
// REMARK: remark: plan of @many_tiles: {{.*}} stages on sm_90{{$}}
// REMARK: remark: plan of @short_k: {{.*}} stages on sm_90{{$}}
// REMARK: remark: plan of @batched: {{.*}} stages on sm_90{{$}}
// C += A * B and a fused producer: whole K, and why.
// REMARK: remark: plan of @accumulate: {{.*}} stages on sm_90; no split-K: 4 tiles are fewer than the 132 SMs, but the accumulator does not start from a linalg.fill of zero (each part sums its own products, and the parts are added once)
// REMARK: remark: plan of @producer: {{.*}} stages on sm_90; no split-K: 4 tiles are fewer than the 132 SMs, but operand #0 of the matmul is computed in the kernel (a fused producer), and each part of K reads its slice of a kernel argument

// CHECK-LABEL: func.func @llama_kv_m128
// CHECK-SAME: pipeline = MatmulTensorCoreMmaSync, {{.*}}, split_k = 2>
// CHECK-LABEL: func.func @cube_1000
// CHECK-NOT: split_k
// CHECK-LABEL: func.func @many_tiles
// CHECK-NOT: split_k
// CHECK-LABEL: func.func @short_k
// CHECK-NOT: split_k
// CHECK-LABEL: func.func @batched
// CHECK-NOT: split_k
// CHECK-LABEL: func.func @accumulate
// CHECK-NOT: split_k
// CHECK-LABEL: func.func @producer
// CHECK-NOT: split_k

// NONE: remark: plan of @llama_kv_m128: {{.*}} stages on sm_90{{$}}
// NONE: remark: plan of @accumulate: {{.*}} stages on sm_90{{$}}

// TWO: remark: plan of @llama_kv_m128: {{.*}}, K split into 2 parts (split-K, one workgroup each) on sm_90{{$}}
// TWO: remark: plan of @cube_1000: {{.*}} on sm_90; a split of K into 2 parts not taken: a part of K of 500 f16 elements is 1000 bytes, not a multiple of 16: the next part's rows would start off the 16-byte alignment of the operands' async copies
// TWO: remark: plan of @many_tiles: {{.*}}, K split into 2 parts (split-K, one workgroup each) on sm_90{{$}}
// TWO: remark: plan of @short_k: {{.*}} on sm_90; a split of K into 2 parts not taken: a part of K of 32 elements is less than two K steps of 32 (the K loop a part's sum is published after)
// TWO: remark: plan of @batched: {{.*}} on sm_90; a split of K into 2 parts not taken: the matmul has batch loops, which take grid z
// TWO: remark: plan of @accumulate: {{.*}} on sm_90; a split of K into 2 parts not taken: the accumulator does not start from a linalg.fill of zero (each part sums its own products, and the parts are added once)
// TWO: remark: plan of @producer: {{.*}} on sm_90; a split of K into 2 parts not taken: operand #0 of the matmul is computed in the kernel (a fused producer), and each part of K reads its slice of a kernel argument

// AGAIN-LABEL: func.func @llama_kv_m128
// AGAIN-SAME: split_k = 2>

module attributes {gpucg.target = #gpucg.target<chip = "sm_90">} {
  func.func @llama_kv_m128(%a: tensor<128x4096xf16>, %b: tensor<4096x1024xf16>) -> tensor<128x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x1024xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<128x4096xf16>, tensor<4096x1024xf16>) outs(%f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    return %0 : tensor<128x1024xf32>
  }
  func.func @cube_1000(%a: tensor<1000x1000xf16>, %b: tensor<1000x1000xf16>) -> tensor<1000x1000xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1000x1000xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1000x1000xf16>, tensor<1000x1000xf16>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    return %0 : tensor<1000x1000xf32>
  }
  func.func @many_tiles(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>) -> tensor<2048x2048xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2048x2048xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%f : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
    return %0 : tensor<2048x2048xf32>
  }
  func.func @short_k(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>) -> tensor<128x128xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %0 : tensor<128x128xf32>
  }
  func.func @batched(%a: tensor<2x64x2048xf16>, %b: tensor<2x2048x64xf16>) -> tensor<2x64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x64x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
    %0 = linalg.batch_matmul ins(%a, %b : tensor<2x64x2048xf16>, tensor<2x2048x64xf16>) outs(%f : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
    return %0 : tensor<2x64x64xf32>
  }
  func.func @accumulate(%a: tensor<64x2048xf16>, %b: tensor<2048x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<64x2048xf16>, tensor<2048x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
  func.func @producer(%a: tensor<64x2048xf16>, %b: tensor<2048x64xf16>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %ea = tensor.empty() : tensor<64x2048xf16>
    %neg = linalg.negf ins(%a : tensor<64x2048xf16>) outs(%ea : tensor<64x2048xf16>) -> tensor<64x2048xf16>
    %e = tensor.empty() : tensor<64x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %0 = linalg.matmul ins(%neg, %b : tensor<64x2048xf16>, tensor<2048x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}
