"""The hash chain's anchors: the chain's head after the base of each
journal segment, recorded when the device knew it, so the scrub can check
every segment's events against a head the device recorded as it wrote
them, also once the journal no longer starts at event 1 (docs/store.md,
"The chain's anchors").

    hSSSSSSSS.chn   "DTA" | 1 | n u32 | n x (base u32 | head 32) | crc32 u32

(SSSSSSSS: the store's seq when it was written; crc32 of every byte
before it.) One file, never rewritten in place: a new one is written and
synced under a new name, then the older removed, so a cut leaves the old,
the new, or both (the newest that reads back whole is used). Written when
a segment starts at a snapshot (its base's head is the snapshot's) and at
a restore's start (its first segment), with the heads the scrub verified
since (store/scrub.py: kept in RAM until then). Base 0's head is the
chain's start (ZERO) and never stored. Loaded at the first use (the scrub,
a new segment, a CHAIN request), never at boot; the journal records are
unchanged."""

from binascii import crc32

from . import _name

MAGIC = b"DTA\x01"
ENTRY = 36    # base u32 LE | head 32


def table(st):
    """{base: head} of store `st`, read from flash once (st._anch)."""
    t = getattr(st, "_anch", None)
    if t is None:
        t = {}
        names = [nm for nm in st.fs.listdir(st.root)
                 if len(nm) == 13 and nm[0] == "h" and nm.endswith(".chn")]
        names.sort()
        while names:
            try:
                t = _read(st, names.pop())
                break
            except (OSError, ValueError):
                pass   # torn or damaged: the one before it
        st._anch = t
    return t


def get(st, base):
    """The chain's head after event `base` as recorded (None: unknown)."""
    if base == 0:
        from . import ZERO
        return ZERO
    return table(st).get(base)


def add(st, base, head):
    """Record the head after `base` (in RAM: written at the next new segment)."""
    if base and head is not None:
        table(st)[base] = head


def keep(st, seq):
    """At snapshot `seq`, after which a segment starts: its anchor, then
    the table written (with the heads the scrub verified since the last
    write), the anchors of the segments still on flash only."""
    add(st, seq, st.head)
    names = st.fs.listdir(st.root)
    low = st._seg
    for nm in names:
        if len(nm) == 13 and nm[0] == "j" and nm.endswith(".log"):
            b = int(nm[1:9], 16)
            if b < low:
                low = b
    t = table(st)
    for b in list(t):
        if b < low:
            del t[b]
    new = _name("h", seq, "chn")
    if new in names:
        return     # written at this seq before a reboot: the next new segment writes it
    out = bytearray(MAGIC)
    out.extend(len(t).to_bytes(4, "little"))
    for b in sorted(t):
        out.extend(b.to_bytes(4, "little"))
        out.extend(t[b])
    out.extend(crc32(out).to_bytes(4, "little"))
    f = st.fs.open(st._p(new), "wb")
    try:
        f.write(out)
        st.fs.sync(f)
    finally:
        f.close()
    st.stats["meta"] += 1
    st._count(0, len(out))
    for nm in names:
        if len(nm) == 13 and nm[0] == "h" and nm.endswith(".chn"):
            st._remove(nm)


def _read(st, nm):
    f = st.fs.open(st._p(nm), "rb")
    try:
        data = f.read()
    finally:
        f.close()
    n = len(data)
    if n < 12 or data[0:4] != MAGIC:
        raise ValueError("not an anchors file")
    k = int.from_bytes(data[4:8], "little")
    if n != 12 + ENTRY * k or int.from_bytes(data[n - 4:], "little") != crc32(data[:n - 4]):
        raise ValueError("damaged")
    t = {}
    for i in range(8, 8 + ENTRY * k, ENTRY):
        t[int.from_bytes(data[i:i + 4], "little")] = bytes(data[i + 4:i + ENTRY])
    return t
