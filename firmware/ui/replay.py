"""The boot's spare() (session.py load calls it between the steps of its
replay of the journal): the board's own spare() (hw/board.py), and on a
long replay the count of events read on the screen. Such a replay takes
about 5 ms an event on a Pico (a 6,000-event journal after a power cut:
docs/store.md, "Boot replays"): a blank screen for half a minute looks
like a dead tray, and a tray switched off meanwhile starts it over. A
normal boot's replay ends before the first word (SAY steps)."""

SAY = 8


class Replaying:
    """spare() for Session(board, spare): `step` events a call."""

    def __init__(self, board, step):
        self.b = board
        self.f = getattr(board, "spare", None)
        self.step = step
        self.n = 0

    def __call__(self):
        self.n += 1
        if self.n % SAY == 0:
            show(self.b.display, self.n * self.step)
        if self.f is not None:
            self.f()


def show(display, n):
    """About n events read so far, and to leave the power on."""
    d = display
    d.fill(0)
    d.text("DICETRAY", 32, 0, 1)
    d.text("Restoring the", 0, 16, 1)
    d.text("campaign...", 0, 24, 1)
    d.text("%d events read" % n, 0, 32, 1)
    d.text("Keep the power", 0, 48, 1)
    d.text("on, please.", 0, 56, 1)
    d.show()
