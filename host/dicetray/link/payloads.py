"""The link's requests and answers as bytes (docs/protocol.md), made and
read one way for both clients of a tray: the host's (session.py, reads.py,
client.py) and the web page's (web/trayclient.py), which loads this file
as a top-level module beside the firmware's packages (tools/web.py builds
it into the site). So it is MicroPython: no typing, nothing of CPython
alone, no I/O; a request is something a caller sends and the reads are
generators that yield each request and are sent its answer, so the host
(blocking on its port) and the page (resumed by the tab) drive the same
code. A bad answer or request is a ValueError, which each client says in
its own words.
"""

import json
from binascii import crc32
from struct import pack

if __name__.startswith("dicetray."):  # the host package
    from ..rules import batch, codec
    from . import frame as fr
else:  # the page: the firmware's packages are top-level there
    from link import frame as fr  # type: ignore[no-redef]
    from rules import batch, codec  # type: ignore[no-redef]


def ints(*vals):
    """The varints of `vals`: most requests' payload, or its head."""
    out = bytearray()
    for v in vals:
        codec.put_int(out, v)
    return bytes(out)


def request(seq, typ, payload):
    """(the next request number after `seq`, the frame of request `typ`
    with it). ValueError: the frame is over the device's limit."""
    seq = seq % 0xFFFF + 1
    line = fr.encode(typ, seq, payload)
    if len(line) > fr.MAX_REQ:
        raise ValueError(
            "request of %d bytes exceeds the %d-byte frame limit" % (len(line), fr.MAX_REQ)
        )
    return seq, line


def frame(line):
    """The (type, seq, payload) of a line Lines cut from the port, or None:
    torn or damaged (a retry asks for it again)."""
    if line is None:
        return None
    try:
        return fr.decode(bytes(line))
    except ValueError:
        return None


def at_repl(seen):
    """Whether the bytes read outside frames show MicroPython's REPL (its
    prompt, or the raw REPL's banner): the app is not running."""
    return b">>> " in seen or b"raw REPL; CTRL-B to exit" in seen


def hello(host):
    """HELLO's body: the protocol this side speaks, and who it is."""
    return json.dumps({"protocol": fr.PROTOCOL, "host": host}).encode()


def pushed(p):
    """(seq, event) of a PUSH frame's payload."""
    s, i = codec.get_int(p, 0)
    return s, bytes(p[i:])


def snapshot():
    """Reads the device's snapshot in SNAP pages: yields (SNAP, payload),
    is sent each answer; returns (seq, encode_snapshot bytes after event
    seq). Starts over when another client made the device take a new one
    meanwhile."""
    while True:
        p = yield fr.SNAP, ints(0)
        seq, i = codec.get_int(p, 0)
        total, i = codec.get_int(p, i)
        _off, i = codec.get_int(p, i)
        data = bytearray(p[i:])
        while len(data) < total:
            p = yield fr.SNAP, ints(len(data))
            s2, i = codec.get_int(p, 0)
            t2, i = codec.get_int(p, i)
            o2, i = codec.get_int(p, i)
            if (s2, t2, o2) != (seq, total, len(data)):
                break  # a new snapshot under this one: again
            data.extend(p[i:])
        else:
            return seq, bytes(data)


def events_request(since):
    """EVENTS' payload: as many events after `since` as the device's RAM gives."""
    return ints(since, fr.EV_RAM)


def events_page(p, since):
    """(n, head, offset of its n events) of an EVENTS answer to
    events_request(since); head is the device's last event. ValueError: an
    answer from another event than since+1."""
    first, i = codec.get_int(p, 0)
    n, i = codec.get_int(p, i)
    head, i = codec.get_int(p, i)
    if first != since + 1:
        raise ValueError("answered events from %d, not %d" % (first, since + 1))
    return n, head, i


def segments(p):
    """(head, bases) of a SEGS answer: the device's last event and the base
    of every journal segment it holds (the seq before its first record),
    oldest first."""
    head, i = codec.get_int(p, 0)
    n, i = codec.get_int(p, i)
    bases = []
    b = 0
    for _ in range(n):
        d, i = codec.get_int(p, i)
        b += d
        bases.append(b)
    return head, bases


def log_request(base, off, pages):
    """LOG's or LOGB's payload: `pages` segments' pages from segment `base`
    at offset `off`."""
    return pack("<IIB", base, off, pages)


def restore_begin(snapshot, count, seq, first, head=None):
    """R_BEGIN's body: a snapshot after event `seq`, then `count` events
    numbered from `first`; `head` (hex), the hash chain's head after seq,
    for a restore from past event 1."""
    d = {"seq": seq, "first": first, "count": count, "size": len(snapshot)}
    d["crc"] = crc32(snapshot) & 0xFFFFFFFF
    if head is not None and first > 1:
        d["head"] = head
    return json.dumps(d).encode()


def restore_requests(snapshot, events, first):
    """The requests of a restore between R_BEGIN and R_COMMIT, each as
    large as a request may be: (R_SNAP, payload, 0) for the snapshot's
    chunks, then (R_EVENTS, payload, events sent with it). ValueError: an
    event too large for any request."""
    room = fr.MAX_REQ_PAYLOAD - 5
    off = 0
    while off < len(snapshot):
        chunk = snapshot[off : off + room]
        yield fr.R_SNAP, ints(off) + chunk, 0
        off += len(chunk)
    k = 0
    while k < len(events):
        data, n = batch.pack(events, k, room)
        yield fr.R_EVENTS, ints(first + k) + data, k + n
        k += n
