"""The web page in a real headless browser: Debian's chromium and its
chromedriver (apt-get install chromium chromium-driver), driven by
selenium. Nothing here downloads a browser: the system's binaries are
named explicitly, so selenium's own driver manager never runs.

Shared by tests/web (conftest.py), the bench (bench/web_bench.py) and
tools/docshots.py, each with the repository's top on sys.path (build_site
imports tools/web.py).
"""
import os
import shutil
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# What each tool is for and how a user gets it, for the one-line reason.
TOOLS = {
    "chromium": "the page's tests run in a real headless browser: apt-get install chromium chromium-driver",
    "chromedriver": "selenium drives chromium through it: apt-get install chromium-driver",
    "node": "the page is built with node's npm: apt-get install nodejs npm",
    "npm": "npm fetches MicroPython's WebAssembly port (web/package-lock.json): apt-get install npm",
}


def missing():
    """The one-line reason the page cannot be tested here, or None."""
    for tool, why in TOOLS.items():
        if shutil.which(tool) is None:
            return "web page: %s not found (%s)" % (tool, why)
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "web page: selenium is not installed (pip install -e '.[dev]')"
    return None


def need():
    """At the top of a test module: skip it with one line (or, with
    DICETRAY_WEB_REQUIRED=1, as .ci/run sets, fail) when the page cannot be
    tested here."""
    import pytest
    reason = missing()
    if reason is None:
        return
    if os.environ.get("DICETRAY_WEB_REQUIRED") == "1":
        pytest.fail(reason + "; DICETRAY_WEB_REQUIRED=1 makes this a failure", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def build_site():
    """build/web, built by tools/web.py when missing or stale; returns its path."""
    from tools import web
    if web.stale():
        web.build(quiet=True)
    return web.OUT


class Site:
    """build/web served on 127.0.0.1 (a free port) in a thread."""

    def __init__(self, site):
        from dicetray.sim import web
        self.srv = web.server(0, site)
        self.port = self.srv.server_address[1]
        self.thread = threading.Thread(target=self.srv.serve_forever, daemon=True)
        self.thread.start()

    def url(self, query=""):
        return "http://127.0.0.1:%d/index.html%s" % (self.port, query)

    def close(self):
        self.srv.shutdown()
        self.srv.server_close()


def chrome():
    """A headless chromium under chromedriver (the system's, by path)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    o.binary_location = shutil.which("chromium")
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=900,1100", "--no-first-run", "--disable-extensions"):
        o.add_argument(a)
    d = webdriver.Chrome(options=o, service=Service(shutil.which("chromedriver")))
    d.set_script_timeout(120)
    return d


def open_page(driver, url):
    """Load the page and wait until the firmware booted (or failed)."""
    driver.get(url)
    r = driver.execute_async_script(
        "const cb = arguments[arguments.length - 1];"
        "if (!window.dicetray) { cb('no dicetray API on the page'); return; }"
        "dicetray.ready.then(() => cb(dicetray.stats().error || 'ok'), e => cb(String(e)));")
    if r != "ok":
        raise AssertionError("the page did not boot: %s" % r)


def wait_for(fn, timeout=600.0, every=0.02, what="the page"):
    """Poll fn() until it returns something true; return it (never a time).
    `timeout` only ends a run that hangs: the page's work takes what the
    machine gives it (docs/testing.md, "Under load")."""
    end = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > end:
            raise AssertionError("waited %g s for %s" % (timeout, what))
        time.sleep(every)
