"""`dicetray serve`: the table hub (dicetray.hub, docs/hub.md), handed
the command line's parser for its page's action lines."""

from ..hub import command
from .common import seconds
from .pageline import parse_action


def register(sub):
    command.register(sub, seconds, parse_action)
