#!/usr/bin/env python3
"""Compiles gpucg-bench's cases with gpucg-compile into a kernels directory.

    bench/compile_kernels.py --shapes bench/shapes/squares.txt --out kernels
    bench/compile_kernels.py --shapes FILE --out DIR --chip sm_80 -j 8

For every case of the shapes files (format: docs/Benchmark.md) it writes the
linalg source DIR/src/<key>.mlir (C = 0, then C += A * B, A * B^T or
A^T * B, for `#gpucg.target<chip = CHIP>`) and runs

    gpucg-opt DIR/src/<key>.mlir --pass-pipeline='builtin.module(
        gpucg-compile{chip=CHIP format=FORMAT output-dir=DIR})'

in parallel. DIR then holds, for each compiled case, the binaries and
`.abi` files of its launches (docs/ABI.md), and DIR/manifest.txt says which
`.abi` files each case launches, in order, or that it failed (the reason is
in DIR/logs/<key>.log and printed). DIR is self-contained: copy it to the
GPU machine and point `gpucg-bench --kernels DIR` at it.

Exit status: 0 every case compiled; 1 some failed (the manifest is still
written, with `failed` lines); 2 bad usage, shapes file or gpucg-opt.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchcases  # noqa: E402

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(SCRIPT_DIR)
FORMATS = {"bin": "cubin", "isa": "ptx", "fatbin": "fatbin"}
LAUNCH_PATTERN = re.compile(r"gpu\.launch_func\s+@[\w$.-]+::@([\w$.-]+)")
# What compile_kernels.py writes into DIR, and so may remove from it.
OWN_FILE_SUFFIXES = (".abi", ".cubin", ".ptx", ".fatbin", ".bc")
OWN_DIRECTORIES = ("src", "logs")


def find_gpucg_opt(explicit):
    """--gpucg-opt, else $GPUCG_OPT, else build/bin/gpucg-opt, else PATH."""
    candidates = [explicit, os.environ.get("GPUCG_OPT"),
                  os.path.join(SOURCE_DIR, "build", "bin", "gpucg-opt")]
    for candidate in candidates:
        if not candidate:
            continue
        resolved = shutil.which(candidate) if os.sep not in candidate else (
            candidate if os.access(candidate, os.X_OK) else None)
        if resolved:
            return resolved
        if candidate == explicit:
            return None
    return shutil.which("gpucg-opt")


def native_chip(gpucg_opt):
    """sm_XY of this machine's GPU: from `gpucg-bench --device-info` (beside
    gpucg-opt, or on PATH; the device gpucg-bench will use), else from
    nvidia-smi (GPU 0). None when neither can tell."""
    bench = os.path.join(os.path.dirname(gpucg_opt), "gpucg-bench")
    commands = []
    for candidate in (bench, shutil.which("gpucg-bench")):
        if candidate and os.access(candidate, os.X_OK):
            commands.append([candidate, "--device-info"])
    if shutil.which("nvidia-smi"):
        commands.append(["nvidia-smi", "--query-gpu=compute_cap",
                         "--format=csv,noheader", "--id=0"])
    for command in commands:
        try:
            result = subprocess.run(command, capture_output=True, text=True,
                                    timeout=60, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if result.returncode != 0:
            continue
        if command[0].endswith("nvidia-smi"):
            match = re.fullmatch(r"(\d+)\.(\d+)", result.stdout.strip())
            if match:
                return f"sm_{match.group(1)}{match.group(2)}"
        else:
            match = re.search(r"\bsm_\d+\b", result.stdout)
            if match:
                return match.group(0)
    return None


def git_commit():
    try:
        result = subprocess.run(
            ["git", "-C", SOURCE_DIR, "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = result.stdout.strip()
    if result.returncode or not commit:
        return "unknown"
    dirty = subprocess.run(
        ["git", "-C", SOURCE_DIR, "status", "--porcelain", "--untracked-files=no"],
        capture_output=True, text=True, timeout=30, check=False)
    return commit + ("+changes" if dirty.stdout.strip() else "")


LAYOUT_TEXT = {"nn": "C = A * B, B is K x N (nn)",
               "nt": "C = A * B^T, B is N x K (nt)",
               "tn": "C = A^T * B, A is K x M (tn)",
               "tt": "C = A^T * B^T, A is K x M, B is N x K (tt)"}


def mlir_source(case, chip, dynamic_sizes=False):
    """C = 0; C += A * B (nn), A * B^T (nt), A^T * B (tn) or A^T * B^T (tt),
    all row-major, on tensors. A transposed operand is an indexing map of
    linalg.matmul.
    With `dynamic_sizes`, M, N and K are `?`: a kernel for sizes known at
    run time, which gpucg-bench passes."""
    t_in, t_acc = case.in_type, case.acc_type

    def shape(rows, columns):
        return "?x?" if dynamic_sizes else f"{rows}x{columns}"
    a_type = f"tensor<{shape(*case.a_shape)}x{t_in}>"
    b_type = f"tensor<{shape(*case.b_shape)}x{t_in}>"
    c_type = f"tensor<{shape(case.m, case.n)}x{t_acc}>"
    zero = "0" if t_acc.startswith("i") else "0.0"
    maps = ""
    if case.transpose_a or case.transpose_b:
        a_map = "(k, m)" if case.transpose_a else "(m, k)"
        b_map = "(n, k)" if case.transpose_b else "(k, n)"
        maps = (f"indexing_maps = [affine_map<(m, n, k) -> {a_map}>, "
                f"affine_map<(m, n, k) -> {b_map}>, "
                "affine_map<(m, n, k) -> (m, n)>]\n                       ")
    layout = LAYOUT_TEXT[case.layout]
    sizes = ", sizes known at run time" if dynamic_sizes else ""
    return f"""\
// gpucg-bench case {case.key} ({case.name}, {case.file}:{case.line}),
// written by bench/compile_kernels.py: {layout}, row-major, C zeroed first{sizes}.
module attributes {{gpucg.target = #gpucg.target<chip = "{chip}">}} {{
  func.func @{case.function_name}(%a: {a_type}, %b: {b_type},
      %c: {c_type}) -> {c_type} {{
    %zero = arith.constant {zero} : {t_acc}
    %init = linalg.fill ins(%zero : {t_acc}) outs(%c : {c_type}) -> {c_type}
    %0 = linalg.matmul {maps}ins(%a, %b : {a_type}, {b_type})
                       outs(%init : {c_type}) -> {c_type}
    return %0 : {c_type}
  }}
}}
"""


def first_error(text):
    """The first diagnostic line of gpucg-opt's stderr, for the summary."""
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0].strip() if lines else "(no output)"


def cluster_shape(text):
    """`MxN` (two positive workgroup counts) as (M, N), for argparse."""
    match = re.fullmatch(r"([1-9][0-9]*)x([1-9][0-9]*)", text)
    if not match:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not MxN (two positive workgroup counts)")
    return int(match.group(1)), int(match.group(2))


def compile_options(args):
    """The gpucg-compile options, beyond chip, format and output-dir, that
    the command line asks for: in every case's pipeline and in the
    manifest's `options` line, so that a kernels directory says how its
    kernels were made."""
    options = []
    if args.wgmma_persistent is not None:
        options += ["wgmma-persistent=true",
                    f"wgmma-persistent-workgroups={args.wgmma_persistent}"]
    if args.wgmma_stream_k:
        options.append("wgmma-stream-k=true")
    if args.wgmma_staged_store:
        options.append("wgmma-staged-store=true")
    if args.wgmma_cluster:
        cluster_m, cluster_n = args.wgmma_cluster
        options += [f"wgmma-cluster-m={cluster_m}",
                    f"wgmma-cluster-n={cluster_n}"]
    if args.workgroup_group_size:
        options.append(f"workgroup-group-size={args.workgroup_group_size}")
    if args.split_k:
        options.append(f"split-k={args.split_k}")
    return options


def compile_case(case, args, gpucg_opt, out_dir):
    """Returns (case, kernels or None, seconds, message)."""
    source = os.path.join(out_dir, "src", case.key + ".mlir")
    with open(source, "w", encoding="utf-8") as handle:
        handle.write(mlir_source(case, args.chip, args.dynamic_sizes))
    options = "".join(" " + option for option in compile_options(args))
    pipeline = (f"builtin.module(gpucg-compile{{chip={args.chip} "
                f"format={args.format} output-dir={out_dir}{options}}})")
    with tempfile.TemporaryDirectory(prefix="gpucg-bench-") as scratch:
        lowered = os.path.join(scratch, "lowered.mlir")
        command = [gpucg_opt, source, "--pass-pipeline=" + pipeline,
                   "-o", lowered]
        start = time.monotonic()
        try:
            result = subprocess.run(command, capture_output=True, text=True,
                                    timeout=args.timeout, check=False)
            status, stderr = result.returncode, result.stderr
        except subprocess.TimeoutExpired as error:
            status = None
            stderr = error.stderr or ""
            if isinstance(stderr, bytes):
                stderr = stderr.decode(errors="replace")
            stderr += f"\ncompile_kernels.py: error: timed out after {args.timeout} s\n"
        seconds = time.monotonic() - start
        kernels, problem = None, None
        if status == 0:
            with open(lowered, encoding="utf-8", errors="replace") as handle:
                launches = LAUNCH_PATTERN.findall(handle.read())
            kernels, problem = check_launches(launches, out_dir)
        elif status is not None:
            problem = first_error(stderr)
        else:
            problem = f"timed out after {args.timeout} s"
    if kernels is None:
        log = os.path.join(out_dir, "logs", case.key + ".log")
        with open(log, "w", encoding="utf-8") as handle:
            handle.write("$ " + " ".join(
                f"'{part}'" if " " in part or "{" in part else part
                for part in command) + "\n")
            handle.write(f"exit status: {status}\n")
            handle.write(stderr)
            if problem and status == 0:
                handle.write(f"compile_kernels.py: error: {problem}\n")
    return case, kernels, seconds, problem


def check_launches(launches, out_dir):
    """The .abi files of the host function's launches, checked: each exists
    and names a binary that exists."""
    if not launches:
        return None, "gpucg-opt succeeded but the output launches no kernel"
    abis = []
    for kernel in launches:
        abi = kernel + ".abi"
        path = os.path.join(out_dir, abi)
        if not os.path.exists(path):
            return None, f"gpucg-opt wrote no {abi}"
        binary = None
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                fields = line.split()
                if len(fields) == 2 and fields[0] == "binary":
                    binary = fields[1]
        if not binary or not os.path.exists(os.path.join(out_dir, binary)):
            return None, f"{abi} names a binary that is not there ({binary})"
        abis.append(abi)
    return abis, None


def prepare_output(out_dir):
    """Creates DIR, or empties one this script wrote (it has manifest.txt)."""
    if os.path.isdir(out_dir) and os.listdir(out_dir):
        if not os.path.exists(os.path.join(out_dir, "manifest.txt")):
            print(f"compile_kernels.py: {out_dir} is not empty and has no "
                  "manifest.txt; refusing to write into it", file=sys.stderr)
            sys.exit(2)
        for entry in os.listdir(out_dir):
            path = os.path.join(out_dir, entry)
            if entry in OWN_DIRECTORIES and os.path.isdir(path):
                shutil.rmtree(path)
            elif entry == "manifest.txt" or entry.endswith(OWN_FILE_SUFFIXES):
                os.remove(path)
    for sub in ("",) + OWN_DIRECTORIES:
        os.makedirs(os.path.join(out_dir, sub), exist_ok=True)


def write_manifest(out_dir, args, results):
    lines = [
        "# gpucg-bench kernels (docs/Benchmark.md), written by "
        "bench/compile_kernels.py",
        "# case KEY ok ABI...: the .abi files its host function launches, "
        "in order",
        "# case KEY failed: gpucg-compile failed; logs/KEY.log says why",
        "# options: the gpucg-compile options beyond chip and format",
        "# sizes: static, or dynamic (M, N and K are `?`, passed at launch)",
        "manifest 1",
        f"chip {args.chip}",
        f"format {FORMATS[args.format]}",
        f"commit {args.commit}",
        "options " + (" ".join(compile_options(args)) or "none"),
        "sizes " + ("dynamic" if args.dynamic_sizes else "static"),
        "created " + datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    ]
    for case, kernels, _, _ in results:
        if kernels:
            lines.append(f"case {case.key} ok " + " ".join(kernels))
        else:
            lines.append(f"case {case.key} failed")
    with open(os.path.join(out_dir, "manifest.txt"), "w",
              encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(
        description="Compile gpucg-bench's cases with gpucg-compile "
                    "(docs/Benchmark.md).")
    parser.add_argument("--shapes", action="append", required=True,
                        metavar="FILE", help="shapes file (repeatable)")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="kernels directory to write")
    parser.add_argument("--chip", default="sm_90",
                        help="target chip (default sm_90: H100/H200; sm_80: "
                             "A100; native: this machine's GPU)")
    parser.add_argument("--format", default="bin", choices=sorted(FORMATS),
                        help="gpucg-compile format: bin (cubin, default), isa "
                             "(PTX, needs no CUDA), fatbin")
    parser.add_argument("--gpucg-opt", metavar="PATH",
                        help="gpucg-opt (default: $GPUCG_OPT, "
                             "build/bin/gpucg-opt, PATH)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help="parallel compilations (default: CPU count)")
    parser.add_argument("--filter", action="append", default=[],
                        metavar="TEXT",
                        help="only cases whose key or name contains TEXT")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds per compilation (default 600)")
    parser.add_argument("--commit", default=None,
                        help="gpucg commit for the manifest (default: git)")
    parser.add_argument("--wgmma-persistent", type=int, nargs="?", const=0,
                        default=None, metavar="N",
                        help="warp-specialized sm_90a wgmma kernels on a "
                        "persistent grid of N workgroups (default 0: one "
                        "per SM)")
    parser.add_argument("--wgmma-stream-k", action="store_true",
                        help="warp-specialized sm_90a wgmma kernels run "
                        "stream-K on the persistent grid (of "
                        "--wgmma-persistent workgroups, default one per "
                        "SM): the last waves' K steps split evenly over the "
                        "workgroups (gpucg-compile's wgmma-stream-k)")
    parser.add_argument("--wgmma-staged-store", action="store_true",
                        help="sm_90a wgmma kernels without a fused epilogue "
                        "store C through shared memory with 16-byte stores "
                        "where the ring holds the staging buffer "
                        "(gpucg-compile's wgmma-staged-store)")
    parser.add_argument("--wgmma-cluster", type=cluster_shape, default=None,
                        metavar="MxN",
                        help="warp-specialized sm_90a wgmma kernels in "
                        "thread-block clusters of M x N workgroups that "
                        "share tiles by TMA multicast (gpucg-compile's "
                        "wgmma-cluster-m and wgmma-cluster-n)")
    parser.add_argument("--workgroup-group-size", type=int, default=0,
                        metavar="G",
                        help="start the tiles in groups of G rows, column "
                        "by column, for L2 reuse (gpucg-compile's "
                        "workgroup-group-size; 1: row by row; default 0: "
                        "the strategy's default order)")
    parser.add_argument("--split-k", type=int, default=0, metavar="S",
                        help="split each output tile's K loop of mma.sync "
                        "kernels into S parts, one workgroup each "
                        "(gpucg-compile's split-k; 1: whole; default 0: "
                        "the strategy's default)")
    parser.add_argument("--dynamic-sizes", action="store_true",
                        help="compile each case with M, N and K dynamic "
                        "(`?` in the kernel's types: sizes known at run "
                        "time, as a model with a variable batch or hidden "
                        "size has), the case's own sizes passed at launch")
    parser.add_argument("--quiet", action="store_true",
                        help="print failures and the summary only")
    args = parser.parse_args()
    if args.workgroup_group_size < 0:
        parser.error("--workgroup-group-size must be 0 or more")
    if args.split_k < 0:
        parser.error("--split-k must be 0 or more")
    if args.jobs < 1:
        parser.error("-j must be at least 1")
    if args.chip != "native" and not re.fullmatch(r"sm_\d+a?", args.chip):
        parser.error("--chip must look like sm_90 or sm_90a, or be native, "
                     f"got '{args.chip}'")

    cases = benchcases.read_shapes_or_exit(args.shapes, args.filter,
                                           "compile_kernels.py")
    gpucg_opt = find_gpucg_opt(args.gpucg_opt)
    if not gpucg_opt:
        print("compile_kernels.py: gpucg-opt not found (--gpucg-opt, "
              "$GPUCG_OPT, build/bin/gpucg-opt or PATH); build gpucg first",
              file=sys.stderr)
        return 2
    if args.chip == "native":
        args.chip = native_chip(gpucg_opt)
        if not args.chip:
            print("compile_kernels.py: --chip native: no GPU found (neither "
                  "gpucg-bench --device-info nor nvidia-smi could tell)",
                  file=sys.stderr)
            return 2
    if args.commit is None:
        args.commit = git_commit()
    out_dir = os.path.abspath(args.out)
    prepare_output(out_dir)

    print(f"compile_kernels.py: {len(cases)} cases for {args.chip} "
          f"(format={args.format}) with {gpucg_opt}, {args.jobs} jobs, "
          f"into {out_dir}", flush=True)
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(compile_case, case, args, gpucg_opt, out_dir)
                   for case in cases]
        for done, future in enumerate(concurrent.futures.as_completed(futures),
                                      1):
            case, kernels, seconds, problem = future.result()
            results.append((case, kernels, seconds, problem))
            if kernels and not args.quiet:
                print(f"[{done}/{len(cases)}] ok      {case.key} "
                      f"({seconds:.1f} s): {' '.join(kernels)}", flush=True)
            elif not kernels:
                print(f"[{done}/{len(cases)}] FAILED  {case.key} "
                      f"({case.file}:{case.line}): {problem} "
                      f"[logs/{case.key}.log]", flush=True)
    order = {case.key: index for index, case in enumerate(cases)}
    results.sort(key=lambda result: order[result[0].key])
    write_manifest(out_dir, args, results)
    failed = [case.key for case, kernels, _, _ in results if not kernels]
    print(f"compile_kernels.py: {len(cases) - len(failed)} compiled, "
          f"{len(failed)} failed; manifest: "
          f"{os.path.join(out_dir, 'manifest.txt')}")
    for key in failed:
        print(f"  failed: {key} (logs/{key}.log)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
