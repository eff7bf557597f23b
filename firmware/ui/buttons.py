"""Buttons: debounce, short/long press, auto-repeat, from raw key masks.

`Buttons.update(raw, now_ms)` is called every poll with the raw bitmask from
`Board.keys()` and the time from `Board.ticks_ms()`. It writes the events of
this poll into the preallocated `q` and returns how many there are:

    n = b.update(board.keys(), board.ticks_ms())
    for i in range(n):
        ev = b.q[i]; key = ev & 0xFF; kind = ev >> 8

Events are small ints `key | kind << 8`. Two kinds of key:
- repeat keys (default the arrows): PRESS as soon as the key is down
  (debounced), REPEAT after `repeat_delay` ms then every `repeat_every` ms
  while held, RELEASE when let go. Holding an arrow is for scrolling, so
  it never gives LONG.
- the others (OK, BACK, ROLL): LONG once when held `long_ms`; on release,
  PRESS (a short press) only if LONG did not fire, then RELEASE. A short
  press therefore arrives on release: the only way to tell it from a long
  one. With long_ms=0 they behave like repeat keys without the repeat.

Debounce: a key's debounced state changes only after its raw bit has been
stable for `debounce` ms (contact bounce of tact switches is 1-10 ms). A
poll slower than that still sees every stable change. One exception:
when the app says it was busy since the last poll (`busy = True`: an idle
moment's flash work, ui/app.py), a key seen down at that poll and up at
this one is a tap (PRESS, RELEASE), which would be lost otherwise; and so
is a key in `fell` (set by the app at every poll from a board that notes
its keys' presses as they happen: hw/pico.py `fell()`; counted only after
busy work) that is up now and was up at
the last poll: a tap that began and ended while the app was busy. A key
in `fell` that is down now is pressed at once, without the debounce's
wait: its press began during the work, so it has lasted through it, and
the next poll, an idle poll later, may come after the release (a tap
that began inside an erase and ended 27 ms after it was lost so); so is
a key seen let go after busy work (its release has lasted through it).
The keys up at a poll go before the keys down at it: what they did began
first (a tap during busy work, then the next key going down).

Time is compared with ticks_diff only, so the 2**30 ms wrap of
time.ticks_ms() (12.4 days) is harmless. update() allocates nothing.
"""

from array import array

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

PRESS = const(1)
LONG = const(2)
REPEAT = const(3)
RELEASE = const(4)
KIND_NAMES = ("", "PRESS", "LONG", "REPEAT", "RELEASE")

_NKEYS = const(7)
_MASK = const(0x3FFFFFFF)  # TICKS_PERIOD - 1 (period 2**30, as MicroPython)
_HALF = const(0x20000000)  # TICKS_PERIOD // 2


def ticks_diff_py(a, b):
    """a - b for tick values that wrap at 2**30, in [-2**29, 2**29).

    A stand-in for MicroPython's time.ticks_diff on CPython. Every
    intermediate stays within a MicroPython small int (|x| < 2**30)."""
    d = (a - b) & _MASK
    if d >= _HALF:
        d = d - _MASK - 1
    return d


def ticks_add_py(a, d):
    """a + d wrapped to [0, 2**30); the stand-in for time.ticks_add
    (d must be in (-2**29, 2**29)). Small-int safe like ticks_diff_py."""
    if d >= 0:
        r = a - _MASK + d          # a + d - period + 1, never above 2**29
        return r - 1 if r > 0 else r + _MASK
    r = a + d
    return r + _MASK + 1 if r < 0 else r


try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython
    ticks_diff = ticks_diff_py
    ticks_add = ticks_add_py


def event(key, kind):
    """The event int for `key` (a K_ bit) and `kind` (PRESS...)."""
    return key | kind << 8


class Buttons:
    """Debounced key events from raw masks (see the module docstring)."""

    def __init__(self, debounce=20, long_ms=600, repeat_delay=400, repeat_every=120,
                 repeat_keys=0x0F, qlen=16):
        if debounce < 0 or long_ms < 0 or repeat_delay <= 0 or repeat_every <= 0:
            raise ValueError("button timings must be >= 0 ms (repeat > 0)")
        self.debounce = debounce
        self.busy = False        # the app was busy since the last poll (set by it, one poll)
        self.fell = 0            # keys the board noted pressed since the last poll (fell())
        self.long_ms = long_ms
        self.repeat_delay = repeat_delay
        self.repeat_every = repeat_every
        self.repeat_keys = repeat_keys
        self.q = array("H", [0] * qlen)
        self.qlen = qlen
        self.dropped = 0         # events lost to a full queue (should stay 0)
        self.state = 0           # debounced mask of keys held
        self._raw = 0            # raw mask at the last poll
        self._edge = array("i", [0] * _NKEYS)  # when each raw bit last changed
        self._due = array("i", [0] * _NKEYS)   # next LONG or REPEAT time
        self._long = 0           # keys whose LONG has fired in this hold
        self._n = 0

    def _put(self, ev):
        if self._n < self.qlen:
            self.q[self._n] = ev
            self._n += 1
        else:
            self.dropped += 1

    def update(self, raw, now):
        """Feed one poll; returns the number of events written to q[0:n]."""
        self._n = 0
        raw &= 0x7F
        changed = raw ^ self._raw
        busy = self.busy
        fell = self.fell if busy else 0        # noted between ordinary polls: a glitch
        unseen = fell & ~raw & ~self._raw
        seen = fell & raw                      # pressed during the work, still down
        gone = changed & ~raw if busy else 0   # let go during the work: it has lasted
        self._raw = raw
        self.busy = False
        self.fell = 0
        # Only a key held, pressed, let go or tapped has work: most polls
        # see none, and end here.
        active = changed | raw | self.state | unseen
        if not active:
            return 0
        edge = self._edge
        # The keys up now first: what they did (a release, a tap) began
        # before any key down now was pressed, and one poll after busy
        # work may see both (a tap, then the next key going down).
        keys = active & ~raw
        for _ in (0, 1):
            for i in range(_NKEYS):
                bit = 1 << i
                if bit > keys:
                    break
                if not keys & bit:
                    continue
                if unseen & bit and not self.state & bit:
                    self._put(bit | PRESS << 8)        # a tap the busy app never polled
                    self._put(bit | RELEASE << 8)
                elif changed & bit:
                    if busy and not raw & bit and not self.state & bit:
                        self._put(bit | PRESS << 8)    # a tap the busy app polled once
                        self._put(bit | RELEASE << 8)
                    edge[i] = now
                down = self.state & bit
                if (raw & bit) != down:
                    if (seen | gone) & bit or ticks_diff(now, edge[i]) >= self.debounce:
                        self.state ^= bit
                        if down:
                            self._release(bit)
                        else:
                            self._press(i, bit, now)
                elif down:
                    self._held(i, bit, now)
            keys = active & raw
        return self._n

    def _press(self, i, bit, now):
        if bit & self.repeat_keys:
            self._put(bit | PRESS << 8)
            self._due[i] = ticks_add(now, self.repeat_delay)
        elif self.long_ms:
            self._due[i] = ticks_add(now, self.long_ms)
        else:
            self._put(bit | PRESS << 8)

    def _release(self, bit):
        if not bit & self.repeat_keys and self.long_ms and not self._long & bit:
            self._put(bit | PRESS << 8)  # released before LONG: a short press
        self._long &= ~bit
        self._put(bit | RELEASE << 8)

    def _held(self, i, bit, now):
        due = self._due
        if ticks_diff(now, due[i]) < 0:
            return
        if bit & self.repeat_keys:
            self._put(bit | REPEAT << 8)
            nxt = ticks_add(due[i], self.repeat_every)
            if ticks_diff(now, nxt) >= 0:  # polled late: no burst of repeats
                nxt = ticks_add(now, self.repeat_every)
            due[i] = nxt
        elif self.long_ms and not self._long & bit:
            self._long |= bit
            self._put(bit | LONG << 8)

    def reset(self):
        """Forget held keys (e.g. after sleep): nothing fires until a new press."""
        self.state = self._raw = self._long = self._n = 0
