"""Roll result: every face (each side's apart when the roll has sides:
paths' helpers, who rolls and the opponent, an expedition versus roll's
roller and opponent or monster, named by the builder's pool, `split`),
the successes, the verdict and margin, and the Outcome's notes (what the
roll changed), the consequence that matters first (ui/notes.py). Up/Down
scroll them.

A hidden result (paths hidden difficulty) shows the players only the dice
and the successes; a long press of OK toggles the GM view with the verdict
and margin.
"""

from hw.keys import K_UP, K_DOWN, K_OK
from ui.screen import Screen, row, lr, nlr, wrap, NO, DRAW, KEEP
from ui.notes import order

# Verdict words per event kind: (failure, success, tie/open); a versus
# roll's from the roller's side (its sides are named on the faces' rows).
_WORDS = {32: ("FAILURE", "SUCCESS", ""), 64: ("FAILURE", "SUCCESS", ""),
          65: ("LOSES", "WINS", ""), 67: ("FAILED", "SUCCEEDED", "OPEN"),
          96: ("FAILURE", "SUCCESS", ""), 97: ("LOSES", "WINS", "TIE"),
          98: ("LOSES", "WINS", "TIE"), 121: ("FAILURE", "SUCCESS", ""),
          124: ("FAILURE", "SUCCESS", ""), 125: ("FAILURE", "SUCCESS", "")}


def verdict(out):
    w = _WORDS.get(out.kind)
    if w is None:
        return ""
    return w[out.verdict] if 0 <= out.verdict <= 2 else ""


_FMT = {}  # (n, labelled): the format of n faces, made once (a new str is costly)


def face_lines(faces, w=16, label=""):
    """Faces as rows of numbers separated by spaces, after `label:` when
    one is given (the label never broken). One format for the faces, a
    slice a row after the first: on MicroPython every new str costs a
    search of the interned strings (ui/screen.py)."""
    n = len(faces)
    if not n:
        return [(label + ":") if label else "no dice"]
    key = n * 2 + (1 if label else 0)
    f = _FMT.get(key)
    if f is None:
        f = _FMT[key] = ("%s:" + " %d" * n) if label else ("%d" + " %d" * (n - 1))
    s = f % ((label,) + tuple(faces) if label else tuple(faces))
    if len(s) <= w:
        return [s]
    out = []
    i = 0
    head = len(label) + 1 if label else 0  # the first row holds `label:` whole
    while len(s) - i > w:
        k = s.rfind(" ", i, i + w + 1)
        if k < i + head:
            k = s.find(" ", i + head)
        out.append(s[i:k])
        i = k + 1
        head = 0
    out.append(s[i:])
    return out


def heading(what):
    """The result's first row: what was rolled (the builder's pool)."""
    return lr("RESULT", what) if len(what) < 10 else what.upper()


class Result(Screen):
    # Set when they change (a GM's long OK, a scroll): six attributes fit
    # the instance's table at its third size (rules/core.py Outcome).
    gm = False
    top = 0

    def __init__(self, app, out, what, head=None):
        """`head`: the first row when the caller has it (App.roll drew it
        before the roll was durable), else made from `what`."""
        Screen.__init__(self, app)
        self.out = out
        self.head = head or heading(what)
        p = app.pool
        self.sides = p.split(app.c, out) if p is not None else None
        self._build()

    def _build(self):
        """The faces' rows; the verdict's and the notes' are made after the
        first row of faces went out (_rest, from draw): on a board they are
        made while the bus sends it."""
        o = self.out
        if self.sides:
            self.lines = []
            k = 0
            for label, n in self.sides:
                self.lines.extend(face_lines(o.faces[k:k + n], 16, label))
                k += n
        else:
            self.lines = face_lines(o.faces)
        self.more = True

    def _rest(self):
        """The rows after the faces: successes, verdict, margin, notes."""
        if not self.more:
            return
        self.more = False
        o = self.out
        hide = getattr(o, "hidden", 0) and not self.gm
        v = verdict(o)
        if hide:
            self.lines.append(nlr(o.successes, " succ", "hidden"))
            self.lines.append("long OK: GM view")
        else:
            self.lines.append(nlr(o.successes, " succ", v))
            if v:
                # expedition's margin is a size (kinds 96..): a failure's is shown as one
                m = -o.margin if o.kind >= 96 and o.verdict == 0 else o.margin
                self.lines.append(("margin %+d%s" if m else "margin %d%s") % (m, " GM" if self.gm else ""))
        for n in order(o.notes):
            self.lines.extend(wrap(n))

    def long(self, k):
        if k == K_OK:
            self.gm = not self.gm
            self._build()
            return DRAW
        return NO

    def key(self, k):
        self._rest()
        if k == K_DOWN:
            if self.top + 7 < len(self.lines):
                self.top += 1
                return DRAW
            return KEEP
        if k == K_UP:
            if self.top:
                self.top -= 1
                return DRAW
            return KEEP
        if k == K_OK:
            self.app.pop()
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        if self.more:  # a new result: its first row of faces first
            row(fb, 1, self.lines[self.top])
            self._rest()
        for r in range(7):
            i = self.top + r
            if i < len(self.lines):
                row(fb, r + 1, self.lines[i])
