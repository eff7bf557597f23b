"""`dicetray serve`: the table hub (dicetray.hub, docs/hub.md)."""

from ..hub import command
from .common import _seconds


def register(sub):
    command.register(sub, _seconds)
