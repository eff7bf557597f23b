"""Hardware: the pin map and what is drawn/documented from it, the
CircuitPython LED path through Adafruit's real neopixel library, the deploy
tool's mpremote command lines, and the MicroPython type check."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hw import pins  # noqa: E402
from hw.keys import NAMES  # noqa: E402
from tools import deploy, typecheck, wiring  # noqa: E402

RP2040_GPIO = set(range(0, 30))  # GP0..GP29 (the Pico brings out 0-22, 26-28)
PICO_HEADER_GPIO = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                    20, 21, 22, 26, 27, 28}


# --- the pin map --------------------------------------------------------------------
@pytest.mark.parametrize("board", sorted(pins.BOARDS))
def test_no_pin_used_twice(board):
    m = pins.BOARDS[board]
    gp = [g for _s, g, _k, _u in m]
    sig = [s for s, _g, _k, _u in m]
    assert len(gp) == len(set(gp)), "GPIO used twice on %s" % board
    assert len(sig) == len(set(sig)), "signal named twice on %s" % board
    assert set(gp) <= RP2040_GPIO
    for s, g, k, u in m:
        assert k in wiring.COLOURS, (s, k)
        if k == "key":
            assert u == "" or u in NAMES, (s, u)


@pytest.mark.parametrize("board", sorted(pins.BOARDS))
def test_every_key_reachable(board):
    used = {u for _s, _g, k, u in pins.BOARDS[board] if k == "key" and u}
    if board == "macropad":
        assert used == set(NAMES)  # OK also on the encoder push
    else:
        assert used == set(NAMES)


def test_pico_map_is_the_spec():
    """hwspec: I2C0 GP4/GP5, buttons GP10..GP16, ring GP22, piezo GP18."""
    want = {"SDA": 4, "SCL": 5, "UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "OK": 14,
            "BACK": 15, "ROLL": 16, "RING": 22, "PIEZO": 18}
    assert {s: g for s, g, _k, _u in pins.PICO} == want
    assert pins.PICO_I2C == (0, 400000)
    assert {g for _s, g, _k, _u in pins.PICO} <= PICO_HEADER_GPIO


def test_macropad_map_is_adafruits():
    """CircuitPython's adafruit_macropad_rp2040 pins.c / board.c."""
    m = {s: g for s, g, _k, _u in pins.MACROPAD}
    for i in range(1, 13):
        assert m["KEY%d" % i] == i
    assert (m["ENC_SW"], m["ENC_A"], m["ENC_B"], m["PIXELS"]) == (0, 17, 18, 19)
    assert (m["SCK"], m["MOSI"], m["MISO"]) == (26, 27, 28)
    assert (m["OLED_CS"], m["OLED_RST"], m["OLED_DC"]) == (22, 23, 24)
    assert (m["SPEAKER"], m["SPK_EN"], m["LED"]) == (16, 14, 13)
    assert pins.MACROPAD_SPI == (1, 10000000)


def test_gpio_lookup_errors_name_the_signals():
    with pytest.raises(ValueError, match="RING"):
        pins.gpio(pins.PICO, "NOPE")


# --- profiles read the same map ---------------------------------------------------------
@pytest.mark.parametrize("board", sorted(pins.BOARDS))
def test_profile_uses_exactly_the_map(board):
    """Build the profile on the fake machine: every Pin it makes is in the
    map under the right role, and every key/LED/encoder/display pin of the
    map is made."""
    import fakeboards as tb
    f = tb.Fakes()
    try:
        b = tb.make(board)
        mod = sys.modules["hw." + ("pico" if board == "pico" else "macropad")]
        assert mod.Board.PINS is pins.BOARDS[board]
        made = set(tb.FakeMachine.made)
        m = pins.BOARDS[board]
        in_map = {g for _s, g, _k, _u in m}
        assert made <= in_map, made - in_map
        must = {g for _s, g, k, u in m if (k == "key" and u) or k == "enc"}
        assert must <= made, must - made
        np = tb.FakeNeoPixel.made[-1]
        assert np.pin.id == pins.gpio(m, "RING" if board == "pico" else "PIXELS")
        assert b.leds.n == 12
    finally:
        f.restore()


def test_profiles_hold_no_literal_pin_numbers():
    """The profiles take every GPIO from hw/pins.py: no Pin(<number>)."""
    for name in ("pico.py", "macropad.py"):
        src = open(os.path.join(ROOT, "firmware", "hw", name)).read()
        assert not re.search(r"Pin\(\s*\d", src), name


def test_board_detect_knows_the_profiles():
    """A board's profile is in firmware/hw, a simulator's in simboard/ (never
    frozen into an image: firmware/ is what goes on the board)."""
    from hw import board
    assert board.PROFILES["pico"] == "hw.pico" and board.PROFILES["macropad"] == "hw.macropad"
    for name, mod in board.PROFILES.items():
        path = mod.replace(".", os.sep) + ".py"
        where = "firmware" if name in ("pico", "macropad") else ""
        assert os.path.isfile(os.path.join(ROOT, where, path)), (name, path)
    assert board.PROFILES["sim"].startswith("simboard.") and board.PROFILES["web"].startswith("simboard.")


# --- diagrams and docs -----------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(wiring.DIAGRAMS))
def test_svg_contains_every_pin(name):
    board = "pico" if "pico" in name else "macropad"
    svg = wiring.DIAGRAMS[name]()
    root = ET.fromstring(svg.split("\n", 1)[1])  # well-formed XML
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    alltext = "\n".join(texts)
    for sig, g, kind, use in pins.BOARDS[board]:
        # The pin and what it connects to, on one label or the key cap.
        assert re.search(r"\bGP%d\b" % g, alltext), (name, sig, g)
        assert sig in alltext, (name, sig)
        if use and board == "pico" and kind != "key":
            assert any(sig in t and use in t for t in texts), (name, sig, use)
    if board == "pico":
        for sig, g, kind, use in pins.PICO:
            if kind == "key":
                assert "%s button to GND" % sig in texts
        # Each used header pin is coloured by its kind.
        for sig, g, kind, _u in pins.PICO:
            assert wiring.COLOURS[kind] in svg


def test_committed_svgs_are_current():
    for name, fn in wiring.DIAGRAMS.items():
        with open(os.path.join(ROOT, "hardware", name)) as f:
            assert f.read() == fn(), "hardware/%s is stale: run python tools/wiring.py" % name
    assert wiring.main(["--check"]) == 0


def test_svg_follows_the_map(monkeypatch):
    """Change the map: the drawing changes with it (drawn, not copied)."""
    moved = tuple(("RING", 21, k, u) if s == "RING" else (s, g, k, u)
                  for s, g, k, u in pins.PICO)
    monkeypatch.setattr(pins, "PICO", moved)
    svg = wiring.pico_svg()
    assert "RING  WS2812" in svg
    assert svg != open(os.path.join(ROOT, "hardware", "wiring-pico.svg")).read()


def test_docs_carry_the_generated_pin_tables_and_power_budget():
    doc = open(os.path.join(ROOT, "docs", "hardware.md")).read()
    for b in pins.BOARDS:
        assert wiring.pin_table(b) in doc, "docs/hardware.md pin table of %s is stale" % b
    from ui import ring
    from ui.app import LEVELS
    for cap in LEVELS[1:] + (64, 255):
        assert "| %d | %d mA |" % (cap, ring.current_ma(12, cap)) in doc, cap
    assert "%d mA" % ring.current_ma(12, 64, quiescent_ma=1) in doc


def test_bom_lists_the_reference_parts():
    import csv
    with open(os.path.join(ROOT, "hardware", "bom.csv")) as f:
        rows = list(csv.DictReader(f))
    parts = " ".join(r["part"] for r in rows).lower()
    for word in ("pico", "oled", "ws2812", "button", "piezo", "usb"):
        assert word in parts, word
    buttons = sum(int(r["qty"]) for r in rows if "button" in r["part"].lower())
    assert buttons == 7
    for r in rows:
        float(r["unit_eur"])  # a price on every line


# --- CircuitPython LEDs through Adafruit's real library -----------------------------------------
class _Mod:
    def __init__(self, **kw):
        self.__dict__.update(kw)


@pytest.fixture
def cp_neopixel(monkeypatch):
    """Adafruit's neopixel.py with our own `board`, `digitalio` and a
    recording `neopixel_write` (Blinka's board raises on a desktop)."""
    sent = []

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = None

        def deinit(self):
            pass

    board = _Mod(NEOPIXEL="GP19", D5="GP5")
    digitalio = _Mod(DigitalInOut=DigitalInOut, Direction=_Mod(OUTPUT="out", INPUT="in"))
    nw = _Mod(neopixel_write=lambda pin, buf: sent.append((pin.pin, bytes(buf))))
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setitem(sys.modules, "digitalio", digitalio)
    monkeypatch.setitem(sys.modules, "neopixel_write", nw)
    monkeypatch.delitem(sys.modules, "neopixel", raising=False)
    import importlib
    import neopixel
    importlib.reload(neopixel)
    assert neopixel.__file__.endswith("site-packages/neopixel.py")  # the real library
    yield neopixel, sent
    monkeypatch.delitem(sys.modules, "neopixel", raising=False)


def test_cp_leds_colour_order_grb(cp_neopixel):
    from hw.cpleds import CPNeoPixelLeds
    _np, sent = cp_neopixel
    leds = CPNeoPixelLeds("GP19", 12)
    rgb = bytearray(3 * 12)
    for i in range(12):
        rgb[3 * i:3 * i + 3] = bytes((10 + i, 100 + i, 200 + i))
    leds.write(rgb)
    assert len(sent) == 1  # auto_write off: one transmit per frame
    pin, buf = sent[0]
    assert pin == "GP19" and len(buf) == 36
    for i in range(12):
        assert buf[3 * i:3 * i + 3] == bytes((100 + i, 10 + i, 200 + i)), i  # G, R, B


@pytest.mark.parametrize("brightness", [1.0, 0.5, 0.25, 0.1])
def test_cp_leds_brightness_scaling_byte_by_byte(cp_neopixel, brightness):
    from hw.cpleds import CPNeoPixelLeds
    _np, sent = cp_neopixel
    leds = CPNeoPixelLeds("GP19", 12, brightness=brightness)
    rgb = bytearray(range(0, 255, 7))[:36]
    leds.write(rgb)
    buf = sent[-1][1]
    for i in range(12):
        r, g, b = rgb[3 * i:3 * i + 3]
        want = bytes((int(g * brightness), int(r * brightness), int(b * brightness)))
        assert buf[3 * i:3 * i + 3] == want, (i, brightness)


def test_cp_leds_other_order_and_bad_length(cp_neopixel):
    from hw.cpleds import CPNeoPixelLeds
    _np, sent = cp_neopixel
    leds = CPNeoPixelLeds("GP19", 2, order="RGB")
    leds.write(bytes((1, 2, 3, 4, 5, 6)))
    assert sent[-1][1] == bytes((1, 2, 3, 4, 5, 6))
    with pytest.raises(ValueError, match="6 bytes"):
        leds.write(bytes(5))


def test_cp_leds_match_micropython_backend(cp_neopixel):
    """Same ring frame, same wire bytes from both LED backends."""
    from hw.cpleds import CPNeoPixelLeds
    from hw.leds import NeoPixelLeds
    from ui import ring
    import fakeboards as tb
    _np, sent = cp_neopixel
    rgb = ring.new(12)
    ring.dial(rgb, 5, 8)
    CPNeoPixelLeds("GP19", 12).write(rgb)
    mp = tb.FakeNeoPixel(None, 12)
    NeoPixelLeds(19, 12, np=mp).write(rgb)
    assert sent[-1][1] == bytes(mp.buf)


# --- deploy -----------------------------------------------------------------------------------
def test_deploy_command_lines(monkeypatch, tmp_path, capsys):
    """mpremote mocked at the subprocess boundary: the exact runs, in order."""
    calls = []

    def fake_run(cmd, check=False, **kw):
        calls.append(list(cmd))
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(deploy.subprocess, "run", fake_run)
    bdir = tmp_path / "firmware"
    for rel in ("main.mpy", "hw/board.mpy", "hw/pico.mpy", "ui/app.mpy"):
        p = bdir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"M")
    monkeypatch.setattr(deploy, "BUILD", str(bdir))
    monkeypatch.setattr(deploy, "STAGE", str(tmp_path / "deploy"))
    assert deploy.main(["/dev/ttyACM0", "--board", "macropad"]) == 0
    py = sys.executable
    assert calls[0] == [py, os.path.join(ROOT, "tools", "build.py")]
    mp = [py, "-m", "mpremote", "connect", "/dev/ttyACM0"]
    assert all(c[:5] == mp for c in calls[1:]) and len(calls) == 4
    prep = calls[1]
    assert prep[5] == "exec"
    assert "['/hw', '/ui']" in prep[6]
    assert "'/hw/board.py', '/hw/pico.py', '/ui/app.py'" in prep[6]
    assert "/main.py" not in prep[6]  # the stub is written, never removed
    cp = calls[2][5:]
    groups = " ".join(cp).split(" + ")
    assert groups == [
        "fs cp %s :/hw/board.mpy" % (bdir / "hw" / "board.mpy"),
        "fs cp %s :/hw/pico.mpy" % (bdir / "hw" / "pico.mpy"),
        "fs cp %s :/dtmain.mpy" % (bdir / "main.mpy"),
        "fs cp %s :/ui/app.mpy" % (bdir / "ui" / "app.mpy"),
        "fs cp %s :/main.py" % (tmp_path / "deploy" / "main.py"),
        "fs cp %s :/config.txt" % (tmp_path / "deploy" / "config.txt"),
    ]
    assert calls[3] == mp + ["reset"]
    assert (tmp_path / "deploy" / "main.py").read_text().startswith("import dtmain")
    assert (tmp_path / "deploy" / "config.txt").read_text() == "board=macropad\n"
    out = capsys.readouterr().out
    for k in range(1, 5):
        assert "[%d/4]" % k in out


def test_deploy_stops_on_a_failed_step_and_needs_a_port(monkeypatch, tmp_path, capsys):
    calls = []

    def fake_run(cmd, check=False, **kw):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 1 if "exec" in cmd else 0)

    monkeypatch.setattr(deploy.subprocess, "run", fake_run)
    monkeypatch.setattr(deploy, "STAGE", str(tmp_path))
    monkeypatch.setattr(deploy, "modules", lambda build_dir: ["hw/board.mpy", "main.mpy"])
    assert deploy.main(["COM3"]) == 1
    assert len(calls) == 2  # build, then the failed prepare: no copy, no reset
    assert not (tmp_path / "config.txt").exists()  # no --board: config untouched
    assert deploy.main([]) == 2
    assert "PORT" in capsys.readouterr().err


def test_deploy_without_board_leaves_config(monkeypatch, tmp_path):
    steps = deploy.plan("auto", ["hw/board.mpy", "main.mpy"], None, "B")
    assert [s[1][5] for s in steps] == ["exec", "fs", "reset"]
    assert ":/config.txt" not in steps[1][1]


# --- type check ----------------------------------------------------------------------------------
def test_typecheck_catches_calls_the_board_lacks(tmp_path):
    ts = typecheck.build_typeshed(str(tmp_path / "typeshed"))
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nimport machine\n\n\ndef f():\n"
                   "    time.ticks_ms()\n"
                   "    machine.Pin(1, machine.Pin.IN, machine.Pin.PULL_UP).value()\n"
                   "    time.monotonic()\n"
                   "    machine.Pin(2).blink()\n")
    r = subprocess.run(typecheck.command(ts, [str(bad)]), cwd=typecheck.FIRMWARE,
                       capture_output=True, text=True)
    out = r.stdout
    assert r.returncode == 1, out
    assert 'bad.py:8: error: Module has no attribute "monotonic"' in out
    assert 'bad.py:9: error: "Pin" has no attribute "blink"' in out
    assert "bad.py:6" not in out and "bad.py:7" not in out  # real APIs pass


def test_firmware_typechecks(tmp_path):
    ts = typecheck.build_typeshed(str(tmp_path / "typeshed"))
    r = subprocess.run(typecheck.command(ts), cwd=typecheck.FIRMWARE,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
