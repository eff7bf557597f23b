"""BackupStore: the backup database whole, its reads (reads.py) and the
one transaction that writes a version (here), with what a damaged
journal's plan carries (the version before the damage, the runs)."""

from __future__ import annotations

import sqlite3
import time
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...rules import campaign as cp
from ...rules import codec
from ..eventsdigest import events_digest
from ..history import sha
from .errors import Overtaken, StoreError
from .reads import Reads

if TYPE_CHECKING:  # the types a script sees; nothing of them is imported to run
    from ...link.tray import Tray
    from ..take import Result


class BackupStore(Reads):
    """The SQLite database of backups.

    `create` (what `dicetray backup` does): make the database (and the
    default data directory) if it does not exist yet, and add the tables a
    newer dicetray uses. Without it (every other command) the database is
    only read: a missing file raises NoDatabase and nothing is created."""

    def stage(self, name):
        """take() has come to stage `name` ("fetched", "events", "row"): a
        test's `fault` hook may stop it there (nothing is stored)."""
        if self.fault:
            self.fault(name)

    def take(
        self,
        dev: Tray,
        progress: Callable[..., Any] | None = None,
        now: float | None = None,
    ) -> Result:
        """Back up the device's campaign: fetch only events after the newest
        backup, verify that they fold to the device's state, and store a new
        version in one transaction (or report that nothing changed).

        The newest backup's events are read and checked (CRCs, digest), not
        refolded: the new events fold onto its stored fold."""
        from ..take import take

        return take(self, dev, progress, now)

    def keep_fold(self, bid, c, h):
        """Store the fold of an existing backup that has none (a database
        from before folds were kept) so the next backup starts from it. A
        cache, checked at every use: a database that cannot take it (read-
        only) is left as it is, and a damaged one stays (never replaced)."""
        if not self.has_folds or c.depth is None:
            return
        snap = zlib.compress(cp.encode_snapshot(c))
        try:
            self.db.execute(
                "INSERT OR IGNORE INTO folds (backup, depth, snap, sha, digest) VALUES (?,?,?,?,?)",
                (bid, c.depth, snap, sha(snap), h.state()),
            )
        except sqlite3.DatabaseError:
            pass

    def write(self, p, cid, system, last, state, h, info, now, c, head=None, links=None, over=None):
        """Write version `p` (plan.py's TakePlan: its fetched events `new` from
        `new_from`, the state after `last`, the events digest `h`, the
        fold `c`, the chain's head after `last` and after each new event)
        in one transaction with what the plan carries from a damaged
        journal (damaged.py): `p.before`, the version of the events
        before its damage, written first (its plan and the same values
        as a tuple), and `p.runs`, the events read between damaged
        records (damaged.Kept). A note may be a callable: given the ids
        written before this version, it gives the words. `over`: the
        newest version the plan was made from (newest's, or None):
        another one found there in the transaction raises Overtaken. The
        version's id; StoreError: nothing was added."""
        db = self.db
        t = time.time() if now is None else now
        before = p.before
        if p.runs and not self.has_runs:
            raise StoreError(
                "backup not taken: backup database %s has no table for the events read "
                "between damaged records (a database from before them, opened to read "
                "only): `dicetray backup` adds it" % self.path
            )
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                if self.newest(cid, system) != over:  # a backup run at the same time stored it
                    raise Overtaken()
                done, camp = [], p.camp
                if before is not None:
                    bp, blast, bstate, bh, bc, bhead, blinks = before
                    b0, camp0 = self._insert(
                        bp, None, cid, system, blast, bstate, bh, bc, bhead, blinks, info, t
                    )
                    done.append(b0)
                    camp = camp0 if camp is None else camp
                p.notes = [n(done) if callable(n) else n for n in p.notes]
                bid, camp = self._insert(
                    p, camp, cid, system, last, state, h, c, head, links, info, t
                )
                done.append(bid)
                for r in p.runs:
                    self._insert_run(camp, bid, cid, r)
                self.stage("row")
                for b in done:
                    db.execute("UPDATE backups SET complete=1 WHERE id=?", (b,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as e:
            raise self._error(e, " while writing a backup (nothing was added)")
        return bid

    def _insert(self, p, camp, cid, system, last, state, h, c, head, links, info, t):
        """write's rows of one version (in its transaction): its lineage
        (`camp`, None: the plan's, or a new one), base, row, fold and new
        events. (backup id, lineage id)."""
        db = self.db
        camp = p.camp if camp is None else camp
        base_id = p.base_id
        fsnap = (
            zlib.compress(cp.encode_snapshot(c)) if c.depth is not None and self.has_folds else None
        )
        if camp is None:
            camp = db.execute(
                "INSERT INTO campaigns (cid, system, schema, parent, fork, "
                "created) VALUES (?,?,?,?,?,?)",
                (cid, system, codec.VERSION, p.parent, p.fork, t),
            ).lastrowid
        if p.baseline:
            bh = p.base_head.hex() if p.base_head is not None else None
            base_id = db.execute(
                "INSERT INTO bases (campaign, seq, snap, sha, head) VALUES (?,?,?,?,?)",
                (camp, p.base_seq, p.base_snap, sha(p.base_snap), bh),
            ).lastrowid
        bid = db.execute(
            "INSERT INTO backups (campaign, base, first, last, state, state_sha, "
            "events_sha, gap, device, firmware, created, complete, head) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,0,?)",
            (
                camp,
                base_id,
                p.first,
                last,
                state,
                sha(state),
                h.hexdigest(),
                " ".join(p.notes),
                str(info.get("device", "")),
                str(info.get("firmware", "")),
                t,
                head,
            ),
        ).lastrowid
        if fsnap is not None:
            db.execute(
                "INSERT INTO folds (backup, depth, snap, sha, digest) VALUES (?,?,?,?,?)",
                (bid, c.depth, fsnap, sha(fsnap), h.state()),
            )
        self._put(camp, cid, p.new_from, p.new, links)
        return bid, camp

    def _insert_run(self, camp, bid, cid, r):
        """A run of events a damaged journal gave (damaged.Kept), kept with
        version `bid` of lineage `camp`: its events stored as a version's."""
        self._put(camp, cid, r.first, r.events, r.links)
        self.db.execute(
            "INSERT INTO runs (campaign, backup, first, last, events_sha, anchor, head, "
            "checked, gap) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                camp,
                bid,
                r.first,
                r.last,
                events_digest(r.first, r.events),
                r.anchor,
                r.head,
                r.checked,
                r.gap,
            ),
        )

    def _put(self, camp, cid, first, events, links):
        """Events first.. into lineage `camp`, each once: one it already
        holds must be the same bytes (StoreError, the transaction rolled
        back)."""
        db = self.db
        for i, ev in enumerate(events):
            s = first + i
            old = db.execute(
                "SELECT ev FROM events WHERE campaign=? AND seq=?", (camp, s)
            ).fetchone()
            if old is None:
                db.execute(
                    "INSERT INTO events (campaign, seq, ev, crc, link) VALUES (?,?,?,?,?)",
                    (camp, s, ev, zlib.crc32(ev), links[i] if links else None),
                )
            elif bytes(old[0]) != ev:
                raise StoreError(
                    "stored event %d of campaign %d differs from the "
                    "device's: backup not taken" % (s, cid)
                )
            if i == len(events) // 2:
                self.stage("events")
