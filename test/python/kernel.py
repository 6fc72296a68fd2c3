# REQUIRES: numpy
# RUN: %sanitizer_preload %gpucg_python %s
"""gpucg.Kernel's argument checks against the kernel ABI (no GPU needed),
and the ABI reader."""

import pathlib
import unittest

import numpy

import gpucg
from gpucg import abi

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"

# A kernel with a dynamic size and a scalar, as gpucg-export-kernels writes
# them with memref descriptors.
DYNAMIC_ABI = """# gpucg kernel ABI (docs/ABI.md)
abi 1
function scale
kernel scale_kernel
binary scale_kernel.ptx
format ptx
chip sm_80
calling_convention memref_descriptors
grid_x ceildiv arg0.dim0 32
grid_y 1
grid_z 1
block_x 32
block_y 1
block_z 1
dynamic_shared_memory 0
arguments 2
argument 0 function_argument 0 memref f32 ?x64
argument 1 function_argument 1 scalar f32
"""


# A function that returned a new tensor (gpucg-results-to-out-params): its
# output, function argument 3, has the rows of argument 0; argument 4 has a
# size only the caller knows.
RESULTS_ABI = """abi 1
function linear
kernel linear_kernel
binary linear_kernel.ptx
format ptx
chip sm_80
calling_convention memref_descriptors
grid_x 3
grid_y ceildiv arg0.dim0 32
grid_z 1
block_x 64
block_y 2
block_z 1
dynamic_shared_memory 0
arguments 5
argument 0 function_argument 0 memref f16 ?x64
argument 1 function_argument 3 memref f32 ?x72
argument 2 function_argument 1 memref f16 64x72
argument 3 function_argument 2 memref f32 72
argument 4 function_argument 4 memref i8 ?
result 3 arg0.dim0 72
result 4 ?
"""


class FakeTorchTensor:
    """Enough of a torch.Tensor for the checks (torch need not be
    installed)."""
    __module__ = "torch"

    def __init__(self, shape, dtype, is_cuda=True, contiguous=True, ptr=256):
        self.shape, self.dtype, self.is_cuda = shape, dtype, is_cuda
        self.device = "cuda:0" if is_cuda else "cpu"
        self._contiguous, self._ptr = contiguous, ptr

    def is_contiguous(self):
        return self._contiguous

    def data_ptr(self):
        return self._ptr


class CheckTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        result = gpucg.compile(EXAMPLES / "matmul_512x128x512_f16.mlir")
        cls.abi = result.kernels[0].abi_info

    def arrays(self):
        return (numpy.zeros((512, 128), numpy.float16),
                numpy.zeros((128, 512), numpy.float16),
                numpy.zeros((512, 512), numpy.float32))

    def test_good_arguments(self):
        prepared = gpucg.check_arguments(self.abi, self.arrays())
        self.assertEqual([p.kind for p in prepared], ["numpy"] * 3)

    def test_count(self):
        a, b, _ = self.arrays()
        with self.assertRaisesRegex(
                TypeError, r"matmul takes 3 argument\(s\) \(memref f16 "
                r"512x128, memref f16 128x512, memref f32 512x512\), got 2"):
            gpucg.check_arguments(self.abi, (a, b))

    def test_dtype(self):
        a, b, c = self.arrays()
        with self.assertRaisesRegex(
                TypeError, r"matmul: argument 0: expected an array of "
                r"float16 \(memref f16 512x128\), got float32"):
            gpucg.check_arguments(self.abi, (a.astype(numpy.float32), b, c))

    def test_shape(self):
        a, b, c = self.arrays()
        with self.assertRaisesRegex(
                ValueError, "matmul: argument 1: expected shape 128x512, "
                "got 128x256"):
            gpucg.check_arguments(self.abi, (a, b[:, :256], c))
        with self.assertRaisesRegex(ValueError, "expected shape 512x512, "
                                    "got 512"):
            gpucg.check_arguments(self.abi, (a, b, c[0]))

    def test_not_an_array(self):
        a, b, _ = self.arrays()
        with self.assertRaisesRegex(TypeError, "argument 2: expected a NumPy "
                                    "array or a torch CUDA tensor"):
            gpucg.check_arguments(self.abi, (a, b, [[0.0]]))

    def test_torch_checks(self):
        a, b, _ = self.arrays()
        good = FakeTorchTensor((512, 512), "torch.float32")
        self.assertEqual(gpucg.check_arguments(self.abi, (a, b, good))[2].kind,
                         "torch")
        cases = [
            (FakeTorchTensor((512, 512), "torch.float16"), TypeError,
             r"expected a tensor of torch.float32 \(memref f32 512x512\), "
             "got torch.float16"),
            (FakeTorchTensor((512, 512), "torch.float32", is_cuda=False),
             ValueError, "expected a CUDA tensor, got one on cpu"),
            (FakeTorchTensor((512, 512), "torch.float32", contiguous=False),
             ValueError, "must be contiguous"),
            (FakeTorchTensor((512, 512), "torch.float32", ptr=258),
             ValueError, "16-byte aligned"),
        ]
        for tensor, error, message in cases:
            with self.subTest(message=message):
                with self.assertRaisesRegex(error, message):
                    gpucg.check_arguments(self.abi, (a, b, tensor))

    def test_dynamic_shape_and_scalar(self):
        kernel_abi = abi.parse(DYNAMIC_ABI)
        self.assertEqual(str(kernel_abi.grid[0]), "ceildiv arg0.dim0 32")
        self.assertEqual(kernel_abi.grid[0].evaluate([(100, 64)]), 4)
        # Grid z of linearized batch loops: a size times a constant.
        times = abi.parse(DYNAMIC_ABI.replace(
            "grid_x ceildiv arg0.dim0 32", "grid_x ceildiv arg0.dim0 32 * 3"))
        self.assertEqual(str(times.grid[0]), "ceildiv arg0.dim0 32 * 3")
        self.assertEqual(times.grid[0].evaluate([(100, 64)]), 12)
        # Grid z of batch loops, several dynamic: a product of sizes (here
        # of one argument's two dimensions) times a constant.
        product = abi.parse(DYNAMIC_ABI.replace(
            "grid_x ceildiv arg0.dim0 32",
            "grid_x arg0.dim0 * ceildiv arg0.dim1 16 * 3"))
        self.assertEqual(str(product.grid[0]),
                         "arg0.dim0 * ceildiv arg0.dim1 16 * 3")
        self.assertEqual(product.grid[0].terms(), ((0, 0, 1), (0, 1, 16)))
        self.assertEqual(product.grid[0].evaluate([(100, 64)]), 100 * 4 * 3)
        data = numpy.zeros((100, 64), numpy.float32)
        prepared = gpucg.check_arguments(kernel_abi, (data, 2.0))
        self.assertEqual(prepared[1].scalar_bits, 0x40000000)
        with self.assertRaisesRegex(ValueError, r"expected shape \?x64, got "
                                    "100x32"):
            gpucg.check_arguments(kernel_abi, (data[:, :32], 2.0))
        with self.assertRaisesRegex(TypeError, r"argument 1: expected a "
                                    r"number \(f32\), got str"):
            gpucg.check_arguments(kernel_abi, (data, "2"))


class AbiTest(unittest.TestCase):

    def test_element_bits(self):
        # As the C runtime's gpucg_abi_type_bits: the named types, any iN,
        # siN and uiN up to 64 bits, and the 8-, 6- and 4-bit floats.
        cases = {"f16": 16, "bf16": 16, "index": 64, "i1": 1, "i4": 4,
                 "si16": 16, "ui32": 32, "f8E4M3FN": 8, "f8E5M2": 8,
                 "f6E2M3FN": 6, "f4E2M1FN": 4, "i65": 0, "f128": 0,
                 "vector": 0}
        for element_type, bits in cases.items():
            with self.subTest(element_type=element_type):
                self.assertEqual(abi.element_bits(element_type), bits)

    def test_float8_tensor_map_dtypes(self):
        # An e4m3 wgmma kernel takes torch.float8_e4m3fn tensors for its
        # tensor maps' memrefs.
        kernel_abi = abi.parse(DYNAMIC_ABI.replace(
            "calling_convention memref_descriptors",
            "calling_convention bare_pointers").replace(
            "grid_x ceildiv arg0.dim0 32", "grid_x 1").replace(
            "arguments 2\nargument 0 function_argument 0 memref f32 ?x64\n"
            "argument 1 function_argument 1 scalar f32",
            "arguments 2\nargument 0 function_argument 0 tensor_map "
            "f8E4M3FN 128x128 box 64x128 swizzle 128b\n"
            "argument 1 function_argument 1 memref f32 128x128"))
        good = (FakeTorchTensor((128, 128), "torch.float8_e4m3fn"),
                FakeTorchTensor((128, 128), "torch.float32"))
        self.assertEqual([p.kind for p in gpucg.check_arguments(kernel_abi,
                                                                 good)],
                         ["torch", "torch"])
        with self.assertRaisesRegex(TypeError, "expected a tensor of "
                                    r"torch.float8_e4m3fn \(memref f8E4M3FN "
                                    r"128x128\), got torch.float16"):
            gpucg.check_arguments(kernel_abi, (
                FakeTorchTensor((128, 128), "torch.float16"), good[1]))

    def test_results(self):
        kernel_abi = abi.parse(RESULTS_ABI)
        self.assertEqual([str(r) for r in kernel_abi.results],
                         ["result 3 arg0.dim0 72", "result 4 ?"])
        output = kernel_abi.results[0]
        self.assertEqual(output.shape([(100, 64), (64, 72), (72,)]), (100, 72))
        self.assertIsNone(output.shape([None]))
        self.assertIsNone(kernel_abi.results[1].shape([(100, 64)]))
        # The output is allocated from the inputs' shapes (no GPU needed);
        # one whose size only the caller knows must be passed.
        inputs = (numpy.zeros((100, 64), numpy.float16),
                  numpy.zeros((64, 72), numpy.float16),
                  numpy.zeros(72, numpy.float32))
        results_only = abi.parse(RESULTS_ABI.replace("result 4 ?\n", "")
                                 .replace("arguments 5", "arguments 4")
                                 .replace("argument 4 function_argument 4 "
                                          "memref i8 ?\n", ""))
        args, outputs = gpucg.runtime.allocate_outputs(results_only, inputs)
        self.assertEqual(len(args), 4)
        self.assertEqual(len(outputs), 1)
        self.assertEqual(outputs[0].shape, (100, 72))
        self.assertEqual(outputs[0].dtype, numpy.float32)
        self.assertEqual([p.kind for p in
                          gpucg.check_arguments(results_only, args)],
                         ["numpy"] * 4)
        with self.assertRaisesRegex(TypeError, r"linear: output argument 4 "
                                    r"\(memref i8 \?\) has a size only the "
                                    r"caller knows \(result 4 \?\); pass it"):
            gpucg.runtime.allocate_outputs(kernel_abi, inputs)
        with self.assertRaisesRegex(TypeError, r"its output\(s\) 3, 4 may be "
                                    "left out of a Kernel call"):
            gpucg.check_arguments(kernel_abi, inputs)
        with self.assertRaisesRegex(abi.AbiError, "result 1 has 1 size"
                                    r"\(s\), its memref rank 2"):
            abi.parse(RESULTS_ABI + "result 1 72\n")

    def test_compiled_results(self):
        # examples/matmul_bias_relu.mlir returns a new tensor: its .abi
        # names the output argument gpucg added.
        result = gpucg.compile(EXAMPLES / "matmul_bias_relu.mlir")
        kernel_abi = result.kernels[0].abi_info
        self.assertEqual([str(r) for r in kernel_abi.results],
                         ["result 3 100 72"])
        self.assertEqual(kernel_abi.num_function_arguments, 4)

    def test_errors(self):
        # The C reader's messages (test/Runtime/abi-invalid.test), with the
        # line.
        with self.assertRaisesRegex(abi.AbiError, "unsupported ABI version 2"):
            abi.parse(DYNAMIC_ABI.replace("abi 1", "abi 2"))
        with self.assertRaisesRegex(abi.AbiError, "unexpected end of file, "
                                    "expected 'kernel NAME'"):
            abi.parse("abi 1\nfunction f\n")
        with self.assertRaisesRegex(abi.AbiError, "unexpected end of file, "
                                    "expected 'argument 2 function_argument"):
            abi.parse(DYNAMIC_ABI.replace("arguments 2", "arguments 3"))
        with self.assertRaisesRegex(abi.AbiError, "grid_y: '2' before "
                                    r"'\*' is not argN.dimD"):
            abi.parse(DYNAMIC_ABI.replace("grid_y 1",
                                          "grid_y arg0.dim0 * 2 * 2"))
        with self.assertRaisesRegex(abi.AbiError, "grid_y: more than 3 "
                                    "run-time sizes"):
            abi.parse(DYNAMIC_ABI.replace(
                "grid_y 1", "grid_y arg0.dim0 * arg0.dim1 * arg0.dim0 * "
                "arg0.dim1"))
        with self.assertRaisesRegex(abi.AbiError, "fields are separated by "
                                    "single spaces"):
            abi.parse(DYNAMIC_ABI.replace("grid_y 1", "grid_y  1"))


if __name__ == "__main__":
    unittest.main()
