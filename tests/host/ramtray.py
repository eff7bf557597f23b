"""The real firmware in this process, for the host tests: a tray in RAM.

    tray = RamTray(system=0, cid=4242, seed=7)   # a blank flash, booted
    play(tray, 40)                               # actions at the table
    dev = tray.device()                          # the host's real Device on it
    dev.info(); dev.events(0); dev.act(...)

What runs is the firmware of firmware/, unmodified, imported the way the
board imports it (`session`, `store`, `rules`, `link`, `ui` top-level, as
tests/mpy/conftest.py does): session.Session over a RAM flash (FlashSim
of tests/mpy/flashsim.py, with text-mode files as a board's os opens
them), the real ui.app.App on a board of this module (a clock the loop
advances, a display that keeps the text rows the screens draw and gives
their pixels in MicroPython's font for SCREEN, an LED ring, no keys held)
and the real link: link.waiting.Waiting, which becomes link.server.Link on
the first byte, as at boot (main.py). The host side is the real
`dicetray.link.client.Device` on a Loopback transport: what it writes goes
into the tray's serial port, and a read runs the app's loop passes
(App.step, which polls the link) until the tray has answered what it was
sent; no threads, no timing.

One stand-in: a tray made with `keep` or `roll` swaps
store.JOURNAL_KEEP and the store's segment size (SEG_ROLL) for its own
while it runs, so that compaction shows in a few dozen events instead of
thousands (the session takes neither as an argument).

`dicetray.rules` (the host's import of firmware/rules) and the firmware's
`rules` are different module objects on CPython: compare the two sides by
their bytes (tray.state(), tray.snapshot(), the journal), not by objects.

What a test can do to it: act at the table (tray.act: Session.do and
App.applied, as the keys and the link both go; tray.press: keys), act
while the host waits (tray.idle: callables a read runs, one each, when the
tray has nothing to say: a roll at the table during `watch`, then Ctrl-C),
reboot it (tray.boot), read what the host sent (tray.requests, acts()),
and make faults on the real firmware rather than in a fake: a journal
record rewritten on its flash with valid checks (replace_event), its RAM
journal edited (tray.c.events), another firmware's schema or undo window
(monkeypatch the firmware's own rules.codec.VERSION or
rules.campaign.UNDO_DEPTH: not dicetray.rules').
"""

import contextlib
import json
import random
import time

# firmware/ and tests/mpy on the path (pytest's pythonpath; a child process
# sets PYTHONPATH): the firmware's modules top-level, as the board imports them.
import store  # (the firmware's, as the board imports it)
import session as fw_session
from fakefb import FakeFB
from flashsim import FlashSim
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL  # noqa: F401
from link.waiting import Waiting
from rules import campaign as fw_cp
from store import journal as fw_journal
from ui import app as fw_app
from ui.buttons import PRESS, LONG

from dicetray.link import frame as fr
from dicetray.link.client import Device, DeviceError

import fbtext

_BASE_STORE = store.Store
MAX_PASSES = 256   # loop passes a read runs at most before it answers b""




# --- the board ---------------------------------------------------------------

class _TextFile:
    """A text-mode file (ui.txt, the device id) as a board's os opens one."""

    def __init__(self, f):
        self.f = f

    def write(self, text):
        return self.f.write(text.encode() if isinstance(text, str) else text)

    def read(self, n=-1):
        return self.f.read(n).decode()

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()


class RamFlash(FlashSim):
    """The tray's flash: FlashSim (power cuts, wear) with text-mode files."""

    def open(self, path, mode):
        f = FlashSim.open(self, path, mode)
        return f if "b" in mode else _TextFile(f)


_GLYPH = fbtext._G   # MicroPython's 8x8 font, 8 column bytes per chr(32)..chr(127)


class Display(FakeFB):
    """The 128x64 OLED as far as the screens draw on it: the UI tests' text
    rows on the 8x8 grid (`rows`, `inv`: what a test reads) and, for
    SCREEN, `buffer`: those rows in MONO_VLSB pixels with MicroPython's
    font (tests/host/fbtext.py reads them back). Frames (rect) are not drawn."""

    width = 128
    height = 64

    def fill(self, c):
        self.rows = [""] * 8
        self.inv = [bool(c)] * 8

    def rect(self, x, y, w, h, c):
        pass

    @property
    def buffer(self):
        out = bytearray(1024)
        for r in range(8):
            flip = 0xFF if self.inv[r] else 0
            for col in range(16):
                ch = self.rows[r][col] if col < len(self.rows[r]) else " "
                k = ord(ch) - 32
                g = _GLYPH[8 * k:8 * k + 8] if 0 <= k < 96 else bytes(8)
                at = r * 128 + 8 * col
                out[at:at + 8] = bytes(b ^ flip for b in g)
        return out


class Leds:
    def __init__(self, n=12):
        self.n = n
        self.last = bytes(3 * n)

    def write(self, rgb):
        self.last = bytes(rgb)


class Port:
    """The tray's end of its serial port: what the host wrote (`rx`),
    what the tray answered (`tx`)."""

    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()

    def read_into(self, buf):
        n = min(len(buf), len(self.rx))
        if n:
            buf[:n] = self.rx[:n]
            del self.rx[:n]
        return n

    def write(self, data):
        self.tx.extend(data)
        return len(data)


class RamBoard:
    """A board profile (hw/board.py's interface) in RAM: the clock moves
    only when the loop idles; seed() seeds the dice, entropy() is the
    campaign id a new campaign gets (so a test names it), unique_id() the
    device id the link reports."""

    def __init__(self, fs, seed, cid, name):
        self.name = "ram"
        self.fs = fs
        self.display = Display()
        self.leds = Leds()
        self.serial = Port()
        self.raw = 0
        self.now = 0
        self._seed = seed
        self._cid = cid
        self._id = name

    def keys(self):
        return self.raw

    def ticks_ms(self):
        return self.now

    def idle(self, ms):
        self.now += ms

    def seed(self):
        return self._seed

    def entropy(self):
        return self._cid

    def unique_id(self):
        return self._id


# --- the tray ------------------------------------------------------------------

class RamTray:
    """A tray running the real firmware on a RAM flash (see the module doc).

    system, cid: its campaign (a blank flash boots a hunt campaign in slot
    1; another system is then started in its place, as Settings > New
    campaign does, in slot 2, and slot 1 deleted); seed: the dice; name:
    the device id;
    keep, roll: the store's JOURNAL_KEEP and segment size (None: the
    firmware's own); fs: an existing flash to boot from instead."""

    def __init__(self, system=0, cid=12345, seed=7, name="ram-1", keep=None, roll=None, fs=None):
        self.keep = keep
        self.roll = roll
        self.fs = fs if fs is not None else RamFlash()
        self.b = RamBoard(self.fs, seed, cid, name)
        self.idle = []        # callables run, one per read, when the tray has nothing to say
        self.devices = []     # the Devices opened on it (tray.device())
        self.requests = []    # (type, payload) of every whole request frame the host wrote
        if fs is None:
            # A blank flash: the first boot makes campaign 1 (hunt); the
            # tour's end saves the settings (ui/first.py), after which a
            # tray is no longer new; another system's campaign is started
            # in its place. Then the power-on the tests start from.
            with self._tuned():
                s = fw_session.Session(self.b)
                s.set_bright(3)
                if system != s.c.system:
                    s.new_campaign(system)
                    s.delete(1)
                s.st.close()
        self.boot()

    # --- the firmware ------------------------------------------------------------
    def boot(self):
        """Power on (again): a new Session and App over the same flash, the
        link waiting for the host, as main.boot() does."""
        with self._tuned():
            self.s = fw_session.Session(self.b)
            self.app = fw_app.App(self.b, self.s)
            self.app.link = Waiting(self.app, self.b.serial)
            self.app.render()
        self.b.serial.rx.clear()
        self.b.serial.tx.clear()

    @contextlib.contextmanager
    def _tuned(self):
        """The tray's keep and roll in store/ while the firmware runs."""
        if self.keep is None and self.roll is None:
            yield
            return
        saved = store.JOURNAL_KEEP, store.Store
        if self.keep is not None:
            store.JOURNAL_KEEP = self.keep
        if self.roll is not None:
            roll = self.roll

            class Store(_BASE_STORE):
                def __init__(self, fs, root, kind=None, keep=0, roll_=None, pend=False):
                    _BASE_STORE.__init__(self, fs, root, kind, keep, roll, pend)
            store.Store = Store
        try:
            yield
        finally:
            store.JOURNAL_KEEP, store.Store = saved

    @property
    def c(self):
        """The firmware's campaign (its `rules`, not dicetray.rules)."""
        return self.s.c

    @property
    def link(self):
        return self.app.link

    def step(self):
        """One pass of the app's loop, then its idle (the clock moves)."""
        with self._tuned():
            self.b.idle(self.app.step())

    def pump(self):
        """Loop passes until the tray has read everything sent to it and
        answered it (a LOG page a pass had no room for goes in the next):
        what it wrote, taken."""
        port = self.b.serial
        for _ in range(MAX_PASSES):
            self.step()
            if not port.rx and not getattr(self.link, "_later", None):
                break
        if not port.tx and self.idle:
            self.idle.pop(0)()
            self.step()
        out = bytes(port.tx)
        port.tx.clear()
        return out

    # --- the table -------------------------------------------------------------
    def act(self, kind, args=(), text="", faces=None):
        """An action at the table, the way the keys and the link both go:
        the session acts (on flash when it returns), the app shows it,
        then the idle moment that follows at a table writes what is due
        (a snapshot, a fold of the pending journal). Returns the firmware's Outcome; ValueError: refused."""
        with self._tuned():
            out = self.s.do(kind, list(args), text, None if faces is None else bytes(faces))
            self.app.applied(kind, out)
            while self.s.tidy():  # the idle moment after it (ui/app.py App.idle)
                pass
        return out

    def press(self, *keys, long=False):
        """Keys pressed on the tray (ui/buttons.py PRESS, or LONG); the
        screen's text rows after them."""
        with self._tuned():
            for k in keys:
                self.app.handle(k, LONG if long else PRESS)
            self.app.render()
        return list(self.b.display.rows)

    def tune(self, keep=None, roll=None):
        """From now on the store keeps `keep` events below its compaction
        floor and closes a segment at the first snapshot after `roll`
        bytes (None: as it is); the open store too, so the next snapshots
        compact as a tray made with them would."""
        if keep is not None:
            self.keep = self.s.st.keep = keep
        if roll is not None:
            self.roll = self.s.st.roll = roll

    # --- what it holds -------------------------------------------------------------
    def first(self):
        """The oldest event its journal still holds."""
        return self.s.st.first()

    def journal(self):
        """The events its journal holds, first() on, as bytes."""
        return [bytes(e) for e in self.s.st.read(self.first() - 1, self.s.st.seq)]

    @property
    def nevents(self):
        return self.s.st.seq

    @property
    def head(self):
        return self.s.st.head

    def state(self):
        """encode_state of its campaign (the firmware's own)."""
        return fw_cp.encode_state(self.s.c)

    def snapshot(self):
        """encode_snapshot of its campaign (undo window included)."""
        return fw_cp.encode_snapshot(self.s.c)

    def replace_event(self, seq, ev):
        """Overwrite event `seq` on the flash with `ev` (the same length),
        its record whole and valid (length, seq, CRC, check): flash that
        reads back other bytes than were written, which no check on the
        tray can see. The campaign in RAM is left as it was."""
        st = self.s.st
        bases = st.segments()
        b = max(x for x in bases if x < seq)
        path = "%s/j%08x.log" % (st.root, b)
        data = self.fs.files[path]
        i, at = 0, b
        while True:
            n = data[i] | (data[i + 1] << 8)
            at += 1
            if at == seq:
                break
            i += fw_journal.HDR + n
        if n != len(ev):
            raise ValueError("event %d is %d bytes, the replacement %d" % (seq, n, len(ev)))
        buf = bytearray(fw_journal.HDR + fw_journal.MAX_REC)
        k = fw_journal.pack(buf, seq, ev)
        data[i:i + k] = buf[:k]

    # --- the host ------------------------------------------------------------------
    def device(self, timeout=2.0, check_schema=True, **kw):
        """The host's real Device on this tray, after its handshake (as
        Device.open does on a port)."""
        dev = Device(Loopback(self), timeout)
        dev.hello()
        if check_schema:
            dev.check_versions()
        self.devices.append(dev)
        return dev


class Loopback:
    """A Transport (dicetray/link/transport.py) into a RamTray: write()
    puts bytes into the tray's serial port, read() runs its loop until it
    has answered and returns what it wrote."""

    def __init__(self, tray):
        self.tray = tray
        self.port = "ram:%s" % tray.b.unique_id()
        self.sent = 0
        self.received = 0
        self.closed = False
        self._lines = fr.FastLines(fr.MAX_REQ + 64)

    def write(self, data):
        self.tray.b.serial.rx.extend(data)
        self.sent += len(data)
        self._lines.push(data, len(data), self._log)

    def _log(self, text):
        try:
            typ, _seq, p = fr.decode(bytes(text))
        except (TypeError, ValueError):
            return
        self.tray.requests.append((typ, bytes(p)))

    def read(self, timeout):
        data = self.tray.pump()
        if not data:
            time.sleep(min(timeout, 0.005))   # silence: no spinning while the host waits
        self.received += len(data)
        return data

    def drain(self, quiet=0.05, limit=1.0):
        return self.read(0)

    def fileno(self):
        return None

    def close(self):
        self.closed = True


# --- drivers ----------------------------------------------------------------------

def play(tray, n, seed=3, via=None):
    """Drive `n` varied actions (refusals skipped) at the tray's table, or
    through the Device `via`: rolls, scenes, turns, free rolls and undos,
    on the real firmware."""
    r = random.Random(seed)
    sysno = tray.c.system
    act = tray.act if via is None else via.act
    done = 0
    if not tray.c.chars:
        for name in ("Ada", "Bo"):
            act(fw_cp.CHAR_ADD, (), name)
            done += 1
    while done < n:
        k = r.random()
        try:
            if k < 0.1 and tray.c.done:
                act(fw_cp.UNDO)
            elif k < 0.15:
                act(fw_cp.DICE, (r.choice((4, 6, 8, 20)), r.randint(1, 4)))
            elif sysno == 0:
                if k < 0.7:
                    act(32, (r.randint(-1, 1), r.randint(0, 3), r.randint(0, 3), 0, 0,
                             r.randint(0, 1), -1))
                else:
                    act(34, (0,))
            elif sysno == 1:
                act(64, (r.randint(-1, 1), r.randint(0, 4), r.randint(0, 4), 0, 0,
                         r.randint(1, 4), 0))
            else:
                if k < 0.7:
                    act(96, (r.randint(0, 4), r.randint(1, 3), 0, 0, 0, 0, 0, -1))
                else:
                    act(109, (0,))
            done += 1
        except (ValueError, DeviceError):
            pass
    return tray


def acts(tray):
    """(kind, args, text) of every ACT the host sent the tray, in order."""
    out = []
    for typ, p in tray.requests:
        if typ == fr.ACT:
            d = json.loads(p)
            out.append((d["kind"], tuple(d.get("args", ())), d.get("text", "")))
    return out


def serve(trays, default="dev"):
    """Trays(trays, default), for the test's commands to run through its
    main(): each opens a real Device on trays[--port or `default`], one
    per command as a run of the tool opens one (`trays` may grow later)."""
    return Trays(trays, default)


class Trays:
    """The trays by --port name (the dict given, not a copy), handed to
    cli.main as its `open_device`: the tool's way for a script or a test to
    give the device, with nothing monkeypatched."""

    def __init__(self, trays, default="dev"):
        self.trays = trays
        self.default = default

    def __getitem__(self, k):
        return self.trays[k]

    def __setitem__(self, k, v):
        self.trays[k] = v

    def open_device(self, port=None, timeout=2.0, tray=None, **kw):
        return self.trays[port or self.default].device(timeout, **kw)

    def main(self, argv):
        """cli.main(argv) with these trays."""
        from dicetray import cli

        return cli.main(list(argv), open_device=self.open_device)
