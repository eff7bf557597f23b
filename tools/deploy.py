"""`make deploy PORT=/dev/ttyACM0`: build the firmware and put it on a board.

    python tools/deploy.py PORT [--board NAME] [--dry-run]

1. build: tools/build.py compiles firmware/ to build/firmware/*.mpy
   (size report printed);
2. prepare: create the package directories; delete stale sources (a
   `hw/board.py` left on the flash by a manual copy would be imported
   instead of `hw/board.mpy`: MicroPython tries .py first);
3. copy: `mpremote fs cp` of every .mpy to the same path on the flash, in
   one mpremote run (mpremote skips files whose sha256 already matches).
   MicroPython runs only `main.py` at boot, so the compiled main goes to
   `dtmain.mpy` and a one-line `main.py` imports it. With --board NAME,
   /config.txt is replaced by `board=NAME` (needed on the MacroPad, which
   runs the generic Pico MicroPython);
4. reset: `mpremote reset`, the tray boots into the new firmware.

Campaign data (/dicetray on the flash) is never touched. PORT is what
`mpremote connect` takes: /dev/ttyACM0, COM3, or `auto`.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools.mpy import ROOT  # noqa: E402

BUILD = os.path.join(ROOT, "build", "firmware")
STAGE = os.path.join(ROOT, "build", "deploy")
MAIN_MODULE = "dtmain"  # the compiled firmware/main.py on the board
MAIN_STUB = "import %s  # Dicetray: the firmware is %s.mpy\n" % (MAIN_MODULE, MAIN_MODULE)


def mpremote(port, *args):
    """The command line of one mpremote run on `port`."""
    return [sys.executable, "-m", "mpremote", "connect", port] + list(args)


def build():
    """Run tools/build.py (compile + size report)."""
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build.py")], check=True)


def modules(build_dir=BUILD):
    """Sorted paths (relative, '/'-separated) of the .mpy files in the build."""
    out = []
    for base, _dirs, files in os.walk(build_dir):
        for f in files:
            if f.endswith(".mpy"):
                out.append(os.path.relpath(os.path.join(base, f), build_dir).replace(os.sep, "/"))
    return sorted(out)


def stage(board=None):
    """Write build/deploy/main.py (and config.txt for --board); returns their paths."""
    os.makedirs(STAGE, exist_ok=True)
    made = []
    main_py = os.path.join(STAGE, "main.py")
    with open(main_py, "w") as f:
        f.write(MAIN_STUB)
    made.append(main_py)
    if board:
        cfg = os.path.join(STAGE, "config.txt")
        with open(cfg, "w") as f:
            f.write("board=%s\n" % board)
        made.append(cfg)
    return made


def plan(port, mods, board=None, build_dir=BUILD):
    """[(progress message, command line)] of the mpremote runs, in order.

    Files are copied one by one to explicit paths (chained with `+` in one
    mpremote run): `cp -r` into an existing directory nests it (hw/hw/...)
    the way Unix cp does."""
    twins = ["/" + m[:-4] + ".py" for m in mods if m != "main.mpy"]
    dirs = sorted({"/" + m.rsplit("/", 1)[0] for m in mods if "/" in m})
    prep = (
        "import os\n"
        "for d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n"
        "for p in %r:\n try:\n  os.remove(p)\n except OSError:\n  pass\n" % (dirs, twins)
    )
    cp = []
    for m in mods:
        dst = MAIN_MODULE + ".mpy" if m == "main.mpy" else m
        cp += ["+", "fs", "cp", os.path.join(build_dir, *m.split("/")), ":/" + dst]
    cp += ["+", "fs", "cp", os.path.join(STAGE, "main.py"), ":/main.py"]
    what = "%d modules, main.py -> %s.mpy" % (len(mods), MAIN_MODULE)
    if board:
        cp += ["+", "fs", "cp", os.path.join(STAGE, "config.txt"), ":/config.txt"]
        what += ", config.txt board=%s" % board
    return [
        ("creating %s; removing stale .py twins" % " ".join(dirs), mpremote(port, "exec", prep)),
        ("copying " + what, mpremote(port, *cp[1:])),
        ("resetting the board", mpremote(port, "reset")),
    ]


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    dry = "--dry-run" in argv
    board = None
    for a in argv:
        if a.startswith("--board="):
            board = a[8:]
    if "--board" in argv:
        i = argv.index("--board")
        if i + 1 >= len(argv):
            print("deploy: --board needs a name (pico, macropad)", file=sys.stderr)
            return 2
        board = argv[i + 1]
        args.remove(board)
    if len(args) != 1:
        print(
            "usage: python tools/deploy.py PORT [--board NAME] [--dry-run]\n"
            "  e.g. make deploy PORT=/dev/ttyACM0",
            file=sys.stderr,
        )
        return 2
    port = args[0]
    print("[1/4] building build/firmware", flush=True)
    build()
    stage(board)
    mods = modules(BUILD)
    if "main.mpy" not in mods:
        print("deploy: build/firmware/main.mpy missing: the build failed?", file=sys.stderr)
        return 1
    steps = plan(port, mods, board, BUILD)
    for i, (msg, cmd) in enumerate(steps):
        print("[%d/%d] %s on %s" % (i + 2, len(steps) + 1, msg, port), flush=True)
        if dry:
            print(
                "  " + " ".join(cmd[2:])
                if cmd[:3] == [sys.executable, "-m", "mpremote"]
                else " ".join(cmd)
            )
            continue
        r = subprocess.run(cmd)
        if r.returncode != 0:
            print(
                "deploy: step failed (exit %d): %s" % (r.returncode, " ".join(cmd[2:])),
                file=sys.stderr,
            )
            return 1
    print("done: the tray restarts into the new firmware" if not dry else "dry run: nothing sent")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
