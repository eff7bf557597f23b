"""Rules of `hunt` (seed text in shared/seeds). SKELETON: to be filled in."""

ID = 0
NAME = "hunt"
KINDS = (32, 63)
CHAR_FIELDS = ()
COUNTERS = ()

SIDES = 6
# What each d6 face is worth: 4+ succeeds (DESIGN default), on a hard roll only a 6.
SUCCESS = bytes((0, 0, 0, 0, 1, 1, 1))
SUCCESS_HARD = bytes((0, 0, 0, 0, 0, 0, 1))


def new_counters():
    return [0] * len(COUNTERS)


def new_char():
    return [0] * len(CHAR_FIELDS)


def setup(c):
    """Create the system's standing talismans in a new campaign."""


def on_char(c, i):
    """A character was added at index i."""


def apply(c, kind, args, text, src):
    raise ValueError("unknown hunt event kind %d" % kind)


def on_slash(c, t, k, src):
    """k slashes landed on talisman t."""


def on_fill(c, t, src):
    """Talisman t filled."""
