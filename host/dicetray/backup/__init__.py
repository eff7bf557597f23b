"""The host's backup store: one SQLite database of immutable campaign versions.

    st = BackupStore()                      # $DICETRAY_HOME/backups.sqlite3
    r = st.take(dev)                        # incremental; r.backup, r.duplicate, r.notes
    st.list(); b = st.load(3)               # load verifies hashes and refolds
    st.runs(3)                              # what a damaged journal left between damaged records
    snap, events, seq = st.restore_payload(3)
    BackupStore(path, create=False)         # read only what exists (every command but backup)

The modules (docs/backup.md has the schema, the reasons and the costs):
- db/: the database, the only SQLite of it. schema.py (the tables),
  errors.py (StoreError and NoDatabase, the checks of the file and the
  honest words for what is wrong with it), connection.py (opened, the
  tables a newer dicetray added), reads.py (list, load, resumable,
  restore_payload, runs, incomplete), writes.py (BackupStore: the reads
  and the one transaction that writes a backup).
- plan.py: the plan of a backup, pure (data in, plan out): which lineage
  the device continues, which events are new, a baseline where it
  compacted events the host never saw; TakePlan.
- take.py: taking a backup from a device (BackupStore.take calls it):
  the reads plan.py asks for, the fold and the checks against the
  device's state and chain head, then the database's write; Result.
- damaged.py: the plan of a backup of a damaged journal, pure (take.py
  reads what it asks for): the version before the damage, the device's
  state after it, and every run read between damaged records, kept (not
  folded) and chained where it can be.
- history.py: what a backup holds, folded and digested: HOST_DEPTH,
  start and fold, Sha256 (a resumable SHA-256), unhex, the chain's walk,
  Backup and Run.
- eventsdigest.py: the events digest (digest, events_digest), MicroPython: the
  web page's backup file is digested by the same file.
- verify.py: `dicetray verify`'s comparison of a backup with a device,
  event by event and by the hash chain (against, Verdict).

Every name is here as it was when this was one module (backup.py), so
`from dicetray import backup as bk` and `bk.BackupStore(...)`, `bk.fold`,
`bk.StoreError`, `bk.HOST_DEPTH`, ... work as before.
"""

from .eventsdigest import digest, events_digest
from .db import DB_NAME, LIST_SQL, SCHEMA, STORE_VERSION, BackupStore, NoDatabase, StoreError
from .history import (
    HOST_DEPTH,
    Backup,
    Run,
    Sha256,
    fold,
    sha,
    start,
    unhex,
)
from . import verify
from .plan import device_notes, unchecked
from .take import Result, device_head, snapshot_bytes

__all__ = [
    "BackupStore",
    "StoreError",
    "NoDatabase",
    "STORE_VERSION",
    "DB_NAME",
    "SCHEMA",
    "LIST_SQL",
    "HOST_DEPTH",
    "Backup",
    "Run",
    "Sha256",
    "sha",
    "events_digest",
    "digest",
    "start",
    "fold",
    "unhex",
    "Result",
    "device_head",
    "device_notes",
    "snapshot_bytes",
    "unchecked",
    "verify",
]
