"""Info: what the campaign on this tray is, for checking it against a
backup at a glance: its id, rule system, events, the oldest event the
journal still holds, and the hash chain's head (the first 16 of its 64
hex digits; `dicetray status --json` shows them all as `head`)."""

from ui.screen import Screen, row, lr, NO

SYSTEMS = ("hunt", "paths", "expedition")


class Info(Screen):
    def refresh(self):
        cid, system, events, first, head = self.app.s.info()
        self.rows = (lr("Campaign", "%d" % cid), lr("System", SYSTEMS[system]),
                     lr("Events", "%d" % events), lr("Held from", "%d" % first),
                     "Chain head:", head[:16] if head else "unknown")

    def key(self, k):
        return NO

    def draw(self, fb):
        row(fb, 0, "INFO", True)
        for r in range(len(self.rows)):
            row(fb, 1 + r, self.rows[r])
        row(fb, 7, "Back: return")
