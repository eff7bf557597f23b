"""A stdout that cannot be written: a full disk is one
line on stderr and exit 1, never a traceback; a reader that went away
(`| head`) ends the tool quietly with 141, as SIGPIPE ends a Unix tool.
Real processes (`python -m dicetray`) writing to /dev/full and to a pipe
whose reader has closed; no device needed (odds, rules, --help)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMMANDS = (["odds", "hunt", "--pool", "3"], ["rules", "paths", "--json"], ["--help"],
            ["export", "--help"])


def dicetray(argv, stdout, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"),
               DICETRAY_HOME=str(tmp_path / "home"))
    return subprocess.run([sys.executable, "-m", "dicetray", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, env=env, timeout=120)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", COMMANDS)
def test_a_full_stdout_is_one_line_and_exit_1(argv, tmp_path):
    """On main: OSError's traceback (odds, rules), or exit 0 with the help lost."""
    with open("/dev/full", "w") as full:
        r = dicetray(argv, full, tmp_path)
    err = r.stderr.decode()
    assert r.returncode == 1 and err == (
        "dicetray: error: cannot write to stdout (No space left on device): the output is "
        "incomplete\n"), err


@pytest.mark.parametrize("argv", COMMANDS)
def test_a_reader_that_went_away_ends_it_quietly(argv, tmp_path):
    r, w = os.pipe()
    os.close(r)                         # `| head` that has read what it wanted
    try:
        p = dicetray(argv, w, tmp_path)
    finally:
        os.close(w)
    assert (p.returncode, p.stderr) == (141, b"")


def test_a_closed_stdout_is_one_line(tmp_path):
    p = dicetray(["odds", "hunt", "--pool", "3"], subprocess.DEVNULL, tmp_path)
    assert p.returncode == 0          # (what works stays working)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"),
               DICETRAY_HOME=str(tmp_path / "home"))
    p = subprocess.run("exec %s -m dicetray odds hunt --pool 3 >&-" % sys.executable, shell=True,
                       stderr=subprocess.PIPE, env=env, timeout=120)
    assert p.returncode == 1 and p.stderr.decode() == (
        "dicetray: error: cannot write to stdout (it is closed): the output is incomplete\n")
