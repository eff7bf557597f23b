"""Seedable integer dice for the rules core.

MicroPython's `random` is missing on some ports (no entropy source), and its
generator differs from CPython's, so the core brings its own: an additive
lagged-Fibonacci generator x[n] = x[n-24] + x[n-55] mod 2**29 (Knuth, TAOCP
3.2.2). Words are 29 bits so that the sum of two stays below 2**30, the
largest MicroPython small int on a 32-bit port: drawing never allocates.
Its period is 2**28 * (2**55 - 1).
Same seed, same faces on CPython and MicroPython.
"""

from array import array

try:
    from micropython import const
except ImportError:  # CPython: the host imports this same module
    def const(x):
        return x

MASK = const(0x1FFFFFFF)
_LAG = const(55)
SIDES = (3, 4, 6, 8, 10, 12, 20)
MAX_POOL = 20

# One 29-bit draw below _ACCEPT[s] holds _DIGITS[s] independent faces of a
# d`s` as its base-s digits (_ACCEPT is a multiple of s**_DIGITS[s], so the
# digits are exactly uniform). The digit counts maximise faces per draw;
# tests/mpy/test_dice.py recomputes them.
_DIGITS = bytes((0, 0, 0, 17, 14, 0, 10, 0, 9, 0, 8, 0, 7,
                 0, 0, 0, 0, 0, 0, 0, 6))
_ACCEPT = array("i", (0, 0, 0, 516560652, 536870912, 0, 483729408, 0,
                      536870912, 0, 500000000, 0, 501645312,
                      0, 0, 0, 0, 0, 0, 0, 512000000))


class Dice:
    """A seeded source of die faces.

    `d(sides)` returns one face in 1..sides (any sides up to 2**29);
    `roll(sides, n, buf, table)` fills buf[0:n] with faces of one of the
    standard dice (SIDES) and returns the sum of table[face], without
    allocating: the hot path of every pool roll.
    """

    def __init__(self, seed=1):
        self._t = array("i", [0] * _LAG)
        self._k = _LAG
        self.seed(seed)

    def seed(self, seed):
        """Restart the sequence from `seed` (any int; only its low 30 bits count)."""
        t = self._t
        # Spread the seed over the lag table with a 16-bit-halves xorshift32
        # (shifts on halves keep every value a small int).
        hi = (seed >> 16) & 0x3FFF
        lo = seed & 0xFFFF
        if hi == 0 and lo == 0:
            lo = 0x9E37
        for i in range(_LAG):
            for _ in range(2):
                hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF  # x ^= x << 13
                lo ^= (lo << 13) & 0xFFFF
                lo ^= hi >> 1                            # x ^= x >> 17
                hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF  # x ^= x << 5
                lo ^= (lo << 5) & 0xFFFF
            t[i] = ((hi & 0x1FFF) << 16) | lo
        t[0] |= 1  # an odd word guarantees the full period
        self._k = _LAG
        # Discard a warm-up so nearby seeds decorrelate.
        for _ in range(4):
            self._refill()

    def _refill(self):
        t = self._t
        for k in range(24):
            t[k] = (t[k] + t[k + 31]) & MASK
        for k in range(24, _LAG):
            t[k] = (t[k] + t[k - 24]) & MASK
        self._k = 0

    def _word(self):
        if self._k == _LAG:
            self._refill()
        w = self._t[self._k]
        self._k += 1
        return w

    def d(self, sides):
        """One face of a die with `sides` sides (2..2**29)."""
        limit = 0x20000000 - 0x20000000 % sides
        while True:
            r = self._word()
            if r < limit:
                return r % sides + 1

    def roll(self, sides, n, buf, table):
        """Roll n dice of `sides` (one of SIDES) into buf[0:n]; return the
        sum of table[face] over them (the pool's successes). No allocation."""
        per = _DIGITS[sides]
        accept = _ACCEPT[sides]
        t = self._t
        k = self._k
        i = 0
        s = 0
        while i < n:
            if k == _LAG:
                self._refill()
                k = 0
            r = t[k]
            k += 1
            if r >= accept:
                continue
            m = n - i
            if m > per:
                m = per
            for _ in range(m):
                f = r % sides + 1
                r //= sides
                buf[i] = f
                s += table[f]
                i += 1
        self._k = k
        return s


def new_pool():
    """A preallocated face buffer big enough for any pool."""
    return bytearray(MAX_POOL)


def count(buf, n, table):
    """Successes in buf[0:n] where table[face] is what each face is worth."""
    s = 0
    for i in range(n):
        s += table[buf[i]]
    return s


class Replay:
    """A dice source that hands back recorded faces (replaying an event)."""

    def __init__(self, faces):
        self.faces = faces
        self.i = 0

    def d(self, sides):
        if self.i >= len(self.faces):
            raise ValueError("the action needs a d%d face and none is left (roll live or key in more faces)" % sides)
        f = self.faces[self.i]
        self.i += 1
        if not 1 <= f <= sides:
            raise ValueError("recorded face %d is not a d%d face" % (f, sides))
        return f

    def drawn(self):
        return self.i

    def since(self, i):
        """The faces handed out since drawn() returned i."""
        return bytes(self.faces[i:self.i])


class Recorder:
    """A dice source that draws from live Dice and records every face."""

    def __init__(self, dice):
        self.dice = dice
        self.faces = bytearray()

    def d(self, sides):
        f = self.dice.d(sides)
        self.faces.append(f)
        return f

    def drawn(self):
        return len(self.faces)

    def since(self, i):
        """The faces drawn since drawn() returned i."""
        return bytes(self.faces[i:])
