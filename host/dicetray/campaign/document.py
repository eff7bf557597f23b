"""A campaign's export: the document, and its JSON and CSV.

An export holds the campaign alone: its id, rule system, state schema, state
(encoded and as readable trackers) and its events, each with what the rules
core makes of it when it folds the campaign as the device did (outcome,
notes, a sentence, sessions). Nothing of the device or of the moment of
export goes in, and every list is in a fixed order, so the same campaign
exports byte for byte the same wherever it lives (docs/backup.md). An
export of a backup adds when each event was first backed up (`backup`,
`seen`): the one thing only the backup database knows.
"""

import json

from . import tracked
from ..rules import campaign as cp
from ..rules import codec, hunt, systems
from .kinds import event_record, system_name, trackers
from .log import log, outcome, run_records, utc

FORMAT = "dicetray-export"
FORMAT_VERSION = 2


def sessions(system, entries, seen=None):
    """[(session number, first seq, last seq, what ended it or None)] and
    {seq: session number}. A session ends after a hunt SESSION_END that
    stands (not undone), the rules' own end of a session; paths and
    expedition have no such event, so with `seen` (a backup export:
    [(lo, hi, backup id, time)]) a session ends where a backup ended.
    Numbered from 1 at the log's first event."""
    ends = {}
    if system == systems.HUNT:
        for e in entries:
            if e.kind == hunt.SESSION_END and e.undone is None:
                ends[e.seq] = "SESSION_END"
    elif seen:
        for lo, hi, bid, _t in seen:
            ends[hi] = "backup %d" % bid
    out, of = [], {}
    n, lo = 1, None
    for e in entries:
        if lo is None:
            lo = e.seq
        of[e.seq] = n
        if e.seq in ends:
            out.append((n, lo, e.seq, ends[e.seq]))
            n, lo = n + 1, None
    if lo is not None:
        out.append((n, lo, entries[-1].seq, None))
    return out, of


def document(system, cid, state, events, first=1, base=None, base_seq=0, seen=None, runs=()):
    """The export as a dict: `state` is encode_state bytes, `events` the
    journal from seq `first` on, folded from a new campaign or from the
    snapshot `base` after event `base_seq` (events up to it get no
    outcome). `seen` (a backup export only): [(lo, hi, backup id, Unix
    time)], events lo..hi first held by that backup, taken then.
    `runs` (a backup export: BackupStore.runs): the events a damaged
    journal gave between its damaged records, under `runs` (only when
    there are any), never folded. ValueError: an event does not replay,
    or the fold does not end in `state`."""
    c = cp.decode_state(state)
    if c.system != system:
        raise ValueError("state is of system %d, not %d" % (c.system, system))
    entries, end = log(system, cid, events, first, base, base_seq)
    if end is not None and cp.encode_state(end) != state:
        raise ValueError("its events do not fold to its state")
    when = {}
    for lo, hi, bid, t in seen or ():
        for s in range(lo, hi + 1):
            when[s] = (bid, utc(t))
    ss, of = sessions(system, entries, seen)
    recs = []
    for i, e in enumerate(entries):
        r = event_record(system, e.seq, events[i])
        bid, t = when.get(e.seq, (None, None))
        r.update(
            session=of[e.seq],
            outcome=outcome(e.kind, e.out),
            notes=e.notes,
            summary=e.line,
            undone=e.undone,
            backup=bid,
            seen=t,
        )
        recs.append(r)
    doc = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "campaign": cid,
        "system": system_name(system),
        "schema": codec.VERSION,
        "first": first,
        "last": first + len(events) - 1,
        "events": recs,
        "sessions": [
            {
                "session": n,
                "first": lo,
                "last": hi,
                "ended_by": why,
                "seen": when.get(hi, (None, None))[1],
            }
            for n, lo, hi, why in ss
        ],
        "state": {"hex": state.hex(), "events": c.nevents, **trackers(c)},
    }
    if runs:
        doc["runs"] = run_records(system, runs)
    return doc


def to_json(doc):
    """Deterministic JSON text (sorted keys, one trailing newline)."""
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


# The CSV is for a spreadsheet: a header, then one row per event and
# nothing else (the campaign's numbers, its state and every event's bytes
# are in the JSON export). `--state` writes the trackers instead, in the
# game's words (STATE_COLUMNS).
CSV_COLUMNS = (
    "event",
    "session",
    "summary",
    "faces",
    "successes",
    "verdict",
    "margin",
    "notes",
    "undone",
    "kind",
    "text",
    "backup",
    "seen",
)
STATE_COLUMNS = ("tracker", "value", "talisman", "character")


def _blank(v):
    return "" if v is None else v


# CSV injection (OWASP): a spreadsheet runs a cell that begins with one of
# these as a formula, and names and texts are the players' (`=1+1`,
# `@SUM(A1)` are names). Such a text cell is written as text: a leading '
# and the cell quoted. Numbers the tool formats itself are left as they are
# (ints, and the faces column: whole numbers joined by spaces): no formula
# is made of digits alone.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBERS = (CSV_COLUMNS.index("faces"),)


def _csv_cell(i, v, numbers=_NUMBERS):
    s = str(v)
    if isinstance(v, str) and i not in numbers and s.startswith(FORMULA_START):
        s = "'" + s
    elif not any(c in s for c in ',"\r\n'):
        return s
    return '"%s"' % s.replace('"', '""')  # RFC 4180's quoting, as csv.writer's


def _csv(rows, numbers=()):
    """csv.writer's text of `rows`, with _csv_cell's cells."""
    return "".join(
        ",".join(_csv_cell(i, v, numbers) for i, v in enumerate(row)) + "\n" for row in rows
    )


def _event_row(e, note=None):
    """An event's CSV row; `note` (a run's event, not folded) leads its notes."""
    o = e["outcome"] or {}
    return (
        e["seq"],
        _blank(e["session"]),
        e["summary"],
        " ".join(map(str, e["faces"])),
        _blank(o.get("successes")),
        _blank(o.get("verdict")),
        _blank(o.get("margin")),
        "; ".join(([note] if note else []) + e["notes"]),
        _blank(e["undone"]),
        e["name"],
        e["text"],
        _blank(e["backup"]),
        _blank(e["seen"]),
    )


def to_csv(doc):
    """Deterministic CSV for a spreadsheet: the header (CSV_COLUMNS), then
    one row per event in order: its number, session, the sentence, the
    faces, the roll's successes / verdict / margin, the rules' notes joined
    by "; ", the UNDO that took it back, its kind's name (the one `dicetray
    act` takes), its text, and in a backup export the backup that first
    held it and when. A backup's runs (events a damaged journal gave
    between its damaged records) follow as rows of their own, no session
    or outcome, their notes beginning "not folded: " and the gap. Empty
    cells for what does not apply; a text cell that a spreadsheet would run
    as a formula begins with ' (FORMULA_START)."""
    rows = [CSV_COLUMNS] + [_event_row(e) for e in doc["events"]]
    for r in doc.get("runs", ()):
        rows += [_event_row(e, "not folded: " + r["gap"]) for e in r["events"]]
    return _csv(rows, _NUMBERS)


def state_csv(c):
    """The trackers of campaign `c` as CSV (`export --state`): the header
    (STATE_COLUMNS), then a row per tracker in the tray's order and the
    game's words, as `backups show` lists them (tracked.rows, every field):
    its name, its value, and the talisman or character number the commands
    take."""
    rows = [STATE_COLUMNS] + [
        (r["name"], r["value"], _blank(r["tal"]), _blank(r["char"]))
        for r in tracked.rows(c, every=True)
    ]
    return _csv(rows)


def render(doc, fmt):
    """The export text in `fmt` ('csv' or 'json'); state_csv for the trackers."""
    if fmt == "json":
        return to_json(doc)
    if fmt == "csv":
        return to_csv(doc)
    raise ValueError("unknown export format %r: csv or json" % fmt)
