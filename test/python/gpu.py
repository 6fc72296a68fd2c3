# REQUIRES: cuda-gpu, numpy
# RUN: %sanitizer_preload %gpucg_python %s
"""On a GPU: a compiled matmul called on NumPy arrays and, when PyTorch with
CUDA is importable, on CUDA tensors, against NumPy's and torch's matmul."""

import os
import pathlib
import unittest

import numpy

import gpucg

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def torch_cuda():
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


class GpuTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        # PTX for sm_80, which the driver compiles for whatever GPU runs the
        # test (a cubin runs only on its own major compute capability).
        # $GPUCG_TEST_KERNEL_DIR: the same kernel compiled on another machine
        # (scripts/gpu-bundle.sh, for a GPU machine without MLIR).
        precompiled = os.environ.get("GPUCG_TEST_KERNEL_DIR")
        if precompiled:
            abis = sorted(pathlib.Path(precompiled).glob("*.abi"))
            if len(abis) != 1:
                raise RuntimeError(f"{precompiled}: {len(abis)} .abi files, not 1")
            cls.kernel = gpucg.Kernel(abis[0])
            return
        result = gpucg.compile(EXAMPLES / "matmul_512x128x512_f16.mlir",
                               chip="sm_80", format="ptx")
        cls.kernel = gpucg.Kernel.from_compiled(result)

    def test_numpy(self):
        generator = numpy.random.default_rng(1)
        a = generator.uniform(-1, 1, (512, 128)).astype(numpy.float16)
        b = generator.uniform(-1, 1, (128, 512)).astype(numpy.float16)
        c = numpy.zeros((512, 512), numpy.float32)
        grid = self.kernel(a, b, c)
        self.assertEqual(grid, (16, 16, 1))
        expected = a.astype(numpy.float32) @ b.astype(numpy.float32)
        numpy.testing.assert_allclose(c, expected, rtol=1e-3, atol=1e-3)

    def test_attributes_and_benchmark(self):
        attributes = self.kernel.attributes()
        self.assertEqual(attributes["local_bytes_per_thread"], 0)
        a = numpy.ones((512, 128), numpy.float16)
        b = numpy.ones((128, 512), numpy.float16)
        c = numpy.zeros((512, 512), numpy.float32)
        self.assertGreater(self.kernel.benchmark(a, b, c, repeat=5), 0.0)

    def test_torch(self):
        torch = torch_cuda()
        if torch is None:
            self.skipTest("PyTorch with CUDA is not importable")
        a = torch.randn(512, 128, dtype=torch.float16, device="cuda")
        b = torch.randn(128, 512, dtype=torch.float16, device="cuda")
        c = torch.zeros(512, 512, dtype=torch.float32, device="cuda")
        self.kernel(a, b, c)
        torch.testing.assert_close(c, torch.matmul(a.float(), b.float()),
                                   rtol=1e-3, atol=1e-3)
        with self.assertRaisesRegex(TypeError, "torch.float32"):
            self.kernel(a, b, c.half())


if __name__ == "__main__":
    unittest.main()
