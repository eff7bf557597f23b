"""`make bench`, the web page's rows: the site `make web` builds, in a
headless chromium (Debian's chromium + chromium-driver, driven by selenium;
tests/web/browser.py), served from 127.0.0.1 with no compression.

- page load to first frame: from the navigation's start (performance
  timing's origin) to the first lit OLED frame the page drew; cold is a
  fresh browser (nothing cached, the wasm compiled from scratch), warm is
  a reload (HTTP and compiled-code caches), median and worst of WARM_LOADS;
- key to frame: on the home screen, in real time, a key down (the page's
  own key handler, as a keyboard or button event calls it) to the canvas
  drawn with the screen it changed: Down and Up in turn, KEYS of them;
  median and worst. The page steps the firmware on the key and its keys
  are clean (no debounce: simboard/web.py), so this is the step's own time
  (it was the firmware's 30 ms poll and 20 ms debounce);
- click Roll to result: Roll held CLICK_MS (a quick click) and let go;
  from the release (Roll is taken on release: a long press keys in dice)
  to the canvas drawn with the result; ROLLS rolls after one that is not
  counted (the first imports the builder's modules); median and worst;
- the site's size: each file and the total, raw and gzipped (level 9, what
  a static host that compresses sends over the wire).

Skipped with one line when chromium, chromedriver, node or npm is missing.
"""

import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
sys.path.insert(0, ROOT)  # browser.build_site: tools/web.py

WARM_LOADS = 10
KEYS = 100
ROLLS = 20
CLICK_MS = 50

# In the page: press a key, wait for the frame it draws, let go, wait for
# the release to settle; per key the ms from the press to the frame.
KEY_LOOP = """
const [n, cb] = [arguments[0], arguments[arguments.length - 1]];
const t = dicetray.tray, out = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  for (let i = 0; i < n; i++) {
    const name = i % 2 ? "UP" : "DOWN";
    const f0 = t.frames, t0 = performance.now();
    t.key(name, true);
    while (t.frames === f0 && performance.now() - t0 < 2000) await sleep(1);
    out.push(t.lastFrameMs - t0);
    t.key(name, false);
    await sleep(250);
  }
  cb(out);
})();
"""

# Roll clicked (held CLICK_MS, let go) from home, after a first roll not
# counted; per roll the ms from the release to the result's frame, then a
# wait for the ring's animation to end.
ROLL_LOOP = """
const [n, hold, cb] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const t = dicetray.tray, out = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  for (let i = 0; i <= n; i++) {
    t.key("ROLL", true);
    await sleep(hold);
    const f0 = t.frames, t0 = performance.now();
    t.key("ROLL", false);
    while (t.frames === f0 && performance.now() - t0 < 2000) await sleep(1);
    if (i) out.push(t.lastFrameMs - t0);
    await sleep(900);
  }
  cb(out);
})();
"""


def row(name, *cols):
    print("%-48s" % name + "".join("%12s" % c for c in cols))


def main():
    import browser

    why = browser.missing()
    if why:
        print("Web page rows skipped: " + why)
        return
    from tools import web

    site_dir = browser.build_site()
    site = browser.Site(site_dir)
    d = browser.chrome()
    try:
        url = site.url("?flash=bench")
        browser.open_page(d, url)
        cold = d.execute_script("return dicetray.stats().firstFrameMs")
        warm = []
        for _ in range(WARM_LOADS):
            browser.open_page(d, url)
            warm.append(
                browser.wait_for(
                    lambda: d.execute_script("return dicetray.stats().firstFrameMs"),
                    what="the first frame",
                )
            )
        # home: Back skips the tour on a blank flash
        d.execute_script("dicetray.key('BACK', true); dicetray.key('BACK', false)")
        browser.wait_for(
            lambda: (
                d.execute_script("return dicetray.state().screen") == "Home"
                and d.execute_script("return dicetray.tray.held.mask") == 0
            ),
            what="home",
        )
        d.execute_script("return new Promise((r) => setTimeout(r, 300))")
        ms = d.execute_async_script(KEY_LOOP, KEYS)
        rolls = d.execute_async_script(ROLL_LOOP, ROLLS, CLICK_MS)
        ua = d.capabilities.get("browserVersion", "?")
    finally:
        d.quit()
        site.close()
    print("Web page: the firmware as .mpy on MicroPython's WebAssembly port 1.27.0 (npm), headless")
    print('Chromium %s, served from 127.0.0.1 (docs/simulator.md, "In a web page")' % ua)
    row("operation", "median ms", "worst ms")
    row("page load to first frame, cold (fresh browser)", "%.0f" % cold, "")
    row(
        "page load to first frame, warm (%d reloads)" % WARM_LOADS,
        "%.0f" % statistics.median(warm),
        "%.0f" % max(warm),
    )
    row(
        "key to frame in the browser (%d keys, Down/Up)" % len(ms),
        "%.1f" % statistics.median(ms),
        "%.1f" % max(ms),
    )
    row(
        "click Roll (%d ms), release to result (%d)" % (CLICK_MS, len(rolls)),
        "%.1f" % statistics.median(rolls),
        "%.1f" % max(rolls),
    )
    print()
    rows = web.sizes(site_dir)
    row("site file (build/web)", "bytes", "gzipped")
    for name, n, z in rows:
        row("  " + name, format(n, ","), format(z, ","))
    row(
        "  total over the wire",
        format(sum(r[1] for r in rows), ","),
        format(sum(r[2] for r in rows), ","),
    )


if __name__ == "__main__":
    main()
