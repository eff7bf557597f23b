"""What a backup holds, folded and digested: the host's undo window
(HOST_DEPTH), the fold of a campaign from a new one or a device snapshot,
Sha256 for the events digest (eventsdigest.py), whose state can be saved
so the next backup digests only its new events, a chain head's bytes, and
Backup, one verified version as BackupStore.load gives it.

Every fold here keeps an undo window of HOST_DEPTH effective actions (twice
the device's), so an undo refolds at most 2 * HOST_DEPTH actions instead of
the whole history: an operation costs what it touches (show, restore,
export, stats: every event they hold; an incremental backup: its new
events only).
"""

from __future__ import annotations

import hashlib
import struct

from ..fwstore import chain
from ..rules import campaign as cp
from ..rules import codec

# The host's undo window. The device keeps cp.UNDO_DEPTH (k): its window's
# base only moves to k actions below the top when 2k are undoable. With a
# window of 2k on the host, the host's base never passes the device's (at
# the host's slide, the device's base is at most 2k - 1 below the top), so
# every UNDO the device accepted folds here too. Anything else (a device
# with a wider window) is refolded with the whole history: fold(wide=True).
HOST_DEPTH = 2 * cp.UNDO_DEPTH


def sha(b):
    return hashlib.sha256(b).hexdigest()


_K = (
    0x428A2F98,
    0x71374491,
    0xB5C0FBCF,
    0xE9B5DBA5,
    0x3956C25B,
    0x59F111F1,
    0x923F82A4,
    0xAB1C5ED5,
    0xD807AA98,
    0x12835B01,
    0x243185BE,
    0x550C7DC3,
    0x72BE5D74,
    0x80DEB1FE,
    0x9BDC06A7,
    0xC19BF174,
    0xE49B69C1,
    0xEFBE4786,
    0x0FC19DC6,
    0x240CA1CC,
    0x2DE92C6F,
    0x4A7484AA,
    0x5CB0A9DC,
    0x76F988DA,
    0x983E5152,
    0xA831C66D,
    0xB00327C8,
    0xBF597FC7,
    0xC6E00BF3,
    0xD5A79147,
    0x06CA6351,
    0x14292967,
    0x27B70A85,
    0x2E1B2138,
    0x4D2C6DFC,
    0x53380D13,
    0x650A7354,
    0x766A0ABB,
    0x81C2C92E,
    0x92722C85,
    0xA2BFE8A1,
    0xA81A664B,
    0xC24B8B70,
    0xC76C51A3,
    0xD192E819,
    0xD6990624,
    0xF40E3585,
    0x106AA070,
    0x19A4C116,
    0x1E376C08,
    0x2748774C,
    0x34B0BCB5,
    0x391C0CB3,
    0x4ED8AA4A,
    0x5B9CCA4F,
    0x682E6FF3,
    0x748F82EE,
    0x78A5636F,
    0x84C87814,
    0x8CC70208,
    0x90BEFFFA,
    0xA4506CEB,
    0xBEF9A3F7,
    0xC67178F2,
)
_IV = (
    0x6A09E667,
    0xBB67AE85,
    0x3C6EF372,
    0xA54FF53A,
    0x510E527F,
    0x9B05688C,
    0x1F83D9AB,
    0x5BE0CD19,
)
_M = 0xFFFFFFFF


def _compress(st, block):
    """One SHA-256 block (FIPS 180-4, 6.2.2) on state `st` (8 words)."""
    w = list(struct.unpack(">16I", block))
    for i in range(16, 64):
        x, y = w[i - 15], w[i - 2]
        w.append(
            (
                w[i - 16]
                + w[i - 7]
                + ((x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3))
                + ((y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10))
            )
            & _M
        )
    a, b, c, d, e, f, g, h = st
    for i in range(64):
        t1 = (
            h
            + ((e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7))
            + ((e & f) ^ (~e & g))
            + _K[i]
            + w[i]
        ) & _M
        t2 = ((a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)) + (
            (a & b) ^ (a & c) ^ (b & c)
        )
        h, g, f, e, d, c, b, a = g, f, e, (d + t1) & _M, c, b, a, (t1 + t2) & _M
    return tuple((x + y) & _M for x, y in zip(st, (a, b, c, d, e, f, g, h)))


class Sha256:
    """SHA-256 whose state can be saved and resumed (hashlib's cannot), so
    a backup's events digest goes on from the previous version's over the
    new events only. Pure Python (about 600 KB/s): only what take() adds
    goes through it; load() checks every digest with hashlib."""

    def __init__(self, state=None):
        self.h, self.n, self.tail = _IV, 0, b""
        if state is not None:
            if len(state) < 40:
                raise ValueError("a SHA-256 state is at least 40 bytes")
            self.h = struct.unpack(">8I", state[:32])
            self.n = struct.unpack(">Q", state[32:40])[0]
            self.tail = bytes(state[40:])
            if len(self.tail) != self.n % 64:
                raise ValueError(
                    "SHA-256 state: %d bytes pending, not %d" % (len(self.tail), self.n % 64)
                )

    def update(self, data):
        buf = self.tail + data
        self.n += len(data)
        h, end = self.h, len(buf) - len(buf) % 64
        for i in range(0, end, 64):
            h = _compress(h, buf[i : i + 64])
        self.h, self.tail = h, buf[end:]

    def copy(self):
        return Sha256(self.state())

    def state(self):
        """The bytes Sha256(state) resumes from: words, length, pending tail."""
        return struct.pack(">8IQ", *(self.h + (self.n,))) + self.tail

    def hexdigest(self):
        pad = self.tail + b"\x80" + b"\x00" * ((55 - self.n) % 64) + struct.pack(">Q", self.n * 8)
        h = self.h
        for i in range(0, len(pad), 64):
            h = _compress(h, pad[i : i + 64])
        return struct.pack(">8I", *h).hex()


def unhex(h):
    """A chain head stored or reported as hex: its bytes, or None (unknown)."""
    return bytes.fromhex(h) if h else None


def start(system, cid, base=None, depth=HOST_DEPTH):
    """The campaign a fold starts from: a new one (`base` None) or the
    device snapshot `base` (encode_snapshot bytes), keeping an undo window
    of `depth` effective actions (None: every one).

    A device snapshot carries the device's window, whose midpoint is a
    state after its own depth: with fewer effective actions than `depth`
    that midpoint is not ours and is dropped (the window then refolds from
    the snapshot's base, as it should); with more (a device with a wider
    window than ours) the fold keeps the whole history."""
    if not base:
        return cp.Campaign(system, cid, depth, False)
    c = cp.decode_snapshot(base, None, False)
    if depth is not None and len(c.done) < depth:
        c.depth, c._mid = depth, None
    return c


def undoes(ev):
    try:
        return codec.decode_event(ev)[0] == cp.UNDO
    except ValueError:
        return False


def fold(system, cid, base, events, depth=HOST_DEPTH, wide=True):
    """The campaign: `base` (encode_snapshot bytes or None for a new
    campaign) with `events` applied, keeping an undo window of `depth`.
    ValueError if an event does not apply. `wide`: an UNDO that falls
    outside the window (a device that kept a wider one) refolds everything
    with the whole history instead of failing."""
    c = start(system, cid, base, depth)
    for ev in events:
        try:
            c.apply(ev)
        except ValueError:
            if not (wide and c.depth is not None and undoes(ev)):
                raise
            return fold(system, cid, base, events, None)
    return c


def walk(first, events, links, at, head):
    """Walk the hash chain over `events` (seqs from `first`) against
    `links`, the stored head after each (bytes or None; None for all:
    none stored), from `head`, the chain's head after event `at` (None:
    unknown): (heads, bad). heads[i] is the head after event first+i
    (None where no start is known and no link is stored); bad is the
    first event whose stored link its bytes do not lead to (None: every
    link holds)."""
    h = None
    links = links or [None] * len(events)
    heads: list = []
    for i, ev in enumerate(events):
        s = first + i
        if s - 1 == at and head is not None:
            h = head
        if h is not None:
            h = chain.link(h, s, ev)
            if links[i] is not None and bytes(links[i]) != h:
                return heads, s
        elif links[i] is not None:
            h = bytes(links[i])  # no start known: each link is checked against the one before
        heads.append(h)
    return heads, None


class Backup:
    """One verified backup version (see BackupStore.load)."""

    def __init__(self, row, cid, system, schema, base_seq, base_snap, events):
        (
            self.id,
            self.lineage,
            self.base,
            self.first,
            self.last,
            self.state,
            self.state_sha,
            self.events_sha,
            self.gap,
            self.device,
            self.firmware,
            self.created,
            _c,
        ) = row
        self.cid, self.system, self.schema = cid, system, schema
        self.base_seq = base_seq  # the fold starts after this seq (0: a new campaign)
        self.base_snap = base_snap  # None: a new campaign
        self.events = events  # history: events first..last
        self._c = None  # the fold, once made
        self.head = None  # the chain's head after `last` (hex; None: unknown)
        self.base_head = None  # ... after base_seq (a baseline's; None: unknown)
        self.links = None  # the stored chain head after each event (bytes or None)
        self.anchor: bytes | None = None  # load(events=False): the last event, CRC-checked

    def folded_events(self):
        """The events the fold applies (after the base)."""
        return self.events[self.base_seq - self.first + 1 :]

    def fold(self, depth=None):
        """The campaign this backup holds: folded once (with the host's
        window), then the same object (read it, do not change it). With
        `depth`, a new fold with exactly that undo window (restore_payload
        sends the device's)."""
        if depth is not None:
            return fold(
                self.system, self.cid, self.base_snap, self.folded_events(), depth, wide=False
            )
        if self._c is None:
            self._c = fold(self.system, self.cid, self.base_snap, self.folded_events())
        return self._c

    def campaign(self):
        return self.fold()

    def walk_chain(self):
        """Walk the hash chain over the events (needs them and `links`, the
        stored head after each): (heads, bad). heads[i] is the head after
        event first+i (None where the chain's start is unknown and no link
        is stored); bad is the first event whose stored link its bytes do
        not lead to (None: every link holds)."""
        if self.base_snap is None:
            at, h = 0, chain.ZERO
        else:
            at, h = self.base_seq, unhex(self.base_head)
        return walk(self.first, self.events, self.links, at, h)

    def head_at(self, seq, heads):
        """The chain's head after event `seq` (bytes or None) from
        walk_chain()'s heads: 0 and a baseline's snapshot have their own."""
        if self.first <= seq <= self.last and heads[seq - self.first] is not None:
            return heads[seq - self.first]
        if seq == self.base_seq and self.base_snap is not None:
            return unhex(self.base_head)
        return chain.ZERO if seq == 0 else None


class Run:
    """Events a damaged journal gave between two of its damaged records
    (or before its first, where they continue no stored history): kept
    with the version taken then, never folded (no state before them is
    known) and never a version of their own (BackupStore.runs)."""

    def __init__(self, row, events, links):
        (
            self.id,
            self.backup,  # the version it was kept with
            self.first,
            self.last,
            self.events_sha,
            self.anchor,  # its chain starts after this event (None: not chained)
            self.head,  # the device's recorded head after `anchor` (hex)
            self.checked,  # the last event a recorded head of the device confirmed
            self.gap,  # the damage around it and what its chain showed, in words
            self.created,  # when its version was taken
        ) = row
        self.events = events
        self.links = links

    def words(self):
        """What `backups show` says of it."""
        return "events %d..%d, not folded (no state before them is known), %s" % (
            self.first,
            self.last,
            self.gap,
        )
