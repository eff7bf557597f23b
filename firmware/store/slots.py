"""Campaign slots: the store directories `cN` under the session's root
(session.py's layout), seen from outside, for Settings > Campaigns and
the host's `dicetray campaigns` (docs/store.md, "Campaign slots").

Imported only when a list, a switch or a delete is asked for, never at
boot: every name a boot module interns costs every boot, and the check
for a delete a reset cut short cost boot ~140,000 fuel in
Session._current (docs/store.md), so the next list, switch or delete
finishes it instead (`numbers`).

- `campaigns(fs, root, lo, most)`: the slots, each a tuple
  (n, campaign id, system, events, bytes, blocks, name), read only: the
  newest snapshot that reads back whole gives the id, the system, the
  campaign's name ("" if it has none) and its seq,
  and the journal after it is counted (at most one segment or two).
  No repair is ever written here; a slot with no readable snapshot
  reports id -1 and system -1.
- `usage(fs, path)`: (bytes, blocks): the sum of its files' sizes, and the
  littlefs blocks they take (BLOCK = 4 KB each: the directory's metadata
  pair, 2 blocks, plus every file over INLINE bytes in whole blocks; a
  file of INLINE bytes or fewer sits in the directory's metadata). That is
  littlefs v2.11 as the rp2 port configures it (cache 1,024 bytes, so
  inline_max = min(1024, 1022, 4096 / 8) = 512): tests/host/ checks it
  against littlefs-python with that configuration.
- `switch(s, n)`: slot n becomes current by one rename, cN to c(M+1), M
  the highest slot (the current one): boot takes the highest, so a reset
  leaves the old slot current (before the rename) or the new one (after).
- `delete(s, n)`: one rename, cN to dN (atomic: a reset leaves the slot
  whole, or a dN that is no campaign), then its files and the directory go
  (`purge`); the next list, switch or delete removes a dN a reset left.
"""

from . import journal
from . import snapshot as snap
from . import _parse, _split, BLOCK, INLINE, PEND, PEND_FILE

DIR_BLOCKS = 2  # a littlefs directory is a metadata pair


def numbers(fs, root):
    """The slot numbers under root (names cN), ascending; a dN that a
    reset left in the middle of a delete is removed on the way."""
    out = []
    for name in fs.listdir(root):
        if len(name) > 1 and name[1:].isdigit():
            if name[0] == "c":
                out.append(int(name[1:]))
            elif name[0] == "d":
                purge(fs, root + "/" + name)
    out.sort()
    return out


def usage(fs, path):
    """(bytes, blocks) of the files in directory `path` (see above)."""
    n = 0
    blocks = DIR_BLOCKS
    for name in fs.listdir(path):
        if name == PEND:
            # The pending journal's directory; its file is inline.
            blocks += DIR_BLOCKS
            k = fs.size(path + "/" + PEND_FILE)
            if k > 0:
                n += k
            continue
        k = fs.size(path + "/" + name)
        if k > 0:
            n += k
            if k > INLINE:
                blocks += (k + BLOCK - 1) // BLOCK
    return n, blocks


def summary(fs, path, names):
    """(campaign id, system, events, name) of the store in `path`, read
    only: (-1, -1, events of its journal, "") when no snapshot reads back.
    names(state) -> (system, campaign id, name) of a snapshot's state (the
    session's: the store knows no rules). The name is the newest
    snapshot's: one given after it (RENAME) lists at the next snapshot."""
    logs, snaps, _tmps = _split(fs.listdir(path))
    cid = sysno = -1
    name = ""
    seq = seg = off = 0
    k = len(snaps)
    while k:
        k -= 1
        try:
            seq, state, seg, off, _h = snap.read(fs, path + "/" + snaps[k])
            sysno, cid, name = names(state)
            break
        except (ValueError, OSError, IndexError):
            seq = seg = off = 0
    return cid, sysno, _count(fs, path, logs, seq, seg, off), name


def _skip(ev):
    pass


def _count(fs, path, logs, seq, seg, off):
    """The last event: the snapshot's seq plus the records after it
    (from segment seg, byte off on, while each segment follows on)."""
    low = "j%08x.log" % seg
    buf = None
    for nm in logs:
        if nm < low:
            continue
        b = _parse(nm, "j", ".log")
        if b != (seg if nm == low else seq):
            break   # a gap: what a boot would move aside
        if buf is None:
            buf = bytearray(journal.CHUNK)
        try:
            r = journal.scan(fs, path + "/" + nm, seq if nm == low else b, _skip, buf,
                             off if nm == low else 0)
        except OSError:
            break
        seq = r.seq
        if r.status != journal.OK:
            break
    return _pending(fs, path, seq)


def _pending(fs, path, seq):
    """The last event, counting the pending journal's records after `seq`."""
    p = path + "/" + PEND_FILE
    try:
        f = fs.open(p, "rb")
        try:
            h = f.read(6)
        finally:
            f.close()
        first = journal.first_seq(h)
        if 0 < first <= seq + 1:
            r = journal.scan(fs, p, first - 1, _skip)
            if r.seq > seq:
                return r.seq
    except (OSError, IndexError):
        pass      # none, or unreadable: what the segments hold
    return seq


def campaigns(fs, root, names, lo=0, most=-1):
    """(slots, next): the tuples of slots n >= lo, at most `most` of them
    (-1: all), and the number of the next slot after them (-1: none);
    `names` as summary's."""
    out = []
    for n in numbers(fs, root):
        if n < lo:
            continue
        if most >= 0 and len(out) >= most:
            return out, n
        path = "%s/c%d" % (root, n)
        cid, sysno, events, name = summary(fs, path, names)
        size, blocks = usage(fs, path)
        out.append((n, cid, sysno, events, size, blocks, name))
    return out, -1


def _check(s, n, root):
    have = numbers(s.fs, root)
    if n not in have:
        raise ValueError("no campaign slot %d on the device (its slots: %s)"
                         % (n, ", ".join([str(k) for k in have])))
    return have


def switch(s, n, root):
    """Make slot n current (session `s`): its number becomes the highest."""
    have = _check(s, n, root)
    if n == s.n:
        return False
    s.snapshot()   # the slot left behind lists with every event it holds
    top = have[-1] + 1
    s.st.close()
    s.fs.rename("%s/c%d" % (root, n), "%s/c%d" % (root, top))
    s.n = top
    s.load()
    return True


def delete(s, n, root):
    """Remove slot n, never the current one; returns its (bytes, blocks)."""
    _check(s, n, root)
    if n == s.n:
        raise ValueError("slot %d is the current campaign: switch to another one before "
                         "deleting it" % n)
    path = "%s/c%d" % (root, n)
    used = usage(s.fs, path)
    gone = "%s/d%d" % (root, n)   # _check removed any a reset left
    s.fs.rename(path, gone)
    purge(s.fs, gone)
    return used


def purge(fs, path):
    """Remove directory `path` and everything in it."""
    clear(fs, path)
    rmdir = getattr(fs, "rmdir", None)
    if rmdir is not None:
        rmdir(path)


def clear(fs, path):
    """Remove everything in directory `path`: files, and directories (a
    store's pending journal) with what they hold."""
    for name in fs.listdir(path):
        p = path + "/" + name
        try:
            fs.remove(p)
        except OSError:
            purge(fs, p)   # a directory, not empty
