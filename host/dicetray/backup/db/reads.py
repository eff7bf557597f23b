"""The backup database's reads: a backup loaded and verified (hashes,
CRCs, the hash chain, its fold), resumed from its stored fold, listed
(row by row past a damaged page), a restore's payload, the runs a
damaged journal left; and what take() asks before it writes."""

from __future__ import annotations

import builtins  # `list` is also a method of BackupStore: its annotations say builtins.list
import sqlite3
import zlib
from typing import Any

from ...rules import campaign as cp
from ...rules import systems
from ..eventsdigest import digest, events_digest
from ..history import Backup, Run, Sha256, fold, sha, unhex, walk
from .connection import Connection
from .errors import StoreError, corrupt

LIST_SQL = (
    "SELECT b.id, b.campaign, c.cid, c.system, b.first, b.last, b.state_sha, b.gap, "
    "b.device, b.firmware, b.created, c.parent, c.fork, "
    "(SELECT seq FROM bases WHERE id=b.base), c.id "
    "FROM backups b LEFT JOIN campaigns c ON c.id=b.campaign WHERE b.complete=1 %s "
    "ORDER BY b.id"
)


class Reads(Connection):
    """What is read from the database (BackupStore adds the one write)."""

    def _lineage(self, camp):
        r = self._q("SELECT cid, system, schema, parent, fork FROM campaigns WHERE id=?", (camp,))
        if not r:
            raise StoreError(
                "backup database %s: campaign lineage %d is missing" % (self.path, camp)
            )
        return r[0]

    def _events(self, camp, lo, hi, who="campaign", links=None):
        """Events lo..hi of lineage `camp` (its parent's up to the fork),
        CRC-checked; `links`: a list their stored chain heads are appended to."""
        out: list[bytes] = []
        if lo > hi:
            return out
        cid, _s, _v, parent, fork = self._lineage(camp)
        if parent is not None and lo <= fork:
            out = self._events(parent, lo, min(hi, fork), who, links)
            lo = fork + 1
            if lo > hi:
                return out
        rows = self._q(
            "SELECT seq, ev, crc, %s FROM events WHERE campaign=? AND seq BETWEEN ? "
            "AND ? ORDER BY seq" % ("link" if self.has_heads else "NULL"),
            (camp, lo, hi),
            " reading events of %s" % who,
        )
        want = lo
        for seq, ev, crc, lk in rows:
            if links is not None:
                links.append(lk)
            if seq != want:
                raise StoreError(
                    "%s: event %d of campaign %d is missing from %s" % (who, want, cid, self.path)
                )
            if zlib.crc32(ev) != crc:
                raise StoreError(
                    "%s: event %d of campaign %d is damaged (CRC mismatch) in %s"
                    % (who, seq, cid, self.path)
                )
            out.append(bytes(ev))
            want += 1
        if want != hi + 1:
            raise StoreError(
                "%s: event %d of campaign %d is missing from %s" % (who, want, cid, self.path)
            )
        return out

    def _row(self, bid):
        # An id beyond SQLite's 64-bit integers is in no row (sqlite3 would
        # raise OverflowError for it).
        r = (
            self._q(
                "SELECT id, campaign, base, first, last, state, state_sha, events_sha, gap, "
                "device, firmware, created, complete FROM backups WHERE id=?",
                (bid,),
                " reading backup %s" % bid,
            )
            if -(2**63) <= bid < 2**63
            else None
        )
        if not r:
            raise StoreError("no backup %s in %s: `dicetray backups` lists them" % (bid, self.path))
        if not r[0][12]:
            raise StoreError(
                "backup %s is incomplete (a backup was interrupted): it cannot be used; "
                "take a new one with `dicetray backup`" % bid
            )
        return r[0]

    def load(self, bid: int, verify: bool = True, events: bool = True) -> Backup:
        """Backup `bid` with its events, verified: hashes, CRCs, and (verify)
        that its events fold to its recorded state. StoreError names damage.
        events=False: only the row, its state and its base, checked (take())."""
        row = self._row(bid)
        who = "backup %d" % bid
        camp, base, first, last, state, ssha, esha = row[1:8]
        cid, system, schema, _p, _f = self._lineage(camp)
        if sha(state) != ssha:
            raise StoreError(
                "%s is damaged: its state does not match its SHA-256 (in %s); "
                "other backups are unaffected" % (who, self.path)
            )
        base_seq, snap, bhead = 0, None, None
        if base is not None:
            b = self._q(
                "SELECT seq, snap, sha%s FROM bases WHERE id=?"
                % (", head" if self.has_heads else ""),
                (base,),
                " reading " + who,
            )
            if not b or sha(b[0][1]) != b[0][2]:
                raise StoreError(
                    "%s is damaged: its base snapshot %s is missing or fails its "
                    "SHA-256 (in %s)" % (who, base, self.path)
                )
            base_seq, snap = b[0][0], bytes(b[0][1])
            bhead = b[0][3] if self.has_heads else None
        evs: list[bytes] | None = None
        links: list = []
        if events:
            evs = self._events(camp, first, last, who, links)
            if events_digest(first, evs) != esha:
                raise StoreError(
                    "%s is damaged: its events %d..%d do not match their digest "
                    "(in %s)" % (who, first, last, self.path)
                )
        bk = Backup(row, cid, system, schema, base_seq, snap, evs)
        bk.state = bytes(state)
        bk.base_head = bhead
        if self.has_heads:
            bk.head = self._q("SELECT head FROM backups WHERE id=?", (bid,), " reading " + who)[0][
                0
            ]
        if events:
            bk.links = links
            heads, bad = bk.walk_chain()
            got = bk.head_at(last, heads) if bad is None else None
            if bad is not None:
                raise StoreError(
                    "%s does not hold: its event %d does not lead to the hash chain "
                    "head stored with it (in %s): it was changed after it was backed "
                    "up; restore from a backup that holds it as it was, or verify "
                    "against the device (`dicetray verify --backup %d`)"
                    % (who, bad, self.path, bid)
                )
            if got is not None and bk.head is not None and got.hex() != bk.head:
                raise StoreError(
                    "%s does not hold: its events do not lead to its hash chain head "
                    "(in %s): its history was changed after it was backed up" % (who, self.path)
                )
            if bk.head is None and got is not None:
                bk.head = got.hex()  # a backup from before the chain: computed, not stored
        if verify and events:
            try:
                c = bk.fold()
            except ValueError as e:
                raise StoreError("%s is damaged: its events do not replay (%s)" % (who, e))
            if cp.encode_state(c) != bk.state:
                raise StoreError(
                    "%s is damaged: its events do not fold to its recorded state" % who
                )
        return bk

    def resumable(self, bid):
        """Backup `bid` as take() builds on it: (backup, its campaign after
        its last event, its events digest as a Sha256, a note or None).

        From its stored fold when that checks (its SHA-256, the backup's
        state, the backup's events digest): then none of its events is
        read but the last one (b.anchor, CRC-checked), which the device's
        must match. Else (a backup from before folds were kept, or a
        damaged fold: the note says which) every event is read, checked,
        folded and digested. StoreError: the backup is damaged."""
        b = self.load(bid, verify=False, events=False)
        who = "backup %d" % bid
        note = None
        r = (
            self._q(
                "SELECT depth, snap, sha, digest FROM folds WHERE backup=?",
                (bid,),
                " reading " + who,
            )
            if self.has_folds
            else []
        )
        if r:
            depth, snap, s, dg = r[0]
            try:
                c = (
                    cp.decode_snapshot(zlib.decompress(snap), depth, False)
                    if sha(snap) == s
                    else None
                )
                h = Sha256(bytes(dg))
            except (ValueError, zlib.error):
                c = None
            if (
                c is not None
                and c.nevents == b.last
                and cp.encode_state(c) == b.state
                and h.copy().hexdigest() == b.events_sha
            ):
                b.anchor = (
                    self._events(b.lineage, b.last, b.last, who)[0] if b.last >= b.first else None
                )
                return b, c, h, None
            note = (
                "the stored fold of backup %d is damaged (in %s): its events were read and "
                "folded instead" % (bid, self.path)
            )
        b = self.load(bid, verify=False)
        try:
            c = fold(b.system, b.cid, b.base_snap, b.folded_events())
        except ValueError as e:
            raise StoreError("%s is damaged: its events do not replay (%s)" % (who, e))
        if cp.encode_state(c) != b.state:
            raise StoreError("%s is damaged: its events do not fold to its recorded state" % who)
        b.anchor = b.events[-1] if b.events else None
        return b, c, digest(b.first, b.events, Sha256()), note

    def list(self) -> builtins.list[dict[str, Any]]:
        """Complete backups, oldest first, as dicts (no verification). A row
        the database cannot give (a damaged page) is left out and named in
        `self.unreadable` as (id, why): every intact one is still listed."""
        self.unreadable = []
        try:
            rows = self.db.execute(LIST_SQL % "").fetchall()
        except sqlite3.DatabaseError as e:
            if not corrupt(e):
                raise self._error(e, " listing backups")
            rows = self._rows_one_by_one(e)
        out = []
        for r in rows:
            try:
                if r[14] is None:
                    raise ValueError("its campaign lineage %s is missing" % r[1])
                out.append(
                    {
                        "id": r[0],
                        "lineage": r[1],
                        "campaign": r[2],
                        "system": systems.NAMES[r[3]] if 0 <= r[3] < 3 else str(r[3]),
                        "first": r[4],
                        "last": r[5],
                        "events": r[5] - r[4] + 1,
                        "state_sha256": r[6],
                        "gap": r[7],
                        "device": r[8],
                        "firmware": r[9],
                        "created": r[10],
                        "parent": r[11],
                        "fork": r[12],
                        "base_seq": r[13] or 0,
                    }
                )
            except (TypeError, ValueError, IndexError) as e:
                self.unreadable.append((r[0], "its row is damaged (%s)" % e))
        return out

    def _rows_one_by_one(self, first_error):
        """The list's rows read one id at a time, so a damaged page costs
        only the rows on it. Ids run 1..max(id) with no hole (backups are
        never deleted); when max(id) itself cannot be read (the last page
        is the damaged one), a run of unreadable ids longer than a page
        holds is taken for the end."""
        try:
            hi = self.db.execute("SELECT max(id) FROM backups").fetchone()[0] or 0
        except sqlite3.DatabaseError:
            hi = None
        rows, i, run = [], 0, 0
        while hi is None or i < hi:
            i += 1
            try:
                if not self.db.execute("SELECT 1 FROM backups WHERE id=?", (i,)).fetchone():
                    break
                rows += self.db.execute(LIST_SQL % "AND b.id=?", (i,)).fetchall()
                run = 0
            except sqlite3.DatabaseError as e:
                if not corrupt(e):
                    raise self._error(e, " listing backups")
                self.unreadable.append((i, str(e)))
                run += 1
                if hi is None and run >= 256:
                    del self.unreadable[-run:]
                    self.unreadable.append((i - run + 1, "%s (and every backup after it)" % e))
                    break
        if not rows and self.unreadable and hi is None:
            raise self._error(first_error, " listing backups")
        return rows

    def incomplete(self) -> int | None:
        """How many interrupted (never completed) backup rows exist (None:
        the database cannot count them: list() names what is unreadable)."""
        try:
            return self.db.execute("SELECT count(*) FROM backups WHERE complete=0").fetchone()[0]
        except sqlite3.DatabaseError as e:
            if corrupt(e):
                return None
            raise self._error(e)

    def restore_payload(
        self, bid: int, depth: int = cp.UNDO_DEPTH, loaded: Backup | None = None
    ) -> tuple[bytes, builtins.list[bytes], int, int]:
        """(snapshot, events, seq, first) for Device.restore: `events` are
        the journal events numbered from `first`; `snapshot` is the campaign
        after event `seq` with the device's undo window. A full backup sends
        its whole history (first 1, seq = its last event, the snapshot
        refolded exactly as the device folds); a baseline sends the device
        snapshot it started from (seq = its event) and the events after it.
        `loaded`: backup `bid` as load() gave it (not read again)."""
        b = loaded if loaded is not None and loaded.id == bid else self.load(bid)
        if b.base_snap is None:
            return cp.encode_snapshot(b.fold(depth)), list(b.events), b.last, b.first
        return b.base_snap, b.folded_events(), b.base_seq, b.base_seq + 1

    def runs(self, bid: int) -> builtins.list[Run]:
        """The runs backup `bid` carries (docs/backup.md, "When the
        device's journal is damaged"): events of its lineage that a
        damaged journal gave between damaged records, kept with it or an
        earlier version of its lineage, before its first event; oldest
        first, each checked as a version's events are (CRC, digest, each
        stored link from the head the device recorded). StoreError names
        the one that fails; none in a database from before runs."""
        if not self.has_runs:
            return []
        row = self._row(bid)
        camp, first = row[1], row[3]
        rows = self._q(
            "SELECT r.id, r.backup, r.first, r.last, r.events_sha, r.anchor, r.head, "
            "r.checked, r.gap, b.created FROM runs r JOIN backups b ON b.id=r.backup "
            "WHERE r.campaign=? AND r.backup<=? AND r.last<? AND b.complete=1 ORDER BY r.first",
            (camp, bid, first),
            " reading the runs of backup %d" % bid,
        )
        out = []
        for r in rows:
            who = "run %d of backup %d" % (r[0], bid)
            links: builtins.list = []
            evs = self._events(camp, r[2], r[3], who, links)
            if events_digest(r[2], evs) != r[4]:
                raise StoreError(
                    "%s is damaged: its events %d..%d do not match their digest (in %s)"
                    % (who, r[2], r[3], self.path)
                )
            bad = walk(r[2], evs, links, r[5], unhex(r[6]))[1]
            if bad is not None:
                raise StoreError(
                    "%s does not hold: its event %d does not lead to the hash chain head "
                    "stored with it (in %s): it was changed after it was backed up"
                    % (who, bad, self.path)
                )
            out.append(Run(r, evs, links))
        return out

    # --- taking a backup: what take.py's take() reads and writes -------------
    def newest(self, cid, system):
        """(lineage id, newest complete backup row id) for this campaign, or None."""
        r = self._q(
            "SELECT b.campaign, b.id FROM backups b JOIN campaigns c ON c.id=b.campaign "
            "WHERE c.cid=? AND c.system=? AND b.complete=1 ORDER BY b.id DESC LIMIT 1",
            (cid, system),
        )
        return r[0] if r else None

    def fold_kept(self, bid):
        """Whether backup `bid` has its fold stored (a database that does not
        read counts as having it: nothing is added to it)."""
        try:
            return bool(
                self.has_folds
                and self.db.execute("SELECT 1 FROM folds WHERE backup=?", (bid,)).fetchone()
            )
        except sqlite3.DatabaseError:
            return True  # nothing to add to a database that does not read
