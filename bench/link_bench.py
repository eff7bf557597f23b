"""Link figures over the simulator's pseudo-terminal (docs/protocol.md).

measure() -> dict, main() prints it:
- a backup-like transfer of a 5,000-event campaign (info, snapshot, every
  event), REPEAT times on the same simulator, the median: seconds, payload
  and wire bytes, bytes/s, and the requests it took (protocol 2 reads the
  journal a segment a frame, a window of requests in flight; protocol 1
  took one request per ~75 events);
- the raw throughput of the same pty in the same run: the simulated
  device writing plain bytes to it as fast as it can (from its REPL, after
  an END, 1 KB writes), RAW_REPEAT times, the median; and the kernel pty
  alone (a fresh openpty pair);
- the bytes on the wire (both ways) to fetch 10 new events (info + events).
"""

import os
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.append(os.path.join(ROOT, "firmware"))  # linkutil's `store`, as the board imports it

import linkutil  # noqa: E402
from dicetray.link.client import Device  # noqa: E402
from dicetray.rules import campaign as cp  # noqa: E402

N_EVENTS = 5000
RAW_BYTES = 64 << 10  # the REPL runs with the collector off: a heap's worth
REPEAT = 5
RAW_REPEAT = 3


def kernel_pty_rate(nbytes=8 << 20):
    """Bytes/s through a raw pty pair, writer and reader in two threads."""
    import tty

    m, s = os.openpty()
    tty.setraw(s)
    chunk = b"x" * 4096

    def writer():
        left = nbytes
        while left > 0:
            left -= os.write(m, chunk[: min(left, 4096)])

    t0 = time.perf_counter()
    th = threading.Thread(target=writer)
    th.start()
    got = 0
    while got < nbytes:
        got += len(os.read(s, 65536))
    th.join()
    dt = time.perf_counter() - t0
    os.close(m)
    os.close(s)
    return nbytes / dt


RAW_CODE = b"""from simboard import desktop
s = desktop.SimSerial()
b = b'x' * %d
for i in range(%d):
    s.write(b)
s.write(b'!END!')
"""


def device_pty_rate(dev, nbytes=RAW_BYTES, chunk=1024, end=True):
    """The simulated device writing plain bytes to its serial port (from the
    raw REPL, after END unless `end` is False: already there), `chunk`
    bytes a write; the host reads as fast as it can. Returns (bytes/s
    received, bytes received of nbytes)."""
    if end:
        dev.end_session()
        dev.t.drain(0.2, 3)
        dev.t.write(b"\r\x01")
        dev.t.drain(0.2, 3)
    dev.t.write(RAW_CODE % (chunk, nbytes // chunk) + b"\x04")
    got = b""
    t0 = None
    end = time.monotonic() + 60
    while b"!END!" not in got[-64:] and time.monotonic() < end:
        d = dev.t.read(0.5)
        if d and t0 is None:
            t0 = time.perf_counter()
        got += d
    dt = time.perf_counter() - (t0 or time.perf_counter())
    dev.t.drain(0.2, 2)
    n = got.count(b"x")
    return (n / dt if dt > 0 else 0.0), n


class Requests:
    """Counts the request frames the host writes."""

    def __init__(self, dev):
        self.n = 0
        self.real = dev.t.write
        dev.t.write = self

    def __call__(self, data):
        self.n += data.count(b"#")
        return self.real(data)


def measure():
    tmp = tempfile.mkdtemp(prefix="dicetray-linkbench-")
    flash = os.path.join(tmp, "flash")
    c = linkutil.write_flash(flash, N_EVENTS)
    sim = linkutil.Sim(flash)
    r = {"events": N_EVENTS}
    try:
        t0 = time.perf_counter()
        dev = Device.open(sim.port, timeout=5)
        r["open_s"] = time.perf_counter() - t0  # includes the simulator finishing its boot
        runs = []
        for _ in range(REPEAT):
            req = Requests(dev)
            t0 = time.perf_counter()
            s0 = dev.wire
            info = dev.info()
            seq, snap = dev.snapshot()
            evs = dev.events(0)
            dt = time.perf_counter() - t0
            s1 = dev.wire
            dev.t.write = req.real
            assert len(evs) == N_EVENTS and evs == c.events and snap == cp.encode_snapshot(c)
            runs.append((dt, (s1[0] - s0[0]) + (s1[1] - s0[1]), s1[1] - s0[1], req.n))
        runs.sort()
        dt, wire, down, nreq = runs[len(runs) // 2]
        payload = len(snap) + sum(len(e) for e in evs)
        r.update(
            backup_s=dt,
            backup_s_range=(runs[0][0], runs[-1][0]),
            payload_bytes=payload,
            wire_bytes=wire,
            payload_rate=payload / dt,
            wire_rate=down / dt,
            requests=nreq,
        )
        for _ in range(10):
            dev.act(cp.DICE, (6, 3))
        w0 = dev.wire
        i2 = dev.info()
        new = dev.events(info["events"])
        w1 = dev.wire
        assert len(new) == 10 and i2["events"] == N_EVENTS + 10
        r.update(
            incr_wire_bytes=(w1[0] - w0[0]) + (w1[1] - w0[1]),
            incr_payload_bytes=sum(len(e) for e in new),
        )
        raws = sorted(device_pty_rate(dev, end=k == 0) for k in range(RAW_REPEAT))
        dev.t.write(b"\x02")
        dev.t.drain(0.2, 2)
        rate, n = raws[len(raws) // 2]
        r.update(
            device_pty_rate=rate,
            device_pty_bytes=n,
            device_pty_asked=RAW_BYTES,
            device_pty_range=(raws[0][0], raws[-1][0]),
        )
        dev.close()
    finally:
        sim.stop()
    r["kernel_pty_rate"] = kernel_pty_rate()
    return r


def main():
    r = measure()
    raw = max(r["device_pty_rate"], 1)
    print("link: backup of a %d-event campaign over the simulator's pty" % r["events"])
    print(
        "  handshake %.2f s (with the boot), then info + snapshot + events, median of %d:"
        % (r["open_s"], REPEAT)
    )
    print(
        "  %.3f s (%.3f to %.3f); %d payload bytes (%.0f B/s), %d bytes on the wire "
        "(device->host %.0f B/s), %d requests"
        % (
            r["backup_s"],
            r["backup_s_range"][0],
            r["backup_s_range"][1],
            r["payload_bytes"],
            r["payload_rate"],
            r["wire_bytes"],
            r["wire_rate"],
            r["requests"],
        )
    )
    print(
        "  raw pty, same run: simulated device writing plain bytes %.0f B/s, median of %d "
        "(%.0f to %.0f; %d of %d arrived); kernel pty alone %.0f B/s"
        % (
            r["device_pty_rate"],
            RAW_REPEAT,
            r["device_pty_range"][0],
            r["device_pty_range"][1],
            r["device_pty_bytes"],
            r["device_pty_asked"],
            r["kernel_pty_rate"],
        )
    )
    print(
        "  link payload rate = %.1f%% of the device's raw serial rate; its bytes on the wire "
        "(device->host) %.1f%%" % (100.0 * r["payload_rate"] / raw, 100.0 * r["wire_rate"] / raw)
    )
    print(
        "link: fetching 10 new events (info + events): %d bytes on the wire (%d bytes of events)"
        % (r["incr_wire_bytes"], r["incr_payload_bytes"])
    )
    return r


if __name__ == "__main__":
    main()
