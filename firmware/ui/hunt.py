"""hunt's home screen and LED ring: what the boot shows of hunt (ui/home.py
`system`, imported with the first home): the title, the menu (Scenes
for hunt) and the screen each row opens, Tension, Pressure and the Sin
(`pal` in its palace), and Pressure as the ring's dial. The rest of
hunt's screens, imported when first needed: ui/hunt_more.py
(ui/systems.py says what each of the two provides).
"""

from ui.screen import lr

NAME = "HUNT"
MENU = ("Roll", "Key in dice", "Talismans", "Characters", "Scenes", "Log", "Settings")
# Each MENU row's screen, "module Class", imported when first opened
# (App.open). Bytes: a str constant costs a search of the interned
# strings when the module loads (~20,000 fuel each), bytes do not.
SCREENS = (b"builder Builder", b"keyin KeyIn", b"talismans Talismans", b"chars Chars", b"scenes Scenes",
           b"log Log", b"settings Settings")


def lines(c, out):
    """Home's tracker rows into out (a row stays "" without its talisman)."""
    m = c.rules
    k = 0
    for role, name in ((m.ROLE_TENSION, "Tension"), (m.ROLE_PRESSURE, "Pressure"),
                       (m.ROLE_SIN, "Sin")):
        t = c.find(role)
        if t >= 0:
            tal = c.tals[t]
            extra = " pal" if role == m.ROLE_SIN and c.x[m.X_PALACE] else ""
            out[k] = lr(name, "%d/%d%s" % (tal.n, tal.cap, extra))
        k += 1


def dial(app):
    """The talisman the ring shows when the screen paints none: Pressure."""
    c = app.c
    return c.find(c.rules.ROLE_PRESSURE)
