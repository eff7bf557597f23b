"""A name typed for a new thing (a hook, a kit item) with the Rename
screen's seven keys (ui/names.py): OK hands the name to `done(name)`
instead of renaming anything; Back leaves without it. Loaded on first
use."""

from ui.names import Rename
from ui.screen import DRAW


class Naming(Rename):
    """head: the title row; name: the one it starts from; done(name):
    called with the name typed (never empty: the start name if cleared)."""

    def __init__(self, app, head, name, done):
        Rename.__init__(self, app, 0, 0, name)
        self.head = head
        self.start = name
        self.done = done

    def _save(self):
        name = self.line.strip() or self.start
        self.app.pop()
        self.done(name)
        return DRAW
