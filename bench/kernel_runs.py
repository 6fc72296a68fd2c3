"""What bench/memory_bound.py and bench/fused_epilogue.py share: their common
options, their kernels directory's manifest, the check of a prepared kernel
without a GPU, and the GPU stack their --run-only half needs (the gpucg
package with its CUDA runtime, and PyTorch with CUDA).

Each takes the calling tool's name for its messages; a missing GPU is exit
status 77 (EXIT_NO_GPU), a bad directory 2.
"""

import argparse
import json
import os
import sys

EXIT_NO_GPU = 77


def argument_parser(description, unit):
    """The options both tools take: --compile-only OUT, --run-only OUT or
    --list; --format, --filter, --deadline (no `unit` started after it) and
    --dry-run. Each adds its own; parse with parse_arguments."""
    parser = argparse.ArgumentParser(description=description)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--compile-only", metavar="OUT",
                      help="compile every case into OUT (needs gpucg-opt)")
    mode.add_argument("--run-only", metavar="OUT",
                      help="run OUT's kernels (needs a GPU and PyTorch)")
    mode.add_argument("--list", action="store_true", help="list the cases")
    parser.add_argument("--format", default="bin", choices=("bin", "isa"),
                        help="cubins (bin, needs ptxas) or PTX (isa)")
    parser.add_argument("--filter", default="",
                        help="only cases whose name matches this regex")
    parser.add_argument("--deadline", type=float, default=0,
                        help=f"--run-only: start no {unit} after this many "
                        "seconds")
    parser.add_argument("--dry-run", action="store_true",
                        help="--run-only without a GPU: check the kernels, "
                        "write the tables without numbers")
    return parser


def parse_arguments(parser, argv):
    args = parser.parse_args(argv)
    if args.dry_run and not args.run_only:
        parser.error("--dry-run goes with --run-only")
    return args


def read_manifest(tool, out):
    """OUT/manifest.json, or None after printing why not."""
    try:
        with open(os.path.join(out, "manifest.json")) as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        print(f"{tool}: cannot read {out}/manifest.json: {error}",
              file=sys.stderr)
        return None


def no_gpu(tool, reason):
    print(f"{tool}: no usable CUDA GPU: {reason}", file=sys.stderr)
    return EXIT_NO_GPU


def import_abi_reader(tool):
    """gpucg.abi, or None after printing why not."""
    try:
        from gpucg import abi
    except ImportError as error:
        print(f"{tool}: the gpucg package does not load ({error}); put "
              "python/ on PYTHONPATH", file=sys.stderr)
        return None
    return abi


def check_kernel(abi, path):
    """(the kernel's ABI, None) when the .abi file at `path` reads and names
    a binary beside it, else (None or the ABI, the problem)."""
    try:
        kernel = abi.read(path)
    except (OSError, ValueError) as error:
        return None, str(error)
    binary = os.path.join(os.path.dirname(path), kernel.binary)
    return kernel, None if os.path.exists(binary) else f"no binary {binary}"


def import_gpu_stack(tool):
    """(gpucg, torch), or an exit status after printing why not."""
    try:
        import gpucg
    except ImportError as error:
        return no_gpu(tool, f"the gpucg package does not load ({error}); "
                      "put python/ on PYTHONPATH")
    if gpucg.device_count() == 0:
        return no_gpu(tool, "the gpucg runtime finds no device (build "
                      "libgpucg_cuda_runtime.so and set GPUCG_RUNTIME_LIB)")
    try:
        import torch
    except ImportError as error:
        return no_gpu(tool, f"PyTorch is missing ({error})")
    if not torch.cuda.is_available():
        return no_gpu(tool, "torch.cuda.is_available() is false")
    return gpucg, torch
