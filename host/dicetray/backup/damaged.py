"""A backup of a damaged journal: every event that reads
is kept, every gap is named (docs/backup.md, "When the device's journal
is damaged").

    p = plan(st, prev, e, dev, fetch, resumed, hasher, system, cid)

`e` is the client's JournalDamaged: every event the read gave (None for
each damaged one), the damaged ranges and the journal segments' bases.
The plan is written by BackupStore.write in one transaction:

- the events before the first damage: a version of their own where they
  continue a history (from event 1, or the newest backup) and fold
  (`p.before`);
- the device's state (its snapshot) with the events after the last
  damage: the new version, a baseline (`p`);
- every other run of events that read (between two damaged records, or
  before the first where it continues nothing stored): kept with that
  version (`p.runs`), never folded and never a version (no state before
  it is known), its hash chain checked from the heads the device recorded
  at the bases of its journal segments where it has any (Kept).
"""

from ..fwstore import chain
from ..rules import campaign as cp
from .db import StoreError
from .plan import TakePlan
from .take import (
    Mismatch,
    chain_of,
    events_sha,
    fold_on,
    prev_head,
    device_head,
    snapshot_bytes,
)


class Kept:
    """A run of events read between damaged records, as it is stored
    (BackupStore._insert_run): `first`, `events`, the chain's head after
    each (`links`, None where unknown), `anchor` (the event after which
    the device recorded the head it starts from, `head` that head in hex;
    None: not chained), `checked` (the last event a head the device
    recorded confirmed; None: none) and `gap` (the damage around it and
    what its chain showed, in words)."""

    def __init__(self, first, events, gap):
        self.first, self.events, self.gap = first, events, gap
        self.last = first + len(events) - 1
        self.links = [None] * len(events)
        self.anchor = self.head = self.checked = None
        self.broken = False


def spans(e):
    """The events JournalDamaged `e` read, as (first seq, [events]) runs
    between its damaged ranges, oldest first."""
    out: list[tuple[int, list[bytes]]] = []
    run: list[bytes] = []
    since = e.since or 0
    for i, ev in enumerate(e.events or ()):
        if ev is None:
            if run:
                out.append((since + i + 1 - len(run), run))
            run = []
        else:
            run.append(bytes(ev))
    if run:
        out.append((since + len(e.events) + 1 - len(run), run))
    return out


def plan(st, prev, e, dev, fetch, resumed, hasher, system, cid):
    """take()'s plan for a journal that read with damage `e` (prev,
    resumed, hasher: the newest backup take() builds on, as there): the
    baseline of the device's state with the events after the damage,
    carrying the version before the damage and the runs between."""
    runs = spans(e)
    before = _before(st, prev, e, runs, resumed, hasher, system, cid)
    return _intact(st, prev, e, dev, fetch, runs, before)


def _before(st, prev, e, runs, resumed, hasher, system, cid):
    """The events a damaged journal gave before its first damage, as a
    version of their own where they continue a history (event 1 on, or
    the newest backup `prev`) and fold: (plan, last, state, digest, fold,
    head, links) for BackupStore.write, or None. Their state is this
    host's fold of them: the device's own is at its snapshot, after the
    damage (_intact)."""
    if e.since is None or not runs or runs[0][0] != e.since + 1:
        return None
    run = runs[0][1]
    p = TakePlan()
    if prev is None:
        if e.since != 0:
            return None
    else:
        a = prev.last
        if e.since == a - 1 and a > prev.base_seq and run[0] == prev.anchor:
            run = run[1:]  # the stored event it starts from, the same
        elif not (e.since == a == prev.base_seq):
            return None
        p.camp, p.prev = prev.lineage, prev.id
        p.base_seq, p.base_snap, p.base_id = prev.base_seq, prev.base_snap, prev.base
        p.first, p.old, p.new_from = prev.first, prev.events, a + 1
        p.resume, p.hasher, p.prev_head = resumed, hasher, prev_head(st, prev)
    if not run:
        return None
    p.new = run
    last = p.new_from - 1 + len(run)
    try:
        c = fold_on(st, p, system, cid, p.resume, p.new)
    except Mismatch:
        return None  # they do not fold: not a history to keep as one (a run, then)
    p.notes.append(
        "events %d..%d read from the device before its damaged journal (events %d..%d "
        "could not be read): their state is this host's fold of them; the next version "
        "holds the device's own state and the events after the damage"
        % (p.new_from, last, e.seq, e.last)
    )
    head, links = chain_of(st, p, None, last)
    return (
        p,
        last,
        cp.encode_state(c),
        events_sha(st, p),
        c,
        head.hex() if head is not None else None,
        links,
    )


def _intact(st, prev, e, dev, fetch, runs, before):
    """A baseline of what a damaged journal leaves readable (e: the
    client's JournalDamaged): the device's snapshot with the events after
    the damage that read (from the last damaged range on), in the lineage
    it continues (`before`'s, or prev's where nothing read overlaps prev;
    else a new one), carrying `before` and every
    other run read (Kept), with a note naming the damage and where each
    event that read is kept."""
    p = TakePlan()
    if before is not None:
        p.camp = before[0].camp  # None: the lineage `before` makes (BackupStore.write)
        p.before = before
    snap = snapshot_bytes(dev.snapshot())
    try:
        p.base_seq = cp.decode_snapshot(snap, None, False).nevents
    except ValueError as err:
        raise StoreError(
            "%s, and the device's snapshot does not decode (%s): backup not taken" % (e, err)
        )
    gaps = sorted(e.gaps)
    top = max(g[1] for g in gaps)
    if p.base_seq < top:
        raise StoreError(
            "backup not taken: %s, and its snapshot (event %d) is older: nothing "
            "was stored; a backup that holds them restores the campaign" % (e, p.base_seq)
        )
    p.base_snap = snap
    p.base_head = device_head(dev, p.base_seq)
    kept = runs[-1] if runs and runs[-1][0] > top else None
    if kept is not None and kept[0] <= p.base_seq + 1:
        p.first = p.new_from = kept[0]
        p.new = kept[1]
    else:
        kept = None
        p.first = p.new_from = p.base_seq + 1
        p.new = fetch(p.base_seq)
    p.baseline = True
    keep = [r for r in runs if r is not kept and (before is None or r is not runs[0])]
    parted = None
    if before is None and prev is not None:
        if min([p.first] + [r[0] for r in keep]) > prev.last:
            p.camp = prev.lineage  # all past what prev holds: nothing of it to differ
        else:
            # What was read overlaps prev and could not be compared with it
            # through the damage (its first event not read, or not prev's):
            # a lineage of its own, as a history that differs gets.
            p.parent, p.fork = prev.lineage, 0
            parted = (
                "the events read are not shown to continue backup %d through the damage: "
                "stored as a new lineage (older versions are kept)" % prev.id
            )
    said: list = [  # words, and a callable given the ids written before it (_write)
        "the device's journal is damaged: %s could not be read; this version keeps every "
        "event that reads: the device's state at event %d (its snapshot) and the events "
        "from %d on"
        % (
            ", ".join("events %d..%d (%s)" % (g[0], g[1], _where(g)) for g in gaps),
            p.base_seq,
            p.first,
        )
    ]
    if parted is not None:
        said.append(parted)
    if before is not None:
        lo, hi = e.since + 1, before[1]
        said.append(
            lambda ids: "events %d..%d, before the damage, are in backup %d" % (lo, hi, ids[0])
        )
    bases = sorted(set((getattr(e, "bases", None) or []) + [g[2] for g in gaps]))
    for r in keep:
        k = Kept(r[0], r[1], _around(r[0], r[0] + len(r[1]) - 1, gaps))
        _chained(k, dev, bases)
        p.runs.append(k)
        if k.broken:
            said.append("events %d..%d, %s" % (k.first, k.last, k.gap))
    if p.runs:
        said.append(
            "events %s, read between damaged events, are kept with this version as they "
            "read, not folded: no state before them is known (`dicetray backups show` of "
            "this version names each and its gaps)"
            % ", ".join("%d..%d" % (k.first, k.last) for k in p.runs)
        )
    said.append(
        "the damaged events are only in an earlier backup, if one holds them (`dicetray backups`)"
    )
    p.notes.append(lambda ids: "; ".join(s if isinstance(s, str) else s(ids) for s in said))
    return p


def _where(g):
    """A damaged range's segment and what failed, in words."""
    return "j%08x.log: %s" % (g[2], g[3])


def _around(first, last, gaps):
    """The damaged ranges around events first..last, in words."""
    lo = ["%d..%d (%s)" % (g[0], g[1], _where(g)) for g in gaps if g[1] < first][-1:]
    hi = ["%d..%d (%s)" % (g[0], g[1], _where(g)) for g in gaps if g[0] > last][:1]
    if lo and hi:
        return "read between damaged events %s and %s" % (lo[0], hi[0])
    if lo:
        return "read after damaged events %s" % lo[0]
    # gaps is never empty: a run with none before it has one after it
    return "read before damaged events %s, where no stored history that folds leads to them" % hi[0]


def _chained(k, dev, bases):
    """Chain run `k` from the heads the device recorded at the bases of
    its journal segments within it (Device.chain): from the first, each
    later one checked. Sets k's links, anchor, head, checked and adds to
    its gap what that showed; a chain that does not reach a recorded head
    leaves the run unchained (`broken`)."""
    got = {}
    for s in bases:
        if k.first - 1 <= s <= k.last:
            h = chain.ZERO if s == 0 else device_head(dev, s)
            if h is not None:
                got[s] = h
    start = min((s for s in got if s < k.last), default=None)
    if start is None:
        k.gap += "; not chained: the device recorded no hash chain head within them"
        return
    h, links, checked = got[start], list(k.links), None
    if start >= k.first:
        links[start - k.first] = h  # the head after it is the one recorded
    for s in range(start + 1, k.last + 1):
        h = chain.link(h, s, k.events[s - k.first])
        links[s - k.first] = h
        if s in got:
            if got[s] != h:
                k.broken = True
                k.gap += (
                    "; not chained: they do not lead from the hash chain head the device "
                    "recorded after event %d to the one it recorded after event %d (its "
                    "journal there is not what it chained: `dicetray verify`)" % (start, s)
                )
                return
            checked = s
    k.links, k.anchor, k.head, k.checked = links, start, got[start].hex(), checked
    k.gap += "; their hash chain from the head the device recorded after event %d, %s%s" % (
        start,
        "checked against the one it recorded after event %d" % checked
        if checked is not None
        else "with no later head recorded within them to check it against",
        "" if start <= k.first else " (events %d..%d before it not chained)" % (k.first, start - 1),
    )
