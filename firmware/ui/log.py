"""Log: the campaign's recent events, newest first, decoded (kind name,
faces, name text). Up/Down scroll. Undo/redo are logged events too.
"""


from ui.screen import Screen, Menu, row
from rules import codec
from rules.systems import get

_CORE = ("", "UNDO", "REDO", "CHAR+", "TAL+", "SLASH", "UNSLASH", "CLEAR", "TAL-", "CAP", "DICE", "NAME")
_PATHS = ("TEST", "OPPOSED", "PRO+", "PRO ROLL")
_EXP = ("TEST", "VERSUS", "COMBAT", "DAMAGE", "VARDMG", "HEAL", "BONUSHP", "BONUS-", "SHEET",
        "USE RES", "DOWN", "S.REST", "L.REST", "TURN", "FREQ", "ENC", "USAGE+", "USAGE",
        "REACT", "MORALE", "DIST", "DESPER", "PROJ+", "PROJ", "EXT+")
SHOW = 24  # events listed


def kind_name(kind):
    if kind < len(_CORE):
        return _CORE[kind]
    if 32 <= kind < 48:
        # hunt names its own kinds; get() is cached (an import statement
        # here would resolve the module on every line, ~60,000 fuel)
        return get(0).KIND_NAMES[kind - 32]
    if 64 <= kind < 64 + len(_PATHS):
        return _PATHS[kind - 64]
    if 96 <= kind < 96 + len(_EXP):
        return _EXP[kind - 96]
    return "K%d" % kind


def line(ev):
    """One log line for an encoded event."""
    try:
        kind, args, faces, text = codec.decode_event(ev)
    except ValueError:
        return "?"
    s = kind_name(kind)
    if kind in (5, 6, 7, 8) and args:
        s += " t%d" % args[0]
    if text:
        s += " " + text
    if faces:
        s += ":" + "".join(("%d," % f) for f in faces)[:-1]
    return s


class Log(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 7)

    def refresh(self):
        ev = self.app.s.recent()
        n = self.app.c.nevents
        items = []
        for k in range(len(ev) - 1, max(-1, len(ev) - 1 - SHOW), -1):
            items.append("%d %s" % (n - (len(ev) - 1 - k), line(ev[k])))
        self.menu.items = items or ["(empty)"]
        self.menu.go(self.menu.sel)

    def draw(self, fb):
        row(fb, 0, "LOG %d events" % self.app.c.nevents, True)
        self.menu.draw(fb)
