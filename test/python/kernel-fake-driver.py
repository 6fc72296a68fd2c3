# REQUIRES: numpy, fake-cuda
# RUN: env GPUCG_CUDA_DRIVER=%fake_cuda_driver %sanitizer_preload \
# RUN:   %gpucg_python -u %s 2>&1 | FileCheck %s
"""gpucg.Kernel's whole path (load, upload, launch, download, attributes,
benchmark, errors) against the runtime's CUDA driver stand-in, which prints
the launches of PTX modules instead of running them
(runtime/tests/FakeCudaDriver.c). unittest runs the tests in name order and
names each before its output, which the CHECK lines follow."""

import pathlib
import tempfile
import unittest

import numpy

import gpucg

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
MATMUL = (EXAMPLES / "matmul_512x128x512_f16.mlir").read_text()


def arrays():
    return (numpy.ones((512, 128), numpy.float16),
            numpy.ones((128, 512), numpy.float16),
            numpy.full((512, 512), 3.0, numpy.float32))


class FakeDriverTest(unittest.TestCase):

    # CHECK-LABEL: test_benchmark
    # CHECK-COUNT-3: fake-cuda: launch matmul_kernel grid 16x16x1 block 64x2x1 shared 0 params 3
    # CHECK-NOT: fake-cuda: launch
    # CHECK: ok
    def test_benchmark(self):
        kernel = gpucg.Kernel.from_compiled(gpucg.compile(MATMUL))
        self.assertGreater(kernel.benchmark(*arrays(), repeat=2, warmup=1),
                           0.0)

    # CHECK-LABEL: test_checks_before_launch
    # CHECK-NOT: fake-cuda: launch
    # CHECK: ok
    def test_checks_before_launch(self):
        kernel = gpucg.Kernel.from_compiled(gpucg.compile(MATMUL))
        a, b, c = arrays()
        with self.assertRaisesRegex(TypeError, "argument 2: expected an "
                                    "array of float32"):
            kernel(a, b, c.astype(numpy.float16))

    # Descriptors: 7 parameters for each memref of rank 2; the sizes of C.
    # CHECK-LABEL: test_descriptors
    # CHECK: fake-cuda: launch matmul_kernel grid 16x16x1 block 64x2x1 shared 0 params 21
    # CHECK: param 2 .{{[a-z0-9]+}} 0
    # CHECK-NEXT: param 3 .{{[a-z0-9]+}} 512
    # CHECK-NEXT: param 4 .{{[a-z0-9]+}} 512
    # CHECK: ok
    def test_descriptors(self):
        kernel = gpucg.Kernel.from_compiled(
            gpucg.compile(MATMUL, bare_pointers=False))
        self.assertEqual(kernel.abi.calling_convention, "memref_descriptors")
        kernel(*arrays())

    # CHECK-LABEL: test_device
    def test_device(self):
        self.assertEqual(gpucg.device_count(), 1)
        self.assertEqual(gpucg.device_info()["name"],
                         "gpucg fake CUDA device")

    # CHECK-LABEL: test_invalid_binary
    # CHECK-NOT: fake-cuda: launch
    # CHECK: ok
    def test_invalid_binary(self):
        with tempfile.TemporaryDirectory() as directory:
            abi_path = gpucg.compile(MATMUL).kernels[0].save(directory)
            (abi_path.parent / "matmul_kernel.ptx").write_bytes(b"garbage")
            with self.assertRaises(gpucg.GpucgRuntimeError) as caught:
                gpucg.Kernel(abi_path)
        self.assertEqual(caught.exception.status, "GPUCG_ERROR_CUDA")
        self.assertIn("cuModuleLoadData", str(caught.exception))

    # CHECK-LABEL: test_numpy_call
    # CHECK-COUNT-2: fake-cuda: launch matmul_kernel grid 16x16x1 block 64x2x1 shared 0 params 3
    # CHECK: ok
    def test_numpy_call(self):
        kernel = gpucg.Kernel.from_compiled(gpucg.compile(MATMUL))
        a, b, c = arrays()
        self.assertEqual(kernel(a, b, c), (16, 16, 1))
        # Copied to the "device" and back unchanged (the stand-in runs
        # nothing), also through an array that is not row-major.
        self.assertTrue((c == 3.0).all())
        c_columns = numpy.asfortranarray(c)
        kernel(a, b, c_columns)
        self.assertTrue((c_columns == 3.0).all())
        attributes = kernel.attributes()
        self.assertEqual(attributes["dynamic_shared_bytes"], 0)
        self.assertEqual(attributes["local_bytes_per_thread"], 0)
        kernel.close()

    # A function that returns a new tensor: called without its output, the
    # kernel allocates it from the input's rows (a dynamic size) and
    # returns it.
    # CHECK-LABEL: test_returned_output
    # CHECK: fake-cuda: launch linear_kernel grid 3x2x1 block 64x2x1 shared 0 params 21
    # CHECK: ok
    def test_returned_output(self):
        source = """
          func.func @linear(%a: tensor<?x64xf16>, %b: tensor<64x72xf16>)
              -> tensor<?x72xf32> {
            %c0 = arith.constant 0 : index
            %m = tensor.dim %a, %c0 : tensor<?x64xf16>
            %zero = arith.constant 0.0 : f32
            %e = tensor.empty(%m) : tensor<?x72xf32>
            %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x72xf32>)
                -> tensor<?x72xf32>
            %r = linalg.matmul ins(%a, %b : tensor<?x64xf16>, tensor<64x72xf16>)
                outs(%f : tensor<?x72xf32>) -> tensor<?x72xf32>
            return %r : tensor<?x72xf32>
          }"""
        kernel = gpucg.Kernel.from_compiled(
            gpucg.compile(source, chip="sm_80"))
        self.assertEqual([str(r) for r in kernel.abi.results],
                         ["result 2 arg0.dim0 72"])
        out = kernel(numpy.ones((40, 64), numpy.float16),
                     numpy.ones((64, 72), numpy.float16))
        self.assertIsInstance(out, numpy.ndarray)
        self.assertEqual((out.shape, out.dtype.name), ((40, 72), "float32"))


# CHECK: OK
if __name__ == "__main__":
    unittest.main(verbosity=2)
