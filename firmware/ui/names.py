"""Renaming a character or a talisman with seven keys: Left/Right move the
cursor along the name, Up/Down turn the letter under it through LETTERS
(they repeat when held), Roll deletes it (past the end: the one before), OK saves (a core RENAME event,
so undo gives the old name back), Back leaves the name as it was.

The cursor may stand one place past the end ('_'): turning a letter there
adds one. The host tool can set any name the rules accept (printable
ASCII, core.NAME_RULE); the keys offer the letters a table uses.
"""

from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_ROLL
from ui.screen import Screen, row, NO, DRAW
from rules import campaign as cp, core

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -'."


class Rename(Screen):
    """what: 0 a character, 1 a talisman; i: its index."""

    head = "RENAME"  # the title row (ui/naming.py names a new thing with these keys)

    def __init__(self, app, what, i, name):
        Screen.__init__(self, app)
        self.what = what
        self.i = i
        self.chars = list(name[:core.NAME_MAX])
        self.at = len(self.chars) - 1 if self.chars else 0
        self._text()

    def _text(self):
        # Built when the name changes, not per frame (ui/screen.py).
        self.line = "".join(self.chars)
        self.mark = " " * self.at + "^"

    def press(self, k):
        # Up/Down turn letters here; there is no menu to move.
        return self.key(k)

    def key(self, k):
        ch = self.chars
        if k == K_LEFT:
            if self.at > 0:
                self.at -= 1
        elif k == K_RIGHT:
            if self.at < len(ch) and self.at < core.NAME_MAX - 1:
                self.at += 1
        elif k == K_UP or k == K_DOWN:
            self._turn(1 if k == K_UP else -1)
        elif k == K_ROLL:
            if self.at < len(ch):
                ch.pop(self.at)
            elif self.at:               # at the end: the one before it (a backspace)
                self.at -= 1
                ch.pop(self.at)
        elif k == K_OK:
            return self._save()
        else:
            return NO
        self._text()
        return DRAW

    def _turn(self, d):
        ch = self.chars
        if self.at == len(ch):
            ch.append(LETTERS[0] if d > 0 else LETTERS[-1])
            return
        j = LETTERS.find(ch[self.at])
        ch[self.at] = LETTERS[(j + d) % len(LETTERS)] if j >= 0 else LETTERS[0]

    def _save(self):
        app = self.app
        name = self.line.strip()
        app.pop()
        app.act(cp.RENAME, (self.what, self.i), name)
        return DRAW

    def draw(self, fb):
        row(fb, 0, self.head, True)
        row(fb, 2, self.line + ("_" if self.at == len(self.chars) else ""))
        row(fb, 3, self.mark)
        row(fb, 4, "Up/Down: letter")
        row(fb, 5, "Roll: delete")
        row(fb, 6, "OK: save")
        row(fb, 7, "Back: keep name")
