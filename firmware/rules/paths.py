"""Rules of `paths` (seed text in shared/seeds). SKELETON: to be filled in."""

ID = 1
NAME = "paths"
KINDS = (64, 95)
CHAR_FIELDS = ()
COUNTERS = ()

SIDES = 12
# 7+ succeeds, a 12 counts twice.
SUCCESS = bytes((0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2))


def new_counters():
    return [0] * len(COUNTERS)


def new_char():
    return [0] * len(CHAR_FIELDS)


def setup(c):
    """Create the system's standing talismans in a new campaign."""


def on_char(c, i):
    """A character was added at index i."""


def apply(c, kind, args, text, src):
    raise ValueError("unknown paths event kind %d" % kind)


def on_slash(c, t, k, src):
    """k slashes landed on talisman t."""


def on_fill(c, t, src):
    """Talisman t filled."""
