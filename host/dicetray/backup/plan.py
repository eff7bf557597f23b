"""The plan of a backup, pure: from what the device says (its info's
event count `n` and oldest event `dfirst`, its chain head, the events
read) and the newest stored version `prev`, which lineage the device
continues (or a new one where the histories differ), which events are
new, and whether the version starts from the device's snapshot (events
compacted on the device before the host saw them). Nothing here reads
the device or the database: take.py reads what these functions say they
need and hands it in; db/writes.py writes the plan.

    since = continues_from(prev, n, dfirst)   # None: prev is not continued
    evs = <the device's events after `since`>
    p, unseen = continued(prev, since, evs, n, prev_head, dhead, resumed, hasher)
    p = p or forked(prev, prev_events, dfirst, <events after dfirst - 1>, unseen)
"""

from ..fwstore import chain


class TakePlan:
    """What take() will store: the lineage (None: new), its parent and fork,
    the base snapshot, stored history `old` from `first`, fetched `new`
    events from seq `new_from`, notes for the user. When the device
    continues the newest backup (`prev`): `resume`, its campaign (the new
    events fold onto it), `hasher`, its events digest, and `old` None
    until something needs the stored events."""

    def __init__(self):
        self.camp = self.parent = self.fork = None
        self.base_seq, self.base_snap, self.base_id = 0, None, None
        self.first, self.new_from = 1, 1
        self.old, self.new = [], []
        self.notes = []
        self.baseline = False
        self.resume = self.hasher = self.prev = None
        self.prev_head = None  # a continuation: the chain's head after prev's last (bytes)
        self.base_head = None  # a baseline: the device's head after its snapshot (bytes)
        # A damaged journal (damaged.py): the version before its damage,
        # written first in the same transaction, and the runs kept with it
        self.before = None
        self.runs = []


def first(dfirst, evs):
    """The plan of a campaign with no backup yet: its events `evs` (all
    the device holds, read after event 0), or a baseline from the
    device's snapshot where it compacted events before (evs unread: None)."""
    p = TakePlan()
    if dfirst > 1:
        p.notes.append(
            "events 1..%d were compacted on the device before the first "
            "backup: this version starts from the device's snapshot" % (dfirst - 1)
        )
        p.baseline = True
    else:
        p.new = evs
    return p


def compacted(prev, n, dfirst):
    """The plan when the device compacted events after prev's last before
    they were backed up (a baseline in prev's lineage), else None."""
    a = prev.last
    if not (n >= a and dfirst > a + 1):
        return None
    p = TakePlan()
    p.camp = prev.lineage
    p.notes.append(
        "events %d..%d were compacted on the device before they were backed "
        "up: this version starts from the device's snapshot" % (a + 1, dfirst - 1)
    )
    p.baseline = True
    return p


def continues_from(prev, n, dfirst):
    """Where the device may continue prev: the seq its events are read
    after (prev's last but one: the stored event they start from must
    match; prev's last for a baseline version, whose anchor is not
    stored), or None where it cannot (it holds fewer events, or no longer
    the one prev ends on)."""
    a = prev.last
    if n >= a and (dfirst <= a or a == prev.base_seq):
        return a - 1 if a > prev.base_seq else a
    return None


def anchored(prev, since, evs):
    """Whether the events read after `since` (continues_from's) start
    where prev ends: the stored event read again is the same."""
    return since == prev.last or (bool(evs) and evs[0] == prev.anchor)


def continued(prev, since, evs, n, ph, dhead, resumed=None, hasher=None):
    """(plan, unseen): the plan continuing prev with the events read after
    `since`, or None where they do not (the stored event differs, or
    prev's chain head `ph` and the new events do not lead to the device's
    head `dhead` after event n: then `unseen`, the histories differ where
    the bytes were not compared). `resumed`, `hasher`: prev's campaign
    and events digest, where the new events fold and are digested."""
    a = prev.last
    if not anchored(prev, since, evs):
        return None, False
    new = evs[1:] if since < a else evs
    if ph is not None and dhead is not None and chain.over(ph, a + 1, new[: n - a]) != dhead:
        return None, True
    p = TakePlan()
    p.prev_head = ph
    p.camp = prev.lineage
    p.base_seq, p.base_snap, p.base_id = prev.base_seq, prev.base_snap, prev.base
    p.first, p.old, p.new_from, p.new = prev.first, prev.events, a + 1, new
    p.resume, p.hasher, p.prev = resumed, hasher, prev.id
    return p, False


def forked(prev, stored, dfirst, evs, unseen):
    """The plan of a new lineage where the device's history does not
    continue prev's (an older backup restored and played on, a reset...):
    `stored`, prev's events; `evs`, the device's after dfirst - 1;
    `unseen` (continued's): every event both hold may be the same, the
    chains differ."""
    a = prev.last
    p = TakePlan()
    fork = dfirst - 1
    same = True
    for i, ev in enumerate(evs):
        s = dfirst + i
        if s > a or s < prev.first or stored[s - prev.first] != ev:
            same = s > a
            break
        fork = s
    p.parent = prev.lineage
    if unseen and same:
        # Every event both hold is the same, and the chains differ: the
        # difference is before the oldest event the device still holds.
        p.notes.append(
            "the device's history differs from backup %d at or before event %d "
            "(their hash chains differ, every event both hold is the same): "
            "stored as a new lineage from the device's snapshot (older versions "
            "are kept); `dicetray verify` compares them" % (prev.id, dfirst - 1)
        )
        p.fork = 0
        p.baseline = True
        return p
    p.notes.append(
        "the device's history differs from backup %d after event %d: stored as "
        "a new lineage (older versions are kept)" % (prev.id, fork)
    )
    if prev.first == 1 and prev.base is None and fork <= a:
        p.fork, p.old, p.new_from = fork, stored[:fork], fork + 1
        p.new = evs[fork + 1 - dfirst :]
    elif dfirst <= 1:
        p.fork, p.new = 0, evs
    else:
        p.fork = 0
        p.baseline = True
    return p


def device_notes(info):
    """What the device says about its own flash, for the user: every line
    of damage it reports (its boot's, its scrub's: a break in its hash
    chain is one)."""
    return ["the device reports: %s" % d for d in info.get("damage") or ()]


def unchecked(info, read_from):
    """The events the device holds before `read_from` (not read by the
    backup: vouched for by its head) that its scrub has not checked
    against that head in its last whole cycle: (first, last, why in
    words), or None (docs/backup.md, "What each command proves"). None
    too for firmware before the scrub's chain (no verdict to give) and
    after a break (the damage says it)."""
    sc = info.get("scrub")
    first = info.get("first", 1)
    if sc is None or sc.get("broken") or read_from <= first:
        return None
    ch = sc.get("chain")
    if ch and ch[0] <= first and ch[1] >= read_from - 1:
        return None
    if not sc.get("cycles"):
        why = "its scrub has not checked them against it since it booted (it does when idle)"
    elif ch:
        why = "its scrub checked its journal against it over events %d..%d only" % tuple(ch)
    else:
        why = "its scrub found no recorded head to check them from"
    return first, read_from - 1, why
