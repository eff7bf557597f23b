"""The events digest (docs/backup.md): SHA-256 over each event as
b"seq:len:" + event, so a digest names both the events and their numbers.
The backup database keeps it with every version (events_sha) and the web
page's backup file with its events (events_sha256): one function for both,
which the page loads as a top-level module (tools/web.py builds it into the
site), so it is MicroPython: hashlib's sha256 and nothing of CPython alone.
"""

import hashlib
from binascii import hexlify


def digest(first, events, h=None):
    """The events digest's hash object (hashlib's, or `h` continued: the
    host's resumable Sha256) after the events first..first+len-1."""
    if h is None:
        h = hashlib.sha256()
    for i, ev in enumerate(events):
        h.update(b"%d:%d:" % (first + i, len(ev)) + ev)
    return h


def events_digest(first, events):
    """The digest of the events first..first+len-1, in hex."""
    return hexlify(digest(first, events).digest()).decode()
