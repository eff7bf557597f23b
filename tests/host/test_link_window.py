"""Journal pages and the window of reads (docs/protocol.md, "Paging and
the window"): the host's line cutter and record checks against the
firmware's own, then end to end over the simulator's pty: several LOG
requests in flight answered in order, pages far larger than protocol 1's
1 KB, damage inside a window recovered, the REPL and the at-most-once
cache untouched by a windowed backup, damaged records named."""

import json
import os
import random
import struct
import subprocess
import sys
import time

import pytest

import linkutil
from linkutil import Sim

from dicetray.link import frame as fr
from dicetray.link.client import Device, DeviceError, JournalDamaged
from dicetray.link.records import records
from dicetray.rules import campaign as cp
from dicetray.rules import codec

from store import journal  # noqa: E402  (firmware/store, on the path through linkutil)

N = 3000


def segment_files(flash):
    root = os.path.join(flash, "dicetray", "c1")
    return {int(nm[1:9], 16): os.path.join(root, nm)
            for nm in sorted(os.listdir(root)) if nm.startswith("j") and nm.endswith(".log")}


def write_small_segments(flash, n, roll=256):
    """A campaign of n events whose journal segments close at `roll` bytes
    (16 events, ~340 bytes each): many pages that together stay far below
    what the simulator's pty holds while nobody reads it (~18 KB), so a raw
    burst of answers is never dropped on the way."""
    c = linkutil.make_events(n)
    linkutil.write_campaign(flash, c, snap_every=16, roll=roll)
    return c


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    flash = str(tmp_path_factory.mktemp("small") / "flash")
    c = write_small_segments(flash, 600)
    sim = Sim(flash)
    yield sim, flash, c
    sim.stop(alive=True)


@pytest.fixture(scope="module")
def sim3k(tmp_path_factory):
    """A simulator holding a 3,000-event campaign (about 19 journal segments)."""
    flash = str(tmp_path_factory.mktemp("win") / "flash")
    c = linkutil.write_flash(flash, N)
    sim = Sim(flash)
    yield sim, flash, c
    sim.stop(alive=True)


# --- the pieces, on CPython ----------------------------------------------------

def _cut(lines, stream, rng):
    got = []

    def out(text):
        got.append(None if text is None else bytes(text))
    i = 0
    while i < len(stream):
        k = rng.randrange(1, 40)
        chunk = stream[i:i + k]
        lines.push(chunk, len(chunk), out)
        i += k
    return got, lines.skipped, lines.n, lines.over


def test_fast_lines_cut_exactly_as_the_firmware_lines():
    rng = random.Random(12)
    alphabet = b"AB+/=#\r\n\x00\x03>x"
    for trial in range(400):
        size = rng.randrange(1, 24)
        parts = []
        for _ in range(rng.randrange(1, 12)):
            k = rng.random()
            if k < 0.4:
                parts.append(b"#" + bytes(rng.choice(b"ABCD+/=") for _ in range(rng.randrange(0, 2 * size))) + b"\n")
            elif k < 0.6:
                parts.append(bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 30))))
            else:
                parts.append(fr.encode(fr.INFO, rng.randrange(1, 0xFFFF), bytes(rng.randrange(0, 12))))
        stream = b"".join(parts)
        seed = rng.randrange(1 << 30)
        slow = _cut(fr.Lines(size), stream, random.Random(seed))
        fast = _cut(fr.FastLines(size), stream, random.Random(seed))
        assert fast == slow, (trial, size, stream)


def _segment(events, base=0):
    buf = bytearray(journal.HDR + journal.MAX_REC)
    out = bytearray()
    for i, ev in enumerate(events):
        n = journal.pack(buf, base + i + 1, ev)
        out += buf[:n]
    return bytes(out)


def test_records_check_what_the_device_scanner_checks():
    c = linkutil.make_events(200)
    evs = c.events[:150]
    seg = _segment(evs, 40)
    assert records(seg, 40, 40, 190) == (evs, 190)
    assert records(seg, 40, 100, 120) == (evs[60:80], 120)       # only what is asked for
    assert records(seg[:-3], 40, 40, 190) == (evs[:-1], 189)      # a page cut inside a record
    i = len(_segment(evs[:70], 40))                               # record 111 starts here
    for at, why in ((i + 2, "header check"), (i + journal.HDR, "CRC")):
        bad = bytearray(seg)
        bad[at] ^= 0x10
        with pytest.raises(JournalDamaged, match="damaged at event 111 .*%s" % why) as e:
            records(bytes(bad), 40, 40, 190)
        assert e.value.seq == 111
    # A damaged event before the ones asked for is only stepped over (its
    # header still says where the next starts); a header never is.
    bad = bytearray(seg)
    bad[i + journal.HDR] ^= 0x10
    assert records(bytes(bad), 40, 120, 190) == (evs[80:], 190)
    renumbered = _segment(evs, 41)
    with pytest.raises(JournalDamaged, match="numbered 42"):
        records(renumbered, 40, 40, 190)


def test_records_read_past_damage_to_the_next_record_that_reads():
    # One damaged record used to end the read of its
    # whole segment. With a list for the gaps, a failed CRC is stepped
    # over (its header says where the next starts) and after a failed
    # header the next record is found by its own checks.
    c = linkutil.make_events(200)
    evs = c.events[:150]
    seg = _segment(evs, 40)
    offs = [len(_segment(evs[:k], 40)) for k in range(150)]
    bad = bytearray(seg)
    bad[offs[70] + 2] ^= 0x10                                   # event 111's header
    bad[offs[100] + journal.HDR] ^= 0x10                        # event 141's event bytes
    gaps = []
    got, last = records(bytes(bad), 40, 40, 190, gaps)
    assert last == 190 and len(got) == 150
    assert got[70] is None and got[100] is None
    assert [g for g in got if g is not None] == evs[:70] + evs[71:100] + evs[101:]
    assert gaps == [[111, 111, 40, "record header check failed"],
                    [141, 141, 40, "record fails its CRC"]]
    # A length hit: the header check fails, the record after it is found.
    bad = bytearray(seg)
    bad[offs[70]] ^= 0x01
    gaps = []
    got, last = records(bytes(bad), 40, 100, 190, gaps)          # only 101.. asked for
    assert got == evs[60:70] + [None] + evs[71:] and gaps[0][:2] == [111, 111]
    # Nothing further reads: the rest is one gap.
    gaps = []
    got, last = records(seg[: offs[70] + 5] + bytes(40), 40, 40, 190, gaps)
    assert got == evs[:70] + [None] * 80 and gaps == [[111, 190, 40, "record header check failed"]]


def test_a_journal_page_is_far_bigger_than_protocol_one_allowed():
    assert fr.PROTOCOL == 2
    assert fr.MAX_ANS_PAYLOAD >= 8 + fr.LOG_PAGE and fr.MAX_ANS > 4 * 1024
    page = fr.Page(8 + fr.LOG_PAGE)
    data = bytes((i * 13) & 0xFF for i in range(8 + fr.LOG_PAGE))
    page.body[fr.HEAD:fr.HEAD + len(data)] = data
    line = b"#" + page.text(fr.LOG | fr.ANSWER, 77, len(data))
    assert line == fr.encode(fr.LOG | fr.ANSWER, 77, data) and len(line) <= fr.MAX_ANS
    got = []
    fr.FastLines(fr.MAX_ANS + 64).push(line, len(line), got.append)
    assert fr.decode(got[0]) == (fr.LOG | fr.ANSWER, 77, data)


def _binary(typ, seq, payload):
    """A binary frame as the device builds it (fr.Page.binary)."""
    page = fr.Page(len(payload))
    page.body[fr.HEAD:fr.HEAD + len(payload)] = payload
    return bytes(page.binary(typ, seq, len(payload)))


def test_binary_frames_cut_between_lines_garbage_and_damage():
    rng = random.Random(5)
    for trial in range(300):
        parts, want = [], []
        for _ in range(rng.randrange(1, 10)):
            k = rng.random()
            seq = rng.randrange(1, 0xFFFF)
            p = bytes(rng.randrange(256) for _ in range(rng.randrange(fr.BIN_COVER, 300)))
            if k < 0.35:
                parts.append(_binary(fr.LOGB | fr.ANSWER, seq, p))
                want.append((fr.LOGB | fr.ANSWER, seq, p))
            elif k < 0.6:
                parts.append(fr.encode(fr.INFO | fr.ANSWER, seq, p[:40]))
                want.append((fr.INFO | fr.ANSWER, seq, p[:40]))
            elif k < 0.7:
                parts.append(bytes(rng.choice(b"AB#\r\n\xff>x ") for _ in range(rng.randrange(0, 20))))
            elif k < 0.8:   # a binary frame cut short: the frames after it still come
                parts.append(_binary(fr.LOGB | fr.ANSWER, seq, p)[:rng.randrange(1, 40)])
            elif k < 0.9:   # damage in the length, its check or the covered header
                b = bytearray(_binary(fr.LOGB | fr.ANSWER, seq, p))
                b[rng.randrange(1, fr.BIN_HEAD + fr.HEAD + fr.BIN_COVER)] ^= 1 << rng.randrange(8)
                parts.append(bytes(b))
            else:           # damage past the header is the records' to find: it passes
                b = bytearray(_binary(fr.LOGB | fr.ANSWER, seq, p))
                i = rng.randrange(fr.BIN_HEAD + fr.HEAD + fr.BIN_COVER, len(b) - fr.CRC)
                b[i] ^= 0x20
                parts.append(bytes(b))
                q = bytearray(p)
                q[i - fr.BIN_HEAD - fr.HEAD] ^= 0x20
                want.append((fr.LOGB | fr.ANSWER, seq, bytes(q)))
        stream = b"\n".join(parts) + b"\n"
        order = []
        lines = fr.FastLines(fr.MAX_ANS + 64, lambda f: order.append(("b", f)))
        text = lambda t: order.append(("t", t))  # noqa: E731
        i = 0
        while i < len(stream):
            k = rng.randrange(1, 64)
            chunk = stream[i:i + k]
            lines.push(chunk, len(chunk), text)
            i += k
        lines.quiet(text)   # the host heard nothing more for a while
        frames = []
        for kind, f in order:
            if kind == "b":
                frames.append((f[0], f[1], bytes(f[2])))
            elif f is not None:
                try:
                    t, q, pl = fr.decode(f)
                except ValueError:
                    continue
                frames.append((t, q, bytes(pl)))
        # Every whole frame arrives, in order: a cut or damaged one whose
        # length claimed the frames after it gives them back when it fails
        # its check (or when the line goes quiet).
        assert [f for f in frames if f in want] == want, (trial, stream)


def test_what_a_binary_frame_holds_is_not_the_repl():
    # A journal page may hold any bytes, the REPL's prompt among them: the
    # host looks for the prompt only outside binary frames.
    got = []
    lines = fr.FastLines(fr.MAX_ANS + 64, got.append)
    frame = _binary(fr.LOGB | fr.ANSWER, 3, bytes(fr.BIN_COVER) + b"\r\n>>> raw REPL; CTRL-B to exit")
    lines.push(frame, len(frame), lambda t: None)
    assert len(got) == 1 and b">>> " not in lines.seen
    lines.push(b"\r\n>>> ", 6, lambda t: None)
    assert lines.seen.endswith(b">>> ")


# --- end to end, over the simulator's pty ---------------------------------------

def _log(dev, base, off=0, count=1):
    return dev._line(fr.LOG, struct.pack("<IIB", base, off, count))


def _frames(dev, n, seqs, timeout=linkutil.HANG):
    """The next n answers to the requests numbered `seqs`: pushes, and a
    late second answer to an earlier request that was retried (a busy
    machine), are not among them."""
    got = []
    end = time.monotonic() + timeout
    while len(got) < n:
        f = dev._frame(end)
        assert f is not None, "only %d of %d answers" % (len(got), n)
        if f[0] != fr.PUSH and f[1] in seqs:
            got.append(f)
    return got


def test_a_window_of_log_requests_answered_in_order_with_whole_segments(small):
    sim, flash, c = small
    files = segment_files(flash)
    bases = sorted(files)
    assert len(bases) > 30
    with Device.open(sim.port) as dev:
        sent = [_log(dev, b) for b in bases[:6]]
        sent.append(_log(dev, bases[6], 0, 3))          # one request, three segments
        dev.t.write(b"".join(line for _, line in sent))  # all in flight at once
        got = _frames(dev, 9, {q for q, _ in sent})
        assert [f[1] for f in got] == [s for s, _ in sent[:6]] + [sent[6][0]] * 3
        for f, b in zip(got, bases[:9]):
            typ, _seq, p = f
            assert typ == fr.LOG | fr.ANSWER
            assert struct.unpack_from("<II", p) == (b, 0)
            with open(files[b], "rb") as fh:
                assert bytes(p[8:]) == fh.read()
        # Refusals name what was wrong.
        for payload, msg in ((struct.pack("<IIB", 7, 0, 1), "journal segment 7 is not on the device"),
                             (b"\x00\x01", "LOG needs base u32"),
                             (struct.pack("<IIB", bases[0], 0, 0), "count u8 >= 1")):
            with pytest.raises(DeviceError, match=msg):
                dev._request(fr.LOG, payload)


def test_more_pages_than_a_pass_answers_stay_in_order(small):
    sim, flash, c = small
    bases = sorted(segment_files(flash))
    with Device.open(sim.port) as dev:
        # One LOG of 20 pages, more than a pass answers (fr.PAGES_MAX is 8,
        # fewer if the simulator's heap is low), then requests behind it:
        # answered after it, in order.
        s, line = _log(dev, bases[0], 0, 20)
        s2, line2 = _log(dev, bases[25], 0, 2)
        dev.t.write(line + fr.encode(fr.INFO, 9, b"") + line2)
        got = _frames(dev, 23, (s, 9, s2))
        assert [f[1] for f in got] == [s] * 20 + [9] + [s2] * 2
        assert [struct.unpack_from("<I", f[2])[0] for f in got if f[1] != 9] == bases[:20] + bases[25:27]
        assert dev.events(0) == c.events


def test_a_segment_page_is_many_times_protocol_ones(sim3k):
    sim, flash, c = sim3k
    files = segment_files(flash)
    b = sorted(files)[1]
    with open(files[b], "rb") as fh:
        whole = fh.read()
    assert len(whole) > 2 * fr.LOG_PAGE
    with Device.open(sim.port) as dev:
        p = dev._request(fr.LOG, struct.pack("<IIB", b, 0, 1))
        assert struct.unpack_from("<II", p) == (b, 0) and bytes(p[8:]) == whole[:fr.LOG_PAGE]
        assert len(fr.encode(fr.LOG | fr.ANSWER, 1, p)) > 4 * 1024 > 4 * len(fr.encode(fr.LOG, 1, bytes(9)))
        p = dev._request(fr.LOG, struct.pack("<IIB", b, 1000, 1))      # from an offset
        assert bytes(p[8:]) == whole[1000:1000 + fr.LOG_PAGE]
        p = dev._request(fr.LOG, struct.pack("<IIB", b, 10 ** 6, 1))   # past its end: nothing
        assert bytes(p[8:]) == b""


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """Segments of ~10 KB: three LOG_PAGEs each."""
    flash = str(tmp_path_factory.mktemp("big") / "flash")
    c = linkutil.make_events(1500)
    linkutil.write_campaign(flash, c, roll=10000)
    sim = Sim(flash)
    yield sim, flash, c
    sim.stop(alive=True)


def _logb(dev, base, off=0, count=1):
    return dev._line(fr.LOGB, struct.pack("<IIB", base, off, count))


def test_logb_sends_every_page_of_its_segments_in_binary_frames(big):
    sim, flash, c = big
    files = segment_files(flash)
    bases = sorted(files)
    assert len(bases) >= 3
    whole = {}
    for b in bases:
        with open(files[b], "rb") as fh:
            whole[b] = fh.read()
    assert len(whole[bases[0]]) > 2 * fr.LOG_PAGE
    with Device.open(sim.port) as dev:
        # (each burst within what the simulator's pty holds unread, ~18 KB)
        got, want = [], []
        for b, off, count in ((bases[0], 0, 1),          # a segment, every page
                              (bases[1], 0, 1),
                              (bases[1], 5000, 1),       # from an offset
                              (bases[2], 10 ** 6, 1)):   # past its end: one empty page
            s, line = _logb(dev, b, off, count)
            dev.t.write(line)
            n = len(want)
            for k in range(count):
                size = len(whole[bases[bases.index(b) + k]])
                want += [(s, bases[bases.index(b) + k], o)
                         for o in range(off, max(size, off + 1), fr.LOG_PAGE)]
                off = 0
            got += _frames(dev, len(want) - n, (s,))
        assert [(f[1],) + struct.unpack_from("<II", f[2]) for f in got] == want
        for typ, _seq, p in got:
            assert typ == fr.LOGB | fr.ANSWER
            b, off, size = struct.unpack_from("<III", p)
            assert size == len(whole[b]) and bytes(p[12:]) == whole[b][off:off + fr.LOG_PAGE]
        # Refusals name what was wrong, as LOG's do.
        for payload, msg in ((struct.pack("<IIB", 7, 0, 1), "journal segment 7 is not on the device"),
                             (b"\x00\x01", "LOG needs base u32"),
                             (struct.pack("<IIB", bases[0], 0, 0), "count u8 >= 1")):
            with pytest.raises(DeviceError, match=msg):
                dev._request(fr.LOGB, payload)
        # A backup of it: one LOGB per PAGES segments, a page lost on the way
        # asked for again, every event checked.
        w = Counting(dev)
        assert dev.events(0) == c.events
        assert w.frames.count(fr.LOGB) >= -(-len(bases) // fr.PAGES) and fr.LOG not in w.frames


def test_firmware_without_logb_is_read_in_text_pages(sim3k):
    sim, flash, c = sim3k
    with Device.open(sim.port) as dev:
        def old(typ, k, data):   # LOGB as an older firmware hears it: an unknown request
            if typ != fr.LOGB:
                return data
            _t, seq, p = fr.decode(data[1:-1])
            return fr.encode(0x7F, seq, p)
        w = Counting(dev, old)
        assert dev.events(0) == c.events
        assert dev.binary is False and w.frames.count(fr.LOGB) == 1
        assert w.frames.count(fr.LOG) >= -(-len(segment_files(flash)) // fr.PAGES)
        n = len(w.frames)
        assert dev.events(0) == c.events and fr.LOGB not in w.frames[n:]


def test_segments_listed_from_since(sim3k):
    sim, flash, c = sim3k
    bases = sorted(segment_files(flash))
    with Device.open(sim.port) as dev:
        for since, want in ((0, bases), (bases[3], bases[3:]), (bases[3] + 5, bases[3:]),
                            (N - 1, bases[-1:]), (N, [])):
            p = dev._request(fr.SEGS, bytes(_varint(since)))
            head, i = codec.get_int(p, 0)
            n, i = codec.get_int(p, i)
            got, b = [], 0
            for _ in range(n):
                d, i = codec.get_int(p, i)
                b += d
                got.append(b)
            assert head == N and got == want, since
        with pytest.raises(DeviceError, match="beyond the device's last event"):
            dev._request(fr.SEGS, bytes(_varint(N + 1)))


def _varint(v):
    out = bytearray()
    codec.put_int(out, v)
    return out


def test_text_page_backups_in_a_row_fit_the_simulators_heap(sim3k):
    """Backups in text pages one after another, each pass as full as the
    window makes it: the simulator collects only between passes, so a pass
    must stop while its heap still has room (link/server.py SIM_SPARE).
    With a 64 KB spare a page's 5.5 KB found no room within 4 to 8 backups
    (MemoryError; before gc.disable() in the simulator board, a trap)."""
    sim, flash, c = sim3k
    for k in range(10):
        with Device.open(sim.port) as dev:
            dev.binary = False
            assert dev.events(0) == c.events, k
    assert sim.p.poll() is None, sim.stop()[1][-2000:]


class Counting:
    """Counts the request frames a Device writes (and can damage one)."""

    def __init__(self, dev, damage=None):
        self.dev = dev
        self.real = dev.t.write
        self.frames = []
        self.sent = []
        self.damage = damage
        dev.t.write = self

    def __call__(self, data):
        typ, seq, p = fr.decode(data[1:-1])
        self.frames.append(typ)
        self.sent.append((typ, bytes(p)))
        if self.damage is not None:
            data = self.damage(typ, len(self.frames), data)
        return self.real(data)


def test_a_backup_takes_a_few_round_trips(sim3k):
    sim, flash, c = sim3k
    with Device.open(sim.port) as dev:
        w = Counting(dev)
        seen = []
        evs = dev.events(0, progress=lambda d, t: seen.append((d, t)))
        assert evs == c.events
        # EVENTS + SEGS together, then a LOGB of fr.PAGES segments per
        # request (more only if a frame was lost on the way): protocol 1
        # needed a request for each ~75 events, 40 here.
        assert w.frames[:2] == [fr.EVENTS, fr.SEGS]
        assert w.frames.count(fr.LOGB) >= -(-len(segment_files(flash)) // fr.PAGES)
        assert len(w.frames) < 12 and seen[-1] == (N, N)
        assert dev.events(N - 10) == c.events[-10:]               # the last ones: from RAM
        assert dev.events(N) == []
        dev.binary = False                                        # text pages: as many requests
        k = len(w.frames)
        assert dev.events(0) == c.events
        assert w.frames[k + 2:].count(fr.LOG) >= -(-len(segment_files(flash)) // fr.PAGES)


@pytest.mark.parametrize("binary", [True, False], ids=["LOGB", "LOG"])
def test_torn_and_damaged_frames_inside_a_window_are_recovered(small, big, binary):
    sim, flash, c = small
    typ = fr.LOGB if binary else fr.LOG
    with Device.open(sim.port) as dev:
        dev.binary = binary
        bad0 = dev.info()["bad"]
        # Requests: the second read of the window torn, the fourth with a flipped bit.
        def damage(t, k, data):
            if t == typ and k == 4:
                return data[:len(data) // 2] + b"\n"
            if t == typ and k == 6:
                b = bytearray(data)
                b[5] = ord("A") if b[5] != ord("A") else ord("B")
                return bytes(b)
            return data
        w = Counting(dev, damage)
        assert dev.events(0) == c.events and w.frames.count(typ) >= 6
        assert dev.info()["bad"] >= bad0 + 2
    sim, flash, c = big
    with Device.open(sim.port) as dev:
        dev.binary = binary
        dev.pages = 1                     # a request a segment: more answers in the window
        # Answers: one torn on the way, a later one with a flipped bit (in
        # a binary page: in its records, which fail their checks, so the
        # host reads that segment again before it calls it damaged).
        real = dev.t.read
        state = {"n": 0, "torn": False, "flipped": False}

        def read(timeout):
            data = real(timeout)
            if len(data) > 200:
                state["n"] += 1
                if state["n"] == 2:
                    state["torn"] = True
                    return data[:len(data) // 3]              # torn: the rest never arrives
                if state["n"] == 4:
                    state["flipped"] = True
                    b = bytearray(data)
                    k = next(i for i in range(100, len(b)) if b[i] not in b"#\r\n\xff")
                    b[k] = ord("A") if b[k] != ord("A") else ord("B")
                    return bytes(b)
            return data
        dev.t.read = read
        assert dev.events(0) == c.events and state["torn"] and state["flipped"]


def test_a_wider_window_of_longer_requests(sim3k):
    sim, flash, c = sim3k
    with Device.open(sim.port) as dev:
        dev.window, dev.pages = 3, 8        # 24 pages asked at once: over several passes
        assert dev.events(0) == c.events
        dev.window, dev.pages = 1, 1        # and one at a time
        assert dev.events(0) == c.events


def test_the_repl_and_mpremote_after_a_windowed_backup(sim3k):
    sim, flash, c = sim3k
    dev = Device.open(sim.port)
    assert dev.events(0) == c.events
    dev.end_session()                         # the app stops, the REPL takes the port
    assert linkutil.upto(dev.t, b">>> ").endswith(b">>> ")
    dev.t.write(b"6*7\r")
    assert b"42\r\n>>> " in linkutil.upto(dev.t, b"42\r\n>>> ")
    dev.close()
    dev = Device.open(sim.port)               # soft-reboots into the app
    assert dev.events(N - 200)[-1] == c.events[-1]
    dev.close()
    r = subprocess.run([sys.executable, "-m", "mpremote", "connect", sim.port, "exec",
                        "print('from', 'mpremote')"], capture_output=True, timeout=60)
    assert b"from mpremote" in r.stdout, (r.stdout, r.stderr)
    with Device.open(sim.port) as dev:        # and the app again
        assert dev.info()["events"] == N


def test_a_windowed_read_leaves_the_at_most_once_cache_alone(tmp_path):
    flash = str(tmp_path / "flash")
    c = write_small_segments(flash, 400)
    sim = Sim(flash)
    try:
        with Device.open(sim.port) as dev:
            before = dev.info()
            dev.seq += 1
            act = fr.encode(fr.ACT, dev.seq, json.dumps({"kind": cp.DICE, "args": [6, 3],
                                                         "after": before["events"]}).encode())
            dev.t.write(act)
            first = _frames(dev, 1, (dev.seq,))[0]
            assert first[0] == fr.ACT | fr.ANSWER
            bases = sorted(segment_files(flash))
            sent = [_log(dev, b, 0, 1) for b in bases[:3]]   # a window of LOG reads meanwhile
            sent += [_logb(dev, b, 0, 1) for b in bases[:1]]  # and a LOGB
            dev.t.write(b"".join(x for _, x in sent))
            assert [f[1] for f in _frames(dev, 4, {q for q, _ in sent})] == [q for q, _ in sent]
            dev.t.write(act)                                 # the ACT's answer "lost": again
            assert _frames(dev, 1, (first[1],))[0] == first  # from the cache, not applied again
            after = dev.info()
            assert after["events"] == before["events"] + 1 and after["retried"] == before["retried"] + 1
            # Once another request replaced the cached answer (here: INFO, and a
            # backup's EVENTS and SEGS), "after" refuses the repeat: still once.
            assert dev.events(0)[:400] == c.events
            dev.t.write(act)
            again = _frames(dev, 1, (first[1],))[0]
            assert again[0] == fr.ERR and bytes(again[2]) == b"stale: the device is at event 401, not 400"
            assert dev.info()["events"] == 401
    finally:
        sim.stop()


def test_an_old_host_is_told_to_upgrade(sim3k):
    sim, flash, c = sim3k
    with Device.open(sim.port) as dev:
        with pytest.raises(DeviceError, match="the host speaks 1, this firmware 2: upgrade the host tool"):
            dev._request(fr.HELLO, json.dumps({"protocol": 1, "host": "0.1.0"}).encode())


@pytest.mark.parametrize("binary", [True, False], ids=["LOGB", "LOG"])
def test_a_damaged_record_on_flash_is_named(tmp_path, binary):
    flash = str(tmp_path / "flash")
    c = write_small_segments(flash, 400)
    files = segment_files(flash)
    base = sorted(files)[2]
    with open(files[base], "rb") as f:
        seg = bytearray(f.read())
    i = len(_segment(c.events[base:base + 10], base))   # record base + 11
    seg[i + journal.HDR] ^= 0x04                         # one bit of its event
    with open(files[base], "wb") as f:
        f.write(seg)
    sim = Sim(flash)
    try:
        with Device.open(sim.port) as dev:
            dev.binary = binary
            w = Counting(dev)
            with pytest.raises(JournalDamaged, match="damaged at event %d .*CRC" % (base + 11)) as e:
                dev.events(0)
            assert e.value.seq == base + 11
            if binary:   # damage is what fails twice: that segment was read again
                assert (fr.LOGB, struct.pack("<IIB", base, 0, 1)) in w.sent
            assert dev.events(base + 11)[:5] == c.events[base + 11:base + 16]   # what follows is intact
    finally:
        sim.stop()


def test_a_subscriber_far_behind_is_caught_up_reading_each_record_once():
    # Events older than the device's RAM come to a subscriber from the
    # journal on flash, one PUSH each: the link reads on from where its
    # last push left the segment (a cursor), not from the segment's start,
    # which in a ~750-event segment made every push parse hundreds of
    # records (segments grew to 16 KB).
    import ramtray
    from link import server
    tray = ramtray.RamTray(seed=11)
    ramtray.play(tray, 900)
    n = tray.nevents
    want = tray.journal()
    assert tray.first() == 1 and n > 800
    dev = tray.device()
    taken = [0]
    real = server.Link._take

    def take(self, ev):
        taken[0] += 1
        return real(self, ev)
    server.Link._take = take
    try:
        got = []
        for seq, ev in dev.subscribe(since=0, timeout=2):
            got.append((seq, bytes(ev)))
            if seq >= n:
                break
    finally:
        server.Link._take = real
    assert [s for s, _ in got] == list(range(1, n + 1))
    assert [e for _, e in got] == want
    assert taken[0] < 2 * n, taken[0]   # each record about once (before: ~n * 375)
