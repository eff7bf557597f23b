"""`dicetray watch`: the live view of the table (trackers and rolls)."""

import sys

from .. import export as ex
from .common import _Dev, _device_state, _port, adder
from .backups import _tracker_lines


def _watch(args):
    tty = sys.stdout.isatty()
    with _Dev(args) as dev:
        c = _device_state(dev)
        system = c.system
        recent = []
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
                ev = bytes(ev)
                if seq <= c.nevents:
                    continue
                if seq != c.nevents + 1:  # missed some: start over from the device
                    missed = c.nevents + 1
                    c = _device_state(dev)
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
                        c = _device_state(dev)
                        line = (
                            "%5d  (does not replay here: %s; the view is read again from the "
                            "device)" % (seq, e)
                        )
                recent.append(line)
                del recent[:-12]
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


def _draw(c, recent):
    t = ex.trackers(c)
    lines = [
        "Dicetray: campaign %d (%s), event %d" % (c.cid, ex.system_name(c.system), c.nevents),
        "",
    ]
    lines += _tracker_lines(t, c.system)
    lines += ["", "recent:"] + (recent or ["  (waiting for the table)"])
    sys.stdout.write("\x1b[H\x1b[2J" + "\n".join(lines) + "\n")
    sys.stdout.flush()


def register(sub):
    """Add this group's commands to an argparse subparsers object."""
    add = adder(sub)

    p = add("watch", _watch, "a live view of the table (trackers and rolls); Ctrl-C stops")
    _port(p)
