"""The compile cache of gpucg.compile, like Triton's: a compilation's result
kept on disk under a key of everything that decides it.

The key is a SHA-256 of the source text and its name, every option of the
call, gpucg's version, the identity (path, size, modification time) of the
libGpucgCAPI.so that compiles (a rebuilt library is another compiler) and,
for cubins and fatbins, of the ptxas on PATH. An entry is one JSON file
`<key>.json` in the cache folder: the kernels (binaries in base64 where they
are not text), the module and the diagnostics. Failed compilations are not
kept. The folder is $GPUCG_CACHE_DIR, else $XDG_CACHE_HOME/gpucg, else
~/.cache/gpucg; GPUCG_CACHE=0 (or compile(cache=False)) turns it off.
Entries are written to a temporary file and renamed, so that processes
sharing the folder never read half an entry; a corrupt or unreadable entry
is a miss.
"""

import base64
import hashlib
import json
import os
import pathlib
import shutil
import tempfile

FORMAT_VERSION = 1


def enabled(cache):
    """Whether compile(cache=`cache`) uses the cache: `cache` if given, else
    unless $GPUCG_CACHE is 0, off, false or no."""
    if cache is not None:
        return bool(cache)
    setting = os.environ.get("GPUCG_CACHE", "1").strip().lower()
    return setting not in ("0", "off", "false", "no")


def directory():
    """The cache folder (docstring above)."""
    if os.environ.get("GPUCG_CACHE_DIR"):
        return pathlib.Path(os.environ["GPUCG_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "gpucg"


def _file_identity(path):
    if not path:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return [str(path)]
    return [str(path), stat.st_size, stat.st_mtime_ns]


def key(text, name, options, version, library):
    """The key of a compilation: `options` a dict of the call's options."""
    needs_ptxas = options.get("pipeline") is not None or options.get(
        "format") not in ("ptx", "isa")
    material = {
        "format_version": FORMAT_VERSION,
        "source": text, "source_name": name, "options": options,
        "gpucg": version, "library": _file_identity(library),
        "ptxas": _file_identity(shutil.which("ptxas")) if needs_ptxas
        else None,
    }
    encoded = json.dumps(material, sort_keys=True, default=str)
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def load(entry_key):
    """The stored fields of `entry_key`, or None."""
    path = directory() / f"{entry_key}.json"
    try:
        with open(path, encoding="utf-8") as handle:
            stored = json.load(handle)
        if stored.get("format_version") != FORMAT_VERSION:
            return None
        for kernel in stored["kernels"]:
            if kernel.pop("binary_base64", False):
                kernel["binary"] = base64.b64decode(kernel["binary"])
        return stored
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(entry_key, kernels, module, diagnostics):
    """Keeps a compilation's result; a folder that cannot be written is
    left alone (the cache only saves time)."""
    entries = []
    for kernel in kernels:
        fields = dict(kernel)
        if isinstance(fields["binary"], bytes):
            fields["binary"] = base64.b64encode(fields["binary"]).decode()
            fields["binary_base64"] = True
        entries.append(fields)
    stored = {"format_version": FORMAT_VERSION, "kernels": entries,
              "module": module, "diagnostics": diagnostics}
    folder = directory()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(stored, handle)
        os.replace(temporary, folder / f"{entry_key}.json")
    except OSError:
        pass


def clear():
    """Removes every entry; returns how many there were."""
    folder = directory()
    count = 0
    for path in folder.glob("*.json"):
        try:
            path.unlink()
            count += 1
        except OSError:
            pass
    return count
