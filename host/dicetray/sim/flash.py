"""Host side of the simulated flash: a directory on the desktop.

The firmware's `board.fs` (simboard/desktop.py SimFS) calls these functions by
name. Paths are relative to the flash root ('/a' == 'a'); a path with a '..'
component or one that resolves (through symlinks) outside the root is
refused with EACCES. OS errors go back to the guest as {"oserror": "ENAME"}
so it can raise OSError with its own errno numbering.

The folder is locked while a Flash has it (flashlock.py): a second
simulator on it gets FlashError's InUse naming the first. The note naming
the holder (LOCK_NAME) is the host's: the firmware neither lists nor opens it.
"""

import base64
import errno
import os

from ..base.datadir import home
from .flashlock import LOCK_NAME, Lock, folder

MODES = {"r": "rb", "w": "wb", "a": "ab", "r+": "r+b", "w+": "w+b", "a+": "a+b"}


def default_dir():
    """<home>/flash: beside the backups, under $DICETRAY_HOME when it is
    set (datadir.home(); else ~/.local/share/dicetray/flash)."""
    return os.path.join(home(), "flash")


def _oserror(fn):
    def wrapped(*args):
        try:
            return fn(*args)
        except OSError as e:
            return {"oserror": errno.errorcode.get(e.errno, "EIO")}

    wrapped.__name__ = fn.__name__
    return wrapped


class Flash:
    """A flash directory with open files by integer handle, locked until
    release() (flashlock.FlashError when it cannot be had)."""

    def __init__(self, root):
        folder(root)
        self.root = os.path.realpath(root)
        self.lock = Lock(self.root, os.path.join(self.root, LOCK_NAME), "flash folder %s" % root)
        self._files = {}
        self._next = 1

    def release(self):
        """Close every file and drop the folder's lock."""
        self.close_all()
        self.lock.release()

    def path(self, p):
        """Host path for the flash path `p`; PermissionError if it escapes."""
        if not isinstance(p, str) or "\0" in p:
            raise PermissionError(errno.EACCES, "bad flash path", repr(p))
        parts = [c for c in p.replace("\\", "/").split("/") if c not in ("", ".")]
        if ".." in parts:
            raise PermissionError(errno.EACCES, "'..' is not allowed in a flash path", p)
        full = os.path.realpath(os.path.join(self.root, *parts))
        if full != self.root and not full.startswith(self.root + os.sep):
            raise PermissionError(errno.EACCES, "path leaves the flash directory", p)
        if full == os.path.join(self.root, LOCK_NAME):
            raise PermissionError(errno.EACCES, "the simulator's lock file", p)
        return full

    def _file(self, fd):
        try:
            return self._files[fd]
        except KeyError:
            raise OSError(errno.EBADF, "file is closed") from None

    def close_all(self):
        for f in self._files.values():
            f.close()
        self._files.clear()

    # -- host functions (names match the calls in simboard/desktop.py) --

    @_oserror
    def f_open(self, path, mode="r"):
        m = MODES.get(mode.replace("b", "").replace("t", ""))
        if m is None:
            raise OSError(errno.EINVAL, "bad mode", mode)
        # Unbuffered: every write reaches the host file at once, so a killed
        # simulator leaves what the firmware wrote, as a power cut would.
        f = open(self.path(path), m, buffering=0)
        fd = self._next
        self._next += 1
        self._files[fd] = f
        return fd

    @_oserror
    def f_read(self, fd, n=-1):
        f = self._file(fd)
        data = f.readall() if n is None or n < 0 else f.read(n)
        return base64.b64encode(data or b"").decode()

    @_oserror
    def f_readline(self, fd):
        return base64.b64encode(self._file(fd).readline()).decode()

    @_oserror
    def f_write(self, fd, b64):
        f = self._file(fd)
        data = base64.b64decode(b64)
        view = memoryview(data)
        while view:  # a raw file may write partially
            view = view[f.write(view) :]
        return len(data)

    @_oserror
    def f_seek(self, fd, off, whence=0):
        return self._file(fd).seek(off, whence)

    @_oserror
    def f_flush(self, fd):
        os.fsync(self._file(fd).fileno())

    @_oserror
    def f_close(self, fd):
        f = self._files.pop(fd, None)
        if f is not None:
            f.close()

    @_oserror
    def fs_rename(self, a, b):
        os.replace(self.path(a), self.path(b))  # atomic, replaces b like MicroPython's

    @_oserror
    def fs_remove(self, p):
        os.remove(self.path(p))

    @_oserror
    def fs_listdir(self, p="/"):
        full = self.path(p)
        return sorted(n for n in os.listdir(full) if full != self.root or n != LOCK_NAME)

    @_oserror
    def fs_stat(self, p):
        st = os.stat(self.path(p))
        return [
            st.st_mode,
            0,
            0,
            0,
            0,
            0,
            st.st_size,
            int(st.st_atime),
            int(st.st_mtime),
            int(st.st_ctime),
        ]

    @_oserror
    def fs_mkdir(self, p):
        os.makedirs(self.path(p), exist_ok=True)  # idempotent, as the store expects

    @_oserror
    def fs_rmdir(self, p):
        full = self.path(p)
        if full == self.root:
            raise PermissionError(errno.EACCES, "cannot remove the flash root", p)
        os.rmdir(full)

    def functions(self):
        """The host functions this flash provides, by name."""
        return {
            n: getattr(self, n)
            for n in (
                "f_open",
                "f_read",
                "f_readline",
                "f_write",
                "f_seek",
                "f_flush",
                "f_close",
                "fs_rename",
                "fs_remove",
                "fs_listdir",
                "fs_stat",
                "fs_mkdir",
                "fs_rmdir",
            )
        }
