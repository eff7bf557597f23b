"""Automatic backup: `dicetray serve --backup-every N` (docs/hub.md).

A sink of the hub: it counts each tray's events and, at every N and at
the end of a scene, takes an incremental backup of that tray into the
usual database, the one `dicetray backup` writes, through the hub like
any other client. A tray that comes up is backed up at once (what it did while away is then safe),
and so is every tray with events not yet backed up when the hub stops
(the end of the session). Backups run on this sink's own thread, one at
a time, so the table never waits for one.
"""

import queue
import threading

from .. import backup as bk
from ..rules import codec, expedition, hunt
from ..link import hubclient as client

# The events that end a scene, by system: hunt's "the scene passes", and
# expedition's long rest (the day's end). Paths of Fate has none: its
# scenes are the table's to call.
SCENE_ENDS = {"hunt": hunt.SCENE_END, "expedition": expedition.LONG_REST}


class AutoBackup:
    """Back up each of `hub`'s trays every `every` events into `db` (None: the default)."""

    def __init__(self, hub, every, db=None, say=print):
        self.hub = hub
        self.every = every
        self.db = db
        self.say = say
        self.count = {}  # tray name -> events since its last backup
        self.done = []  # (tray, backup id, last event): what was taken, for figures and tests
        self.jobs = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="hub-backup", daemon=True)
        self.thread.start()

    def state(self, tray):
        if tray.state == "up":
            self.count[tray.name] = 0
            self.jobs.put(tray.name)

    def event(self, tray, seq, ev):
        n = self.count.get(tray.name, 0) + 1
        self.count[tray.name] = n
        ends = codec.decode_event(ev)[0] == SCENE_ENDS.get((tray.info or {}).get("system"))
        if n >= self.every or ends:
            self.count[tray.name] = 0
            self.jobs.put(tray.name)

    def close(self):
        """The session's end: back up every tray with events since its last
        backup, then stop (waits for it)."""
        for name, n in list(self.count.items()):
            if n:
                self.jobs.put(name)
        self.jobs.put(None)
        self.thread.join(120)

    def _run(self):
        while True:
            name = self.jobs.get()
            if name is None:
                return
            try:
                self._take(name)
            except Exception as e:  # one failed backup: said, and the next one tries again
                self.say("tray %s: automatic backup failed: %s" % (name, e))

    def _take(self, name):
        dev = client.HubDevice(self.hub.reg, tray=name, check_schema=False)
        try:
            st = bk.BackupStore(self.db, create=True)
            try:
                r = st.take(dev)
            finally:
                st.close()
        finally:
            dev.close()
        self.done.append((name, r.backup, r.last))
        if not r.duplicate:
            self.say(
                "tray %s: backup %d taken (campaign %d, up to event %d)"
                % (name, r.backup, r.cid, r.last)
            )
