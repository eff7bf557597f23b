"""`dicetray odds`: output, JSON shape, aliases, one-line errors with status 2."""
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from dicetray.cli import main


def run_json(capsys, *argv):
    assert main(["odds", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one object, one line
    return json.loads(out)


def test_json_target(capsys):
    o = run_json(capsys, "hunt", "--pool", "3", "--target", "1")
    assert o["successes"] == {"0": "1/8", "1": "3/8", "2": "3/8", "3": "1/8"}
    assert o["p_success"] == "7/8"
    assert o["system"] == "hunt" and o["pool"] == 3 and o["hard"] is False
    assert "p_win" not in o


def test_json_hunt_pool_zero_hard(capsys):
    o = run_json(capsys, "hunt", "--pool", "0", "--hard", "--target", "1")
    assert o["successes"] == {"0": "35/36", "1": "1/36"}
    assert o["p_success"] == "1/36"
    o = run_json(capsys, "hunt", "--pool", "0", "--target", "1")
    assert o["p_success"] == "1/4"


def test_json_zero_and_certain_forms(capsys):
    o = run_json(capsys, "paths", "--pool", "1", "--difficulty", "3")
    assert o["p_success"] == "0/1"  # one d12 makes at most 2 successes
    assert o["successes"] == {"0": "1/2", "1": "5/12", "2": "1/12"}
    o = run_json(capsys, "paths", "--pool", "4", "--versus", "4")
    assert o["p_tie"] == "0/1"  # ties go to the initiator


def test_json_successes_sum_to_one(capsys):
    for argv in (("paths", "--pool", "12"), ("expedition", "--pool", "15"), ("hunt", "--pool", "9", "--hard")):
        o = run_json(capsys, *argv)
        total = sum(Fraction(v) for v in o["successes"].values())
        assert total == 1, argv
        assert sorted(int(k) for k in o["successes"]) == list(range(len(o["successes"])))
        assert "p_success" not in o


def test_json_versus(capsys):
    o = run_json(capsys, "expedition", "--pool", "3", "--versus", "3")
    w, t, l = (Fraction(o[k]) for k in ("p_win", "p_tie", "p_lose"))
    assert w + t + l == 1 and w == l and t > 0
    assert "p_success" not in o and o["versus"] == 3
    assert sum(Fraction(v) for v in o["versus_successes"].values()) == 1
    o = run_json(capsys, "paths", "--pool", "5", "--versus", "2")
    assert Fraction(o["p_win"]) + Fraction(o["p_lose"]) == 1
    assert Fraction(o["p_win"]) > Fraction(1, 2)


def test_target_aliases_agree(capsys):
    a = run_json(capsys, "expedition", "--pool", "5", "--target", "3")
    b = run_json(capsys, "expedition", "--pool", "5", "--ob", "3")
    c = run_json(capsys, "expedition", "--pool", "5", "--difficulty", "3")
    assert a == b == c
    assert a["p_success"] == "1/2"  # 5 coins, at least 3 heads


def test_readable_table(capsys):
    assert main(["odds", "expedition", "--pool", "2", "--ob", "1"]) == 0
    out = capsys.readouterr().out
    assert "successes" in out and "probability" in out and "percent" in out
    assert "1/4" in out and "25.00%" in out
    assert "P(at least 1 success) = 3/4 = 75.00%" in out
    assert main(["odds", "paths", "--pool", "3", "--versus", "2"]) == 0
    out = capsys.readouterr().out
    for word in ("win", "tie", "lose", "opposed", "0/1"):
        assert word in out


@pytest.mark.parametrize("argv,needle", [
    (["odds", "dice", "--pool", "3"], "unknown rule system 'dice'"),
    (["odds", "hunt", "--pool", "10"], "--pool 10 is outside 0..9 for hunt"),
    (["odds", "hunt", "--pool", "-1"], "0 or fewer dice rolls 2d6 and keeps the lower: use 0"),
    (["odds", "paths", "--pool", "0"], "--pool 0 is outside 1..20 for paths"),
    (["odds", "expedition", "--pool", "21"], "--pool 21 is outside 1..20 for expedition"),
    (["odds", "expedition", "--pool", "17", "--ob", "31"], "--target 31 is outside 1..30"),
    (["odds", "paths", "--pool", "3", "--hard"], "--hard is only for hunt"),
    (["odds", "expedition", "--pool", "3", "--hard", "--target", "1"], "--hard is only for hunt"),
    (["odds", "paths", "--pool", "3", "--difficulty", "8"], "--target 8 is outside 1..7"),
    (["odds", "hunt", "--pool", "3", "--target", "0"], "--target 0"),
    (["odds", "hunt", "--pool", "3", "--versus", "2"], "hunt has no versus"),
    (["odds", "paths", "--pool", "3", "--versus", "21"], "--versus 21 is outside 1..20"),
    (["odds", "expedition", "--pool", "3", "--versus", "3", "--ob", "2"], "not both"),
    (["odds", "expedition", "--pool", "x"], "--pool"),
    (["odds", "expedition"], "--pool"),
    (["odds", "hunt", "--pool", "2", "--bogus"], "--bogus"),
    ([], "COMMAND"),
])
def test_bad_arguments_one_line_status_2(capsys, argv, needle):
    assert main(argv) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    assert cap.err.count("\n") == 1 and cap.err.startswith("dicetray"), cap.err
    assert needle in cap.err


def test_help_exits_zero(capsys):
    assert main(["odds", "--help"]) == 0
    assert "--difficulty" in capsys.readouterr().out


def test_installed_script_and_module():
    r = subprocess.run([sys.executable, "-m", "dicetray", "odds", "hunt", "--pool", "3",
                        "--target", "1", "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["p_success"] == "7/8"
    r = subprocess.run([sys.executable, "-m", "dicetray", "odds", "paths", "--pool", "21"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        "dicetray odds: error: --pool 21 is outside 1..20 for paths (Skill 0..6 + Path 0..6, "
        "situation -2..+2, help up to +6)"]
