"""One simulator a flash: the desktop simulator's flash folder, and the
emulated board's flash image, are locked while a simulator runs on them.

Two simulators on one flash would both acknowledge events and overwrite
each other's journal: after a reboot some acknowledged events would be
gone. The lock is fcntl.flock on the flash's folder itself (the desktop
simulator's --flash folder, the folder of a board's flash image), held by
an open descriptor of it for as long as the simulator runs. A folder that
holds files cannot be deleted, and one deleted or moved takes its flash
with it, so nothing a user tidies away lets a second simulator onto the
same flash (a lock file could be deleted as stale, and the next simulator
made and locked a new one). The operating system drops the lock when the
process ends, however it ends (a crash, SIGKILL). A note file (LOCK_NAME
in the desktop simulator's folder, <image>.lock beside a board's image)
names the holder's command and pid for the one line a second simulator
ends with (docs/simulator.md); deleting it loses only the name.
"""

import errno
import fcntl
import os

LOCK_NAME = ".dicetray-sim.lock"  # in a desktop simulator's flash folder: the holder's name
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # a link planted as the note is not written through


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
    """The lock on one flash: `Lock(folder, note, what, holder)` takes the
    folder's lock or raises InUse naming the holder (from the note file);
    release() (or the process's end) drops it. `what`: the flash in the
    message ("flash folder X"); `holder`: this process in the note
    ("dicetray sim")."""

    def __init__(self, folder, note, what, holder="dicetray sim"):
        self.fd = None
        try:
            fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as e:
            raise FlashError("cannot lock %s (%s)" % (what, e.strerror)) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise FlashError("cannot lock %s (%s)" % (what, e.strerror)) from None
            raise InUse(
                "%s is in use by %s: stop it, or give this one another --flash folder"
                % (what, _holder(note) or "another simulator")
            ) from None
        self.fd = fd
        try:  # the holder's name: a note only, so a note that cannot be written is no error
            nfd = os.open(note, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, 0o644)
        except OSError:
            return
        try:
            os.write(nfd, ("%s (pid %d)\n" % (holder, os.getpid())).encode())
        except OSError:
            pass
        finally:
            os.close(nfd)

    def release(self):
        """Drop the lock (the note stays: the next holder writes its name in it)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    __del__ = release  # a holder dropped without release() does not keep it


def _holder(note):
    """The holder's line in the note file ('' when there is none)."""
    try:
        with open(note, "rb") as f:
            text = f.read(200).decode("utf-8", "replace")
    except OSError:
        return ""
    return text.splitlines()[0].strip() if text.strip() else ""
