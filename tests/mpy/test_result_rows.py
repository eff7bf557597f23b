"""The result screen's rows (ui/result.py): the faces broken into rows as
they always were, now from one format; the margin's sign. Runs on CPython
and on MicroPython (tests/mpy_run.py)."""

from rules.dice import Dice
from rules import core
from ui.result import Result, face_lines
from ui.screen import lr, nlr, wrap
from fakeapp import make


def _one_by_one(faces, w, label):
    """The rows as face_lines built them face by face, before it formatted
    them at once: the reference."""
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


_LABELS = ("", "Bram", "Old Tom", "A very long name", "Helpers", "Foe 2")


def _case(d):
    """One random roll's faces, label and width, checked against the reference."""
    faces = [d.d((6, 10, 20, 100)[d.d(4) - 1]) for _ in range(d.d(31) - 1)]
    label = _LABELS[d.d(len(_LABELS)) - 1]
    w = 16 if d.d(3) > 1 else 12
    assert face_lines(faces, w, label) == _one_by_one(faces, w, label), (faces, label, w)


def test_face_rows_are_those_made_face_by_face():
    d = Dice(7)
    for _ in range(300):  # (the VM's default fuel)
        _case(d)


def _shown(a, out):
    """The rows of a result screen for `out`, pushed and drawn."""
    a.push(Result(a, out, "2d6"))
    a.render()
    rows = list(a.fb.rows)
    a.pop()
    return rows


def test_the_margin_shows_its_sign():
    a, b, s = make(2)
    assert "margin +3" in _shown(a, core.Outcome(96, [4, 5], 2, 1, 3))
    assert "margin 0" in _shown(a, core.Outcome(96, [4, 5], 2, 1, 0))
    rows = _shown(a, core.Outcome(96, [1], 0, 0, 2))  # a failure's margin shown as one
    assert rows[1:4] == ["1", "0 succ   FAILURE", "margin -2"], rows


def _wrap_before(s, w):
    """wrap() as it was, three new strs a break: the reference."""
    out = []
    while len(s) > w:
        k = s.rfind(" ", 0, w + 1)
        if k <= 0:
            k = w
        out.append(s[:k])
        s = s[k:].lstrip()
    if s:
        out.append(s)
    return out


def _text(d):
    words = ("a", "Sin", "instant death", "  ", "Ada rolls 4", "x" * 20, "brink;", "DOWN AND OUT")
    return " ".join(words[d.d(len(words)) - 1] for _ in range(d.d(8) - 1))


def test_wrapped_lines_are_those_of_before():
    d = Dice(3)
    for _ in range(300):
        s = _text(d)
        w = 16 if d.d(3) > 1 else 10
        assert wrap(s, w) == _wrap_before(s, w), (s, w)


def test_a_count_left_and_a_word_right_make_one_row():
    for n in (0, 7, 42, 999):
        for b in ("", "WINS", "SUCCEEDED", "hidden"):
            assert nlr(n, " succ", b) == lr("%d succ" % n, b)
