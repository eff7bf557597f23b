"""A Ctrl-C ends every command, exit 130, even in a
process that started with SIGINT ignored (a background job of a shell
script inherits it so, and Python then never raises KeyboardInterrupt:
`watch` ran on for ever and `make test` started from a script failed).
The real `dicetray watch` process started so: test_link_noise.py's
test_watch_holds_the_simulator_and_roll_says_so[ignored]. No test asserts
a time."""

import os
import signal
import time

import pytest

from dicetray import cli
from dicetray.cli.common import Fail


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

