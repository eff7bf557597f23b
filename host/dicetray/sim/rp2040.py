"""The tray on an emulated RP2040: MicroPython's own rp2 port (the UF2 that
`make uf2` builds) in rp2040js, with the reference build's parts around it.

`Emulator` starts the harness (emulator/src/main.mjs, run by node) and
keeps, on the host side, what the parts show: the OLED's controller model
(dicetray.panel, fed every I2C or SPI write the firmware made, strict: a
wrong command or an out-of-range page is an error), the LED ring decoded
from its data pin, and the USB CDC port as a pty (`port`) that pyserial,
mpremote and `dicetray --port` open as they would /dev/ttyACM0. The flash
is a 2 MB image file that every erase and program reaches at once, so
`kill()` (SIGKILL) is a power cut. See docs/emulator.md.
"""

import base64
import importlib.util
import json
import os
import queue
import shutil
import signal
import subprocess
import threading
import time

from ..panel import SH1106, SSD1306, Panel
from . import flashlock
from .parts import Shown
from .pty import SerialPty
from .script import KEY_BITS, LONG_MS, TAP_MS, dice_seed

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
EMULATOR = os.path.join(ROOT, "emulator")
FIRMWARE = os.path.join(ROOT, "firmware")
UF2_DIR = os.path.join(ROOT, "build", "uf2")
FLASH_FILE = "rp2040-flash.bin"  # in the --flash folder
NS = 1_000_000  # emulated ns a ms


class EmulatorError(Exception):
    """The emulated board could not start or failed: the message says what to do."""


def default_uf2():
    """The release image `make uf2` builds for the Pico."""
    return os.path.join(UF2_DIR, "dicetray-rpi_pico.uf2")


def default_flash_dir():
    """<home>/rp2040: beside the backups, under $DICETRAY_HOME when it is
    set (datadir.home(); else ~/.local/share/dicetray/rp2040)."""
    from ..base.datadir import home

    return os.path.join(home(), "rp2040")


def ensure_node():
    """Path of node, with rp2040js installed beside the harness (npm ci
    from the lock file the first time); EmulatorError naming what is missing."""
    node = shutil.which("node")
    if node is None:
        raise EmulatorError(
            "node not found: the emulated RP2040 runs on Node.js 18 or newer "
            "(apt-get install nodejs npm)"
        )
    if not os.path.isdir(os.path.join(EMULATOR, "node_modules", "rp2040js")):
        npm = shutil.which("npm")
        if npm is None:
            raise EmulatorError(
                "npm not found: it installs the emulator's rp2040js "
                "(apt-get install npm), or run `npm ci` in %s" % EMULATOR
            )
        r = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=EMULATOR,
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            raise EmulatorError(
                "npm ci in %s failed: %s" % (EMULATOR, (r.stderr or r.stdout).strip()[-500:])
            )
    return node


def _firmware_module(name):
    """A module of firmware/hw loaded on CPython (pins.py, keys.py: plain data)."""
    spec = importlib.util.spec_from_file_location(
        "_fw_" + name, os.path.join(FIRMWARE, "hw", name + ".py")
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def profile(name="pico", display=None):
    """The parts of board `name` for the harness, from firmware/hw/pins.py
    (the one pin map the firmware, the diagrams and the docs use).
    display: the OLED fitted on a pico build, 'ssd1306' (default) or 'sh1106'."""
    pins = _firmware_module("pins")
    names = _firmware_module("keys").NAMES
    pmap = pins.BOARDS.get(name)
    if pmap is None:
        raise EmulatorError(
            "no board profile %r: use one of %s" % (name, ", ".join(sorted(pins.BOARDS)))
        )
    keys = {}
    inputs = []
    for _sig, gpio, kind, use in pmap:
        if kind in ("key", "enc"):
            inputs.append(gpio)  # switches: released until pressed
        if kind == "key" and use:
            keys.setdefault(str(1 << names.index(use)), []).append(gpio)

    def g(sig):
        return pins.gpio(pmap, sig)

    if name == "macropad":
        disp = {
            "bus": "spi",
            "id": pins.MACROPAD_SPI[0],
            "cs": g("OLED_CS"),
            "dc": g("OLED_DC"),
            "rst": g("OLED_RST"),
            "controller": SH1106,
        }
        ring = {"gpio": g("PIXELS"), "n": pins.MACROPAD_LEDS}
    else:
        disp = {
            "bus": "i2c",
            "id": pins.PICO_I2C[0],
            "sda": g("SDA"),
            "scl": g("SCL"),
            "addr": 0x3C,
            "controller": display or SSD1306,
        }
        ring = {"gpio": g("RING"), "n": pins.PICO_LEDS}
    return {"name": name, "display": disp, "keys": keys, "inputs": inputs, "ring": ring}


def flash_unique_id(flash):
    """The flash chip's unique ID (16 hex digits) of the board whose flash
    image is `flash`: kept beside it (<image>.id), made at random the first
    time, so each emulated board keeps its own machine.unique_id(). A new
    image (no file yet) is a new chip: it gets a new ID, so its campaign
    ids, which the firmware mixes with it (hw/pico.py entropy), are its
    own even on a folder that held a board before."""
    if flash is None:
        return os.urandom(8).hex()
    path = os.path.splitext(flash)[0] + ".id"
    try:
        if os.path.exists(flash):
            with open(path, encoding="ascii") as f:
                v = f.read().strip()
            int(v, 16)
            if len(v) == 16:
                return v
    except (OSError, ValueError):
        pass
    v = os.urandom(8).hex()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="ascii") as f:
        f.write(v + "\n")
    return v


def gc_heap(uf2):
    """(start, end) of the heap MicroPython's rp2 port gives its collector,
    from the image's sidecar (tools/uf2.py `gc_heap`: the linker's
    __GcHeapStart and __GcHeapEnd): the emulator's heap probe reads the
    collector's table there (emulator/src/heap.mjs). None: an image without
    a sidecar that says it (built before it, or not by tools/uf2.py)."""
    if not uf2:
        return None
    try:
        with open(os.path.splitext(uf2)[0] + ".json", encoding="utf-8") as f:
            h = json.load(f).get("gc_heap")
        return int(h["start"]), int(h["end"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def key_timeline(events):
    """The key masks of a parsed script (script.parse) as [(ms, mask)],
    with the screenshots and the end as [(ms, 'mark', arg)] beside them:
    a tap holds its key TAP_MS, a long press LONG_MS, as in the simulator."""
    out = []
    mask = 0
    release = {}
    for t, verb, arg in events:
        for bit, at in sorted(release.items(), key=lambda x: x[1]):
            if at <= t:
                mask &= ~bit
                out.append((at, "keys", mask))
                del release[bit]
        if verb in KEY_BITS:
            bit = KEY_BITS[verb]
            if arg == "up":
                mask &= ~bit
                release.pop(bit, None)
            else:
                mask |= bit
                if arg in ("tap", "long"):
                    release[bit] = t + (TAP_MS if arg == "tap" else LONG_MS)
                else:
                    release.pop(bit, None)
            out.append((t, "keys", mask))
        else:
            out.append((t, verb, arg))
    for bit, at in sorted(release.items(), key=lambda x: x[1]):
        mask &= ~bit
        out.append((at, "keys", mask))
    out.sort(key=lambda e: e[0])
    return out


class Emulator(Shown):
    """One emulated board process.

    uf2: the image flashed at start (None: keep what the flash file holds);
    flash: the flash image file (created blank) or None (in memory);
    seed: what the board profile's seed() returns first, as `dicetray sim
    --seed N` (the harness's ring oscillator makes os.urandom give it);
    paced: emulated time never runs ahead of the wall clock (a terminal
    user's presses); otherwise idle time is skipped and the board runs as
    fast as the emulator goes. cut_at: a power cut at that emulated ms.
    xip: model the RP2040's XIP cache (flash misses cost cycles, as on a
    board: emulator/src/xip.mjs); False gives rp2040js's own timing, where
    every flash access is free (make bench prints both).
    """

    def __init__(
        self,
        uf2,
        flash,
        board="pico",
        display=None,
        seed=1,
        paced=False,
        cut_at_ns=None,
        serial=True,
        unique_id=None,
        xip=True,
        xip_profile=None,
        pc_profile=None,
        pc_mark=None,
        py_code=None,
    ):
        self.uf2 = uf2
        self.flash = flash
        self.unique_id = unique_id or flash_unique_id(flash)
        self.profile = profile(board, display)
        self.seed = seed
        self.paced = paced
        self.cut_at_ns = cut_at_ns
        self.xip = xip
        self.xip_profile = xip_profile  # a file: the XIP misses by flash line while spans are on
        self.pc_profile = pc_profile  # a file: the CPU's cycles by instruction address, the same
        self.pc_mark = (
            pc_mark  # ...in phases: the address of a function whose entry starts the last
        )
        self.py_code = py_code  # ...by Python function: (start, end) of the frozen bytecode
        self.panel = Panel(self.profile["display"]["controller"])
        self.leds = bytes(3 * self.profile["ring"]["n"])
        self.pty = SerialPty() if serial else None
        self.port = self.pty.path if self.pty else None
        self.proc = None
        self.errors = []  # what the panel model refused, and harness errors
        self.app_t = None  # emulated ns the app first idled at (its boot done)
        self.boot_t = None  # ...and the last display write before it
        self.boots = 0
        self.boot_start = 0  # emulated ns of the last power-on or reset
        self.boot_stats = self.app_stats = None  # the counters then, and when the app came up
        self.span_log = []  # CPU runs that drew on the display (spans(True))
        self.draw_log = []  # (emulated ns, bus ns so far) of each display write, while spans are on
        self._spanning = False
        self.exit = None  # the harness's exit event
        self.cut = None  # its last power-cut event
        self.cuts = 0
        self.marks = {}
        self.writes = 0  # display writes
        self.last_write_t = 0
        self.on_change = None  # called (from the reader thread) when the screen or LEDs change
        self._cv = threading.Condition()
        self._replies = queue.Queue()
        self._stderr = []
        self.lock = None  # the flash image's (flashlock.py), from hold() to close()

    # -- life --

    def hold(self, what=None):
        """Lock the flash image for this board (its folder's lock, and
        <image>.lock beside it naming the holder): flashlock.InUse naming
        the simulator that has it, FlashError when its folder cannot be
        one. start() takes it if not held yet; `what`: the flash in the
        message (default: the image)."""
        if self.lock is None and self.flash is not None:
            flash = os.path.abspath(self.flash)
            flashlock.folder(os.path.dirname(flash))
            self.lock = flashlock.Lock(
                os.path.dirname(flash),
                os.path.splitext(flash)[0] + ".lock",
                what or "flash image %s" % self.flash,
                "dicetray sim --rp2040",
            )

    def start(self):
        """Start the harness; returns self (use as a context manager too)."""
        took = self.lock is None
        self.hold()
        try:
            return self._start()
        except BaseException:
            if took and self.lock is not None:
                self.lock.release()
                self.lock = None
            raise

    def _start(self):
        node = ensure_node()
        if self.uf2 is not None and not os.path.isfile(self.uf2):
            raise EmulatorError(
                "no image %s: build it with `make uf2`, or pass --uf2 FILE" % self.uf2
            )
        cmd = [
            node,
            os.path.join(EMULATOR, "src", "main.mjs"),
            "--profile",
            json.dumps(self.profile),
            "--seed",
            str(self.seed & 0x3FFFFFFF),
            "--unique-id",
            self.unique_id,
        ]
        if self.uf2 is not None:
            cmd += ["--uf2", self.uf2]
        if self.flash is not None:
            cmd += ["--flash", self.flash]
        if self.paced:
            cmd.append("--paced")
        if self.cut_at_ns is not None:
            cmd += ["--cut-at", str(int(self.cut_at_ns))]
        if not self.xip:
            cmd.append("--no-xip-cache")
        if self.xip_profile:
            cmd += ["--xip-profile", self.xip_profile]
        if self.pc_profile:
            cmd += ["--pc-profile", self.pc_profile]
        if self.pc_mark is not None:
            cmd += ["--pc-mark", str(self.pc_mark)]
        if self.py_code is not None:
            cmd += ["--py-code", "%d:%d" % self.py_code]
        heap = gc_heap(self.uf2)
        if heap is not None:
            cmd += ["--gc-heap", "%d:%d" % heap]
        # The harness inherits the flash's lock: it is held while the harness
        # writes the image, even if this process dies first.
        fds = () if self.lock is None else (self.lock.fd,)
        if self.pty is not None:
            cmd += ["--serial-fd", str(self.pty.master)]
            fds += (self.pty.master,)
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=fds,
            bufsize=0,
        )
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        return self

    def __enter__(self):
        return self.start() if self.proc is None else self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Quit the harness (if running) and close the port."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self._send({"cmd": "quit"})
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        if self.pty is not None:
            self.pty.close()
            self.pty = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def kill(self):
        """A power cut now: SIGKILL; the flash file holds what was written."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    @property
    def running(self):
        return self.proc is not None and self.proc.poll() is None and self.exit is None

    # -- what comes back --

    def _read(self):
        for line in self.proc.stdout:
            try:
                ev = json.loads(line)
            except ValueError:
                self.errors.append("harness: not JSON: %r" % line[:200])
                continue
            self._event(ev)
        with self._cv:
            if self.exit is None:
                self.exit = {"ev": "exit", "why": "killed" if self.proc.poll() else "ended"}
            self._cv.notify_all()

    def _read_err(self):
        for line in self.proc.stderr:
            self._stderr.append(line.decode(errors="replace"))

    def _event(self, ev):
        kind = ev.get("ev")
        changed = False
        if kind in ("i2c", "spi"):
            data = base64.b64decode(ev["d"])
            try:
                if kind == "i2c":
                    self.panel.feed(data)
                else:
                    self.panel.feed_spi(data, ev["dc"])
            except ValueError as e:
                self.errors.append("OLED at %.3f ms: %s" % (ev["t"] / NS, e))
            self.writes += 1
            self.last_write_t = ev["t"]
            if self._spanning:
                self.draw_log.append((ev["t"], ev.get("bus", 0)))
            changed = True
        elif kind == "leds":
            self.leds = base64.b64decode(ev["d"])
            changed = True
        elif kind == "error":
            self.errors.append("harness: " + ev.get("msg", ""))
        elif kind == "stats":
            self._replies.put(ev["stats"])
            return
        with self._cv:
            if kind == "boot":
                self.boots = ev["n"]
                self.boot_start = ev["t"]
                self.boot_stats = ev["stats"]
                self.app_t = None
            elif kind == "app":
                self.app_t = ev["t"]
                self.boot_t = self.last_write_t
                self.app_stats = ev["stats"]
            elif kind == "span":
                self.span_log.append(ev)
            elif kind == "mark":
                # What the parts showed at that emulated moment (the reader
                # goes on with later events while the caller looks).
                ev["display"] = bytes(self.panel.image())
                ev["leds"] = self.leds
                ev["contrast"] = self.panel.contrast
                ev["power"] = self.panel.on
                self.marks[ev["id"]] = ev
            elif kind in ("exit",):
                self.exit = ev
            elif kind == "cut":
                self.cut = ev
                self.cuts += 1
            self._cv.notify_all()
        if changed and self.on_change is not None:
            self.on_change()

    def wait(self, pred, timeout=120, what="the board"):
        """Wait until pred() holds (checked at every event); EmulatorError on
        timeout or if the harness ended first."""
        end = time.monotonic() + timeout
        with self._cv:
            while not pred():
                if self.exit is not None and not pred():
                    raise EmulatorError(
                        "the emulator ended (%s) while waiting for %s%s"
                        % (self.exit.get("why"), what, self._tail())
                    )
                left = end - time.monotonic()
                if left <= 0:
                    raise EmulatorError("timed out after %d s waiting for %s" % (timeout, what))
                self._cv.wait(min(left, 1.0))

    def _tail(self):
        err = "".join(self._stderr[-20:]).strip()
        return (": " + err[-1500:]) if err else ""

    def wait_app(self, timeout=120):
        """Wait for the firmware's app to be up (its first idle after boot);
        returns the emulated ns it took from power-on."""
        self.wait(lambda: self.app_t is not None, timeout, "the app to start")
        return self.app_t

    # -- what goes in --

    def _send(self, cmd):
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        self.proc.stdin.flush()

    def keys(self, mask):
        """Hold exactly the keys of mask (hw/keys.py bits) from now on."""
        self._send({"cmd": "keys", "mask": mask})

    def at(self, steps, base="power"):
        """Schedule steps [(t_ns, keys or None, mark or None)]: at t_ns of
        emulated time after power-on (base 'power'), after the app came up
        ('app': a script's time 0) or after the harness reads this ('now':
        the steps keep their distances however busy the host is). keys:
        the pressed mask from then on; mark: an event in `marks` with what
        the parts showed at that moment."""
        out = []
        for t, keys, mark in steps:
            step = {"t": int(t)}
            if keys is not None:
                step["keys"] = keys
            if mark is not None:
                step["mark"] = mark
            out.append(step)
        self._send({"cmd": "at", "base": base, "steps": out})

    def tap(self, mask, hold_ms, settle_ms, mark):
        """Press `mask` a moment from now for hold_ms, release it, and wait
        until settle_ms later (mark `mark`); returns the mark."""
        self.at(
            [
                (20 * NS, mask, None),
                ((20 + hold_ms) * NS, 0, None),
                ((20 + hold_ms + settle_ms) * NS, None, mark),
            ],
            base="now",
        )
        return self.wait_mark(mark)

    def play(self, events, origin_ns=None):
        """Schedule a parsed script (script.parse): its time 0 is the moment
        the app comes up (as the desktop simulator's, where boot takes no
        virtual time), exactly, when this is called before the app is up;
        or emulated time origin_ns. Returns [(ms, mark id, arg)] of its
        screenshots; the mark 'end' comes at its last event."""
        base = 0 if origin_ns is None else origin_ns
        marks = []
        steps = []
        end = 0
        for i, (t, verb, arg) in enumerate(key_timeline(events)):
            end = max(end, t)
            if verb == "keys":
                steps.append((base + t * NS, arg, None))
            elif verb == "screenshot":
                mid = "shot%d" % i
                steps.append((base + t * NS, None, mid))
                marks.append((t, mid, arg))
        steps.append((base + end * NS, None, "end"))
        self.at(steps, "app" if origin_ns is None else "power")
        return marks

    def wait_mark(self, mid, timeout=300):
        """Wait for mark `mid`; returns its event (t, stats)."""
        self.wait(lambda: mid in self.marks, timeout, "mark %s" % mid)
        return self.marks[mid]

    def spans(self, on=True):
        """Report (into span_log) every run of the CPU between two waits that
        wrote to the display or sent on the USB port: its emulated ns (t0,
        t1), busy cycles, the bus and flash ns and the display and USB bytes
        inside it. Meanwhile draw_log gets the emulated ns of every display
        write and the I2C bus's ns so far (a frame sent by DMA goes on after
        its CPU run)."""
        self._spanning = on
        self._send({"cmd": "spans", "on": on})

    def power_cut(self, t_ns, restart=True):
        """Cut the power at emulated time t_ns (since power-on): flash as far
        as it was written, an operation in progress partly done; with restart
        the power comes back at once (a new boot on that flash)."""
        self._send({"cmd": "cut", "t": int(t_ns), "restart": bool(restart)})

    def stats(self, timeout=30):
        """The harness's counters now: emulated ns, busy cycles, I2C bytes and
        ns, flash operations and ns, USB bytes; with the heap probe (an image
        whose sidecar gives gc_heap) heapFree, heapLow (the lowest free heap
        right after a collection, -1 before one), heapCollections, heapSize."""
        self._send({"cmd": "stats"})
        try:
            return self._replies.get(timeout=timeout)
        except queue.Empty:
            raise EmulatorError("no answer to stats" + self._tail()) from None


# -- `dicetray sim --rp2040` ---------------------------------------------------


def run(args, err):
    """The command line's run on the emulated board (dicetray.sim.main
    parsed the arguments). Returns the exit status."""
    from .script import Buttons

    uf2 = args.uf2 or default_uf2()
    flash_dir = args.flash or default_flash_dir()
    events = args.events
    seed = args.seed if args.seed is not None else dice_seed(args.script)
    board = args.board or "pico"
    term = None
    if not args.headless:
        from .terminal import Terminal

        term = Terminal()
    # A person at the keys, or a host on a serial-only device, works in wall
    # time; a script runs in emulated time as fast as the emulator goes.
    flash = os.path.join(flash_dir, FLASH_FILE)
    em = None
    try:  # first: the flash's lock (another simulator on it: one line, exit 1)
        flashlock.folder(flash_dir)  # (a file named: said before the board's .id goes in it)
        em = Emulator(uf2, flash, board=board, seed=seed, paced=not (args.headless and events))
        em.hold("flash folder %s" % flash_dir)
    except flashlock.FlashError as e:
        print("dicetray sim: %s" % e, file=err)
        if em is not None:
            em.close()
        return 1
    if board == "macropad" and not os.path.exists(flash):
        # A fresh MacroPad: the image is the Pico's (the same RP2040), so
        # /config.txt names the board (docs/hardware.md), as a builder writes it.
        from . import lfsimage

        try:
            lfsimage.install(flash, {"/config.txt": b"board=macropad\n"})
        except RuntimeError as e:
            print("dicetray sim: %s" % e, file=err)
            em.close()
            return 2
    try:
        em.start()
    except EmulatorError as e:
        print("dicetray sim: %s" % e, file=err)
        em.close()
        return 2
    print("serial: %s" % em.port, flush=True)
    from ..link.ports import announced

    stop = []

    def on_signal(signum, frame):
        stop.append(signum)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    code = 0
    try:
        with announced(em.port, "board", flash_dir):  # `dicetray` finds the board by it
            if term is not None:
                with term:
                    code = _interactive(em, term, Buttons(), events, stop)
            else:
                code = _headless(em, events, stop)
        if args.screenshot and code == 0:
            from . import shoot

            code = shoot(em, args.screenshot, err)
    except EmulatorError as e:
        print("dicetray sim: %s" % e, file=err)
        code = 1
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        em.close()
    if em.errors:
        print(
            "dicetray sim: the firmware drove the parts wrongly:\n  " + "\n  ".join(em.errors[:20]),
            file=err,
        )
        code = code or 1
    return code


def _shots(em, marks):
    for _t, mid, path in marks:
        m = em.marks[mid]
        from . import png

        png.write(path, m["display"], m["leds"], 4, m["contrast"], m["power"])


def _headless(em, events, stop):
    """Scripted: wait for the app, play the script in emulated time, write
    its screenshots. Without a script: serve the port until a signal."""
    if events:
        marks = em.play(events)
        em.wait(lambda: "end" in em.marks or stop, 3600, "the script's end")
        _shots(em, [m for m in marks if m[1] in em.marks])
        return 0
    em.wait(lambda: stop or em.exit is not None, 10**9, "a signal")
    return 0


def _interactive(em, term, buttons, events, stop):
    """The screen and ring in the terminal, keys as buttons (held in wall
    time: the board is paced), until q, a signal or the script's end."""
    from .terminal import HELP, LONG_HELP

    dirty = [True]
    em.on_change = lambda: dirty.__setitem__(0, True)
    long_next = False
    t0 = time.monotonic()
    marks = []
    if events:
        marks = em.play(events)
    sent = -1
    drawn = 0.0
    while not stop and em.running:
        now = int((time.monotonic() - t0) * 1000)
        for key in term.keys(1 / 60):
            if key == "QUIT":
                stop.append("q")
            elif key == "LONG":
                long_next = True
            else:
                buttons.act(key, "long" if long_next else "tap", now)
                long_next = False
        buttons.update(now)
        if not events and buttons.mask != sent:
            em.keys(buttons.mask)
            sent = buttons.mask
        if events and "end" in em.marks:
            break
        if dirty[0] or time.monotonic() - drawn > 0.25:
            dirty[0] = False
            drawn = time.monotonic()
            held = " ".join(k for k, b in KEY_BITS.items() if buttons.mask & b) or "-"
            status = "rp2040 serial: %s  keys: %-14s" % (em.port, held)
            term.show(
                em.display, em.leds, em.contrast, em.power, status, LONG_HELP if long_next else HELP
            )
    _shots(em, [m for m in marks if m[1] in em.marks])
    return 0
