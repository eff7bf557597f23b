"""Writing a file the user named (export -o, stats --plot, a screenshot, an
emulated board's flash image): all of it or nothing, and what was there keeps
its kind.

A regular file (or a new one) is written whole into a temporary file made
beside its real target (a symlink is followed, never replaced), flushed to
disk and renamed over it, so a crash or a full disk leaves the old file or
the new one; the new file takes the old one's mode (and owner, where this
process may set it), a new file the mode the umask gives. Anything else that
exists (a character device such as /dev/null, a FIFO, a terminal) and this
process's own stdout or stderr however named (/dev/stdout, /dev/fd/1 or the
file the shell redirected them to) is opened and written as it is, appending:
never replaced, never truncated. docs/backup.md ("Files the tool writes").
"""

import contextlib
import os
import stat
import tempfile


def _stream_of_ours(st):
    """True when `st` is the file behind this process's stdout or stderr."""
    for fd in (1, 2):
        try:
            if os.path.samestat(st, os.fstat(fd)):
                return True
        except OSError:
            pass
    return False


def _new_mode():
    """The mode open() gives a new file under the current umask."""
    mask = os.umask(0o22)  # reading the umask means setting it: put it straight back
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def replacing(path, mode="w", encoding=None, newline=None):
    """`with replacing(path, "w"|"wb") as f:` f is written; when the block
    ends without an exception it replaces `path` (see the module's text);
    on an exception `path` is as it was and the temporary file is gone.
    OSError as open() raises it (a missing directory, a directory named)."""
    if mode not in ("w", "wb"):
        raise ValueError("replacing() writes: mode 'w' or 'wb', not %r" % mode)
    binary = mode == "wb"
    kw = {} if binary else {"encoding": encoding or "utf-8", "newline": newline}
    try:
        st = os.stat(path)  # follows symlinks: what a write would reach
    except FileNotFoundError:
        st = None
    if st is not None and (not stat.S_ISREG(st.st_mode) or _stream_of_ours(st)):
        with open(path, "ab" if binary else "a", **kw) as f:
            yield f
        return
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + name + ".", suffix=".tmp", dir=folder)
    except OSError as e:
        e.filename = path  # the user's name, not the temporary one
        raise
    try:
        with open(fd, mode, **kw) as f:
            if st is None:
                os.fchmod(fd, _new_mode())
            else:
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.fchown(fd, st.st_uid, st.st_gid)
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
            yield f
            f.flush()
            os.fsync(fd)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(folder)


def _sync_folder(folder):
    """The rename on disk too (best effort: not every system can fsync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write(path, data):
    """Write `data` (bytes, or str as UTF-8) to `path` through replacing()."""
    binary = isinstance(data, (bytes, bytearray, memoryview))
    with replacing(path, "wb" if binary else "w", newline="" if not binary else None) as f:
        f.write(data)
