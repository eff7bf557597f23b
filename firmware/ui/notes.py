"""An action's notes as the game master reads them: every one, the
consequence that matters first (a death, the brink, an injury, a lost
spell, a usage die's roll, the Sin's capacity and healing), on the toast
rows of the screen the action came from, and on a page of their own when
they are more than those rows hold (any note cut off is a consequence
never seen). Loaded with the first action's notes (ui/app.py `applied`),
never at boot.

A screen that shows the last action's notes says how many rows it gives
them in `NOTES`; a screen without (home, a form) never pages them.
"""

from hw.keys import K_UP, K_DOWN, K_OK, K_BACK
from ui.screen import Message, wrap, row, lr, NO, DRAW, KEEP

# The consequences that matter, most first: a note holding one of a
# group's words goes before the notes of the groups after it; the other
# notes keep their order after them.
FIRST = (("instant death", "is dead", "DEATH", "dies"), ("brink", "DOWN AND OUT"),
         ("injury",), ("lost until",), (" rolls ",), ("Sin capacity", "Sin heals"))


def _rank(s):
    for k in range(len(FIRST)):
        for w in FIRST[k]:
            if w in s:
                return k
    return len(FIRST)


def order(notes):
    """The notes, the consequence that matters first (a stable order)."""
    if len(notes) < 2:
        return notes
    r = [_rank(s) for s in notes]
    out = []
    for k in range(len(FIRST) + 1):
        for i in range(len(notes)):
            if r[i] == k:
                out.append(notes[i])
    return out


def show(app, out, page=True):
    """The notes of Outcome `out` as the toast, in order, "; " between them;
    page: when they are more than the rows the screen on top gives them
    (its NOTES), also a page of them over it. No page for a screen that
    shows no toast, nor for a roll (its result shows every note)."""
    ns = order(out.notes)
    app.toast = "; ".join(ns)
    n = getattr(app.top(), "NOTES", 0)
    if page and n and len(wrap(app.toast)) > n:
        app.push(Page(app, ns))


class Page(Message):
    """Every note of an action, one a row or more, 6 rows a page: Up/Down
    turn the pages, OK closes it on its last page, Back at once. Left,
    Right and Roll do nothing here, so that a key held or pressed again
    (the next stress, the next turn) does not close it unread; a long
    press closes it and does what it does anywhere (undo, redo, key in)."""

    def __init__(self, app, notes):
        Message.__init__(self, app, "OUTCOME", "\n".join(notes))
        self.pages = (len(self.lines) + 5) // 6
        self._head()

    def _head(self):
        n = self.pages
        self.head = lr(self.title, "%d/%d" % (self.page + 1, n)) if n > 1 else self.title

    def key(self, k):
        if k == K_BACK or (k == K_OK and self.page + 1 >= self.pages):
            self.app.pop()
            return DRAW
        if k == K_DOWN or k == K_OK:
            if self.page + 1 < self.pages:
                self.page += 1
        elif k == K_UP:
            if self.page:
                self.page -= 1
        else:
            return KEEP
        self._head()
        return DRAW

    def long(self, k):
        self.app.pop()
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        i = 6 * self.page
        for r in range(6):
            if i + r < len(self.lines):
                row(fb, r + 1, self.lines[i + r])
        row(fb, 7, "OK: close" if self.page + 1 >= self.pages else "Down: more")
