"""Hub figures (docs/hub.md): `dicetray serve` holding TRAYS simulated
trays, on this machine.

- events per second through the hub: one client a tray acting ACTS times
  at once (a roll each), all trays together; beside it the same rolls on
  one tray without a hub (Device on its pty), for scale;
- latency from sending a roll to a watcher (`subscribe` through the hub,
  one per tray) receiving its event: median and worst;
- the hub's memory: its resident set's high-water mark (VmHWM) and its
  size at the end (VmRSS), from /proc.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))
sys.path.insert(0, os.path.join(ROOT, "host"))

import linkutil  # noqa: E402
from dicetray.commands import roll_event  # noqa: E402
from dicetray.hub import client as hubclient  # noqa: E402
from dicetray.link.client import Device  # noqa: E402

TRAYS = 4
ACTS = 50
ROLL = roll_event(0, 2)


def _mem(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for ln in f:
            k, _c, v = ln.partition(":")
            if k in ("VmHWM", "VmRSS"):
                out[k] = int(v.split()[0])
    return out


def measure():
    tmp = tempfile.mkdtemp(prefix="dicetray-hub-bench-")
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    sims = [linkutil.Sim(os.path.join(tmp, "f%d" % k)) for k in range(TRAYS + 1)]
    env = dict(os.environ, DICETRAY_HOME=home,
               PYTHONPATH=os.path.join(ROOT, "host") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    args = [a for k, s in enumerate(sims[:TRAYS]) for a in ("--port", "t%d=%s" % (k, s.port))]
    hub = subprocess.Popen([sys.executable, "-m", "dicetray", "serve", "--http-port", "0"] + args,
                           cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = {}
    try:
        for _ in range(TRAYS + 2):
            hub.stdout.readline()             # "hub: ...", "http: ...", "tray tK: up ..."
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

        def act(k):
            dev = hubclient.HubDevice(reg, tray="t%d" % k)
            ready.wait()
            for n in range(1, ACTS + 1):
                sent[(k, n)] = time.perf_counter()
                dev.act(*ROLL)
            dev.close()

        watchers = [threading.Thread(target=watch, args=(k,)) for k in range(TRAYS)]
        for w in watchers:
            w.start()
        time.sleep(1.0)                       # the watchers subscribed
        actors = [threading.Thread(target=act, args=(k,)) for k in range(TRAYS)]
        for a in actors:
            a.start()
        ready.wait()
        t0 = time.perf_counter()
        for a in actors:
            a.join()
        out["hub_rate"] = TRAYS * ACTS / (time.perf_counter() - t0)
        for w in watchers:
            w.join(30)
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
        hub.terminate()
        hub.wait(30)
        for s in sims:
            s.stop()
    return out


def main():
    r = measure()
    print("Hub (`dicetray serve`, %d simulated trays on this machine; docs/hub.md)" % TRAYS)
    print("  rolls through the hub, %d clients at once: %.1f events/s (one tray without a hub: "
          "%.1f events/s)" % (TRAYS, r["hub_rate"], r["direct_rate"]))
    if r["lat_median"] is not None:
        print("  roll sent -> a watcher has its event: median %.1f ms, worst %.1f ms (%d events)"
              % (r["lat_median"] * 1e3, r["lat_worst"] * 1e3, r["lat_n"]))
    print("  hub memory: %.1f MB resident at most (VmHWM), %.1f MB at the end"
          % (r["VmHWM"] / 1024, r["VmRSS"] / 1024))


if __name__ == "__main__":
    main()
