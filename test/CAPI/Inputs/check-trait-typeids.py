#!/usr/bin/env python3
"""Checks that gpucg's code in libGpucgCAPI.so resolves no TypeID that
upstream's C API archives hide there ("Trait TypeIDs" in docs/CAPI.md).

An implicit TypeID (a trait's, such as `OpTrait::IsTerminator`) lives in a
function-local static, `TypeIDResolver<T>::resolveTypeID()::id`, set on first
use from a registry keyed by T's name as the compiler spells it. Upstream's C
API archives (built by clang) define some of these statics hidden; linked into
the same library, they make gpucg's copies (built by gcc) hidden too, one
static apart from libMLIR.so's. Whichever code resolves it first then decides
its TypeID: gcc spells a template such as `IsTerminator<...::Empty>` unlike
clang, and gives it a TypeID no op's trait list holds, for gpucg's passes and
upstream's C API functions alike.

  check-trait-typeids.py LIBRARY OBJECT_DIR ARCHIVE...

LIBRARY is libGpucgCAPI.so, OBJECT_DIR the folder of its own objects (gpucg's
C API sources), ARCHIVE gpucg's static libraries linked into it. Fails, naming
each type, when a template type's TypeID static is local to LIBRARY and also
defined by one of gpucg's objects. Statics of types with internal linkage (in
an anonymous namespace) are gpucg's alone and do not count.
"""

import glob
import os
import shutil
import subprocess
import sys

SUFFIX = "::resolveTypeID()::id"
PREFIX = "mlir::detail::TypeIDResolver<"


def typeid_statics(paths):
    """(demangled name, local) of every TypeID static defined in `paths`."""
    nm = shutil.which("llvm-nm") or shutil.which("nm")
    if nm is None:
        sys.exit("check-trait-typeids: no llvm-nm or nm on PATH")
    out = subprocess.run([nm, "--defined-only", "-C"] + paths, check=True,
                         capture_output=True, text=True).stdout
    statics = []
    for line in out.splitlines():
        fields = line.split(" ", 2)
        if len(fields) != 3 or len(fields[1]) != 1:
            continue
        kind, name = fields[1], fields[2]
        if not name.endswith(SUFFIX) or "TypeIDResolver<" not in name:
            continue
        if name.startswith("guard variable for "):
            continue
        # Local: lowercase b, d, r, s, t (u is a unique global, v and w
        # weak ones).
        statics.append((name, kind in "bdrst"))
    return statics


def resolved_type(name):
    """T of `mlir::detail::TypeIDResolver<T, void>::resolveTypeID()::id`."""
    start = name.find(PREFIX)
    body = name[start + len(PREFIX):-len(SUFFIX)]
    return body[:-len(", void>")] if body.endswith(", void>") else body


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    library, object_dir, archives = argv[1], argv[2], argv[3:]
    objects = sorted(glob.glob(os.path.join(object_dir, "*.o")))
    if not objects:
        sys.exit(f"check-trait-typeids: no objects in {object_dir}")
    hidden = {name for name, local in typeid_statics([library]) if local}
    gpucg = {name for name, _ in typeid_statics(objects + archives)}
    if not gpucg:
        sys.exit("check-trait-typeids: gpucg's objects define no TypeID "
                 "static; is the nm output format understood?")
    shared = sorted(
        resolved_type(name) for name in hidden & gpucg
        if "<" in resolved_type(name)
        and "(anonymous namespace)" not in resolved_type(name))
    print(f"{len(hidden)} TypeID statics local to {os.path.basename(library)}, "
          f"{len(gpucg)} defined by gpucg's objects")
    for type_name in shared:
        print(f"error: gpucg's code resolves the TypeID of {type_name}, "
              "which upstream's C API hides in this library: use a query "
              "that runs inside libMLIR.so (isBlockTerminator in "
              "lib/Transforms/Utils.h) or an interface")
    if shared:
        return 1
    print("no template TypeID shared with upstream's hidden statics")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
