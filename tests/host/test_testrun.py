"""`make test`'s runner (tools/testrun.py):
the pytest shards take every test file once, whole; a failed stage stops
only what waits on it (--fail-fast: all that has not started), and the
table at the end names each verdict, and what was not run and why; each
stage's output is printed whole, failures included; the minute's line
names the test a stage is in. No time is asserted."""

import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools import testrun  # noqa: E402

from tests.sharding import shard_of  # noqa: E402


def test_every_file_in_one_shard_the_longest_first_to_the_lightest():
    weights = {"a.py": 100, "b.py": 90, "c.py": 20, "d.py": 15}
    files = ["a.py", "b.py", "c.py", "d.py", "new.py"]   # new.py: not measured, weighs the mean
    got = shard_of(files, weights, 2)
    assert sorted(got) == sorted(files) and set(got.values()) == {0, 1}
    assert got["a.py"] != got["b.py"]                    # the two long ones apart
    load = [sum(weights.get(f, 56.25) for f in files if got[f] == k) for k in (0, 1)]
    assert max(load) - min(load) <= 56.25                # no move of one file would balance it better
    assert shard_of(list(reversed(files)), weights, 2) == got   # the same split in every shard
    assert set(shard_of(files, {}, 3).values()) == {0, 1, 2}     # no weights: spread evenly


# A project of three test files whose conftest.py hooks in tests/sharding.py,
# as tests/conftest.py does.
PROJECT = {
    "conftest.py": "import sys\nsys.path.insert(0, %r)\n"
                   "from sharding import pytest_collection_modifyitems, pytest_runtest_logreport, "
                   "pytest_sessionfinish  # noqa\n" % os.path.join(ROOT, "tests"),
    "test_long.py": "def test_a(): pass\ndef test_b(): pass\ndef test_c(): pass\n",
    "test_mid.py": "def test_d(): pass\ndef test_e(): pass\n",
    "test_short.py": "def test_f(): pass\n",
}


def _pytest(project, env_extra, *args):
    # Not this run's own shard, weights or times (testrun.py sets them).
    env = {k: v for k, v in os.environ.items()
           if k not in ("DICETRAY_SHARD", "DICETRAY_WEIGHTS", "DICETRAY_DURATIONS", "PYTEST_ADDOPTS")}
    env.update(env_extra)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"] + list(args),
                       cwd=str(project), env=env, capture_output=True, text=True)
    assert r.returncode in (0, 5), r.stdout + r.stderr
    return r.stdout


def test_the_shards_of_a_real_run_share_it_out_whole_files_each_once(tmp_path):
    for name, text in PROJECT.items():
        (tmp_path / name).write_text(text)
    weights = tmp_path / "w.json"      # the long file outweighs the others together
    weights.write_text(json.dumps({"test_long.py": 100, "test_mid.py": 10, "test_short.py": 5}))
    every = {ln for ln in _pytest(tmp_path, {}, "--collect-only").splitlines() if "::" in ln}
    assert len(every) == 6
    parts = [{ln for ln in _pytest(tmp_path, {"DICETRAY_SHARD": "%d/2" % k,
                                              "DICETRAY_WEIGHTS": str(weights)},
                                   "--collect-only").splitlines() if "::" in ln}
             for k in (1, 2)]
    assert parts[0] | parts[1] == every and not parts[0] & parts[1]
    assert {t.split("::")[0] for t in parts[0]} == {"test_long.py"}   # alone in its shard
    assert {t.split("::")[0] for t in parts[1]} == {"test_mid.py", "test_short.py"}
    # Each file's seconds, written at the end of a run.
    _pytest(tmp_path, {"DICETRAY_SHARD": "2/2", "DICETRAY_WEIGHTS": str(weights),
                       "DICETRAY_DURATIONS": str(tmp_path / "t.json")})
    assert sorted(json.loads((tmp_path / "t.json").read_text())) == ["test_mid.py", "test_short.py"]


def _stages(*specs):
    """A table of stages whose jobs run `python -c CODE` (spec: stage, code, after)."""
    table = []
    for k, (stage, code, after) in enumerate(specs):
        table.append((stage, [testrun.Job(stage, stage, [[sys.executable, "-c", code]], k,
                                          after=after)]))
    return table


def _run(monkeypatch, tmp_path, capsys, table, *argv, jobs=1):
    monkeypatch.setattr(testrun, "LOGS", str(tmp_path))
    monkeypatch.setattr(testrun, "TIMES", str(tmp_path / "durations.json"))
    monkeypatch.setattr(testrun, "stages", lambda shards: table)
    code = testrun.main(["--jobs", str(jobs)] + list(argv))
    return code, capsys.readouterr().out


def _table(tmp_path):
    return _stages(("lint", "print('3 passed in 0.1s')", None),
                   ("pytest", "import sys; print('boom: the failure shown'); sys.exit(3)", None),
                   ("micropython", "print('mpy ran')", None),
                   ("web", "print('1 passed')", None))


def _rows(out, head):
    return {ln.split()[0]: ln for ln in out[out.index(head):].splitlines()[2:]}


def test_a_failed_stage_does_not_keep_the_others_from_running(monkeypatch, tmp_path, capsys):
    code, out = _run(monkeypatch, tmp_path, capsys, _table(tmp_path))
    assert code == 1
    # The first line names the stages it runs, in order.
    assert out.splitlines()[0].startswith("== make test: lint, pytest, micropython, web; up to 1 ")
    assert "boom: the failure shown" in out                      # its output, not swallowed
    rows = _rows(out, "== FAILED: pytest in ")
    assert rows["lint"].split()[3:] == ["passed:", "3", "passed"]
    assert "FAILED (pytest: exit 3)" in rows["pytest"]
    assert "mpy ran" in out and rows["micropython"].split()[3] == "passed"
    assert "passed: 1 passed" in rows["web"]                     # its verdict too
    assert rows["total"].split()[0] == "total"
    assert out.index("== lint: passed in ") < out.index("== pytest: FAILED (exit 3) in ")


def test_fail_fast_stops_what_has_not_started_and_the_table_names_it(monkeypatch, tmp_path, capsys):
    code, out = _run(monkeypatch, tmp_path, capsys, _table(tmp_path), "--fail-fast")
    assert code == 1
    assert "mpy ran" not in out
    rows = _rows(out, "== FAILED: pytest in ")
    assert rows["micropython"].endswith("not run: pytest failed")
    assert rows["web"].endswith("not run: pytest failed")


def test_what_waits_on_a_failure_is_not_run_the_rest_is(monkeypatch, tmp_path, capsys):
    table = _stages(("board", "import sys, time; time.sleep(1); sys.exit(1)", None),
                    ("web", "print('1 passed')", None))
    table[0][1].append(testrun.Job("board", "board 1/1", [[sys.executable, "-c", "print('x')"]], 9,
                                   after="board"))
    table[1][1][0].later = ["board"]      # starts when board has ended, whatever its result
    code, out = _run(monkeypatch, tmp_path, capsys, table, jobs=3)
    assert code == 1
    rows = _rows(out, "== FAILED")
    assert "FAILED (board: exit 1)" in rows["board"] and "board 1/1 not run: board failed" in rows["board"]
    assert "passed: 1 passed" in rows["web"]
    assert out.index("== board: FAILED (exit 1)") < out.index("-- web: started")


def test_the_minute_line_names_the_test_a_stage_is_in(monkeypatch, tmp_path, capsys):
    # A stage that is in one test for a while: its pytest writes the test's id
    # (tests/sharding.py's hook, here by hand) where the runner reads it.
    code = ("import os, time\n"
            "open(os.environ['DICETRAY_NOW'], 'w').write('tests/board/test_x.py::test_long')\n"
            "time.sleep(1.5)\nprint('1 passed')\n")
    monkeypatch.setattr(testrun, "BEAT", 0.5)
    code, out = _run(monkeypatch, tmp_path, capsys, _stages(("board", code, None)))
    assert code == 0
    assert re.search(r"running board \(\d+:\d\d, in tests/board/test_x.py::test_long for "
                     r"\d+:\d\d\)", out), out
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".now")]   # cleaned up


def test_an_unknown_stage_is_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        testrun.main(["nosuch"])
    assert e.value.code == 2
    assert "no stage nosuch: the stages are lint, pytest, micropython, board, web" in capsys.readouterr().err
