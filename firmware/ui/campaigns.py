"""Settings > Campaigns: the campaign slots on flash, one row each (the
current one marked `*`, its system, its events, the flash it takes in
KB), asked of the session (session.campaigns(): the UI knows nothing of
flash). OK on a slot: its page, Switch to it / Delete; each asks a
second OK. The current slot cannot be deleted: OK on it says so.

    CAMPAIGNS    60K      title: the flash all the slots take
    *hunt     40 12K      * current; system; events; KB (4 KB littlefs blocks)
     paths   340 24K
    ...
    #3 id 536870911       the slot under the cursor: number, campaign id (or its name)
    OK: switch/del        (current: "Current: in use")
"""

from hw.keys import K_OK, K_BACK
from ui.screen import Screen, Menu, Message, row, lr, toast, NO, DRAW, KEEP

SYS = ("hunt", "paths", "exped")
CURRENT = "Current: switch first to delete"  # wraps onto the two bottom rows


def sysname(k):
    return SYS[k] if 0 <= k < len(SYS) else "?"


def kb(slot):
    return slot[5] * 4   # littlefs blocks of 4 KB


class Campaigns(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.menu = Menu([], 1, 5)
        self.slots = []
        self.total = 0
        self.first = True
        self.note = ""   # on the two bottom rows until the next key

    def refresh(self):
        s = self.app.s
        try:
            self.slots = s.campaigns()[0]
        except OSError:
            self.slots = []
            self.note = "Flash error: no list"
        items = []
        total = 0
        for t in self.slots:
            items.append("%s%-5s%6d%3dK" % ("*" if t[0] == s.n else " ", sysname(t[2]), t[3], kb(t)))
            total += kb(t)
        self.total = total
        self.menu.items = items
        if self.first:   # open on the current one
            self.first = False
            for i in range(len(self.slots)):
                if self.slots[i][0] == s.n:
                    self.menu.go(i)
        else:
            self.menu.go(self.menu.sel)

    def press(self, k):
        self.note = ""
        return Screen.press(self, k)

    def key(self, k):
        if k == K_OK and self.slots:
            app = self.app
            t = self.slots[self.menu.sel]
            if t[0] == app.s.n:
                self.note = CURRENT
            else:
                app.push(Slot(app, t))
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, lr("CAMPAIGNS", "%dK" % self.total), True)
        self.menu.draw(fb)
        app = self.app
        if self.note:
            toast(fb, self.note, 6, 2)
        elif self.slots:
            t = self.slots[self.menu.sel]
            row(fb, 6, ("#%d %s" % (t[0], t[6])) if t[6] else ("#%d id %d" % (t[0], t[1])))
            row(fb, 7, "Current: in use" if t[0] == app.s.n else "OK: switch/del")


class Slot(Screen):
    """A non-current slot: what it holds, Switch to it / Delete."""

    def __init__(self, app, t):
        Screen.__init__(self, app)
        self.t = t
        self.menu = Menu(["Switch to it", "Delete"], 5, 2)

    def key(self, k):
        if k == K_OK:
            self.app.push(Ask(self.app, self.t, self.menu.sel))
            return DRAW
        return NO

    def draw(self, fb):
        t = self.t
        row(fb, 0, lr("#%d" % t[0], sysname(t[2])), True)
        row(fb, 1, lr("Events", "%d" % t[3]))
        row(fb, 2, lr("Flash", "%dK" % kb(t)))
        row(fb, 3, lr("Id", "%d" % t[1]))
        if t[6]:
            row(fb, 4, lr("Name", t[6][:11]))
        self.menu.draw(fb)


class Ask(Screen):
    """The second OK: switch (what = 0) or delete (1) slot t; Back cancels."""

    def __init__(self, app, t, what):
        Screen.__init__(self, app)
        self.t = t
        self.what = what

    def key(self, k):
        app = self.app
        if k == K_BACK:
            app.pop()
            return DRAW
        if k != K_OK:
            return KEEP
        n = self.t[0]
        try:
            if self.what == 0:
                app.s.switch(n)
                app.restored("Switched")   # home, on that campaign
                return DRAW
            app.s.delete(n)
        except (ValueError, OSError) as e:
            app.pop()
            app.push(Message(app, "REFUSED" if isinstance(e, ValueError) else "FLASH ERROR",
                             str(e)))
            return DRAW
        app.pop()
        app.pop()   # back on the list, without it
        app.top().note = "Deleted: %dK freed" % kb(self.t)
        return DRAW

    def draw(self, fb):
        t = self.t
        row(fb, 0, "DELETE?" if self.what else "SWITCH?", True)
        row(fb, 2, lr("#%d" % t[0], sysname(t[2])))
        row(fb, 3, "%d events" % t[3])
        if self.what:
            row(fb, 4, "frees %dK" % kb(t))
            row(fb, 5, "Cannot be undone")
            row(fb, 6, "OK: delete")
        else:
            row(fb, 4, "The current one")
            row(fb, 5, "stays on flash.")
            row(fb, 6, "OK: switch")
        row(fb, 7, "Back: cancel")
