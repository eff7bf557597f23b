"""The page's "Connect a tray" (web/trayclient.py in the page's MicroPython,
web/dicetray.js's TrayLink) against a REAL desktop simulator of the
firmware (`dicetray sim --headless`, tests/host/linkutil.Sim): status as
`dicetray status` says it, a backup downloaded as a file whose events are
the host client's, that file restored onto a fresh simulator (compared
with the host client), and damaged files refused with nothing changed.

The stand-in. A headless browser cannot choose a serial port, so only
`navigator.serial` is replaced, before the page's scripts run (STANDIN
below, injected with the DevTools protocol): its requestPort() gives a
port whose `readable` stream the test feeds and whose `writable` stream
keeps what the page writes. `Bridge` moves those bytes between the page
and the simulator's pty, polling through selenium's execute_script. All
else is real: the page, its MicroPython, the client, the firmware's frame
codec, and the simulated tray at the other end.
"""
import base64
import hashlib
import json
import os
import time
import tty

import browser

browser.need()  # one line when chromium, chromedriver, node or npm is missing

import pytest  # noqa: E402
from browser import open_page, wait_for  # noqa: E402
from dicetray.link.client import Device  # noqa: E402
from dicetray.rules import campaign as cp  # noqa: E402
from linkutil import Sim, write_flash  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

EVENTS = 300   # more than the tray keeps in RAM (64..128): the journal is read in LOG pages

# navigator.serial's stand-in: one port; the test pushes base64 bytes into
# its readable stream and takes what the page wrote to its writable one.
STANDIN = r"""
(() => {
  const b = window.__serialStandIn = { out: [], ctl: null, opened: null };
  b.push = (t) => { try { b.ctl.enqueue(Uint8Array.from(atob(t), (c) => c.charCodeAt(0))); } catch (e) {} };
  const port = {
    readable: null, writable: null,
    async open(o) {
      b.opened = o;
      this.readable = new ReadableStream({ start(c) { b.ctl = c; } });
      this.writable = new WritableStream({ write(u) { b.out.push(btoa(String.fromCharCode(...u))); } });
    },
    async close() { b.ctl = null; },
    getInfo() { return {}; },
  };
  Object.defineProperty(navigator, "serial", { configurable: true,
    value: { requestPort: async () => port, getPorts: async () => [port] } });
})();
"""
PUMP = ("const b = window.__serialStandIn; if (arguments[0] && b.ctl) b.push(arguments[0]);"
        "return [b.out.splice(0, b.out.length), dicetray.linkState()];")


class Bridge:
    """The stand-in's port, wired to a simulator's pty by polling."""

    def __init__(self, driver, port):
        self.d = driver
        self.fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)

    def pump(self, until, timeout=90, what="the page"):
        """Move bytes both ways until until(linkState) is true; return that state."""
        end = time.monotonic() + timeout
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except (BlockingIOError, OSError):
                data = b""
            out, st = self.d.execute_script(PUMP, base64.b64encode(data).decode() if data else "")
            for chunk in out:
                view = memoryview(base64.b64decode(chunk))
                while view:
                    try:
                        view = view[os.write(self.fd, view):]
                    except BlockingIOError:
                        time.sleep(0.001)
            if until(st):
                return st
            if time.monotonic() > end:
                raise AssertionError("waited %d s for %s; the panel: %r" % (timeout, what, st))
            if not data and not out:
                time.sleep(0.005)

    def close(self):
        os.close(self.fd)


@pytest.fixture
def page(driver, site, flash_name):
    """The page with the stand-in for navigator.serial; removed after."""
    sid = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STANDIN})
    try:
        open_page(driver, site.url("?flash=" + flash_name))
        yield driver
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                               {"identifier": sid["identifier"]})


@pytest.fixture(scope="module")
def sims(tmp_path_factory):
    """A: a tray with a campaign of EVENTS events; B: a new tray."""
    base = tmp_path_factory.mktemp("serial")
    fa, fb = str(base / "a"), str(base / "b")
    write_flash(fa, EVENTS)
    os.makedirs(fb)
    a = Sim(fa, home=str(base / "home"))
    b = Sim(fb, home=str(base / "home"))
    yield {"a": a, "b": b, "dir": base}
    for s in (a, b):
        s.stop()


def host(port):
    """What the host tool's client reads of the tray: info, events, state."""
    with Device.open(port) as dev:
        info = dev.info()
        seq, snap = dev.snapshot()
        evs = [bytes(e) for e in dev.events(info.get("first", 1) - 1)]
        slots = dev.campaigns()
    c = cp.decode_snapshot(snap, None, False)
    return {"info": info, "events": evs, "state": cp.encode_state(c), "seq": seq, "slots": slots}


def cli(port, *argv):
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.path.join(browser.ROOT, "host"))
    r = subprocess.run([sys.executable, "-m", "dicetray", argv[0], "--port", port] + list(argv[1:]),
                       capture_output=True, text=True, cwd=browser.ROOT, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def connect(d, sim):
    br = Bridge(d, sim.port)
    d.find_element(By.ID, "connect").click()
    st = br.pump(lambda s: s["connected"] and not s["busy"] and s["status"]
                 or "failed" in s["page"], what="the connection")
    assert st["connected"], (st["page"], st["msg"])
    return br, st


def disconnect(d, br):
    d.find_element(By.ID, "link-disconnect").click()
    wait_for(lambda: not d.execute_script("return dicetray.linkState().connected"))
    br.close()


def done(s):
    return not s["busy"] and s["msg"] and not s["msg"].endswith("…")


def choose_file(d, path):
    el = d.find_element(By.ID, "link-restore")
    d.execute_script("arguments[0].hidden = false", el)   # a file input selenium can type into
    el.send_keys(path)
    d.execute_script("arguments[0].hidden = true", el)


SAME = ("campaign", "journal", "damage")   # lines said alike that do not move between two reads
HOST = ("where", "health", "last_backup", "simulator", "flash", "port")   # what the page cannot know


def test_no_web_serial_says_so(driver, site, flash_name):
    sid = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                 {"source": "delete Navigator.prototype.serial;"})
    try:
        open_page(driver, site.url("?flash=" + flash_name))
        b = driver.find_element(By.ID, "connect")
        assert "no Web Serial" in b.text and not b.is_enabled()
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                               {"identifier": sid["identifier"]})


def test_status_is_the_host_tools(page, sims):
    a = sims["a"]
    text = cli(a.port, "status", "-v")
    want = json.loads(cli(a.port, "status", "--json"))
    want = {k: v for k, v in want.items() if k not in HOST}
    br, st = connect(page, a)
    try:
        assert page.execute_script("return window.__serialStandIn.opened") == {"baudRate": 115200}
        lines = st["status"].split("\n")
        said = [x for x in lines if x.split()[0] in SAME]
        assert said and said == [x for x in text.splitlines() if x.split()[0] in SAME]
        assert any(x.startswith("heap ") for x in lines) == any(x.startswith("heap ") for x in text.splitlines())
        moving = ("heap_free", "heap_used", "heap_low", "bad", "retried")  # once a collection ran
        assert {k: v for k, v in st["info"].items() if k not in moving} == \
            {k: v for k, v in want.items() if k not in moving}
        assert st["info"]["events"] == EVENTS
        page.find_element(By.ID, "link-refresh").click()
        st = br.pump(lambda s: done(s) and s["msg"] == "status read", what="status")
        assert [x for x in st["status"].split("\n") if x.split()[0] in SAME] == said
    finally:
        disconnect(page, br)


@pytest.fixture(scope="module")
def backup(driver, site, sims):
    """A backup of tray A taken through the page: (path, doc, link stats)."""
    down = str(sims["dir"] / "downloads")
    os.makedirs(down)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": down})
    sid = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STANDIN})
    try:
        open_page(driver, site.url("?flash=t-backup"))
        br, _st = connect(driver, sims["a"])
        try:
            driver.find_element(By.ID, "link-backup").click()
            st = br.pump(done, what="the backup")
            assert st["msg"].startswith("backed up to "), st
        finally:
            disconnect(driver, br)
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                               {"identifier": sid["identifier"]})
    name = st["msg"].split()[3].rstrip(":")
    path = os.path.join(down, name)
    wait_for(lambda: os.path.isfile(path), what="the download of " + name)
    with open(path) as f:
        doc = json.load(f)
    return path, doc, st["stats"]


def test_backup_downloads_what_the_host_reads(sims, backup):
    path, doc, stats = backup
    h = host(sims["a"].port)
    assert (doc["format"], doc["version"], doc["system"], doc["campaign"]) == \
        ("dicetray-backup", 1, h["info"]["system"], h["info"]["campaign"])
    assert (doc["first"], doc["last"], doc["device"]) == (1, EVENTS, h["info"]["device"])
    evs = [base64.b64decode(e) for e in doc["events"]]
    assert evs == h["events"] and len(evs) == EVENTS
    assert doc["state_sha256"] == hashlib.sha256(h["state"]).hexdigest()
    from dicetray import backup as bk
    assert doc["events_sha256"] == bk.events_digest(1, evs)   # the host database's digest
    snap = base64.b64decode(doc["snapshot"]["data"])
    assert cp.encode_state(cp.decode_snapshot(snap, None, False)) == h["state"]
    assert stats["requests"].get("16", 0) >= 2   # LOG pages: the journal, not only RAM
    assert doc.get("head") == h["info"].get("head")   # the hash chain's head, where the tray has one
    # and what `dicetray export` says of the tray: the same events, in order
    ex = json.loads(cli(sims["a"].port, "export", "--format", "json"))
    assert len(ex["events"]) == EVENTS and ex["campaign"] == doc["campaign"]
    assert hashlib.sha256(bytes.fromhex(ex["state"]["hex"])).hexdigest() == doc["state_sha256"]


def test_restore_onto_a_new_tray(page, sims, backup):
    path, doc, _stats = backup
    b = sims["b"]
    before = host(b.port)
    assert before["info"]["campaign"] != doc["campaign"] and before["info"]["events"] == 0
    br, _st = connect(page, b)
    try:
        choose_file(page, path)
        st = br.pump(lambda s: s["plan"] is not None or s["bad"], what="the plan")
        assert st["plan"] is not None, st
        assert "campaign %d (hunt), %d events (1..%d)" % (doc["campaign"], EVENTS, EVENTS) in st["plan"]
        assert "slot 1" in st["plan"]
        page.find_element(By.ID, "link-go").click()
        st = br.pump(lambda s: done(s) and s["msg"] != "restore…", what="the restore")
        assert st["msg"].startswith("restored and verified"), st
        assert "events 1..%d verified one by one" % EVENTS in st["msg"]
    finally:
        disconnect(page, br)
    a, after = host(sims["a"].port), host(b.port)
    assert (after["info"]["campaign"], after["info"]["system"], after["info"]["events"]) == \
        (doc["campaign"], doc["system"], EVENTS)
    assert after["events"] == a["events"] and after["state"] == a["state"]
    assert after["info"].get("head") == a["info"].get("head")
    assert [s["slot"] for s in after["slots"]["slots"]] == [1, 2] and after["info"]["slot"] == 2


def damaged(doc):
    """Files a restore must refuse: (name, doc or text, words of the refusal)."""
    out = []
    d = json.loads(json.dumps(doc))
    ev = bytearray(base64.b64decode(d["events"][10]))
    ev[-1] ^= 1
    d["events"][10] = base64.b64encode(bytes(ev)).decode()
    out.append(("flipped", d, "do not match their digest"))
    d2 = json.loads(json.dumps(d))      # the same, its digest made to fit: the fold catches it
    from dicetray import backup as bk
    d2["events_sha256"] = bk.events_digest(1, [base64.b64decode(e) for e in d2["events"]])
    out.append(("refitted", d2, "the file is damaged"))
    d3 = json.loads(json.dumps(doc))
    d3["snapshot"]["crc32"] ^= 1
    out.append(("snapcrc", d3, "fails its CRC"))
    if doc.get("head"):
        d4 = json.loads(json.dumps(doc))
        d4["head"] = ("0" if d4["head"][0] != "0" else "1") + d4["head"][1:]
        out.append(("head", d4, "hash chain"))
    d5 = json.loads(json.dumps(doc))
    d5["format"] = "dicetray-flash"
    out.append(("flash", d5, "flash export of the page's own tray"))
    text = json.dumps(doc)
    out.append(("cut", text[:len(text) // 2], "not JSON"))
    return out


def test_a_damaged_file_is_refused_and_nothing_changes(page, sims, backup):
    _path, doc, _stats = backup
    a = sims["a"]
    before = host(a.port)
    br, _st = connect(page, a)
    try:
        for name, d, words in damaged(doc):
            path = str(sims["dir"] / ("damaged-%s.json" % name))
            with open(path, "w") as f:
                f.write(d if isinstance(d, str) else json.dumps(d))
            choose_file(page, path)
            st = br.pump(lambda s: s["bad"] or s["plan"] is not None, what="the refusal of " + name)
            assert st["bad"] and st["plan"] is None, (name, st)
            assert words in st["msg"] and st["msg"].startswith("checking " + os.path.basename(path)), \
                (name, st["msg"])
            # the restore button is not offered: nothing can be sent
            assert not page.find_element(By.ID, "link-go").is_displayed()
    finally:
        disconnect(page, br)
    after = host(a.port)
    assert after["events"] == before["events"] and after["state"] == before["state"]
    assert after["slots"] == before["slots"]


def test_a_tray_at_the_repl_is_restarted(page, sims):
    """A Ctrl-C on the line stops the tray's app (the REPL takes the port,
    as mpremote does it): connecting restarts the app, as the host tool does."""
    a = sims["a"]
    br = Bridge(page, a.port)
    try:
        os.write(br.fd, b"\r\x03")
        wait_for(lambda: b">>> " in os.read(br.fd, 4096) if select_ready(br.fd) else False,
                 what="the REPL's prompt")
    except BaseException:
        br.close()
        raise
    page.find_element(By.ID, "connect").click()
    st = br.pump(lambda s: s["connected"] and not s["busy"] and s["status"]
                 or "failed" in s["page"], what="the connection")
    try:
        assert st["connected"], st["page"]
        assert "(hunt), %d events" % EVENTS in st["status"]
    finally:
        disconnect(page, br)


def select_ready(fd):
    import select
    return bool(select.select([fd], [], [], 0.05)[0])
