"""The campaign as events: state is the fold of the journal.

Every action is a small event (see codec). `Campaign.act` validates an
action, applies it with live dice, records the faces it drew into the event
and appends that event to the journal; `Campaign.apply` replays a recorded
event with its own faces. The same events always give the same state.

UNDO and REDO are events too, so the journal stays append-only: UNDO moves
the newest effective action to the redo stack and refolds; REDO re-applies
it; any other action empties the redo stack.

On the device the undo history is a window (`depth`): at least `depth` and
fewer than 2 * `depth` effective actions stay undoable, so RAM and the
refold stay bounded. The window travels in snapshots (encode_snapshot), so
a reboot can undo exactly what it could before. The host keeps the whole
history (depth None): it accepts every UNDO a device accepted.

Core event kinds are 1..31; each rule system owns a range above that
(hunt 32..63, paths 64..95, expedition 96..127).
"""

from . import codec, core
from .core import MAX_CHARS, MAX_TALS, Outcome, name_error
from . import systems
from . import talisman as tl
from .dice import Recorder, Replay

# Core event kinds.
UNDO = 1
REDO = 2
CHAR_ADD = 3    # text=name
TAL_NEW = 4     # cap, policy, link, role, owner, a, b; text=name
SLASH = 5       # t, k, nofill
UNSLASH = 6     # t, k
CLEAR = 7       # t
TAL_DEL = 8     # t
TAL_CAP = 9     # t, cap
DICE = 10       # sides, n: a free roll with no rule attached
RENAME = 11     # what (0 character, 1 talisman, 2 the campaign: index 0), index; text=the new name

UNDO_DEPTH = 32  # the device's undo window (see Campaign)
MAGIC = b"DT"
SNAP_MAGIC = b"DS"


class Char:
    """A character: a name and the system's integer fields (system.CHAR_FIELDS)."""

    def __init__(self, name, vals):
        self.name = name
        self.v = vals


class Campaign:
    """One campaign's state, journal and undo stacks."""

    def __init__(self, system=0, cid=0, depth=None, journal=True, base=None):
        self.rules = systems.get(system)
        self.system = system
        self.cid = cid
        self.depth = depth  # undo window; None keeps every action undoable
        self.events = []    # the journal: every event, UNDO/REDO included...
        self.journal = journal  # ...kept in RAM only if asked (the device keeps it on flash)
        self.done = []      # effective actions since the base, oldest first
        self.undone = []    # redo stack
        self._base = base   # encoded state the fold starts from (None: a new campaign)
        self._mid = None    # encoded state after done[:depth], the next base
        self._notes = []   # notes triggers add while an action applies
        self._reset()

    def _reset(self):
        if self._base is not None:
            _load_state(self, self._base)
            return
        self.nevents = 0
        self.name = ""      # the campaign's own (RENAME 2, 0; the state's tail), "" until given
        self.x = self.rules.new_counters()
        self.chars = []
        self.tals = []
        self.last = None
        self.rules.setup(self)

    # --- lookups that validate -------------------------------------------
    def tal(self, t):
        """The live talisman at index t, or ValueError naming the index."""
        if not 0 <= t < len(self.tals) or self.tals[t] is None:
            raise ValueError("no talisman number %d" % t)
        return self.tals[t]

    def char(self, i):
        """The character at index i, or ValueError naming the index."""
        if not 0 <= i < len(self.chars):
            raise ValueError("no character number %d" % i)
        return self.chars[i]

    def find(self, role, owner=tl.NONE):
        """Index of the first live talisman with this role and owner, or -1."""
        for i, t in enumerate(self.tals):
            if t is not None and t.role == role and t.owner == owner:
                return i
        return -1

    def new_tal(self, name, cap, policy=tl.CLAMP, link=tl.NONE, role=0, owner=tl.NONE, a=0, b=0):
        """Create a talisman (from inside an apply); returns its index."""
        if len(self.tals) >= MAX_TALS:
            raise ValueError("at most %d talismans per campaign" % MAX_TALS)
        tl.check_new(cap, policy, link, len(self.tals))
        self.tals.append(tl.Talisman(name, cap, policy, link, role, owner, a, b))
        return len(self.tals) - 1

    # --- actions -----------------------------------------------------------
    def act(self, kind, args=(), text="", dice=None, faces=None):
        """Validate and apply an action; append its event; return its Outcome.

        Dice come from `dice` (a live Dice) or, for dice rolled by hand in
        the tray, from `faces`. Invalid input raises ValueError and leaves
        the campaign exactly as it was.
        """
        if faces is not None:
            src = Replay(bytes(faces))
        elif dice is not None:
            src = Recorder(dice)
        else:
            src = Replay(b"")
        if kind == CHAR_ADD or kind == TAL_NEW or kind == RENAME:
            bad = name_error(text)
            if bad:
                raise ValueError(bad)
        if 0 < kind <= CHAR_ADD:  # refused when new; a journal's replay as they are
            core.arity(args, 0, "UNDO, REDO and CHAR_ADD take no arguments")
        out = self._do(kind, list(args), text, src)
        if isinstance(src, Replay) and src.i != len(src.faces):
            self._rebuild()
            raise ValueError("%d faces given but the action used %d" % (len(src.faces), src.i))
        ev = codec.encode_event(kind, args, bytes(src.faces), text)
        self._commit(kind, ev)
        return out

    def apply(self, ev, source=Replay):
        """Replay one recorded event (from the journal or a backup).

        `source` builds the dice source from the event's faces: a Replay
        subclass can watch every die (the host's dice statistics do)."""
        kind, args, faces, text = codec.decode_event(ev)
        src = source(faces)
        out = self._do(kind, args, text, src)
        if src.i != len(faces):
            self._rebuild()
            raise ValueError("event carries %d faces but used %d" % (len(faces), src.i))
        self._commit(kind, ev)
        return out

    def _commit(self, kind, ev):
        if self.journal:
            self.events.append(ev)
        self.nevents += 1
        if kind == UNDO:
            self.undone.append(self.done.pop())
        elif kind == REDO:
            self.done.append(self.undone.pop())
        else:
            self.done.append(ev)
            self.undone = []
        k = self.depth
        if k:
            n = len(self.done)
            if n < k:
                self._mid = None  # undone below the midpoint: it no longer holds
            elif n == k and self._mid is None:
                self._mid = encode_state(self)
            elif n >= 2 * k:
                # Slide the window: the midpoint becomes the base.
                self._base = self._mid
                del self.done[:k]
                self._mid = encode_state(self)

    def _do(self, kind, args, text, src):
        if kind == UNDO:
            if not self.done:
                raise ValueError("nothing to undo")
            n = self.nevents
            keep = self.done.pop()
            self._rebuild()
            self.done.append(keep)
            self.nevents = n
            self.last = Outcome(UNDO)
            return self.last
        if kind == REDO:
            if not self.undone:
                raise ValueError("nothing to redo")
            k, a, f, t = codec.decode_event(self.undone[-1])
            self.last = self._do(k, a, t, Replay(f))
            return self.last
        self._notes = []
        drawn = src.drawn()
        try:
            if kind < 32:
                out = _core_apply(self, kind, args, text, src)
            else:
                out = self.rules.apply(self, kind, args, text, src)
        except Exception:
            # Actions validate before they change anything; this refold is the
            # safety net that keeps a failed action from leaving a trace.
            self._rebuild()
            raise
        if self._notes:
            out.notes = out.notes + self._notes
        if not out.faces:
            out.faces = src.since(drawn)
        self.last = out
        return out

    def note(self, s):
        """Add a line to the Outcome of the action being applied (for triggers)."""
        self._notes.append(s)

    def _rebuild(self):
        """Refold the state over the effective actions: from the window's
        midpoint when it holds (at most depth - 1 actions to refold), else
        from the base."""
        n = self.nevents
        k = self.depth
        start = 0
        if k and self._mid is not None and len(self.done) >= k:
            _load_state(self, self._mid)
            start = k
        else:
            self._reset()
        done = self.done
        for j in range(start, len(done)):
            kind, a, f, t = codec.decode_event(done[j])
            self.last = self._do(kind, a, t, Replay(f))
        self.nevents = n

    def undo(self):
        return self.act(UNDO)

    def redo(self):
        return self.act(REDO)


def _core_apply(c, kind, args, text, src):
    out = Outcome(kind)
    if kind == CHAR_ADD:
        if len(c.chars) >= MAX_CHARS:
            raise ValueError("at most %d characters per campaign" % MAX_CHARS)
        if not text:
            raise ValueError("a character needs a name")
        c.chars.append(Char(text, c.rules.new_char()))
        c.rules.on_char(c, len(c.chars) - 1)
        out.note("%s joins" % text)
    elif kind == TAL_NEW:
        core.arity(args, 7, "TAL_NEW takes cap, policy, link, role, owner, a, b")
        if args[4] != tl.NONE:
            c.char(args[4])
        c.new_tal(text, args[0], args[1], args[2], args[3], args[4], args[5], args[6])
        out.note("talisman %s 0/%d" % (text, args[0]))
    elif kind == SLASH:
        core.arity(args, 3, "SLASH takes talisman, slashes, nofill")
        tal = c.tal(args[0])
        if not 1 <= args[1] <= tl.MAX_CAP:
            raise ValueError("slashes %d is not in 1..%d" % (args[1], tl.MAX_CAP))
        out.successes = tl.slash(c, args[0], args[1], args[2], src)
        out.note("%s %d/%d" % (tal.name, tal.n, tal.cap))
    elif kind == UNSLASH:
        core.arity(args, 2, "UNSLASH takes talisman, slashes")
        tal = c.tal(args[0])
        if args[1] < 1:
            raise ValueError("slashes to remove must be at least 1")
        tl.unslash(tal, args[1])
        out.note("%s %d/%d" % (tal.name, tal.n, tal.cap))
    elif kind == CLEAR:
        core.arity(args, 1, "CLEAR takes a talisman")
        c.tal(args[0]).n = 0
    elif kind == TAL_DEL:
        core.arity(args, 1, "TAL_DEL takes a talisman")
        c.tal(args[0])
        for t in c.tals:
            if t is not None and t.link == args[0]:
                raise ValueError("talisman %d feeds it: delete that one first" % c.tals.index(t))
        c.tals[args[0]] = None
    elif kind == TAL_CAP:
        core.arity(args, 2, "TAL_CAP takes talisman, capacity")
        tal = c.tal(args[0])
        if not 1 <= args[1] <= tl.MAX_CAP:
            raise ValueError("capacity %d is not in 1..%d" % (args[1], tl.MAX_CAP))
        tal.cap = args[1]
        if tal.n > tal.cap:
            tal.n = tal.cap
    elif kind == RENAME:
        core.arity(args, 2, "RENAME takes what (0 character, 1 talisman, 2 campaign), index")
        if args[0] == 0:
            who = c.char(args[1])
        elif args[0] == 1:
            who = c.tal(args[1])
        elif args[0] == 2 and args[1] == 0:
            who = c   # the campaign itself: `dicetray campaigns new --name`
        else:
            raise ValueError("RENAME what %d: 0 renames a character, 1 a talisman, 2 the campaign"
                             " (index 0)" % args[0])
        if not text:
            raise ValueError("RENAME needs the new name")
        out.note("%s is now %s" % (who.name or "the campaign", text))
        who.name = text
    elif kind == DICE:
        core.arity(args, 2, "DICE takes sides, count")
        sides, n = args
        if not 2 <= sides <= 100 or not 1 <= n <= 20:
            raise ValueError("a free roll is 1..20 dice of 2..100 sides")
        faces = bytearray(n)
        total = 0
        for i in range(n):
            faces[i] = src.d(sides)
            total += faces[i]
        out.faces = bytes(faces)
        out.successes = total
    else:
        raise ValueError("unknown event kind %d" % kind)
    return out


# --- state encoding --------------------------------------------------------

def encode_state(c):
    """The campaign's current state (not its journal) as versioned bytes."""
    out = bytearray(MAGIC)
    out.append(codec.VERSION)
    out.append(c.system)
    put = codec.put_int
    put(out, c.cid)
    put(out, c.nevents)
    put(out, len(c.x))
    for v in c.x:
        put(out, v)
    put(out, len(c.chars))
    for ch in c.chars:
        codec.put_text(out, ch.name)
        put(out, len(ch.v))
        for v in ch.v:
            put(out, v)
    put(out, len(c.tals))
    for t in c.tals:
        if t is None:
            out.append(0)
            continue
        out.append(1)
        codec.put_text(out, t.name)
        for v in t.fields():
            put(out, v)
    if c.name:   # a named campaign's name; every other state is as before it
        codec.put_text(out, c.name)
    return bytes(out)


def _check_header(buf, magic, what):
    if len(buf) < 4 or buf[:2] != magic:
        raise ValueError("not a Dicetray %s (bad magic)" % what)
    if buf[2] != codec.VERSION:
        raise ValueError("%s schema %d, this firmware reads %d: upgrade the %s"
                         % (what, buf[2], codec.VERSION, "firmware" if buf[2] > codec.VERSION else "backup"))


def decode_state(buf, depth=None, journal=True):
    """A Campaign whose fold starts from encoded state `buf` (no undo history)."""
    _check_header(buf, MAGIC, "state")
    return Campaign(buf[3], 0, depth, journal, bytes(buf))


def encode_snapshot(c):
    """The campaign with its undo window: its current state, the base state
    and midpoint of the window, the effective actions since the base and
    the redo stack. What the store keeps on flash: loading it refolds
    nothing, so boot costs one decode_state."""
    out = bytearray(SNAP_MAGIC)
    out.append(codec.VERSION)
    out.append(c.system)
    for b in (encode_state(c), c._base or b"", c._mid or b""):
        codec.put_int(out, len(b))
        out.extend(b)
    for evs in (c.done, c.undone):
        codec.put_int(out, len(evs))
        for ev in evs:
            codec.put_int(out, len(ev))
            out.extend(ev)
    return bytes(out)


def decode_snapshot(buf, depth=None, journal=False):
    """Rebuild a Campaign from encode_snapshot bytes (no refold)."""
    _check_header(buf, SNAP_MAGIC, "snapshot")
    get = codec.get_int
    i = 4
    parts = []
    for _ in range(3):
        m, i = get(buf, i)
        if i + m > len(buf):
            raise ValueError("snapshot truncated in its states")
        parts.append(bytes(buf[i:i + m]))
        i += m
    lists = ([], [])
    for evs in lists:
        k, i = get(buf, i)
        for _ in range(k):
            m, i = get(buf, i)
            if i + m > len(buf):
                raise ValueError("snapshot truncated in its events")
            evs.append(bytes(buf[i:i + m]))
            i += m
    if i != len(buf):
        raise ValueError("snapshot has %d trailing bytes" % (len(buf) - i))
    state, base, mid = parts
    for b in parts:
        if b:
            _check_header(b, MAGIC, "state")
    c = decode_state(state, depth, journal)
    c._base = base or None
    c._mid = mid or None
    c.done, c.undone = lists
    return c


def _load_state(c, buf):
    get = codec.get_int
    end = len(buf)
    c.system = buf[3]
    i = 4
    c.cid, i = get(buf, i)
    c.nevents, i = get(buf, i)
    n, i = get(buf, i)
    c.x = []
    for _ in range(n):
        v, i = get(buf, i)
        c.x.append(v)
    n, i = get(buf, i)
    c.chars = []
    for _ in range(n):
        name, i = codec.get_text(buf, i)
        m, i = get(buf, i)
        vals = []
        for _ in range(m):
            # A boot reads a state through here: the common one-byte
            # varint inline, as codec.decode_event does (a call costs more
            # than the decoding; it paid for the campaign's name).
            if i < end and buf[i] < 0x80:
                v = buf[i]
                vals.append((v >> 1) ^ -(v & 1))
                i += 1
            else:
                v, i = get(buf, i)
                vals.append(v)
        c.chars.append(Char(name, vals))
    n, i = get(buf, i)
    c.tals = []
    for _ in range(n):
        if i >= len(buf):
            raise ValueError("state truncated in its talismans")
        live = buf[i]
        i += 1
        if not live:
            c.tals.append(None)
            continue
        name, i = codec.get_text(buf, i)
        f = []
        for _ in range(8):
            if i < end and buf[i] < 0x80:   # as a character's fields
                v = buf[i]
                f.append((v >> 1) ^ -(v & 1))
                i += 1
            else:
                v, i = get(buf, i)
                f.append(v)
        t = tl.Talisman(name, f[0], f[2], f[3], f[4], f[5], f[6], f[7])
        t.n = f[1]
        c.tals.append(t)
    if i < end and buf[i]:   # the campaign's name, when it has one (never empty)
        c.name, i = codec.get_text(buf, i)
    else:
        c.name = ""
    if i != end:
        raise ValueError("state has %d trailing bytes" % (len(buf) - i))
    c.last = None


def replay(system, events, cid=0):
    """A new campaign with `events` applied in order."""
    c = Campaign(system, cid)
    for ev in events:
        c.apply(ev)
    return c
