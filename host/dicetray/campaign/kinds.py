"""A campaign's event kinds and trackers for the host: each system's kind
names (the rules' own), a tracker dict of a campaign and the difference
between two, an event as a record (kind, name, args, faces, text)."""

from . import tracked
from ..catalog import events
from ..rules import codec, systems


def system_name(system):
    """'hunt' for 0 ...; ValueError for an unknown number."""
    return systems.get(system).NAME


def kind_names(system):
    """{kind: NAME} of every event kind of `system`, core kinds included."""
    m = systems.get(system)
    names = {}
    for e in events.CORE + events.TABLES[system]:  # the declared events (dicetray rules SYSTEM)
        names[e[0]] = e[1].split(" ")[0]  # a kind with ops ("FOE new", "FOE hit"): FOE
    lo, hi = m.KINDS
    if hasattr(m, "KIND_NAMES"):
        for i, n in enumerate(m.KIND_NAMES):
            names[lo + i] = n
        return names
    # Module constants in the system's kind range, in definition order; limits
    # (MAX_*) and role numbers share the range by accident and are skipped.
    for n, v in vars(m).items():
        if (
            isinstance(v, int)
            and lo <= v <= hi
            and n.isupper()
            and v not in names
            and not n.startswith(("MAX_", "ROLE_", "DEFAULT_", "_"))
        ):
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
    raise ValueError(
        "unknown event kind %r for %s: one of %s"
        % (name, system_name(system), ", ".join(names[k] for k in sorted(names)))
    )


def diff_trackers(a, b, system):
    """Lines of what changed from trackers `a` to trackers `b` of `system`,
    each field in the rules' words (tracked.label), never its identifier."""
    names = {}
    for t in (a, b):
        names.update({("c", c["index"]): c["name"] for c in t["characters"]})
        names.update({("t", x["index"]): x["name"] for x in t["talismans"]})

    def who(i):
        return names.get(("c", i), "character %d" % i)

    def tal(i):
        return names.get(("t", i), "talisman %d" % i)

    def change(what, k, old, new, role=None):
        words, how = tracked.label(system, what, k, role)
        if what == "tal" and k == "role":
            return "%s %s -> %s" % (
                words,
                tracked.role_words(system, old),
                tracked.role_words(system, new),
            )
        return "%s %s -> %s" % (
            words,
            "?" if old is None else tracked.reading(how, old, who, tal),
            tracked.reading(how, new, who, tal),
        )

    out = []
    for k, v in b["counters"].items():
        if a["counters"].get(k) != v:
            out.append(change("counter", k, a["counters"].get(k), v))
    ac = {c["index"]: c for c in a["characters"]}
    for ch in b["characters"]:
        old = ac.pop(ch["index"], None)
        if old is None:
            out.append("character %d %s joins" % (ch["index"], ch["name"]))
            continue
        for k, v in ch["fields"].items():
            if old["fields"].get(k) != v:
                out.append("%s: %s" % (ch["name"], change("char", k, old["fields"].get(k), v)))
    for ch in ac.values():
        out.append("character %d %s is gone" % (ch["index"], ch["name"]))
    at = {t["index"]: t for t in a["talismans"]}
    for t in b["talismans"]:
        old = at.pop(t["index"], None)
        if old is None:
            out.append("talisman %d %s is new: %d/%d" % (t["index"], t["name"], t["n"], t["cap"]))
        elif old != t:
            what = ["%d/%d -> %d/%d" % (old["n"], old["cap"], t["n"], t["cap"])]
            if old["name"] != t["name"]:
                what.append("renamed from %s" % old["name"])
            for k in ("policy", "link", "role", "owner", "a", "b"):
                if old[k] != t[k]:
                    what.append(change("tal", k, old[k], t[k], t["role"]))
            out.append("talisman %d %s: %s" % (t["index"], t["name"], ", ".join(what)))
    for t in at.values():
        out.append("talisman %d %s is deleted" % (t["index"], t["name"]))
    return out


def trackers(c):
    """The campaign's trackers as plain data (fixed order): counters,
    characters with their fields, live talismans by index."""
    m = c.rules
    chars = []
    for i, ch in enumerate(c.chars):
        chars.append({"index": i, "name": ch.name, "fields": dict(zip(m.CHAR_FIELDS, ch.v))})
    tals = []
    for i, t in enumerate(c.tals):
        if t is None:
            continue
        tals.append(
            {
                "index": i,
                "name": t.name,
                "n": t.n,
                "cap": t.cap,
                "policy": t.policy,
                "link": t.link,
                "role": t.role,
                "owner": t.owner,
                "a": t.a,
                "b": t.b,
            }
        )
    return {"counters": dict(zip(m.COUNTERS, c.x)), "characters": chars, "talismans": tals}


def event_record(system, seq, ev):
    """One event as plain data."""
    kind, args, faces, text = codec.decode_event(ev)
    return {
        "seq": seq,
        "kind": kind,
        "name": kind_name(system, kind),
        "args": list(args),
        "faces": list(faces),
        "text": text,
        "hex": ev.hex(),
    }
