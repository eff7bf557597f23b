"""One tray at the hub: the only holder of its port.

A Tray is a thread that owns a `Device` (dicetray.link.client). Every
client's call is queued and run by that thread, one at a time, so the
device sees one host, as it does without a hub, and its at-most-once
guarantee holds unchanged: each call is one of Device's own, with its
retries and its answer cache. Between calls the thread keeps the hub's
own subscription, reading the device's pushes and handing each new event,
in order and once, to the hub (`on_event`) and to every subscribed
client.

The link is kept alive: a port that fails (unplugged, the board reset) is
closed and opened again every RECONNECT_S; calls made meanwhile wait for
it up to WAIT_S, then fail in one line. Events the device appended while
the hub was away are read at the reconnect (SUB from the last one seen),
so a subscriber misses none. An idle link asks for INFO every IDLE_S: that
finds a device rebooted under the hub (its subscription went with the
old app) and subscribes again.
"""

import queue
import socket
import threading
import time

from ..link.client import AtRepl, Device, DeviceError

RECONNECT_S = 1.0
WAIT_S = 5.0  # a call waits this long for a tray that is reconnecting
IDLE_S = 2.0
LISTENER_MAX = 10000  # events queued for one slow subscriber before it is dropped

# The calls a client may make: Device's methods that share the port with
# others (END would stop the app under every other client: refused).
CALLS = frozenset(
    (
        "info",
        "snapshot",
        "events",
        "act",
        "chain",
        "restore",
        "campaigns",
        "switch",
        "delete",
        "new_campaign",
        "set_clock",
        "screen",
    )
)
# Calls after which the device's campaign may be another one (or its app restarted).
NEW_CAMPAIGN = frozenset(("restore", "switch", "new_campaign"))


class Job:
    """A call waiting for the tray's thread."""

    def __init__(self, name, args, kw, progress):
        self.name, self.args, self.kw, self.progress = name, args, kw, progress
        self.made = time.monotonic()
        self.done = threading.Event()
        self.value = None
        self.error = None


def _lost(e):
    """Whether a DeviceError means the port itself is gone (reopen it)."""
    m = str(e)
    return m.startswith("lost the link") or m.startswith("no answer from")


class Tray:
    """The tray on `port`, named `name`; `hub.on_event(tray, seq, ev)`,
    `hub.on_state(tray)` hear of its events and of its link going up or down."""

    def __init__(self, name, port, hub, timeout=2.0, opener=None):
        self.name = name
        self.port = port
        self.hub = hub
        self.timeout = timeout
        self.open = opener or (lambda p, t: Device.open(p, timeout=t, check_schema=False))
        self.dev = None
        self.info = None  # the device's last info (None until connected)
        self.state = "connecting"  # "up", "down" (and why: self.why)
        self.why = None
        self.last = -1  # the last event seq handed on
        self.jobs = queue.Queue()
        self.listeners = []  # queue.Queue of (seq, event), one a subscribed client
        self.lock = threading.Lock()
        self.stopping = False
        self.wake_r, self.wake_w = socket.socketpair()  # a call wakes the thread's select
        self.wake_r.setblocking(False)
        self.wake_w.setblocking(False)
        self.thread = threading.Thread(target=self._run, name="tray-" + name, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.stopping = True
        try:
            self.wake_w.send(b"!")
        except OSError:
            pass
        if self.thread.ident is not None:  # a hub that never started never ran it
            self.thread.join(5.0)
        self.wake_r.close()
        self.wake_w.close()

    # --- the clients' side --------------------------------------------------
    def call(self, name, args=(), kw=None, progress=None):
        """Run Device.<name>(*args, **kw) on the tray's thread; returns its
        value or raises its error. `progress(k, n)` hears of long reads and restores."""
        if name not in CALLS:
            raise DeviceError(
                "the hub does not pass %r to a tray: it would take the port from "
                "every other client (stop `dicetray serve` for a deploy or mpremote)" % name
            )
        job = Job(name, list(args), dict(kw or {}), progress)
        self.jobs.put(job)
        try:
            self.wake_w.send(b"!")  # the thread may be waiting for the device
        except OSError:
            pass
        job.done.wait()
        if job.error is not None:
            raise job.error
        return job.value

    def listen(self):
        """A queue that receives every new event (seq, bytes) from now on."""
        q = queue.Queue()
        with self.lock:
            self.listeners.append(q)
        return q

    def unlisten(self, q):
        with self.lock:
            if q in self.listeners:
                self.listeners.remove(q)

    def as_dict(self):
        i = self.info or {}
        return {
            "tray": self.name,
            "port": self.port,
            "state": self.state,
            "why": self.why,
            "device": i.get("device"),
            "system": i.get("system"),
            "campaign": i.get("campaign"),
            "events": i.get("events"),
        }

    # --- the thread -----------------------------------------------------------
    def _run(self):
        idle = time.monotonic()
        while not self.stopping:
            if self.dev is None:
                if not self._connect():
                    self._fail_old_jobs()
                    time.sleep(RECONNECT_S)
                    continue
                idle = time.monotonic()
            try:
                try:
                    job = self.jobs.get_nowait()
                except queue.Empty:
                    job = None
                if job is not None:
                    self._do(job)
                    idle = time.monotonic()
                elif self._pump(max(0.0, idle + IDLE_S - time.monotonic())):
                    idle = time.monotonic()
                elif time.monotonic() - idle >= IDLE_S:
                    self._check()
                    idle = time.monotonic()
                self._hand_on()
            except AtRepl:
                self._recover()
            except DeviceError as e:
                if _lost(e):
                    self._down(str(e))
            except Exception as e:  # never let one tray's fault end its thread
                self._down("the hub's link failed: %s: %s" % (type(e).__name__, e))
        if self.dev is not None:
            self.dev.close()

    def _connect(self):
        try:
            dev = self.open(self.port, self.timeout)
        except DeviceError as e:
            self.state, self.why = "down", str(e)
            return False
        self.dev = dev
        info = dict(dev.last_info or dev.info())
        same = (
            self.info is not None
            and info.get("device") == self.info.get("device")
            and info.get("campaign") == self.info.get("campaign")
        )
        self.info = info
        # The same campaign again (a replug): replay what was appended while away.
        self._subscribe(self.last if same and self.last >= 0 else -1)
        self.state, self.why = "up", None
        self.hub.on_state(self)
        return True

    def _subscribe(self, since):
        head = self.dev.sub(since)
        if since < 0:
            self.last = head
        self.epoch = self.dev.recovered

    def _down(self, why):
        if self.dev is not None:
            try:
                self.dev.close()
            except Exception:
                pass
        self.dev = None
        self.state, self.why = "down", why
        self.hub.on_state(self)

    def _recover(self):
        try:
            self.dev.recover()
            self._subscribe(self.last)
        except DeviceError as e:
            self._down(str(e))

    def _fail_old_jobs(self):
        keep = []
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                break
            if time.monotonic() - job.made > WAIT_S:
                job.error = DeviceError(
                    "tray %s is not connected (%s): the hub tries its port "
                    "%s again every second" % (self.name, self.why, self.port)
                )
                job.done.set()
            else:
                keep.append(job)
        for job in keep:
            self.jobs.put(job)

    def _do(self, job):
        kw = dict(job.kw)
        if job.progress is not None and job.name in ("events", "restore"):
            kw["progress"] = job.progress
        try:
            job.value = getattr(self.dev, job.name)(*job.args, **kw)
        except AtRepl as e:
            job.error = e
            raise
        except DeviceError as e:
            job.error = e
            if _lost(e):
                raise
        except Exception as e:  # a bad argument from a client: its error, not the tray's
            job.error = DeviceError("%s: %s" % (type(e).__name__, e))
        finally:
            job.done.set()
        if job.name in NEW_CAMPAIGN and job.error is None:
            self.info = dict(self.dev.last_info)
            self._another()
        elif job.name == "info" and job.error is None:
            self.info = dict(job.value)
        if self.dev.recovered != self.epoch:  # the call restarted the app: its SUB went with it
            self._subscribe(self.last)

    def _pump(self, wait):
        """Wait up to `wait` seconds for the device to send something or a
        call to come (wake_r); take the device's pushes. True if any came."""
        return self.dev.poll(wait, self.wake_r)

    def _check(self):
        info = self.dev.info()
        new = info.get("campaign") != (self.info or {}).get("campaign")
        self.info = info
        if new:
            self._another()
        elif info.get("events", -1) > self.last:
            self._subscribe(self.last)  # pushes were lost (a rebooted app): from where we are

    def _another(self):
        """The device's campaign is another one, or its history another
        (a restore of the same campaign): subscribed afresh from its head,
        and every subscriber told (head, None) before the events after it,
        whose seqs may repeat ones it had: its view is to be read again."""
        self._subscribe(-1)
        with self.lock:
            subs = list(self.listeners)
        for q in subs:
            q.put((self.last, None))
        self.hub.on_state(self)

    def _hand_on(self):
        dev = self.dev
        for seq, ev in dev.pushed():
            if seq <= self.last:
                continue  # a replay of one we have
            if self.last >= 0 and seq != self.last + 1:
                # a gap (pushes dropped by a flooded port): read what is missing
                base = self.last
                for k, e in enumerate(dev.events(base)):
                    if base + 1 + k >= seq:
                        break
                    self._event(base + 1 + k, bytes(e))
            self._event(seq, ev)

    def _event(self, seq, ev):
        self.last = seq
        if self.info is not None:
            self.info["events"] = seq
        with self.lock:
            subs = list(self.listeners)
        for q in subs:
            if q.qsize() > LISTENER_MAX:
                self.unlisten(q)  # a subscriber that stopped reading
            else:
                q.put((seq, ev))
        self.hub.on_event(self, seq, ev)
