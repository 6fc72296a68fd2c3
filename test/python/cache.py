# RUN: %sanitizer_preload %gpucg_python %s
"""gpucg.compile's cache (gpucg/cache.py): a second identical call returns
the kept result without compiling; any option, the source, gpucg's version
or the library make another key; cache=False and GPUCG_CACHE=0 keep
nothing; a corrupt entry is a miss; a failed compilation is not kept."""

import os
import pathlib
import tempfile
import unittest

import gpucg
from gpucg import cache

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
MATMUL = (EXAMPLES / "matmul_512x128x512_f16.mlir").read_text()


class CacheTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.saved = {name: os.environ.get(name)
                      for name in ("GPUCG_CACHE", "GPUCG_CACHE_DIR")}
        os.environ["GPUCG_CACHE"] = "1"
        os.environ["GPUCG_CACHE_DIR"] = self.folder.name

    def tearDown(self):
        for name, value in self.saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self.folder.cleanup()

    def entries(self):
        return sorted(pathlib.Path(self.folder.name).glob("*.json"))

    def test_hit(self):
        first = gpucg.compile(MATMUL, report=True)
        self.assertFalse(first.cached)
        self.assertEqual(len(self.entries()), 1)
        second = gpucg.compile(MATMUL, report=True)
        self.assertTrue(second.cached)
        self.assertEqual(second.output, first.output)
        self.assertEqual(second.abi, first.abi)
        self.assertEqual(second.module, first.module)
        self.assertEqual(second.diagnostics, first.diagnostics)
        self.assertEqual(second.kernels, first.kernels)

    def test_binary_entries(self):
        try:
            first = gpucg.compile(MATMUL, format="cubin")
        except gpucg.CompileError as error:
            self.skipTest(f"no cubin without ptxas: {error}")
        second = gpucg.compile(MATMUL, format="cubin")
        self.assertTrue(second.cached)
        self.assertIsInstance(second.output, bytes)
        self.assertEqual(second.output, first.output)
        self.assertEqual(second.kernels[0].registers,
                         first.kernels[0].registers)

    def test_other_keys(self):
        gpucg.compile(MATMUL)
        self.assertFalse(gpucg.compile(MATMUL, opt_level=2).cached)
        self.assertFalse(gpucg.compile(MATMUL, report=True).cached)
        self.assertFalse(gpucg.compile(MATMUL + "\n// another source\n")
                         .cached)
        self.assertEqual(len(self.entries()), 4)
        options = {"format": "ptx"}
        base = cache.key("text", "name", options, "1", gpucg.library_path())
        self.assertNotEqual(base, cache.key("text", "name", options, "2",
                                            gpucg.library_path()))
        self.assertNotEqual(base, cache.key("text", "name", options, "1",
                                            "/another/libGpucgCAPI.so"))

    def test_off(self):
        self.assertFalse(gpucg.compile(MATMUL, cache=False).cached)
        self.assertFalse(gpucg.compile(MATMUL, cache=False).cached)
        os.environ["GPUCG_CACHE"] = "0"
        self.assertFalse(gpucg.compile(MATMUL).cached)
        self.assertFalse(gpucg.compile(MATMUL).cached)
        self.assertEqual(self.entries(), [])
        self.assertTrue(gpucg.compile(MATMUL, cache=True).cached is False)
        self.assertTrue(gpucg.compile(MATMUL, cache=True).cached)

    def test_corrupt_entry(self):
        gpucg.compile(MATMUL)
        [entry] = self.entries()
        entry.write_text("{not json")
        result = gpucg.compile(MATMUL)
        self.assertFalse(result.cached)
        self.assertTrue(gpucg.compile(MATMUL).cached)

    def test_failure_not_kept(self):
        with self.assertRaises(gpucg.CompileError):
            gpucg.compile("func.func @f(")
        self.assertEqual(self.entries(), [])

    def test_clear(self):
        gpucg.compile(MATMUL)
        self.assertEqual(cache.clear(), 1)
        self.assertEqual(self.entries(), [])


if __name__ == "__main__":
    unittest.main()
