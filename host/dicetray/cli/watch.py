"""`dicetray watch`: the live view of the table (trackers and rolls)."""

import shutil
import sys

from ..campaign import export as ex
from ..campaign import tracked
from ..rules import campaign as cp
from ..ops.restore import device_state
from .common import Opened, adder, port_options

RECENT = 12  # the last rolls kept on the screen (fewer if the terminal is short)


def _watch(args):
    tty = sys.stdout.isatty()
    with Opened(args) as dev:
        c = device_state(dev)
        system = c.system
        recent = _last(dev, c) if tty else []  # a screen shows the last rolls at once
        if tty:
            _draw(c, recent)
        else:
            print(
                "watching campaign %d (%s) from event %d; Ctrl-C stops"
                % (c.cid, ex.system_name(system), c.nevents)
            )
            sys.stdout.flush()
        try:
            for seq, ev in dev.subscribe():
                if ev is None:  # the hub: the tray's campaign is another one from here
                    c = device_state(dev)
                    said = [
                        "%5d  (the tray's campaign was replaced (a restore, a switch or a new "
                        "campaign): the view is read again from the device)" % seq
                    ]
                    said += _last(dev, c, after=seq)  # what it did since, its pushes skipped
                    recent = said
                    if tty:
                        _draw(c, recent)
                    else:
                        print("\n".join(said))
                        sys.stdout.flush()
                    continue
                ev = bytes(ev)
                if seq <= c.nevents:
                    continue
                if seq != c.nevents + 1:  # missed some: start over from the device
                    missed = c.nevents + 1
                    c = device_state(dev)
                    line = "%5d  (%s missed: the view is read again from the device)" % (
                        seq,
                        "event %d was" % missed
                        if missed == seq - 1
                        else "events %d..%d were" % (missed, seq - 1),
                    )
                else:
                    try:
                        line = ex.live(c, seq, ev)[0]
                    except ValueError as e:
                        c = device_state(dev)
                        line = (
                            "%5d  (does not replay here: %s; the view is read again from the "
                            "device)" % (seq, e)
                        )
                recent.append(line)
                del recent[:-RECENT]
                if tty:
                    _draw(c, recent)
                else:
                    print(line)
                    sys.stdout.flush()
        except KeyboardInterrupt:  # how it ends: exit 130, no line (nothing to say)
            if tty:
                sys.stdout.write("\n")
            return 130
    return 0  # (unreached: subscribe() without a timeout ends only by an exception)


def _last(dev, c, after=None):
    """The last RECENT events the tray holds (those after seq `after`,
    when given), as watch's lines (the device's whole journal, folded on
    the host; a compacted one from the snapshot `c`, the events before it
    without their outcome)."""
    first = dev.info().get("first", 1)
    events = [bytes(e) for e in dev.events(first - 1)][: c.nevents - first + 1]
    base, at = (cp.encode_snapshot(c), c.nevents) if first > 1 else (None, 0)
    n = RECENT if after is None else min(RECENT, c.nevents - after)
    got = ex.recent(c.system, c.cid, events, first, base, at, n)
    return [line for _seq, line, _faces, _out in got]


def _draw(c, recent):
    """The screen: the campaign, its trackers in the tray's order and words
    (campaign/tracked.py), and as many of the last rolls as the terminal has rows
    for; every line cut to its width, so nothing wraps or scrolls away."""
    cols, rows = shutil.get_terminal_size()
    lines = [
        "Dicetray: campaign %d (%s), event %d" % (c.cid, ex.system_name(c.system), c.nevents),
        "",
    ]
    lines += tracked.lines(c)
    room = max(3, rows - len(lines) - 3)
    lines += ["", "last rolls:"] + (recent[-room:] or ["  (waiting for the table)"])
    sys.stdout.write("\x1b[H\x1b[2J" + "\n".join(x[: cols - 1] for x in lines) + "\n")
    sys.stdout.flush()


def register(sub):
    """Add this group's commands to an argparse subparsers object."""
    add = adder(sub)

    p = add("watch", _watch, "a live view of the table (trackers and rolls); Ctrl-C stops")
    port_options(p)
