"""Log: the campaign's recent events, newest first, each as its number and
what it was in the game's words (`48 Kit`, `45 Slash`, `44 Roll`); the
two bottom rows say more of the one under the cursor: whose it was (the
character, or the talisman, by its name now), the name it gave, its
faces (`Ada: 5 1 3`). Up/Down scroll. Undo/redo are logged events too.

The words are this module's (loaded when the Log first opens, never at
boot): each kind's, and each op's of a kind with ops (FOE, ROUND, ABIL,
SPELL, TOWN; paths' COMBAT by whether the fight starts), at most 10
letters so that a row holds them beside an event number of 5 digits, and
which of the event's arguments names a character (C + its index) or a
talisman (T + its index).
"""

from ui.screen import Screen, Menu, row, wrap
from rules import codec

SHOW = 24  # events listed
C = 1      # + i: argument i is a character
T = 11     # + i: argument i is a talisman

CORE = (("unreadable", 0), ("Undo", 0), ("Redo", 0), ("Joins", 0), ("Talisman", 0), ("Slash", T),
        ("Unslash", T), ("Clear", T), ("Delete", T), ("Capacity", T), ("Dice", 0),
        ("Rename", 0))
HUNT = (("Roll", C), ("Risk die", C), ("Scene ends", 0), ("Scene", 0), ("Stress", C),
        ("Burst", C), ("Hook", C), ("Rest", 0), ("Kit", C), ("New hunt", 0), ("Session", 0),
        ("Trauma", 0), ("Sin's fate", 0), ("Palace", 0), ("Witness", C), ("Succeed on", 0),
        ("Afflicted", C))
PATHS = (("Test", C), ("Opposed", C), ("Opens test", C), ("Prolonged", T),
         (("Fight ends", 0), ("Fight", 0)))
EXPEDITION = (
    ("Test", 0), ("Versus", 0), ("Combat", C), ("Damage", C), ("Damage", C), ("Heal", C),
    ("Bonus HP", C), ("Bonus ends", C), ("Sheet", C), ("Spend CR", C), ("Down & Out", C),
    ("Short rest", 0), ("Long rest", 0), ("Turn", 0), ("Encounters", 0), ("Encounter", 0),
    ("Usage die", 0), ("Usage roll", T), ("Reaction", 0), ("Morale", 0), ("Distance", 0),
    ("Desperate", C), ("Project", 0), ("Project", T), ("Extended", 0),
    (("New foe", 0), ("Foe hit", T + 1), ("Foe heals", T + 1), ("Foe save", T + 1),
     ("Resist", T + 1), ("Foe gone", T + 1), ("Foe lost", T + 1)),
    (("Round", 0), ("Fight ends", 0)),
    (("Abilities", C + 1), ("Swap", C + 1), ("Improve", C + 1), ("Boon", C + 1),
     ("Abilities", C + 1), ("Retires", C + 1)),
    (("Learns", C + 1), ("Channels", T + 1), ("Mutation", C + 1), ("Mastery", C + 1)),
    (("Town Phase", 0), ("Town sheet", C + 1), ("Cash", C + 1), ("Cash buy", C + 1),
     ("Wealth buy", C + 1), ("Sell", C + 1), ("Income", C + 1), ("Improve", C + 1),
     ("Circles", C + 1), ("Reputation", T + 1), ("Recognize", T + 1), ("Downtime", C + 1),
     ("Sell good", C + 1)))
SYSTEMS = (HUNT, PATHS, EXPEDITION)


def words(system, kind, args):
    """(the event's words, which argument names whom) of a decoded event;
    an event this firmware does not know: `event N`."""
    if kind < len(CORE):
        return CORE[kind]
    t = SYSTEMS[system] if 0 <= system < 3 else ()
    k = kind - 32 * (system + 1)
    if 0 <= k < len(t):
        e = t[k]
        if isinstance(e[0], tuple):  # a kind with ops: the op's
            op = args[0] if args else 0
            return e[op] if 0 <= op < len(e) else ("event %d" % kind, 0)
        return e
    return "event %d" % kind, 0


def detail(c, ref, args, faces, text):
    """Whose the event was (ref: words()'s), the name it gave and its faces."""
    who = ""
    i = (ref - T) if ref >= T else (ref - C)
    if ref and 0 <= i < len(args):
        n = args[i]
        if ref >= T:
            who = c.tals[n].name if 0 <= n < len(c.tals) and c.tals[n] is not None else ""
        elif 0 <= n < len(c.chars):
            who = c.chars[n].name
    s = who if not text or text == who else ("%s, %s" % (who, text) if who else text)
    if faces:
        f = " ".join([str(x) for x in faces])
        s = ("%s: %s" % (s, f)) if s else f
    return s


class Log(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 5)
        self.more = []
        self.lines = []

    def refresh(self):
        c = self.app.c
        ev = self.app.s.recent()
        n = c.nevents
        items = []
        self.more = []
        for k in range(len(ev) - 1, max(-1, len(ev) - 1 - SHOW), -1):
            try:
                kind, args, faces, text = codec.decode_event(ev[k])
                w, ref = words(c.system, kind, args)
            except ValueError:
                w, ref, args, faces, text = "unreadable", 0, (), b"", ""
            items.append("%d %s" % (n - (len(ev) - 1 - k), w))
            self.more.append(detail(c, ref, args, faces, text))
        self.menu.items = items or ["(empty)"]
        self.menu.go(self.menu.sel)
        self.moved()

    def moved(self):
        i = self.menu.sel
        self.lines = wrap(self.more[i]) if i < len(self.more) else []

    def draw(self, fb):
        row(fb, 0, "LOG %d events" % self.app.c.nevents, True)
        self.menu.draw(fb)
        for r in range(2):
            if r < len(self.lines):
                row(fb, 6 + r, self.lines[r])
