"""Key bits of the raw mask returned by `Board.keys()`.

One bit per button, so a poll is a single small int and chords are free.
"""

try:
    from micropython import const
except ImportError:  # CPython (host, simulator launcher, tests)
    def const(x):
        return x

K_UP = const(1)
K_DOWN = const(2)
K_LEFT = const(4)
K_RIGHT = const(8)
K_OK = const(16)
K_BACK = const(32)
K_ROLL = const(64)

ARROWS = const(15)     # the keys that auto-repeat by default
ALL = const(127)
COUNT = const(7)

# NAMES[i] names the key with bit 1 << i.
NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "ROLL")


def name(bit):
    """The name of a single key bit, e.g. name(K_OK) == "OK"."""
    for i in range(COUNT):
        if bit == 1 << i:
            return NAMES[i]
    raise ValueError("not a single key bit: %r (allowed 1, 2, 4 ... 64)" % (bit,))
