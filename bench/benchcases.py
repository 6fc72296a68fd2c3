"""The shapes file of gpucg-bench, for the Python tools of bench/.

bench/src/cases.c reads the same format in C; both give every case the same
key, which joins the rows of gpucg-bench's CSV, triton_matmul.py's CSV and
the kernel manifest of compile_kernels.py. Format (docs/Benchmark.md):

    # comment
    M N K in_type acc_type [nn|nt|tn|tt] [name]

The layout, in cuBLAS's names (A's letter, then B's): `nn`: A is M x K, B is
K x N (C = A * B); `nt`: B is N x K (C = A * B^T, a PyTorch Linear weight);
`tn`: A is K x M (C = A^T * B, a weight gradient dY^T X); `tt`: A is K x M
and B is N x K (C = A^T * B^T); an A stored K x M takes f16, bf16 and f32
inputs only. Type pairs: f16 -> f32, f16 -> f16, bf16 -> f32, f32 -> f32
(TF32), i8 -> i32, f8E4M3FN -> f32, f8E5M2 -> f32.
"""

import re
import sys
from dataclasses import dataclass

SUPPORTED_PAIRS = {("f16", "f32"), ("f16", "f16"), ("bf16", "f32"),
                   ("f32", "f32"), ("i8", "i32"), ("f8E4M3FN", "f32"),
                   ("f8E5M2", "f32")}
IN_TYPES = ("f16", "bf16", "f32", "i8", "f8E4M3FN", "f8E5M2")
ACC_TYPES = ("f32", "f16", "i32")
NAME_PATTERN = re.compile(r"[A-Za-z0-9_.+-]{1,95}")
INT32_MAX = 2147483647
# The 6th field: (transpose_a, transpose_b) of each layout.
LAYOUTS = {"nn": (False, False), "nt": (False, True), "tn": (True, False),
           "tt": (True, True)}


@dataclass
class Case:
    m: int
    n: int
    k: int
    in_type: str
    acc_type: str
    transpose_a: bool  # A stored K x M (`tn`, `tt`)
    transpose_b: bool  # B stored N x K (`nt`, `tt`)
    name: str
    file: str
    line: int

    @property
    def layout(self):
        """`t` for an operand stored transposed, `n` else; A's letter first."""
        return ("t" if self.transpose_a else "n") + \
            ("t" if self.transpose_b else "n")

    @property
    def a_shape(self):
        """A as stored: M x K, or K x M for `tn` and `tt`."""
        return (self.k, self.m) if self.transpose_a else (self.m, self.k)

    @property
    def b_shape(self):
        """B as stored: K x N, or N x K for `nt` and `tt`."""
        return (self.n, self.k) if self.transpose_b else (self.k, self.n)

    @property
    def key(self):
        return (f"{self.in_type}_{self.acc_type}_{self.layout}_"
                f"{self.m}x{self.n}x{self.k}")

    @property
    def function_name(self):
        return f"gemm_{self.key}"

    @property
    def flops(self):
        return 2 * self.m * self.n * self.k

    @property
    def value_range(self):
        """Inputs are integers in [-r, r] (exact: docs/Benchmark.md)."""
        return 1 if self.acc_type == "f16" else 2


class ShapesError(Exception):
    """Malformed shapes file(s); the message lists every bad line."""


def _parse_dimension(text):
    if not text.isdigit():
        return None
    value = int(text)
    return value if 1 <= value <= INT32_MAX else None


def _parse_line(fields):
    """Returns (m, n, k, in, acc, transpose_a, transpose_b, name or None) or
    an error."""
    if not 5 <= len(fields) <= 7:
        return ("expected 5 to 7 fields (M N K in_type acc_type "
                f"[nn|nt|tn|tt] [name]), got {len(fields)}")
    dims = []
    for label, text in zip("MNK", fields[:3]):
        value = _parse_dimension(text)
        if value is None:
            return f"{label} must be an integer from 1 to 2147483647, got '{text}'"
        dims.append(value)
    in_type, acc_type = fields[3], fields[4]
    if in_type not in IN_TYPES:
        return (f"unknown in_type '{in_type}' (expected f16, bf16, f32, i8, "
                "f8E4M3FN or f8E5M2)")
    if acc_type not in ACC_TYPES:
        return f"unknown acc_type '{acc_type}' (expected f32, f16 or i32)"
    if (in_type, acc_type) not in SUPPORTED_PAIRS:
        return (f"unsupported types {in_type} -> {acc_type} (supported: "
                "f16 -> f32, f16 -> f16, bf16 -> f32, f32 -> f32 (TF32), "
                "i8 -> i32, f8E4M3FN -> f32, f8E5M2 -> f32)")
    transpose_a = transpose_b = False
    if len(fields) >= 6:
        if fields[5] not in LAYOUTS:
            return ("the 6th field is the layout, 'nn' (A M x K, B K x N), "
                    "'nt' (A M x K, B N x K), 'tn' (A K x M, B K x N) or "
                    f"'tt' (A K x M, B N x K), got '{fields[5]}'")
        transpose_a, transpose_b = LAYOUTS[fields[5]]
    if transpose_a and in_type in ("i8", "f8E4M3FN", "f8E5M2"):
        return (f"layout '{fields[5]}' (A stored K x M) takes f16, bf16 or "
                f"f32 inputs, got {in_type} (wgmma and cuBLAS's 8-bit "
                "tensor-core GEMMs read 8-bit operands K-contiguous only)")
    name = None
    if len(fields) == 7:
        if not NAME_PATTERN.fullmatch(fields[6]):
            return (f"invalid name '{fields[6]}' (1 to 95 characters of "
                    "A-Z a-z 0-9 _ - . +)")
        name = fields[6]
    return (*dims, in_type, acc_type, transpose_a, transpose_b, name)


def read_shapes(paths):
    """Reads shapes files into a list of Case; raises ShapesError listing
    every malformed line as FILE:LINE: error: ..."""
    cases, errors, seen = [], [], {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except OSError as error:
            errors.append(f"{path}: error: cannot open the shapes file: "
                          f"{error.strerror}")
            continue
        for number, line in enumerate(lines, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            parsed = _parse_line(fields)
            if isinstance(parsed, str):
                errors.append(f"{path}:{number}: error: {parsed}")
                continue
            case = Case(*parsed[:-1], "", path, number)
            name = parsed[-1]
            case.name = name or case.key
            if case.key in seen:
                first = seen[case.key]
                errors.append(f"{path}:{number}: error: duplicate case "
                              f"{case.key} (first at {first.file}:{first.line})")
                continue
            seen[case.key] = case
            cases.append(case)
    if errors:
        raise ShapesError("\n".join(errors))
    return cases


def select(cases, filters):
    """The cases whose key or name contains one of `filters` (all if none)."""
    if not filters:
        return list(cases)
    return [c for c in cases
            if any(f in c.key or f in c.name for f in filters)]


def read_shapes_or_exit(paths, filters, tool):
    """read_shapes + select for a command-line tool: exit status 2 on error."""
    try:
        cases = read_shapes(paths)
    except ShapesError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
    selected = select(cases, filters)
    if not selected:
        print(f"{tool}: no case selected ({len(cases)} in the shapes files)",
              file=sys.stderr)
        sys.exit(2)
    return selected
