"""What the tool does when its stdout cannot be written: a reader that went
away (`dicetray rules hunt | head -1`) ends it quietly with status 141, as
SIGPIPE ends a Unix tool; anything else (a full disk, `> /dev/full`, an I/O
error) is one line on stderr and status 1, never a traceback.

`with guarded() as out:` puts a stand-in for sys.stdout in place for a
command's run. A write or flush that fails raises Lost, which no command's
`except OSError` takes for an error of its own files (and argparse, which
ignores a failed --help write, cannot lose); `out.lost` keeps the first such
error. stdout's other uses (isatty, fileno, the terminal simulator's writes)
pass through unchanged.
"""

import contextlib
import errno
import os
import sys

SIGPIPE_STATUS = 141  # 128 + SIGPIPE: what a shell reports for a tool SIGPIPE ended


class Lost(Exception):
    """stdout could not be written (its OSError is `error`)."""

    def __init__(self, error):
        Exception.__init__(self, error)
        self.error = error


class _Stdout:
    def __init__(self, real):
        self._real = real
        self.lost = None

    def _do(self, name, *a):
        try:
            if self._real is None:  # Python's stdout when file descriptor 1 was closed
                raise OSError(errno.EBADF, "it is closed")
            return getattr(self._real, name)(*a)
        except OSError as e:
            self.lost = self.lost or e
            raise Lost(e) from None

    def write(self, s):
        return self._do("write", s)

    def writelines(self, lines):
        return self._do("writelines", lines)

    def flush(self):
        return self._do("flush")

    def __getattr__(self, name):
        return getattr(self._real, name)


@contextlib.contextmanager
def guarded():
    """sys.stdout guarded for the block (see the module's text)."""
    real = sys.stdout
    out = _Stdout(real)
    sys.stdout = out
    try:
        yield out
    finally:
        sys.stdout = real


def settle(out, prog):
    """The exit status for a run whose stdout was `out` (None: it was all
    written): flushes it first; after a loss, what is left unwritten is
    dropped, so that the interpreter's own flush at exit says nothing more."""
    if out.lost is None:
        try:
            out.flush()
        except Lost:
            pass
    e = out.lost
    if e is None:
        return None
    _drop(out)
    if isinstance(e, BrokenPipeError) or e.errno == errno.EPIPE:
        return SIGPIPE_STATUS
    sys.stderr.write(
        "%s: error: cannot write to stdout (%s): the output is incomplete\n"
        % (prog, e.strerror or e)
    )
    return 1


def _drop(out):
    """Point the real stdout's file descriptor at /dev/null: its buffer can
    never be written, and Python would report that at exit."""
    try:
        fd = out.fileno()
    except (OSError, ValueError, AttributeError):
        return  # not a real file (a test's capture): nothing flushes it at exit
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
