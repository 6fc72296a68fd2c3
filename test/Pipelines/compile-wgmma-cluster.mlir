// gpucg-compile on sm_90a with thread-block clusters of 2 x 2 workgroups
// (wgmma-cluster-m=2 wgmma-cluster-n=2): each warp-specialized kernel's
// workgroups share A's tile along N and B's along M by TMA multicast. The
// kernel declares its cluster shape (.reqnctapercluster, so a plain launch
// runs it in clusters), initialises its barriers before a cluster barrier,
// multicasts its slices of A and B, and releases a stage to its peers with
// remote mbarrier arrivals. ptxas for sm_90a without spills; SASS with
// multicast TMA loads, remote arrivals (RED) and the cluster barrier.
// RUN: rm -rf %t && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t wgmma-cluster-m=2 wgmma-cluster-n=2})' -o %t.mlir
// RUN: gpucg-opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/linear_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_kernel.abi
// RUN: FileCheck %s --check-prefix=LINEAR-ABI < %t/linear_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/matmul_kernel.ptx -o %t/m.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_kernel.ptx -o %t/l.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas && sass %{ %cuobjdump -sass %t/m.cubin | FileCheck %s --check-prefix=SASS %}
// RUN: %if ptxas && sass %{ %cuobjdump -sass %t/l.cubin | FileCheck %s --check-prefix=SASS %}
// Without the options the same kernels have no clusters.
// RUN: rm -rf %t.plain && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t.plain})' -o /dev/null
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain/matmul_kernel.ptx

// PTX: .explicitcluster
// PTX-NEXT: .reqnctapercluster 2, 2, 1
// PTX: mbarrier.init.shared.b64
// PTX: fence.mbarrier_init.release.cluster
// PTX: barrier.cluster.arrive.aligned
// PTX-NEXT: barrier.cluster.wait.aligned
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: mapa.shared::cluster.u64
// PTX: mbarrier.arrive.release.cluster.shared::cluster.b64 _,
// PTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64

// PLAIN-NOT: reqnctapercluster
// PLAIN-NOT: multicast
// PLAIN-NOT: barrier.cluster

// The grid (8 x 8 tiles of 128x128) is a whole number of clusters; the
// slices' tensor maps (A: 64 of the tile's 128 rows; B: 32 of a 64x64
// box's K rows) come before the whole tiles' maps the wgmma descriptors use.
// ABI: grid_x 8
// ABI: grid_y 8
// ABI: block_x 384
// ABI: argument 0 function_argument 0 tensor_map f16 1024x512 box 64x64 swizzle 128b
// ABI: argument 1 function_argument 1 tensor_map f16 512x1024 box 32x64 swizzle 128b
// ABI: argument 2 function_argument 0 tensor_map f16 1024x512 box 128x64 swizzle 128b
// ABI: argument 3 function_argument 1 tensor_map f16 512x1024 box 64x64 swizzle 128b

// B[n, k]: a B slice is 64 of the tile's 128 rows of N.
// LINEAR-ABI: tensor_map bf16 1024x512 box 64x64 swizzle 128b
// LINEAR-ABI: tensor_map bf16 2048x512 box 64x64 swizzle 128b
// LINEAR-ABI: tensor_map bf16 1024x512 box 128x64 swizzle 128b
// LINEAR-ABI: tensor_map bf16 2048x512 box 128x64 swizzle 128b

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// SASS: UCGABAR_ARV
// SASS: UCGABAR_WAIT
// SASS-DAG: UTMALDG.2D.MULTICAST
// SASS-DAG: SYNCS.ARRIVE.TRANS64.RED

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @matmul(%a: tensor<1024x512xf16>, %b: tensor<512x1024xf16>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf16>, tensor<512x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    return %0 : tensor<1024x1024xf32>
  }
  func.func @linear(%a: tensor<1024x512xbf16>, %w: tensor<2048x512xbf16>, %c: tensor<1024x2048xf32>) -> tensor<1024x2048xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<1024x512xbf16>, tensor<2048x512xbf16>) outs(%f : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    return %0 : tensor<1024x2048xf32>
  }
}
