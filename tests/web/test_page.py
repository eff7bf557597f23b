"""The tray's web page (make web, web/, simboard/web.py) in a real
headless chromium: the page boots the unmodified firmware, keys (the
keyboard and the on-page buttons, a long press by holding) drive it, a key
script in the page's virtual time gives the desktop simulator's frames
pixel for pixel (the driver's panel RAM, the visible canvas read back, the
LED ring, the campaign's state), and the campaign survives a reload and an
export/import of the flash.

Nothing here asserts a time: the tests wait for what the screen shows.
"""
import binascii
import json
import os
import subprocess
import sys
import urllib.request

import browser

browser.need()  # one line when chromium, chromedriver, node or npm is missing

import fbtext  # noqa: E402
from dicetray.rules import campaign as cp  # noqa: E402
from browser import open_page, wait_for  # noqa: E402
from dicetray.sim.script import parse  # noqa: E402
from dicetray.sim.vm import Simulator  # noqa: E402
from tools import web  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")


def frame(d):
    return bytes(d.execute_script("return dicetray.frame()"))


def screen(d):
    return fbtext.lines(frame(d))


def selected(buf):
    """The inverted (selected) rows of a frame."""
    return [r for r in range(8) if fbtext.inverted(buf, r)]


def state(d):
    return d.execute_script("return dicetray.state()")


def shows(d, pred, what):
    """Wait until the screen's text satisfies pred; return the lines."""
    return wait_for(lambda: (lambda s: s if pred(s) else None)(screen(d)), what=what)


def keys(d, *names, pause=0.15):
    """Type keys as a person does, one after another (a tap each)."""
    from selenium.webdriver.common.action_chains import ActionChains
    a = ActionChains(d)
    for i, k in enumerate(names):
        if i:
            a.pause(pause)
        a.send_keys(k)
    a.perform()


def test_boots_to_the_tour(driver, site, flash_name):
    open_page(driver, site.url("?flash=" + flash_name))
    s = shows(driver, lambda s: s[0].startswith("KEYS"), "the first run's tour")
    assert "Back: skip" in s[0]
    st = driver.execute_script("return dicetray.stats()")
    assert st["error"] is None and st["frames"] >= 1 and st["firstFrameMs"] is not None
    # the canvas shows what the driver sent
    assert driver.execute_script("return dicetray.canvas()") == list(frame(driver))
    assert driver.execute_script("return dicetray.state()")["screen"] == "Tour"


def test_keyboard_and_buttons_drive_it(driver, site, flash_name):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    open_page(driver, site.url("?flash=" + flash_name))
    shows(driver, lambda s: s[0].startswith("KEYS"), "the tour")
    keys(driver, Keys.BACKSPACE)                                  # Back skips the tour
    home = shows(driver, lambda s: s[0].startswith("HUNT"), "home after Back")
    assert home[1].startswith("Tension")
    before = selected(frame(driver))
    keys(driver, Keys.ARROW_DOWN)                                 # the menu moves
    wait_for(lambda: selected(frame(driver)) != before, what="the menu to move")
    keys(driver, Keys.ARROW_UP)
    wait_for(lambda: selected(frame(driver)) == before, what="the menu back on Roll")
    driver.find_element(By.ID, "k-OK").click()                    # an on-page button: the builder
    b = shows(driver, lambda s: s[0].startswith("ROLL"), "the roll builder")
    driver.find_element(By.ID, "k-ROLL").click()                  # roll
    r = shows(driver, lambda s: "SUCCESS" in s[2] or "FAILURE" in s[2], "a roll's result")
    assert b[0].startswith("ROLL") and r[1]
    keys(driver, Keys.ESCAPE, Keys.ESCAPE, pause=0)               # a fast double tap: both land
    shows(driver, lambda s: s[0].startswith("HUNT"), "home again")
    keys(driver, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ENTER)    # Talismans
    shows(driver, lambda s: s[0].startswith("TALISMANS"), "the talismans")
    keys(driver, Keys.ARROW_DOWN, Keys.ARROW_RIGHT)               # Tension slashed
    shows(driver, lambda s: "Tension      1/3" in s, "Tension slashed")
    # long presses: the Back button held for a second undoes, Enter held redoes
    back = driver.find_element(By.ID, "k-BACK")
    ActionChains(driver).click_and_hold(back).pause(1.2).release(back).perform()
    shows(driver, lambda s: "Tension      0/3" in s and "Undone" in s, "Undone after a long Back")
    ActionChains(driver).key_down(Keys.ENTER).pause(1.2).key_up(Keys.ENTER).perform()
    shows(driver, lambda s: "Tension      1/3" in s and "Redone" in s, "Redone after a long OK")


# The page's keys are clean events, so the page steps the firmware
# in the key's own handler and the board takes the key with no debounce
# (simboard/web.py): the frame is drawn before the handler returns, and a
# tap whose down and up come in the same millisecond is a press. One
# synchronous script, so no timer of the page's loop runs in between.
KEYS_NOW = """
const t = dicetray.tray, out = {};
const f0 = t.frames;
t.key("DOWN", true);
out.down = t.frames - f0;
out.downFrame = dicetray.frame();
t.key("DOWN", false);
t.key("UP", true); t.key("UP", false);
out.upFrame = dicetray.frame();
t.key("OK", true); t.key("OK", false);
out.okScreen = dicetray.state().screen;
t.key("BACK", true); t.key("BACK", false);
out.backScreen = dicetray.state().screen;
out.frames = t.frames - f0;
return out;
"""


def test_a_key_is_taken_and_drawn_in_its_own_handler(driver, site, flash_name):
    from selenium.webdriver.common.keys import Keys
    open_page(driver, site.url("?flash=" + flash_name))
    shows(driver, lambda s: s[0].startswith("KEYS"), "the tour")
    keys(driver, Keys.BACKSPACE)
    shows(driver, lambda s: s[0].startswith("HUNT"), "home")
    wait_for(lambda: driver.execute_script("return dicetray.tray.held.mask") == 0, what="no key held")
    home = frame(driver)
    got = driver.execute_script(KEYS_NOW)
    assert got["down"] == 1                                  # Down drawn before key() returned
    assert selected(bytes(got["downFrame"])) != selected(home)
    assert bytes(got["upFrame"]) == home                      # a same-ms tap of Up: back on Roll
    assert got["okScreen"] == "Builder"                       # OK (taken on release): the builder
    assert got["backScreen"] == "Home"
    assert got["frames"] == 4
    assert driver.execute_script("return dicetray.stats().error") is None


# The same key script in the desktop simulator and in the page: a fresh
# flash, the tour skipped, home, the builder with a value changed, a roll
# (shots during the comet and the flash too: virtual time makes them the
# same frames), Talismans, Tension slashed, a long Back (undo), a long OK
# (redo), home.
SLOT, LONG_SLOT = 300, 1400
STEPS = ["BACK", "shot home",
         "OK", "RIGHT", "shot builder",
         "ROLL", "shot@250 comet", "shot@800 flash", "wait 1200", "shot result",
         "BACK", "BACK", "DOWN", "DOWN", "OK", "shot talismans",
         "DOWN", "RIGHT", "shot slashed",
         "BACK long", "shot undone", "OK long", "shot redone",
         "BACK", "shot home2"]


def script(steps):
    t, out = 400, []
    for s in steps:
        if s.startswith("shot@"):
            at, name = s[5:].split()
            out.append("%d screenshot %s" % (t - SLOT + int(at), name))
        elif s.startswith("wait "):
            t += int(s[5:])
        elif s.startswith("shot "):
            out.append("%d screenshot %s" % (t, s[5:]))
            t += 20
        elif s.endswith(" long"):
            out.append("%d %s" % (t, s))
            t += LONG_SLOT
        else:
            out.append("%d %s" % (t, s))
            t += SLOT
    out.append("%d quit" % (t + 200))
    return "\n".join(out)


class Shots(Simulator):
    def __init__(self, *a, **kw):
        Simulator.__init__(self, *a, **kw)
        self.shots = {}

    def screenshot(self, path):
        self.shots[path] = (self.display, self.leds, self.power)


def desktop(tmp_path, text):
    sim = Shots(FIRMWARE, str(tmp_path / "flash"), script=parse(text), virtual=True, paced=False, seed=1)
    assert sim.run() == 0, sim.output
    digest = [ln.split()[1] for ln in sim.output.splitlines() if ln.startswith("STATE ")][-1]
    return sim.shots, digest


def same_state(a, b):
    """Two state digests equal but for the campaign id (fresh entropy on
    each board, by design: docs/simulator.md "Seed")."""
    ca = cp.decode_state(binascii.unhexlify(a))
    cb = cp.decode_state(binascii.unhexlify(b))
    ca.cid = cb.cid
    return cp.encode_state(ca) == cp.encode_state(cb)


def first_diff(a, b):
    rows = [y for y in range(64) if any(((a[(y >> 3) * 128 + x] ^ b[(y >> 3) * 128 + x]) >> (y & 7)) & 1
                                        for x in range(128))]
    return "pixel rows %s differ; text %r vs %r" % (rows[:8], fbtext.lines(a), fbtext.lines(b))


def test_same_frames_as_the_desktop_simulator(driver, site, flash_name, tmp_path):
    text = script(STEPS)
    want, digest = desktop(tmp_path, text)
    open_page(driver, site.url("?virtual=1&wait=1&seed=1&flash=" + flash_name))
    got = driver.execute_async_script(
        "const cb = arguments[arguments.length - 1];"
        "dicetray.play(arguments[0]).then(cb, e => cb({error: String(e)}));", text)
    assert "error" not in got, got.get("error")
    assert sorted(got) == sorted(want)
    before = None
    for name in [s.split()[-1] for s in STEPS if s.startswith("shot")]:  # in time order
        display, leds, power = want[name]
        g = got[name]
        page, canvas = bytes(g["frame"]), bytes(g["canvas"])
        assert page == display, "%s: the page's panel RAM: %s" % (name, first_diff(display, page))
        assert canvas == display, "%s: the canvas: %s" % (name, first_diff(display, canvas))
        assert bytes(g["leds"]) == leds, "%s: LEDs %r vs %r" % (name, list(leds), g["leds"])
        assert bool(g["power"]) == bool(power)
        assert (display, leds) != before, "%s: the same frame and ring as the shot before it" % name
        before = (display, leds)
    assert any(want["comet"][1]) and want["comet"][1] != want["flash"][1]  # the ring did animate
    assert fbtext.lines(want["undone"][0])[6] == "Undone"
    assert fbtext.lines(want["redone"][0])[6] == "Redone"
    assert same_state(state(driver)["state"], digest)


def test_campaign_survives_a_reload(driver, site, flash_name):
    from selenium.webdriver.common.keys import Keys
    url = site.url("?flash=" + flash_name)
    open_page(driver, url)
    shows(driver, lambda s: s[0].startswith("KEYS"), "the tour")
    keys(driver, Keys.BACKSPACE)
    shows(driver, lambda s: s[0].startswith("HUNT"), "home")
    keys(driver, Keys.ENTER)
    shows(driver, lambda s: s[0].startswith("ROLL"), "the builder")
    keys(driver, Keys.ARROW_RIGHT)
    keys(driver, Keys.SPACE)
    shows(driver, lambda s: "SUCCESS" in s[2] or "FAILURE" in s[2], "the result")
    keys(driver, Keys.ESCAPE)
    keys(driver, Keys.ESCAPE)
    home = shows(driver, lambda s: s[0].startswith("HUNT"), "home")
    before = state(driver)
    files = driver.execute_script("return dicetray.flashFiles()")
    # The roll's event: in the pending journal until an idle moment folds
    # it into a segment (docs/store.md), in the browser's storage either way.
    assert any(p.endswith(".log") or p.endswith("/p/p") for p in files), sorted(files)
    driver.refresh()
    open_page(driver, url)
    again = shows(driver, lambda s: s[0].startswith("HUNT"), "home after the reload (no tour)")
    assert again == home
    assert state(driver) == before
    # The same flash, or the same events with the pending journal folded
    # into a segment by the boot's first idle moment (docs/store.md).
    after = driver.execute_script("return dicetray.flashFiles()")
    assert after == files or any(p.endswith(".log") for p in after), (sorted(files), sorted(after))


def test_export_and_import_of_the_flash(driver, site, flash_name):
    from selenium.webdriver.common.keys import Keys
    open_page(driver, site.url("?flash=" + flash_name))
    shows(driver, lambda s: s[0].startswith("KEYS"), "the tour")
    keys(driver, Keys.BACKSPACE)
    shows(driver, lambda s: s[0].startswith("HUNT"), "home")
    keys(driver, Keys.SPACE)                         # Roll from home: a roll of the builder's pool
    shows(driver, lambda s: "SUCCESS" in s[2] or "FAILURE" in s[2], "the result")
    keys(driver, Keys.ESCAPE)
    shows(driver, lambda s: s[0].startswith("HUNT"), "home")
    before = state(driver)
    doc = driver.execute_script("return dicetray.exportFlash()")
    assert doc["format"] == "dicetray-flash" and doc["version"] == 1
    blob = json.dumps(doc)
    # into another flash of this browser, as the Import button does, then boot it
    other = flash_name + "-copy"
    open_page(driver, site.url("?flash=" + other))
    shows(driver, lambda s: s[0].startswith("KEYS"), "a blank flash's tour")
    driver.execute_script("dicetray.importFlash(JSON.parse(arguments[0]))", blob)
    open_page(driver, site.url("?flash=" + other))
    shows(driver, lambda s: s[0].startswith("HUNT"), "the imported campaign's home")
    assert state(driver) == before
    for p, v in doc["files"].items():
        if v is not None:
            binascii.a2b_base64(v)
    # a file that is not an export is refused and changes nothing
    r = driver.execute_script("try { dicetray.importFlash({format: 'x'}); return 'taken'; }"
                              " catch (e) { return e.message; }")
    assert "not a Dicetray flash export" in r
    open_page(driver, site.url("?flash=" + other))
    assert state(driver) == before


def test_connect_button_says_what_it_can(driver, site, flash_name):
    from selenium.webdriver.common.by import By
    open_page(driver, site.url("?flash=" + flash_name))
    has = driver.execute_script("return 'serial' in navigator")
    b = driver.find_element(By.ID, "connect")
    if not has:
        assert "no Web Serial" in b.text and not b.is_enabled()
    else:
        assert b.is_enabled()


def test_the_site_has_every_firmware_module(site):
    out = web.OUT
    for name in web.PAGE_FILES + web.PORT_FILES + ("firmware.bin",):
        assert os.path.getsize(os.path.join(out, name)) > 0, name
    with open(os.path.join(out, "firmware.bin"), "rb") as f:
        names = {n for n, data in web.unpack(f.read()) if data[:1] == b"M"}
    fw = os.path.join(ROOT, "firmware")
    sources = {os.path.relpath(os.path.join(b, f), fw).replace(os.sep, "/")[:-3] + ".mpy"
               for b, _, fs in os.walk(fw) for f in fs if f.endswith(".py")}
    # the web page's board beside them, not the desktop simulator's
    assert names == sources | {"simboard/__init__.mpy", "simboard/web.mpy"}


def test_sim_web_serves_the_site(site):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "dicetray.sim", "--web", "--port", "0"], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()  # the first line (a build, if any, says so on stderr)
        assert line.startswith("web: http://127.0.0.1:"), line
        url = line.split()[1]
        with urllib.request.urlopen(url) as r:
            assert b"dicetray.js" in r.read()
        for name, ctype in (("dicetray.js", "text/javascript"), ("micropython.mjs", "text/javascript"),
                            ("micropython.wasm", "application/wasm")):
            with urllib.request.urlopen(url + name) as r:
                assert r.headers["Content-Type"].startswith(ctype), name
    finally:
        p.terminate()
        p.wait(10)
        p.stdout.close()
        p.stderr.close()


def test_the_ring_is_drawn_as_a_ring(driver, site, flash_name):
    """The page drew the 12 LEDs in a row; now a ring, as
    the hub's page and the tray do: every LED (an unlit one is a grey
    disc) at one distance from the canvas's centre, 30 degrees apart."""
    import math
    open_page(driver, site.url("?flash=" + flash_name))
    shows(driver, lambda s: s[0].startswith("KEYS"), "the tour")
    w, h, px = driver.execute_script(
        "const c = document.getElementById('ring'), d = c.getContext('2d')"
        ".getImageData(0, 0, c.width, c.height).data;"
        "return [c.width, c.height, Array.from(d)];")
    bg = tuple(px[:3])                                   # the corner: the background
    on = {(x, y) for y in range(h) for x in range(w)
          if tuple(px[4 * (y * w + x):4 * (y * w + x) + 3]) != bg}
    blobs = []
    while on:                                            # 4-connected pieces: one an LED
        todo, blob = [on.pop()], []
        while todo:
            x, y = todo.pop()
            blob.append((x, y))
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if q in on:
                    on.remove(q)
                    todo.append(q)
        blobs.append(blob)
    assert len(blobs) == 12, len(blobs)
    centres = [(sum(p[0] for p in b) / len(b) - w / 2, sum(p[1] for p in b) / len(b) - h / 2)
               for b in blobs]
    r = [math.hypot(x, y) for x, y in centres]
    assert max(r) - min(r) < 2 and min(r) > 20, r       # on one circle round the centre
    angles = sorted(math.degrees(math.atan2(y, x)) % 360 for x, y in centres)
    gaps = [(angles[(i + 1) % 12] - angles[i]) % 360 for i in range(12)]
    assert all(abs(g - 30) < 3 for g in gaps), gaps
    assert any(abs(a - 270) < 3 for a in angles), angles  # one at the top (LED 0, as the hub's)
