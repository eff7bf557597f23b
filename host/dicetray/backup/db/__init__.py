"""The backup database: one SQLite file of immutable campaign versions.

Tables (docs/backup.md has the full schema and the reasons):
- campaigns: one row per lineage of a device campaign (cid, system). A device
  whose history no longer matches the stored one (an older backup restored
  and played on) gets a new lineage whose `parent`/`fork` say where it split.
- events: every event once, keyed by (lineage, seq), with its CRC-32. A
  lineage reads events up to its fork from its parent.
- bases: device snapshots a backup starts from when the device had already
  compacted events the host never saw (the gap is written in the backup).
- backups: immutable versions (seq range, state and its SHA-256, a digest
  of the events it covers, a complete flag). SQLite triggers refuse any
  DELETE and any UPDATE except the one that marks a new row complete.
- runs: events a damaged journal gave between two damaged records (no
  state before them to fold from): kept with the version taken then, in
  `events`, named with their gaps, never a version (BackupStore.runs).
- folds: each backup's campaign after its last event with the host's undo
  window (encode_snapshot, zlib) and the state of its events digest,
  written with the backup: the next backup folds and digests only the new
  events from there.
- the hash chain (firmware/store/chain.py): every event row keeps the
  chain's head after it (`link`), every backup the head after its last
  event, every base the head after its snapshot; load() checks every link
  (naming the first event that does not lead to its own), take() (take.py)
  that the device's own head agrees with the stored history before
  building on it.

The modules: schema.py (the tables), errors.py (StoreError and its kinds;
what is wrong with the file, in words), connection.py (opened, checked,
the tables a newer dicetray added), reads.py (load, resumable, list,
restore_payload, runs), writes.py (BackupStore: the reads and the write).
Only this package imports sqlite3 (tests/host/test_import_rules.py).

A backup is written in one transaction (BackupStore.write, the database's
only write of a version) and its row is read only when complete = 1, so a
host killed mid-backup leaves earlier versions intact and never a partial
one that looks whole. Every read verifies what it reads and raises
StoreError naming the backup, event or file that is damaged, or what else
is wrong with the file (read-only, missing, a directory, in use).

What a backup continues is planned by plan.py (pure: data in, plan
out); the device read, the fold and the checks before the write are
take.py's, which BackupStore.take calls.
"""

from .errors import NoDatabase, Overtaken, StoreError
from .reads import LIST_SQL
from .schema import DB_NAME, SCHEMA, STORE_VERSION
from .writes import BackupStore

__all__ = [
    "BackupStore",
    "StoreError",
    "NoDatabase",
    "Overtaken",
    "STORE_VERSION",
    "DB_NAME",
    "SCHEMA",
    "LIST_SQL",
]
