"""The campaign on the board's flash: the session the app acts through.

Flash layout under ROOT:
    cN/          the store of campaign N (store/: journal + snapshots);
                 the highest N is the current campaign
    nN/          staging for a new campaign N, renamed to cN/ once its
                 first snapshot is on flash (a power cut leaves cN-1 current)
    dN/          slot N being deleted (renamed from cN first: a reset leaves
                 the slot whole or this, which the next list, switch or
                 delete removes; boot never looks: store/slots.py)
    ui.txt       device settings (bright=N); written once the first run's
                 tour ends, so a tray with it is no longer new

Every action: Campaign.act, then Store.append of its event, before any
screen reports it; every SNAP_EVERY events and after an undo a snapshot (encode_snapshot:
the state with its undo window, so undo reaches as far back after a
reboot as before it).
"""

from rules import campaign as cp
from rules.dice import Dice
import store

ROOT = "/dicetray"
# A snapshot is due every SNAP_EVERY events (each replayed at boot costs
# ~280,000 fuel; a snapshot writes ~1.3 KB: 16 keeps boot within ~4 M fuel
# of replay for 3.6 % more flash wear than 32: docs/store.md,
# docs/performance.md) and after an undo (replaying one refolds up to
# UNDO_DEPTH events). Snapshots, and folding the pending journal into its
# segment, wait for an idle moment (tidy()): an action costs one metadata
# commit, no erase (docs/store.md, "Pending journal"). A host that never
# pauses gives none: at SNAP_MAX events since the last snapshot the action
# writes it itself, so a boot replays fewer than SNAP_MAX (plus any a
# power cut caught inside that write).
SNAP_EVERY = 16
SNAP_MAX = 2 * SNAP_EVERY
REPLAY_STEP = 16   # events a boot's replay hands over between the board's spare() calls
BLOCK = store.BLOCK   # the flash's erase block: what a slot holds, in blocks
KEEP_EVENTS = 64   # events kept in RAM for the log after a snapshot


def store_fs(fs):
    """The store's fs for a board's `fs`: a store fs (store/fs.py) as it is,
    the `os` module wrapped in OsFs. Told apart by size(), which no os
    module has (whether os.sync exists differs between ports)."""
    return fs if hasattr(fs, "size") else store.OsFs()


class Session:
    """The campaign and its store (the app's `session`)."""

    new = False  # a new tray (blank flash): the first run's tour shows

    def __init__(self, board, spare=None):
        """The campaign on `board`'s flash; `spare`: called between the
        steps of a long replay (load()), the board's spare() without it."""
        self.board = board
        fs = board.fs
        self.fs = store_fs(fs)
        self.kind = getattr(fs, "kind", None)  # a board that knows its filesystem says so
        self.dice = Dice(board.seed())
        self.warnings = []
        self._found = []   # (slot, text) of the damage scrub() reported
        self.bright = 3
        self.st = None
        self._snap = False  # a snapshot is due (tidy() writes it)
        self._cpt = False   # ...and its compaction, a step of its own
        self._held = False  # tidy() failed: it waits for the next action
        self.fs.mkdir(ROOT)
        saved = self._load_settings()
        self.n = self._current()
        if self.n == 0:
            self.new_campaign(0)
        else:
            self.load(spare if spare is not None else getattr(board, "spare", None))
        # New only on a blank flash: campaign 1, nothing done in it yet,
        # and no settings file, which the tour's end writes. Existing
        # names only, and nothing stored on a used flash: both would
        # cost every boot (docs/architecture.md).
        if self.n == 1 and not self.c.nevents and not saved:
            self.new = True

    # --- campaigns on flash ---------------------------------------------
    def _current(self):
        best = 0
        for name in self.fs.listdir(ROOT):
            if len(name) > 1 and name[0] == "c" and name[1:].isdigit():
                k = int(name[1:])
                if k > best:
                    best = k
        return best

    # Campaign slots (Settings > Campaigns, the host's `campaigns`): the
    # work is in store/slots.py, imported only when asked for.
    def campaigns(self, *a):
        """campaigns(lo=0, most=-1) -> (slots, next): (n, campaign id,
        system, events, bytes, littlefs blocks) of each slot n >= lo,
        lowest first, at most `most` (-1: all); next: the slot after them,
        -1 if none. The current one is slot self.n. (*a: no new names at
        boot, docs/store.md.)"""
        from store import slots
        from salvage import names
        return slots.campaigns(self.fs, ROOT, names, *a)

    def switch(self, n):
        """Make slot n the current campaign (it becomes the highest slot);
        False if it already is. ValueError: no such slot."""
        from store import slots
        return slots.switch(self, n, ROOT)

    def delete(self, n):
        """Delete slot n, never the current one (ValueError); returns the
        (bytes, blocks) it held."""
        from store import slots
        return slots.delete(self, n, ROOT)

    def load(self, spare=None):
        """Open campaign n's store and rebuild the campaign: the newest
        snapshot that reads, then the journal after it streamed onto it
        REPLAY_STEP events at a time, `spare()` (the board's, at boot)
        between steps: a backlog costs time, never memory. A replay of
        SNAP_MAX events or more is snapshotted at once."""
        if self.st is not None:
            self.st.close()
        self.st = store.Store(self.fs, "%s/c%d" % (ROOT, self.n), self.kind, store.JOURNAL_KEEP,
                              pend=True)
        self._snap = self._cpt = False
        self._errs = []
        if not self._begin():
            from salvage import salvage  # loaded only then, not at every boot
            salvage(self, spare, REPLAY_STEP)
        # This frame and the ones below it stay small: spare() may collect
        # garbage (the simulator's collector frees a big frame: simboard/desktop.py).
        while self.st.replay(self._apply, REPLAY_STEP):
            if spare is not None:
                spare()
        self._loaded()

    def _begin(self):
        """Recover the store; the campaign from its snapshot (self.c);
        False when none reads."""
        state, self._rep = self.st.recover()
        self._nrep = 0
        if state is not None:
            try:
                self.c = cp.decode_snapshot(state, cp.UNDO_DEPTH, True)
                return True
            except ValueError as e:
                self._errs.append("snapshot unreadable: %s" % e)
        return False

    def _apply(self, ev):
        """One replayed event onto the campaign (the store's replay hands it)."""
        c = self.c
        self._nrep += 1
        try:
            c.apply(ev)
        except ValueError as e:
            self._errs.append("event %d not replayed: %s"
                              % (max(0, self._rep.snap) + self._nrep, e))
        if len(c.events) > 2 * KEEP_EVENTS:
            del c.events[:KEEP_EVENTS]

    def _loaded(self):
        """The end of load(): what recovery found on the screen, and a long
        replay snapshotted (the next boot replays none of it)."""
        self._topped = False  # recent() has not read the journal yet
        errs = self._rep.errors + self._errs
        if errs:
            self.warnings.append(("STORE DAMAGE", "\n".join(errs)))
        for n in self._rep.notes:
            if "not littlefs" in n:
                self.warnings.append(("FILESYSTEM", n))
        self._rep = self._errs = None
        if self._nrep >= SNAP_MAX:
            self._snapshot_now()
        elif self.st.backlog() >= SNAP_EVERY:
            self._snap = True  # owed before the reset: do() still writes it by SNAP_MAX

    def _snapshot_now(self):
        """The snapshot due, written now, not at an idle moment (none came,
        or a boot replayed a long journal); a flash that refuses it leaves
        it due (the events are on flash already)."""
        try:
            self.snapshot()
        except OSError:
            self._snap = True

    def _cid(self):
        """A new campaign id (< 2**29: encodable): the board's entropy()
        where it has one (the simulator's: fresh from the host, never fixed
        by --seed, so every flash gets its own ids), else its seed() (a
        board's is the chip's hardware entropy)."""
        b = self.board
        return getattr(b, "entropy", b.seed)() & 0x1FFFFFFF

    def new_campaign(self, system):
        """Start campaign n+1 of `system`; the old one stays on flash
        (staged and swapped in as a restore is: staging.py, loaded now)."""
        from staging import new_campaign
        new_campaign(self, system)

    # --- actions -----------------------------------------------------------
    def do(self, kind, args=(), text="", faces=None):
        """Act, then append the event to the journal; returns the Outcome
        once the event is on flash (the pending journal: store/__init__.py).
        ValueError: refused, nothing changed."""
        c = self.c
        out = c.act(kind, args, text, dice=None if faces is not None else self.dice,
                    faces=faces)
        try:
            self.st.append(c.events[-1])
        except Exception:
            self.load()  # RAM back to what the flash holds
            raise
        self._held = False
        if self.st.seq % SNAP_EVERY == 0 or kind == cp.UNDO:
            self._snap = True
        if self._snap and self.st.backlog() >= SNAP_MAX:
            self._snapshot_now()  # no idle moment came (a host that never pauses)
        if len(c.events) > 2 * KEEP_EVENTS:
            del c.events[:KEEP_EVENTS]  # RAM: the log shows the recent ones
        return out

    def recent(self):
        """The campaign's recent events, oldest first (the log, the
        builder's last roll): the ones in RAM, topped up once from the
        journal, since a boot replays only those after the snapshot."""
        c = self.c
        if not self._topped:
            self._topped = True
            need = KEEP_EVENTS - len(c.events)
            top = self.st.seq - len(c.events)  # the newest event not in RAM
            if need > 0 and top > 0:
                try:
                    c.events[0:0] = self.st.read(top - need if top > need else 0, top)
                except OSError:
                    pass  # the log shows less; nothing else depends on it
        return c.events

    def info(self):
        """(campaign id, system, events, oldest event held, chain head as
        hex or None, the scrub's last whole cycle: (cycles, first and last
        event the chain was checked over, no break) or None): the Info
        screen's facts, which live in the store."""
        from binascii import hexlify
        st = self.st
        return (self.c.cid, self.c.system, st.seq, st.first(),
                None if st.head is None else hexlify(st.head).decode(),
                getattr(st, "scrubbed", None))

    def snapshot(self, compact=True):
        """Snapshot the campaign now (compact=False: its compaction is
        left to the next idle step, tidy())."""
        self._snap = False
        self.st.snapshot(cp.encode_snapshot(self.c), self.st.seq, compact)

    def tidy(self, settle=False):
        """The flash work actions leave for an idle moment (the app calls
        this when no key came for a while): the snapshot due, else a fold
        of the pending journal when it is due, or whenever there are
        pending records with `settle` (the app is about to read the
        journal: the scrub, the builder's pool). True when it did some
        (call again: there may be more), False when none was due or the
        flash refused (the next idle moment tries again; nothing is lost:
        the events are on flash already)."""
        st = self.st
        if self._held:
            return False
        try:
            if (self._snap or settle) and st.pending():
                st.fold_step()    # a fold before a read, a step a call: the
                # reader's own settle() would do it all at once (~3 erases)
            elif self._snap:
                self.snapshot(False)
                self._cpt = True
            elif self._cpt:
                self._cpt = False
                st.compact()
            elif st.due():
                st.fold_step()    # a step a call: each at most about one erase
            else:
                return False
        except OSError:
            self._held = True     # not again before the next action
            return False
        return True

    def scrub(self):
        """Check one more segment of the journal the boot does not read
        (Store.scrub_step; the app calls this every few seconds when idle).
        Damage found (a break in the hash chain too) is a STORE DAMAGE
        warning, as the boot's are (the link's info reports it): the
        ("STORE DAMAGE", text) the first time it is found, None otherwise."""
        try:
            text = self.st.scrub_step()
        except OSError:
            return None   # the flash unreadable now: the next call tries again
        if text is None:
            return None
        key = (self.n, text)
        if key in self._found:
            return None   # reported once, not at every cycle
        self._found.append(key)
        w = ("STORE DAMAGE", text)
        self.warnings.append(w)
        return w

    # --- settings ------------------------------------------------------------
    def _load_settings(self):
        """Read ui.txt; False if there is none (never saved: a new tray)."""
        try:
            f = self.fs.open(ROOT + "/ui.txt", "r")
        except OSError:
            return False
        try:
            try:
                for line in f.read().split("\n"):
                    if line.startswith("bright="):
                        self.bright = max(0, min(4, int(line[7:])))
            finally:
                f.close()
        except (OSError, ValueError):
            pass
        return True

    def set_bright(self, level):
        self.bright = level
        try:
            f = self.fs.open(ROOT + "/ui.tmp", "w")
            f.write("bright=%d\n" % level)
            self.fs.sync(f)
            f.close()
            try:
                self.fs.remove(ROOT + "/ui.txt")
            except OSError:
                pass
            self.fs.rename(ROOT + "/ui.tmp", ROOT + "/ui.txt")
        except OSError:
            pass  # a setting, not campaign data: keep running
