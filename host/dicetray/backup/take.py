"""Taking a backup: what the device holds against the newest stored
version, planned (plan.py, pure), fetched, folded and checked, then
written in the database's one transaction (BackupStore.write).

    r = take(st, dev)     # what BackupStore(...).take(dev) does

This module does the reading: the events plan.py says it needs (only
those after the newest backup, and the one stored event they start
from, which must match), the device's snapshot for a baseline. The new
events fold onto the newest version's stored fold and must give the
device's own state; the hash chain over them must lead to the device's
own head. The device is read through its API (info, events, snapshot,
chain); the database through BackupStore's reads and its write.
"""

from ..fwstore import chain
from ..rules import campaign as cp
from ..rules import codec, systems
from . import plan
from .db import Overtaken, StoreError
from .eventsdigest import digest
from .history import Sha256, undoes, fold, sha, unhex


def device_head(dev, seq):
    """The device's chain head after event `seq` (bytes), or None where it
    cannot say (firmware before the chain, a head it no longer knows)."""
    from ..link.client import DeviceError

    ask = getattr(dev, "chain", None)
    if ask is None:
        return None
    try:
        return ask(seq)
    except DeviceError:  # an old firmware, or a head it no longer knows
        return None


def snapshot_bytes(s):
    """dev.snapshot() may answer bytes or (seq, bytes)."""
    return s[1] if isinstance(s, tuple) else s


class Result:
    """What take() did: `backup` (the new or the identical old version),
    `duplicate` (True: nothing new, no version added), `fetched` (events
    that crossed the wire), `notes` (gaps, forks)."""

    def __init__(self, backup_id, duplicate, fetched, notes, last, cid, head=None, damage=()):
        self.backup = backup_id
        self.head = head  # the chain's head after `last` (hex; None: unknown)
        self.duplicate = duplicate
        self.fetched = fetched
        self.notes = notes
        self.last = last
        self.cid = cid
        self.damage = list(damage)  # what the device reports damaged (its info's `damage`)
        # (first, last, why): events not read, that the device's scrub has
        # not checked against its head (plan.unchecked); None: none
        self.unchecked = None


class Mismatch(Exception):
    """The fetched history does not fold to the device's state."""


RACES = 5  # backups of the campaign stored while this one was made, before it gives up


def take(st, dev, progress=None, now=None):
    """Back up the device's campaign: fetch only events after the newest
    backup, verify that they fold to the device's state, and store a new
    version in one transaction (or report that nothing changed).

    The newest backup's events are read and checked (CRCs, digest), not
    refolded: the new events fold onto its stored fold. A backup of the
    campaign stored by another run meanwhile (two `backup` runs through
    the hub) is found in the transaction, and this one is made again from
    it: a duplicate of it is no new version."""
    for _ in range(RACES):
        try:
            return _take(st, dev, progress, now)
        except Overtaken:
            pass
    raise StoreError(
        "backup not taken: %d other backups of this campaign were stored while it was "
        "made; nothing was added (run it again)" % RACES
    )


def _take(st, dev, progress, now):
    info = dev.info()
    try:
        system = systems.number(info["system"])
    except ValueError as e:
        raise StoreError("the device runs %s" % e)
    if info["schema"] != codec.VERSION:
        raise StoreError(
            "the device's state schema is %d, this host reads %d: upgrade the %s"
            % (
                info["schema"],
                codec.VERSION,
                "host tool" if info["schema"] > codec.VERSION else "firmware",
            )
        )
    cid, n, dfirst = info["campaign"], info["events"], info.get("first", 1)
    dhead = unhex(info.get("head"))  # the device's chain head after event n
    fetched = [0, n + 1]  # events read; the first of them

    def fetch(since):
        fetched[1] = min(fetched[1], since + 1)
        evs = dev.events(since, progress) if progress else dev.events(since)
        fetched[0] += len(evs)
        return [bytes(e) for e in evs]

    cur = st.newest(cid, system)
    prev, damaged, resumed, hasher, said = None, None, None, None, []
    if cur:
        try:
            prev, resumed, hasher, note = st.resumable(cur[1])
        except StoreError as e:
            damaged = str(e)
        else:
            said = [note] if note else []  # for the user, not the new version's gap
    from ..link.client import JournalDamaged

    try:
        p, c, last = _fetch_and_check(
            st, prev, damaged, n, dfirst, fetch, resumed, hasher, system, cid, dev, dhead
        )
    except JournalDamaged as e:
        # Keep every event that reads (damaged.py): those before the
        # damage as a version of their own where they continue a history,
        # the device's state (its snapshot) with the events after the
        # damage, and every run between as read; the damaged ones named.
        fetched[0] += len([x for x in e.events or () if x is not None])
        p = damaged_plan(st, prev, e, dev, fetch, resumed, hasher, system, cid)
        c, last = _checked(st, p, system, cid, dev, fetch, "%s, and the device's" % e)
    st.stage("fetched")
    state = cp.encode_state(c)
    head, links = chain_of(st, p, dev, last)
    hx = head.hex() if head is not None else None
    said += plan.device_notes(info)
    damage = info.get("damage") or ()
    loose = plan.unchecked(info, fetched[1])
    if (
        prev is not None
        and p.camp == prev.lineage
        and last == prev.last
        and sha(state) == prev.state_sha
        and not p.baseline
        and (prev.head is not None or hx is None)
    ):
        if not st.fold_kept(prev.id):
            st.keep_fold(prev.id, c, hasher)
        r = Result(prev.id, True, fetched[0], said + p.notes, last, cid, prev.head, damage)
    else:
        bid = st.write(p, cid, system, last, state, events_sha(st, p), info, now, c, hx, links, cur)
        r = Result(bid, False, fetched[0], said + p.notes, last, cid, hx, damage)
    r.unchecked = loose
    return r


def damaged_plan(st, prev, e, dev, fetch, resumed, hasher, system, cid):
    """damaged.py's plan for a journal that read with damage `e`, with what
    it asks read: the fold of the events before the damage (the database),
    the device's snapshot, its chain heads, and the events after the
    snapshot where no run read holds them (prev, resumed, hasher: the
    newest backup take() builds on, as there)."""
    from . import damaged as dm

    runs = dm.spans(e)
    folded = None
    bp = dm.before(prev, e, runs, resumed, hasher)
    if bp is not None:
        if prev is not None:
            bp.prev_head = prev_head(st, prev)
        last = bp.new_from - 1 + len(bp.new)
        try:
            c = fold_on(st, bp, system, cid, bp.resume, bp.new)
        except Mismatch:
            c = None  # they do not fold: not a history to keep as one (a run, then)
        if c is not None:
            head, links = chain_of(st, bp, None, last)
            hx = head.hex() if head is not None else None
            folded = (bp, last, cp.encode_state(c), events_sha(st, bp), c, hx, links)
    snap = snapshot_bytes(dev.snapshot())
    base_seq = dm.snapshot_seq(e, snap)
    seqs, more = dm.needs(e, runs, folded, base_seq)
    heads = {s: device_head(dev, s) for s in sorted(seqs)}
    after = fetch(base_seq) if more else None
    return dm.intact(prev, e, runs, folded, snap, base_seq, heads, after)


def events_sha(st, p):
    """The plan's events digest (a hash object): the previous version's
    digest on over the new events, else over its whole history."""
    if p.hasher is not None:
        return digest(p.new_from, p.new, p.hasher)
    return digest(p.first, _history(st, p), Sha256())


def chain_of(st, p, dev, last):
    """(the new version's chain head after `last`, the head after each
    of the plan's new events), None where unknown, from where the
    plan's chain is known: the previous version's head (a
    continuation: only the new events are hashed), the device's head
    at a baseline's snapshot, or event 1. StoreError if the device's
    own head at `last` says otherwise (the events were damaged on the
    way, or the journal does not hold what the device chained)."""
    links = [None] * len(p.new)
    h, k = None, 0  # the head after event p.new_from - 1 + k
    if p.prev_head is not None:
        h = p.prev_head
    elif p.baseline:
        h, k = p.base_head, p.base_seq - p.new_from + 1
    elif p.first == 1 and p.base_snap is None and p.hasher is None:
        old = _history(st, p)[: p.new_from - 1]
        h = chain.over(chain.ZERO, 1, old)
    if h is not None:
        for i in range(k, len(p.new)):
            h = chain.link(h, p.new_from + i, p.new[i])
            links[i] = h
    dh = device_head(dev, last)
    if h is not None and dh is not None and dh != h:
        raise StoreError(
            "backup not taken: the events read from the device do not lead to "
            "the hash chain head it reports after event %d; nothing was stored "
            "(`dicetray verify` compares the device with a backup)" % last
        )
    return h, links


def _fetch_and_check(
    st, prev, damaged, n, dfirst, fetch, resumed, hasher, system, cid, dev, dhead=None
):
    """take()'s plan, fetched and folded: (plan, campaign, last seq)."""
    p = _plan(st, prev, n, dfirst, fetch, resumed, hasher, dhead)
    if damaged:
        p.notes.insert(0, "%s: this version does not build on it" % damaged)
    if not p.baseline:
        try:
            c, last = _check(st, p, system, cid, dev, fetch)
        except Mismatch:
            if dfirst <= 1:
                raise StoreError(
                    "backup not taken: the device's events do not fold to the "
                    "state it reports; nothing was stored"
                )
            p.notes.append(
                "the stored history does not lead to the device's state: "
                "this version starts from the device's snapshot"
            )
            if p.camp is not None:  # not a continuation after all
                p.parent, p.camp, p.fork = p.camp, None, 0
            p.baseline = True
            p.resume = p.hasher = p.prev_head = None
    if p.baseline:
        _baseline(p, dev, dfirst, fetch)
        c, last = _checked(st, p, system, cid, dev, fetch, "the device's")
    return p, c, last


def _plan(st, prev, n, dfirst, fetch, resumed=None, hasher=None, dhead=None):
    """plan.py's plan, with what it needs read: the device's events
    (`fetch`), prev's chain head and its stored events."""
    if prev is None:
        return plan.first(dfirst, fetch(0) if dfirst <= 1 else None)
    p = plan.compacted(prev, n, dfirst)
    if p is not None:
        return p
    unseen = False
    since = plan.continues_from(prev, n, dfirst)
    if since is not None:
        evs = fetch(since)
        ph = prev_head(st, prev) if plan.anchored(prev, since, evs) else None
        p, unseen = plan.continued(prev, since, evs, n, ph, dhead, resumed, hasher)
        if p is not None:
            return p
    if prev.events is None:
        prev.events = st.load(prev.id, verify=False).events
    return plan.forked(prev, prev.events, dfirst, fetch(dfirst - 1), unseen)


def _baseline(p, dev, dfirst, fetch):
    """Start the version from the device's snapshot plus what it still has."""
    snap = snapshot_bytes(dev.snapshot())
    try:
        p.base_seq = cp.decode_snapshot(snap, None, False).nevents
    except ValueError as e:
        raise StoreError("the device's snapshot does not decode (%s): backup not taken" % e)
    p.base_snap, p.base_id = snap, None
    p.base_head = device_head(dev, p.base_seq)
    p.first = p.new_from = dfirst
    p.old = []
    p.new = fetch(dfirst - 1)
    if p.base_seq < dfirst - 1 or p.base_seq > dfirst - 1 + len(p.new):
        raise StoreError(
            "the device's snapshot (event %d) is outside the events it holds "
            "(%d..%d): backup not taken" % (p.base_seq, dfirst, dfirst - 1 + len(p.new))
        )


def _history(st, p):
    """The plan's whole history: its stored events `old` (read now if a
    continuation did not need them) then the new ones."""
    if p.old is None:
        p.old = st.load(p.prev, verify=False).events
    return p.old + p.new


def fold_on(st, p, system, cid, c, more):
    """Apply `more` events to campaign `c` (None: fold the plan's whole
    history from its base). An UNDO beyond c's window (a device with a
    wider one) refolds the whole history; anything else that does not
    apply raises Mismatch."""
    if c is not None:
        for ev in more:
            try:
                c.apply(ev)
            except ValueError:
                if not undoes(ev):
                    raise Mismatch()
                c = None
                break
        if c is not None:
            return c
    events = _history(st, p)
    try:
        return fold(system, cid, p.base_snap, events[p.base_seq - p.first + 1 :])
    except ValueError:
        raise Mismatch()


def _checked(st, p, system, cid, dev, fetch, whose):
    """_check, a mismatch refused in words: `whose` begins the sentence
    that names what did not fold ("the device's", or the damage first)."""
    try:
        return _check(st, p, system, cid, dev, fetch)
    except Mismatch:
        raise StoreError(
            "backup not taken: %s events after its snapshot do not fold to "
            "the state it reports; nothing was stored" % whose
        ) from None


def _check(st, p, system, cid, dev, fetch):
    """Fold the plan's history (only the new events when it resumes the
    newest backup) and compare it with the device's own state (fetching
    what the device added meanwhile). (campaign, last seq); Mismatch."""
    last = p.new_from - 1 + len(p.new)
    c = fold_on(st, p, system, cid, p.resume, p.new)
    for _ in range(4):
        snap = snapshot_bytes(dev.snapshot())
        try:
            d = cp.decode_snapshot(snap, None, False)
        except ValueError as e:
            raise StoreError("the device's snapshot does not decode (%s): backup not taken" % e)
        if d.nevents <= last:
            break
        more = fetch(last)  # the device moved on while we read
        p.new = list(p.new) + more
        last += len(more)
        c = fold_on(st, p, system, cid, c, more)
    if d.nevents != last or cp.encode_state(d) != cp.encode_state(c):
        raise Mismatch()
    return c, last


def prev_head(st, prev):
    """prev's chain head (bytes), computed from its events once if it
    was stored before the chain (None: its chain start is unknown)."""
    h = unhex(prev.head)
    if h is None:
        full = st.load(prev.id, verify=False)
        h = unhex(full.head)
        if prev.events is None:
            prev.events = full.events
    return h
