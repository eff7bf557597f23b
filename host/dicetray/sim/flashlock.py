"""One simulator a flash: the desktop simulator's flash folder, and the
emulated board's flash image, are locked while a simulator runs on them.

Two simulators on one flash would both acknowledge events and overwrite
each other's journal: after a reboot some acknowledged events would be
gone. The lock is fcntl.flock on a lock file (LOCK_NAME in the desktop
simulator's folder, <image>.lock beside a board's flash image), held by an
open file for as long as the simulator runs; the operating system drops it
when the process ends, however it ends (a crash, SIGKILL), so a lock file
left behind never blocks the next run. The file holds the holder's command
and pid, for the one line a second simulator ends with (docs/simulator.md).
"""

import errno
import fcntl
import os

LOCK_NAME = ".dicetray-sim.lock"  # in a desktop simulator's flash folder


class FlashError(Exception):
    """The flash cannot be used: one line saying why and what to do."""


class InUse(FlashError):
    """Another simulator runs on this flash."""


def folder(path):
    """Make the flash folder `path` (FlashError when it cannot be one)."""
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        raise FlashError(
            "--flash %s is a file, not a folder: give --flash a folder (it is made "
            "if missing)" % path
        ) from None
    except NotADirectoryError:
        raise FlashError(
            "--flash %s: a part of that path is a file, not a folder: give --flash "
            "a folder (it is made if missing)" % path
        ) from None
    except OSError as e:
        raise FlashError("cannot make the flash folder %s (%s)" % (path, e.strerror)) from None


class Lock:
    """The lock on one flash: `Lock(lock_file, what, holder)` takes it or
    raises InUse naming the holder; release() (or the process's end) drops
    it. `what`: the flash in the message ("flash folder X"); `holder`: this
    process in the lock file ("dicetray sim")."""

    def __init__(self, lock_file, what, holder="dicetray sim"):
        self.fd = None
        try:
            fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise FlashError("cannot lock %s: %s (%s)" % (what, lock_file, e.strerror)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            who = _holder(fd)
            os.close(fd)
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise FlashError("cannot lock %s (%s)" % (what, e.strerror)) from None
            raise InUse(
                "%s is in use by %s: stop it, or give this one another --flash folder"
                % (what, who or "another simulator")
            ) from None
        self.fd = fd
        os.ftruncate(fd, 0)
        os.pwrite(fd, ("%s (pid %d)\n" % (holder, os.getpid())).encode(), 0)

    def release(self):
        """Drop the lock (the file stays: the next holder writes its name in it)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    __del__ = release  # a holder dropped without release() does not keep it


def _holder(fd):
    """The holder's line in the lock file ('' when not written yet)."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace")
    except OSError:
        return ""
    return text.splitlines()[0].strip() if text.strip() else ""
