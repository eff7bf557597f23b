"""paths' home screen and LED ring: what the boot shows of paths (ui/home.py
`system`, imported with the first home): the title, the menu (Fight for
paths) and the screen each row opens, the open prolonged tests and the
first two of them (`3/?` when hidden); the ring shows the talisman last
selected. The rest of paths' screens, imported when first needed:
ui/paths_more.py.
"""

from ui.screen import lr

NAME = "PATHS"
# Fight: ui/turns.py with ui/paths_more.py's rows (COMBAT).
MENU = ("Roll", "Key in dice", "Talismans", "Characters", "Fight", "Log", "Settings")
# Each MENU row's screen, "module Class", imported when first opened
# (App.open). Bytes: a str constant costs a search of the interned
# strings when the module loads (~20,000 fuel each), bytes do not.
SCREENS = (b"builder Builder", b"keyin KeyIn", b"talismans Talismans", b"chars Chars", b"turns Turns",
           b"log Log", b"settings Settings")


def lines(c, out):
    """Home's tracker rows into out."""
    m = c.rules
    out[0] = lr("Open tests", str(m.open_tests(c)))
    k = 1
    for t in c.tals:
        if k < 3 and t is not None and t.role == m.PROLONGED and m.status(t) == m.ST_OPEN:
            hidden = (t.b >> 9) & 1
            out[k] = lr(t.name, "%d/%s" % (t.n, "?" if hidden else str(t.cap)))
            k += 1


def dial(app):
    """The talisman the ring shows when the screen paints none: the one
    last selected on the Talismans screen."""
    return app.sel_tal
