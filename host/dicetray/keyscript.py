"""The key script: every event kind of a rule system made with the device's
keys only, from a fresh flash (`dicetray rules SYSTEM --keys`).

The procedures are catalog/keypaths.py's (each event's
path of rows and keys, in the screens' words). `walk` plays them on the
firmware itself, run here on CPython as the simulator runs it on
MicroPython: main.py's boot (session.Session on a blank flash, here in
memory, and ui.app.App), then App.step under a virtual clock, the keys
pressed and lifted at the times the script gives them. Before each key the walk reads the screen on
top (its menu's rows, else the rows it drew) to choose the key: the row a
step names is found where it is now, a value is reached by pressing until
the row shows it, and a step that finds no such row, or an action the
rules refuse, stops the walk with the screen's words. So the script cannot
drift from the screens: a screen changed changes the presses, or fails.

The walk and `dicetray sim --headless --script` replay the same presses at
the same virtual times on the same firmware with the same dice (the
simulator's seed 1 under --script: board.seed()'s sequence), so the run
the script makes on MicroPython journals the walk's events byte for byte
(tests/host/test_keyscript.py checks it).

`reach` is the check that the host-only kinds are not on the keys: from
the campaign the walk ends with, it presses every key on every row of
every screen reachable from home and returns the events they make.

The firmware is imported as the board imports it (top-level `session`,
`ui`, `rules`, from the repository's firmware/, as tests/mpy and bench/
do), so the walk needs a checkout, as `dicetray sim` does.
"""

import errno
import os
import sys

from .catalog import events
from .rules.systems import NAMES

SLOT = 300  # ms per tap: held 100 ms, then the debounce and a frame (tests/host/test_journeys.py)
LONG_SLOT = 1400  # a long press: held 1000 ms
TAP_MS = 100
LONG_MS = 1000
FIRST = 500  # the first press, after the boot's first frames
END = 1000  # after the last press: the idle work (a snapshot) before the script's quit
KEYS = {"UP": 1, "DOWN": 2, "LEFT": 4, "RIGHT": 8, "OK": 16, "BACK": 32, "ROLL": 64}
MOVES = 100  # presses a step may take to reach its row or value


class KeyPathError(Exception):
    """A procedure cannot be walked on the screens (the words say where)."""


def firmware_dir():
    """The repository's firmware/ (beside host/), whose screens are walked."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "firmware"))


def table():
    """The key paths (catalog/keypaths.py)."""
    from .catalog import keypaths

    return keypaths


def entries(system):
    """The key paths' entries of system 0..2, the core's first: (name,
    steps) for a procedure, (name, why) for an event the keys cannot make."""
    kp = table()
    return kp.CORE + kp.PROCEDURES[system]


def host_only(system):
    """{event name: why the keys cannot make it} of system 0..2."""
    return {name: why for name, why in entries(system) if isinstance(why, str)}


def kinds(system):
    """Every event name system 0..2 accepts, the core's first, one per op
    of a kind with ops (catalog/events.py): what the key script makes."""
    return [e["name"] for e in events.listing(system)]


def _firmware():
    """The firmware's modules as a board imports them (top-level `session`,
    `ui`, `rules`...; tests/mpy and bench/ do the same)."""
    fw = firmware_dir()
    if not os.path.isfile(os.path.join(fw, "main.py")):
        raise KeyPathError(
            "the key script walks the firmware's screens, from %s, which has no main.py: "
            "run it from a checkout of the repository" % fw
        )
    if fw not in sys.path:
        sys.path.insert(0, fw)
    import session
    from rules import codec
    from ui import app, buttons

    return session, app, buttons, codec


class _Display:
    """The screen as text rows (what screen.row draws: 16 columns, 8 rows)."""

    def __init__(self):
        self.rows = [""] * 8

    def fill_rect(self, x, y, w, h, c):
        if x == 0 and w == 128 and h == 8:
            self.rows[y // 8] = ""

    def text(self, s, x, y, c=1):
        self.rows[y // 8] = s

    def fill(self, c):
        self.rows = [""] * 8

    def show(self, pages=-1):
        pass


class _Leds:
    n = 12

    def write(self, rgb):
        pass


class _File:
    """An open file of RamFs: its bytes (shared with the fs) and a position."""

    def __init__(self, data, pos, text):
        self.data = data
        self.pos = pos
        self.text = text

    def read(self, n=-1):
        end = len(self.data) if n < 0 else min(len(self.data), self.pos + n)
        b = bytes(self.data[self.pos : end])
        self.pos = end
        return b.decode() if self.text else b

    def readinto(self, buf):
        b = self.read(len(buf))
        buf[: len(b)] = b
        return len(b)

    def write(self, b):
        if self.text:
            b = b.encode()
        self.data[self.pos : self.pos + len(b)] = b
        self.pos += len(b)
        return len(b)

    def seek(self, off, whence=0):
        self.pos = off + (len(self.data) if whence == 2 else self.pos if whence == 1 else 0)
        return self.pos

    def flush(self):
        pass

    close = flush


class RamFs:
    """The store's fs interface (firmware/store/fs.py) in memory: the
    flash of a walk, copied whole for each of reach's probes."""

    kind = "host"  # renames are atomic, as on the simulator's flash folder

    def __init__(self, files=None, dirs=None):
        self.files = files if files is not None else {}  # path -> bytearray
        self.dirs = dirs if dirs is not None else {"/"}

    def copy(self):
        return RamFs({p: bytearray(b) for p, b in self.files.items()}, set(self.dirs))

    @staticmethod
    def _n(p):
        return "/" + p.strip("/")

    def _missing(self, p):
        return OSError(errno.ENOENT, "no such file", p)

    def open(self, p, mode="r"):
        p = self._n(p)
        if "w" in mode:
            self.files[p] = bytearray()
        elif p not in self.files:
            if "a" not in mode:
                raise self._missing(p)
            self.files[p] = bytearray()
        data = self.files[p]
        return _File(data, len(data) if "a" in mode else 0, "b" not in mode)

    def sync(self, f):
        pass

    def rename(self, a, b):
        a, b = self._n(a), self._n(b)
        if a in self.dirs:  # a folder (a campaign slot): everything under it
            self.dirs = {
                b + d[len(a) :] if d == a or d.startswith(a + "/") else d for d in self.dirs
            }
            for p in [p for p in self.files if p.startswith(a + "/")]:
                self.files[b + p[len(a) :]] = self.files.pop(p)
        elif a in self.files:
            self.files[b] = self.files.pop(a)
        else:
            raise self._missing(a)

    def remove(self, p):
        if self.files.pop(self._n(p), None) is None:
            raise self._missing(p)

    def listdir(self, d):
        d = self._n(d).rstrip("/") + "/"
        names = set()
        for p in list(self.files) + list(self.dirs):
            if p.startswith(d) and len(p) > len(d):
                names.add(p[len(d) :].split("/")[0])
        return sorted(names)

    def size(self, p):
        b = self.files.get(self._n(p))
        return -1 if b is None else len(b)

    def mkdir(self, p):
        self.dirs.add(self._n(p))

    def rmdir(self, p):
        p = self._n(p)
        if self.listdir(p):
            raise OSError(errno.ENOTEMPTY, "not empty", p)
        self.dirs.discard(p)


class _Board:
    """The simulator's board in virtual time, as `dicetray sim --script`
    gives it to the firmware (host/dicetray/sim/vm.py): the clock moves
    only in idle(ms); a key goes down at its time and up after its hold,
    both at the first keys() or idle() that reaches them; seed() is the
    simulator's sequence from 1 (the dice). entropy() gives other ids
    than the simulator's (a campaign's id, which no screen the walk reads
    shows)."""

    def __init__(self, fs):
        self.display = _Display()
        self.leds = _Leds()
        self.fs = fs
        self.now = 0
        self.mask = 0
        self.due = []  # (ms, bit, down), in time order
        self._seed = 1
        self._ids = 1

    def press(self, key, at, hold):
        bit = KEYS[key]
        self.due.append((at, bit, True))
        self.due.append((at + hold, bit, False))

    def _pump(self):
        while self.due and self.due[0][0] <= self.now:
            _t, bit, down = self.due.pop(0)
            self.mask = (self.mask | bit) if down else (self.mask & ~bit)

    def keys(self):
        self._pump()
        return self.mask

    def ticks_ms(self):
        return self.now & 0x3FFFFFFF

    def idle(self, ms):
        self.now += max(0, int(ms))
        self._pump()

    def seed(self):
        s = self._seed
        self._seed = (s * 1103515245 + 12345) & ((1 << 30) - 1)
        return s

    def entropy(self):
        v = self._ids
        self._ids = (v * 1103515245 + 12345) & ((1 << 30) - 1)
        return v


class Walk:
    """The firmware booted on a fresh flash (in memory: `fs`), and the
    presses made so far (`lines`: the script's)."""

    def __init__(self, system):
        session_m, app_m, _buttons, self.codec = _firmware()
        self.system = system
        self.fs = RamFs()
        self.b = _Board(self.fs)
        self.b.keys()  # main.boot's look for OK held at power-on
        self.s = session_m.Session(self.b)
        self.app = app_m.App(self.b, self.s)
        self.t = FIRST
        self.lines = []
        self.what = "the boot"
        self._run(self.t)

    # --- keys -------------------------------------------------------------
    def _run(self, until):
        """The app's loop (App.run) until the clock reaches `until`."""
        app, b = self.app, self.b
        while b.now < until:
            b.idle(app.step())

    def key(self, key, long=False):
        """Press `key` (held LONG_MS if long) and run the app until the
        next key is due; a refusal or a flash error shown stops the walk."""
        self.b.press(key, self.t, LONG_MS if long else TAP_MS)
        self.lines.append("%d %s%s" % (self.t, key, " long" if long else ""))
        self.t += LONG_SLOT if long else SLOT
        self._run(self.t)
        top = self.app.top()
        if top.__class__.__name__ == "Message" and top.title in ("REFUSED", "FLASH ERROR"):
            raise KeyPathError(
                "%s: %s %s on the device: %s" % (self.what, key, top.title, " ".join(top.lines))
            )

    def home(self):
        """Back until home is the only screen (the cursor is then on Roll)."""
        for _ in range(MOVES):
            if len(self.app.stack) == 1:
                return
            self.key("BACK")
        raise KeyPathError("%s: Back never reaches home (%s)" % (self.what, self._where()))

    # --- the screen ---------------------------------------------------------
    def rows(self):
        """The rows of the screen on top: its menu's, else those drawn."""
        top = self.app.top()
        m = getattr(top, "menu", None)
        if m is not None:
            return list(m.items)
        self.app.render()
        return list(self.b.display.rows)

    def _where(self):
        top = self.app.top()
        return "on %s, rows %s" % (top.__class__.__name__, " | ".join(r for r in self.rows() if r))

    def find(self, label):
        """The index of the row that reads `label` (alone or before a space)."""
        rows = self.rows()
        hits = [i for i, r in enumerate(rows) if r == label or r.startswith(label + " ")]
        if len(hits) != 1:
            raise KeyPathError(
                "%s: %s row %r %s"
                % (self.what, "no" if not hits else "more than one", label, self._where())
            )
        return hits[0]

    def go(self, label):
        """The cursor onto the row `label` (Up or Down, the shorter way
        round a menu that wraps, straight to it in one that stops); its
        index."""
        i = self.find(label)
        m = getattr(self.app.top(), "menu", None)
        if m is None:
            return i
        n = len(m.items)
        if type(m).__name__ == "Stop":  # ui/form.py's menu that stops at its ends
            d = "DOWN" if i >= m.sel else "UP"
        else:
            d = "DOWN" if (i - m.sel) % n <= (m.sel - i) % n else "UP"
        for _ in range(MOVES):
            if m.sel == i:
                return i
            was = m.sel
            self.key(d)
            m = self.app.top().menu
            if m.sel == was:  # an end that does not wrap: the other way
                d = "UP" if d == "DOWN" else "DOWN"
        raise KeyPathError("%s: the cursor never reaches %r %s" % (self.what, label, self._where()))

    def until(self, label, key, value):
        """Press `key` until the row `label` shows `value`. The row is found
        again after each press where its label still reads (a value may
        move its row: paths' Mode), else kept (a value may shorten its
        label: Settings' `Sys <expedition>`). A page of an action's notes
        that comes on the way (the Sin retreats, the Sin is full) is read
        and closed with OK, as the game master does, and the presses go on."""
        seen = set()
        i = self.go(label)
        for _ in range(MOVES):
            if getattr(self.app.top(), "title", "") == "OUTCOME":
                self.key("OK")
                continue
            rows = self.rows()
            hits = [j for j, r in enumerate(rows) if r == label or r.startswith(label + " ")]
            if len(hits) == 1 and hits[0] != i:
                i = self.go(label)
            r = self.rows()[i]
            if shows(r, value):
                return
            if r in seen:
                break
            seen.add(r)
            self.key(key)
        raise KeyPathError("%s: %s never shows %r %s" % (self.what, key, value, self._where()))

    # --- procedures ---------------------------------------------------------------
    def step(self, st):
        """One step of a procedure (catalog/keypaths.py says them)."""
        if st.startswith("long "):
            self.key(st[5:], True)
            return
        if st in KEYS:
            self.key(st)
            return
        for arrow, key in ((" > ", "RIGHT"), (" < ", "LEFT")):
            if arrow in st:
                label, value = st.rsplit(arrow, 1)
                self.until(label, key, value)
                return
        for arrow, key in ((" >", "RIGHT"), (" <", "LEFT")):
            if st.endswith(arrow):
                self.go(st[: -len(arrow)])
                self.key(key)
                return
        self.go(st)
        self.key("OK")

    def procedure(self, name, steps):
        """Walk `steps` from home and back home; the names of the events
        they journaled. KeyPathError when `name`, an event, is not one."""
        self.what = name
        t0 = len(self.lines)
        self.home()  # the first: the tour, skipped
        c0 = self.app.c
        n0 = c0.nevents
        for st in steps:
            self.step(st)
        self.home()
        return _since(self.codec, self.system, self.app.c, c0, n0), len(self.lines) - t0

    def end(self):
        """The idle work after the last key, then the script's quit."""
        self.t += END - SLOT
        self._run(self.t)
        self.lines.append("%d quit" % self.t)


def _since(codec, system, c, c0, n0):
    """The names of the events campaign c journaled after campaign c0 held
    n0 (none when c is another campaign: a new one, a switch)."""
    if c is not c0 or c.nevents == n0:
        return []
    out = []
    for ev in c.events[n0 - c.nevents :]:
        kind, args, _faces, _text = codec.decode_event(ev)
        out.append(events.name(system, kind, args))
    return out


def shows(row, value):
    """Whether a row's value (right of its label, in `< >` or not) is `value`."""
    r = row.rstrip(" >")
    return r.endswith(value) and (len(r) == len(value) or r[-len(value) - 1] in " <")


def walk(system):
    """The key script of system 0..2 walked on the firmware: (walk, rows)
    where rows are (procedure name, presses, events made), the new
    campaign's first. KeyPathError when a procedure cannot be walked or
    does not make its event."""
    kp = table()
    w = Walk(system)
    start = [st % NAMES[system] if "%s" in st else st for st in kp.START]
    made, presses = w.procedure("new campaign", start)
    c = w.app.c
    if c.system != system or c.nevents:
        raise KeyPathError(
            "new campaign: the campaign after it is not a new %s one" % NAMES[system]
        )
    rows = [("new campaign", presses, made)]
    for name, steps in entries(system):
        if isinstance(steps, str):
            continue  # host only
        made, presses = w.procedure(name, steps)
        if name not in made:
            raise KeyPathError(
                "%s: its key path made %s, not %s"
                % (name, ", ".join(made) if made else "no event", name)
            )
        rows.append((name, presses, made))
    w.end()
    return w, rows


def script(system):
    """The text of the key script of system 0..2 (what `--keys` prints)."""
    w, rows = walk(system)
    name = NAMES[system]
    made = set()
    for _n, _p, m in rows:
        made.update(m)
    out = [
        "# dicetray rules %s --keys: every event kind of %s made on the device's keys,"
        % (name, name),
        "# from a fresh flash (the tour, then a new campaign on Settings). Run it on a new",
        "# flash folder, with the simulator's seed 1 (its default under --script):",
        "#   dicetray sim --headless --flash NEW_FOLDER --script FILE",
        "# %d procedures, %d presses; %d of %d kinds made, host only: %s"
        % (
            len(rows),
            sum(p for _n, p, _m in rows),
            len([k for k in kinds(system) if k in made]),
            len(kinds(system)),
            ", ".join(sorted(host_only(system))) or "none",
        ),
    ]
    k = 0
    for n, p, m in rows:
        out.append("# %s: %d presses" % (n, p))
        out.extend(w.lines[k : k + p])
        k += p
    out.extend(w.lines[k:])
    return "\n".join(out) + "\n"


# --- reach: what the screens make -----------------------------------------
# A probe, on a row: one key, or a value changed (one or two Left or
# Right) and then the screen's action (OK or Roll); and on each screen
# the long presses.
_ROW_PROBES = (("OK",), ("LEFT",), ("RIGHT",), ("ROLL",))
_VALUE_PROBES = tuple(
    (d,) * n + (act,) for d in ("LEFT", "RIGHT") for n in (1, 2) for act in ("OK", "ROLL")
)
_LONG_PROBES = (("long OK",), ("long BACK",), ("long ROLL",))
DEPTH = 6  # screens deep from home


class _Probe:
    """The firmware booted on a copy of the flash in `src`, its keys
    handed straight to the app (App.handle: no clock; nothing here
    depends on one); the events each key makes."""

    def __init__(self, src, system):
        session_m, app_m, buttons, self.codec = _firmware()
        self.kinds = buttons.PRESS, buttons.LONG
        self.system = system
        self.b = _Board(src.copy())
        self.s = session_m.Session(self.b)
        self.app = app_m.App(self.b, self.s)
        self.c0 = self.app.c
        self.n0 = self.c0.nevents

    def close(self):
        self.s.st.close()

    def key(self, k):
        long = k.startswith("long ")
        self.app.handle(KEYS[k[5:] if long else k], self.kinds[long])

    def made(self):
        """The names of the events made since the boot."""
        return _since(self.codec, self.system, self.app.c, self.c0, self.n0)

    def where(self):
        """The screen on top, as reach tells screens apart: its class, its
        rows and its title without numbers (each character's sheet, a
        monster's and a Follower's, each town form)."""
        self.app.render()
        m = getattr(self.app.top(), "menu", None)
        title = "".join(ch for ch in self.b.display.rows[0] if not ch.isdigit())
        return self.app.top().__class__.__name__, len(m.items) if m is not None else 1, title

    def to_row(self, i):
        """The keys that move the cursor from where it is to row i."""
        m = getattr(self.app.top(), "menu", None)
        if m is None or m.sel == i:
            return ()
        return ("DOWN",) * (i - m.sel) if i > m.sel else ("UP",) * (m.sel - i)


def reach(system, src):
    """What the screens make from the campaign on the flash `src` (a
    walk's fs: where it ended): every probe on every row of every screen
    reachable from home, DEPTH screens deep, each from a fresh boot of
    that flash; a screen is explored once (where() tells them apart).
    {event name: the keys from home that made it}."""
    found = {}
    seen = set()
    queue = [((), 0)]
    while queue:
        prefix, depth = queue.pop(0)
        p = _Probe(src, system)
        try:
            for k in prefix:
                p.key(k)
            where = p.where()
            moves = [p.to_row(i) for i in range(where[1])]
        finally:
            p.close()
        if where in seen:
            continue
        seen.add(where)
        probes = [(m, keys) for m in moves for keys in _ROW_PROBES + _VALUE_PROBES]
        probes += [((), keys) for keys in _LONG_PROBES]
        for move, keys in probes:
            p = _Probe(src, system)
            try:
                for k in prefix + move:
                    p.key(k)
                top = p.app.top()
                for k in keys:
                    p.key(k)
                    if p.made():
                        break
                made = p.made()
                for name in made:
                    found.setdefault(name, prefix + move + keys)
                if not made and p.app.top() is not top and depth < DEPTH:
                    queue.append((prefix + move + keys, depth + 1))
            finally:
                p.close()
    return found
