"""The emulated board's parts, driven from a stock MicroPython's REPL:
each behaves as the reference build's does, and strictly enough that a
firmware bug shows (docs/emulator.md)."""


import pytest

import boards
from boards import repl

from dicetray.rules import campaign as cp
from dicetray.sim import lfsimage

import fbtext
import linkutil

I2C = "from machine import I2C, Pin\ni2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400000)\n"


def lit(leds):
    """The ring's LEDs that are lit, by number."""
    return [i for i in range(len(leds) // 3) if any(leds[3 * i:3 * i + 3])]


@pytest.fixture
def stock(tmp_path):
    with boards.board(tmp_path / "flash.bin", boards.image(stock=True)) as em:
        yield em


def test_scan_finds_the_oled_at_its_address_and_nothing_else(stock):
    out = repl(stock, I2C + "print(i2c.scan())\n"
                      "try:\n i2c.writeto(0x3D, b'\\x00\\xaf')\nexcept OSError as e:\n print('nack', e)\n")
    assert "[60]" in out and "nack" in out


def test_the_oled_model_refuses_what_the_controller_would_not_take(stock):
    repl(stock, I2C + "i2c.writeto(0x3C, b'\\x00\\x20\\x00\\x22\\x00\\x09')\n")   # page window 0..9
    stock.wait(lambda: stock.errors, 30, "the model's refusal")
    assert "bad page window 0..9" in stock.errors[0]
    stock.errors.clear()   # expected here: the fixture checks there are no others
    repl(stock, I2C + "i2c.writeto(0x3C, b'\\x00\\xb2')\n")                        # page command, wrong mode
    stock.wait(lambda: stock.errors, 30, "the model's refusal")
    assert "needs page addressing" in stock.errors[0]
    stock.errors.clear()


def test_keys_read_high_through_their_pull_ups_until_pressed(stock):
    code = ("from machine import Pin\nimport time\n"
            "up = Pin(10, Pin.IN, Pin.PULL_UP)\nbare = Pin(11, Pin.IN)\n"
            "print('released', up.value(), bare.value())\n")
    assert "released 1 0" in repl(stock, code)   # without its pull-up a switch input floats: reads 0
    stock.keys(1)                                # UP held: its switch pulls GP10 to ground
    assert "released 0" in repl(stock, code)
    stock.keys(0)


def test_the_ring_is_decoded_from_its_data_pin(stock):
    repl(stock, "import neopixel, machine\nn = neopixel.NeoPixel(machine.Pin(22), 12)\n"
                "n[0] = (255, 0, 0)\nn[5] = (1, 2, 3)\nn[11] = (0, 0, 128)\nn.write()\n")
    stock.wait(lambda: any(stock.leds), 30, "the ring")
    want = bytearray(36)
    want[0:3] = b"\xff\x00\x00"
    want[15:18] = b"\x01\x02\x03"
    want[33:36] = b"\x00\x00\x80"
    assert stock.leds == bytes(want)


def test_what_was_written_survives_a_kill(tmp_path):
    flash = tmp_path / "flash.bin"
    with boards.board(flash, boards.image(stock=True)) as em:
        repl(em, "f = open('/note.txt', 'w')\nf.write('kept')\nf.close()\n")
        em.kill()                                # SIGKILL: the power goes
    assert lfsimage.read(str(flash))["/note.txt"] == b"kept"
    with boards.board(flash, boards.image(stock=True)) as em:
        assert "kept" in repl(em, "print(open('/note.txt').read())\n")


def test_a_campaign_made_on_the_host_boots_on_the_board(tmp_path):
    host = tmp_path / "host"
    c = linkutil.write_flash(str(host), 300)      # the session's layout, written on CPython
    flash = tmp_path / "flash.bin"
    lfsimage.install(str(flash), lfsimage.files_of(str(host)))
    with boards.board(flash, seed=2) as em:
        em.wait_app(boards.HANG)
        assert fbtext.row(em.display, 0).endswith("#%d" % c.nevents)


def test_the_macropad_profile_shows_the_same_home_screen(tmp_path):
    pico = tmp_path / "pico.bin"
    with boards.board(pico, seed=3) as em:
        em.wait_app(boards.HANG)
        home = em.display
    pad = tmp_path / "macropad.bin"
    lfsimage.install(str(pad), {"/config.txt": b"board=macropad\n"})
    with boards.board(pad, board="macropad", seed=3) as em:
        em.wait_app(boards.HANG)
        assert em.panel.kind == "sh1106" and em.display == home  # SPI, 2-column RAM offset
        assert not any(em.leds)                          # the ring's dial: Pressure 0/6, none lit
        with boards.device(em.port) as dev:                # the key LEDs as the ring: 2 slashes,
            dev.act(cp.SLASH, (0, 2, 0))                 # 2 LEDs
        em.wait(lambda: lit(em.leds) == [0, 1], boards.HANG, "the ring showing Pressure 2/6")


def test_the_oled_answers_only_on_its_pins(stock):
    """I2C0 routed to GP8/GP9 instead of the OLED's GP4/GP5: no answer."""
    out = repl(stock, "from machine import I2C, Pin\ni2c = I2C(0, sda=Pin(8), scl=Pin(9), freq=400000)\n"
                      "try:\n i2c.writeto(0x3C, b'\\x00\\xaf')\n print('acked')\n"
                      "except OSError as e:\n print('nack', e)\n")
    assert "nack" in out and "acked" not in out
