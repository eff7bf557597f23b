"""What the live page shows of each tray (docs/hub.md, The live page).

A sink of the hub: every tray's campaign, folded on the host from the
device's snapshot and then event by event as they arrive (as `dicetray
watch` does), its trackers, its last rolls in words with their faces and
outcome, and its screen and LED ring (SCREEN) as the tray shows them. The
work runs on the view's own thread: a tray's thread only queues it, so a
slow page never holds up a tray.
"""

import base64
import queue
import threading
import time

from .. import export as ex
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
        self.forward = None  # forward.Forwarder: every event, as a record (--forward)
        self.dirty = set()  # trays whose screen changed since it was last read
        threading.Thread(target=self._run, name="hub-view", daemon=True).start()

    # --- the hub's sink ------------------------------------------------------
    def state(self, tray):
        self.work.put(("state", tray, None, None))

    def event(self, tray, seq, ev):
        self.work.put(("event", tray, seq, ev))

    def snapshot(self):
        """{"version", "trays": [a tray's view, ...]} in the hub's order."""
        with self.changed:
            names = list(self.hub.trays)
            return {
                "version": self.version,
                "trays": [self.trays[n] for n in names if n in self.trays],
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
        the view lost track)."""
        if tray.state != "up":
            self._put(tray)
            return
        seq, snap = tray.call("snapshot")
        c = cp.decode_snapshot(bytes(snap), None, False)
        for e in tray.call("events", [seq]) if seq < tray.last else ():
            c.apply(bytes(e))
        self.camps[tray.name] = c
        self._put(tray, trackers=ex.trackers(c), system=systems.NAMES[c.system])
        self._screen(tray)

    def _event(self, tray, seq, ev):
        c = self.camps.get(tray.name)
        if c is None or seq <= c.nevents:
            if c is None:
                self._fresh(tray)
            return
        try:
            line, kind, out = ex.live(c, seq, ev, public=True)
        except ValueError:
            self._fresh(tray)
            return
        said = ex.outcome(kind, out)
        roll = {
            "seq": seq,
            "line": line.strip(),
            "faces": list(out.faces) if out else [],
            "outcome": None if said is None or said["hidden"] else said,
        }
        with self.changed:
            v = self._view(tray)
            v["recent"] = ([roll] + v["recent"])[:RECENT]
        t = ex.trackers(c)
        self._put(tray, trackers=t)
        if self.forward is not None:
            self.forward.put(record(tray, c, seq, ev, roll, t))
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
