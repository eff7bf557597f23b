"""The link under abuse, end to end over the simulator's pty: garbage, torn
and corrupted frames between valid requests; the simulator killed in the
middle of a restore."""

import binascii
import json
import random
import threading
import time

import linkutil
from linkutil import Sim

from dicetray.link import frame as fr
from dicetray.link.client import Device, DeviceError
from dicetray.rules import campaign as cp
from dicetray.rules import codec

ACT = json.dumps({"kind": cp.DICE, "args": [6, 5]}).encode()


def bad_frame(rng, seq):
    """One damaged request: each would add an event if the device took it.
    Never a 0x03 byte: that is Ctrl-C, which stops the app by design."""
    good = bytearray(fr.encode(fr.ACT, seq, ACT))
    k = rng.randrange(5)
    if k == 0:                                   # garbage
        return bytes(b for b in rng.randbytes(rng.randrange(1, 600)) if b != 3), "garbage"
    if k == 1:                                   # torn: cut short, with or without its newline
        cut = good[:rng.randrange(1, len(good) - 1)]
        return bytes(cut) + (b"\n" if rng.random() < 0.5 else b""), "torn"
    if k == 2:                                   # one bit flipped
        while True:
            i = rng.randrange(len(good))
            b = good[i] ^ (1 << rng.randrange(8))
            if b != 3:
                good[i] = b
                return bytes(good), "flip"
    if k == 3:                                   # longer than the device takes
        return b"#" + b"QUFB" * rng.randrange(100, 300) + b"\n", "long"
    body = bytearray(binascii.a2b_base64(bytes(good[1:-1])))  # valid base64, stale CRC
    body[3 + rng.randrange(len(ACT))] ^= 0x20
    return b"#" + binascii.b2a_base64(bytes(body)), "crc"


def test_thousand_bad_frames_between_valid_requests(tmp_path):
    flash = str(tmp_path / "flash")
    linkutil.write_flash(flash, 50)
    sim = Sim(flash)
    rng = random.Random(2024)
    try:
        dev = Device.open(sim.port)
        start = dev.info()
        acts = 0
        answered = 0
        kinds = {}
        for n in range(1000):
            dev.seq = dev.seq % 0xFFFF + 1
            data, k = bad_frame(rng, dev.seq)
            kinds[k] = kinds.get(k, 0) + 1
            dev.t.write(data)
            if n % 2 == 0:
                r = n // 2 % 3
                if r == 0:
                    assert dev.act(cp.DICE, (6, 2))["seq"] == start["events"] + acts + 1
                    acts += 1
                elif r == 1:
                    assert dev.info()["events"] == start["events"] + acts
                else:
                    assert len(dev.events(start["events"] - 5)) == 5 + acts
                answered += 1
        end = dev.info()
        assert answered == 500 and min(kinds.values()) > 150
        assert end["events"] == start["events"] + acts      # no bad frame acted
        assert end["retried"] == start["retried"]            # every valid request answered at once
        assert end["bad"] - start["bad"] >= 600              # the device saw the damage
        evs = dev.events(start["events"])
        assert len(evs) == acts and all(e[0] == cp.DICE and e[2:4] == b"\x0c\x04" for e in evs)
        dev.close()
    finally:
        out, err = sim.stop()
    assert "crashed" not in err, err[-2000:]


def _state(dev):
    i = dev.info()
    return i["campaign"], dev.events(i["first"] - 1), dev.snapshot()


def test_simulator_killed_during_restore_leaves_old_or_new(tmp_path):
    flash = str(tmp_path / "flash")
    old = linkutil.write_flash(flash, 120)
    new = linkutil.make_events(400, seed=5, cid=4242)
    old_state = (old.cid, old.events, (120, cp.encode_snapshot(old)))
    new_state = (4242, new.events, (400, cp.encode_snapshot(new)))
    seen = set()
    # Kill points: in the snapshot upload, among the events, at the commit,
    # after the commit (and one at a random moment from another thread).
    for point in ("snap", "events", "commit", "after", "timer"):
        sim = Sim(flash)
        dev = Device.open(sim.port)
        before = _state(dev)
        assert before in (old_state, new_state)
        real = dev._request

        def killing(typ, payload=b"", timeout=None, retries=None, point=point):
            if point == "snap" and typ == fr.R_SNAP:
                sim.kill()
            if point == "events" and typ == fr.R_EVENTS and codec.get_int(payload, 0)[0] > 150:
                sim.kill()
            if point == "commit" and typ == fr.R_COMMIT:
                dev.t.write(fr.encode(typ, dev.seq % 0xFFFF + 1, payload))
                time.sleep(0.005)
                sim.kill()
            return real(typ, payload, timeout, retries)

        if point == "timer":
            threading.Timer(0.3, sim.kill).start()
        elif point != "after":
            dev._request = killing
        try:
            dev.restore(new_state[2][1], new.events, 400)
            if point == "after":
                sim.kill()
        except DeviceError:
            pass
        dev.close()
        sim.kill()
        sim = Sim(flash)                            # the reboot
        try:
            dev = Device.open(sim.port)
            after = _state(dev)
            assert after in (old_state, new_state), point
            seen.add(after[0])
            if point == "after":
                assert after == new_state
            if point in ("snap", "events"):
                assert after == before
            dev.close()
        finally:
            sim.stop()
    assert seen == {old.cid, 4242}
