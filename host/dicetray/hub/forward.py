"""Roll forwarding: `dicetray serve --forward URL` (docs/hub.md, Forwarding).

Every record goes into a queue on disk (sqlite3) first, one row for each
URL, in one transaction, and each URL has its own thread that posts its
rows in order, one at a time, and deletes a row only once the receiver
answered 2xx (a redirect is not followed: it is not delivered). So the
table never waits for a webhook, a webhook that fails, stalls or trickles
its answer only delays its own queue (each post has a deadline, whole),
and what could not be delivered is still there after a restart.

The queue also keeps, for each URL, the last event of each tray campaign
it queued, and the campaign's state after it (marks, states): a hub that
starts again reads what each tray rolled meanwhile and queues it
(view.py, catching up).

At least once: a hub killed between a receiver's 2xx and the row's
deletion posts that record again when it starts. Every record carries an
"id" that names it for good (device:campaign:seq), so a receiver can
drop the second copy.

A queue file that refuses a write (another process's lock on it, a full
disk) loses nothing: the records are held in memory and queued in order
once it takes them (HELD_MAX at most; past that a campaign's records are
read from its tray again, from its mark, which moves only with a commit).
"""

import base64
import http.client
import json
import os
import random
import socket
import sqlite3
import threading
import time
from urllib.parse import unquote, urlsplit, urlunsplit

SCHEMA = "dicetray.event/1"
GIVE_UP = 5  # attempts at a record a receiver refuses for good (4xx) before skipping it
DISCORD_MAX = 2000  # Discord's limit on a message's content
DEADLINE_S = 10.0  # a post, from connecting to the answer's status and headers
BUSY_S = 0.5  # a write waits this long for another process's lock on the queue file
RETRY_S = 2.0  # after the queue file refused a write, the next try waits this long
HELD_MAX = 2000  # records held in memory while the queue file refuses them
QueueError = sqlite3.Error  # the queue file cannot be opened or written


def check(url):
    """`url` if the hub can post to it; ValueError saying why not (one line)."""
    if any(ch <= " " or ch >= "\x7f" for ch in url):
        # urlsplit drops a CR, an LF or a tab (the post would go elsewhere), and
        # http.client refuses a space or a character beyond ASCII at every post
        raise ValueError(
            "--forward %s: a URL holds no space, control character or character beyond "
            "ASCII: percent-encode them (%%20 for a space; a host name in its xn-- form)"
            % ascii(url)[1:-1]
        )
    try:
        u = urlsplit(url)
        u.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError as e:
        raise ValueError("--forward %s is not a URL: %s" % (url, e)) from None
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ValueError(
            "--forward %s: the hub posts to http:// or https:// URLs only "
            "(a webhook's URL, as its service gives it)" % url
        )
    return url


def label(url):
    """How the terminal and the page name a URL: its scheme and host, never
    its path (a Discord or Slack webhook's path is its secret)."""
    u = urlsplit(url)
    kind = _shape(url)[1]
    return "%s://%s/...%s" % (
        u.scheme,
        u.netloc.rpartition("@")[2],
        "" if kind == "json" else " (%s)" % kind,
    )


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


def slack_text(text):
    """`text` as Slack shows it and never reads as markup: &, < and > as
    its entities (so `<!channel>` is not a mention), and a word joiner
    after each @ (so `@channel`, `@here` never notify, whatever the app's
    link_names)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("@", "@\u2060")


def body(record, kind):
    """The bytes posted for a record: the record as JSON, or a chat message
    that mentions no one (a character named @everyone pings nobody)."""
    if kind == "json":
        return json.dumps(record, separators=(",", ":")).encode("utf-8")
    text = record.get("summary") or json.dumps(record)[:200]
    if kind == "discord":
        msg = {"content": text[:DISCORD_MAX], "allowed_mentions": {"parse": []}}
    else:
        msg = {"text": slack_text(text)}
    return json.dumps(msg).encode("utf-8")


class NotDelivered(Exception):
    """A post the receiver did not take: `status` its HTTP status (None: no
    answer), `retry` its Retry-After seconds if it gave some."""

    def __init__(self, why, status=None, retry=None):
        Exception.__init__(self, why)
        self.status = status
        self.retry = retry


def post(url, data, deadline):
    """POST `data` (JSON) to `url`; returns when the receiver answered 2xx
    within `deadline` seconds, from connecting to its status and headers
    (one byte a second never holds a post longer); NotDelivered otherwise.
    Its body is not read. Redirects are not followed. A user and password
    in the URL are sent as Basic auth."""
    u = urlsplit(url)
    headers = {"Content-Type": "application/json", "User-Agent": "dicetray-hub"}
    if u.username is not None:  # user:password@ in the URL: Basic auth (RFC 7617)
        cred = "%s:%s" % (unquote(u.username), unquote(u.password or ""))
        headers["Authorization"] = "Basic " + base64.b64encode(cred.encode("utf-8")).decode()
    cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
    conn = cls(u.hostname, u.port, timeout=deadline)
    late = threading.Event()

    def cut():  # the deadline: end the connection under whatever read or write waits on it
        late.set()
        if conn.sock is not None:
            try:
                socket.socket.shutdown(conn.sock, socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(deadline, cut)
    timer.daemon = True
    timer.start()
    try:
        path = (u.path or "/") + ("?" + u.query if u.query else "")
        conn.request("POST", path, body=data, headers=headers)
        r = conn.getresponse()
        status, reason = r.status, r.reason
        retry = r.getheader("Retry-After")
    except (OSError, http.client.HTTPException, ValueError) as e:
        if late.is_set() or isinstance(e, TimeoutError):
            raise NotDelivered(
                "no whole answer within %g s (the receiver may have the record, and "
                "gets it again at each try while the queue waits: a receiver must answer "
                "within %g s)" % (deadline, deadline)
            ) from None
        raise NotDelivered(str(e) or type(e).__name__) from None
    finally:
        timer.cancel()
        conn.close()
    if 200 <= status < 300:
        return
    why = "HTTP %d %s" % (status, reason)
    if 300 <= status < 400:
        why += " (a redirect is not followed: give --forward the URL it points to)"
    try:
        wait = float(retry) if status == 429 and retry else None
    except ValueError:
        wait = None
    raise NotDelivered(why, status, wait)


class Forwarder:
    """The queue at `path` (created, and its folder), posted to each of
    `urls`; `timeout`: each post's whole deadline (seconds)."""

    def __init__(self, urls, path, timeout=DEADLINE_S, backoff=(0.5, 30.0)):
        self.urls = [check(u) for u in dict.fromkeys(urls)]
        self.timeout = timeout
        self.backoff = backoff
        self.listeners = []  # f(url) after a URL's stats changed (the terminal, the page)
        d = os.path.dirname(os.path.abspath(path))
        os.makedirs(d, exist_ok=True)
        # One connection, shared under a lock: puts come from the view's
        # thread, deletions on the URLs' threads.
        self.path = path
        self.db = sqlite3.connect(
            path, timeout=BUSY_S, check_same_thread=False, isolation_level=None
        )
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.stopping = False
        self.threads = []
        self.held = []  # (record, snap) the queue file refused, in order
        self.behind = {}  # (device, campaign) -> first seq not held: read from the tray again
        self.refused = None  # when the queue file last refused a write (monotonic)
        self.dropped = 0  # held records past HELD_MAX of no tray campaign (none from a tray)
        self.told = False  # the stats changed under the lock: tell the listeners
        self.stat = {
            u: {
                "delivered": 0,
                "held": 0,
                "failures": 0,
                "last_error": None,
                "last_error_at": None,
                "last_success": None,
            }
            for u in self.urls
        }
        with self.lock:
            self._open()
            for u in self.urls:
                self.stat[u]["pending"] = self.db.execute(
                    "SELECT COUNT(*) FROM queue WHERE url = ?", (u,)
                ).fetchone()[0]

    def _open(self):
        db = self.db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("BEGIN")
        db.execute(
            "CREATE TABLE IF NOT EXISTS queue (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " url TEXT NOT NULL, body TEXT NOT NULL)"
        )
        db.execute("CREATE INDEX IF NOT EXISTS queue_url ON queue (url, id)")
        # the last event queued for each URL, each tray's campaign...
        db.execute(
            "CREATE TABLE IF NOT EXISTS marks (url TEXT NOT NULL, device TEXT NOT NULL,"
            " campaign INTEGER NOT NULL, seq INTEGER NOT NULL,"
            " PRIMARY KEY (url, device, campaign))"
        )
        # ...and the campaign's state after the last one (encode_snapshot)
        db.execute(
            "CREATE TABLE IF NOT EXISTS states (device TEXT NOT NULL, campaign INTEGER NOT NULL,"
            " seq INTEGER NOT NULL, snap BLOB NOT NULL, PRIMARY KEY (device, campaign))"
        )
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "cursors" in tables:  # the queue of a hub before marks: one list, a cursor each URL
            for u, last in db.execute("SELECT url, last FROM cursors").fetchall():
                db.execute(
                    "INSERT INTO queue (url, body) SELECT ?, body FROM records WHERE id > ?"
                    " ORDER BY id",
                    (u, last),
                )
            db.execute("DROP TABLE cursors")
            db.execute("DROP TABLE records")
        # A URL no longer given holds nothing back; one given again starts afresh.
        given = ",".join("?" * len(self.urls)) or "NULL"
        for table in ("queue", "marks"):
            db.execute("DELETE FROM %s WHERE url NOT IN (%s)" % (table, given), self.urls)
        db.execute("COMMIT")

    def start(self):
        """One delivery thread a URL."""
        for u in self.urls:
            t = threading.Thread(target=self._run, args=(u,), name="forward", daemon=True)
            t.start()
            self.threads.append(t)
        return self

    def put(self, record, snap=None):
        """Queue a record; returns at once (one transaction, never the
        network; at most BUSY_S waiting for another process's lock)."""
        self.put_many([(record, snap)])

    def put_many(self, items):
        """Queue (record, snap) pairs in order, in one transaction. A record
        with "device", "campaign" and "seq" goes to each URL whose mark for
        that tray campaign is before it (so none is queued twice), moves the
        marks, and `snap` (the campaign after it, encode_snapshot) is kept.
        What the queue file refuses is held and queued first at the next
        put or retry(); past HELD_MAX a campaign's records are dropped from
        the first one not held until the view reads them from the tray
        (retry() names the campaign)."""
        with self.wake:
            for record, snap in items:
                key = _key(record)
                if key in self.behind:
                    continue  # the tray gives it again, with the ones before it
                if snap is not None:  # only the last state of a campaign is kept
                    self.held = [(r, None if _key(r) == key else sn) for r, sn in self.held]
                self.held.append((record, snap))
            if self.refused is not None and time.monotonic() - self.refused < RETRY_S:
                self._said_held()
            else:
                self._flush()
        self._tell()

    def retry(self):
        """Queue the held records if the queue file's last refusal was
        RETRY_S ago; the (device, campaign) pairs whose records the view
        must read from the tray (catching up: resume()), once it takes
        records again."""
        with self.wake:
            if self.refused is not None and time.monotonic() - self.refused < RETRY_S:
                return []
            if self.held:
                self._flush()
            # (nothing held: catching up is itself the next try of the file)
            out = [] if self.held else sorted(self.behind)
        self._tell()
        return out

    def _flush(self):
        """Queue the held records in one transaction (under the lock):
        True if the queue file took them, else they stay held, said."""
        ok, queued = self._transaction(
            lambda: [u for record, snap in self.held for u in self._put(record, snap)]
        )
        if not ok:
            return False
        self.held = []
        for u in queued:
            self.stat[u]["pending"] += 1
        for u in self.urls:
            self.stat[u]["held"] = 0
        self.told = True
        self.wake.notify_all()
        return True

    def _said_held(self, e=None):
        """Each URL's stats with the held records (under the lock), HELD_MAX
        at most (a campaign's records past them are read from the tray
        again); `e`: the queue file's refusal, its last error."""
        for record, _snap in self.held[HELD_MAX:]:
            key = _key(record)
            if key is not None:
                self.behind.setdefault(key, record["seq"])
            else:  # no tray campaign to read it from again: said, never silent
                self.dropped += 1
        del self.held[HELD_MAX:]
        for u in self.urls:
            self.stat[u]["held"] = len(self.held)
        if e is not None:
            why = "the queue file %s refused a write (%s)" % (self.path, e)
            if self.held:
                why += (
                    ": the records since are kept in memory and queued in order when it takes them"
                )
            if self.behind:
                why += "; the records of %s are read from the tray when it does" % ", ".join(
                    "tray campaign %s:%s%s" % (d, c, "" if n is None else " from event %d" % n)
                    for (d, c), n in sorted(self.behind.items())
                )
            if self.dropped:
                why += "; %d records of no tray campaign dropped (past %d held)" % (
                    self.dropped,
                    HELD_MAX,
                )
            for u in self.urls:
                self._note(u, why)
        self.told = True

    def _tell(self):
        """The listeners, when the stats changed under the lock (outside it)."""
        with self.lock:
            told, self.told = self.told, False
        if told:
            for u in self.urls:
                self._changed(u)

    def _put(self, record, snap):
        """The URLs `record` is queued for (in the transaction under way)."""
        db = self.db
        text = json.dumps(record, separators=(",", ":"))
        key = _key(record)
        out = []
        for u in self.urls:
            if key is not None:
                m = db.execute(
                    "SELECT seq FROM marks WHERE url = ? AND device = ? AND campaign = ?",
                    (u,) + key,
                ).fetchone()
                if m is not None and m[0] >= record["seq"]:
                    continue
                db.execute(
                    "INSERT OR REPLACE INTO marks VALUES (?, ?, ?, ?)",
                    (u,) + key + (record["seq"],),
                )
            db.execute("INSERT INTO queue (url, body) VALUES (?, ?)", (u, text))
            out.append(u)
        if key is not None and snap is not None:
            db.execute(
                "INSERT OR REPLACE INTO states VALUES (?, ?, ?, ?)", key + (record["seq"], snap)
            )
        return out

    # --- catching up: what a tray rolled while the hub was away ---------------
    def resume(self, device, campaign, head, snap):
        """The tray campaign (`device`, `campaign`) is at event `head`, its
        state `snap`: (seq, snap) of the state after the last event queued
        for it, when the URLs were left before `head` (the events after seq
        are to be queued); else None. A URL that never had an event of this
        campaign (a first start, a new URL, a campaign never seen) starts at
        `head`: no history. A campaign behind its mark (a restore took it
        back) goes on from `head`. A queue file that refuses it: None, and
        the campaign's records wait for the next retry() to name it."""
        key = (device, campaign)
        with self.lock:
            ok = not self.held or self._flush()  # what came before, first
            if ok:
                ok, st = self._transaction(self._resume, key, head, snap)
            if ok:
                self.behind.pop(key, None)
            else:
                self.behind.setdefault(key, None)
                st = None
        self._tell()
        return None if st is None else (st[0], bytes(st[1]))

    def _resume(self, key, head, snap):
        db = self.db
        db.execute(
            "UPDATE marks SET seq = ? WHERE device = ? AND campaign = ? AND seq > ?",
            (head,) + key + (head,),
        )
        for u in self.urls:
            db.execute("INSERT OR IGNORE INTO marks VALUES (?, ?, ?, ?)", (u,) + key + (head,))
        st = db.execute(
            "SELECT seq, snap FROM states WHERE device = ? AND campaign = ?", key
        ).fetchone()
        behind = db.execute(
            "SELECT COUNT(*) FROM marks WHERE device = ? AND campaign = ? AND seq < ?",
            key + (head,),
        ).fetchone()[0]
        if st is None or st[0] >= head or not behind:
            st = None
            db.execute("INSERT OR REPLACE INTO states VALUES (?, ?, ?, ?)", key + (head, snap))
        return st

    def skip(self, device, campaign, head, snap, why):
        """Nothing of the tray campaign before `head` will be queued (the
        events are gone, or the campaign was rewritten): every URL's mark
        goes to `head`, and `why` is each URL's last error."""
        key = (device, campaign)

        def marks():
            self.db.execute(
                "UPDATE marks SET seq = ? WHERE device = ? AND campaign = ?", (head,) + key
            )
            self.db.execute("INSERT OR REPLACE INTO states VALUES (?, ?, ?, ?)", key + (head, snap))

        with self.lock:
            ok, _ = self._transaction(marks)
            if ok:
                for u in self.urls:
                    self._note(u, why)
            else:
                self.behind.setdefault(key, None)  # checked again at the next catching up
        self._tell()

    def _transaction(self, work, *args):
        """work(*args) in one transaction (under the lock): (True, its
        value), or (False, None) when the queue file refused it (said)."""
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                out = work(*args)
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise
        except sqlite3.Error as e:
            self.refused = time.monotonic()
            self._said_held(e)
            return False, None
        self.refused = None
        return True, out

    # --- what the terminal and the page show ----------------------------------
    def stats(self):
        """{url: {"delivered", "pending", "held", "failures", "last_error",
        "last_error_at", "last_success"}} (times: Unix seconds; held: the
        records the queue file refused, kept in memory)."""
        with self.lock:
            return {u: dict(self.stat[u]) for u in self.urls}

    def stop(self, timeout=5.0):
        """Stop the threads; a post under way may finish or be made again at
        the next start. Held records get a last try: their marks move only
        with them, so a next start reads what this one could not queue from
        the tray (catching up)."""
        with self.wake:
            if self.held:
                self._flush()
            self.stopping = True
            self.wake.notify_all()
        end = time.monotonic() + timeout
        for t in self.threads:
            t.join(max(0.0, end - time.monotonic()))
        with self.lock:
            self.db.close()

    def _changed(self, url):
        for f in list(self.listeners):
            try:
                f(url)
            except Exception:
                pass  # a listener's fault never stops delivery

    def _note(self, url, why):
        """`why` is url's last error (under the lock)."""
        st = self.stat[url]
        st["failures"] += 1
        st["last_error"] = why
        st["last_error_at"] = round(time.time(), 3)
        self.told = True

    def _failed(self, url, why):
        with self.lock:
            self._note(url, why)
        self._tell()

    # --- delivery ---------------------------------------------------------------
    def _next(self, url):
        """(id, record) of the next record for url, waiting for one; None when stopping."""
        while True:
            with self.wake:
                while not self.stopping:
                    try:
                        row = self.db.execute(
                            "SELECT id, body FROM queue WHERE url = ? ORDER BY id LIMIT 1", (url,)
                        ).fetchone()
                    except sqlite3.Error as e:
                        self._note(url, "the queue file %s cannot be read (%s)" % (self.path, e))
                        break
                    if row is not None:
                        return row[0], json.loads(row[1])
                    self.wake.wait(1.0)
                else:
                    return None
            self._tell()
            self._sleep(RETRY_S)

    def _done(self, url, rid, record, delivered=True):
        """Take record `rid` off url's queue; False when the queue file
        refused (said: the caller tries again, never posting it again)."""
        with self.lock:
            try:
                self.db.execute("DELETE FROM queue WHERE id = ?", (rid,))
            except sqlite3.Error as e:
                if self.stopping:  # stop() closed the file: posted again at the next start
                    return True
                self._note(
                    url,
                    "cannot take record %s off the queue file %s (%s): it was %s, and "
                    "leaves the queue when the file lets it (it is not posted again)"
                    % (record.get("id"), self.path, e, "delivered" if delivered else "skipped"),
                )
                ok = False
            else:
                st = self.stat[url]
                st["pending"] -= 1
                if delivered:
                    st["delivered"] += 1
                    st["last_success"] = round(time.time(), 3)
                self.told = ok = True
        self._tell()
        return ok

    def _sleep(self, s):
        with self.wake:
            if not self.stopping:
                self.wake.wait(s)

    def _take_off(self, url, rid, record, delivered=True):
        """_done until the queue file takes it (or the hub stops: the record
        is then posted again at the next start, at least once)."""
        while not self._done(url, rid, record, delivered):
            self._sleep(RETRY_S)

    def _run(self, url):
        target, kind = _shape(url)
        while True:
            nxt = self._next(url)
            if nxt is None:
                return
            rid, record = nxt
            data = body(record, kind)
            tries = 0
            while not self.stopping:
                try:
                    post(target, data, self.timeout)
                    self._take_off(url, rid, record)
                    break
                except NotDelivered as e:
                    tries += 1
                    s = e.status
                    if (
                        s is not None
                        and 400 <= s < 500
                        and s not in (408, 429)
                        and tries >= GIVE_UP
                    ):
                        # refused for good: one bad record must not hold the queue forever
                        self._failed(
                            url,
                            "%s: record %s skipped after %d attempts"
                            % (e, record.get("id"), GIVE_UP),
                        )
                        self._take_off(url, rid, record, delivered=False)
                        break
                    self._failed(url, str(e))
                    lo, hi = self.backoff
                    delay = min(hi, lo * 2 ** min(tries - 1, 20))
                    if e.retry is not None:
                        delay = min(hi, max(e.retry, 0.0))
                    self._sleep(delay * (1 + random.uniform(-0.1, 0.1)))


def _rollback(db):
    """Roll the transaction under way back (none may be left after a failed COMMIT)."""
    try:
        db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _key(record):
    """(device, campaign) of a tray's record, None for one without them."""
    dev, cid, seq = record.get("device"), record.get("campaign"), record.get("seq")
    if isinstance(dev, str) and isinstance(cid, int) and isinstance(seq, int):
        return dev, cid
    return None
