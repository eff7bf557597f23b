"""The tiny filesystem interface the store runs on, and `check_fs`.

The store never calls `os` directly: it talks to an fs object with
open(path, mode) -> file (read/readinto/write/flush/close, and seek(off)
or seek(0, 2) to its end, returning the position), sync(f),
rename(a, b), remove(p), listdir(d), size(p) (-1 when missing),
mkdir(p) and rmdir(p) (an empty directory: a deleted campaign slot's,
store/slots.py). `OsFs` is that interface over the real `os` module (MicroPython
on the board, CPython on the host/simulator); tests/mpy/flashsim.py is the
same interface over simulated flash with power cuts.
"""

import os

LITTLEFS = "littlefs"
FAT = "fat"
HOST = "host"        # CPython on a desktop OS: POSIX rename is atomic
UNKNOWN = "unknown"


class OsFs:
    """The fs interface over the `os` module and the builtin `open`."""

    def open(self, path, mode):
        return open(path, mode)

    def sync(self, f):
        """Make every byte written to f durable before returning."""
        # On littlefs, flush() is lfs_file_sync: the data and the file's new
        # size are committed to flash. CPython also needs fsync to get past
        # the OS cache.
        f.flush()
        fsync = getattr(os, "fsync", None)
        if fsync is not None and hasattr(f, "fileno"):
            fsync(f.fileno())

    def rename(self, a, b):
        os.rename(a, b)

    def remove(self, p):
        os.remove(p)

    def listdir(self, d):
        return os.listdir(d)

    def size(self, p):
        try:
            return os.stat(p)[6]
        except OSError:
            return -1

    def mkdir(self, p):
        # Only when missing: on littlefs a mkdir, even of a directory that
        # is there, first finishes what a power cut left half done in the
        # filesystem's own metadata (lfs_fs_forceconsistency), a write; a
        # boot that only opens its store writes nothing (docs/store.md).
        try:
            os.stat(p)
            return
        except OSError:
            pass
        try:
            os.mkdir(p)
        except OSError:
            pass  # already there

    def rmdir(self, p):
        os.rmdir(p)


def check_fs(path="/", kind=None):
    """Which filesystem holds `path`: LITTLEFS, FAT, HOST or UNKNOWN.

    `kind`, when the board layer knows it (it mounted the flash itself),
    wins. Otherwise, on MicroPython, the mount table (`vfs.mount()` or
    `os.mount()` with no arguments, MicroPython 1.23+) gives the object
    mounted over `path` and its class name says VfsLfs1/VfsLfs2 or VfsFat.
    On CPython the answer is HOST. Anything else is UNKNOWN, which the
    store treats like FAT: it still works (it never renames over a file)
    but warns that the filesystem's own metadata is not power-cut safe.
    """
    if kind is not None:
        return kind
    import sys
    if sys.implementation.name != "micropython":
        return HOST
    mounts = None
    for modname in ("vfs", "os"):
        try:
            mod = __import__(modname)
            mounts = mod.mount()
            break
        except Exception:  # no module, or mount() needs arguments here
            pass
    best = None
    for fsobj, point in mounts or ():
        if path.startswith(point) and (best is None or len(point) > len(best[1])):
            best = (fsobj, point)
    if best is None:
        return UNKNOWN
    name = type(best[0]).__name__
    if name.startswith("VfsLfs"):
        return LITTLEFS
    if name == "VfsFat":
        return FAT
    return UNKNOWN
