"""The device's id, as the link reports it (INFO `device`): the board
profile's unique_id() (a chip's), else one kept on the flash beside the
campaigns (ROOT/id.txt, the session's layout). Loaded by the link when a
host first asks, never at boot."""

from session import ROOT


def get(s):
    """The id of the tray of session `s`: a new one is made and kept if
    the file is missing or damaged (not 1..40 printable ASCII bytes): an
    id is no campaign data, and a damaged one must not stop the link."""
    b = s.board
    uid = getattr(b, "unique_id", None)
    if uid is not None:
        return uid()
    fs = s.fs
    path = ROOT + "/id.txt"
    try:
        f = fs.open(path, "rb")
        try:
            v = f.read(64)
        finally:
            f.close()
        v = v.strip()
        if 0 < len(v) <= 40 and min(v) > 32 and max(v) < 127:
            return v.decode()
    except OSError:
        pass
    # the board's entropy, not its seed (Session._cid): an id of its own
    v = "%s-%08x" % (b.name, getattr(b, "entropy", b.seed)() & 0x3FFFFFFF)
    f = fs.open(path, "w")
    f.write(v)
    fs.sync(f)
    f.close()
    return v
