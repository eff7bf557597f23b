"""Remote actions from the live page (docs/hub.md, Remote actions).

The keeper types what they would type after `dicetray` (`roll --pool 3`,
`slash 0 2`, `turn`, `undo`): the line is read by the parser the hub was
handed (the command line's own, cli/pageline.py) and done by the
operation the command does (ops.actions.perform), through the hub like
any other client, so the page takes exactly the words, checks and
at-most-once of the terminal, and its answer is the terminal's lines.
"""

from ..link.errors import is_device_error
from ..ops.actions import Refused, perform
from ..ops.errors import Fail, Usage


class ActionError(Exception):
    """An action not done: `status` the HTTP status, the message what to do."""

    def __init__(self, status, message):
        Exception.__init__(self, message)
        self.status = status


def run(line, parse_action, connect):
    """Do the action of command `line` on `connect()` (an open device,
    closed here): {"seq", "lines", "answer"}; ActionError says why not.
    `parse_action(line)`: its parsed arguments, with the `build` of its
    event, or ValueError in words (the command line's parser, handed to
    the hub by `dicetray serve`)."""
    try:
        args = parse_action(line)
    except ValueError as e:
        raise ActionError(400, str(e)) from None
    try:
        dev = connect()
    except Exception as e:
        raise ActionError(503, "cannot reach the tray: %s" % e) from None
    try:
        r, lines = perform(dev, args.build, args)
    except Refused as e:
        raise ActionError(409, "refused by the device: %s" % e) from None
    except (Usage, Fail) as e:
        raise ActionError(400, str(e)) from None
    except Exception as e:
        if not is_device_error(e):
            raise
        raise ActionError(503, "device error: %s" % e) from None
    finally:
        dev.close()
    return {"seq": r.get("seq"), "lines": lines, "answer": r}
