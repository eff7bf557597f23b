"""What the campaign and every rule system share: the limits of a
campaign, the name rule, the argument checks and `Outcome`, what an action
did.

Its own module so the rule systems import this, never `campaign`: the
campaign loads the systems, the systems load nothing above themselves, and
no import goes round in a circle (docs/architecture.md, import rules).

Each check raises ValueError naming what was wrong and what is allowed,
before anything changes.
"""

MAX_CHARS = 8
# A name fits a row of the 16-column screen beside a value, in the OLED's
# built-in font (printable ASCII): checked when a name is given (act),
# not when an old journal is replayed (apply), so nothing once accepted
# stops folding.
NAME_MAX = 12
NAME_RULE = "a name is 1 to 12 characters: letters, digits, space and ASCII punctuation"
MAX_TALS = 32


class Outcome:
    """What the last action did, for the screen and the host (not encoded)."""

    # Set on the few outcomes that have them: on MicroPython an instance's
    # attributes are a table grown 2, 4, 6, 8 entries as they are set, each
    # growth an allocation the collector searches the heap for (a roll's).
    hidden = 0              # 1: verdict and margin are for the GM's eyes only
    tal = -1                # a talisman the action created or acted on

    def __init__(self, kind, faces=b"", successes=0, verdict=0, margin=0):
        self.kind = kind
        self.faces = faces
        self.successes = successes
        self.verdict = verdict  # 1 success, 0 failure, 2 tie; meaning per kind
        self.margin = margin
        self.notes = []         # short strings: what the action changed

    def note(self, s):
        self.notes.append(s)


def name_error(name):
    """None if `name` is a name the device can show, else why not (in words)."""
    if not name or name.strip() != name:
        return "%s, not starting or ending with a space: %r" % (NAME_RULE, name[:20])
    if len(name) > NAME_MAX:
        # The whole name when it is short enough to read back; a long one
        # is cut, and the "..." outside its quotes says so.
        cut = len(name) > 32
        return "%s: %r%s has %d characters" % (NAME_RULE, name[:24] if cut else name,
                                               "..." if cut else "", len(name))
    for ch in name:
        if not " " <= ch <= "~":
            return "%s: %r is not one (the screen cannot draw it)" % (NAME_RULE, ch)
    return None


def arity(args, n, msg):
    """args must hold exactly n values; msg says which."""
    if len(args) != n:
        raise ValueError(msg)


def span(what, v, lo, hi):
    """lo <= v <= hi."""
    if not lo <= v <= hi:
        raise ValueError("%s %d is not in %d..%d" % (what, v, lo, hi))


def flag(what, v):
    """v is 0 or 1."""
    if v not in (0, 1):
        raise ValueError("%s must be 0 or 1, not %d" % (what, v))


def alive(c, i, dead):
    """Character i of campaign c, unless its field `dead` is set."""
    ch = c.char(i)
    if ch.v[dead]:
        raise ValueError("%s is dead" % ch.name)
    return ch
