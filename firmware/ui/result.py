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
from ui.screen import Screen, row, lr, wrap, signed, NO, DRAW, KEEP
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


def face_lines(faces, w=16, label=""):
    """Faces as rows of numbers separated by spaces, after `label:` when
    one is given."""
    out = []
    s = (label + ":") if label else ""
    for f in faces:
        t = str(f)
        if s and len(s) + 1 + len(t) > w:
            out.append(s)
            s = t
        else:
            s = (s + " " + t) if s else t
    if s or not out:
        out.append(s or "no dice")
    return out


class Result(Screen):
    def __init__(self, app, out, what):
        Screen.__init__(self, app)
        self.out = out
        self.what = what  # e.g. "5d6"
        self.gm = False
        self.top = 0
        p = app.pool
        self.sides = p.split(app.c, out) if p is not None else None
        self._build()

    def _build(self):
        o = self.out
        if self.sides:
            self.lines = []
            k = 0
            for label, n in self.sides:
                self.lines.extend(face_lines(o.faces[k:k + n], 16, label))
                k += n
        else:
            self.lines = face_lines(o.faces)
        hide = getattr(o, "hidden", 0) and not self.gm
        v = verdict(o)
        if hide:
            self.lines.append(lr("%d succ" % o.successes, "hidden"))
            self.lines.append("long OK: GM view")
        else:
            self.lines.append(lr("%d succ" % o.successes, v))
            if v:
                # expedition's margin is a size (kinds 96..): a failure's is shown as one
                m = -o.margin if o.kind >= 96 and o.verdict == 0 else o.margin
                self.lines.append("margin %s%s" % (signed(m), " GM" if self.gm else ""))
        for n in order(o.notes):
            self.lines.extend(wrap(n))
        self.head = lr("RESULT", self.what) if len(self.what) < 10 else self.what.upper()

    def long(self, k):
        if k == K_OK:
            self.gm = not self.gm
            self._build()
            return DRAW
        return NO

    def key(self, k):
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
        for r in range(7):
            i = self.top + r
            if i < len(self.lines):
                row(fb, r + 1, self.lines[i])
