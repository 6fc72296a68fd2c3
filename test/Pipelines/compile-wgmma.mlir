// gpucg-compile on sm_90a: a zero-filled f16 (and bf16) matmul into f32
// takes pipeline MatmulWgmma. A and B are loaded by TMA (one A box of
// 128x64 and 64-column B boxes of 64x64 per K step) into a ring of stages
// in 1024-aligned dynamic shared memory, waited on with mbarrier phases and
// multiplied by wgmma with the accumulator in registers. @matmul is warp
// specialized (one producer warpgroup that issues the TMA loads with 40
// registers, two consumer warpgroups of 64 rows with 232 that release
// stages on empty barriers); @matmul_one_warpgroup (a user's plan) and
// @matmul_bf16 (M = 192: no warp-specialized tile divides it) run one
// warpgroup that does both. The ABI files describe the tensor maps the
// launcher builds. ptxas for sm_90a without spills; SASS with HGMMA and
// UTMALDG where a disassembler is present.
// The kernels below are checked with K whole (split-k=1); several have
// fewer tiles than SMs and would split K by default (a decode step's, with
// its default split, is checked at the end of this list).
// RUN: rm -rf %t && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t split-k=1})' -o %t.mlir
// RUN: gpucg-opt %t.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=ABI < %t/matmul_kernel.abi
// RUN: FileCheck %s --check-prefix=PTX < %t/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=ONE < %t/matmul_one_warpgroup_kernel.ptx
// RUN: FileCheck %s --check-prefix=BF16 < %t/matmul_bf16_kernel.ptx
// RUN: FileCheck %s --check-prefix=ABI64 < %t/matmul_bf16_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/matmul_kernel.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/matmul_one_warpgroup_kernel.ptx -o %t/o.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/matmul_bf16_kernel.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/k.cubin | FileCheck %s --check-prefix=SASS %}
// RUN: FileCheck %s --check-prefix=DESC < %t/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=NT < %t/linear_kernel.ptx
// RUN: FileCheck %s --check-prefix=NTABI < %t/linear_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_kernel.ptx -o %t/n.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: FileCheck %s --check-prefix=EPILOGUE < %t/linear_bias_relu_kernel.ptx
// RUN: FileCheck %s --check-prefix=EPILOGUE-ABI < %t/linear_bias_relu_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_bias_relu_kernel.ptx -o %t/e.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// C += A * B (@accumulate: no zero fill): the staged product plus C's prior
// contents, 16 bytes at a time (ld.global.v4 of C, st.global.v4 of the
// sum), with as many registers as @matmul's kernel and no spills.
// RUN: FileCheck %s --check-prefix=ACCUMULATE < %t/accumulate_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/accumulate_kernel.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/a.cubin | FileCheck %s --check-prefix=SASS-ACCUMULATE %}
// Small M (@decode, a linear layer on 16 tokens): the transposed tile, C^T
// = W * x^T, as m64n16k16 wgmma (the tokens as wgmma's N), the fragment
// stored down C's columns into the staging buffer, then 16-byte stores to
// C; no spills, and HGMMA and TMA loads in the SASS.
// RUN: FileCheck %s --check-prefix=DECODE < %t/decode_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/decode_kernel.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/d.cubin | FileCheck %s --check-prefix=SASS-DECODE %}
// RUN: rm -rf %t.default && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t.default})' -o /dev/null
// RUN: FileCheck %s --check-prefix=SPLIT-DECODE-ABI < %t.default/decode_kernel.abi
// RUN: FileCheck %s --check-prefix=SPLIT-DECODE < %t.default/decode_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.default/decode_kernel.ptx -o %t.default/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// A batch (@attention_scores, Q K^T over 8 heads): the batch on grid z, the
// tensor maps built on the heads' rows stacked (the ABI's grid and the
// host's collapsed memref descriptors), the same wgmma main loop; no spills,
// and HGMMA and TMA loads in the SASS.
// RUN: FileCheck %s --check-prefix=BATCH-ABI < %t/attention_scores_kernel.abi
// RUN: FileCheck %s --check-prefix=BATCH < %t/attention_scores_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/attention_scores_kernel.ptx -o %t/s.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/s.cubin | FileCheck %s --check-prefix=SASS-BATCH %}
// Two batch loops (@attention_heads, Q K^T over a batch of 2 and 8 heads):
// both share grid z (16 workgroups' worth, linearized), the same main
// loop; no spills.
// RUN: FileCheck %s --check-prefix=HEADS-ABI < %t/attention_heads_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/attention_heads_kernel.ptx -o %t/h.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/h.cubin | FileCheck %s --check-prefix=SASS-HEADS %}
// A dynamic M (@linear_tokens, x * W^T for a prompt's tokens known at run
// time): the grid's rows and A's tensor map from the sizes the caller
// passes (memref descriptors), the same wgmma main loop; no spills, and
// HGMMA and TMA loads in the SASS.
// RUN: FileCheck %s --check-prefix=DYNAMIC-ABI < %t/linear_tokens_kernel.abi
// RUN: FileCheck %s --check-prefix=DYNAMIC < %t/linear_tokens_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_tokens_kernel.ptx -o %t/t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/t.cubin | FileCheck %s --check-prefix=SASS-DYNAMIC %}
// Every size dynamic (@hidden_size, x * W^T + bias to bf16 with the
// hidden sizes known at run time): the grid from M and N, both tensor
// maps and the K loop's steps from the sizes the caller passes, the same
// wgmma main loop; the staged store's whole pieces one 128-bit store each
// where their address is 16-byte aligned at run time (C's row pitch is a
// run-time size), element stores otherwise; no spills, and HGMMA and TMA
// loads in the SASS.
// RUN: FileCheck %s --check-prefix=HIDDEN-ABI < %t/hidden_size_kernel.abi
// RUN: FileCheck %s --check-prefix=HIDDEN < %t/hidden_size_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/hidden_size_kernel.ptx -o %t/hs.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/hs.cubin | FileCheck %s --check-prefix=SASS-HIDDEN %}
// A transposed A (@weight_grad, dW = X^T * dY over 2048 tokens): A[k, m]
// loaded in boxes of 64 columns of M by 64 rows of K and multiplied as
// wgmma's transposed A times its transposed B (imm-trans-a and imm-trans-b
// both 1), one m64n128k16 per k16 step; no spills, and HGMMA and TMA
// loads in the SASS.
// RUN: FileCheck %s --check-prefix=GRAD-ABI < %t/weight_grad_kernel.abi
// RUN: FileCheck %s --check-prefix=GRAD < %t/weight_grad_kernel.ptx
// RUN: FileCheck %s --check-prefix=GRAD-TRANSPOSED < %t/weight_grad_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/weight_grad_kernel.ptx -o %t/g.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/g.cubin | FileCheck %s --check-prefix=SASS-GRAD %}
// A[k, m] times B[n, k] (@grad_tt, (dY^T X)^T's layout): computed as C^T
// = B^T * A^T, B[n, k] as wgmma's K-major A and A[k, m] as its N-major B
// (imm-trans-a 0, imm-trans-b 1), one m64n128k16 per k16 step of the 64
// (four per K tile), the fragment stored down C's columns into the staging
// buffer; no spills, and HGMMA and TMA loads in the SASS.
// RUN: FileCheck %s --check-prefix=TT < %t/grad_tt_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/grad_tt_kernel.ptx -o %t/tt.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/tt.cubin | FileCheck %s --check-prefix=SASS-TT %}
// The same with a dynamic M (@grad_tt_tokens, the tokens known at run
// time): the grid's rows and A's tensor map from A's run-time columns, the
// same wgmma; no spills, HGMMA and TMA loads in the SASS.
// RUN: FileCheck %s --check-prefix=TT-DYN-ABI < %t/grad_tt_tokens_kernel.abi
// RUN: FileCheck %s --check-prefix=TT-DYN < %t/grad_tt_tokens_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/grad_tt_tokens_kernel.ptx -o %t/ttd.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/ttd.cubin | FileCheck %s --check-prefix=SASS-TT-DYN %}
// Small M with B[k, n] (@decode_kn, 16 tokens times weights stored [k,
// n]): one padded 64-row tile, untransposed (B[k, n] as wgmma's N-major B,
// imm-trans-b 1), m64n64k16; no spills, HGMMA and TMA loads in the SASS.
// RUN: FileCheck %s --check-prefix=DECODE-KN < %t/decode_kn_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/decode_kn_kernel.ptx -o %t/dkn.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/dkn.cubin | FileCheck %s --check-prefix=SASS-DECODE-KN %}
// f32 operands (@linear_f32, x * W^T in f32): TF32 on wgmma, f32 tensor
// maps in boxes of 32 columns (128 bytes), m64n256k8.f32.tf32.tf32 per k8
// step; no spills, and HGMMA and TMA loads in the SASS.
// RUN: FileCheck %s --check-prefix=F32-ABI < %t/linear_f32_kernel.abi
// RUN: FileCheck %s --check-prefix=F32 < %t/linear_f32_kernel.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/linear_f32_kernel.ptx -o %t/f.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if sass %{ %sass_mix %t/f.cubin | FileCheck %s --check-prefix=SASS-F32 %}
// A persistent grid of 4 workgroups: the warp-specialized @matmul (16 tiles)
// launches 4; the others keep one workgroup per tile.
// RUN: rm -rf %t.p && mkdir %t.p && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-matmul-wgmma{chip=sm_90a wgmma-persistent=true wgmma-persistent-workgroups=4},gpucg-lower-to-nvvm{chip=sm_90a format=isa},gpucg-export-kernels{output-dir=%t.p})' -o /dev/null
// RUN: FileCheck %s --check-prefix=PERSISTENT < %t.p/matmul_kernel.abi
// RUN: FileCheck %s --check-prefix=PERSISTENT-ONE < %t.p/matmul_one_warpgroup_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.p/matmul_kernel.ptx -o %t.p/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// The same through gpucg-compile's options:
// RUN: rm -rf %t.c && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t.c wgmma-persistent=true wgmma-persistent-workgroups=4})' -o /dev/null
// RUN: FileCheck %s --check-prefix=PERSISTENT < %t.c/matmul_kernel.abi
// A staged store (gpucg-compile's wgmma-staged-store): the plain matmul's
// accumulator goes through the ring (4 stages of 32 KB hold its 128 x 136
// f32 staging buffer) and each thread copies 16-byte pieces of it to C; no
// more shared memory than the plain kernel.
// RUN: rm -rf %t.s && gpucg-opt %s --pass-pipeline='builtin.module(gpucg-compile{format=isa output-dir=%t.s wgmma-staged-store=true})' -o %t.s.mlir
// RUN: gpucg-opt %t.s.mlir > /dev/null
// RUN: FileCheck %s --check-prefix=STAGED < %t.s/matmul_kernel.ptx
// RUN: FileCheck %s --check-prefix=STAGED-ABI < %t.s/matmul_kernel.abi
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.s/matmul_kernel.ptx -o %t.s/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// STAGED: .entry matmul_kernel(
// STAGED: wgmma.wait_group.sync.aligned 0
// STAGED: fence.proxy.async.shared::cta
// STAGED: bar.sync 3, 256
// STAGED: st.shared.v2.b32
// STAGED: bar.sync %r{{[0-9]+}}, 128
// STAGED: ld.shared.v4.b32
// STAGED: st.global.v4.b32
// STAGED-NOT: st.global.{{[bf]}}32
// STAGED-ABI: dynamic_shared_memory 131072

// PERSISTENT: grid_x 4
// PERSISTENT-NEXT: grid_y 1
// PERSISTENT: block_x 384
// PERSISTENT-ONE: grid_x 2
// PERSISTENT-ONE-NEXT: grid_y 2

// ABI: chip sm_90a
// ABI: grid_x 4
// ABI-NEXT: grid_y 4
// ABI-NEXT: grid_z 1
// ABI-NEXT: block_x 384
// ABI-NEXT: block_y 1
// ABI-NEXT: block_z 1
// 4 stages of a 128x64 A tile and a 64x128 B tile of f16.
// ABI-NEXT: dynamic_shared_memory 131072
// ABI-NEXT: arguments 3
// ABI-NEXT: argument 0 function_argument 0 tensor_map f16 512x256 box 128x64 swizzle 128b
// ABI-NEXT: argument 1 function_argument 1 tensor_map f16 256x512 box 64x64 swizzle 128b
// ABI-NEXT: argument 2 function_argument 2 memref f32 512x512

// The tensor maps are pointer parameters.
// PTX: .target sm_90a
// PTX: .entry matmul_kernel(
// PTX-NEXT: .param .u64 .ptr .align 1 matmul_kernel_param_0,
// PTX-NEXT: .param .u64 .ptr .align 1 matmul_kernel_param_1,
// PTX-NEXT: .param .u64 .ptr .align 1 matmul_kernel_param_2
// PTX: .maxntid 384, 1, 1
// Full barriers (__mbarrier) of one arrival, empty ones (__mbarrier_0) of
// the 256 consumer threads.
// PTX-DAG: .shared .align 8 .b8 __mbarrier[32];
// PTX-DAG: .shared .align 8 .b8 __mbarrier_0[32];
// PTX-DAG: .shared .align 1024 .b8 __dynamic_shmem__0;
// PTX: mov.b32 [[ARRIVALS:%r[0-9]+]], 1;
// PTX-NEXT: mbarrier.init.shared.b64 [__mbarrier], [[ARRIVALS]];
// PTX-NEXT: mov.b32 [[CONSUMERS:%r[0-9]+]], 256;
// PTX-NEXT: mbarrier.init.shared.b64 [__mbarrier_0], [[CONSUMERS]];
// PTX: fence.mbarrier_init.release.cluster;
// PTX: prefetch.tensormap
// PTX: bar.sync
// PTX-NOT: bar.sync
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: wgmma.fence.sync.aligned
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned
// PTX: wgmma.wait_group.sync.aligned 1
// PTX: mbarrier.arrive.shared.b64 {{.*}}, [__mbarrier_0]
// PTX: wgmma.wait_group.sync.aligned 0
// K = 256 is 4 K tiles in 4 stages: the producer never waits for a
// released stage here (test/Transforms/lower-matmul-to-wgmma.mlir has the
// wait).
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-NOT: .local

// The constant fields of the wgmma matrix descriptors MLIR 22 encodes
// (bits 16-29 leading byte offset >> 4, 32-45 stride byte offset >> 4,
// 62-63 swizzle, 1: 128B): A (K-major) 0x4000004004000000, stride 1024 (8
// rows of 128 bytes); B (N-major) 0x4000004002000000, leading 8192 (the
// distance between its 64-column blocks in the ring) and stride 1024. The
// CPU emulator's layout model is that layout; that wgmma reads the fields
// so is for the GPU test (bench-check-wgmma.test) to confirm. A change here
// is a change upstream: check it against the model.
// DESC: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 4611686293372403712;
// DESC: or.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 4611686293338849280;

// One warpgroup: thread 0 refills a stage after a barrier, no register
// moves; its 128 rows are two 64-row accumulators, two groups per K step,
// the second waiting until at most two are in flight.
// ONE: .maxntid 128, 1, 1
// ONE-NOT: setmaxnreg
// ONE: mbarrier.try_wait.parity.shared.b64
// ONE: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// ONE: wgmma.wait_group.sync.aligned 2
// ONE: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// ONE: wgmma.wait_group.sync.aligned 2
// ONE: bar.sync
// ONE: cp.async.bulk.tensor.2d
// ONE: wgmma.wait_group.sync.aligned 0
// ONE-NOT: .local

// BF16: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// BF16-NOT: .local
// ABI64: grid_x 2
// ABI64-NEXT: grid_y 3
// 2 stages (K = 128) of a 64x64 A tile and a 64x256 B tile.
// ABI64: dynamic_shared_memory 81920
// ABI64: argument 1 function_argument 0 tensor_map bf16 192x128 box 64x64 swizzle 128b
// ABI64: argument 2 function_argument 1 tensor_map bf16 128x512 box 64x64 swizzle 128b

// @linear (C = A * W^T, W[n, k]): W loaded like A, one wgmma per k16 step,
// without the transposed-B flag (imm-trans-b 0).
// NTABI: block_x 384
// NTABI: argument 1 function_argument 1 tensor_map bf16 2048x512 box 128x64 swizzle 128b
// NT: .maxntid 384, 1, 1
// NT: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// NT-NOT: .local

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// The fused epilogue: 4 stages of 128x64 + 128x64 bf16 tiles (a K-contiguous
// B takes 64-row consumers: 128x128 tiles), whose 128 KB also hold the
// 128 x 136 f32 staging buffer once all K steps have retired (a proxy
// fence and a barrier of the 256 consumer threads); the accumulator stored to it (pairs of f32 in
// 64-bit st.shared),
// each consumer's named barrier of 128 threads, 128-bit reads of the staged
// rows and of the bias, ReLU, and 128-bit stores of 8 bf16.
// EPILOGUE-ABI: block_x 384
// EPILOGUE-ABI: dynamic_shared_memory 131072
// EPILOGUE: .entry linear_bias_relu_kernel(
// EPILOGUE: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// EPILOGUE: fence.proxy.async.shared::cta;
// EPILOGUE-NEXT: bar.sync 3, 256;
// EPILOGUE: st.shared.v2.b32
// EPILOGUE: bar.sync {{%r[0-9]+}}, 128;
// EPILOGUE: ld.shared.v4.b32
// EPILOGUE: max.NaN.f32
// EPILOGUE: st.global.v4.b32

// ACCUMULATE: .entry accumulate_kernel(
// ACCUMULATE: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// ACCUMULATE: st.shared.v2.b32
// ACCUMULATE: bar.sync {{%r[0-9]+}}, 128;
// ACCUMULATE: ld.shared.v4.b32
// ACCUMULATE: ld.global.v4.b32
// ACCUMULATE: add.rn.f32
// ACCUMULATE: st.global.v4.b32
// ACCUMULATE-NOT: st.global.{{[bf]}}32

// SASS-ACCUMULATE:      kernel accumulate_kernel
// SASS-ACCUMULATE:      LDL 0
// SASS-ACCUMULATE-NEXT: STL 0
// SASS-ACCUMULATE:      HGMMA {{[1-9][0-9]*}}
// SASS-ACCUMULATE-NEXT: QGMMA 0
// SASS-ACCUMULATE-NEXT: UTMALDG {{[1-9][0-9]*}}

// DECODE: .entry decode_kernel(
// DECODE: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// DECODE-COUNT-8: st.shared.b32
// DECODE: ld.shared.v4.b32
// DECODE: st.global.v4.b32
// DECODE-NOT: st.global.{{[bf]}}32

// By default the decode step's 16 tiles, fewer than the SMs, split K in
// 2 parts: 16-byte stores of the part's sum to the workspace, the arrival
// counted, and the last workgroup of the tile adds the parts and stores C
// in 16-byte stores.
// SPLIT-DECODE-ABI: grid_x 16
// SPLIT-DECODE-ABI-NEXT: grid_y 1
// SPLIT-DECODE-ABI-NEXT: grid_z 2
// SPLIT-DECODE: .entry decode_kernel(
// SPLIT-DECODE: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// SPLIT-DECODE-COUNT-8: st.shared.b32
// SPLIT-DECODE: ld.shared.v4.b32
// SPLIT-DECODE: st.global.v4.b32
// SPLIT-DECODE: membar.gl;
// SPLIT-DECODE: atom.global.add.u32
// SPLIT-DECODE: st.global.b32 [%rd{{[0-9]+}}], 0;
// SPLIT-DECODE: ld.global.v4.b32
// SPLIT-DECODE: add.rn.f32
// SPLIT-DECODE: ld.shared.v4.b32
// SPLIT-DECODE: st.global.v4.b32
// SPLIT-DECODE-NOT: st.global.f32

// SASS-DECODE:      kernel decode_kernel
// SASS-DECODE:      LDL 0
// SASS-DECODE-NEXT: STL 0
// SASS-DECODE:      HGMMA {{[1-9][0-9]*}}
// SASS-DECODE-NEXT: QGMMA 0
// SASS-DECODE-NEXT: UTMALDG {{[1-9][0-9]*}}

// BATCH-ABI: grid_z 8
// BATCH-ABI: argument 0 function_argument 0 tensor_map bf16 8x512x128 box 128x64 swizzle 128b
// BATCH-ABI: argument 1 function_argument 1 tensor_map bf16 8x512x128 box 128x64 swizzle 128b
// BATCH: .entry attention_scores_kernel(
// BATCH-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// BATCH-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes

// SASS-BATCH:      kernel attention_scores_kernel
// SASS-BATCH:      LDL 0
// SASS-BATCH-NEXT: STL 0
// SASS-BATCH:      HGMMA {{[1-9][0-9]*}}
// SASS-BATCH-NEXT: QGMMA 0
// SASS-BATCH-NEXT: UTMALDG {{[1-9][0-9]*}}

// HEADS-ABI: grid_z 16
// HEADS-ABI: argument 0 function_argument 0 tensor_map bf16 2x8x512x128 box 128x64 swizzle 128b

// SASS-HEADS:      kernel attention_heads_kernel
// SASS-HEADS:      LDL 0
// SASS-HEADS-NEXT: STL 0
// SASS-HEADS:      HGMMA {{[1-9][0-9]*}}
// SASS-HEADS-NEXT: QGMMA 0
// SASS-HEADS-NEXT: UTMALDG {{[1-9][0-9]*}}

// DYNAMIC-ABI: calling_convention memref_descriptors
// DYNAMIC-ABI: grid_x 32
// DYNAMIC-ABI: grid_y ceildiv arg0.dim0 128
// DYNAMIC-ABI: argument {{[0-9]+}} function_argument 0 tensor_map bf16 ?x4096 box 128x64 swizzle 128b
// DYNAMIC-ABI: argument {{[0-9]+}} function_argument 1 tensor_map bf16 4096x4096 box 128x64 swizzle 128b
// DYNAMIC: .entry linear_tokens_kernel(
// DYNAMIC: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// SASS-DYNAMIC:      kernel linear_tokens_kernel
// SASS-DYNAMIC:      LDL 0
// SASS-DYNAMIC-NEXT: STL 0
// SASS-DYNAMIC:      HGMMA {{[1-9][0-9]*}}
// SASS-DYNAMIC-NEXT: QGMMA 0
// SASS-DYNAMIC-NEXT: UTMALDG {{[1-9][0-9]*}}
// HIDDEN-ABI: calling_convention memref_descriptors
// HIDDEN-ABI: grid_x ceildiv arg1.dim0 128
// HIDDEN-ABI: grid_y ceildiv arg0.dim0 128
// HIDDEN-ABI: argument {{[0-9]+}} function_argument 0 tensor_map bf16 ?x? box 128x64 swizzle 128b
// HIDDEN-ABI: argument {{[0-9]+}} function_argument 1 tensor_map bf16 ?x? box 128x64 swizzle 128b
// HIDDEN: .entry hidden_size_kernel(
// HIDDEN: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// HIDDEN: st.global.v4.b32
// HIDDEN: st.global.b16
// SASS-HIDDEN:      kernel hidden_size_kernel
// SASS-HIDDEN:      STG.E.128 {{[1-9][0-9]*}}
// SASS-HIDDEN:      LDL 0
// SASS-HIDDEN-NEXT: STL 0
// SASS-HIDDEN:      HGMMA {{[1-9][0-9]*}}
// SASS-HIDDEN-NEXT: QGMMA 0
// SASS-HIDDEN-NEXT: UTMALDG {{[1-9][0-9]*}}

// GRAD-ABI: argument {{[0-9]+}} function_argument 0 tensor_map bf16 2048x1024 box 64x64 swizzle 128b
// GRAD-ABI: argument {{[0-9]+}} function_argument 1 tensor_map bf16 2048x512 box 64x64 swizzle 128b
// GRAD: .entry weight_grad_kernel(
// GRAD-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1, 1;
// GRAD-TRANSPOSED-NOT: {{p, 1, 1, (0, [01]|1, 0);}}

// TT: .entry grad_tt_kernel(
// TT-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
// TT: st.shared.b32
// SASS-TT:      kernel grad_tt_kernel
// SASS-TT:      LDL 0
// SASS-TT-NEXT: STL 0
// SASS-TT:      HGMMA {{[1-9][0-9]*}}
// SASS-TT-NEXT: QGMMA 0
// SASS-TT-NEXT: UTMALDG {{[1-9][0-9]*}}
// TT-DYN-ABI: grid_y ceildiv arg0.dim1 128
// TT-DYN-ABI: argument {{[0-9]+}} function_argument 0 tensor_map bf16 2048x? box 64x64 swizzle 128b
// TT-DYN: .entry grad_tt_tokens_kernel(
// TT-DYN-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
// SASS-TT-DYN:      kernel grad_tt_tokens_kernel
// SASS-TT-DYN:      LDL 0
// SASS-TT-DYN-NEXT: STL 0
// SASS-TT-DYN:      HGMMA {{[1-9][0-9]*}}
// SASS-TT-DYN-NEXT: QGMMA 0
// SASS-TT-DYN-NEXT: UTMALDG {{[1-9][0-9]*}}
// DECODE-KN: .entry decode_kn_kernel(
// DECODE-KN: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
// SASS-DECODE-KN:      kernel decode_kn_kernel
// SASS-DECODE-KN:      LDL 0
// SASS-DECODE-KN-NEXT: STL 0
// SASS-DECODE-KN:      HGMMA {{[1-9][0-9]*}}
// SASS-DECODE-KN-NEXT: QGMMA 0
// SASS-DECODE-KN-NEXT: UTMALDG {{[1-9][0-9]*}}
// SASS-GRAD:      kernel weight_grad_kernel
// SASS-GRAD:      LDL 0
// SASS-GRAD-NEXT: STL 0
// SASS-GRAD:      HGMMA {{[1-9][0-9]*}}
// SASS-GRAD-NEXT: QGMMA 0
// SASS-GRAD-NEXT: UTMALDG {{[1-9][0-9]*}}

// F32-ABI: argument {{[0-9]+}} function_argument 0 tensor_map f32 2048x1024 box 128x32 swizzle 128b
// F32-ABI: argument {{[0-9]+}} function_argument 1 tensor_map f32 4096x1024 box 256x32 swizzle 128b
// F32: .entry linear_f32_kernel(
// F32-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32

// SASS-F32:      kernel linear_f32_kernel
// SASS-F32:      LDL 0
// SASS-F32-NEXT: STL 0
// SASS-F32:      HGMMA {{[1-9][0-9]*}}
// SASS-F32-NEXT: QGMMA 0
// SASS-F32-NEXT: UTMALDG {{[1-9][0-9]*}}

// SASS:      kernel matmul_kernel
// SASS:      LDL 0
// SASS-NEXT: STL 0
// SASS:      HGMMA {{[1-9][0-9]*}}
// SASS-NEXT: QGMMA 0
// SASS-NEXT: UTMALDG {{[1-9][0-9]*}}
// SASS-NEXT: UTMASTG 0
// SASS-NEXT: SYNCS {{[1-9][0-9]*}}

module attributes {gpucg.target = #gpucg.target<chip = "sm_90a">} {
  func.func @matmul(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
  func.func @decode(%x: tensor<16x512xbf16>, %w: tensor<1024x512xbf16>, %c: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x1024xf32>) -> tensor<16x1024xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<16x512xbf16>, tensor<1024x512xbf16>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
    return %0 : tensor<16x1024xf32>
  }
  func.func @attention_scores(%q: tensor<8x512x128xbf16>, %k: tensor<8x512x128xbf16>, %c: tensor<8x512x512xf32>) -> tensor<8x512x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<8x512x512xf32>) -> tensor<8x512x512xf32>
    %0 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<8x512x128xbf16>, tensor<8x512x128xbf16>) outs(%f : tensor<8x512x512xf32>) -> tensor<8x512x512xf32>
    return %0 : tensor<8x512x512xf32>
  }
  func.func @attention_heads(%q: tensor<2x8x512x128xbf16>, %k: tensor<2x8x512x128xbf16>, %c: tensor<2x8x512x512xf32>) -> tensor<2x8x512x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<2x8x512x512xf32>) -> tensor<2x8x512x512xf32>
    %0 = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x8x512x128xbf16>, tensor<2x8x512x128xbf16>) outs(%f : tensor<2x8x512x512xf32>) {
    ^bb0(%x: bf16, %y: bf16, %o: f32):
      %xf = arith.extf %x : bf16 to f32
      %yf = arith.extf %y : bf16 to f32
      %p = arith.mulf %xf, %yf : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> tensor<2x8x512x512xf32>
    return %0 : tensor<2x8x512x512xf32>
  }
  func.func @weight_grad(%x: tensor<2048x1024xbf16>, %dy: tensor<2048x512xbf16>, %dw: tensor<1024x512xf32>) -> tensor<1024x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%dw : tensor<1024x512xf32>) -> tensor<1024x512xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %dy : tensor<2048x1024xbf16>, tensor<2048x512xbf16>) outs(%f : tensor<1024x512xf32>) -> tensor<1024x512xf32>
    return %0 : tensor<1024x512xf32>
  }
  func.func @grad_tt(%x: tensor<2048x1024xbf16>, %dy: tensor<512x2048xbf16>, %c: tensor<1024x512xf32>) -> tensor<1024x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x512xf32>) -> tensor<1024x512xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %dy : tensor<2048x1024xbf16>, tensor<512x2048xbf16>) outs(%f : tensor<1024x512xf32>) -> tensor<1024x512xf32>
    return %0 : tensor<1024x512xf32>
  }
  func.func @grad_tt_tokens(%x: tensor<2048x?xbf16>, %dy: tensor<512x2048xbf16>, %c: tensor<?x512xf32>) -> tensor<?x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %dy : tensor<2048x?xbf16>, tensor<512x2048xbf16>) outs(%f : tensor<?x512xf32>) -> tensor<?x512xf32>
    return %0 : tensor<?x512xf32>
  }
  func.func @decode_kn(%x: tensor<16x512xbf16>, %w: tensor<512x1024xbf16>, %c: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<16x1024xf32>) -> tensor<16x1024xf32>
    %0 = linalg.matmul ins(%x, %w : tensor<16x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
    return %0 : tensor<16x1024xf32>
  }
  func.func @linear_f32(%x: tensor<2048x1024xf32>, %w: tensor<4096x1024xf32>, %y: tensor<2048x4096xf32>) -> tensor<2048x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%y : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<2048x1024xf32>, tensor<4096x1024xf32>) outs(%f : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
    return %0 : tensor<2048x4096xf32>
  }
  func.func @linear_tokens(%x: tensor<?x4096xbf16>, %w: tensor<4096x4096xbf16>, %c: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<?x4096xf32>) -> tensor<?x4096xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<?x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<?x4096xf32>) -> tensor<?x4096xf32>
    return %0 : tensor<?x4096xf32>
  }
  func.func @hidden_size(%x: tensor<?x?xbf16>, %w: tensor<?x?xbf16>, %bias: tensor<?xf32>, %out: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %rows = tensor.dim %x, %c0 : tensor<?x?xbf16>
    %columns = tensor.dim %w, %c0 : tensor<?x?xbf16>
    %e = tensor.empty(%rows, %columns) : tensor<?x?xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
    %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %w : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<?x?xf32>, tensor<?xf32>) outs(%out : tensor<?x?xbf16>) {
    ^bb0(%v: f32, %b: f32, %o: bf16):
      %s = arith.addf %v, %b : f32
      %t = arith.truncf %s : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x?xbf16>
    return %r : tensor<?x?xbf16>
  }
  func.func @accumulate(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
  // K = 512: 8 K tiles through 4 stages, so stages are refilled.
  func.func @matmul_one_warpgroup(%a: tensor<256x512xf16>, %b: tensor<512x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %0 = linalg.matmul {gpucg.compilation_info = #gpucg.compilation_info<
        lowering_config = #gpucg.lowering_config<tile_sizes = [[128, 128, 64]]>,
        translation_info = #gpucg.translation_info<pipeline = MatmulWgmma, workgroup_size = [128, 1, 1], pipeline_depth = 4>>}
      ins(%a, %b : tensor<256x512xf16>, tensor<512x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
  // M = 192 takes the 64x256 tile of one warpgroup (B in four 64-column
  // boxes).
  func.func @matmul_bf16(%a: tensor<192x128xbf16>, %b: tensor<128x512xbf16>, %c: tensor<192x512xf32>) -> tensor<192x512xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<192x512xf32>) -> tensor<192x512xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<192x128xbf16>, tensor<128x512xbf16>) outs(%f : tensor<192x512xf32>) -> tensor<192x512xf32>
    return %0 : tensor<192x512xf32>
  }
  // A linear layer: C = A * W^T with W[n, k].
  // A linear layer with a fused bias, ReLU and bf16 cast: the consumers
  // stage their accumulators in workgroup memory, meet at their own named
  // barrier, and write 8 bf16 (16 bytes) per thread and piece.
  func.func @linear_bias_relu(%a: tensor<1024x512xbf16>, %w: tensor<2048x512xbf16>, %bias: tensor<2048xf32>, %out: tensor<1024x2048xbf16>) -> tensor<1024x2048xbf16> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1024x2048xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<1024x512xbf16>, tensor<2048x512xbf16>) outs(%f : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%0, %bias : tensor<1024x2048xf32>, tensor<2048xf32>) outs(%out : tensor<1024x2048xbf16>) {
    ^bb0(%x: f32, %y: f32, %o: bf16):
      %s = arith.addf %x, %y : f32
      %r = arith.maximumf %s, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<1024x2048xbf16>
    return %1 : tensor<1024x2048xbf16>
  }
  func.func @linear(%a: tensor<1024x512xbf16>, %w: tensor<2048x512xbf16>, %c: tensor<1024x2048xf32>) -> tensor<1024x2048xf32> {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %w : tensor<1024x512xbf16>, tensor<2048x512xbf16>) outs(%f : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
    return %0 : tensor<1024x2048xf32>
  }
}
