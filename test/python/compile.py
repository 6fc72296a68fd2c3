# RUN: %sanitizer_preload %gpucg_python %s
"""gpucg.compile: a matmul to PTX and its ABI, the pipeline form, and the
errors of bad input as CompileError with diagnostics."""

import pathlib
import tempfile
import unittest

import gpucg

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
MATMUL = (EXAMPLES / "matmul_512x128x512_f16.mlir").read_text()
# A zero-filled f16 matmul of four 128x128 tiles: MatmulWgmma on sm_90a.
WGMMA_MATMUL = """
func.func @mm(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>,
              %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>)
                     outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}"""

# An e4m3 linear layer (W as N x K, the only layout wgmma reads 8-bit
# operands in): MatmulWgmma on sm_90a, one k32 wgmma per 32 bytes of K.
WGMMA_E4M3_LINEAR = """
func.func @linear(%a: tensor<256x256xf8E4M3FN>, %w: tensor<256x256xf8E4M3FN>,
                  %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>)
      outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}"""

# The same matmul with a bias, ReLU and f16 cast fused into its epilogue.
WGMMA_BIAS_RELU = """
func.func @mm(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>,
              %bias: tensor<256xf32>, %out: tensor<256x256xf16>)
    -> tensor<256x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>)
                     outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                       affine_map<(d0, d1) -> (d1)>,
                       affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<256x256xf32>, tensor<256xf32>)
      outs(%out : tensor<256x256xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %relu = arith.maximumf %s, %zero : f32
    %t = arith.truncf %relu : f32 to f16
    linalg.yield %t : f16
  } -> tensor<256x256xf16>
  return %r : tensor<256x256xf16>
}"""


class CompileTest(unittest.TestCase):

    def test_ptx_and_abi(self):
        result = gpucg.compile(MATMUL, chip="sm_80", format="ptx")
        self.assertIsInstance(result.output, str)
        self.assertIn(".visible .entry matmul_kernel(", result.output)
        self.assertIn("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                      result.output)
        self.assertEqual(len(result.kernels), 1)
        self.assertEqual(result.abi, result.kernels[0].abi)
        abi = result.kernels[0].abi_info
        self.assertEqual((abi.function, abi.kernel, abi.format, abi.chip),
                         ("matmul", "matmul_kernel", "ptx", "sm_80"))
        self.assertEqual(abi.calling_convention, "bare_pointers")
        self.assertEqual([str(e) for e in abi.grid], ["16", "16", "1"])
        self.assertEqual(abi.block, (64, 2, 1))
        # The kernel takes C first; the function's order is A, B, C.
        self.assertEqual([a.function_argument for a in abi.arguments],
                         [2, 0, 1])
        self.assertEqual([a.describe() for a in abi.function_arguments()],
                         ["memref f16 512x128", "memref f16 128x512",
                          "memref f32 512x512"])
        self.assertIn("gpu.binary @matmul_kernel", result.module)

    def test_wgmma_tensor_maps(self):
        # On sm_90a a zero-filled f16 matmul takes MatmulWgmma: A and B reach
        # the kernel as TMA tensor maps built on the function's arguments.
        result = gpucg.compile(WGMMA_MATMUL, chip="sm_90a", format="ptx")
        self.assertIn("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16",
                      result.output)
        abi = result.kernels[0].abi_info
        self.assertEqual([(a.kind, a.function_argument) for a in abi.arguments],
                         [("tensor_map", 0), ("tensor_map", 1), ("memref", 2)])
        a_map = abi.arguments[0]
        self.assertEqual((a_map.shape, a_map.box, a_map.swizzle_bytes),
                         ((256, 128), (128, 64), 128))
        self.assertTrue(a_map.is_buffer)
        # The function's arguments are the memrefs the maps are built on.
        self.assertEqual([a.describe() for a in abi.function_arguments()],
                         ["memref f16 256x128", "memref f16 128x256",
                          "memref f32 256x256"])

    def test_wgmma_float8(self):
        # 8-bit floats: tensor maps of 128x128 one-byte boxes, k32 wgmmas.
        result = gpucg.compile(WGMMA_E4M3_LINEAR, chip="sm_90a", format="ptx")
        self.assertIn("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3",
                      result.output)
        abi = result.kernels[0].abi_info
        a_map, w_map = abi.arguments[0], abi.arguments[1]
        self.assertEqual((a_map.kind, a_map.element_type, a_map.element_bits,
                          a_map.box),
                         ("tensor_map", "f8E4M3FN", 8, (128, 128)))
        self.assertEqual(w_map.box, (128, 128))
        self.assertEqual([a.describe() for a in abi.function_arguments()],
                         ["memref f8E4M3FN 256x256", "memref f8E4M3FN 256x256",
                          "memref f32 256x256"])

    def test_wgmma_fused_epilogue(self):
        # The consumer runs in the wgmma kernel's epilogue: the kernel takes
        # the bias and writes f16 with 128-bit stores.
        result = gpucg.compile(WGMMA_BIAS_RELU, chip="sm_90a", format="ptx")
        self.assertIn("wgmma.mma_async.sync.aligned", result.output)
        self.assertIn("st.global.v4.b32", result.output)
        abi = result.kernels[0].abi_info
        self.assertEqual([(a.kind, a.function_argument) for a in abi.arguments],
                         [("tensor_map", 0), ("tensor_map", 1), ("memref", 2),
                          ("memref", 3)])
        self.assertEqual([a.describe() for a in abi.function_arguments()],
                         ["memref f16 256x128", "memref f16 128x256",
                          "memref f32 256", "memref f16 256x256"])

    def test_wgmma_persistent(self):
        # A warp-specialized wgmma kernel of 4 tiles on 2 workgroups, each
        # looping over its tiles; without the option, one per tile.
        grid = lambda result: [str(e) for e in result.kernels[0].abi_info.grid]
        self.assertEqual(grid(gpucg.compile(WGMMA_MATMUL, chip="sm_90a")),
                         ["2", "2", "1"])
        self.assertEqual(grid(gpucg.compile(WGMMA_MATMUL, chip="sm_90a",
                                            wgmma_persistent=2)),
                         ["2", "1", "1"])
        with self.assertRaises(ValueError):
            gpucg.compile(WGMMA_MATMUL, chip="sm_90a", wgmma_persistent=-1)

    def test_wgmma_staged_store(self):
        # Without an epilogue C goes from the accumulator registers in 32-bit
        # stores; staged, through shared memory in 16-byte pieces. K = 256:
        # a ring of 4 stages, large enough to hold the staging buffer.
        source = WGMMA_MATMUL.replace("256x128xf16", "256x256xf16").replace(
            "128x256xf16", "256x256xf16")
        plain = gpucg.compile(source, chip="sm_90a").output
        staged = gpucg.compile(source, chip="sm_90a",
                               wgmma_staged_store=True).output
        self.assertNotIn("st.global.v4.b32", plain)
        self.assertIn("ld.shared.v4.b32", staged)
        self.assertIn("st.global.v4.b32", staged)

    def test_split_k(self):
        # A 64 x 64 output with K = 1024 on sm_80: split_k=4 gives 4 parts
        # on grid z, the report says so; split_k=1 keeps K whole.
        source = """
module {
  func.func @deep(%a: tensor<64x1024xf16>, %b: tensor<1024x64xf16>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %0 = linalg.matmul ins(%a, %b : tensor<64x1024xf16>, tensor<1024x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}
"""
        split = gpucg.compile(source, chip="sm_80", split_k=4, report=True)
        self.assertIn("grid_z 4", split.abi)
        self.assertIn("K split into 4 parts", split.kernels[0].plan)
        self.assertIn("atom.global.add.u32", split.output)
        whole = gpucg.compile(source, chip="sm_80", split_k=1)
        self.assertIn("grid_z 1", whole.abi)
        with self.assertRaises(ValueError):
            gpucg.compile(source, chip="sm_80", split_k=-1)

    def test_workgroup_group_size(self):
        # 2 x 2 tiles in groups of 2 rows: the kernel computes another tile
        # index from its block id; groups of 1 are the launch order.
        compile = lambda size: gpucg.compile(
            WGMMA_MATMUL, chip="sm_90a", workgroup_group_size=size).output
        plain = compile(0)
        self.assertEqual(compile(1), plain)
        self.assertNotEqual(compile(2), plain)
        with self.assertRaises(ValueError):
            compile(-1)

    def test_nvvm_float8(self):
        # An e4m3 linear layer whose result is cast to e4m3: integer
        # arithmetic by default, NVVM's cvt with nvvm_float8.
        source = """
func.func @linear_out(%a: tensor<128x256xf8E4M3FN>, %w: tensor<128x256xf8E4M3FN>,
                      %out: tensor<128x128xf8E4M3FN>) -> tensor<128x128xf8E4M3FN> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                      affine_map<(d0, d1, d2) -> (d1, d2)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%a, %w : tensor<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>)
    outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
    ins(%r : tensor<128x128xf32>) outs(%out : tensor<128x128xf8E4M3FN>) {
  ^bb0(%x: f32, %o: f8E4M3FN):
    %t = arith.truncf %x : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<128x128xf8E4M3FN>
  return %y : tensor<128x128xf8E4M3FN>
}"""
        compile = lambda nvvm: gpucg.compile(
            source, chip="sm_90a", nvvm_float8=nvvm).output
        self.assertNotIn("cvt.rn.satfinite.e4m3x2.f32", compile(False))
        self.assertIn("cvt.rn.satfinite.e4m3x2.f32", compile(True))

    def test_wgmma_cluster(self):
        # A warp-specialized f16 matmul of 4 x 4 tiles: clusters of 2 x 1
        # workgroups share B's tile by TMA multicast and declare the shape.
        source = """
func.func @matmul(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>,
                  %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
    outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}"""
        plain = gpucg.compile(source, chip="sm_90a").output
        self.assertNotIn(".reqnctapercluster", plain)
        clustered = gpucg.compile(source, chip="sm_90a",
                                  wgmma_cluster=(2, 1)).output
        self.assertIn(".reqnctapercluster 1, 2, 1", clustered)
        self.assertIn("multicast::cluster", clustered)
        for bad in [(0, 1), (2,), (1.5, 1)]:
            with self.assertRaises(ValueError):
                gpucg.compile(source, chip="sm_90a", wgmma_cluster=bad)
        # More than 8 workgroups: the pipeline's option check comes back.
        with self.assertRaises(gpucg.CompileError) as raised:
            gpucg.compile(source, chip="sm_90a", wgmma_cluster=(4, 4))
        self.assertIn("must be 1 to 8 workgroups (the portable cluster size)",
                      str(raised.exception))

    def test_deterministic_reductions(self):
        # 32 rows of 2^20 f32: split across 8 workgroups each on sm_80 and
        # added atomically, unless float sums must not depend on the order.
        row_sum = """
func.func @row_sum(%a: tensor<32x1048576xf32>, %c: tensor<32xf32>) -> tensor<32xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
    ins(%a : tensor<32x1048576xf32>) outs(%c : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
"""
        split = gpucg.compile(row_sum, format="ptx")
        self.assertEqual([str(e) for e in split.kernels[0].abi_info.grid],
                         ["32", "8", "1"])
        self.assertIn("atom.global.add.f32", split.output)
        whole = gpucg.compile(row_sum, format="ptx",
                              deterministic_reductions=True)
        self.assertEqual([str(e) for e in whole.kernels[0].abi_info.grid],
                         ["32", "1", "1"])
        self.assertNotIn("atom.", whole.output)

    def test_save_writes_what_export_kernels_writes(self):
        result = gpucg.compile(MATMUL, format="isa")
        with tempfile.TemporaryDirectory() as directory:
            (abi_path,) = result.save(directory)
            self.assertEqual(abi_path.name, "matmul_kernel.abi")
            ptx = pathlib.Path(directory, "matmul_kernel.ptx").read_text()
            self.assertEqual(ptx, result.output)
            self.assertEqual(gpucg.abi.read(abi_path).kernel, "matmul_kernel")

    def test_path_source_and_descriptors(self):
        result = gpucg.compile(EXAMPLES / "matmul_512x128x512_f16.mlir",
                               bare_pointers=False)
        self.assertEqual(result.kernels[0].abi_info.calling_convention,
                         "memref_descriptors")

    def test_str_path_source(self):
        # A one-line str naming a file is read, not parsed as IR.
        path = str(EXAMPLES / "matmul_512x128x512_f16.mlir")
        self.assertEqual(gpucg.compile(path).kernels[0].name, "matmul_kernel")
        with self.assertRaisesRegex(FileNotFoundError, "gpucg.compile: no "
                                    "file 'missing.mlir'"):
            gpucg.compile("missing.mlir")

    def test_python_spelling_of_options(self):
        from gpucg.compiler import _python_spelling
        self.assertEqual(
            _python_spelling("lower with bare-pointers=false, "
                             "deterministic-reductions=true, opt-level=2, "
                             "chip=sm_90a or chip=<sm_XY>; "
                             "use-bare-pointers-for-kernels=false"),
            "lower with bare_pointers=False, deterministic_reductions=True, "
            'opt_level=2, chip="sm_90a" or chip=<sm_XY>; '
            "use-bare-pointers-for-kernels=false")
        # A pipeline the caller wrote keeps the CLI's spelling.
        with self.assertRaises(gpucg.CompileError) as caught:
            gpucg.compile(MATMUL, pipeline="builtin.module(gpucg-compile{"
                          "chip=sm_90 format=isa})")
        self.assertIn("chip=sm_90 was requested", str(caught.exception))

    def test_report(self):
        result = gpucg.compile(EXAMPLES / "matmul_bias_relu.mlir",
                               chip=None, report=True)
        plan = result.kernels[0].plan
        self.assertTrue(plan.startswith(
            "plan of @kernel: pipeline MatmulTensorCoreMmaSync (mma_sync "
            "16x8x16), workgroup 64x2x1 threads, workgroup tile 32x32x32"),
            plan)
        self.assertIn(plan, [d.message for d in result.diagnostics
                             if d.severity == "remark"])
        self.assertIsNone(gpucg.compile(MATMUL).kernels[0].plan)

    def test_f32_precision(self):
        source = """
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @mm(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>,
                %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
        outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %0 : tensor<256x256xf32>
  }
}
"""
        tf32 = gpucg.compile(source, chip=None, report=True)
        self.assertIn("pipeline MatmulTensorCore (wmma", tf32.kernels[0].plan)
        self.assertIn(".tf32", tf32.output)
        ieee = gpucg.compile(source, chip=None, report=True,
                             f32_precision="ieee")
        self.assertIn("pipeline MatmulSimt", ieee.kernels[0].plan)
        # Python's spelling of the option, as in every diagnostic.
        self.assertIn('f32_precision="ieee"', ieee.kernels[0].plan)
        self.assertNotIn(".tf32", ieee.output)
        with self.assertRaisesRegex(ValueError, "unknown f32_precision "
                                    "'fp64': expected 'tf32' or 'ieee'"):
            gpucg.compile(source, f32_precision="fp64")

    def test_resources(self):
        # What ptxas gave the kernel, from its cubin; PTX has none yet.
        self.assertIsNone(gpucg.compile(MATMUL).kernels[0].registers)
        try:
            kernel = gpucg.compile(MATMUL, format="cubin").kernels[0]
        except gpucg.CompileError as error:
            self.skipTest(f"no cubin without ptxas: {error}")
        self.assertGreater(kernel.registers, 0)
        self.assertEqual(kernel.spills, 0)
        self.assertGreaterEqual(kernel.shared_memory, 0)
        self.assertGreaterEqual(kernel.workgroups_per_sm, 1)

    def test_format_names(self):
        # gpucg-compile takes the names compile() and the files use.
        for name, extension in (("ptx", ".ptx"), ("isa", ".ptx")):
            result = gpucg.compile(
                MATMUL, pipeline="builtin.module(gpucg-compile{format=%s})"
                % name)
            self.assertTrue(result.kernels[0].binary_file_name
                            .endswith(extension))

    def test_pipeline_without_binary(self):
        result = gpucg.compile(MATMUL, pipeline="gpucg-matmul-mma-sync")
        self.assertEqual(result.kernels, [])
        self.assertIsNone(result.abi)
        self.assertEqual(result.output, result.module)
        self.assertIn("nvgpu.mma.sync", result.output)

    def test_pipeline_with_binary(self):
        result = gpucg.compile(
            MATMUL, pipeline="builtin.module(gpucg-compile{format=isa})")
        self.assertEqual(result.kernels[0].binary_file_name,
                         "matmul_kernel.ptx")

    def test_parse_error(self):
        with self.assertRaises(gpucg.CompileError) as caught:
            gpucg.compile("func.func @f(%a: i32\n", source_name="bad.mlir")
        error = caught.exception
        self.assertEqual(error.status, "parse error")
        self.assertEqual(error.diagnostics[0].severity, "error")
        self.assertTrue(error.diagnostics[0].location.startswith("bad.mlir:1:"))
        self.assertIn("expected ')'", str(error))

    def test_pipeline_error(self):
        with self.assertRaises(gpucg.CompileError) as caught:
            gpucg.compile(MATMUL, pipeline="gpucg-no-such-pass")
        self.assertEqual(caught.exception.status, "pipeline error")
        self.assertIn("'gpucg-no-such-pass' does not refer to a registered "
                      "pass", str(caught.exception))

    def test_pass_failure(self):
        with self.assertRaises(gpucg.CompileError) as caught:
            gpucg.compile(MATMUL, chip="sm_90")
        # The module says sm_80; gpucg-compile's entry (gpucg-set-target)
        # refuses another before anything runs.
        self.assertEqual(caught.exception.status, "pass failure")
        # In compile()'s spelling of the option (chip="sm_90"), not
        # gpucg-compile's (chip=sm_90).
        self.assertIn('has a gpucg.target for sm_80 but chip="sm_90" was '
                      'requested', str(caught.exception))
        # chip=None follows the module's target.
        self.assertEqual(gpucg.compile(MATMUL, chip=None).kernels[0]
                         .abi_info.chip, "sm_80")

    def test_unknown_format(self):
        with self.assertRaisesRegex(ValueError, "unknown format 'sass'"):
            gpucg.compile(MATMUL, format="sass")


if __name__ == "__main__":
    unittest.main()
