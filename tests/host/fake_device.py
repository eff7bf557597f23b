"""An in-process stand-in for `dicetray.link.client.Device`, built on the
real rules core: a campaign with the device's undo window, a seeded Dice,
a journal with seqs that can be compacted, atomic restore, subscribe.

Used by the host tests of backup/restore/export/commands until (and beside)
the real serial client over the simulator.
"""

from dicetray.fwstore import chain
from dicetray.rules import campaign as cp
from dicetray.rules import systems
from dicetray.rules.dice import Dice

try:
    from dicetray.link.client import DeviceError
except Exception:  # the link is being written at the same time
    class DeviceError(Exception):
        """A refused request (message names what was wrong)."""


class FakeDevice:
    def __init__(self, system=0, cid=12345, seed=7, name="fake-1", keep=None):
        self.name = name
        self.keep = keep      # events of journal a restore leaves (None: all), as JOURNAL_KEEP
        self.dice = Dice(seed)
        self.c = cp.Campaign(system, cid, cp.UNDO_DEPTH)
        self.first = 1        # oldest seq still in the journal
        self.journal = []     # events first..nevents
        self.head = chain.ZERO  # the hash chain's head after nevents (None: unknown)
        self.clock = None
        self.pushed = []      # (seq, ev) for subscribe
        self.calls = []
        self.closed = False
        self.fail_restore = None

    # --- the client API ------------------------------------------------------
    def info(self):
        self.calls.append("info")
        d = {"device": self.name, "firmware": "0.1.0", "protocol": 1, "schema": 1,
             "system": systems.NAMES[self.c.system], "campaign": self.c.cid,
             "events": self.c.nevents, "first": self.first,
             "head": self.head.hex() if self.head is not None else None}
        if self.keep is not None:
            d["keep"] = self.keep
        return d

    def snapshot(self):
        self.calls.append("snapshot")
        return cp.encode_snapshot(self.c)

    def chain(self, seq):
        if seq != self.c.nevents:
            raise DeviceError("the device knows its chain's head after event %d, not %d"
                              % (self.c.nevents, seq))
        return self.head

    def events(self, since, progress=None):
        self.calls.append(("events", since))
        if since < self.first - 1:
            raise DeviceError("events %d..%d were compacted: the oldest on the device is %d"
                              % (since + 1, self.first - 1, self.first))
        out = self.journal[since - self.first + 1:]
        if progress:
            progress(len(out), len(out))
        return list(out)

    def restore(self, snap, events, seq, first=1, progress=None, head=None):
        """Like the real client: events numbered from `first`, the snapshot
        at `seq` (first - 1 <= seq < first + len(events))."""
        self.calls.append(("restore", seq, first))
        if self.fail_restore:
            raise DeviceError(self.fail_restore)
        if not first - 1 <= seq < first + len(events):
            raise DeviceError("restore refused: snapshot at %d is outside events %d.." % (seq, first))
        try:
            c = cp.decode_snapshot(snap, cp.UNDO_DEPTH, True)
            if c.nevents != seq:
                raise ValueError("snapshot is at event %d, not %d" % (c.nevents, seq))
            for ev in events[seq - first + 1:]:
                c.apply(ev)
        except ValueError as e:
            raise DeviceError("restore refused: %s" % e)
        self.c, self.journal, self.first = c, [bytes(e) for e in events], first
        start = chain.ZERO if first == 1 else head
        self.head = None if start is None else chain.over(start, first, self.journal)
        self.c.events = []
        if self.keep is not None:   # the device compacts as it stores them
            self.compact(self.keep)
        return self.info()

    def subscribe(self):
        for item in self.pushed:
            yield item

    def act(self, kind, args=(), text=""):
        self.calls.append(("act", kind, tuple(args), text))
        try:
            out = self.c.act(kind, list(args), text, dice=self.dice)
        except ValueError as e:
            raise DeviceError(str(e))
        ev = self.c.events[-1]
        self.journal.append(ev)
        if self.head is not None:
            self.head = chain.link(self.head, self.c.nevents, ev)
        return {"seq": self.c.nevents, "successes": out.successes, "verdict": out.verdict,
                "margin": out.margin, "faces": list(out.faces), "notes": list(out.notes)}

    def set_clock(self, t):
        self.clock = t

    def close(self):
        self.closed = True

    # --- test helpers --------------------------------------------------------
    def compact(self, keep):
        """Drop all but the newest `keep` events from the journal."""
        drop = max(0, len(self.journal) - keep)
        self.journal = self.journal[drop:]
        self.first += drop


def play(dev, n, seed=3):
    """Drive `n` varied actions through dev.act (refusals skipped)."""
    import random
    r = random.Random(seed)
    sysno = dev.c.system
    done = 0
    if not dev.c.chars:
        for name in ("Ada", "Bo"):
            dev.act(cp.CHAR_ADD, (), name)
            done += 1
    while done < n:
        k = r.random()
        try:
            if k < 0.1 and dev.c.done:
                dev.act(cp.UNDO)
            elif k < 0.15:
                dev.act(cp.DICE, (r.choice((4, 6, 8, 20)), r.randint(1, 4)))
            elif sysno == 0:
                if k < 0.7:
                    dev.act(32, (r.randint(-1, 1), r.randint(0, 3), r.randint(0, 3), 0, 0,
                                 r.randint(0, 1), -1))
                else:
                    dev.act(34, (0,))
            elif sysno == 1:
                dev.act(64, (r.randint(-1, 1), r.randint(0, 4), r.randint(0, 4), 0, 0,
                             r.randint(1, 4), 0))
            else:
                if k < 0.7:
                    dev.act(96, (r.randint(0, 4), r.randint(1, 3), 0, 0, 0, 0, 0, -1))
                else:
                    dev.act(109, (0,))
            done += 1
        except DeviceError:
            pass
    return dev
