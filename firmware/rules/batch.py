"""Events batched back to back: (varint len, event)*, as the link's
EVENTS answers and R_EVENTS requests carry them (docs/protocol.md).
Shared by the host tool and the web page's client, which both pack a
restore and unpack a page; the device's server writes its own
(allocation-aware) and never imports this module, so boot does not."""

from . import codec


def pack(events, start, room):
    """(bytes, n): the (varint len, event)* of events[start:] that fit in
    `room` bytes. ValueError if the next one alone does not fit."""
    out = bytearray()
    n = 0
    for ev in events[start:]:
        k = len(ev) + (1 if len(ev) < 64 else 2 if len(ev) < 8192 else 3)
        if len(out) + k > room:
            break
        codec.put_int(out, len(ev))
        out.extend(ev)
        n += 1
    if n == 0 and start < len(events):
        raise ValueError("event %d of %d bytes does not fit in a frame"
                         % (start + 1, len(events[start])))
    return bytes(out), n


def unpack(p, i, n):
    """([n events], next i) from payload p at i; ValueError for a torn page."""
    evs = []
    for _ in range(n):
        m, i = codec.get_int(p, i)
        ev = bytes(p[i:i + m])
        if len(ev) != m:
            raise ValueError("a torn events page: event %d of %d cut short" % (len(evs) + 1, n))
        evs.append(ev)
        i += m
    return evs, i
