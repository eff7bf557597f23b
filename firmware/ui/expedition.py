"""expedition's home screen and LED ring: what the boot shows of expedition
(ui/home.py `system`, imported with the first home): the title, the menu
(Turns, Spells, Town and Foes for expedition) and the screen each row
opens, turn, day, the turns to the next encounter check and the
exploration turns to the next usage check (expedition.next_check); the
ring shows the talisman last selected. The rest of expedition's screens,
imported when first needed: ui/expedition_more.py.
"""

from ui.screen import lr

NAME = "EXPEDITION"
# Spells, Town: ui/spells.py, ui/town.py; Foes
# last: Up from Roll (ui/foes.py).
MENU = ("Roll", "Key in dice", "Talismans", "Characters", "Turns", "Spells", "Town", "Log",
        "Settings", "Foes")
# Each MENU row's screen, "module Class", imported when first opened
# (App.open). Bytes: a str constant costs a search of the interned
# strings when the module loads (~20,000 fuel each), bytes do not.
SCREENS = (b"builder Builder", b"keyin KeyIn", b"talismans Talismans", b"chars Chars", b"turns Turns",
           b"spells Spells", b"town Town", b"log Log", b"settings Settings", b"foes Foes")


def lines(c, out):
    """Home's tracker rows into out."""
    m = c.rules
    enc, use = m.next_check(c)
    out[0] = lr("Turn %d" % c.x[m.TURN_N], "day %d" % c.x[m.DAY])
    out[1] = lr("Next encounter", str(enc))
    out[2] = lr("Next usage", str(use))


def dial(app):
    """The talisman the ring shows when the screen paints none: the one
    last selected on the Talismans screen."""
    return app.sel_tal
