"""Issue 30, item 1: a Ctrl-C ends every command, exit 130, even in a
process that started with SIGINT ignored (a background job of a shell
script inherits it so, and Python then never raises KeyboardInterrupt:
`watch` ran on for ever and `make test` started from a script failed).
No test asserts a time."""

import os
import signal
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import linkutil  # noqa: E402
from linkutil import Sim  # noqa: E402

from dicetray import cli  # noqa: E402
from dicetray.cli.common import Fail  # noqa: E402


@pytest.fixture
def sigint_ignored():
    """This process with SIGINT ignored, as a script's background job starts."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def ctrl_c_while_opening(port, timeout, **kw):
    """An open_device that gets a Ctrl-C (SIGINT to this process) while it works."""
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)   # a KeyboardInterrupt ends the sleep at once
    raise Fail("the Ctrl-C never reached the command")


# The command, and what its one line says (None: `watch` stops with no line).
COMMANDS = [
    (["watch"], None),
    (["status"], "nothing was changed"),
    (["turn"], "may have been applied"),
    (["export", "--format", "json"], "the export was not finished"),
    (["backup", "--db", "DB"], "nothing was stored"),
]


@pytest.mark.parametrize("argv,says", COMMANDS, ids=[c[0][0] for c in COMMANDS])
def test_a_command_started_with_sigint_ignored_ends_on_ctrl_c(argv, says, sigint_ignored,
                                                              tmp_path, capsys):
    argv = [str(tmp_path / "b.sqlite3") if a == "DB" else a for a in argv]
    try:
        code = cli.main(argv, open_device=ctrl_c_while_opening)
    except KeyboardInterrupt:   # (pytest would take it as its own Ctrl-C and stop)
        pytest.fail("a KeyboardInterrupt escaped `dicetray %s`" % " ".join(argv))
    err = capsys.readouterr().err
    assert code == 130, err
    if says is None:
        assert err == ""
    else:
        assert err.count("\n") == 1 and "interrupted (Ctrl-C)" in err and says in err
    # The caller's handler is put back: the process ignores SIGINT again.
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_watch_started_with_sigint_ignored_exits_130_on_ctrl_c(tmp_path):
    """The real `dicetray watch` process, started as a script's background
    job is (SIGINT ignored), on the simulator: Ctrl-C ends it, exit 130,
    nothing on stderr, and the port is free again."""
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 5)
    sim = Sim(flash)
    w = None
    try:
        env = dict(os.environ, PYTHONPATH=os.path.join(linkutil.ROOT, "host"))
        w = subprocess.Popen([sys.executable, "-m", "dicetray", "watch", "--port", sim.port],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        assert w.stdout.readline().startswith(b"watching campaign")
        w.send_signal(signal.SIGINT)
        try:
            _out, werr = w.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail("`dicetray watch` started with SIGINT ignored ran on after a Ctrl-C")
        assert (w.returncode, werr) == (130, b"")
        code = cli.main(["status", "--port", sim.port])
        assert code == 0
    finally:
        if w is not None and w.poll() is None:
            w.kill()
        sim.stop()
