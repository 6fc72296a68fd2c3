# RUN: %sanitizer_preload %gpucg_python %s
"""gpucg.passes() and gpucg.pipelines() list what gpucg-opt registers, with
their options."""

import re
import shutil
import subprocess
import unittest

import gpucg


class PassesTest(unittest.TestCase):

    def test_same_as_gpucg_opt(self):
        """Every gpucg-* flag of gpucg-opt --help is listed, and nothing
        else: the C API's list of pipelines is kept by hand."""
        gpucg_opt = shutil.which("gpucg-opt")
        self.assertIsNotNone(gpucg_opt, "gpucg-opt is not on PATH")
        help_text = subprocess.run([gpucg_opt, "--help"], check=True,
                                   capture_output=True, text=True).stdout
        flags = set(re.findall(r"--(gpucg-[a-z0-9-]+)", help_text))
        listed = {p.name for p in gpucg.passes() + gpucg.pipelines()}
        self.assertEqual(listed, flags)

    def test_kinds_and_order(self):
        passes, pipelines = gpucg.passes(), gpucg.pipelines()
        self.assertEqual([p.name for p in passes],
                         sorted(p.name for p in passes))
        self.assertTrue(all(p.kind == "pass" for p in passes))
        self.assertEqual({p.name for p in pipelines},
                         {"gpucg-bufferize", "gpucg-compile",
                          "gpucg-lower-to-nvvm", "gpucg-matmul-mma-sync",
                          "gpucg-matmul-simt", "gpucg-matmul-tensorcore",
                          "gpucg-matmul-wgmma",
                          "gpucg-simt", "gpucg-test-emulate-on-cpu",
                          "gpucg-test-lower-to-cpu",
                          "gpucg-vectorize", "gpucg-warp-reduction"})
        self.assertTrue(all(p.anchor == "builtin.module" for p in pipelines))

    def test_options(self):
        by_name = {p.name: p for p in gpucg.passes() + gpucg.pipelines()}
        pipelining = by_name["gpucg-software-pipelining"]
        self.assertEqual(pipelining.anchor, "func.func")
        self.assertEqual([(o.name, o.default) for o in pipelining.options],
                         [("depth", "0"), ("epilogue-peeling", "true"),
                          ("schedule", "load-global-stage0")])
        self.assertTrue(pipelining.options[0].description.startswith(
            "Stages"))
        compile_options = {o.name: o for o in by_name["gpucg-compile"].options}
        self.assertEqual(compile_options["format"].default, "bin")
        self.assertEqual(compile_options["chip"].default, "")
        self.assertEqual(by_name["gpucg-matmul-mma-sync"].usage(),
                         "gpucg-matmul-mma-sync{chip= depth=0 "
                         "epilogue-peeling=true padding=-1 "
                         "schedule=load-global-stage0 split-k=0 "
                         "workgroup-group-size=0}")
        self.assertEqual(by_name["gpucg-bufferize"].options, ())

    def test_usage_parses(self):
        """Every entry written with its defaults is a valid pipeline."""
        with gpucg.Context() as context:
            module = context.parse("module {}")
            for entry in gpucg.passes() + gpucg.pipelines():
                if entry.anchor not in ("", "builtin.module"):
                    continue
                with self.subTest(entry=entry.name):
                    module.run(f"builtin.module({entry.usage()})")

    def test_version(self):
        self.assertEqual(gpucg.version(), "0.1.0")


if __name__ == "__main__":
    unittest.main()
