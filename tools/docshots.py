"""Every picture in docs/img, made by one command (`make docs`, which
builds the web page first):

    .venv/bin/python tools/docshots.py [--out docs/img] [--only NAME ...]

- sim.png: the README's first picture, `dicetray sim --headless --script`
  (SIM_SCRIPT: the tour skipped, Tension slashed four times) with
  `--screenshot`: the simulator's own PNG, byte for byte what the firmware
  draws (tests/host/test_journeys.py compares the committed copy);
- terminal-80x24.png, watch-80x24.png, hub-page.png: what a table sees (issue
  30). A desktop simulator of the real firmware (seed 7, a fresh flash in a
  temporary folder, DICETRAY_HOME there too) plays a short hunt session
  through the real commands; the terminal frames are the real code's
  (dicetray.sim.terminal.frame on the tray's SCREEN, `watch`'s own screen),
  drawn as text cells in headless chromium; the page is the hub's own,
  served by a Hub, a View and a Web as `dicetray serve` runs them;
- web.png: the tray's web page (build/web) in headless chromium after
  SIM_SCRIPT's keys, played in the page's virtual time;
- enclosure.png, enclosure-exploded.png: the enclosure's renders
  (hardware/enclosure_render.py) of the table as it is.

Needs chromium, chromedriver and selenium (as `make test-web`), the built
web page and build123d (the [hardware] extra): `make docs` sees to the
last two. tests/host/test_docshots.py checks that docs/img holds exactly
these pictures and that the docs show no other.
"""

import argparse
import contextlib
import html
import io
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SESSION = [  # what the table does before the pictures, as the keeper types it
    ["char", "Ada"],
    ["char", "Bo"],
    ["roll", "--pool", "3", "--char", "0"],
    ["roll", "--pool", "4", "--char", "1", "--hard"],
    ["turn"],
    ["roll", "--pool", "2", "--char", "0", "--tal", "2"],
    ["risk", "--char", "1"],
    ["slash", "1"],
    ["slash", "0", "2"],
    ["roll", "--pool", "5", "--char", "1"],
]
SIZE = (80, 24)
_SGR = re.compile(r"\x1b\[([0-9;]*)m")

# The README's first picture: the tour skipped (Back), then Talismans >
# Tension slashed four times (Tension 1/3, Pressure 1/6: the carry's notes
# on a page, OK closes it), back home.
SIM_SCRIPT = """\
300  BACK
600  DOWN
900  DOWN
1200 OK
1500 DOWN
1800 RIGHT
2100 RIGHT
2400 RIGHT
2700 OK
3000 RIGHT
3300 BACK
3900 quit
"""
SHOTS = (
    "sim.png",
    "terminal-80x24.png",
    "watch-80x24.png",
    "hub-page.png",
    "web.png",
    "enclosure.png",
    "enclosure-exploded.png",
)


def _sim(flash, home):
    """A headless simulator of the real firmware on a tray whose first-run
    tour was skipped (a script's Back, as a player's): (process, its port)."""
    env = dict(os.environ, DICETRAY_HOME=home)
    env["PYTHONPATH"] = os.path.join(ROOT, "host") + os.pathsep + env.get("PYTHONPATH", "")
    skip = os.path.join(os.path.dirname(flash), "skip.txt")
    with open(skip, "w") as f:
        f.write("300 BACK\n800 quit\n")
    cmd = [sys.executable, "-m", "dicetray.sim", "--headless", "--flash", flash, "--seed", "7"]
    subprocess.run(cmd + ["--script", skip], cwd=ROOT, env=env, check=True, capture_output=True)
    p = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env=env,
    )
    line = p.stdout.readline().decode()
    if not line.startswith("serial: "):
        p.kill()
        raise SystemExit("docshots: the simulator did not start: %r" % line)
    port = line.split()[1]
    from dicetray.link.client import Device, DeviceError

    for _ in range(300):  # the port is served before the firmware boots
        try:
            Device.open(port, check_schema=False).close()
            return p, port
        except DeviceError:
            time.sleep(0.2)
    p.kill()
    raise SystemExit("docshots: the simulator's firmware did not answer")


def _tool(*argv):
    """`dicetray ARGV`, its output kept."""
    from dicetray import cli

    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = cli.main(list(argv))
    if code:
        raise SystemExit("docshots: dicetray %s: exit %d" % (" ".join(argv), code))
    return out.getvalue()


def cells_html(text, title):
    """An ANSI terminal screen (24-bit colour SGR) as an HTML page of
    fixed cells, one a character, so braille and blocks keep their columns
    whatever font draws them."""
    rows = []
    for line in text.split("\n"):
        fg = bg = None
        out = []
        pos = 0
        for m in list(_SGR.finditer(line)) + [None]:
            chunk = line[pos : m.start() if m else len(line)]
            for ch in chunk:
                style = ("color:rgb(%s);" % fg if fg else "") + (
                    "background:rgb(%s);" % bg if bg else ""
                )
                out.append('<i style="%s">%s</i>' % (style, html.escape(ch)))
            if m is None:
                break
            pos = m.end()
            codes = m.group(1).split(";")
            if codes in (["0"], [""]):
                fg = bg = None
            elif codes[:2] == ["38", "2"]:
                fg = ",".join(codes[2:5])
                if codes[5:7] == ["48", "2"]:
                    bg = ",".join(codes[7:10])
            elif codes[:2] == ["48", "2"]:
                bg = ",".join(codes[2:5])
        rows.append("<div>%s</div>" % "".join(out))
    rows += ["<div></div>"] * (SIZE[1] - len(rows))
    return (
        "<!doctype html><meta charset=utf-8><title>%s</title><style>"
        "body{margin:0;background:#000}"
        "#t{display:inline-block;padding:8px;background:#111;color:#ccc;"
        "font:16px/19px 'DejaVu Sans Mono',monospace}"
        "#t div{height:19px;white-space:pre;width:%dch}"
        "#t i{font-style:normal;display:inline-block;width:1ch;overflow:visible}"
        "</style><div id=t>%s</div>" % (html.escape(title), SIZE[0], "".join(rows[: SIZE[1]]))
    )


def _shoot_html(driver, page, path, tmp):
    from selenium.webdriver.common.by import By

    f = os.path.join(tmp, os.path.basename(path) + ".html")
    with open(f, "w", encoding="utf-8") as out:
        out.write(page)
    driver.get("file://" + f)
    driver.find_element(By.ID, "t").screenshot(path)


def terminal_text(port):
    """`dicetray sim`'s terminal at 80x24: the real view of the tray's screen now."""
    from dicetray.link.client import Device
    from dicetray.sim import terminal

    with Device.open(port) as dev:
        s = dev.screen()
    return terminal.frame(s["fb"], s["leds"], status="serial: %s" % port, size=SIZE)


def watch_text(port):
    """`dicetray watch`'s screen at 80x24 (its own _last and _draw)."""
    from dicetray.cli import watch
    from dicetray.ops.restore import device_state

    real = watch.shutil.get_terminal_size
    watch.shutil.get_terminal_size = lambda *a: os.terminal_size(SIZE)
    try:
        from dicetray.link.client import Device

        with Device.open(port) as dev:
            c = device_state(dev)
            recent = watch._last(dev, c)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            watch._draw(c, recent)
    finally:
        watch.shutil.get_terminal_size = real
    return out.getvalue().replace("\x1b[H\x1b[2J", "").rstrip("\n")


def hub_page(port, driver, path):
    """The hub's page of the tray, the keeper's, in large mode."""
    from dicetray.hub.server import Hub
    from dicetray.hub.view import View
    from dicetray.cli.pageline import parse_action
    from dicetray.hub.web import Web

    import browser

    hub = Hub(["table=" + port])
    view = View(hub)
    hub.sinks.append(view)
    hub.start()
    web = Web(view, "127.0.0.1", 0, keeper="keeper", parse_action=parse_action)
    try:
        driver.set_window_size(1280, 1000)
        driver.get(web.url(keeper=True) + "&large=1")
        browser.wait_for(
            lambda: driver.execute_script(
                "const c = document.querySelector('section.tray');"
                "return c && c.querySelector('canvas.oled') && "
                "c.querySelectorAll('ol.recent li[data-seq]').length > 3;"
            ),
            timeout=60,
            what="the page with the tray's screen and rolls",
        )
        time.sleep(1.5)  # the screen's next read: the ring after the last roll's flash
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1280, min(height + 20, 2400))  # the whole card: the last rolls too
        time.sleep(0.5)
        driver.save_screenshot(path)
    finally:
        web.close()
        hub.close()


def sim_png(path, tmp):
    """The simulator's own screenshot after SIM_SCRIPT, on a fresh flash."""
    script = os.path.join(tmp, "readme.txt")
    with open(script, "w") as f:
        f.write(SIM_SCRIPT)
    cmd = [sys.executable, "-m", "dicetray", "sim", "--headless", "--flash"]
    cmd += [os.path.join(tmp, "readme-flash"), "--script", script, "--screenshot", path]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "host") + os.pathsep + env.get("PYTHONPATH", "")
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True)


def web_png(driver, path):
    """The web page after SIM_SCRIPT's keys (virtual time, seed 1)."""
    import browser

    site = browser.Site(browser.build_site())
    try:
        driver.set_window_size(760, 800)
        browser.open_page(driver, site.url("?virtual=1&wait=1&seed=1&flash=docshots"))
        got = driver.execute_async_script(
            "const cb = arguments[arguments.length - 1];"
            "dicetray.play(arguments[0]).then(() => cb('ok'), e => cb(String(e)));",
            SIM_SCRIPT,
        )
        if got != "ok":
            raise SystemExit("docshots: the web page did not play the script: %s" % got)
        time.sleep(0.5)  # the canvas and the ring drawn
        height = driver.execute_script(
            "const k = document.getElementById('k-ROLL').getBoundingClientRect();"
            "return Math.ceil(k.bottom + window.scrollY) + 24;"
        )
        inner = driver.execute_script("return window.innerHeight")
        driver.set_window_size(760, 800 - inner + height)  # the page down to its keys
        time.sleep(0.5)
        driver.save_screenshot(path)
    finally:
        site.close()


def enclosure_pngs(out):
    """The enclosure's two renders (the table as it is)."""
    sys.path.insert(0, os.path.join(ROOT, "hardware"))
    import enclosure
    import enclosure_render

    return enclosure_render.render_all(enclosure.build(), out)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python tools/docshots.py", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"), help="where the PNGs go")
    ap.add_argument(
        "--only", action="append", choices=SHOTS, metavar="NAME", help="just these (repeatable)"
    )
    a = ap.parse_args(argv)
    want = set(a.only or SHOTS)
    for p in (ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests", "web")):
        if p not in sys.path:
            sys.path.insert(0, p)
    import browser

    why = browser.missing()
    if why:
        raise SystemExit("docshots: " + why)
    with tempfile.TemporaryDirectory() as tmp:
        if "sim.png" in want:
            sim_png(os.path.join(a.out, "sim.png"), tmp)
        if want & {"enclosure.png", "enclosure-exploded.png"}:
            enclosure_pngs(a.out)
        driver = browser.chrome()
        try:
            if "web.png" in want:
                web_png(driver, os.path.join(a.out, "web.png"))
            if want & {"terminal-80x24.png", "watch-80x24.png", "hub-page.png"}:
                session_pngs(driver, a.out, tmp)
        finally:
            driver.quit()
    for name in SHOTS:
        if name in want:
            print("docshots: %s" % os.path.relpath(os.path.join(a.out, name), ROOT))
    return 0


def session_pngs(driver, out, tmp):
    """The terminal, watch and hub-page pictures of a short hunt session."""
    home = os.path.join(tmp, "home")
    os.environ["DICETRAY_HOME"] = home
    p, port = _sim(os.path.join(tmp, "flash"), home)
    try:
        for argv in SESSION:
            _tool(*argv + ["--port", port])
        time.sleep(1.0)  # the last roll's comet and flash done: the dial
        _shoot_html(
            driver,
            cells_html(terminal_text(port), "dicetray sim"),
            os.path.join(out, "terminal-80x24.png"),
            tmp,
        )
        _shoot_html(
            driver,
            cells_html(watch_text(port), "dicetray watch"),
            os.path.join(out, "watch-80x24.png"),
            tmp,
        )
        hub_page(port, driver, os.path.join(out, "hub-page.png"))
    finally:
        p.terminate()
        p.wait(30)


if __name__ == "__main__":
    sys.exit(main())
