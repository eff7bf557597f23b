"""The plan of a backup of a damaged journal, pure (data in, plan out):
every event that reads is kept, every gap is named (docs/backup.md,
"When the device's journal is damaged"). Nothing here reads the device
or the database: take.py reads what these functions say they need and
hands it in (take.damaged_plan), as for plan.py.

    runs = spans(e)
    bp = before(prev, e, runs, resumed, hasher)   # then folded by take.py: `folded`
    base_seq = snapshot_seq(e, snap)              # snap: the device's snapshot
    seqs, more = needs(e, runs, folded, base_seq)
    p = intact(prev, e, runs, folded, snap, base_seq, heads, after)
    # heads: {seq: the device's chain head after it} for seqs; after: the
    # device's events after base_seq where `more`, else None

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


def before(prev, e, runs, resumed, hasher):
    """The events a damaged journal gave before its first damage, planned
    as a version of their own where they continue a history (event 1 on,
    or the newest backup `prev`; resumed, hasher: prev's fold and digest,
    as take() has them): the plan, its new events those read, or None.
    take.py folds it (its state is this host's fold of them: the device's
    own is at its snapshot, after the damage) and keeps it only where
    they fold; it fills in prev's chain head (`prev_head`)."""
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
        p.resume, p.hasher = resumed, hasher
    if not run:
        return None
    p.new = run
    p.notes.append(
        "events %d..%d read from the device before its damaged journal (events %d..%d "
        "could not be read): their state is this host's fold of them; the next version "
        "holds the device's own state and the events after the damage"
        % (p.new_from, p.new_from - 1 + len(run), e.seq, e.last)
    )
    return p


def snapshot_seq(e, snap):
    """The event the device's snapshot `snap` is after; StoreError where it
    does not decode or is older than the damage (nothing can be stored)."""
    try:
        seq = cp.decode_snapshot(snap, None, False).nevents
    except ValueError as err:
        raise StoreError(
            "%s, and the device's snapshot does not decode (%s): backup not taken" % (e, err)
        )
    if seq < max(g[1] for g in e.gaps):
        raise StoreError(
            "backup not taken: %s, and its snapshot (event %d) is older: nothing "
            "was stored; a backup that holds them restores the campaign" % (e, seq)
        )
    return seq


def _kept(e, runs, base_seq):
    """The run read after the last damage that the new version holds
    (from base_seq + 1 or before), or None: its events are read after the
    snapshot instead."""
    top = max(g[1] for g in e.gaps)
    kept = runs[-1] if runs and runs[-1][0] > top else None
    return kept if kept is not None and kept[0] <= base_seq + 1 else None


def _others(runs, kept, folded):
    """The runs kept with the version as read: all but `kept` and the one
    before the damage that became a version of its own (`folded`)."""
    return [r for r in runs if r is not kept and (folded is None or r is not runs[0])]


def _bases(e):
    """The journal segments' bases the read gave and those of its gaps."""
    return sorted(set((getattr(e, "bases", None) or []) + [g[2] for g in e.gaps]))


def needs(e, runs, folded, base_seq):
    """What intact() needs read from the device: (the events after which
    it needs the device's chain head, whether it needs the events after
    its snapshot at base_seq)."""
    kept = _kept(e, runs, base_seq)
    seqs = {base_seq}
    for r in _others(runs, kept, folded):
        seqs.update(s for s in _bases(e) if r[0] - 1 <= s <= r[0] + len(r[1]) - 1 and s)
    return seqs, kept is None


def intact(prev, e, runs, before, snap, base_seq, heads, after):
    """The plan of what a damaged journal leaves readable (e: the client's
    JournalDamaged): a baseline of the device's snapshot `snap` (after
    event base_seq) with the events after the damage that read (from the
    last damaged range on; `after`, the device's events after base_seq,
    where needs() asked for them), in the lineage it continues (`before`'s,
    or prev's where nothing read overlaps prev; else a new one), carrying
    `before` (the folded version before the damage, or None) and every
    other run read (Kept, chained from `heads`: the device's chain head
    after each seq needs() named, None where unknown), with a note naming
    the damage and where each event that read is kept."""
    p = TakePlan()
    if before is not None:
        p.camp = before[0].camp  # None: the lineage `before` makes (BackupStore.write)
        p.before = before
    gaps = sorted(e.gaps)
    p.base_seq, p.base_snap, p.base_head = base_seq, snap, heads.get(base_seq)
    kept = _kept(e, runs, base_seq)
    if kept is not None:
        p.first = p.new_from = kept[0]
        p.new = kept[1]
    else:
        p.first = p.new_from = base_seq + 1
        p.new = after
    p.baseline = True
    keep = _others(runs, kept, before)
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
    bases = _bases(e)
    for r in keep:
        k = Kept(r[0], r[1], _around(r[0], r[0] + len(r[1]) - 1, gaps))
        _chained(k, heads, bases)
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


def _chained(k, heads, bases):
    """Chain run `k` from the heads the device recorded at the bases of
    its journal segments within it (`heads`, Device.chain's): from the first, each
    later one checked. Sets k's links, anchor, head, checked and adds to
    its gap what that showed; a chain that does not reach a recorded head
    leaves the run unchained (`broken`)."""
    got = {}
    for s in bases:
        if k.first - 1 <= s <= k.last:
            h = chain.ZERO if s == 0 else heads.get(s)
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
