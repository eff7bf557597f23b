"""The roll builder's model, what every rule system's shares: the values in
a dict by field name, a field's row (`item`), Left/Right (`change`), the
references an undo made stale (`fix`) and the newest roll taken back
(`restore`). Each system's own Pool (ui/hunt_more.py, paths_more.py,
expedition_more.py: ui/systems.py `get`) says the rest: its fields, their
labels and ranges, the dice, the event, the faces a hand roll needs; the
odds line is ui/poolodds.py's.
"""

from rules import codec
from ui.screen import lr, lrn

YES_NO = ("no", "yes")


class Pool:
    """A system's builder values. The system's Pool sets, as class
    attributes: `m` (its rules module, for the odds line), `system` (its
    number), `SIDES`, `F` (field -> (label, low, high)), `NUM` (fields
    shown as a plain number), `ZERO` (field -> its text for 0, where 0 is
    not a number), `WORDS` (field -> the text of each value), `SIGNED`
    (shown with a sign), `REFS` (fields naming a character or a
    talisman), `CHARS` (those of REFS naming a character); and the
    methods below that say "each system's", and
    `head(title, c, n)`, `action(c)` and `need(c, keyed)`."""

    SIDES = 6
    F = {}
    NUM = ()
    ZERO = {}
    WORDS = {}
    SIGNED = ()
    REFS = ()
    CHARS = ("who",)
    gm = False  # the GM's view of a secret pool (paths' hidden difficulty): the builder's long OK
    title = "ROLL"  # the builder's title

    def __init__(self, v):
        self.v = v

    # --- each system's ----------------------------------------------------
    def fields(self):
        """The fields the builder shows now, one a row."""
        return ()

    def takes(self, t):
        """Whether talisman t is a value of the system's talisman field."""
        return False

    def dice(self, c):
        """The main pool's dice count (ValueError when the values are refused)."""
        return 0

    def _desc(self, n):
        """desc() of n dice."""
        return ""

    def take(self, kind, a):
        """Take the values of event (kind, a) if it is a roll the builder
        makes: True; False for any other event."""
        return False

    def opens(self, app, f):
        """OK on field f: True when it opened a screen (paths: a new
        prolonged test) instead of rolling."""
        return False

    def secret(self):
        """Whether what the builder shows is partly the GM's alone."""
        return False

    def two(self):
        """Whether the odds line holds two figures, a row each (poolodds)."""
        return False

    def split(self, c, out):
        """The sides of a roll's faces, as its result names them: (label,
        number of faces) in the order rolled; None: one side."""
        return None

    # --- fields ---------------------------------------------------------
    def item(self, c, f):
        """Field f's builder row: its label left, its value right (a name
        too long for the room beside the label shortened, never the
        label)."""
        v = self.v[f]
        if f in self.NUM and v >= 0 and not (v == 0 and f in self.ZERO):
            return lrn(self.F[f][0], v)  # the common case, one new str
        a = self.F[f][0]
        b = self.text(c, f)
        if a and len(a) + len(b) >= 16:  # (no label: the text is the whole row)
            b = b[:15 - len(a)]
        return lr(a, b)

    def text(self, c, f):
        """The value of field f as shown: a character or a talisman by its
        name (its slashes are on Talismans)."""
        v = self.v[f]
        if f in self.CHARS:
            return c.chars[v].name if 0 <= v < len(c.chars) else "-"
        if f in self.REFS:
            t = c.tals[v] if 0 <= v < len(c.tals) else None
            return t.name if t is not None else "-"
        w = self.WORDS.get(f)
        if w is not None:
            return w[v]
        if f in self.SIGNED:
            return ("+%d" % v) if v > 0 else str(v)
        if v == 0 and f in self.ZERO:
            return self.ZERO[f]
        return str(v)

    def _choices(self, c, f):
        """Allowed values of a talisman/character field, -1 (none) first."""
        out = [-1]
        if f in self.CHARS:
            return out + list(range(len(c.chars)))
        for i, t in enumerate(c.tals):
            if t is not None and self.takes(t):
                out.append(i)
        return out

    def change(self, c, f, d):
        """Step field f by d (Left/Right); it stops at either end of the
        allowed values. True: a reference changed, which other rows may
        follow (paths' levels from who rolls' sheet; the builder refreshes
        them all: fix()); None for a plain value, whose row alone changes
        (ui/builder.py: the key every press takes)."""
        v = self.v
        if f in self.REFS:
            ch = self._choices(c, f)
            i = (ch.index(v[f]) if v[f] in ch else 0) + d
            v[f] = ch[0 if i < 0 else (len(ch) - 1 if i >= len(ch) else i)]
            return True
        name, lo, hi = self.F[f]
        x = v[f] + d
        v[f] = lo if x < lo else (hi if x > hi else x)

    def fix(self, c):
        """Drop references that an undo or a new campaign made stale."""
        for f in self.fields():
            if f in self.REFS and self.v[f] not in self._choices(c, f):
                self.v[f] = -1

    # --- the roll ---------------------------------------------------------
    def sides(self):
        return self.SIDES

    def desc(self, c, n=None):
        """The pool as the result's title shows it ('5d6', hunt's '2d6
        low', paths' '4d12+h', expedition's '5d6 v4'); n: the dice count
        when the caller has it already (dice() is not free)."""
        if n is None:
            try:
                n = self.dice(c)
            except ValueError:
                return "bad pool"
        return self._desc(n)

    def restore(self, c, events):
        """Take the values of the newest roll among `events` (oldest
        first) that the builder makes (`take`); False if there is none."""
        for k in range(len(events) - 1, -1, -1):
            kind, a, f, t = codec.decode_event(events[k])
            if self.take(kind, a):
                self.fix(c)
                return True
        return False
