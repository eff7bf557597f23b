"""`dicetray verify`'s comparison of a backup with a device: every event
the device holds that the backup holds too, byte for byte, read in pages
as a backup reads them, and the hash chain from the backup's head before
the first of them over the device's events, which must lead to the head
the device reports (docs/backup.md, "What each command proves").

    r = against(b, dev, info)   # b: a loaded (verified) Backup; info: dev.info()
    r.holds, r.at, r.why, r.damage, r.compared
    why = unchained(dev, info, first, evs)   # None, or why the device's events
                                             # do not lead to its own head
"""

from ..fwstore import chain
from ..rules import systems
from .history import unhex


class Verdict:
    """What against() found: `holds` (True: the device holds the backup's
    history, every event compared and its head), `at` (the first event
    that differs, or the last before the device's oldest where it cannot
    say which; None), `why` (one line), `damage` (what the device reports
    damaged, and the damaged events a read met), `compared` ([first,
    last] of the events compared byte for byte, or None)."""

    def __init__(self, holds, why, at=None, compared=None, damage=()):
        self.holds, self.why, self.at = holds, why, at
        self.compared = compared
        self.damage = list(damage)


def against(b, dev, info):
    """Compare backup `b` with the device `dev` whose info is `info`."""
    from ..link.client import JournalDamaged

    if info["campaign"] != b.cid or info["system"] != systems.get(b.system).NAME:
        return Verdict(
            False,
            "the device holds campaign %s (%s), backup %d is campaign %d (%s): they are "
            "different campaigns"
            % (info["campaign"], info["system"], b.id, b.cid, systems.get(b.system).NAME),
        )
    damage = list(info.get("damage") or ())
    dh = unhex(info.get("head"))
    if dh is None:
        return _damaged(
            Verdict(
                False,
                "the device has no hash chain for this campaign (its early events were "
                "compacted by firmware before the chain): it cannot be compared; "
                "`dicetray restore %d` gives it one" % b.id,
            ),
            damage,
        )
    heads, _bad = b.walk_chain()  # load() already refused a bad link
    n, dfirst = info["events"], info.get("first", 1)
    lo = max(dfirst, b.first)  # the first event both may hold
    if lo > b.last + 1:
        return _damaged(
            Verdict(
                False,
                "the device's chain cannot be compared with backup %d: the device no longer "
                "holds the events after the backup's last, %d (it holds %d..%d): take a "
                "backup, then verify it" % (b.id, b.last, dfirst, n),
            ),
            damage,
        )
    evs: list = []
    if lo <= n:
        try:
            evs = [bytes(e) for e in dev.events(lo - 1)]
        except JournalDamaged as e:
            evs = list(e.events or ())
            damage += [
                "events %d..%d of its journal cannot be read (j%08x.log: %s)" % tuple(g)
                for g in e.gaps
            ]
        evs = evs[: n - lo + 1]
    hi = min(n, b.last, lo - 1 + len(evs))
    compared = [lo, hi] if lo <= hi else None
    for i in range(hi - lo + 1):
        s = lo + i
        if evs[i] is not None and evs[i] != b.events[s - b.first]:
            return _damaged(_differs(b, s, heads, evs, lo, n, dh, compared), damage)
    # Every event both hold is the same: the backup's head at the last of
    # them, carried over the device's newer events, must be the device's.
    top = min(n, b.last)
    want = _carried(b, heads, top, evs, lo, n)
    if want is None:
        return _damaged(
            Verdict(
                False,
                "the device's chain cannot be compared with backup %d: %s"
                % (
                    b.id,
                    "the backup's chain is not known at event %d" % top
                    if b.head_at(top, heads) is None
                    else "the device's events after %d do not all read" % top,
                ),
                None,
                compared,
            ),
            damage,
        )
    if want != dh:
        if lo > b.first:
            return _damaged(
                Verdict(
                    False,
                    "the device and backup %d differ at or before event %d: every event both "
                    "still hold is the same, and their hash chains are not (the device no "
                    "longer holds the events before %d to say which)" % (b.id, lo - 1, lo),
                    lo - 1,
                    compared,
                ),
                damage,
            )
        return _damaged(
            Verdict(
                False,
                "the device's events %d..%d are backup %d's%s, but they do not lead to the "
                "hash chain head the device reports: its journal no longer holds what it "
                "chained (its scrub names where)"
                % (lo, top, b.id, "" if n == top else " (and it goes on to %d)" % n),
                None,
                compared,
            ),
            damage,
        )
    extra = (
        ""
        if n == b.last
        else (
            "; the backup goes on to event %d" % b.last
            if n < b.last
            else "; the device goes on to event %d (`dicetray backup` keeps them)" % n
        )
    )
    held = "event %d" % lo if compared and lo == hi else "events %d..%d" % (lo, hi)
    return _damaged(
        Verdict(
            True,
            "the device agrees with backup %d: the same history up to event %d (%s "
            "compared byte for byte, and its hash chain head %s)%s"
            % (b.id, n, held if compared else "no event", dh.hex(), extra),
            None,
            compared,
        ),
        damage,
    )


def unchained(dev, info, first, evs):
    """Whether events first.. read from the device (`info`: its info
    before the read) lead to the head it reports, chained from its head
    after first - 1 (the chain's start, or the head it recorded at its
    oldest segment's base: CHAIN): None when they do or when it cannot
    say (a device without a chain, firmware before CHAIN's segment
    heads); else why not, in words (its journal was changed on flash
    after the events were chained)."""
    from .take import device_head

    dh, n = unhex(info.get("head")), info["events"]
    if dh is None or len(evs) < n - first + 1:
        return None
    start = chain.ZERO if first == 1 else device_head(dev, first - 1)
    if start is None or chain.over(start, first, evs[: n - first + 1]) == dh:
        return None
    return (
        "the device's events %d..%d do not lead to the hash chain head it reports: its "
        "journal was changed on its flash after they were chained (its scrub names where; "
        "`dicetray verify` names the event against a backup)" % (first, n)
    )


def _carried(b, heads, top, evs, lo, n):
    """The backup's head after event `top`, carried over the device's
    events top+1..n (evs holds lo..n); None where it cannot be."""
    h = b.head_at(top, heads)
    newer = evs[top + 1 - lo : n + 1 - lo]
    if h is None or None in newer:
        return None
    return chain.over(h, top + 1, newer)


def _differs(b, s, heads, evs, lo, n, dh, compared):
    """The verdict when the device's event `s` is not the backup's: with
    whether the device's head is the backup's all the same (then its
    journal was edited after it was chained: the issue's forged record)."""
    why = (
        "the device and backup %d differ: event %d is not the same (the first that "
        "differs); everything before it is" % (b.id, s)
    )
    if _carried(b, heads, min(n, b.last), evs, lo, n) == dh:
        why += (
            "; the device's hash chain head is the backup's, so its journal's event %d was "
            "changed on its flash after it was chained (its scrub reports the break)" % s
        )
    return Verdict(False, why, s, compared)


def _damaged(v, damage):
    """Verdict `v`, failed and saying so when the device reports damage."""
    v.damage = damage
    if damage:
        v.holds = False
        v.why += "; and the device reports damage: %s" % "; ".join(damage)
    return v
