"""A campaign's log in words: an event as it comes (live), the last ones
(recent), the whole journal folded as the device did (log: an Entry each,
its sentence, outcome and notes), and the runs a damaged journal kept."""

import re
import time

from .. import backup as bk
from ..rules import campaign as cp
from ..rules import codec, expedition, hunt, paths, systems
from .kinds import event_record, kind_name
from .sentences import VERDICTS, Names, lead, plural, verdict_word


def kind_live(c, kind):
    """The kind whose outcome an action reports: REDO reports the action it
    brings back (the newest on `c`'s redo stack)."""
    if kind == cp.REDO and c is not None and c.undone:
        return codec.decode_event(c.undone[-1])[0]
    return kind


def lead_live(system, c, kind, args, text=""):
    """lead() for an action about to apply to campaign `c` as it is now (the
    device's, a live view's): UNDO and REDO name the action they take back
    or bring back."""
    if kind == cp.UNDO and c is not None and c.done:
        k, a, _f, t = codec.decode_event(c.done[-1])
        return "undo: takes back " + lead(system, c, k, a, t)
    if kind == cp.REDO and c is not None and c.undone:
        k, a, _f, t = codec.decode_event(c.undone[-1])
        return "redo: " + lead(system, c, k, a, t) + " again"
    if kind in (cp.UNDO, cp.REDO):
        return "undo" if kind == cp.UNDO else "redo"
    return lead(system, c, kind, args, text)


def live(c, seq, ev, public=False):
    """Event `seq` (bytes `ev`) applied to the live view `c` (watch's, the
    hub page's): (line in words with its number and the rules' notes, the
    kind it reports, the Outcome). `public` (a page the players see): a
    hidden outcome (for the GM's eyes) is left out of the line. ValueError
    if it does not follow (a gap: seq is not c.nevents + 1) or does not
    replay here; `c` is then stale: read it again from the device."""
    if seq != c.nevents + 1:
        raise ValueError("event %d does not follow event %d" % (seq, c.nevents))
    kind, a, _f, text = codec.decode_event(ev)
    said = lead_live(c.system, c, kind, a, text)
    wkind = kind_live(c, kind)
    out = c.apply(ev)
    if kind != cp.UNDO:
        kind = wkind
    faces = list(out.faces) if out is not None else []
    line = sentence(c.system, kind, said, faces, out)
    more = notes(kind, out, said) if kind != cp.UNDO else []
    return _view_line(c.system, seq, kind, said, faces, out, line, more, public), kind, out


def _view_line(system, seq, kind, said, faces, out, line, more, public):
    """A live view's line of event `seq`: its sentence `line` and notes
    `more`; `public`: a hidden outcome is left out."""
    if public and out is not None and out.hidden:
        return "%5d  %s (the outcome is the GM's)" % (
            seq,
            sentence(system, kind, said, faces, None),
        )
    return "%5d  %s%s" % (seq, line, "; " + "; ".join(more) if more else "")


def recent(system, cid, events, first=1, base=None, base_seq=0, n=12, public=False):
    """The last `n` events of a journal (log()'s arguments) as a live view
    says them (live()'s lines), oldest first: [(seq, line, faces,
    outcome())], so a view opened on a tray that already has events shows
    its last rolls at once. [] if the journal does not replay here (the
    view then starts with the next event, as before)."""
    try:
        entries, _c = log(system, cid, events, first, base, base_seq)
    except ValueError:
        return []
    out = []
    for e in entries[-n:] if n > 0 else ():
        line = _view_line(system, e.seq, e.kind, e.lead, e.faces, e.out, e.line, e.notes, public)
        said = outcome(e.kind, e.out)
        hide = said is None or (public and said["hidden"])
        out.append((e.seq, line, e.faces, None if hide else said))
    return out


_LINE_VERDICT = {
    "success": "success",
    "failure": "failure",
    "win": "wins",
    "loss": "loses",
    "tie": "a tie",
    "open": "still open",
}

# Notes that only repeat what the sentence already says.
_SAID = {
    hunt.ROLL: re.compile(r"\d+D( hard)?( keep lower)?: \d+ success(es)?$"),
    hunt.RISK: re.compile(r"Risk die \d+$"),
}


def sentence(system, kind, lead_text, faces, out, side_a="A"):
    """The lead, the faces and, for a roll, its successes and verdict:
    'Ada rolls 3d6 (hard): 6 4 2, 1 success, success' (`side_a`: who
    side A of a versus roll or combat check is)."""
    s = lead_text
    if faces:
        s += ": " + " ".join(map(str, faces))
    words = None
    if out is not None:
        v = verdict_word(kind, out.verdict)
        if kind == paths.TEST and not faces and not out.hidden:
            words = "automatic success"
        elif v is not None and kind in (expedition.VERSUS, expedition.COMBAT):
            words = (
                "a tie" if v == "tie" else "%s %s by %d" % (side_a, _LINE_VERDICT[v], out.margin)
            )
        elif v is not None:
            words = "%s, %s" % (plural(out.successes, "success"), _LINE_VERDICT[v])
        elif kind == cp.DICE:
            words = "total %d" % out.successes
        if words and out.hidden:
            words += " (hidden from the players)"
    if words:
        s += (", " if faces else ": ") + words
    return s


def notes(kind, out, said=""):
    """The rules' notes of an Outcome, less those the sentence already says."""
    if out is None:
        return []
    pat = _SAID.get(kind)
    return [x for x in out.notes if x != said and not (pat and pat.match(x))]


def outcome(kind, out):
    """A roll's outcome as plain data ({successes, verdict, margin, hidden}),
    None for an event that is not a roll."""
    if out is None or kind not in VERDICTS:
        return None
    return {
        "successes": out.successes,
        "verdict": verdict_word(kind, out.verdict),
        "margin": out.margin,
        "hidden": bool(out.hidden),
    }


class Entry:
    """One event of the log as the rules core reads it: `out` its Outcome
    (None when it was not folded), `lead` and `line` its words, `notes`,
    `undid` (an UNDO/REDO: the seq it takes back / brings back, None if
    that is before the log), `undone` (an action taken back and never
    redone: the seq of the UNDO)."""

    def __init__(self, seq, kind, args, faces, text):
        self.seq, self.kind, self.args, self.faces, self.text = seq, kind, args, faces, text
        self.out = None
        self.lead = self.line = ""
        self.notes = []
        self.undid = None
        self.undone = None
        self.folded = False


def log(system, cid, events, first=1, base=None, base_seq=0, depth=bk.HOST_DEPTH):
    """(entries, campaign): every event of `events` (seqs from `first`)
    with its outcome and words, folded by the rules core the way the device
    folded it: from a new campaign (`base` None, `first` 1), or from the
    snapshot `base` (encode_snapshot bytes) after event `base_seq`; events
    up to `base_seq` are described but not folded (no outcome). The
    campaign is the fold's end (None if nothing was folded). ValueError
    names an event that does not replay."""
    entries = []
    for i, ev in enumerate(events):
        kind, args, faces, text = codec.decode_event(ev)
        entries.append(Entry(first + i, kind, list(args), list(faces), text))
    if base is None and first > 1:
        start = len(events)  # nothing to fold from
        c = None
    else:
        start = 0 if base is None else max(0, base_seq - first + 1)
        c = bk.start(system, cid, base, depth)
    for e in entries[:start]:
        _unfolded(system, e)
    if c is None:
        return entries, None
    done = [None] * len(c.done)  # the seq of each effective action (None: before the log)
    undone = [None] * len(c.undone)
    by = {}  # seq -> the UNDO that last took it back
    at = {e.seq: e for e in entries}
    for e in entries[start:]:
        ev = events[e.seq - first]
        if e.kind not in (cp.UNDO, cp.REDO):
            e.lead = lead(system, c, e.kind, e.args, e.text)
        try:
            out = c.apply(ev)
        except ValueError as err:
            if e.kind == cp.UNDO and depth is not None and c.depth is not None:
                return log(system, cid, events, first, base, base_seq, None)
            raise ValueError(
                "event %d (%s) does not replay: %s" % (e.seq, kind_name(system, e.kind), err)
            )
        e.folded = True
        if e.kind == cp.UNDO:
            s = done.pop() if done else None
            undone.append(s)
            e.undid = s
            if s is not None:
                by[s] = e.seq
            e.lead = (
                "undo: takes back event %d, %s" % (s, at[s].lead)
                if s in at
                else "undo: takes back an action from before event %d" % first
            )
            e.out = None
            e.notes = []
        elif e.kind == cp.REDO:
            s = undone.pop() if undone else None
            done.append(s)
            e.undid = s
            e.lead = (
                "redo: event %d again, %s" % (s, at[s].lead)
                if s in at
                else "redo: an action from before event %d again" % first
            )
            e.out = None
            e.notes = notes(out.kind, out)
        else:
            done.append(e.seq)
            undone = []
            e.out = out
        side_a = "A"
        if e.kind == expedition.COMBAT and system == systems.EXPEDITION and e.args:
            side_a = Names(c).who(e.args[0], "the NPC")
        e.line = sentence(system, e.kind, e.lead, e.faces, e.out, side_a)
        if e.kind != cp.REDO:
            e.notes = notes(e.kind, e.out, e.lead)
    live = set(done)
    for s, u in by.items():
        if s not in live and s in at:
            at[s].undone = u
    return entries, c


def _unfolded(system, e):
    """Entry `e` in words with no fold (no state before it is known): its
    sentence, no outcome or notes."""
    e.lead = lead(system, None, e.kind, e.args, e.text)
    e.line = sentence(system, e.kind, e.lead, e.faces, None)
    if e.kind in (cp.UNDO, cp.REDO):
        e.line = e.lead = "undo" if e.kind == cp.UNDO else "redo"


def run_records(system, runs):
    """The runs a backup carries (BackupStore.runs: events a damaged
    journal gave between its damaged records) as export data, each with
    its events in words and `folded` false: no state before them is
    known, so no outcome, notes, session or undone (docs/backup.md)."""
    out = []
    for r in runs:
        seen = utc(r.created)
        evs = []
        for i, ev in enumerate(r.events):
            rec = event_record(system, r.first + i, ev)
            e = Entry(rec["seq"], rec["kind"], rec["args"], rec["faces"], rec["text"])
            _unfolded(system, e)
            rec.update(
                session=None,
                outcome=None,
                notes=[],
                summary=e.line,
                undone=None,
                backup=r.backup,
                seen=seen,
            )
            evs.append(rec)
        out.append(
            {
                "run": r.id,
                "first": r.first,
                "last": r.last,
                "folded": False,
                "gap": r.gap,
                "anchor": r.anchor,
                "checked": r.checked,
                "backup": r.backup,
                "seen": seen,
                "events": evs,
            }
        )
    return out


def utc(t):
    """A backup time (Unix seconds) as ISO 8601 UTC: '2025-03-01T20:15:07Z'."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
