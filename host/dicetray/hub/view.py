"""What the live page shows of each tray (docs/hub.md, The live page).

A sink of the hub: every tray's campaign, folded on the host from the
device's snapshot and then event by event as they arrive (as `dicetray
watch` does), its trackers, its last rolls in words with their faces and
outcome, and its screen and LED ring (SCREEN) as the tray shows them,
and how its feeds fare (forwarding: each URL's queue, last error, last
delivery). The work runs on the view's own thread: a tray's thread only
queues it, so a slow page never holds up a tray.

It feeds what it folds to its feeds (feed.py: forwarding), each an event
as it comes with the campaign after it, and each campaign it reads afresh
from a tray (the tray came up, the hub started).
"""

import base64
import queue
import threading
import time

from .. import backup as bk
from ..campaign import export as ex
from ..campaign import tracked
from ..rules import systems

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
        self.feeds = []  # feed.py's Feed: forwarding, fed what the view folds
        self.dirty = set()  # trays whose screen changed since it was last read
        threading.Thread(target=self._run, name="hub-view", daemon=True).start()

    def add_feed(self, feed):
        """Feed `feed` (feed.py) every event and every campaign read afresh;
        the page shows how it fares."""
        self.feeds.append(feed)
        feed.listen(self.touch)

    def touch(self):
        """Tell the pages something they show changed."""
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
        sinks = [s for feed in self.feeds for s in feed.shown()]
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
            for feed in self.feeds:
                for t, why in feed.idle(self.hub.trays, self.camps):
                    self._put(t, why=why)
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
        the view lost track); the feeds catch up with it."""
        if tray.state != "up":
            self._put(tray)
            return
        seq, snap = tray.call("snapshot")
        # an undo window as backups keep (bounded: its snapshot is kept with each record)
        c = bk.start(None, None, bytes(snap), bk.HOST_DEPTH)
        for e in tray.call("events", [seq]) if seq < tray.last else ():
            c.apply(bytes(e))
        for feed in self.feeds:
            feed.fresh(tray, c)  # first: if it fails, the next event reads the tray again
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

    def _event(self, tray, seq, ev):
        c = self.camps.get(tray.name)
        if c is None or seq <= c.nevents:
            if c is None:
                self._fresh(tray)
            return
        try:
            roll = roll_of(c, seq, ev)
        except ValueError:
            self._fresh(tray)
            return
        with self.changed:
            v = self._view(tray)
            v["recent"] = ([roll] + v["recent"])[:RECENT]
        t = ex.trackers(c)
        self._put(tray, trackers=t, rows=tracked.rows(c))
        for feed in self.feeds:
            feed.event(tray, c, seq, ev, roll, t)
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


def roll_of(c, seq, ev):
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
