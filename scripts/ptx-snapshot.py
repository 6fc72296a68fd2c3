#!/usr/bin/env python3
"""The PTX of every benchmark kernel, to show a change leaves code alone.

    scripts/ptx-snapshot.py take OUT [--gpucg-opt PATH] [-j N] [--filter RE]
    scripts/ptx-snapshot.py compare OLD NEW

`take` compiles, with gpucg-compile's PTX format (`format=isa`, no CUDA
needed), every kernel the benchmarks time:

  - matmul: every case of bench/shapes/*.txt for sm_80, sm_90 and sm_90a,
    and for sm_90a again in each launch variant bench/gpu_run.py measures
    (persistent grid, 2x1 clusters, staged store, groups of 8 rows);
  - fused: bench/fused_epilogue.py's linear layers (sm_90 and sm_90a);
  - memory: bench/memory_bound.py's kernels for sm_80 and sm_90;

into OUT/<part>/, and writes OUT/SNAPSHOT: a line `<sha-256>  <path>` for
every PTX file, and `failed  <part>/<case>` for every case that did not
compile (the cases of a shape file some chips cannot run, say fp8 before
sm_90a, fail the same way every time). `compare` sets two snapshots side by
side: which kernels differ, which are only in one, and which cases compiled
in one but not the other; OLD/<path> and NEW/<path> are the files to diff.

A refactoring that means to change nothing (issue 36) takes a snapshot
before and after: `compare` exits 0 when every kernel is byte-identical.
About two minutes on two cores.

Exit status: take: 0 written (failed cases included), 2 bad usage or no
gpucg-opt; compare: 0 identical, 1 different, 2 unreadable snapshot.
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(SOURCE_DIR, "bench")
sys.path.insert(0, BENCH)
import benchcases  # noqa: E402
from compile_kernels import find_gpucg_opt  # noqa: E402

TOOL = "ptx-snapshot.py"

# (part, chip, compile_kernels.py options): bench/gpu_run.py's variants and
# sm_80, the A100's mma.sync plans.
MATMUL_VARIANTS = (
    ("matmul-sm_80", "sm_80", ()),
    ("matmul-sm_90", "sm_90", ()),
    ("matmul-sm_90a", "sm_90a", ()),
    ("matmul-sm_90a-persistent", "sm_90a", ("--wgmma-persistent",)),
    ("matmul-sm_90a-cluster2x1", "sm_90a", ("--wgmma-cluster", "2x1")),
    ("matmul-sm_90a-staged", "sm_90a", ("--wgmma-staged-store",)),
    ("matmul-sm_90a-rows", "sm_90a", ("--workgroup-group-size", "1")),
)
MEMORY_CHIPS = ("sm_80", "sm_90")


def shape_files(text):
    """bench/shapes/*.txt, but those with no case containing `text`."""
    folder = os.path.join(BENCH, "shapes")
    paths = sorted(os.path.join(folder, name) for name in os.listdir(folder)
                   if name.endswith(".txt"))
    return [path for path in paths if benchcases.select(
        benchcases.read_shapes([path]), [text] if text else [])]


def run(command, env):
    """Runs a benchmark tool; its output is kept only when it fails in a way
    that is not a case's failure (those are in the snapshot)."""
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode not in (0, 1):
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"{TOOL}: {' '.join(command[:2])} exited "
                         f"{result.returncode}")
    return result


def take(args):
    gpucg_opt = find_gpucg_opt(args.gpucg_opt)
    if not gpucg_opt:
        print(f"{TOOL}: gpucg-opt not found (--gpucg-opt, $GPUCG_OPT, "
              "build/bin/gpucg-opt or PATH)", file=sys.stderr)
        return 2
    out = os.path.abspath(args.out)
    if os.path.exists(out) and os.listdir(out):
        print(f"{TOOL}: {out} is not empty; a snapshot takes a new folder",
              file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, GPUCG_OPT=gpucg_opt)
    python = sys.executable
    failed = []
    shapes_files = shape_files(args.filter)
    for part, chip, options in MATMUL_VARIANTS:
        # One folder per shapes file: the files share some cases.
        for shapes in shapes_files:
            folder = os.path.join(
                part, os.path.splitext(os.path.basename(shapes))[0])
            command = [python, os.path.join(BENCH, "compile_kernels.py"),
                       "--shapes", shapes, "--out", os.path.join(out, folder),
                       "--chip", chip, "--format", "isa", "-j",
                       str(args.jobs), "--quiet", "--commit", "snapshot",
                       *options]
            if args.filter:
                command += ["--filter", args.filter]
            run(command, env)
            with open(os.path.join(out, folder, "manifest.txt")) as manifest:
                for line in manifest:
                    fields = line.split()
                    if fields[:1] == ["case"] and fields[2:3] == ["failed"]:
                        failed.append(f"{folder}/{fields[1]}")
        print(f"{TOOL}: {part} done", flush=True)
    fused = [python, os.path.join(BENCH, "fused_epilogue.py"),
             "--compile-only", os.path.join(out, "fused"), "--format", "isa"]
    failed += case_failures("fused", run(
        fused + (["--filter", args.filter] if args.filter else []), env))
    print(f"{TOOL}: fused done", flush=True)
    for chip in MEMORY_CHIPS:
        part = f"memory-{chip}"
        memory = [python, os.path.join(BENCH, "memory_bound.py"),
                  "--compile-only", os.path.join(out, part), "--format",
                  "isa", "--chip", chip]
        failed += case_failures(part, run(
            memory + (["--filter", args.filter] if args.filter else []), env))
        print(f"{TOOL}: {part} done", flush=True)

    lines = []
    for root, _, files in os.walk(out):
        for name in files:
            if name.endswith(".ptx"):
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                lines.append(f"{digest}  {os.path.relpath(path, out)}")
    lines.sort(key=lambda line: line.split("  ", 1)[1])
    lines += sorted(f"failed  {case}" for case in failed)
    with open(os.path.join(out, "SNAPSHOT"), "w") as f:
        f.write("".join(line + "\n" for line in lines))
    print(f"{TOOL}: {len(lines) - len(failed)} PTX files, {len(failed)} "
          f"cases failed; {os.path.join(out, 'SNAPSHOT')}")
    return 0


def case_failures(part, result):
    """Cases fused_epilogue.py or memory_bound.py reported as failed."""
    pattern = re.compile(r"^\S+: (?:(\S+) )?(\S+): compilation failed",
                         re.MULTILINE)
    return [f"{part}/" + "/".join(filter(None, match.groups()))
            for match in pattern.finditer(result.stderr)]


def read_snapshot(folder):
    kernels, failed = {}, set()
    path = os.path.join(folder, "SNAPSHOT")
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                key, _, name = line.rstrip("\n").partition("  ")
                if not name:
                    raise ValueError(f"line {number} is not '<sha> <path>'")
                if key == "failed":
                    failed.add(name)
                else:
                    kernels[name] = key
    except (OSError, ValueError) as error:
        raise SystemExit(f"{TOOL}: cannot read {path}: {error}")
    return kernels, failed


def compare(args):
    try:
        old_kernels, old_failed = read_snapshot(args.old)
        new_kernels, new_failed = read_snapshot(args.new)
    except SystemExit as error:
        print(error, file=sys.stderr)
        return 2
    differ = sorted(name for name in old_kernels.keys() & new_kernels.keys()
                    if old_kernels[name] != new_kernels[name])
    findings = [("differ", differ),
                ("only in OLD", sorted(old_kernels.keys() - new_kernels.keys())),
                ("only in NEW", sorted(new_kernels.keys() - old_kernels.keys())),
                ("failed only in OLD", sorted(old_failed - new_failed)),
                ("failed only in NEW", sorted(new_failed - old_failed))]
    for title, names in findings:
        for name in names:
            print(f"{title}: {name}")
    same = len(old_kernels.keys() & new_kernels.keys()) - len(differ)
    changes = sum(len(names) for _, names in findings)
    print(f"{TOOL}: {same} kernels byte-identical, {changes} differences "
          f"({len(old_failed & new_failed)} cases failed in both)")
    return 1 if changes else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    taking = commands.add_parser("take", help="compile and hash every "
                                 "benchmark kernel's PTX into OUT")
    taking.add_argument("out", metavar="OUT")
    taking.add_argument("--gpucg-opt", metavar="PATH")
    taking.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    taking.add_argument("--filter", default="",
                        help="only cases whose name contains (matmul) or "
                        "matches (fused, memory) this text")
    comparing = commands.add_parser("compare", help="set two snapshots side "
                                    "by side")
    comparing.add_argument("old", metavar="OLD")
    comparing.add_argument("new", metavar="NEW")
    args = parser.parse_args(argv)
    if args.command == "take":
        if args.jobs < 1:
            parser.error("-j must be at least 1")
        return take(args)
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
