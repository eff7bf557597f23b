"""Campaign views for the host: tracker dicts, event names, CSV/JSON export.

An export holds the campaign alone: its id, rule system, state schema, state
(encoded and as readable trackers) and its events. Nothing of the device or
of the moment of export goes in, and every list is in a fixed order, so the
same campaign exports byte for byte the same wherever it lives (docs/backup.md).
"""

import csv
import io
import json

from .rules import campaign as cp
from .rules import codec, systems

FORMAT = "dicetray-export"
FORMAT_VERSION = 1

CORE_KINDS = {cp.UNDO: "UNDO", cp.REDO: "REDO", cp.CHAR_ADD: "CHAR_ADD", cp.TAL_NEW: "TAL_NEW",
              cp.SLASH: "SLASH", cp.UNSLASH: "UNSLASH", cp.CLEAR: "CLEAR", cp.TAL_DEL: "TAL_DEL",
              cp.TAL_CAP: "TAL_CAP", cp.DICE: "DICE"}


def system_name(system):
    """'hunt' for 0 ...; ValueError for an unknown number."""
    return systems.get(system).NAME


def kind_names(system):
    """{kind: NAME} of every event kind of `system`, core kinds included."""
    m = systems.get(system)
    names = dict(CORE_KINDS)
    lo, hi = m.KINDS
    if hasattr(m, "KIND_NAMES"):
        for i, n in enumerate(m.KIND_NAMES):
            names[lo + i] = n
        return names
    # Module constants in the system's kind range, in definition order; limits
    # (MAX_*) and role numbers share the range by accident and are skipped.
    for n, v in vars(m).items():
        if (isinstance(v, int) and lo <= v <= hi and n.isupper() and v not in names
                and not n.startswith(("MAX_", "ROLE_", "DEFAULT_", "_"))):
            names[v] = n
    return names


def kind_name(system, kind):
    return kind_names(system).get(kind, "KIND_%d" % kind)


def kind_number(system, name):
    """Event kind for a name such as 'ROLL' or a number as text; ValueError lists choices."""
    if name.isdigit():
        return int(name)
    names = kind_names(system)
    for k, n in names.items():
        if n == name.upper():
            return k
    raise ValueError("unknown event kind %r for %s: one of %s"
                     % (name, system_name(system), ", ".join(names[k] for k in sorted(names))))


def trackers(c):
    """The campaign's trackers as plain data (fixed order): counters,
    characters with their fields, live talismans by index."""
    m = c.rules
    chars = []
    for i, ch in enumerate(c.chars):
        chars.append({"index": i, "name": ch.name,
                      "fields": dict(zip(m.CHAR_FIELDS, ch.v))})
    tals = []
    for i, t in enumerate(c.tals):
        if t is None:
            continue
        tals.append({"index": i, "name": t.name, "n": t.n, "cap": t.cap, "policy": t.policy,
                     "link": t.link, "role": t.role, "owner": t.owner, "a": t.a, "b": t.b})
    return {"counters": dict(zip(m.COUNTERS, c.x)), "characters": chars, "talismans": tals}


def event_record(system, seq, ev):
    """One event as plain data."""
    kind, args, faces, text = codec.decode_event(ev)
    return {"seq": seq, "kind": kind, "name": kind_name(system, kind), "args": list(args),
            "faces": list(faces), "text": text, "hex": ev.hex()}


def document(system, cid, state, events, first=1):
    """The export as a dict: `state` is encode_state bytes, `events` the
    journal from seq `first` on."""
    c = cp.decode_state(state)
    if c.system != system:
        raise ValueError("state is of system %d, not %d" % (c.system, system))
    return {
        "format": FORMAT, "version": FORMAT_VERSION,
        "campaign": cid, "system": system_name(system), "schema": codec.VERSION,
        "first": first, "last": first + len(events) - 1,
        "events": [event_record(system, first + i, ev) for i, ev in enumerate(events)],
        "state": {"hex": state.hex(), "events": c.nevents, **trackers(c)},
    }


def to_json(doc):
    """Deterministic JSON text (sorted keys, one trailing newline)."""
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


CSV_COLUMNS = ("record", "seq", "kind", "name", "args", "faces", "text", "value")


def to_csv(doc):
    """Deterministic CSV: a header, one `campaign` row per campaign field,
    one `event` row per event, then the state: `counter`, `character`
    (name = "index:name", text = field, value) and `talisman` rows
    (name = "index:name", text = field, value), and the `state` hex."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for k in ("format", "version", "campaign", "system", "schema", "first", "last"):
        w.writerow(("campaign", "", "", k, "", "", "", doc[k]))
    for e in doc["events"]:
        w.writerow(("event", e["seq"], e["kind"], e["name"], " ".join(map(str, e["args"])),
                    " ".join(map(str, e["faces"])), e["text"], e["hex"]))
    st = doc["state"]
    for k, v in st["counters"].items():
        w.writerow(("counter", "", "", k, "", "", "", v))
    for ch in st["characters"]:
        for k, v in ch["fields"].items():
            w.writerow(("character", "", "", "%d:%s" % (ch["index"], ch["name"]), "", "", k, v))
    for t in st["talismans"]:
        for k in ("n", "cap", "policy", "link", "role", "owner", "a", "b"):
            w.writerow(("talisman", "", "", "%d:%s" % (t["index"], t["name"]), "", "", k, t[k]))
    w.writerow(("state", "", "", "events", "", "", "", st["events"]))
    w.writerow(("state", "", "", "hex", "", "", "", st["hex"]))
    return buf.getvalue()


def render(doc, fmt):
    """The export text in `fmt` ('csv' or 'json')."""
    if fmt == "json":
        return to_json(doc)
    if fmt == "csv":
        return to_csv(doc)
    raise ValueError("unknown export format %r: csv or json" % fmt)
