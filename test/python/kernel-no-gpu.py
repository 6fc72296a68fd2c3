# UNSUPPORTED: cuda-gpu
# RUN: %sanitizer_preload %gpucg_python %s
"""Without a GPU, loading a kernel fails with an error that says why (the
runtime library is missing, or it finds no driver), never a crash."""

import pathlib
import tempfile
import unittest

import gpucg

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


class NoGpuTest(unittest.TestCase):

    def test_device_count(self):
        self.assertEqual(gpucg.device_count(), 0)

    def test_kernel_load_fails_clearly(self):
        result = gpucg.compile(EXAMPLES / "matmul_512x128x512_f16.mlir")
        with tempfile.TemporaryDirectory() as directory:
            with self.assertRaises((gpucg.LibraryNotFoundError,
                                    gpucg.GpucgRuntimeError)) as caught:
                gpucg.Kernel.from_compiled(result, directory)
            error = caught.exception
            if isinstance(error, gpucg.GpucgRuntimeError):
                self.assertEqual(error.status, "GPUCG_ERROR_NO_DRIVER")
            else:
                self.assertIn("libgpucg_cuda_runtime.so", str(error))


if __name__ == "__main__":
    unittest.main()
