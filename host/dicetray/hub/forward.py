"""Roll forwarding: `dicetray serve --forward URL` (docs/hub.md, Forwarding).

Every record goes into a queue on disk (sqlite3) first, in one
transaction, and each URL has its own thread that posts the records in
order, one at a time, and moves its cursor past a record only once the
receiver answered 2xx. So the table never waits for a webhook, a webhook
that fails or never answers only delays its own queue, and what could
not be delivered is still there after a restart.

At least once: a hub killed between a receiver's 2xx and the cursor's
update posts that record again when it starts. Every record carries an
"id" that names it for good (device:campaign:seq), so a receiver can
drop the second copy.
"""

import json
import os
import random
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

SCHEMA = "dicetray.event/1"
GIVE_UP = 5  # attempts at a record a receiver refuses for good (4xx) before skipping it
DISCORD_MAX = 2000  # Discord's limit on a message's content


def _shape(url):
    """(the URL to post to, "json" | "discord" | "slack"): a fragment
    #discord or #slack, or a Discord webhook URL, asks for a chat message."""
    u = urlsplit(url)
    kind = u.fragment if u.fragment in ("discord", "slack") else "json"
    if (
        kind == "json"
        and u.hostname in ("discord.com", "discordapp.com")
        and u.path.startswith("/api/webhooks/")
    ):
        kind = "discord"
    return urlunsplit(u._replace(fragment="")), kind


def body(record, kind):
    """The bytes posted for a record: the record as JSON, or a chat message."""
    if kind == "json":
        return json.dumps(record, separators=(",", ":")).encode("utf-8")
    text = record.get("summary") or json.dumps(record)[:200]
    if kind == "discord":
        return json.dumps({"content": text[:DISCORD_MAX]}).encode("utf-8")
    return json.dumps({"text": text}).encode("utf-8")


class Forwarder:
    """The queue at `path` (created, and its folder), posted to each of `urls`."""

    def __init__(self, urls, path, timeout=5.0, backoff=(0.5, 30.0)):
        self.urls = list(dict.fromkeys(urls))
        self.timeout = timeout
        self.backoff = backoff
        d = os.path.dirname(os.path.abspath(path))
        os.makedirs(d, exist_ok=True)
        # One connection, shared under a lock: puts come from the view's
        # thread, cursors move on the URLs' threads.
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.stopping = False
        self.threads = []
        self.stat = {u: {"delivered": 0, "failures": 0, "last_error": None} for u in self.urls}
        with self.lock:
            db = self.db
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS records (id INTEGER PRIMARY KEY AUTOINCREMENT,"
                " body TEXT NOT NULL)"
            )
            db.execute(
                "CREATE TABLE IF NOT EXISTS cursors (url TEXT PRIMARY KEY, last INTEGER NOT NULL)"
            )
            top = db.execute("SELECT COALESCE(MAX(id), 0) FROM records").fetchone()[0]
            db.execute("BEGIN")
            # A URL new at this start begins after what is queued (no history
            # replayed into a new channel); one no longer given holds nothing back.
            for u in self.urls:
                db.execute("INSERT OR IGNORE INTO cursors VALUES (?, ?)", (u, top))
            db.execute(
                "DELETE FROM cursors WHERE url NOT IN (%s)" % ",".join("?" * len(self.urls))
                if self.urls
                else "DELETE FROM cursors",
                self.urls,
            )
            db.execute("COMMIT")
            self._prune()

    def start(self):
        """One delivery thread a URL."""
        for u in self.urls:
            t = threading.Thread(target=self._run, args=(u,), name="forward", daemon=True)
            t.start()
            self.threads.append(t)
        return self

    def put(self, record):
        """Queue a record for every URL; returns at once (one INSERT, never the network)."""
        text = json.dumps(record, separators=(",", ":"))
        with self.wake:
            self.db.execute("INSERT INTO records (body) VALUES (?)", (text,))
            self.wake.notify_all()

    def stop(self, timeout=5.0):
        """Stop the threads; a post under way may finish or be made again at the next start."""
        with self.wake:
            self.stopping = True
            self.wake.notify_all()
        end = time.monotonic() + timeout
        for t in self.threads:
            t.join(max(0.0, end - time.monotonic()))
        with self.lock:
            self.db.close()

    def stats(self):
        """{url: {"delivered", "pending", "failures", "last_error"}}."""
        out = {}
        with self.lock:
            for u in self.urls:
                last = self.db.execute("SELECT last FROM cursors WHERE url = ?", (u,)).fetchone()[0]
                n = self.db.execute(
                    "SELECT COUNT(*) FROM records WHERE id > ?", (last,)
                ).fetchone()[0]
                out[u] = dict(self.stat[u], pending=n)
        return out

    # --- delivery ---------------------------------------------------------------
    def _next(self, url):
        """(id, record) of the next record for url, waiting for one; None when stopping."""
        with self.wake:
            while not self.stopping:
                row = self.db.execute(
                    "SELECT r.id, r.body FROM records r, cursors c WHERE c.url = ? AND r.id > c.last "
                    "ORDER BY r.id LIMIT 1",
                    (url,),
                ).fetchone()
                if row is not None:
                    return row[0], json.loads(row[1])
                self.wake.wait(1.0)
        return None

    def _done(self, url, rid):
        with self.lock:
            if not self.stopping:
                self.db.execute(
                    "UPDATE cursors SET last = ? WHERE url = ? AND last < ?", (rid, url, rid)
                )
                self._prune()

    def _prune(self):
        low = self.db.execute("SELECT MIN(last) FROM cursors").fetchone()[0]
        if low is None:
            low = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM records").fetchone()[0]
        self.db.execute("DELETE FROM records WHERE id <= ?", (low,))

    def _sleep(self, s):
        with self.wake:
            if not self.stopping:
                self.wake.wait(s)

    def _run(self, url):
        target, kind = _shape(url)
        st = self.stat[url]
        while True:
            nxt = self._next(url)
            if nxt is None:
                return
            rid, record = nxt
            tries = 0
            while not self.stopping:
                wait = None
                try:
                    req = urllib.request.Request(
                        target,
                        data=body(record, kind),
                        method="POST",
                        headers={"Content-Type": "application/json", "User-Agent": "dicetray-hub"},
                    )
                    with urllib.request.urlopen(req, timeout=self.timeout) as r:
                        r.read()
                    self._done(url, rid)
                    st["delivered"] += 1
                    break
                except urllib.error.HTTPError as e:
                    why = "HTTP %d %s" % (e.code, e.reason)
                    if e.code == 429:
                        try:
                            wait = float(e.headers.get("Retry-After", ""))
                        except ValueError:
                            wait = None
                    elif 400 <= e.code < 500 and e.code != 408 and tries + 1 >= GIVE_UP:
                        # refused for good: one bad record must not hold the queue forever
                        st["failures"] += 1
                        st["last_error"] = "%s: record %s skipped after %d attempts" % (
                            why,
                            record.get("id"),
                            GIVE_UP,
                        )
                        self._done(url, rid)
                        break
                except (urllib.error.URLError, OSError, ValueError) as e:
                    why = str(getattr(e, "reason", e)) or type(e).__name__
                tries += 1
                st["failures"] += 1
                st["last_error"] = why
                lo, hi = self.backoff
                delay = min(hi, lo * 2 ** min(tries - 1, 20))
                if wait is not None:
                    delay = min(hi, max(wait, 0.0))
                self._sleep(delay * (1 + random.uniform(-0.1, 0.1)))
