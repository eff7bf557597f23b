"""A campaign none of whose snapshots reads, rebuilt from what still names
it (the session loads this module only then, not at every boot)."""

from rules import campaign as cp


def salvage(session, spare, step):
    """Make session.c when no snapshot reads (Session.load()): when no
    header names its rule system, a first pass over the journal finds it,
    then the store is recovered again; `spare()` between steps of `step`
    events."""
    r = Rebuild(session, session._rep)
    if r.need:
        while session.st.replay(r.see, step) and r.system < 0:
            if spare is not None:
                spare()
        first = session._rep
        session._begin()
        session._rep.errors[0:0] = first.errors   # what the first pass set aside
    session.c = r.campaign(session._errs)


class Rebuild:
    """The empty Campaign the journal is replayed onto: its rule system and
    id from a damaged snapshot's header (the store set it aside), else the
    system from the journal's first rule event (kinds 32.., a block of 32
    per system: see(), handed the events of a first pass over the
    journal, when `need`) and a new id."""

    def __init__(self, session, rep):
        self.s = session
        self.snap = rep.snap
        self.aside = bool(rep.aside)
        self.system = self.cid = -1
        self.seen = 0
        for old, nm in rep.aside:
            if nm[0] == "s" and self.cid < 0:
                try:
                    self.system, self.cid = _peek(session.fs, session.st.root + "/" + nm)
                except (OSError, ValueError, IndexError):
                    pass
        self.need = self.system < 0

    def see(self, ev):
        """An event of the first pass (the store's replay hands it)."""
        self.seen += 1
        if self.system < 0 and 32 <= ev[0] < 128:
            self.system = (ev[0] - 32) >> 5

    def campaign(self, errs):
        """The Campaign; what was done is added to `errs` (the boot's
        STORE DAMAGE screen)."""
        system = self.system
        cid = self.cid if self.cid >= 0 else self.s._cid()
        if self.snap < 0 and (self.seen or self.aside):
            errs.append("no snapshot readable: the campaign is rebuilt from its journal as %s%s"
                        % (("hunt", "paths", "expedition")[max(0, system)],
                           "" if system >= 0 else " (nothing names its rule system)"))
        return cp.Campaign(max(0, system), cid, cp.UNDO_DEPTH)


def _peek(fs, path):
    """(system, campaign id) from the headers in a snapshot file that fails
    its checks: store/snapshot.py's header (56 bytes; 24 in version 2, 16
    in 1), then the snapshot's own (names)."""
    f = fs.open(path, "rb")
    try:
        buf = f.read(96)
    finally:
        f.close()
    if buf[:3] != b"DTS":
        raise ValueError("no snapshot header")
    return names(buf, (16, 24, 56)[buf[3] - 1] if 1 <= buf[3] <= 3 else 0)[:2]


def names(state, at=0):
    """(system, campaign id, name) of encode_snapshot bytes from `at`:
    b"DS" | schema | system | len, then encode_state's b"DT" | schema |
    system | cid. ValueError (or IndexError, cut short) where they are not
    there. The name is the state's end ("" if it has none): read only from
    a whole snapshot (at 0), "" where the state does not read through.
    What the campaign slots list too (Session.campaigns)."""
    if state[at:at + 2] != cp.SNAP_MAGIC:
        raise ValueError("not a campaign snapshot")
    system = state[at + 3]
    m, j = cp.codec.get_int(state, at + 4)
    if state[j:j + 2] != cp.MAGIC or state[j + 3] != system or system > 2:
        raise ValueError("no state header")
    c = _Bare()
    if not at:
        try:
            cp._load_state(c, state[j:j + m])
        except (ValueError, IndexError):
            pass   # listed by its header, as before names
    return system, cp.codec.get_int(state, j + 4)[0], c.name


class _Bare:
    """What campaign._load_state fills in: no rules loaded."""

    name = ""
