"""`make test` and `make check`: the test stages, several at once, each
stage's time, and a table of their results at the end (docs/testing.md).

    python tools/testrun.py [--check] [--jobs N] [--shards N] [--fail-fast] [STAGE ...]

Stages: lint (ruff check, ruff format --check, tools/typecheck.py),
pytest (tests/host and tests/mpy on CPython, in --shards processes),
micropython (tests/mpy_run.py), board (tests/board/boards.py builds the
images, then tests/board in two processes) and web (tests/web). `--check`
is the everyday three: lint, pytest, micropython. Up to --jobs processes
run at once (default: the cores plus two; a pytest process waits on its
simulators about half the time). A failed stage stops only what waits
on it (the board's tests without their images): every other stage still
runs, so the table has each one's verdict (--fail-fast: nothing more
starts after a failure, and the table names what was not run and why).
Each process's output goes to build/test/NAME.log and is printed whole
when it ends, under a banner with its time; the line printed every minute
names what still runs and the test each pytest process is in. Exit status
0 if every stage that ran passed.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGS = os.path.join(ROOT, "build", "test")
# Seconds per test file, to balance the shards (nothing else): the
# committed ones (tests/durations.json), then this tree's last run's.
TIMES = os.path.join(LOGS, "durations.json")
WEIGHTS = os.pathsep.join((os.path.join(ROOT, "tests", "durations.json"), TIMES))
BEAT = 60  # seconds between the lines saying what still runs
PY = sys.executable


COUNTS = ("passed", "failed", "errors", "error", "skipped", "xfailed", "xpassed")


class Job:
    """One process of a stage: `cmds` run in turn (the first failure ends it).
    `prio`: jobs start lowest first; `after`: a job that must pass first;
    `later`: jobs it starts after, whatever their result (when they run)."""

    def __init__(self, stage, name, cmds, prio, env=None, after=None, later=()):
        self.stage, self.name, self.cmds, self.prio = stage, name, cmds, prio
        self.env = env or {}
        self.after, self.later = after, later
        self.t0 = self.t1 = None
        self.code = None  # exit status
        self.cpu = 0.0  # CPU seconds of its processes and those they waited for
        self.why = None  # not run: the reason
        self.proc = None
        self.output = ""
        self.shown = False

    @property
    def now_file(self):
        """build/test/NAME.now: the test its pytest is in (tests/sharding.py)."""
        return self.log[:-4] + ".now"

    def current(self):
        """(test id, seconds in it) of the test it is in now, or None."""
        try:
            with open(self.now_file, encoding="utf-8") as f:
                name = f.read().strip()
            return (name, time.time() - os.path.getmtime(self.now_file)) if name else None
        except OSError:
            return None

    @property
    def log(self):
        """build/test/NAME.log (LOGS read when used: a test points it elsewhere)."""
        return os.path.join(LOGS, self.name.replace(" ", "-").replace("/", "of") + ".log")

    def start(self):
        self.t0 = time.monotonic()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        env = dict(os.environ, **self.env)
        env["DICETRAY_NOW"] = self.now_file
        try:
            with open(self.log, "w") as out:
                for cmd in self.cmds:
                    out.write(
                        "$ %s\n" % " ".join(os.path.relpath(c, ROOT) if c == PY else c for c in cmd)
                    )
                    out.flush()
                    self.proc = subprocess.Popen(
                        cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
                    )
                    _pid, status, use = os.wait4(self.proc.pid, 0)
                    self.code = self.proc.returncode = os.waitstatus_to_exitcode(status)
                    self.cpu += use.ru_utime + use.ru_stime
                    if self.code == 5 and "DICETRAY_SHARD" in self.env:
                        self.code = 0  # pytest: no test file fell in this shard
                    if self.code:
                        break
            with open(self.log, errors="replace") as f:
                self.output = f.read()
        except OSError as e:
            self.code, self.output = 1, "%s: %s" % (self.name, e)
        self.t1 = time.monotonic()

    @property
    def done(self):
        return self.t1 is not None

    def counts(self):
        """{passed: N, ...} from the last line of its output that has any."""
        for line in reversed(self.output.splitlines()):
            found = re.findall(r"(\d+) (%s)\b" % "|".join(COUNTS), line)
            if found:
                return {k.rstrip("s") if k.startswith("error") else k: int(n) for n, k in found}
        return {}


def stages(shards):
    """[(stage, [Job])]: every stage, in the order the table lists them."""

    def sharded(stage, argv, n, prio, after=None):
        return [
            Job(
                stage,
                "%s %d/%d" % (stage, k, n),
                [argv],
                prio,
                {
                    "DICETRAY_SHARD": "%d/%d" % (k, n),
                    "DICETRAY_WEIGHTS": WEIGHTS,
                    "DICETRAY_DURATIONS": os.path.join(LOGS, "times-%s-%d.json" % (stage, k)),
                },
                after,
            )
            for k in range(1, n + 1)
        ]

    # prio: the board's images first (the longest chain: the build, then
    # its two processes). The browser after pytest: its keys are taps of
    # 100 ms, lost when the page gets no CPU for that long (docs/testing.md).
    tests = sharded("pytest", [PY, "-m", "pytest"], shards, 3)
    return [
        (
            "lint",
            [
                Job(
                    "lint",
                    "lint",
                    [
                        [PY, "-m", "ruff", "check", "--quiet", "."],
                        [PY, "-m", "ruff", "format", "--check", "--quiet", "."],
                        [PY, "tools/typecheck.py"],
                    ],
                    0,
                )
            ],
        ),
        ("pytest", tests),
        ("micropython", [Job("micropython", "micropython", [[PY, "tests/mpy_run.py"]], 4)]),
        (
            "board",
            [Job("board", "board images", [[PY, "tests/board/boards.py"]], 1)]
            + sharded("board", [PY, "-m", "pytest", "tests/board", "-rs"], 2, 2, "board images"),
        ),
        (
            "web",
            [
                Job(
                    "web",
                    "web",
                    [[PY, "-m", "pytest", "tests/web", "-rs"]],
                    5,
                    later=[j.name for j in tests],
                )
            ],
        ),
    ]


CHECK = ("lint", "pytest", "micropython")


def clock(s):
    return "%d:%02d" % divmod(round(s), 60)


def main(argv=None):
    p = argparse.ArgumentParser(prog="tools/testrun.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="the everyday stages: " + ", ".join(CHECK))
    p.add_argument("--jobs", type=int, default=(os.cpu_count() or 1) + 2, help="processes at once")
    p.add_argument("--shards", type=int, default=2, help="processes for the pytest stage")
    p.add_argument("--fail-fast", action="store_true", help="start nothing more after a failure")
    p.add_argument("only", nargs="*", metavar="STAGE", help="these stages only")
    args = p.parse_args(argv)
    table = stages(max(1, args.shards))
    names = [s for s, _ in table]
    if set(args.only) - set(names):
        p.error(
            "no stage %s: the stages are %s"
            % (", ".join(sorted(set(args.only) - set(names))), ", ".join(names))
        )
    want = args.only or (CHECK if args.check else names)
    table = [(s, js) for s, js in table if s in want]
    jobs = sorted((j for _s, js in table for j in js), key=lambda j: j.prio)
    os.makedirs(LOGS, exist_ok=True)
    title = (
        "tools/testrun.py " + " ".join(args.only)
        if args.only
        else "make check"
        if args.check
        else "make test"
    )
    print(
        "== %s: %s; up to %d processes at once on %d cores; each one's output is printed "
        "when it ends (meanwhile in %s/) =="
        % (
            title,
            ", ".join(s for s, _ in table),
            args.jobs,
            os.cpu_count() or 1,
            os.path.relpath(LOGS, ROOT),
        ),
        flush=True,
    )
    t0 = time.monotonic()
    failed = []
    try:
        run(jobs, max(1, args.jobs), args.fail_fast, failed, t0)
    except KeyboardInterrupt:
        failed.append("Ctrl-C")
        for j in jobs:  # they had the Ctrl-C too: a moment to end, then the table
            if j.t0 is None:
                j.why = "not run: interrupted (Ctrl-C)"
            elif not j.done:
                j.thread.join(15)
                if not j.done:
                    j.proc.kill()
                    j.thread.join(5)
    total = time.monotonic() - t0
    save_times()
    return report(table, total, failed)


def run(jobs, limit, fail_fast, failed, t0):
    """Start jobs by priority as slots free up and what they wait for has
    passed (fail_fast: none after a failure); print each one's output when
    it ends."""
    by_name = {j.name: j for j in jobs}
    beat = time.monotonic() + BEAT
    while True:
        for j in jobs:
            if j.done and not j.shown:
                j.shown = True
                if j.code and j.stage not in failed:
                    failed.append(j.stage)
                print(
                    "\n== %s: %s in %s (CPU %s)%s =="
                    % (
                        j.name,
                        "passed" if j.code == 0 else "FAILED (exit %d)" % j.code,
                        clock(j.t1 - j.t0),
                        clock(j.cpu),
                        counted(j.counts()),
                    )
                )
                print(j.output.rstrip("\n"), flush=True)
        for j in jobs:
            if j.t0 is not None or j.why:
                continue
            dep = by_name.get(j.after)
            if failed and fail_fast:
                j.why = "not run: %s failed" % failed[0]
            elif dep is not None and (dep.why or (dep.done and dep.code)):
                j.why = "not run: %s %s" % (dep.name, dep.why or "failed")
            elif (
                (dep is None or dep.done)
                and all(by_name[n].done or by_name[n].why for n in j.later if n in by_name)
                and sum(1 for r in jobs if r.t0 and not r.done) < limit
            ):
                j.start()
                print("-- %s: started" % j.name, flush=True)
        if all(j.shown or j.why for j in jobs):
            return
        now = time.monotonic()
        if now >= beat:
            beat = now + BEAT
            print(
                "-- %s: running %s"
                % (
                    clock(now - t0),
                    ", ".join(running(j, now) for j in jobs if j.t0 and not j.done),
                ),
                flush=True,
            )
        time.sleep(0.2)


def running(job, now):
    """'board 2/2 (28:28, in tests/board/test_powercut.py::test_cuts for 14:02)'."""
    cur = job.current()
    return "%s (%s%s)" % (
        job.name,
        clock(now - job.t0),
        ", in %s for %s" % (cur[0], clock(cur[1])) if cur else "",
    )


def save_times():
    """The shards' seconds per test file, merged into build/test/durations.json."""
    times = {}
    if os.path.isfile(TIMES):
        with open(TIMES, encoding="utf-8") as f:
            times = json.load(f)
    for name in sorted(os.listdir(LOGS)):
        if name.startswith("times-"):
            path = os.path.join(LOGS, name)
            try:
                with open(path, encoding="utf-8") as f:
                    times.update(json.load(f))
            except ValueError:
                pass  # a shard stopped while writing it
            os.remove(path)
        elif name.endswith(".now"):
            os.remove(os.path.join(LOGS, name))
    with open(TIMES, "w", encoding="utf-8") as f:
        json.dump(dict(sorted(times.items())), f, indent=0)


def report(table, total, failed):
    """The table: each stage's result, its time (its first process's start
    to its last one's end), its CPU time and its processes' times; the total."""
    print(
        "\n== %s in %s =="
        % ("passed" if not failed else "FAILED: " + ", ".join(failed), clock(total))
    )
    print("%-12s %6s %6s  %s" % ("stage", "time", "CPU", "result"))
    cpu = 0.0
    for stage, js in table:
        ran = [j for j in js if j.t0 is not None]
        if not ran:
            print("%-12s %6s %6s  %s" % (stage, "-", "-", js[0].why or "not run"))
            continue
        bad = [j for j in ran if j.code]
        result = (
            "FAILED (%s)" % ", ".join("%s: exit %s" % (j.name, j.code) for j in bad)
            if bad
            else "passed"
        )
        counts = {}
        for j in ran:
            for k, n in j.counts().items():
                counts[k] = counts.get(k, 0) + n
        result += counted(counts)
        skipped = [j for j in js if j.t0 is None]
        if skipped:
            result += "; %s %s" % (", ".join(j.name for j in skipped), skipped[0].why)
        if len(js) > 1:
            result += " (%s)" % ", ".join(
                "%s %s" % (j.name[len(stage) + 1 :], clock(j.t1 - j.t0)) for j in ran if j.done
            )
        end = max(j.t1 if j.done else time.monotonic() for j in ran)
        used = sum(j.cpu for j in ran)
        cpu += used
        print(
            "%-12s %6s %6s  %s" % (stage, clock(end - min(j.t0 for j in ran)), clock(used), result)
        )
    print(
        "%-12s %6s %6s  %s"
        % ("total", clock(total), clock(cpu), "(the stages overlap: their times add up to more)"),
        flush=True,
    )
    return 1 if failed else 0


def counted(counts):
    """': 41 passed, 2 skipped' (or '' if there are none)."""
    return (": " + ", ".join("%d %s" % (n, k) for k, n in counts.items())) if counts else ""


if __name__ == "__main__":
    sys.exit(main())
