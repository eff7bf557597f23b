"""Physical roll mode: the players roll real dice in the tray and key the
faces in; the device reads them by the same rules (Campaign.act(...,
faces=...)) and logs them like its own rolls.

Up/Down pick the face value, OK adds it, Left removes the last one (the
screen says so in those words: "Up/Down face  3", "OK: add face",
"Left: erase last"; Right does nothing). When every face the builder's
pool needs is in, OK (or Roll) applies the roll.
The pool is the builder's (ui/pools.py); paths helpers are keyed first,
then the main pool (its size depends on the helpers' successes), then the
opponent, in the order the rules draw them. Only faces are keyed: a bare
success count is not accepted, so the log never holds invented faces.
"""

from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_ROLL
from ui.screen import Screen, row, lr, NO, DRAW, KEEP
from ui.result import face_lines


class KeyIn(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.faces = bytearray()
        self.face = 1

    def refresh(self):
        app = self.app
        try:
            self.need = app.need_pool().need(app.c, self.faces)
            self.err = ""
        except ValueError as e:
            self.need = 0
            self.err = str(e)
        self.head = lr("KEY IN", app.pool.desc(app.c))

    def key(self, k):
        sides = self.app.pool.sides()
        if k == K_UP or k == K_DOWN:
            self.face = (self.face + (1 if k == K_UP else -1) - 1) % sides + 1
            return DRAW
        if k == K_LEFT:
            if self.faces:
                self.faces = self.faces[:-1]
                self.refresh()
            return DRAW
        if k == K_OK or k == K_ROLL:
            if len(self.faces) >= self.need:
                self.app.roll(bytes(self.faces))
                return DRAW
            if k == K_OK:
                self.faces.append(self.face)
                self.refresh()
                return DRAW
            return KEEP
        if k == K_RIGHT:
            return KEEP
        return NO

    def draw(self, fb):
        row(fb, 0, self.head, True)
        lines = face_lines(self.faces) if self.faces else ["no faces yet"]
        for r in range(min(3, len(lines))):
            row(fb, r + 1, lines[len(lines) - 3 + r if len(lines) > 3 else r])
        row(fb, 4, "%d of %d faces" % (len(self.faces), self.need))
        if self.err:
            row(fb, 5, self.err)
        elif len(self.faces) >= self.need:
            row(fb, 5, "OK/Roll: apply")
        else:
            row(fb, 5, "Up/Down face %3d" % self.face, True)
            row(fb, 6, "OK: add face")
        if self.faces:
            row(fb, 7, "Left: erase last")
