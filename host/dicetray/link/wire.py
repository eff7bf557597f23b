"""What the hub and its clients say to each other on the local socket:
one JSON object a line (docs/hub.md, The local socket).

    client: {"token": T, "tray": NAME or null, "call": METHOD, "args": [...], "kw": {...}}
    hub:    {"progress": [k, n]}*  then  {"ok": VALUE}  or  {"err": {"type", "msg", "attrs"}}
            (a "subscribe" call: {"push": [seq, EVENT]} lines until the client hangs up)

Bytes travel as {"$b": base64}; an error as its class name, message and
attributes, so the client raises the same DeviceError kind (JournalDamaged
with its seq, hint, the events it read and its gaps, AnswerLost with its
seq) the device's link would. Where the running hub listens is in its
registration file (`running()`), written by the hub and read by its clients.
"""

import base64
import json
import os
import re
from itertools import accumulate

from ..base.datadir import home

TIMEOUT_S = 600.0  # the longest a call may take (a restore of 20,000 events on a board)
DEPTH = 32  # the deepest nesting a message may have: every call's is 4 or less
TICK_S = 1.0  # a subscriber hears a tick this often, so a client that left is found


def registration():
    """The file a running hub announces itself in."""
    return os.path.join(home(), "hub.json")


def running():
    """The running hub's registration {"pid", "port", "token", ...}, or
    None (a stale file, left by a hub that was killed, is removed)."""
    path = registration()
    try:
        with open(path, encoding="utf-8") as f:
            reg = json.load(f)
        pid = int(reg["pid"])
        int(reg["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        try:
            os.remove(path)
        except OSError:
            pass
        return None
    except PermissionError:
        pass
    return reg


class Unreadable(ValueError):
    """A line that is not read: too long, too deep, or not JSON."""


def pack(v):
    """v with bytes as {"$b": base64} and tuples as lists: JSON-ready."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"$b": base64.b64encode(bytes(v)).decode("ascii")}
    if isinstance(v, (list, tuple)):
        return [pack(x) for x in v]
    if isinstance(v, dict):
        return {str(k): pack(x) for k, x in v.items()}
    return v


def unpack(v):
    """The inverse of pack (lists stay lists)."""
    if isinstance(v, list):
        return [unpack(x) for x in v]
    if isinstance(v, dict):
        if len(v) == 1 and "$b" in v:
            return base64.b64decode(v["$b"])
        return {k: unpack(x) for k, x in v.items()}
    return v


def line(obj):
    """One message as the bytes of its line."""
    return (json.dumps(pack(obj), separators=(",", ":")) + "\n").encode("utf-8")


# A JSON string (its escapes included), and what nesting is made of.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def nesting(raw):
    """How deep the JSON text `raw` (bytes) nests, found without parsing it
    (the brackets outside its strings), so a line of 4,000 "[" is refused
    before the parser recurses into it."""
    shape = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, shape)), default=0)


def loads(raw, depth=DEPTH):
    """The message in the bytes of one line; Unreadable (one line) if it
    nests deeper than `depth` or is not UTF-8 JSON."""
    if nesting(raw) > depth:
        raise Unreadable("a message nested deeper than %d levels" % depth)
    try:
        return unpack(json.loads(raw.decode("utf-8")))
    except (ValueError, RecursionError) as e:
        raise Unreadable("not a JSON message: %s" % e) from None


def read(f, limit=None):
    """The next message from a binary file object, or None at its end;
    `limit`: the longest line taken, in bytes (Unreadable past it, having
    read no more than that)."""
    raw = f.readline(-1 if limit is None else limit + 1)
    if not raw:
        return None
    if limit is not None and len(raw) > limit:
        raise Unreadable("a line longer than %d bytes" % limit)
    return loads(raw)


def error(e):
    """An exception as {"type", "msg", "attrs"}: its plain attributes kept
    (lists too: JournalDamaged's events and gaps; `line` packs their bytes)."""
    attrs = {
        k: v
        for k, v in vars(e).items()
        if isinstance(v, (int, str, list, type(None))) and not k.startswith("_")
    }
    return {"type": type(e).__name__, "msg": str(e), "attrs": attrs}


def rebuild(err, kinds, default):
    """The exception that error() described: the class of that name among
    `kinds` (else `default`), its message and attributes restored."""
    cls = kinds.get(err.get("type"), default)
    e = cls.__new__(cls)
    Exception.__init__(e, err.get("msg") or "the hub gave an error without text")
    for k, v in (err.get("attrs") or {}).items():
        setattr(e, k, v)
    return e
