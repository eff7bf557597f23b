"""Info: what the campaign on this tray is, for checking it against a
backup at a glance: its id, rule system, events, the oldest event the
journal still holds, whether the journal holds the chain (the scrub's last
whole cycle: docs/store.md, "Scrub") and the hash chain's head (the first
16 of its 64 hex digits; `dicetray status --json` shows them all as
`head`, and the scrub's verdict as `scrub`)."""

from ui.screen import Screen, row, lr, NO

SYSTEMS = ("hunt", "paths", "expedition")


def verdict(head, sc, first):
    """The journal against its chain, in a word: the scrub's last whole
    cycle `sc` (cycles, first and last event checked, no break)."""
    if head is None:
        return "unknown"     # a campaign from before the chain: nothing to check against
    if sc is None:
        return "checking"    # no whole cycle since boot yet
    if not sc[3]:
        return "BROKEN"      # an event does not lead to the head recorded after it
    if sc[1] < 0:
        return "unchecked"   # no recorded head to start from (docs/store.md)
    return "holds" if sc[1] <= first else "from %d" % sc[1]


class Info(Screen):
    def refresh(self):
        cid, system, events, first, head, sc = self.app.s.info()
        self.rows = (lr("Campaign", "%d" % cid), lr("Rules", SYSTEMS[system]),
                     lr("Events", "%d" % events), lr("Held from", "%d" % first),
                     lr("Chain", verdict(head, sc, first)), head[:16] if head else "unknown")

    def key(self, k):
        return NO

    def draw(self, fb):
        row(fb, 0, "INFO", True)
        for r in range(len(self.rows)):
            row(fb, 1 + r, self.rows[r])
        row(fb, 7, "Back: return")
