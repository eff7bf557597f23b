"""The pytest side of tools/testrun.py (docs/testing.md), hooked in by
tests/conftest.py.

DICETRAY_SHARD=K/N keeps the test files of shard K of N: the files of the
run, longest first by DICETRAY_WEIGHTS (JSON files of seconds per file,
separated by os.pathsep, the later ones winning; a file in none counts as
the mean), each to the shard with the least so far. Whole files, so a
module's fixtures (a build, a booted page) stay in one process; every
shard computes the same split, so each file runs in exactly one.
DICETRAY_DURATIONS=PATH writes each file's seconds (setup, call and
teardown of its tests) to PATH when the run ends. DICETRAY_NOW=PATH holds
the id of the test running now (written as each starts), which the runner
names while a stage runs long.
"""
import json
import os


def shard_of(files, weights, n):
    """{file: shard index 0..n-1}: longest first, each to the lightest shard."""
    known = [weights[f] for f in files if f in weights]
    mean = sum(known) / len(known) if known else 1.0
    load = [0.0] * n
    out = {}
    for f in sorted(files, key=lambda f: (-weights.get(f, mean), f)):
        k = load.index(min(load))
        out[f] = k
        load[k] += weights.get(f, mean)
    return out


def _file(nodeid):
    return nodeid.split("::")[0]


def pytest_collection_modifyitems(config, items):
    spec = os.environ.get("DICETRAY_SHARD")
    if not spec:
        return
    k, n = (int(x) for x in spec.split("/"))
    weights = {}
    for path in os.environ.get("DICETRAY_WEIGHTS", "").split(os.pathsep):
        try:
            with open(path, encoding="utf-8") as f:
                weights.update(json.load(f))
        except (OSError, ValueError):
            pass    # none there: the files it would weigh count as the mean
    shard = shard_of({_file(i.nodeid) for i in items}, weights, n)
    keep = [i for i in items if shard[_file(i.nodeid)] == k - 1]
    if len(keep) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if shard[_file(i.nodeid)] != k - 1])
        items[:] = keep


_seconds = {}


def pytest_runtest_logstart(nodeid, location):
    path = os.environ.get("DICETRAY_NOW")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(nodeid)


def pytest_runtest_logreport(report):
    f = _file(report.nodeid)
    _seconds[f] = _seconds.get(f, 0.0) + report.duration


def pytest_sessionfinish(session):
    path = os.environ.get("DICETRAY_DURATIONS")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({k: round(v, 2) for k, v in sorted(_seconds.items())}, f, indent=0)
