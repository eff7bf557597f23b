"""Helpers for the link tests and bench: a simulator subprocess on a flash
directory, and a campaign of N events written straight to that flash with
the firmware's own store (much faster than acting N times over the link;
firmware/ on the path: pytest's pythonpath, or the bench script's)."""

import os
import select
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dicetray.rules import campaign as cp  # noqa: E402
from dicetray.rules.dice import Dice  # noqa: E402


def make_events(n, seed=7, system=0, cid=12345):
    """A campaign of n events (characters, free rolls, slashes, undos)."""
    c = cp.Campaign(system, cid, cp.UNDO_DEPTH)
    d = Dice(seed)
    c.act(cp.CHAR_ADD, (), "Ann")
    c.act(cp.CHAR_ADD, (), "Bo")
    i = 0
    while c.nevents < n:
        i += 1
        if i % 7 == 0:
            c.act(cp.UNDO)
        elif i % 5 == 0 and c.tals:
            try:
                c.act(cp.SLASH, (i % len(c.tals), 1, 0), dice=d)
            except ValueError:
                c.act(cp.DICE, (6, 2), dice=d)
        else:
            c.act(cp.DICE, (6, 1 + i % 10), dice=d)
    return c


def damage_record(img, base, seq, at):
    """Flip a bit of byte `at` of event `seq`'s record in `img`, the
    bytearray of the journal segment whose first record is base+1 (at 2:
    in its header, whose check then fails; at 11: in its event, whose CRC
    then fails)."""
    i = 0
    for _ in range(seq - base - 1):
        i += 11 + (img[i] | (img[i + 1] << 8))
    img[i + at] ^= 0x04


def write_flash(flash, n, seed=7, slot=1, snap_every=32, roll=None, cid=12345):
    """Put campaign `cid` of n events on a simulator flash dir as campaign
    `slot` (session.py's layout; `roll`: as write_campaign's); returns
    the host Campaign."""
    c = make_events(n, seed, cid=cid)
    write_campaign(flash, c, slot, snap_every, roll)
    return c


NO_SNAPSHOT = 10**9   # write_flash's snap_every: none after the empty one (a backlog)


def damage_snapshots(flash, slot=1, at=-3):
    """Flip byte `at` of every snapshot of campaign `slot` on a simulator
    flash dir (-3: the state's body, its headers still read); how many."""
    root = os.path.join(flash, "dicetray", "c%d" % slot)
    n = 0
    for nm in os.listdir(root):
        if nm.endswith(".snp"):
            p = os.path.join(root, nm)
            with open(p, "rb") as f:
                b = bytearray(f.read())
            b[at] ^= 0xFF
            with open(p, "wb") as f:
                f.write(bytes(b))
            n += 1
    return n


def write_campaign(flash, c, slot=1, snap_every=32, roll=None):
    """Campaign `c` (its events) onto a simulator flash dir as slot `slot`,
    a snapshot every `snap_every` events; `roll`: the journal segments'
    size (store.SEG_ROLL if None)."""
    import store
    root = os.path.join(flash, "dicetray", "c%d" % slot)
    os.makedirs(root, exist_ok=True)
    st = store.Store(store.OsFs(), root, store.HOST, store.JOURNAL_KEEP, roll or store.SEG_ROLL)
    st.open()
    fresh = cp.Campaign(c.system, c.cid, cp.UNDO_DEPTH)
    st.snapshot(cp.encode_snapshot(fresh), 0)
    for ev in c.events:
        fresh.apply(ev)
        st.append(ev)
        if st.seq % snap_every == 0:
            st.snapshot(cp.encode_snapshot(fresh))
    st.close()


class Sim:
    """`python -m dicetray.sim --headless --flash DIR` as a subprocess
    (`extra`: more of its options, e.g. ["--tcp"]), returned once the app
    answers a handshake. `seed`: the tests' fixed dice, `--seed 1` unless
    told; None gives none, as a person starts it (its own dice each start).
    `ready=False`: returned once the port is served, for a port a hub takes
    back by itself (the sim serves one client at a time, so a handshake of
    ours could take the port from the hub, or lose it to the hub for good)."""

    def __init__(self, flash, home=None, seed=1, extra=(), ready=True):
        env = dict(os.environ)
        env["DICETRAY_HOME"] = home or os.path.join(flash, "..", "home")
        env["PYTHONPATH"] = os.path.join(ROOT, "host") + os.pathsep + env.get("PYTHONPATH", "")
        seeded = [] if seed is None else ["--seed", str(seed)]
        self.p = subprocess.Popen([sys.executable, "-m", "dicetray.sim", "--headless", "--flash", flash] + seeded + list(extra),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
        r, _, _ = select.select([self.p.stdout], [], [], 30)
        line = self.p.stdout.readline().decode() if r else ""
        if not line.startswith("serial: "):
            self.kill()
            raise RuntimeError("simulator did not start: %r" % line)
        self.port = line.split()[1]
        if ready:
            self._wait_ready()

    def _wait_ready(self, timeout=60.0):
        # The port is served before the firmware boots; on a busy machine the
        # boot can outlast a first handshake's tries, so wait for the app here.
        from dicetray.link.client import Device, DeviceError
        end = time.monotonic() + timeout
        while True:
            try:
                Device.open(self.port, check_schema=False).close()
                return
            except DeviceError as e:
                if self.p.poll() is not None or time.monotonic() > end:
                    self.kill()
                    raise RuntimeError("simulator did not answer: %s: %s" % (e, self._err_tail()))

    def _err_tail(self):
        return self.p.stderr.read().decode(errors="replace")[-2000:]

    def kill(self):
        """Like pulling the plug: SIGKILL, no cleanup."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
        self.p.wait(timeout=30)

    def wait_file(self, path, hang=900.0):
        """Wait for the simulator to write `path` (a script's screenshot: an
        event at a moment of the device's own clock); False if it ended
        first. `hang` only stops a run that hangs: a loaded machine makes
        the simulator slower, never the test fail."""
        end = time.monotonic() + hang
        while not os.path.exists(path):
            if self.p.poll() is not None or time.monotonic() > end:
                return os.path.exists(path)
            time.sleep(0.05)
        return True

    def stop(self, alive=False):
        """End the simulator (SIGTERM); its (stdout, stderr). `alive`: fail,
        showing its stderr, if it had already exited (it died under a test)."""
        if alive and self.p.poll() is not None:
            raise AssertionError("the simulator died (exit %s): %s" % (self.p.returncode, self._err_tail()))
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        out = self.p.stdout.read().decode(errors="replace")
        err = self.p.stderr.read().decode(errors="replace")
        return out, err


# How long a wait on the firmware's work may last before the test calls it
# hung: never a time the work must fit in (a loaded machine makes the
# simulator slower, not the test fail), only an end to a run that hangs.
HANG = 600.0


def wait_for(pred, timeout=HANG):
    """Poll pred() until it holds (True) or `timeout` s pass (False)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return False


def upto(t, end, limit=60.0):
    """What transport `t` receives until the bytes `end` have come (the
    prompt a REPL reply ends with), however slow a loaded machine makes
    the simulator: a quiet spell is not taken for the end of the reply.
    AssertionError, with what came, after `limit` seconds without it."""
    got = b""
    deadline = time.monotonic() + limit
    while end not in got:
        left = deadline - time.monotonic()
        assert left > 0, "no %r from the device in %d s: got %r" % (end, limit, got[-200:])
        got += t.read(min(left, 0.5))
    return got
