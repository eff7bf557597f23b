"""The journal's records as the device stores them, read from LOG pages
(docs/protocol.md): the framing is the store's own, its constants
imported from firmware/store/journal.py, so the two cannot drift apart.

    len u16 LE | seq u32 LE | crc32(event) u32 LE | check u8 | event

check = SEED ^ the ten bytes before it. Unlike the device's scanner, which
stops at the first bad record, this reader can step over damage to the
next record that reads (`gaps`): a backup keeps every event that reads.
"""

from binascii import crc32
from functools import reduce
from operator import xor
from struct import unpack_from
from typing import Any

from ..fwstore.journal import _SEED as SEED
from ..fwstore.journal import HDR, MAX_REC
from .errors import JournalDamaged


def records(
    data: bytes, base: int, lo: int, hi: int, gaps: list[list[Any]] | None = None
) -> tuple[list[bytes | None], int]:
    """The events numbered lo+1..hi (at most) of a journal segment whose
    first record is base+1, checked as the device's own scanner checks
    them: header check, length, seq in order and, for the events handed
    out, the CRC. Returns (events, seq of the last record read).

    Without `gaps`, JournalDamaged at the first record that fails. With a
    list, damage is stepped over and appended to it as [first, last,
    base, why]: a record whose header checks but whose event fails its
    CRC is None in the events (its header says where the next starts);
    after a header that fails, the next record is found by its own checks
    (_next_record); with none, the rest up to hi is one gap."""
    out: list[bytes | None] = []
    seq = base
    i = 0
    end = len(data)
    while seq < hi and i + HDR <= end:
        n, s, crc, chk = unpack_from("<HIIB", data, i)
        want = seq + 1
        if reduce(xor, data[i : i + 10], SEED) != chk:
            why = "record header check failed"
        elif not 0 < n <= MAX_REC or s != want:
            why = "record numbered %d, length %d" % (s, n)
        else:
            j = i + HDR + n
            if j > end:
                break  # cut short: the page ends there
            if want > lo:
                ev = data[i + HDR : j]
                if crc32(ev) == crc:
                    out.append(ev)
                elif gaps is None:
                    raise JournalDamaged(want, base, "record fails its CRC", hi)
                else:
                    gaps.append([want, want, base, "record fails its CRC"])
                    out.append(None)
            seq = want
            i = j
            continue
        if gaps is None:
            raise JournalDamaged(want, base, why, hi)
        i, s = _next_record(data, i + 1, want, hi)
        if s - 1 > lo:  # only what is asked for is named
            gaps.append([max(want, lo + 1), s - 1, base, why])
            out.extend([None] * (s - 1 - max(seq, lo)))
        seq = s - 1
    return out, seq


def _next_record(data: bytes, i: int, want: int, hi: int) -> tuple[int, int]:
    """(offset, seq) of the first whole record from offset i on numbered
    want+1..hi whose header check, length and event CRC all hold (a
    damaged header does not say where the next record starts); (end of
    data, hi + 1) if none does."""
    end = len(data)
    for k in range(i, end - HDR + 1):
        n, s, crc, chk = unpack_from("<HIIB", data, k)
        if (
            want < s <= hi
            and 0 < n <= MAX_REC
            and k + HDR + n <= end
            and reduce(xor, data[k : k + 10], SEED) == chk
            and crc32(data[k + HDR : k + HDR + n]) == crc
        ):
            return k, s
    return end, hi + 1
