"""Forwarding fed by the live page's view (docs/hub.md, Forwarding): the
view folds every tray's campaign (view.py) and hands this feed each event
as it comes, with the campaign after it, and each campaign it reads afresh
from a tray; the feed makes forwarding's records of them (schema
dicetray.event/1) and queues them on the Forwarder (forward.py: the queue
on disk, the posting). A campaign read afresh (the tray came up, the hub
started) is caught up: the events the tray rolled since the last one
queued.

    view.add_feed(Feed(Forwarder(urls, path)))
"""

import time

from .. import backup as bk
from ..campaign import export as ex
from ..rules import campaign as cp
from ..rules import codec, systems
from . import forward
from .view import roll_of


class Feed:
    """The view's feed into Forwarder `f`; the page shows each URL's
    queue (shown)."""

    def __init__(self, f):
        self.f = f

    def listen(self, changed):
        """Call changed() whenever a URL's stats change (the page's footer)."""
        self.f.listeners.append(lambda url: changed())

    def shown(self):
        """Each URL's stats as the page shows them (its host only)."""
        return [dict(st, sink=forward.label(u)) for u, st in self.f.stats().items()]

    def event(self, tray, c, seq, ev, roll, trackers):
        """Event `seq` of tray's campaign `c` (applied: c is the campaign
        after it; `roll`, `trackers`: what the page shows of it), queued."""
        self.f.put(record(tray, c, seq, ev, roll, trackers), cp.encode_snapshot(c))

    def fresh(self, tray, c):
        """Queue the records of what tray campaign `c` did since the last
        event queued of it: folded from the state kept with that one, and
        checked against the device's own state at the end (a campaign
        restored meanwhile is not the one forwarded: skipped, said)."""
        f, dev, head = self.f, (tray.info or {}).get("device"), c.nevents
        if dev is None:
            return
        snap = cp.encode_snapshot(c)
        back = f.resume(dev, c.cid, head, snap)
        if back is None:
            return
        seq, kept = back
        first = tray.call("info").get("first", 1)
        try:
            if first > seq + 1:
                raise ValueError("the tray holds events from %d only" % first)
            # (a link error raises DeviceError: not caught, so the next up tries again)
            evs = tray.call("events", [seq])[: head - seq]
            if len(evs) < head - seq:
                raise ValueError("the tray gave %d of them" % len(evs))
            k = bk.start(c.system, c.cid, kept, bk.HOST_DEPTH)
            items = []
            for i, ev in enumerate(evs):
                n, ev = seq + 1 + i, bytes(ev)
                items.append((record(tray, k, n, ev, roll_of(k, n, ev), ex.trackers(k)), None))
            if cp.encode_state(k) != cp.encode_state(c):
                raise ValueError("the campaign is not the one forwarded (restored meanwhile?)")
        except ValueError as e:
            f.skip(
                dev,
                c.cid,
                head,
                snap,
                "tray %s: events %d..%d of campaign %d not forwarded: %s"
                % (tray.name, seq + 1, head, c.cid, e),
            )
            return
        items[-1] = (items[-1][0], snap)
        f.put_many(items)

    def idle(self, trays, camps):
        """The records the forwarding queue's file refused, queued again;
        a campaign it could not hold is read from its tray (catching up:
        `trays` the hub's, `camps` the view's campaigns by tray name).
        [(tray, why)]: the trays whose link failed meanwhile."""
        failed = []
        for dev, cid in self.f.retry():
            for name, c in list(camps.items()):
                t = trays.get(name)
                if t is None or t.state != "up" or (t.info or {}).get("device") != dev:
                    continue
                if c.cid == cid:
                    try:
                        self.fresh(t, c)
                    except Exception as e:  # its link: the tray's next coming up tries again
                        failed.append((t, str(e)))
        return failed


def record(tray, c, seq, ev, roll, trackers):
    """An event as forwarding posts it (schema dicetray.event/1, docs/hub.md):
    what the page shows of it, and the trackers after it."""
    kind, args, _faces, text = codec.decode_event(ev)
    i = tray.info or {}
    return {
        "schema": forward.SCHEMA,
        "id": "%s:%s:%d" % (i.get("device"), c.cid, seq),
        "tray": tray.name,
        "device": i.get("device"),
        "campaign": c.cid,
        "system": systems.NAMES[c.system],
        "seq": seq,
        "time": round(time.time(), 3),
        "kind": kind,
        "event": ex.kind_name(c.system, kind).lower(),
        "args": list(args),
        "text": text,
        "faces": roll["faces"],
        "outcome": roll["outcome"],
        "trackers": trackers,
        "summary": "%s: %s" % (tray.name, roll["line"].split(None, 1)[-1]),
    }
