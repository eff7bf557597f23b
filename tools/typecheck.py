"""Type-check firmware/ against the MicroPython rp2 stubs with mypy.

`python tools/typecheck.py [mypy args...]` (part of `make test`).

mypy ships CPython's typeshed, where `time` has no ticks_ms and `machine`
does not exist. The stubs (micropython-rp2-rpi_pico-stubs and its
micropython-stdlib-stubs) are therefore merged, the way their authors'
micropython-typeshed package does, into one custom typeshed under
build/typeshed: the reduced MicroPython stdlib, then the port's modules
(machine, neopixel, framebuf, time, micropython...) over it, each listed
in stdlib/VERSIONS so mypy treats them as the standard library. mypy then
runs with `--custom-typeshed-dir` on firmware/ with `--check-untyped-defs`
(the firmware has no annotations; without it mypy would skip every
function body), so a call the real board does not have fails here.

Then the host's typed API (HOST_TYPED: what a script imports with its
annotations) against CPython's own typeshed. firmware/ is on MYPYPATH
there: the host's link/frame.py loads the firmware's link/frame.py at run
time (importlib), and for mypy imports it as `link.frame` under
TYPE_CHECKING, so the frame constants, encode/decode and Lines are checked
from that one file.

Exit status: mypy's (0 clean, 1 errors, 2 usage); the first that fails.
"""

import os
import shutil
import subprocess
import sys
from importlib import metadata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUB_DISTS = ("micropython-stdlib-stubs", "micropython-rp2-rpi_pico-stubs")
CONFIG = os.path.join(ROOT, "tools", "mypy.ini")
FIRMWARE = os.path.join(ROOT, "firmware")
# The simulators' boards (run on MicroPython too, beside the firmware).
SIMBOARD = os.path.join(ROOT, "simboard")
# with --check-untyped-defs: the bodies of their unannotated helpers too
HOST_TYPED = [
    os.path.join(ROOT, "host", "dicetray", "ops", "restore.py"),
    os.path.join(ROOT, "host", "dicetray", "backup"),
    os.path.join(ROOT, "host", "dicetray", "link"),  # Device, HubDevice: the ways to a tray
]


def _dist_files(name):
    """(absolute path, path relative to site-packages) of a distribution's files."""
    try:
        d = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        sys.exit("typecheck: %s is not installed (pip install -e '.[dev]')" % name)
    for f in d.files or ():
        rel = str(f)
        if ".dist-info" in rel or not rel.endswith(".pyi"):
            continue
        yield str(d.locate_file(f)), rel


def build_typeshed(out):
    """Assemble the merged typeshed in `out`; returns `out`."""
    std = os.path.join(out, "stdlib")
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(std)
    names = set()
    for dist in STUB_DISTS:  # the port's stubs last: they override the stdlib's
        for src, rel in _dist_files(dist):
            if rel.startswith("stdlib/"):
                dst = os.path.join(out, rel)
            elif rel.startswith("stubs/"):
                dst = os.path.join(out, rel)  # mypy-extensions, as in typeshed
            else:
                dst = os.path.join(std, rel)
                top = rel.split("/")[0]
                names.add(top[:-4] if top.endswith(".pyi") else top)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
    names.discard("__builtins__")  # the stubs' helper, not a module to import
    with open(os.path.join(std, "VERSIONS"), "a") as f:
        f.write("\n# MicroPython rp2 modules (tools/typecheck.py)\n")
        for n in sorted(names):
            f.write("%s: 3.0-\n" % n)
    return out


def command(typeshed, targets=(FIRMWARE, SIMBOARD), extra=()):
    """The mypy command line (run it with cwd=firmware/: the repository's
    host/ directory must not pass for the simulator's `host` module)."""
    return (
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            CONFIG,
            "--custom-typeshed-dir",
            typeshed,
            "--cache-dir",
            os.path.join(ROOT, "build", "mypy_cache"),
        ]
        + list(extra)
        + list(targets)
    )


def main(argv):
    ts = build_typeshed(os.path.join(ROOT, "build", "typeshed"))
    cmd = command(ts, extra=argv)
    print("typecheck: mypy on firmware/ and simboard/ against micropython-rp2-rpi_pico-stubs")
    rc = subprocess.call(cmd, cwd=FIRMWARE)
    if rc:
        return rc
    print(
        "typecheck: mypy on the host's typed API (%s)"
        % ", ".join(os.path.relpath(p, ROOT) for p in HOST_TYPED)
    )
    host = [
        sys.executable,
        "-m",
        "mypy",
        "--ignore-missing-imports",
        "--follow-imports=silent",
        "--check-untyped-defs",
        "--cache-dir",
        os.path.join(ROOT, "build", "mypy_cache_host"),
    ] + list(argv)
    # the firmware's link/frame.py as `link.frame` (host/dicetray/link/frame.py)
    path = os.pathsep.join(p for p in (FIRMWARE, os.environ.get("MYPYPATH")) if p)
    return subprocess.call(
        host + HOST_TYPED, cwd=os.path.join(ROOT, "host"), env=dict(os.environ, MYPYPATH=path)
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
