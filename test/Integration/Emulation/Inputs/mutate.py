#!/usr/bin/env python3
"""Plants one known bug in a pipeline's printed output, for the emulator's
mutation tests: each mutation must make the emulated kernel fail (wrong
numbers, a race report or a barrier error), which shows that the emulator
would catch that bug if a pass made it.

  mutate.py MUTATION [N] < in.mlir > out.mlir

Mutations (N counts matches from 1, in print order):
  drop-barrier N     delete the N-th gpu.barrier
  weaken-wait N      let the N-th nvgpu.device_async_wait leave one more
                     group pending (numGroups + 1; a wait for all groups
                     becomes {numGroups = 1})
  flip-transpose N   flip the transpose flag of the N-th nvgpu.ldmatrix
  unswizzle-reads    give every nvgpu.ldmatrix the column index from before
                     the XOR swizzle, which the copies into workgroup memory
                     still apply
  drop-zero-fill [N] remove the source element count of the N-th
                     nvgpu.device_async_copy that has one, or of every one
                     without N: the copy reads its whole vector instead of
                     zero-filling what lies past the matrix
  unmask-edge-store N
                     remove the mask of the N-th masked
                     vector.transfer_write to global memory (a partial
                     tile's edge store): the whole vector is written
  pad-global-reads   pad every masked vector.transfer_read of global
                     memory (a register-staged copy's) with one instead of
                     zero: what lies past the matrix reads as ones
  drop-mbarrier-wait N
                     delete the N-th nvgpu.mbarrier.try_wait.parity
  deepen-wgmma N     let the N-th nvgpu.warpgroup.mma leave one more group
                     in flight (waitGroup + 1; the default is 1)
  untranspose-a N    drop transposeA from the N-th nvgpu.warpgroup.mma that
                     has it: wgmma reads its M-major A tile as K-major
  drop-wgmma-wait N  delete the N-th nvvm.wgmma.wait.group.sync.aligned
  drop-named-barrier N
                     delete the N-th nvvm.barrier (a barrier of some of the
                     workgroup's threads, such as one warpgroup's)
  drop-cluster-wait N
                     delete the N-th nvvm.cluster.wait (the wait of a
                     barrier of the whole thread-block cluster)
  drop-addend N      let the N-th arith.addf of vectors yield its first
                     operand (an epilogue's sum without its second
                     addend, such as C's prior contents in C += A * B)
  drop-remote-arrive N
                     delete the N-th nvvm.mbarrier.arrive on a
                     shared::cluster pointer (an arrival on another
                     workgroup's mbarrier)
  pass-cluster-wait N
                     let the N-th nvvm.mbarrier.try_wait (a wait on an
                     mbarrier at cluster scope, retried until it succeeds)
                     succeed at once: its result becomes true
  unguard-rows N      let the N-th row test of a guarded store (an
                     arith.cmpi ult that the next line ands with the column
                     test: a MatmulWgmma staged store's row inside M) be
                     true: rows past M are written
  untranspose-store N
                     replace the N-th memref.transpose (a transposed wgmma
                     tile's view of C's columns, which
                     nvgpu.warpgroup.mma.store writes) by a row-major view
                     of the same shape at the same (static) offset: the
                     C^T fragment lands untransposed
  first-matrix N     replace the N-th memref.collapse_shape (a batched
                     operand's matrices as one, their rows stacked, which
                     its TMA tensor map is built on) by a view of its first
                     matrix: the loads of every other matrix read past it
  count-twice N      let the N-th memref.atomic_rmw addi (a split-K
                     workgroup's arrival at its tile's counter) add 2: an
                     arrival counted twice, so no workgroup sees itself
                     last and the tile's sum is never written
  first-arrival-sums N
                     let the comparison of the N-th memref.atomic_rmw addi's
                     result (is this the last of the tile's workgroups?)
                     compare with 0: the first workgroup to arrive adds
                     the partial sums, before the others have published
                     theirs
  drop-fence N       delete the N-th nvvm.memory.barrier (a fence at gpu
                     scope: a split-K part's before it counts its arrival,
                     or the last part's after it, before it reads the
                     others' partial sums)
  skip-first-part N  start the N-th loop over split-K partial sums (an
                     scf.for whose body loads from a
                     __gpucg_split_k_partials_ global) at its step: part
                     0's sum is left out of the total

  whole-edge-piece N
                     let the N-th arith.cmpi uge (a MatmulWgmma epilogue's
                     test, under a dynamic N, that the columns left in the
                     row hold a whole piece) be true: a piece that N cuts
                     is written whole, past the row's end

  assume-aligned N   let the arith.remui by 16 after the N-th
                     memref.extract_aligned_pointer_as_index (a run-time
                     check that an address is 16-byte aligned: a
                     MatmulWgmma epilogue's before its aligned vector
                     store, or gpucg-version-vector-alignment's before a
                     16-byte access) be 0: the aligned access is taken
                     wherever the rest of the condition holds
  assume-whole N     let the first arith.cmpi sge after the N-th
                     memref.extract_aligned_pointer_as_index
                     (gpucg-version-vector-alignment's check that a masked
                     transfer's count covers the whole vector) be true: a
                     partial vector at an aligned address is read or
                     written whole, past the matrix's edge
  pitch-check-always N
                     let the condition of the N-th scf.if marked
                     gpucg.row_pitch_specialization (a workgroup's run-time
                     check that its operands' row pitches are 16-byte
                     multiples) be true: the aligned copy's 16-byte async
                     copies run at any pitch
  loader-only-full N  let the N-th nvgpu.mbarrier.init of 129 arrivals (a
                     MatmulWgmma stage's full barrier with a restaged
                     operand: the loader's expect_tx and each producer
                     thread's after restaging) count the loader's alone:
                     the consumers may multiply before the K-major tile
                     is written

  ceil-row-steps N    round up instead of down in the N-th affine map (a
                     map alias, in print order) that is exactly
                     `(sK floordiv V) * V` (gpucg-distribute-reduction's
                     end of the whole vectors' steps along a row of a
                     run-time size): the last vector step runs past the
                     row's end, and the tail repeats its elements

A mutation that finds nothing to change is an error (exit status 2), so a
pipeline change cannot silently turn a mutation test into a no-op.
"""

import re
import sys


def fail(message):
    sys.stderr.write("mutate.py: " + message + "\n")
    sys.exit(2)


def nth_line(lines, pattern, n):
    seen = 0
    for index, line in enumerate(lines):
        if re.search(pattern, line):
            seen += 1
            if seen == n:
                return index
    fail("no match #%d for %r (%d found)" % (n, pattern, seen))


def replace_after_pointer(lines, n, pattern, old, new, what):
    """Replaces `old` by `new` in the first line matching `pattern` after
    the n-th memref.extract_aligned_pointer_as_index (a run-time alignment
    check's start)."""
    pointer = nth_line(lines, r"= memref\.extract_aligned_pointer_as_index\b", n)
    for index in range(pointer + 1, len(lines)):
        if re.search(pattern, lines[index]):
            lines[index] = re.sub(old, new, lines[index])
            return
    fail("no %s after the pointer #%d" % (what, n))


def main():
    if len(sys.argv) < 2:
        fail("usage: mutate.py MUTATION [N] < in.mlir > out.mlir")
    mutation = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    every = len(sys.argv) <= 2
    lines = sys.stdin.read().split("\n")

    if mutation == "ceil-row-steps":
        index = nth_line(
            lines, r"affine_map<\(\)\[s\d+\] -> \(\(s\d+ floordiv (\d+)\) \* \1\)>",
            n)
        lines[index] = lines[index].replace(" floordiv ", " ceildiv ", 1)
    elif mutation == "drop-barrier":
        del lines[nth_line(lines, r"\bgpu\.barrier\b", n)]
    elif mutation == "loader-only-full":
        index = nth_line(lines, r"\bnvgpu\.mbarrier\.init\b.*, %c129\b", n)
        lines[index] = re.sub(r", %c129\b", ", %c1", lines[index])
    elif mutation == "drop-mbarrier-wait":
        del lines[nth_line(lines, r"\bnvgpu\.mbarrier\.try_wait\.parity\b", n)]
    elif mutation == "drop-fence":
        del lines[nth_line(lines, r"\bnvvm\.memory\.barrier\b", n)]
    elif mutation == "drop-named-barrier":
        del lines[nth_line(lines, r"\bnvvm\.barrier\b", n)]
    elif mutation == "drop-cluster-wait":
        del lines[nth_line(lines, r"\bnvvm\.cluster\.wait\b", n)]
    elif mutation == "drop-remote-arrive":
        del lines[nth_line(lines, r"\bnvvm\.mbarrier\.arrive\b.*!llvm\.ptr<7>", n)]
    elif mutation == "pass-cluster-wait":
        index = nth_line(lines, r"= nvvm\.mbarrier\.try_wait\b", n)
        lines[index] = re.sub(r"= nvvm\.mbarrier\.try_wait\b.*",
                              "= arith.constant true", lines[index])
    elif mutation == "whole-edge-piece":
        index = nth_line(lines, r"= arith\.cmpi uge, ", n)
        lines[index] = re.sub(r"= arith\.cmpi uge, .*",
                              "= arith.constant true", lines[index])
    elif mutation == "unguard-rows":
        seen = 0
        for index in range(len(lines) - 1):
            match = re.search(r"(%[\w#]+) = arith\.cmpi ult, ", lines[index])
            if not match or not re.search(
                    r"= arith\.andi " + re.escape(match.group(1)) + r",",
                    lines[index + 1]):
                continue
            seen += 1
            if seen == n:
                lines[index] = re.sub(r"= arith\.cmpi ult, .*",
                                      "= arith.constant true", lines[index])
                break
        else:
            fail("no row test #%d (%d found)" % (n, seen))
    elif mutation == "assume-aligned":
        replace_after_pointer(lines, n, r"= arith\.remui .*, %c16 : index",
                              r"= arith\.remui .*", "= arith.constant 0 : index",
                              "alignment check")
    elif mutation == "pitch-check-always":
        close = nth_line(lines, r"^\s*\} \{gpucg\.row_pitch_specialization\}", n)
        depth = 0
        for index in range(close, -1, -1):
            depth += lines[index].count("}") - lines[index].count("{")
            if depth == 0:
                break
        match = re.match(r"(\s*)scf\.if (%[\w#]+) ", lines[index])
        if depth != 0 or not match:
            fail("no scf.if opens the row-pitch specialization #%d" % n)
        indent, condition = match.groups()
        lines[index] = lines[index].replace(condition, "%mutated_pitch", 1)
        lines.insert(index, indent + "%mutated_pitch = arith.constant true")
    elif mutation == "assume-whole":
        replace_after_pointer(lines, n, r"= arith\.cmpi sge, ",
                              r"= arith\.cmpi sge, .*", "= arith.constant true",
                              "whole-vector check")
    elif mutation == "drop-addend":
        # %sum = arith.addf %x, %y : vector<...>: %sum = max(%x, %x), which
        # is %x.
        pattern = r"= arith\.addf (%[\w#]+), %[\w#]+( .*: vector<)"
        index = nth_line(lines, pattern, n)
        lines[index] = re.sub(pattern, r"= arith.maximumf \1, \1\2",
                              lines[index])
    elif mutation in ("count-twice", "first-arrival-sums"):
        pattern = (r"(%[\w#]+) = memref\.atomic_rmw addi (%[\w#]+), "
                   r"(.*) : \((i\d+), ")
        index = nth_line(lines, pattern, n)
        result, value, rest, element = re.search(pattern,
                                                 lines[index]).groups()
        indent = re.match(r"\s*", lines[index]).group(0)
        constant = "%mutated_" + mutation.replace("-", "_")
        if mutation == "count-twice":
            lines[index] = lines[index].replace(
                "addi %s," % value, "addi %s," % constant, 1)
            lines.insert(index, "%s%s = arith.constant 2 : %s" %
                         (indent, constant, element))
        else:
            compare = r"= arith\.cmpi eq, %s, (%%[\w#]+)" % re.escape(result)
            for other in range(index + 1, len(lines)):
                if re.search(compare, lines[other]):
                    lines[other] = re.sub(
                        compare, "= arith.cmpi eq, %s, %s" % (result, constant),
                        lines[other])
                    break
            else:
                fail("no comparison of %s" % result)
            lines.insert(index + 1, "%s%s = arith.constant 0 : %s" %
                         (indent, constant, element))
    elif mutation == "skip-first-part":
        # The loop whose body loads the partial sums: scf.for %p = LB to UB
        # step STEP iter_args(...).
        pattern = (r"= scf\.for (%[\w#]+) = (%[\w#]+) to (%[\w#]+) "
                   r"step (%[\w#]+) iter_args")
        seen = 0
        for index, line in enumerate(lines):
            match = re.search(pattern, line)
            if not match:
                continue
            body = "\n".join(lines[index + 1:index + 12])
            if "__gpucg_split_k_partials_" not in body and not re.search(
                    r"vector\.load %[\w#]+\[[^]]*\] : memref<\d+x", body):
                continue
            seen += 1
            if seen == n:
                iv, lower, upper, step = match.groups()
                lines[index] = line.replace(
                    "= %s to" % lower, "= %s to" % step, 1)
                break
        else:
            fail("no split-K sum loop #%d (%d found)" % (n, seen))
    elif mutation == "untranspose-store":
        # %t = memref.transpose %src (d0, d1) -> (d1, d0) : SRC to
        #   memref<RxCxf32, strided<[1, LD]{, offset: OFF}>{, SPACE}>
        pattern = (r"(%[\w#]+) = memref\.transpose (%[\w#]+) "
                   r"\(d0, d1\) -> \(d1, d0\) : (.*) to "
                   r"(memref<(\d+)x(\d+)x(\w+), strided<\[1, \d+\]"
                   r"(?:, offset: (\d+))?>(.*))$")
        index = nth_line(lines, pattern, n)
        match = re.search(pattern, lines[index])
        result, source, source_type, old_type, rows, columns, element, \
            offset, rest = match.groups()
        offset = offset or "0"
        new_type = "memref<%sx%sx%s, strided<[%s, 1], offset: %s>%s" % (
            rows, columns, element, columns, offset, rest)
        lines[index] = re.sub(
            pattern,
            "%s = memref.reinterpret_cast %s to offset: [%s], sizes: [%s, %s], "
            "strides: [%s, 1] : %s to %s" % (result, source, offset, rows,
                                            columns, columns, source_type,
                                            new_type),
            lines[index])
        for other in range(index + 1, len(lines)):
            if re.search(re.escape(result) + r"\b", lines[other]):
                lines[other] = lines[other].replace(old_type, new_type)
    elif mutation == "first-matrix":
        # %r = memref.collapse_shape %src [[...], [R]] : memref<SHAPExT>
        #   into memref<ROWSxCxT>
        pattern = (r"(%[\w#]+) = memref\.collapse_shape (%[\w#]+) "
                   r"\[\[.*\]\] : memref<([\dx]+)x(\w+)> into "
                   r"(memref<\d+x\d+x\w+>)")
        index = nth_line(lines, pattern, n)
        match = re.search(pattern, lines[index])
        result, source, shape, element, old_type = match.groups()
        sizes = shape.split("x")
        rows, columns = sizes[-2], sizes[-1]
        new_type = "memref<%sx%sx%s, strided<[%s, 1]>>" % (rows, columns,
                                                         element, columns)
        leading = len(sizes) - 2
        lines[index] = re.sub(
            pattern,
            "%s = memref.subview %s[%s] [%s] [%s] : memref<%sx%s> to %s" % (
                result, source, ", ".join(["0"] * len(sizes)),
                ", ".join(["1"] * leading + [rows, columns]),
                ", ".join(["1"] * len(sizes)), shape, element, new_type),
            lines[index])
        for other in range(index + 1, len(lines)):
            if "func.func" in lines[other]:
                break
            if re.search(re.escape(result) + r"\b", lines[other]):
                lines[other] = lines[other].replace(old_type, new_type)
    elif mutation == "drop-wgmma-wait":
        del lines[nth_line(lines, r"\bnvvm\.wgmma\.wait\.group\.sync\.aligned\b", n)]
    elif mutation == "deepen-wgmma":
        index = nth_line(lines, r"= nvgpu\.warpgroup\.mma %", n)
        line = lines[index]
        if "waitGroup" in line:
            line = re.sub(r"waitGroup = (\d+)",
                          lambda m: "waitGroup = %d" % (int(m.group(1)) + 1),
                          line)
        elif "{transposeB}" in line:
            line = line.replace("{transposeB}",
                                "{transposeB, waitGroup = 2 : i64}")
        else:
            line = re.sub(r"(nvgpu\.warpgroup\.mma %[\w#]+, %[\w#]+, %[\w#]+)",
                          r"\1 {waitGroup = 2 : i64}", line)
        lines[index] = line
    elif mutation == "untranspose-a":
        index = nth_line(lines, r"= nvgpu\.warpgroup\.mma %.*\{transposeA, ", n)
        lines[index] = lines[index].replace("{transposeA, ", "{", 1)
    elif mutation == "weaken-wait":
        index = nth_line(lines, r"\bnvgpu\.device_async_wait\b", n)
        line = lines[index]
        if "numGroups" in line:
            line = re.sub(r"numGroups = (\d+)",
                          lambda m: "numGroups = %d" % (int(m.group(1)) + 1),
                          line)
        else:
            line = re.sub(r"(nvgpu\.device_async_wait %[\w#]+)",
                          r"\1 {numGroups = 1 : i32}", line)
        lines[index] = line
    elif mutation == "drop-zero-fill":
        # %t = nvgpu.device_async_copy %src[...], %dst[...], 8, %count ...
        pattern = (r"(nvgpu\.device_async_copy %[\w#]+\[[^\]]*\], "
                   r"%[\w#]+\[[^\]]*\], \d+), %[\w#]+")
        targets = ([i for i, line in enumerate(lines)
                    if re.search(pattern, line)] if every
                   else [nth_line(lines, pattern, n)])
        if not targets:
            fail("no nvgpu.device_async_copy has a source element count")
        for index in targets:
            lines[index] = re.sub(pattern, r"\1", lines[index])
    elif mutation == "pad-global-reads":
        # %v = vector.transfer_read %base[...], %pad, %mask {...} :
        #   memref<...xT> (no workgroup address space), vector<NxT>
        pattern = (r"(= vector\.transfer_read %[\w#]+\[[^\]]*\]), "
                   r"%[\w#]+(, %[\w#]+ (?:\{[^}]*\} )?: memref<[^>]*x(\w+)>, )"
                   r"(?!.*address_space<workgroup>)")
        targets = [i for i, line in enumerate(lines)
                   if re.search(pattern, line)]
        if not targets:
            fail("no masked vector.transfer_read of global memory")
        for index in reversed(targets):
            match = re.search(pattern, lines[index])
            element = match.group(3)
            one = "1.0" if element.startswith(("f", "bf")) else "1"
            name = "%%mutated_one_%d" % index
            indent = re.match(r"\s*", lines[index]).group(0)
            lines[index] = re.sub(pattern, r"\1, %s\2" % name, lines[index])
            lines.insert(index, "%s%s = arith.constant %s : %s"
                         % (indent, name, one, element))
    elif mutation == "unmask-edge-store":
        # vector.transfer_write %v, %base[...], %mask {...} : vector<...>,
        # memref<...> with no workgroup address space.
        pattern = (r"(vector\.transfer_write %[\w#]+, %[\w#]+\[[^\]]*\]), "
                   r"%[\w#]+(?= \{| :)(?!.*address_space<workgroup>)")
        index = nth_line(lines, pattern, n)
        lines[index] = re.sub(pattern, r"\1", lines[index])
    elif mutation == "flip-transpose":
        index = nth_line(lines, r"\bnvgpu\.ldmatrix\b", n)
        line = lines[index]
        if "transpose = true" in line:
            lines[index] = line.replace("transpose = true", "transpose = false")
        else:
            lines[index] = line.replace("transpose = false", "transpose = true")
    elif mutation == "unswizzle-reads":
        # %x = arith.xori %unswizzled, %mask : index
        xors = {}
        for line in lines:
            match = re.match(r"\s*(%[\w#]+) = arith\.xori (%[\w#]+), %[\w#]+ : index",
                             line)
            if match:
                xors[match.group(1)] = match.group(2)
        changed = 0
        for index, line in enumerate(lines):
            # The innermost (column) index is the last one.
            match = re.search(r"nvgpu\.ldmatrix %[\w#]+\[[^\]]*, (%[\w#]+)\]", line)
            if match and match.group(1) in xors:
                start, end = match.span(1)
                lines[index] = line[:start] + xors[match.group(1)] + line[end:]
                changed += 1
        if not changed:
            fail("no nvgpu.ldmatrix reads a swizzled (arith.xori) column")
    else:
        fail("unknown mutation " + mutation)
    sys.stdout.write("\n".join(lines))


if __name__ == "__main__":
    main()
