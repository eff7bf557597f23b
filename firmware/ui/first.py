"""The first run's tour: three screens over home on a new tray (a blank
flash: `session.new`): the keys, a roll, undo.

Keys: OK (or Right) the next page, OK on the last one ends the tour;
Left the page before; Back ends it at once (every title row says
`Back: skip`). Roll rolls the builder's pool as everywhere (the app's
global key) and turns to the undo page, so that a long Back there undoes
the roll just seen; long presses are the app's (undo, redo, key in).
Ending the tour, done or skipped, clears `session.new` and saves the
settings (`set_bright`): a tray with a settings file is not new, so the
tour never shows again on that flash.

Imported only when it shows (`start`, from ui/app.py): a boot on a used
flash never loads this module, and the app's hook uses only names the
boot has interned anyway (docs/performance.md: each new one costs every
boot). Every row is a constant: nothing is built here.
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from ui.screen import Screen, row, NO, DRAW, KEEP

# Eight rows a page, 16 columns each; row 0 is the title bar.
PAGES = (
    ("KEYS  Back: skip",
     "Up/Down: move",
     "Left/Right: -/+",
     "OK: open, choose",
     "Back: go back",
     "Roll: roll dice",
     "Hold: long press",
     "OK: next     1/3"),
    ("ROLL  Back: skip",
     "Press Roll now:",
     "it rolls the",
     "dice set in the",
     "Roll menu and",
     "shows each die",
     "and the verdict.",
     "OK: next     2/3"),
    ("UNDO  Back: skip",
     "Hold Back: undo",
     "the last action,",
     "a roll or slash.",
     "Hold OK: redo.",
     "Try it now.",
     "",
     "OK: done     3/3"),
)
LAST = 2      # the undo page
NOTE_ROW = 6  # on the undo page: "Undone" / "Redone" after a long Back / OK


def start(app):
    """Show the tour over the app's home screen."""
    app.push(Tour(app))


class Tour(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.page = 0

    def key(self, k):
        p = self.page
        if k == K_OK or k == K_RIGHT:
            if p < LAST:
                self.page = p + 1
            else:
                self.end()
            return DRAW
        if k == K_LEFT:
            if not p:
                return KEEP
            self.page = p - 1
            return DRAW
        if k == K_BACK:
            self.end()
            return DRAW
        if k == K_ROLL:
            self.page = LAST  # after the result: undo it
            return NO         # the app rolls the pool and shows the result
        return KEEP

    def end(self):
        """Done or skipped: home, and never again on this flash."""
        app = self.app
        s = app.s
        s.new = False
        s.set_bright(s.bright)  # writes the settings file: the tray is not new
        app.pop()

    def draw(self, fb):
        rows = PAGES[self.page]
        row(fb, 0, rows[0], True)
        for r in range(1, 8):
            row(fb, r, rows[r])
        app = self.app
        if self.page == LAST and app.fresh and app.toast:
            row(fb, NOTE_ROW, app.toast)
