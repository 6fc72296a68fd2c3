# RUN: %sanitizer_preload %gpucg_python %s
"""Context and Module: parse, attributes, run a pipeline string, print; the
compilation_info helpers of a tile sweep."""

import unittest

import gpucg

MATMUL = """
module attributes {gpucg.target = #gpucg.target<chip = "sm_80">} {
  func.func @matmul(%a: tensor<512x128xf16>, %b: tensor<128x512xf16>,
                    %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x512xf16>)
                       outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    return %0 : tensor<512x512xf32>
  }
}
"""


class AttributeTest(unittest.TestCase):

    def setUp(self):
        self.context = gpucg.Context()

    def tearDown(self):
        self.context.close()

    def test_builders_and_getters(self):
        config = self.context.lowering_config([[64, 64, 32], [32, 32, 0]])
        self.assertEqual(config.kind, "lowering_config")
        self.assertEqual(config.tile_sizes, [[64, 64, 32], [32, 32, 0]])
        self.assertEqual(str(config), "#gpucg.lowering_config<tile_sizes = "
                         "[[64, 64, 32], [32, 32, 0]]>")
        info = self.context.translation_info(
            "MatmulTensorCoreMmaSync", [64, 2, 1], subgroup_size=32,
            pipeline_depth=3, mma_kind="mma_sync")
        self.assertEqual((info.pipeline, info.workgroup_size,
                          info.subgroup_size, info.pipeline_depth,
                          info.store_stage, info.mma_kind),
                         ("MatmulTensorCoreMmaSync", [64, 2, 1], 32, 3, 1,
                          "mma_sync"))
        # The launch shape: defaults here, and as parsed.
        self.assertEqual((info.workgroup_group_size, info.persistent_workgroups,
                          info.cluster, info.staged_store), (1, None, (1, 1),
                                                             False))
        launch = self.context.attribute(
            "#gpucg.translation_info<pipeline = MatmulWgmma, "
            "workgroup_size = [384, 1, 1], persistent_workgroups = 66, "
            "cluster = [2, 1], staged_store = true>")
        self.assertEqual((launch.persistent_workgroups, launch.cluster,
                          launch.staged_store), (66, (2, 1), True))
        grouped = self.context.attribute(
            "#gpucg.translation_info<pipeline = Vectorize, "
            "workgroup_group_size = 8>")
        self.assertEqual(grouped.workgroup_group_size, 8)
        split = self.context.attribute(
            "#gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, "
            "split_k = 4>")
        self.assertEqual((split.split_k, info.split_k), (4, 1))
        both = self.context.compilation_info(config, info)
        self.assertEqual(both.kind, "compilation_info")
        self.assertEqual(both.lowering_config, config)
        self.assertEqual(both.translation_info, info)
        self.assertEqual(self.context.attribute(str(both)), both)

    def test_target(self):
        self.assertIn("sm_80", gpucg.known_chips())
        limits = self.context.target("sm_90").limits
        self.assertEqual(limits["chip"], "sm_90")
        self.assertEqual(limits["compute_capability"], 90)
        self.assertEqual(limits["num_sms"], 132)
        with self.assertRaisesRegex(ValueError, "unknown chip 'sm_12'"):
            self.context.target("sm_12")

    def test_invalid(self):
        with self.assertRaisesRegex(ValueError, "tile size must be "
                                    "non-negative"):
            self.context.lowering_config([64, -1, 32])
        with self.assertRaisesRegex(ValueError, "mma_kind is only allowed "
                                    "with a tensor-core pipeline"):
            self.context.translation_info("Vectorize", mma_kind="wmma")
        with self.assertRaisesRegex(ValueError, "unknown pipeline 'Fast'"):
            self.context.translation_info("Fast")
        with self.assertRaisesRegex(ValueError, "cannot parse attribute"):
            self.context.attribute("#gpucg.lowering_config<")
        with self.assertRaisesRegex(TypeError, "is not a #gpucg.target"):
            self.context.lowering_config([1]).limits


class ModuleTest(unittest.TestCase):

    def test_parse_print_roundtrip(self):
        with gpucg.Context() as context:
            module = context.parse(MATMUL)
            text = str(module)
            self.assertIn("linalg.matmul", text)
            self.assertEqual(str(context.parse(text)), text)
            self.assertIn('"linalg.matmul"', module.print(generic=True))
            module.verify()

    def test_parse_error(self):
        with gpucg.Context() as context:
            with self.assertRaises(gpucg.CompileError) as caught:
                context.parse("func.func @f(")
            self.assertEqual(caught.exception.status, "parse error")
            self.assertRegex(caught.exception.diagnostics[0].location,
                             r"^-:1:\d+$")

    def test_run_strategy_reads_its_choice(self):
        with gpucg.Context() as context:
            module = context.parse(MATMUL)
            module.run("func.func(gpucg-select-lowering-strategy)")
            (func,) = module.operations("func.func")
            info = func.get_attribute("gpucg.translation_info")
            self.assertEqual(info.pipeline, "MatmulTensorCoreMmaSync")
            (matmul,) = module.operations("linalg.matmul")
            config = matmul.get_attribute("gpucg.lowering_config")
            self.assertEqual(len(config.tile_sizes), 3)

    def test_user_compilation_info_wins(self):
        with gpucg.Context() as context:
            module = context.parse(MATMUL)
            info = gpucg.compilation_info((64, 64, 32), (64, 2, 1), depth=2)
            self.assertEqual(module.set_compilation_info(info), 1)
            module.run("builtin.module(func.func("
                       "gpucg-select-lowering-strategy))")
            (matmul,) = module.operations("linalg.matmul")
            self.assertEqual(
                matmul.get_attribute("gpucg.lowering_config").tile_sizes[0],
                [64, 64, 32])
            (func,) = module.operations("func.func")
            self.assertEqual(func.get_attribute("gpucg.translation_info")
                             .pipeline_depth, 2)

    def test_pipeline_errors(self):
        with gpucg.Context() as context:
            module = context.parse(MATMUL)
            with self.assertRaises(gpucg.CompileError) as caught:
                module.run("gpucg-no-such-pass")
            self.assertEqual(caught.exception.status, "pipeline error")
            with self.assertRaises(gpucg.CompileError) as caught:
                module.run("gpucg-set-target{chip=sm_12},"
                           "func.func(gpucg-select-lowering-strategy)")
            self.assertEqual(caught.exception.status, "pass failure")
            self.assertIn("unknown chip 'sm_12'", str(caught.exception))

    def test_closed_context(self):
        context = gpucg.Context()
        module = context.parse(MATMUL)
        context.close()
        with self.assertRaisesRegex(ValueError, "destroyed with its context"):
            str(module)


class SweepTest(unittest.TestCase):

    def test_tile_sweep(self):
        grids = {}
        for tiles in [(32, 32, 32), (64, 64, 32), (128, 64, 32)]:
            info = gpucg.compilation_info(tiles, (64, 2, 1), depth=2)
            source = gpucg.with_compilation_info(MATMUL, info)
            result = gpucg.compile(source, chip="sm_80", format="ptx")
            abi = result.kernels[0].abi_info
            grids[tiles] = tuple(str(e) for e in abi.grid)
        self.assertEqual(grids, {(32, 32, 32): ("16", "16", "1"),
                                 (64, 64, 32): ("8", "8", "1"),
                                 (128, 64, 32): ("8", "4", "1")})

    def test_invalid_configuration(self):
        info = gpucg.compilation_info((256, 256, 32), (64, 2, 1), depth=3)
        with self.assertRaisesRegex(gpucg.CompileError,
                                    "bytes of shared memory"):
            gpucg.compile(gpucg.with_compilation_info(MATMUL, info))
        with self.assertRaisesRegex(ValueError, "no 'linalg.generic' op"):
            gpucg.with_compilation_info(MATMUL, info, "linalg.generic")


if __name__ == "__main__":
    unittest.main()
