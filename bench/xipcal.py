"""The XIP cache model's calibration (`make bench`; docs/emulator.md, "XIP
cache"): MicroPython's own benchmarks (tests/perf_bench, run as its
tests/run-perfbench.py runs them: the test, benchrun.py, `bm_run(N, M)`)
on the emulated RP2040, with and without the model, beside figures
published from real boards:

- the scores of an RPI_PICO (RP2040 at 125 MHz) at N=100 M=100, "rpi-opt"
  in micropython PR #14182 (2024-03-26; the build that made vm.c -O2, as
  v1.27.0 is);
- the gain of linking vm.c, gc.c and parse.c into SRAM instead of running
  them from flash, on a Pico W (RP2040, 125 MHz, mean of 5), in micropython
  PR #19370 (2026-06-23): a change that moves code out of the XIP cache's
  way and nothing else, so without a cache model the emulator sees none of
  it, and how much of it the model predicts says how right its miss cost is.

The benchmarks are MicroPython's, not this repository's: they are read from
a MicroPython source tree, $MICROPYTHON_SRC (tools/uf2.py's; the vendored
tarballs have no tests/) or --perf-bench DIR. Without one the calibration is
skipped with a line saying so.

    .venv/bin/python bench/xipcal.py [--perf-bench DIR] [--tests a,b,...]
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests", "board")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

N, M = 100, 100
# RPI_PICO, 125 MHz, N=100 M=100: micropython PR #14182, "rpi-opt" column.
PICO_SCORES = {
    "bm_chaos": 218.64,
    "bm_fannkuch": 53.75,
    "bm_fft": 1524.90,
    "bm_float": 2497.01,
    "bm_hexiom": 36.02,
    "bm_nqueens": 2252.63,
    "bm_pidigits": 474.88,
    "bm_wordcount": 39.99,
    "core_locals": 28.87,
    "core_qstr": 139.92,
    "core_str": 17.91,
    "core_yield_from": 213.00,
}
# Pico W, 125 MHz: % faster with vm.c, gc.c, parse.c in SRAM (PR #19370).
PICO_SRAM_GAIN = {
    "bm_chaos": 28.9,
    "bm_fannkuch": 26.7,
    "bm_hexiom": 23.0,
    "bm_nqueens": 22.1,
    "bm_pidigits": 20.8,
    "misc_mandel": 18.4,
    "misc_pystone": 10.8,
    "bm_float": 8.0,
    "bm_fft": 3.4,
    "misc_aes": 3.1,
    "bm_wordcount": -1.8,
    "misc_raytrace": -2.0,
}
TESTS = sorted(set(PICO_SCORES) | set(PICO_SRAM_GAIN))


def perf_bench_dir(given=None):
    """The perf_bench folder to use, or None."""
    for d in (given, os.path.join(os.environ.get("MICROPYTHON_SRC", ""), "tests", "perf_bench")):
        if d and os.path.isfile(os.path.join(d, "benchrun.py")):
            return d
    return None


def scores(uf2_path, bench, tests, xip):
    """{test: score} of each test on one emulated board (a soft reset
    before each, as run-perfbench.py does); score = 1e6 * norm / µs."""
    from mpremote.transport_serial import SerialTransport

    from dicetray.sim.rp2040 import Emulator

    with open(os.path.join(bench, "benchrun.py")) as f:
        runner = f.read()
    d = tempfile.mkdtemp(prefix="dicetray-xipcal-")
    em = Emulator(uf2_path, os.path.join(d, "flash.bin"), xip=xip).start()
    out = {}
    try:
        # What the host sends before the port is up waits in the harness.
        t = SerialTransport(em.port, baudrate=115200)
        try:
            for name in tests:
                with open(os.path.join(bench, name + ".py")) as f:
                    code = f.read() + "\n" + runner + "\nbm_run(%d, %d)\n" % (N, M)
                t.enter_raw_repl(soft_reset=True)
                got, err = t.exec_raw(code, timeout=600)
                if err:
                    raise RuntimeError("%s: %s" % (name, err.decode(errors="replace")[-300:]))
                got = got.decode()
                m = re.match(r"\s*(-?\d+) (-?\d+) ", got)
                if not m or int(m.group(1)) <= 0:
                    raise RuntimeError("%s: %r" % (name, got[:200]))
                out[name] = 1e6 * int(m.group(2)) / int(m.group(1))
            t.exit_raw_repl()
        finally:
            t.close()
    finally:
        em.close()
        shutil.rmtree(d, ignore_errors=True)
    return out


def row(*cols):
    print("%-16s" % cols[0] + "".join("%12s" % c for c in cols[1:]))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--perf-bench", help="MicroPython's tests/perf_bench folder")
    p.add_argument("--tests", help="comma-separated subset of: " + ", ".join(TESTS))
    a = p.parse_args(argv)
    bench = perf_bench_dir(a.perf_bench)
    print("XIP cache model: calibration against real RP2040 boards (MicroPython's perf_bench)")
    if bench is None:
        print(
            "  skipped: no MicroPython tests/perf_bench (set MICROPYTHON_SRC to a micropython "
            "v1.27.0 tree, or --perf-bench DIR); the last run's figures are in docs/emulator.md"
        )
        return 0
    import boards

    tests = a.tests.split(",") if a.tests else TESTS
    stock = boards.image(stock=True)
    sram = boards.image(stock=True, sram=True)
    flash_free = scores(stock, bench, tests, False)
    flash_xip = scores(stock, bench, tests, True)
    sram_free = scores(sram, bench, tests, False)
    sram_xip = scores(sram, bench, tests, True)
    print("scores (higher is faster), N=%d M=%d; stock v1.27.0 image (its VM in flash)" % (N, M))
    row("test", "no model", "model", "a Pico", "model/Pico")
    for k in tests:
        pico = PICO_SCORES.get(k)
        row(
            k,
            "%.2f" % flash_free[k],
            "%.2f" % flash_xip[k],
            "%.2f" % pico if pico else "-",
            "%.2f" % (flash_xip[k] / pico) if pico else "-",
        )
    print("vm.c, gc.c, parse.c linked into SRAM (rp2/sram.txt): % faster than from flash")
    row("test", "no model", "model", "a Pico W", "")
    for k in tests:
        gain = PICO_SRAM_GAIN.get(k)
        row(
            k,
            "%+.1f" % (100 * (sram_free[k] / flash_free[k] - 1)),
            "%+.1f" % (100 * (sram_xip[k] / flash_xip[k] - 1)),
            "%+.1f" % gain if gain is not None else "-",
            "",
        )
    both = [k for k in tests if k in PICO_SCORES]
    if both:
        print(
            "  mean model/Pico score ratio %.2f (no model: %.2f) over %d tests"
            % (
                sum(flash_xip[k] / PICO_SCORES[k] for k in both) / len(both),
                sum(flash_free[k] / PICO_SCORES[k] for k in both) / len(both),
                len(both),
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
