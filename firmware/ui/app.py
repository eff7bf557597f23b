"""The app loop: keys -> buttons -> the current screen -> redraw on change
-> LED ring -> idle.

`App(board, session)` runs the screens over a session (main.py's: the
campaign plus its store; tests use an in-RAM one) that provides `c` (the
Campaign), `do(kind, args, text, faces)` (act and make the event durable,
returning the Outcome; ValueError when the rules refuse), `recent()` (the
recent events, oldest first), `new_campaign(system)`, the
campaign slots (`campaigns()`, `switch(n)`, `delete(n)` and `n`, the
current one: Settings > Campaigns), `bright` / `set_bright(level)`
(saves the settings), `warnings` (lines to show at
boot), `scrub()` (optional: one step of the journal's background
check, a (title, text) warning when it finds damage, else None) and `new`
(a new tray, blank flash: the first run's tour, ui/first.py, shows over
home; when it ends it clears `new` and saves the settings). The ui never touches flash itself.

Global keys (a screen sees every key first and may take it):
Roll: roll the builder's pool (from any screen); long Roll: key in faces
rolled by hand; Back: back; long Back: undo; long OK: redo (on a result:
the GM view instead).

When nothing happens a loop pass is one buttons.update, a few flag tests,
a ticks_diff (is the scrub due: one journal segment checked every
SCRUB_MS without keys) and board.idle: no allocation.
"""

import gc

from hw.keys import K_OK, K_BACK, K_ROLL
from ui import ring
from ui.buttons import Buttons, PRESS, LONG, REPEAT, ticks_add, ticks_diff
from ui import screen
from ui.screen import Message, NO
from ui.home import Home, system
from rules import campaign as cp

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

IDLE_MS = 30      # poll period when idle (buttons.py sees every stable change)
_FRAME_MS = const(40)     # LED animation frame period
_ROLL_FRAMES = const(12)  # one comet turn, then the success/failure flash
LEVELS = (0, 8, 24, 48, 96)  # LED brightness caps of settings levels 0..4
# Idle: one step of the journal's scrub (session.scrub: up to store/scrub.py's
# STEP records, ~35 ms on a board) after this long without a key, then this often.
SCRUB_MS = 5000
# Idle: the flash work actions leave (session.tidy: a snapshot, the pending
# journal folded, each up to ~60 ms of erase on a board) after this long
# without a key, once the ring's animation is over and while no host is
# talking (the link's quiet time), so that it never delays a key's frame,
# the ring or a host's answer.
TIDY_MS = 200
# ...and what the first roll would wait for (idle(): up to ~100 ms of the
# journal read after a boot, which a key's tap could fall inside), this
# much later again: a second after the boot or the last key.
WARM_MS = 800


class App:
    def __init__(self, board, session):
        self.b = board
        self.s = session
        self.fb = board.display
        self.buttons = Buttons()
        # A board whose keys are clean events (the web page's) says so with
        # `debounce` (ms); a board's switches keep the buttons' 20 ms.
        self.buttons.debounce = getattr(board, "debounce", self.buttons.debounce)
        self.rgb = ring.new(board.leds.n)
        self.toast = ""
        self.fresh = False   # the toast came after the last key (the builder shows it then)
        self.owed = None     # a roll's Outcome whose notes are made into the toast after its frame
        self.low = None      # main.py's free run at the heap's bottom, until the first idle work
        self.sel_tal = -1
        self.anim = -1       # roll animation frame, -1: none
        self.flash_ok = -1   # 1 success, 0 failure, -1 no flash (hidden verdict)
        self.dirty = True
        self.ring_dirty = True
        self.link = None     # link.server.Link when a host can talk to us (main.boot)
        self.live = True     # False: run() returns (the host ended the session)
        self.bright = session.bright
        ring.set_max(LEVELS[self.bright])
        # The background scrub of the journal (a session without flash has none).
        self.scrub = getattr(session, "scrub", None)
        self.scrub_at = ticks_add(board.ticks_ms(), SCRUB_MS)
        self.tidy = getattr(session, "tidy", None)
        self.fell = getattr(board, "fell", None)  # presses noted as they happen (hw/pico.py)
        self.quiet_at = board.ticks_ms()   # idle work waits for this
        self.reset()
        if getattr(session, "new", False):
            self.start()
        for title, text in session.warnings:
            self.push(Message(self, title, text))

    # --- screens ------------------------------------------------------------
    def reset(self):
        """Start over on the home screen of the session's campaign."""
        self.c = self.s.c
        self.pool = None  # made on first use (need_pool): not part of boot
        self.warm = False   # ...but at the first idle moment (idle())
        self.stack = []
        self.sel_tal = -1
        self.push(Home(self))

    def start(self):
        """A new tray: the first run's tour over home (ui/first.py), imported
        only now. Apart from __init__, whose frame one more local would
        put on the heap; and only names the boot interns anyway: each new
        one costs every boot (docs/architecture.md)."""
        from ui import first
        first.start(self)

    def need_pool(self):
        """The roll builder's pool (the system's Pool: ui/systems.py `get`,
        on ui/pools.py's), set from the newest roll when first needed."""
        if self.pool is None:
            from ui import systems
            p = systems.get(self.c.system).Pool()
            # The events in RAM first; the journal (Session.recent reads
            # it once, ~8 M fuel after a boot) only if they hold no roll.
            if not p.restore(self.c, self.c.events):
                p.restore(self.c, self.s.recent())
            self.pool = p
        return self.pool

    def top(self):
        return self.stack[-1]

    def push(self, scr):
        scr.refresh()
        self.stack.append(scr)
        self.dirty = self.ring_dirty = True

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop()
            if len(self.stack) == 1:
                # Home always comes back on Roll: press counts stay fixed and
                # a reboot (which starts there) shows exactly the same screen.
                self.stack[0].menu.go(0)
            self.stack[-1].refresh()
        self.dirty = self.ring_dirty = True

    def open(self, name):
        """Open the screen `name`, b"module Class" (a row of home's menu:
        the system's SCREENS, ui/hunt.py...), imported when first opened.
        Not import statements: a module's names are interned when it
        loads, ~35,000 fuel each in an .mpy boot (docs/performance.md)."""
        mod, cls = name.decode().split()
        S = getattr(__import__("ui." + mod, None, None, (cls,)), cls)
        self.toast = ""
        self.push(S(self))

    # --- actions --------------------------------------------------------------
    def act(self, kind, args=(), text="", faces=None, refresh=True):
        """Apply an action through the session (durable when it returns);
        a refusal is shown on screen. Returns the Outcome or None.
        refresh=False: the screen on top is not refreshed (a form pushes
        a result over it; pop() refreshes it when it shows again); None:
        neither, and the notes become the toast after the next frame (a
        roll: its result shows them, and is drawn first)."""
        try:
            out = self.s.do(kind, args, text, faces)
        except ValueError as e:
            self.push(Message(self, "REFUSED", str(e)))
            return None
        except OSError as e:
            self.c = self.s.c
            self.push(Message(self, "FLASH ERROR", "not saved: %s" % e))
            return None
        self.applied(kind, out, refresh)
        return out

    def roll(self, faces=None):
        """Roll the builder's pool (live dice, or faces keyed in by hand)."""
        from ui.result import Result, heading
        from ui.keyin import KeyIn
        while isinstance(self.top(), (Result, KeyIn)):
            self.stack.pop()
        try:
            pool = self.need_pool()
            kind, args, text = pool.action(self.c)
            what = pool.desc(self.c)
        except ValueError as e:
            self.push(Message(self, "REFUSED", str(e)))
            return None
        # The result's head (what is rolled, no die of it) goes on the bus
        # while the roll is made durable; the dice go out after that only.
        head = heading(what)
        screen.early(self.fb, 0, head, True)
        out = self.act(kind, args, text, faces, None)
        if out is None:
            return None
        self.push(Result(self, out, what, head))
        self.anim = 0
        self.flash_ok = -1 if getattr(out, "hidden", 0) else (1 if out.verdict == 1 else 0)
        return out

    def undo(self):
        return self._undo(cp.UNDO, "Undone")

    def redo(self):
        return self._undo(cp.REDO, "Redone")

    def _undo(self, kind, word):
        from ui.result import Result
        if isinstance(self.top(), Result):
            self.stack.pop()
        out = self.act(kind)
        if out is not None:
            self.toast = word
            self.fresh = True
        return out

    def applied(self, kind, out, refresh=True):
        """An action applied through the session (here, or by the host over
        the link): show it (refresh False or None: see act()), every note, what
        matters first (ui/notes.py: on a page when they overflow the
        screen's toast rows; a roll's are on its result)."""
        self.c = self.s.c
        self.fresh = True
        if (kind == cp.UNDO or kind == cp.REDO) and self.pool is not None:
            self.pool.fix(self.c)
        if refresh:
            self.top().refresh()
        if refresh is None:
            self.owed = out
        else:
            from ui import notes
            notes.show(self, out, refresh)
        self.dirty = self.ring_dirty = True

    def restored(self, word="Restored"):
        """Another campaign is current (a host's restore or switch, or
        Settings > Campaigns): home, with `word` as the toast."""
        self.reset()
        self.toast = word
        self.fresh = True

    def new_campaign(self, system):
        try:
            self.s.new_campaign(system)
        except OSError as e:
            self.push(Message(self, "FLASH ERROR", str(e)))
            return
        self.reset()
        self.toast = "New campaign"
        self.fresh = True

    def set_bright(self, level):
        level = 0 if level < 0 else (4 if level > 4 else level)
        self.bright = level
        ring.set_max(LEVELS[level])
        self.s.set_bright(level)
        self.ring_dirty = True

    # --- keys, drawing, LEDs ------------------------------------------------------
    def handle(self, k, kind):
        """One button event (buttons.PRESS/LONG/REPEAT/RELEASE)."""
        if kind == REPEAT:
            kind = PRESS
        elif kind != PRESS and kind != LONG:
            return
        self.fresh = False  # a toast lasts until the next key on the builder
        top = self.top()
        r = top.press(k) if kind == PRESS else top.long(k)
        if r == NO:
            if k == K_ROLL:
                if kind == PRESS:
                    self.roll()
                else:
                    from ui.keyin import KeyIn
                    self.push(KeyIn(self))
            elif k == K_BACK:
                if kind == PRESS:
                    self.pop()
                else:
                    self.undo()
            elif k == K_OK and kind == LONG:
                self.redo()
            else:
                return
        self.dirty = True

    def render(self):
        """Draw the top screen; only the rows that changed reach the pixels,
        and only the pages that changed reach the panel (display.show)."""
        fb = self.fb
        screen.begin(fb)
        self.top().draw(fb)
        painted = screen.end(fb)
        if painted:
            fb.show(painted)  # screens draw only through screen.row
        self.dirty = False
        if self.owed is not None:  # a roll's notes: the toast its builder shows after it
            from ui import notes
            notes.show(self, self.owed, False)
            self.owed = None

    def dial_tal(self, rgb, t):
        """The ring as talisman t's dial (off if there is none)."""
        c = self.c
        if 0 <= t < len(c.tals) and c.tals[t] is not None:
            tal = c.tals[t]
            ring.dial(rgb, tal.n, tal.cap)
        else:
            ring.clear(rgb)
        return True

    def paint(self):
        """One LED frame: roll animation, else the screen's or the default dial."""
        rgb = self.rgb
        if self.anim >= 0:
            f = self.anim
            self.anim += 1
            if f < _ROLL_FRAMES:
                ring.roll(rgb, f)
            elif self.flash_ok < 0 or not ring.flash(rgb, self.flash_ok, f - _ROLL_FRAMES):
                self.anim = -1
                self.ring_dirty = True
                return
        else:
            self.ring_dirty = False
            if not self.top().ring(rgb):
                self.default_ring(rgb)
        self.b.leds.write(rgb)

    def default_ring(self, rgb):
        """The system's dial (ui/hunt.py...): hunt the pressure
        talisman, the others the one selected."""
        return self.dial_tal(rgb, system(self.c.system).dial(self))

    def step(self):
        """One loop pass; returns the ms to idle.

        Kept to a few locals: a frame bigger than about ten slots is
        allocated on the heap at every call, and the allocator's search for
        a free run grows with the heap (MicroPython's gc_alloc): this runs
        every poll, idle or not.
        """
        now = self.b.ticks_ms()
        if self.fell is not None:
            # The presses noted since the last poll, read before the keys (a
            # press after this read is down at it, or noted for the next);
            # the buttons count them only after busy work.
            self.buttons.fell = self.fell()
        n = self.buttons.update(self.b.keys(), now)
        if n:
            self.dispatch(n)
            self.scrub_at = ticks_add(now, SCRUB_MS)  # the scrub waits for SCRUB_MS without keys
            self.quiet_at = ticks_add(now, TIDY_MS)
        drew = self.dirty
        if drew:
            self.render()
        # The host after the frame: a key's frame waits for no USB poll; a
        # host's action is drawn at the next pass, at once (busy).
        busy = self.link is not None and self.link.poll()
        if busy and self.low is not None:
            self.low = None  # a host talking holds the idle work off: the heap's free run back now
        if not drew and not n and not busy and self.anim < 0 and ticks_diff(now, self.quiet_at) >= 0:
            if self.idle(now):
                self.buttons.busy = True  # a tap meanwhile is still one (ui/buttons.py)
                return 1  # work done (up to ~50 ms on a board): the keys polled again at once
        if n and ticks_diff(self.b.ticks_ms(), now) >= self.buttons.debounce:
            # A key's work as long as the debounce (a snapshot that could not
            # wait for an idle moment: session.py do(); a screen's first
            # import): a tap that began and ended meanwhile is still one.
            self.buttons.busy = True
        if self.anim >= 0 or self.ring_dirty:
            self.paint()
            return 1 if busy else _FRAME_MS
        return 1 if busy else IDLE_MS  # 1: answer the host's next request soon

    def idle(self, now):
        """Idle, no animation, no key for TIDY_MS: one piece of background
        work per pass. The flash work the session keeps for idle moments
        first (each step at most about one erase), then, once a campaign,
        what the first roll would wait for (a boot does not do it: it would
        cost the boot time): the result screens imported and the builder's
        pool made (from the newest roll: after a boot, read from the
        journal); then, every SCRUB_MS, a step of the scrub. True when it
        did any (the keys' next poll knows it was busy, ui/buttons.py; the
        next pass comes at once: there may be more)."""
        warm = not self.warm and ticks_diff(now, self.quiet_at) >= WARM_MS
        scrub = self.scrub is not None and ticks_diff(now, self.scrub_at) >= 0
        # Before a step that reads the journal, its pending records are
        # folded a step a pass (the read's own fold would be all of it).
        if self.tidy is not None and self.tidy(warm or scrub):
            return True
        if warm:
            self.warm = True
            from ui import result, keyin  # noqa: F401
            try:
                self.need_pool()   # its first making reads the journal after a boot
            except ValueError:
                pass               # the roll will say why
            if self.low is not None:
                # What stays (the modules, the pool) is made: the free run
                # at the heap's bottom is the next key's, and the garbage
                # goes. Freed at boot, the run was gone by the first roll,
                # whose allocations then searched for free blocks (2.6 ms
                # of an expedition roll on the board, docs/performance.md).
                self.low = None
                gc.collect()
            return True
        if scrub:
            self.scrubbed(now)
            return True
        return False

    def scrubbed(self, now):
        """Idle, and time for the next step of the journal's scrub: one
        segment checked (through the session; the ui knows no flash), and
        damage found the first time is shown as the boot's is."""
        self.scrub_at = ticks_add(now, SCRUB_MS)
        w = self.scrub()
        if w is not None:
            self.push(Message(self, w[0], w[1]))

    def dispatch(self, n):
        """Handle the n key events the buttons queued this poll."""
        q = self.buttons.q
        for i in range(n):
            self.handle(q[i] & 0xFF, q[i] >> 8)

    def run(self):
        """The loop, until the host ends the link session (the simulator
        ends it with SystemExit)."""
        b = self.b
        # Boot's garbage (the store read, the replay) goes now, at a point
        # with no big frame active: the loop's first pass may import a
        # module (link/waiting.py), and the simulator's collector must not
        # run inside that (simboard/desktop.py).
        gc.collect()
        while self.live:
            b.idle(self.step())
