"""What the live page shows of each tray (docs/hub.md, The live page).

A sink of the hub: every tray's campaign, folded on the host from the
device's snapshot and then event by event as they arrive (as `dicetray
watch` does), its trackers, its last rolls in words with their faces and
outcome, and its screen and LED ring (SCREEN) as the tray shows them,
and how forwarding fares (each URL's queue, last error, last delivery).
The work runs on the view's own thread: a tray's thread only queues it,
so a slow page never holds up a tray.

It also makes forwarding's records: one an event as it comes, and, each
time it reads a tray afresh (the tray came up, the hub started), the
events the tray rolled since the last one queued (catching up).
"""

import base64
import queue
import threading
import time

from .. import backup as bk
from .. import export as ex
from .. import tracked
from ..rules import campaign as cp
from ..rules import codec, systems
from . import forward

RECENT = 12  # rolls kept per tray
SCREEN_S = 1.0  # while a page is open, each tray's screen is read this often


class View:
    """Every tray's page state; `changed` is notified at each change."""

    def __init__(self, hub):
        self.hub = hub
        self.trays = {}  # name -> the tray's view (JSON-ready dict)
        self.camps = {}  # name -> the folded campaign
        self.version = 0
        self.changed = threading.Condition()
        self.watching = 0  # open pages (SSE streams): the screens are read only then
        self.work = queue.Queue()
        self._forward = None
        self.dirty = set()  # trays whose screen changed since it was last read
        threading.Thread(target=self._run, name="hub-view", daemon=True).start()

    @property
    def forward(self):
        """forward.Forwarder: every event, as a record (--forward); its state is shown."""
        return self._forward

    @forward.setter
    def forward(self, f):
        self._forward = f
        if f is not None:
            f.listeners.append(lambda url: self._touch())

    def _touch(self):
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    # --- the hub's sink ------------------------------------------------------
    def state(self, tray):
        self.work.put(("state", tray, None, None))

    def event(self, tray, seq, ev):
        self.work.put(("event", tray, seq, ev))

    def snapshot(self):
        """{"version", "trays": [a tray's view, ...]} in the hub's order."""
        f = self.forward
        sinks = (
            [] if f is None else [dict(st, sink=forward.label(u)) for u, st in f.stats().items()]
        )
        with self.changed:
            names = list(self.hub.trays)
            return {
                "version": self.version,
                "trays": [self.trays[n] for n in names if n in self.trays],
                "forward": sinks,
            }

    # --- the thread ------------------------------------------------------------
    def _run(self):
        shot = time.monotonic()
        while True:
            try:
                what, tray, seq, ev = self.work.get(timeout=SCREEN_S)
            except queue.Empty:
                what = None
            try:
                if what == "state":
                    self._fresh(tray)
                elif what == "event":
                    self._event(tray, seq, ev)
            except Exception as e:  # a tray that went away mid-read: its state says so
                self._put(tray, why=str(e))
            if self.forward is not None:
                self._retry_forward()
            if not self.work.empty():
                continue  # events first: the screens once they are all shown
            if self.watching and time.monotonic() - shot >= SCREEN_S:
                shot = time.monotonic()
                self.dirty.update(n for n, t in list(self.hub.trays.items()) if t.state == "up")
            while self.dirty and self.watching:
                t = self.hub.trays.get(self.dirty.pop())
                if t is not None and t.state == "up":
                    self._screen(t)

    def _view(self, tray):
        v = self.trays.get(tray.name)
        if v is None:
            v = self.trays[tray.name] = {
                "tray": tray.name,
                "recent": [],
                "trackers": None,
                "rows": [],
                "screen": None,
            }
        return v

    def _put(self, tray, **kw):
        with self.changed:
            v = self._view(tray)
            v.update(tray.as_dict())
            v.update(kw)
            self.version += 1
            self.changed.notify_all()

    def _fresh(self, tray):
        """The tray's campaign read again from the device (it came up, or
        the view lost track); forwarding catches up with it."""
        if tray.state != "up":
            self._put(tray)
            return
        seq, snap = tray.call("snapshot")
        # an undo window as backups keep (bounded: its snapshot is kept with each record)
        c = bk.start(None, None, bytes(snap), bk.HOST_DEPTH)
        for e in tray.call("events", [seq]) if seq < tray.last else ():
            c.apply(bytes(e))
        if self.forward is not None:
            self._catch_up(tray, c)  # first: if it fails, the next event reads the tray again
        self.camps[tray.name] = c
        self._put(
            tray,
            trackers=ex.trackers(c),
            rows=tracked.rows(c),
            recent=self._journal(tray, c, bytes(snap), seq),
            system=systems.NAMES[c.system],
        )
        self._screen(tray)

    def _journal(self, tray, c, snap, seq):
        """The last RECENT events tray holds, as the page shows rolls (newest
        first), so a page opened on a tray with events shows them at once:
        its journal read and folded here (a compacted one from the snapshot
        `snap` at `seq`, the events before it without their outcome)."""
        first = tray.call("info").get("first", 1)
        events = [bytes(e) for e in tray.call("events", [first - 1])][: c.nevents - first + 1]
        base, at = (snap, seq) if first > 1 else (None, 0)
        got = ex.recent(c.system, c.cid, events, first, base, at, RECENT, public=True)
        return [
            {"seq": n, "line": line.strip(), "faces": faces, "outcome": said}
            for n, line, faces, said in reversed(got)
        ]

    def _catch_up(self, tray, c):
        """Queue the records of what tray campaign `c` did since the last
        event queued of it: folded from the state kept with that one, and
        checked against the device's own state at the end (a campaign
        restored meanwhile is not the one forwarded: skipped, said)."""
        f, dev, head = self.forward, (tray.info or {}).get("device"), c.nevents
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
                items.append((record(tray, k, n, ev, _roll(k, n, ev), ex.trackers(k)), None))
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

    def _retry_forward(self):
        """The records the forwarding queue's file refused, queued again;
        a campaign it could not hold is read from its tray (catching up)."""
        for dev, cid in self.forward.retry():
            for name, c in list(self.camps.items()):
                t = self.hub.trays.get(name)
                if t is None or t.state != "up" or (t.info or {}).get("device") != dev:
                    continue
                if c.cid == cid:
                    try:
                        self._catch_up(t, c)
                    except Exception as e:  # its link: the tray's next coming up tries again
                        self._put(t, why=str(e))

    def _event(self, tray, seq, ev):
        c = self.camps.get(tray.name)
        if c is None or seq <= c.nevents:
            if c is None:
                self._fresh(tray)
            return
        try:
            roll = _roll(c, seq, ev)
        except ValueError:
            self._fresh(tray)
            return
        with self.changed:
            v = self._view(tray)
            v["recent"] = ([roll] + v["recent"])[:RECENT]
        t = ex.trackers(c)
        self._put(tray, trackers=t, rows=tracked.rows(c))
        if self.forward is not None:
            self.forward.put(record(tray, c, seq, ev, roll, t), cp.encode_snapshot(c))
        self.dirty.add(tray.name)  # its screen changed: read once the events are shown

    def _screen(self, tray):
        try:
            s = tray.call("screen")
        except Exception:
            return  # a firmware without SCREEN: the page shows no screen
        shown = {
            "w": s["width"],
            "h": s["height"],
            "fb": base64.b64encode(bytes(s["fb"])).decode("ascii"),
            "leds": base64.b64encode(bytes(s["leds"])).decode("ascii"),
        }
        if self.trays.get(tray.name, {}).get("screen") != shown:
            self._put(tray, screen=shown)


def _roll(c, seq, ev):
    """Event `seq` applied to the view's campaign `c`: what the page shows
    of it; ValueError if it does not follow or does not replay."""
    line, kind, out = ex.live(c, seq, ev, public=True)
    said = ex.outcome(kind, out)
    return {
        "seq": seq,
        "line": line.strip(),
        "faces": list(out.faces) if out else [],
        "outcome": None if said is None or said["hidden"] else said,
    }


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
