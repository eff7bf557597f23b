"""Settings: the rule system of the next campaign, LED brightness (0..4,
capped by ui/ring.py's MAX scale), undo/redo, a new campaign behind a
confirmation (the old campaign stays on flash, in its own directory), and
the campaigns on flash (ui/campaigns.py: list, switch, delete), and the
campaign's info (ui/info.py: its events and hash chain head).
"""

from hw.keys import K_LEFT, K_RIGHT, K_OK, K_BACK
from ui.screen import Screen, Menu, row, lr, toast, NO, DRAW, KEEP

SYSTEMS = ("hunt", "paths", "expedition")
# The System row: the value in < > (Left/Right change it), in 16 columns;
# "expedition" leaves room for "Sys" only (what lr() would cut it to).
SYSTEM_ROWS = ("System    <hunt>", "System   <paths>", "Sys <expedition>")


class Settings(Screen):
    NOTES = 1

    def __init__(self, app):
        Screen.__init__(self, app)
        self.sys = app.c.system
        self.menu = Menu([], 1, 6)

    def refresh(self):
        app = self.app
        self.menu.items = [SYSTEM_ROWS[self.sys], lr("LEDs", "<%d>" % app.bright),
                           "New campaign", "Campaigns", "Undo", "Redo", "Info"]

    def key(self, k):
        app = self.app
        s = self.menu.sel
        if k == K_LEFT or k == K_RIGHT:
            d = -1 if k == K_LEFT else 1
            if s == 0:
                self.sys = min(max(self.sys + d, 0), 2)  # it stops at either end
            elif s == 1:
                app.set_bright(app.bright + d)
            self.refresh()
            return DRAW
        if k == K_OK:
            if s <= 2:
                app.push(Confirm(app, self.sys))
            elif s == 3:
                from ui.campaigns import Campaigns
                app.push(Campaigns(app))
            elif s == 4:
                app.undo()
            elif s == 5:
                app.redo()
            else:
                from ui.info import Info
                app.push(Info(app))
            return DRAW
        return NO

    def draw(self, fb):
        row(fb, 0, "SETTINGS", True)
        self.menu.draw(fb)
        toast(fb, self.app.toast, 7, 1)


class Confirm(Screen):
    def __init__(self, app, system):
        Screen.__init__(self, app)
        self.system = system

    def key(self, k):
        if k == K_OK:
            self.app.new_campaign(self.system)
            return DRAW
        if k == K_BACK:
            self.app.pop()
            return DRAW
        return KEEP

    def draw(self, fb):
        row(fb, 0, "NEW CAMPAIGN?", True)
        row(fb, 2, "System:")
        row(fb, 3, SYSTEMS[self.system])
        row(fb, 4, "The current one")
        row(fb, 5, "stays on flash.")
        row(fb, 6, "OK: start")
        row(fb, 7, "Back: cancel")
