"""Restoring a backup onto a device, as a script would: plan, then apply.

    from dicetray import backup
    from dicetray.ops import restore
    st = backup.BackupStore()
    with Device.open() as dev:
        p = restore.plan(st, 3, dev)         # reads the device, changes nothing
        print("\\n".join(p.lines))            # what it would do, in words
        done = restore.apply(p, dev)         # sends, then reads it all back
        print(done.line)

`dicetray restore` is these two calls with a question between them
(cli/backups.py); every refusal is a RestoreError whose text says what is
wrong and what to do, and none leaves the device changed: the device
stages the backup beside its campaign and swaps it in with one rename,
once it reads back as a boot would (docs/backup.md, docs/protocol.md).

The campaign slots: the restored campaign becomes the current one, in the
slot after the highest; every copy of it the device holds (the same
campaign id and rule system: its current campaign, or another slot) is
deleted, so a campaign is never in two slots; every other campaign, the
one the restore displaces included, stays in its slot.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the types a script sees; nothing of them is imported to run
    from ..backup import Backup, BackupStore
    from ..link.tray import Tray
    from ..rules.campaign import Campaign

    Progress = Callable[..., contextlib.AbstractContextManager]

from .. import backup as bk
from ..campaign import export as ex
from ..rules import campaign as cp


@contextlib.contextmanager
def _quiet(label, total=None):
    yield None


class RestoreError(Exception):
    """A restore refused or not verified: the text says why and what to do."""


class Interrupted(KeyboardInterrupt):
    """A Ctrl-C during apply(): the text says whether the device holds the
    backup or its old campaign (asked when it can be) and how to check."""


def device_state(dev: Tray) -> Campaign:
    """The device's campaign, decoded from its snapshot."""
    snap = bk.snapshot_bytes(dev.snapshot())
    try:
        return cp.decode_snapshot(snap, None, False)
    except ValueError as e:
        raise RestoreError(
            "the device's snapshot does not decode (%s): upgrade the host tool "
            "or the firmware so they match" % e
        ) from None


class Plan:
    """What restoring backup `backup` onto the device would do: `lines`
    (the words), the payload it sends (`snap`, `events` numbered from
    `first`, the snapshot at `seq`, the last event `last`), the device's
    campaign slots before it (`slots`: Device.campaigns())."""

    def __init__(
        self,
        b: Backup,
        info: dict[str, Any],
        dc: Campaign,
        snap: bytes,
        events: list[bytes],
        seq: int,
        first: int,
        lines: list[str],
        slots: dict[str, Any],
    ):
        self.backup = b
        self.info = info  # the device's, when planned
        self.device = dc  # its campaign then
        self.snap, self.events, self.seq, self.first = snap, events, seq, first
        self.last = first + len(events) - 1
        self.lines = lines
        self.slots = slots


class Done:
    """A restore that verified: what the device now holds (`held`..`last`)
    in `line`, and its campaign slots now (`after`) in `slots_line`."""

    def __init__(self, p: Plan, held: int, chained: bool, after: dict[str, Any]):
        self.plan = p
        self.held = held
        self.chained = chained  # the device's hash chain head was compared too
        self.after = after
        b, last = p.backup, p.last
        self.line = "restored backup %d: campaign %d (%s), state after event %d verified%s; %s" % (
            b.id,
            b.cid,
            ex.system_name(b.system),
            last,
            ", and its hash chain head" if chained else "",
            holds_done(b, held, last),
        )
        self.slots_line = slots_done(p.slots, after, b)


def plan(
    st: BackupStore,
    bid: int,
    dev: Tray,
    force_schema: bool = False,
    force_system: bool = False,
    progress: Progress = _quiet,
) -> Plan:
    """The Plan of restoring backup `bid` of store `st` onto the open
    device `dev`: nothing is sent. RestoreError when the backup does not
    fit the device (another state schema or rule system) unless forced.
    `progress(label, total)`: a context manager giving a callback
    (done, total) for each long read (progress.Progress is one)."""
    b = st.load(bid)
    bsys = ex.system_name(b.system)
    info = dev.info()
    problems = []
    if info["schema"] != b.schema:
        if not force_schema:
            raise RestoreError(
                "backup %d has state schema %d, the device reads %d: upgrade the "
                "%s, or add --force-schema"
                % (
                    b.id,
                    b.schema,
                    info["schema"],
                    "firmware"
                    if b.schema > info["schema"]
                    else "backup (take it again with this tool)",
                )
            )
        problems.append("schema %d over %d (forced)" % (b.schema, info["schema"]))
    if info["system"] != bsys:
        if not force_system:
            raise RestoreError(
                "backup %d is %s campaign and the device runs %s: add --force-system to "
                "restore it anyway (it becomes the current campaign; the device's %s "
                "campaign stays in its slot)"
                % (b.id, ex.article(bsys), info["system"], info["system"])
            )
        problems.append("system %s replaces %s (forced)" % (bsys, info["system"]))
    dc = device_state(dev)
    rows = st.list()
    backed = [
        r
        for r in rows
        if r["campaign"] == dc.cid
        and r["last"] == dc.nevents
        and r["state_sha256"] == bk.sha(cp.encode_state(dc))
    ]
    slots = dev.campaigns()
    snap, events, seq, first = st.restore_payload(b.id, loaded=b)
    last = first + len(events) - 1
    lines = [
        "device  %s: campaign %d (%s), %s"
        % (info.get("device"), dc.cid, info["system"], ex.plural(dc.nevents, "event")),
        "backup  %d: campaign %d (%s), %s (%d..%d)"
        % (b.id, b.cid, bsys, ex.plural(b.last, "event"), b.first, b.last),
    ]
    lines += holds_plan(b, first, last, info.get("keep"))
    lines += slots_plan(slots, b, rows)
    if not backed and dc.nevents and (dc.cid, dc.system) == (b.cid, b.system):
        lines.append(
            "warning: the device's current campaign is in no backup: "
            "`dicetray backup` first to keep it"
        )
    if dc.system == b.system:
        ch = ex.diff_trackers(ex.trackers(dc), ex.trackers(b.fold()), b.system)
        lines.append("%s%s" % (ex.plural(len(ch), "tracker change"), ":" if ch else ""))
        lines += ["  " + x for x in ch]
    lines += discarded(dev, info, dc, b, progress)
    lines += ["note: " + x for x in problems]
    return Plan(b, info, dc, snap, events, seq, first, lines, slots)


def apply(p: Plan, dev: Tray, progress: Progress = _quiet) -> Done:
    """Send Plan `p` to `dev`, then read the device back: the Done when its
    state, head and every event it holds are the backup's; RestoreError
    otherwise (the backup is unchanged). `progress` as plan's."""
    b, first, last = p.backup, p.first, p.last
    # The device stages everything in a new store and verifies it as a
    # boot reads it before one rename swaps it in (docs/backup.md): a
    # refusal or a lost link before that rename leaves the device as it
    # was. What follows reads the result back.
    try:
        with progress("sending backup %d" % b.id, len(p.events)) as cb:
            new = dev.restore(
                p.snap,
                p.events,
                p.seq,
                first=first,
                progress=cb,
                head=bk.unhex(b.base_head) if first > 1 else None,
            )
    except KeyboardInterrupt:
        raise Interrupted(cut_short(p, dev)) from None
    except Exception as e:
        if getattr(dev, "restore_stage", None) != "commit":
            raise  # refused, or the link lost, before the swap: the old campaign stays
        raise RestoreError("%s: %s" % (e, cut_short(p, dev))) from None
    try:
        got = device_state(dev)
        held = max(first, dev.info().get("first", first))  # what it kept (it compacts)
        errs = []
        if new.get("events", got.nevents) != last or got.nevents != last:
            errs.append(
                "it reports %s, the backup has %d" % (ex.plural(got.nevents, "event"), last)
            )
        if cp.encode_state(got) != cp.encode_state(b.fold()):
            errs.append("its state differs from the backup's")
        if new.get("head") and b.head and new["head"] != b.head:
            errs.append("its hash chain head differs from the backup's")
        if not errs and held <= last:
            with progress("reading back events", last - held + 1) as cb:
                back = dev.events(held - 1, cb)
            if [bytes(e) for e in back] != p.events[held - first :]:
                errs.append("its events %d..%d differ from the backup's" % (held, last))
        after = dev.campaigns()  # its slots now: the copies the device replaced
    except KeyboardInterrupt:
        raise Interrupted(
            "the restore took (the device answered that it swapped backup %d in); reading "
            "it back was cut short: `dicetray verify --backup %d` checks it" % (b.id, b.id)
        ) from None
    if errs:
        raise RestoreError(
            "restore of backup %d did not verify: the device %s; the backup is "
            "unchanged: restore again or onto another device" % (b.id, "; ".join(errs))
        )
    return Done(p, held, bool(new.get("head") and b.head), after)


def cut_short(p: Plan, dev: Tray) -> str:
    """Whether the device holds backup p.backup or its old campaign after
    a restore of Plan `p` was cut short (a Ctrl-C, a lost link), in words:
    known when the device was never told to swap, else asked (once; a
    device that does not answer is said to be either, nothing in between,
    as the swap is one rename), with the command that checks."""
    b = p.backup
    check = "`dicetray verify --backup %d` says whether the device holds it" % b.id
    stage = getattr(dev, "restore_stage", None)
    if stage == "sending":
        return (
            "the restore was not done: the device was never told to swap backup %d in, so it "
            "holds its old campaign %d; run the restore again" % (b.id, p.device.cid)
        )
    info = None
    if stage in ("commit", "done"):
        try:
            info = dev.info()
        except (Exception, KeyboardInterrupt):  # the link lost, or a second Ctrl-C
            info = None
    if info is None:
        return (
            "the device %s told to swap backup %d in and could not be asked since: it "
            "holds backup %d or its old campaign %d, nothing in between (the swap is one "
            "rename); %s" % ("was" if stage else "may have been", b.id, b.id, p.device.cid, check)
        )
    now = (info.get("campaign"), info.get("events"), info.get("head"))
    if now[:2] == (b.cid, p.last) and (not now[2] or not b.head or now[2] == b.head):
        return (
            "the restore took: the device holds backup %d (campaign %d, %s); `dicetray "
            "verify --backup %d` checks it event by event"
            % (b.id, b.cid, ex.plural(p.last, "event"), b.id)
        )
    old = p.info
    if now == (old.get("campaign"), old.get("events"), old.get("head")):
        return (
            "the restore was not done: the device answers that it still holds its old "
            "campaign %d (%s); run the restore again" % (p.device.cid, ex.plural(now[1], "event"))
        )
    return (
        "the device now holds campaign %s (%s events): neither backup %d nor its campaign "
        "before the restore; `dicetray status` shows it, %s" % (now[0], now[1], b.id, check)
    )


def holds_plan(b, first, last, keep):
    """What the device will hold after restoring backup b (events
    first..last sent), and what only the backup keeps."""
    out = []
    if first > last:
        out.append(
            "the device will hold the state after event %d and no events: backup %d "
            "starts from the device's snapshot at %d and has none after it" % (last, b.id, last)
        )
    elif b.base_snap is not None:
        out.append(
            "the device will hold events %d..%d (backup %d starts from the device's "
            "snapshot at %d)" % (first, last, b.id, first - 1)
        )
    if b.first < first and first <= last + 1:
        out.append(
            "events %d..%d stay in backup %d only: a restore sends the events after "
            "its snapshot" % (b.first, first - 1, b.id)
        )
    if keep and last - first + 1 > keep:
        out.append(
            "the device keeps about its last %s: it will hold about events %d..%d; "
            "events %d..%d before them stay in backup %d only (the device holds the "
            "state they led to)"
            % (ex.plural(keep, "event"), last - keep + 1, last, first, last - keep, b.id)
        )
    return out


def holds_done(b, held, last):
    """What the device holds after a restore that verified, in words."""
    if held > last:
        return "the device holds no events (backup %d has none after its snapshot at %d)" % (
            b.id,
            last,
        )
    said = "the device holds events %d..%d, verified one by one" % (held, last)
    if held > b.first:
        said += "; events %d..%d are in backup %d only" % (b.first, held - 1, b.id)
    return said


def _copy(t, b):
    """Slot t (a Device.campaigns() slot) holds backup b's campaign."""
    return t["campaign"] == b.cid and t["system"] == ex.system_name(b.system)


def _what(t):
    return "campaign %s%s (%s, %s)" % (
        t["campaign"] if t["campaign"] >= 0 else "unreadable",
        " " + t["name"] if t.get("name") else "",
        t["system"] or "unknown system",
        ex.plural(t["events"], "event"),
    )


def slots_plan(d, b, rows):
    """What restoring backup b does to the device's campaign slots (d:
    Device.campaigns()), in words; `rows` the backups (BackupStore.list())
    that say whether a copy it replaces is kept elsewhere."""
    top = max([t["slot"] for t in d["slots"]] + [d["current"]])
    out = ["the restored campaign becomes the device's current one, in slot %d" % (top + 1)]
    for t in d["slots"]:
        if _copy(t, b):
            out.append(
                "slot %d holds %s of campaign %d (%s): the restore replaces it (a campaign "
                "is in one slot)"
                % (
                    t["slot"],
                    "the device's current copy" if t["current"] else "another copy",
                    b.cid,
                    ex.plural(t["events"], "event"),
                )
            )
            kept = any(r["campaign"] == b.cid and r["last"] >= t["events"] for r in rows)
            if not t["current"] and t["events"] and not kept:
                out.append(
                    "warning: no backup holds as many events as slot %d's copy: `dicetray "
                    "backup --slot %d` first to keep them" % (t["slot"], t["slot"])
                )
        elif t["current"]:
            out.append(
                "the device's current %s stays on the device in slot %d (`dicetray campaigns "
                "switch %d` goes back to it)" % (_what(t), t["slot"], t["slot"])
            )
    others = [str(t["slot"]) for t in d["slots"] if not t["current"] and not _copy(t, b)]
    if others:
        out.append(
            "%s %s %s campaign%s"
            % (
                "slot" if len(others) == 1 else "slots",
                ", ".join(others),
                "keeps its" if len(others) == 1 else "keep their",
                "" if len(others) == 1 else "s",
            )
        )
    return out


def slots_done(before, after, b):
    """The device's campaign slots after restoring backup b, in words,
    against `before` (both Device.campaigns())."""
    now = {t["slot"]: t for t in after["slots"]}
    said = ["the restored campaign is the current one, in slot %d" % after["current"]]
    gone = [t["slot"] for t in before["slots"] if _copy(t, b) and t["slot"] not in now]
    if gone:
        said.append("the copy it replaced in slot %s is deleted" % ", ".join(str(n) for n in gone))
    for t in after["slots"]:
        if t["current"]:
            continue
        if _copy(t, b):  # a reset between the swap and the delete (nothing is lost)
            said.append(
                "slot %d still holds another copy of it: `dicetray campaigns delete %d` frees "
                "it" % (t["slot"], t["slot"])
            )
        else:
            said.append("%s stays in slot %d" % (_what(t), t["slot"]))
    return "; ".join(said)


def discarded(dev, info, dc, b, progress=_quiet):
    """Lines naming the device's events that the restore would discard:
    those after the last event its campaign and backup b share (none when
    the device's current campaign is another one: that one stays)."""
    if (dc.cid, dc.system) != (b.cid, b.system):
        return []
    from ..link.client import JournalDamaged

    dfirst = max(1, info.get("first", 1))
    out = []
    have: list[bytes | None]
    with progress("reading the device's events", dc.nevents - dfirst + 1) as cb:
        try:
            have = [bytes(e) for e in dev.events(dfirst - 1, cb)]
        except JournalDamaged as e:
            # A damaged journal: what reads is compared, the damaged
            # records (None) are named; the restore replaces them all.
            if e.since != dfirst - 1 or e.events is None:
                raise
            have = [None if x is None else bytes(x) for x in e.events]
            out.append(
                "the device's journal is damaged: %s cannot be read; the restore replaces it"
                % ", ".join("events %d..%d" % (g[0], g[1]) for g in sorted(e.gaps))
            )
    common = min(dc.nevents, b.last)
    for s in range(max(dfirst, b.first), common + 1):
        ev = have[s - dfirst]
        if ev is not None and ev != b.events[s - b.first]:
            common = s - 1
            break
    gone = have[max(0, common + 1 - dfirst) :]
    if not gone:
        return out
    line = {}
    for k, ev in enumerate(gone):  # described in runs between the damaged ones
        if ev is not None and (k == 0 or gone[k - 1] is None):
            run = list(itertools.takewhile(lambda x: x is not None, gone[k:]))
            for en in ex.log(dc.system, dc.cid, run, common + 1 + k)[0]:
                line[en.seq] = en.line
    out.append(
        "the device's %s after event %d %s not in backup %d and would be discarded:"
        % (ex.plural(len(gone), "event"), common, "is" if len(gone) == 1 else "are", b.id)
    )
    out += [
        "  event %d: %s" % (s, line.get(s, "damaged on the device: it cannot be read"))
        for s in range(common + 1, common + 1 + len(gone))
    ]
    return out
