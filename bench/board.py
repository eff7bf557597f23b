"""`make bench`, the board rows: the firmware on MicroPython's own rp2 port,
on an emulated RP2040 (host/dicetray/sim/rp2040.py, docs/emulator.md).

Times are emulated time at 125 MHz: instruction cycle counts (rp2040js),
the XIP cache's misses (the emulator's model of the RP2040's 16 kB flash
cache, emulator/src/xip.mjs: every instruction fetch and data read from
flash), I2C at the bus's configured 400 kHz (9 clocks a byte), the flash's
typical erase and program times. The roll rows are printed without the
cache model too (rp2040js's own timing, where flash costs nothing): the
difference is what the misses cost.

- boot to the complete home screen with the 10,031-event campaign, the
  release image (firmware frozen) and the stock image with the firmware
  as .mpy on the filesystem (what `dicetray deploy` puts there): from
  reset to the last display write before the app's first idle;
- key to frame for the rows of the fuel table: the CPU run (wake to wait)
  that handled the key and sent its frame, as CPU ms and I2C bus ms; the
  same key's fuel (from the fuel rows) over its CPU cycles, the measured
  fuel per cycle that replaces the old estimate;
- heap free after a collection, after boot and across the board stage's
  long session (tests/board/longsession.py: 2,000 actions);
- backup of a 5,000-event campaign over the emulated USB CDC beside the
  raw rate of the same port, both on the device's CPU time.
"""

import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "host"))
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))
sys.path.insert(0, os.path.join(ROOT, "tests", "board"))  # boards.py, longsession.py
sys.path.append(os.path.join(ROOT, "firmware"))  # linkutil's `store`, as the board imports it

from dicetray.sim.script import KEY_BITS as KEYS, TAP_MS  # noqa: E402

NS = 1_000_000
CYCLE_NS = 8
GAP_MS = 400  # between taps: debounce, a poll, the frame, the ring


def available():
    """None if the board rows can run here, else the one-line reason."""
    for tool, why in (("node", "node runs the emulated RP2040"), ("npm", "npm installs rp2040js")):
        if shutil.which(tool) is None:
            return "%s not found (%s: apt-get install nodejs npm)" % (tool, why)
    from tools import uf2

    for stock in (False, True):
        if (
            not os.path.isfile(uf2.image_path("RPI_PICO", stock))
            and shutil.which("arm-none-eabi-gcc") is None
        ):
            return (
                "no image and no arm toolchain to build one (apt-get install gcc-arm-none-eabi "
                "libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake)"
            )
    return None


def image(stock=False):
    """A current image (built when its inputs changed), as the board tests take it."""
    import boards

    return boards.image(stock=stock)


class Board:
    """An emulated board on a flash image made from host files."""

    def __init__(self, uf2_path, files, seed=1, xip=True, boot_s=120, **profile):
        from dicetray.sim import lfsimage
        from dicetray.sim.rp2040 import Emulator

        self.dir = tempfile.mkdtemp(prefix="dicetray-bench-")
        flash = os.path.join(self.dir, "flash.bin")
        lfsimage.install(flash, files)
        self.em = Emulator(uf2_path, flash, seed=seed, xip=xip, **profile).start()
        self.em.wait_app(boot_s)
        self.marks = 0

    def close(self):
        self.em.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def boot(self):
        """(ms to the complete home screen, CPU ms, bus ms, flash ms) of the boot."""
        em = self.em
        st = em.app_stats
        return (
            (em.boot_t - em.boot_start) / NS,
            (st["busyCycles"] * CYCLE_NS - st["i2cNanos"]) / NS,
            st["i2cNanos"] / NS,
            st["flashNanos"] / NS,
        )

    def tap(self, key, hold_ms=TAP_MS, gap_ms=GAP_MS):
        """Press and release a key, wait gap_ms; returns the spans of CPU
        runs that drew on the display meanwhile."""
        em = self.em
        n = len(em.span_log)
        self.marks += 1
        end = em.tap(KEYS[key], hold_ms, gap_ms, "b%d" % self.marks)["t"]
        t = end - (20 + hold_ms + gap_ms) * NS  # when the key went down
        return [s for s in em.span_log[n:] if s["t0"] >= t and s["i2cBytes"]]

    def key(self, key, gap_ms=GAP_MS):
        """The CPU run of a key's frame: (cycles, CPU ms, bus ms, flash ms)."""
        spans = self.tap(key, gap_ms=gap_ms)
        if not spans:
            raise RuntimeError("%s drew nothing" % key)
        s = spans[0]
        return (
            s["cycles"],
            (s["cycles"] * CYCLE_NS - s["i2cNanos"]) / NS,
            s["i2cNanos"] / NS,
            s["flashNanos"] / NS,
        )

    def wait_ms(self, ms):
        """Let `ms` of emulated time go by."""
        self.marks += 1
        self.em.at([(ms * NS, None, "w%d" % self.marks)], base="now")
        self.em.wait_mark("w%d" % self.marks)

    def roll(self, key="ROLL", need=True):
        """Tap `key` (Roll) and return the roll's run: (ms, CPU ms, bus ms,
        flash ms, erases) of the first CPU run that drew after the key
        (RuntimeError if none did and `need`, else None); its erases from
        the harness's counter around the tap, when the run waited for the
        flash long enough to hold one (the flash ms says)."""
        e0 = self.em.stats()["erases"]
        spans = self.tap(key, gap_ms=ROLL_GAP_MS)
        if not spans:
            if need:
                raise RuntimeError("%s drew nothing" % key)
            return None
        erases = self.em.stats()["erases"] - e0 if spans[0]["flashNanos"] > 30 * NS else 0
        s = spans[0]
        # The result's last byte on the wire: by DMA it goes on after the run.
        last = max(w for w in self.em.draw_log if s["t0"] <= w[0] <= s["t1"] + LATE_NS)
        return _run(s, erases, last)

    def keyed_roll(self):
        """A result keyed in by hand: hold Roll (KeyIn), add faces with OK
        until Roll applies them; returns roll()'s figures for that Roll
        (the one that wrote to the flash: the others only add a face)."""
        self.tap("ROLL", hold_ms=800)
        for _ in range(40):
            r = self.roll(need=False)
            if r is not None and r[3] > 0:
                return r
            self.tap("OK")
        raise RuntimeError("the keyed-in roll never applied")

    def idle_pass(self, ms=10000, after_ms=1000):
        """Busy cycles of one loop pass with nothing to do: the cycles over
        `ms` of quiet (from after_ms on, past the fast polls that follow a
        host's last frame), over the passes in it: each is the pass's own
        CPU time plus its idle(30)."""
        em = self.em
        self.marks += 1
        em.at(
            [
                (after_ms * NS, None, "q%d" % self.marks),
                ((after_ms + ms) * NS, None, "r%d" % self.marks),
            ],
            base="now",
        )
        a = em.wait_mark("q%d" % self.marks)["stats"]
        b = em.wait_mark("r%d" % self.marks)["stats"]
        busy = b["busyCycles"] - a["busyCycles"]
        passes = (ms * NS - busy * CYCLE_NS) / (30 * NS)
        return busy / passes


def campaign_files(name):
    from dicetray.sim import lfsimage

    return lfsimage.files_of(os.path.join(ROOT, "build", name))


def mpy_files():
    """The firmware as `dicetray deploy` puts it on a board's filesystem:
    every module as .mpy, main.py as dtmain.mpy, a one-line /main.py."""
    from tools import deploy
    from tools.mpy import compile_firmware
    from dicetray.sim import lfsimage

    out = os.path.join(ROOT, "build", "bench-board-mpy")
    shutil.rmtree(out, ignore_errors=True)
    compile_firmware(out)
    files = lfsimage.files_of(out)
    files["/" + deploy.MAIN_MODULE + ".mpy"] = files.pop("/main.mpy")
    files["/main.py"] = deploy.MAIN_STUB.encode()
    return files


def row(name, *cols):
    print("%-48s" % name + "".join("%12s" % c for c in cols))


def main(fuel=None):
    """Print the board rows; `fuel` is {row: fuel per key} from the fuel table."""
    fuel = fuel or {}
    why = available()
    if why:
        print("Board rows skipped: " + why)
        return
    import device

    frozen, stock = image(), image(stock=True)
    n, tail, size = device.make_image(tail=31)
    print("Board: MicroPython v1.27.0 rp2 port on an emulated RP2040 (rp2040js), emulated time at")
    print("125 MHz with the XIP cache's misses (emulator/src/xip.mjs)")
    row("operation", "ms", "CPU ms", "bus ms", "fuel/cycle")
    big = campaign_files("bench-flash")
    boards = {}
    for label, uf2_path, files in (
        ("frozen", frozen, big),
        (".mpy", stock, dict(big, **mpy_files())),
    ):
        b = Board(uf2_path, files)
        ms, cpu, bus, _fl = b.boot()
        # The fuel row boots from .mpy files (less detect() and the link): compare like with like.
        ratio = (
            "%.2f" % (fuel["boot"] / (cpu * NS / CYCLE_NS))
            if label == ".mpy" and "boot" in fuel
            else ""
        )
        row(
            "boot to home, %d events, %d replayed: %s" % (n, tail, label),
            "%.1f" % ms,
            "%.1f" % cpu,
            "%.1f" % bus,
            ratio,
        )
        boards[label] = b
    b = boards.pop("frozen")
    idle = b.idle_pass()  # no host yet: the link only waits for one (link/waiting.py)
    from dicetray.link.client import Device

    boot_heap = {}
    for label, board in (("frozen", b), (".mpy", boards.pop(".mpy"))):
        with Device.open(board.em.port, timeout=10.0) as dev:
            boot_heap[label] = dev.info(collect=True)["heap_free"]
    board.close()
    # Keys are measured with the link server in the loop (a host came):
    # its idle pass is what a key's run has besides the key.
    idle_link = b.idle_pass()
    b.em.spans(True)
    print()
    row(
        "key to frame (the CPU run of the key's frame)",
        "cycles",
        "CPU ms",
        "bus ms",
        "flash ms",
        "fuel/cycle",
    )

    def keys(label, board, seq, fuel_key, gap_ms=GAP_MS, then=None):
        got = []
        for k in seq:
            got.append(board.key(k, gap_ms))
            if then:
                board.tap(then)
        cyc = sum(g[0] for g in got) // len(got)
        cpu = sum(g[1] for g in got) / len(got)
        bus = sum(g[2] for g in got) / len(got)
        fl = sum(g[3] for g in got) / len(got)
        f = fuel.get(fuel_key)
        # The fuel rows count handling the key and drawing (no poll, no bus):
        # the idle pass's cycles and the bus wait come off the run.
        ratio = "%.2f" % (f / (cyc - idle_link - bus * NS / CYCLE_NS)) if f else "-"
        row(label, format(cyc, ","), "%.2f" % cpu, "%.2f" % bus, "%.1f" % fl, ratio)

    keys("home: cursor down, up (a key)", b, ["DOWN", "UP"], "home")
    b.tap("OK")  # the builder, first open (imports)
    b.tap("DOWN")
    keys("hunt builder: skill 3<->0 (a key)", b, ["RIGHT", "LEFT"], "hunt")
    # The roll itself has rows of its own: roll_rows() below.
    row(
        "idle loop pass (no host yet, nothing to do)",
        format(int(idle), ","),
        "%.3f" % (idle * CYCLE_NS / NS),
        "0",
        "0",
        "%.2f" % (fuel["idle"] / idle) if "idle" in fuel else "-",
    )
    row(
        "idle loop pass (a host came and went)",
        format(int(idle_link), ","),
        "%.3f" % (idle_link * CYCLE_NS / NS),
        "0",
        "0",
        "",
    )
    b.close()

    device.make_image(300, 1, "bench-paths")
    p = Board(frozen, campaign_files("bench-paths"))
    p.em.spans(True)
    p.tap("OK")
    for _ in range(3):  # past Who, Mode and Test of: the Skill, as the fuel row
        p.tap("DOWN")
    keys("paths builder: skill 3<->4 (a key)", p, ["RIGHT", "LEFT"], "paths")
    # Helpers of 19 dice: Skill and Path 6, Difficulty 7, both helpers 19.
    for k, times in (
        ("RIGHT", 3),
        ("DOWN", 1),
        ("RIGHT", 4),
        ("DOWN", 3),
        ("RIGHT", 4),
        ("DOWN", 2),
        ("RIGHT", 19),
        ("DOWN", 1),
        ("RIGHT", 19),
        ("UP", 1),
    ):
        for _ in range(times):
            p.tap(k, gap_ms=150)
    keys("paths builder, helpers of 19: h1 19<->20", p, ["RIGHT", "LEFT"], "helpers")
    p.close()

    device.make_image(300, 2, "bench-exp", tail=31)
    e = Board(frozen, campaign_files("bench-exp"))
    e.em.spans(True)
    e.tap("OK")
    e.tap("DOWN")
    e.tap("DOWN")  # past Who: the Ability, as before
    keys("expedition builder: ability 5<->4 (a key)", e, ["RIGHT", "LEFT"], "expedition")
    e.close()

    print()
    roll_rows(frozen)
    print()
    roll_rows(frozen, xip=False)
    print()
    roll_rows(frozen, 1000000)
    print()
    row("heap free after a collection", "bytes", "lowest")
    for label, free in boot_heap.items():
        row("after boot (the 10,031-event campaign): %s" % label, format(free, ","))
    import longsession

    s = Board(frozen, {}, seed=21)
    heap, _info, _history = longsession.play(s.em)
    s.close()
    row(
        "after the long session (%d actions, every %d)" % (longsession.ACTIONS, longsession.EVERY),
        format(heap[-1][1], ","),
        format(min(h[1] for h in heap), ","),
    )
    print()
    backup_rows()
    print()
    journal_rows()


ROLL_GAP_MS = 1500  # between rolls: the ring's animation, then the idle moment (ui/app.py)
LATE_NS = 10 * NS  # a frame's last page, sent by DMA, lands this soon after its CPU run at most


def roll_rows(uf2_path, i2c_hz=None, xip=True):
    """Roll to result: the CPU run of the Roll key's frame, from
    the wake that takes the key (the event made durable on flash first) to
    the wait after the result screen's frame, split into CPU, bus and the
    flash wait, and the erases inside it; per system (the bench campaigns):
    the first roll of a boot (a second after the home screen, as a player
    presses it), a roll (the mean of five, ROLL_GAP_MS apart), a result
    keyed in by hand (hold Roll, OK adds faces, Roll applies). Then the
    erases an event over 48 rolls (wear()). `i2c_hz`: the OLED's clock
    (/config.txt's i2c=, hw/pico.py), None for the default. xip=False:
    without the XIP cache model (flash free, as rp2040js times it)."""
    why = available()
    if why:
        print("Roll rows skipped: " + why)
        return
    import device

    clock = "%d kHz" % ((i2c_hz or 400000) // 1000)
    model = "" if xip else ", no XIP model"
    row(
        "roll to result, I2C at %s%s" % (clock, model),
        "ms",
        "CPU ms",
        "bus ms",
        "flash ms",
        "erases",
    )
    cfg = {"/config.txt": ("i2c=%d\n" % i2c_hz).encode()} if i2c_hz else {}
    if not os.path.isdir(os.path.join(ROOT, "build", "bench-flash")):
        device.make_image(tail=31)  # main() made it already
    device.make_image(300, 1, "bench-paths")
    device.make_image(300, 2, "bench-exp", tail=31)
    for label, name in (
        ("hunt", "bench-flash"),
        ("paths", "bench-paths"),
        ("expedition", "bench-exp"),
    ):
        files = dict(campaign_files(name), **cfg)
        b = Board(uf2_path, files, xip=xip)
        b.em.spans(True)
        b.wait_ms(1000)
        first = b.roll()  # home -> result
        b.tap("BACK")
        b.tap("OK")  # the builder: each roll from there, back to it after
        got = []
        for _ in range(5):
            got.append(b.roll())
            b.tap("BACK")
        keyed = b.keyed_roll()
        b.close()
        row("%s: first roll of a boot" % label, *_fmt(first))
        row("%s: a roll (mean of 5)" % label, *_fmt([sum(g[i] for g in got) / 5 for i in range(5)]))
        row("%s: a result keyed in" % label, *_fmt(keyed))
    if xip:  # the erases do not depend on the model
        row("erases an event, 48 rolls (folds, snapshots)", "%.3f" % wear(uf2_path, cfg))


def wear(uf2_path, cfg, n=48):
    """Erases an event on the board: n rolls from the hunt builder (Back
    after each), ROLL_GAP_MS apart, so the idle moments between them fold
    and snapshot as at a table; counted from the first roll's key to the
    idle moment after the last."""
    b = Board(uf2_path, dict(campaign_files("bench-flash"), **cfg))
    b.wait_ms(1000)
    b.tap("OK")
    e0 = b.em.stats()["erases"]
    for _ in range(n):
        b.tap("ROLL", gap_ms=ROLL_GAP_MS)
        b.tap("BACK")
    b.wait_ms(2000)
    e = b.em.stats()["erases"] - e0
    b.close()
    return e / n


def _run(s, erases, last):
    """(ms, CPU ms, bus ms, flash ms, erases) of a roll: from the wake that
    took the key to the result's last byte on the wire (`last`: the emulated
    ns and the bus's ns so far at that write; by DMA the last page goes out
    after the CPU's run); the bus time of the frame's bytes; the flash's
    stall (interrupts off); CPU: the rest, the time the result waited on the
    CPU (its work before the first byte and between pages; with writeto the
    CPU's busy time less its polling of the bus)."""
    ms = max(s["cycles"] * CYCLE_NS + s["flashNanos"], last[0] - s["t0"])
    bus = last[1] - s["bus0"]
    return (ms / NS, (ms - bus - s["flashNanos"]) / NS, bus / NS, s["flashNanos"] / NS, erases)


def _fmt(r):
    return ["%.1f" % r[0], "%.2f" % r[1], "%.2f" % r[2], "%.1f" % r[3], "%d" % r[4]]


def backup_rows():
    """A backup of a 5,000-event campaign over the emulated USB CDC, beside
    the raw rate of the same port, both per second of the device's CPU:
    the bytes on the wire (binary journal pages, their records with their
    headers) and the payload (the campaign's event and snapshot bytes).
    Twice: the journal in today's segments (store.SEG_ROLL) and in the
    3,072-byte ones of campaigns written before."""
    import linkutil
    import store
    from dicetray.backup import BackupStore
    from dicetray.link.client import Device
    from dicetray.rules import campaign as cp
    from dicetray.sim import lfsimage

    for roll in (store.SEG_ROLL, 3072):
        tmp = tempfile.mkdtemp(prefix="dicetray-bench-")
        try:
            c = linkutil.write_flash(os.path.join(tmp, "dir"), 5000, roll=roll)
            payload = len(cp.encode_snapshot(c)) + sum(len(e) for e in c.events)
            b = Board(image(), lfsimage.files_of(os.path.join(tmp, "dir")))
            em = b.em
            with Device.open(em.port, timeout=5.0) as dev:
                em.spans(True)
                n = len(em.span_log)
                store_ = BackupStore(os.path.join(tmp, "backups.sqlite3"))
                store_.take(dev)
                dev.end_session()  # the app ends: the REPL has the port
            # The CPU runs that answered (read a request, sent its answer): the
            # polls between requests wait on the host, whose speed is not the board's.
            answered = [s for s in em.span_log[n:] if s["usbBytes"]]
            moved = sum(s["usbBytes"] for s in answered)
            busy = sum(s["cycles"] for s in answered) * CYCLE_NS / 1e9
            raw = raw_rate(em)
            b.close()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        row(
            "backup, 5,000 events, %s-byte segments (device CPU s, bytes, B/s)" % format(roll, ","),
            "%.3f" % busy,
            format(moved, ","),
            format(int(moved / busy), ","),
        )
        row(
            "  its payload (events and snapshot)",
            "",
            format(payload, ","),
            format(int(payload / busy), ","),
        )
        row(
            "raw USB CDC writes from the REPL, same run (B/s of CPU)", "", "", format(int(raw), ",")
        )
        print(
            "  the link moves %.1f %% of the raw rate in bytes on the wire, %.1f %% in payload, per "
            "second of the device's CPU" % (100 * moved / busy / raw, 100 * payload / busy / raw)
        )


def raw_rate(em, kb=64):
    """Bytes a second of CPU the device writes to its USB CDC port from the
    raw REPL: what the port itself can do."""
    import serial

    s = serial.Serial(em.port, timeout=10)
    try:
        s.write(b"\r\x03\x03\x01")  # interrupt, then the raw REPL
        s.read_until(b"raw REPL; CTRL-B to exit\r\n>")
        code = (
            "import sys\nb = b'x' * 1024\nw = sys.stdout.buffer.write\n"
            "for i in range(%d):\n    w(b)\n" % kb
        )
        a = em.stats()
        s.write(code.encode() + b"\x04")
        got = 0
        while got < kb * 1024:
            chunk = s.read(65536)
            if not chunk:
                raise RuntimeError("the REPL stopped sending after %d bytes" % got)
            got += chunk.count(b"x")
        z = em.stats()
    finally:
        s.close()
    return kb * 1024 / ((z["busyCycles"] - a["busyCycles"]) * CYCLE_NS / 1e9)


if __name__ == "__main__":
    main()


def journal_rows():
    """Long journals (docs/store.md, "Boot replays"): a campaign of
    JOURNAL_KEEP events with only the empty snapshot (a boot replays every
    event, then snapshots), the same with every snapshot damaged (rebuilt
    from the journal), and a backup of 2,400 new events after 3,200. On
    the emulated board: the boot's emulated ms (the replay, then the home
    screen) and the lowest free heap right after a collection (the
    emulator's heap probe, emulator/src/heap.mjs); on the desktop simulator
    the same lowest (INFO heap_low: it collects only at safe points), the
    backup's 2,400 events made live over the link."""
    import linkutil
    import longjournal
    import store
    from dicetray.backup import BackupStore
    from dicetray.link.client import Device
    from dicetray.sim.rp2040 import Emulator

    full = store.JOURNAL_KEEP
    cases = (
        ("boot, %d events after the empty snapshot" % full, full, linkutil.NO_SNAPSHOT, False),
        ("rebuild, %d events, every snapshot damaged" % full, full, 32, True),
    )
    tmp = tempfile.mkdtemp(prefix="dicetray-bench-")
    try:
        why = available()
        if why:
            print("Long journal board rows skipped: " + why)
        else:
            row("long journals, emulated board", "ms", "CPU ms", "lowest heap")
            for k, (label, n, snap, damage) in enumerate(cases):
                _c, flash = longjournal.install(os.path.join(tmp, "b%d" % k), n, snap, damage)
                with Emulator(image(), flash, seed=2).start() as em:
                    em.wait_app(900)
                    st = em.app_stats
                    ms = (em.boot_t - em.boot_start) / NS
                    cpu = (st["busyCycles"] * CYCLE_NS - st["i2cNanos"]) / NS
                    row(label, "%.0f" % ms, "%.0f" % cpu, format(longjournal.low_heap(em), ","))
            db = BackupStore(os.path.join(tmp, "board.sqlite3"))
            for n in (3200, 5600):  # the same campaign, 2,400 events on, the same flash
                _c, flash = longjournal.install(os.path.join(tmp, "bk"), n)
                with Emulator(image(), flash, seed=2).start() as em:
                    em.wait_app()
                    with Device.open(em.port, timeout=10.0) as dev:
                        db.take(dev)
                    low = longjournal.low_heap(em)
            row("backup of 2,400 new events after 3,200", "", "", format(low, ","))
        row("long journals, desktop simulator", "", "", "lowest heap")
        for k, (label, n, snap, damage) in enumerate(cases):
            d = os.path.join(tmp, "s%d" % k)
            linkutil.write_flash(d, n, snap_every=snap)
            if damage:
                linkutil.damage_snapshots(d)
            sim = linkutil.Sim(d, home=os.path.join(tmp, "home"))
            with Device.open(sim.port) as dev:
                low = dev.info(heap=True)["heap_low"]
            sim.stop()
            row(label, "", "", format(low, ","))
        d = os.path.join(tmp, "live")
        linkutil.write_flash(d, 3200)
        sim = linkutil.Sim(d, home=os.path.join(tmp, "home"))
        with Device.open(sim.port) as dev:
            db = BackupStore(os.path.join(tmp, "backups.sqlite3"))
            db.take(dev)
            for k in range(2400):
                dev.act(10, (6, 1 + k % 10))  # DICE, live: the heap as a long session leaves it
            db.take(dev)
            low = dev.info(heap=True)["heap_low"]
        sim.stop()
        row("backup of 2,400 live events after 3,200", "", "", format(low, ","))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
