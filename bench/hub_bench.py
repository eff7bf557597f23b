"""Hub figures (docs/hub.md): `dicetray serve` holding TRAYS simulated
trays, on this machine.

- events per second through the hub: one client a tray acting ACTS times
  at once (a roll each), all trays together; beside it the same rolls on
  one tray without a hub (Device on its pty), for scale;
- latency from sending a roll to a watcher (`subscribe` through the hub,
  one per tray) receiving its event: median and worst;
- latency from sending a roll to the live page (an SSE client of
  /events) having it, and to a webhook (`--forward`, a local HTTP
  server) having its record: median and worst, in two rounds: the rolls
  above, as fast as the trays take them (a queue forms: the figure is
  mostly waiting behind the rolls before), then PACED more rolls a tray,
  one every PACE_S seconds (a busy table: the figure is the path itself);
- the hub's memory: its resident set's high-water mark (VmHWM) and its
  size at the end (VmRSS), from /proc.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.append(os.path.join(ROOT, "firmware"))  # linkutil's `store`, as the board imports it

import linkutil  # noqa: E402
from dicetray.ops.actions import roll_event  # noqa: E402
from dicetray.link import hubclient  # noqa: E402
from dicetray.link.client import Device  # noqa: E402

TRAYS = 4
ACTS = 50
PACED = 10
PACE_S = 0.2
ROLL = roll_event(0, 2)


def _mem(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for ln in f:
            k, _c, v = ln.partition(":")
            if k in ("VmHWM", "VmRSS"):
                out[k] = int(v.split()[0])
    return out


def _receiver(arrived):
    """A webhook on 127.0.0.1 that notes when each (tray, seq) came."""

    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            r = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            arrived.setdefault((r["tray"], r["seq"]), time.perf_counter())
            self.send_response(204)
            self.end_headers()

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def _page(url, arrived, stop):
    """An SSE client of the live page: when each (tray, seq) was first on it."""
    with urllib.request.urlopen(url + "events", timeout=30) as r:
        for raw in r:
            if stop.is_set():
                return
            if raw.startswith(b"data: "):
                now = time.perf_counter()
                for t in json.loads(raw[6:])["trays"]:
                    for roll in t["recent"]:
                        arrived.setdefault((t["tray"], roll["seq"]), now)


def _lat(sent, arrived):
    return sorted(arrived[k] - sent[k] for k in sent if k in arrived)


def measure():
    tmp = tempfile.mkdtemp(prefix="dicetray-hub-bench-")
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    sims = [linkutil.Sim(os.path.join(tmp, "f%d" % k)) for k in range(TRAYS + 1)]
    env = dict(
        os.environ,
        DICETRAY_HOME=home,
        PYTHONPATH=os.path.join(ROOT, "host") + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    args = [a for k, s in enumerate(sims[:TRAYS]) for a in ("--port", "t%d=%s" % (k, s.port))]
    hooked, paged = {}, {}
    srv = _receiver(hooked)
    hook = "http://127.0.0.1:%d/hook" % srv.server_address[1]
    args += ["--forward", hook, "--forward-queue", os.path.join(tmp, "forward.db")]
    hub = subprocess.Popen(
        [sys.executable, "-m", "dicetray", "serve", "--http-port", "0"] + args,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out = {}
    try:
        url = None
        for _ in range(TRAYS + 3):  # "hub: ...", "http: URL", "forward 1 ...", "tray tK: up ..."
            ln = hub.stdout.readline()
            if ln.startswith("http: "):
                url = ln.split()[1]
        stop = threading.Event()
        threading.Thread(target=_page, args=(url, paged, stop), daemon=True).start()
        os.environ["DICETRAY_HOME"] = home
        reg = hubclient.find()
        sent = {}
        lat = []
        ready = threading.Barrier(TRAYS + 1)

        def watch(k):
            dev = hubclient.HubDevice(reg, tray="t%d" % k)
            it = dev.subscribe(timeout=5)
            for seq, _ev in it:
                got = time.perf_counter()
                t = sent.get((k, seq))
                if t is not None:
                    lat.append(got - t)
                if seq >= ACTS:
                    break
            it.close()
            dev.close()

        def act(k, first, last, pace=0.0):
            dev = hubclient.HubDevice(reg, tray="t%d" % k)
            ready.wait()
            for n in range(first, last + 1):
                sent[(k, n)] = time.perf_counter()
                dev.act(*ROLL)
                time.sleep(pace)
            dev.close()

        def run(first, last, pace=0.0):
            actors = [
                threading.Thread(target=act, args=(k, first, last, pace)) for k in range(TRAYS)
            ]
            for a in actors:
                a.start()
            ready.wait()
            t0 = time.perf_counter()
            for a in actors:
                a.join()
            return (last - first + 1) * TRAYS / (time.perf_counter() - t0)

        watchers = [threading.Thread(target=watch, args=(k,)) for k in range(TRAYS)]
        for w in watchers:
            w.start()
        time.sleep(1.0)  # the watchers subscribed
        out["hub_rate"] = run(1, ACTS)
        for w in watchers:
            w.join(30)

        def drained(n):
            end = time.monotonic() + 30
            while (len(hooked) < TRAYS * n or len(paged) < TRAYS * n) and time.monotonic() < end:
                time.sleep(0.1)

        drained(ACTS)  # the paced round waits behind no queue
        total = ACTS + PACED
        run(ACTS + 1, total, PACE_S)
        drained(total)
        stop.set()
        names = {"t%d" % k: k for k in range(TRAYS)}
        for key, first, last in (("", 1, ACTS), ("_paced", ACTS + 1, total)):
            by = {(t, n): sent[(k, n)] for t, k in names.items() for n in range(first, last + 1)}
            out["page" + key] = _lat(by, paged)
            out["hook" + key] = _lat(by, hooked)
        out["lat_median"] = statistics.median(lat) if lat else None
        out["lat_worst"] = max(lat) if lat else None
        out["lat_n"] = len(lat)
        out.update(_mem(hub.pid))
        dev = Device.open(sims[TRAYS].port, timeout=3)
        t0 = time.perf_counter()
        for _ in range(ACTS):
            dev.act(*ROLL)
        out["direct_rate"] = ACTS / (time.perf_counter() - t0)
        dev.close()
    finally:
        srv.shutdown()
        hub.terminate()
        hub.wait(30)
        for s in sims:
            s.stop()
    return out


def main():
    r = measure()
    print("Hub (`dicetray serve`, %d simulated trays on this machine; docs/hub.md)" % TRAYS)
    print(
        "  rolls through the hub, %d clients at once: %.1f events/s (one tray without a hub: "
        "%.1f events/s)" % (TRAYS, r["hub_rate"], r["direct_rate"])
    )
    if r["lat_median"] is not None:
        print(
            "  roll sent -> a watcher has its event: median %.1f ms, worst %.1f ms (%d events)"
            % (r["lat_median"] * 1e3, r["lat_worst"] * 1e3, r["lat_n"])
        )
    for what, key in (("the live page (SSE)", "page"), ("a webhook (--forward)", "hook")):
        for when, k in (
            ("at full speed", key),
            ("one every %.1f s a tray" % PACE_S, key + "_paced"),
        ):
            v = r[k]
            if v:
                print(
                    "  roll sent -> %s has it, rolls %s: median %.1f ms, worst %.1f ms "
                    "(%d events)" % (what, when, statistics.median(v) * 1e3, v[-1] * 1e3, len(v))
                )
    print(
        "  hub memory: %.1f MB resident at most (VmHWM), %.1f MB at the end"
        % (r["VmHWM"] / 1024, r["VmRSS"] / 1024)
    )


if __name__ == "__main__":
    main()
