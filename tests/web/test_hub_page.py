"""The table hub end to end (the hub's done test): four simulated trays
of the real firmware, the hub holding them with forwarding to a local
webhook and automatic backups; rolls driven on each by concurrent
`dicetray roll` commands through the hub; then the live page in a real
headless chromium (every tray's last rolls, trackers, screen and LED
ring as the events arrive), the webhook's records and the backups."""

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request

import pytest


from linkutil import ROOT, Sim, wait_for
from webhook import Receiver

from dicetray import backup as bk

from dicetray.hub.autobackup import AutoBackup
from dicetray.hub.feed import Feed
from dicetray.hub.forward import Forwarder
from dicetray.hub.server import Hub
from dicetray.hub.view import View
from dicetray.cli.pageline import parse_action
from dicetray.hub.web import Web

import browser


def _need():
    """The page needs chromium, its driver and selenium (not node: nothing is built)."""
    for tool in ("chromium", "chromedriver"):
        if shutil.which(tool) is None:
            return "hub page: %s not found (%s)" % (tool, browser.TOOLS[tool])
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "hub page: selenium is not installed (pip install -e '.[dev]')"
    return None


REASON = _need()
if REASON:
    if os.environ.get("DICETRAY_WEB_REQUIRED") == "1":
        pytest.fail(REASON + "; DICETRAY_WEB_REQUIRED=1 makes this a failure", pytrace=False)
    pytest.skip(REASON, allow_module_level=True)

TRAYS = ("a", "b", "c", "d")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hubpage")
    old = os.environ.get("DICETRAY_HOME")
    os.environ["DICETRAY_HOME"] = str(tmp / "home")
    sims = [Sim(str(tmp / ("f" + n))) for n in TRAYS]
    hub = Hub(["%s=%s" % (n, s.port) for n, s in zip(TRAYS, sims)])
    view = View(hub)
    hub.sinks.append(view)
    said = []                  # the automatic backups' lines (a failure would be one)
    rx = Receiver()
    fwd = Forwarder([rx.url], str(tmp / "forward.db"))
    view.add_feed(Feed(fwd))
    db = str(tmp / "backups.db")
    auto = AutoBackup(hub, 3, db, say=said.append)
    hub.sinks.append(auto)
    hub.start()
    fwd.start()
    web = Web(view, "127.0.0.1", 0, token=None)
    d = browser.chrome()
    try:
        yield hub, web, d, rx, auto, db, said
    finally:
        d.quit()
        web.close()
        auto.close()
        hub.close()
        fwd.stop()
        rx.close()
        for s in sims:
            s.stop()
        if old is None:
            os.environ.pop("DICETRAY_HOME", None)
        else:
            os.environ["DICETRAY_HOME"] = old


def _cards(d):
    return d.execute_script("""
        return [...document.querySelectorAll('section.tray')].map(c => ({
          tray: c.dataset.tray, down: c.classList.contains('down'),
          first: (c.querySelector('ol.recent li') || {}).textContent || '',
          seqs: [...c.querySelectorAll('ol.recent li[data-seq]')].map(li => +li.dataset.seq),
          trackers: (c.querySelector('.trackers') || {}).textContent || '',
          leds: c.querySelectorAll('.led').length,
          lit: (() => { const cv = c.querySelector('canvas.oled'); if (!cv) return -1;
                        const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
                        let n = 0; for (let i = 0; i < px.length; i += 4) if (px[i + 2]) n++;
                        return n; })()}));""")


def _roll(n):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"))
    return subprocess.Popen([sys.executable, "-m", "dicetray", "roll", "--pool", "2", "--tray", n],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_rolls_from_concurrent_commands_reach_the_page_the_webhook_and_the_backups(table):
    hub, web, d, rx, auto, db, lines = table
    d.get(web.url())
    cards = browser.wait_for(lambda: len(_cards(d)) == 4 and all(
        not c["down"] for c in _cards(d)) and _cards(d), what="four trays, up")
    assert [c["tray"] for c in cards] == list(TRAYS)
    assert all("Pressure" in c["trackers"] and "Tension" in c["trackers"] for c in cards)
    # tray a rolls once, b twice, c three times, d four: all at once, each its own process
    procs = [(n, _roll(n)) for k, n in enumerate(TRAYS) for _ in range(k + 1)]
    said = {}
    for n, p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        m = re.match(r"event (\d+): (roll 2d6: [\d ]+)", out)
        said.setdefault(n, {})[int(m.group(1))] = m.group(2)

    def landed():
        cs = {c["tray"]: c for c in _cards(d)}
        return all(cs[n]["seqs"][:1] == [k + 1] for k, n in enumerate(TRAYS)) and cs

    cs = browser.wait_for(landed, what="each tray's last roll on the page")
    for k, n in enumerate(TRAYS):
        assert sorted(said[n]) == list(range(1, k + 2))               # each applied once
        assert cs[n]["seqs"] == list(range(k + 1, 0, -1))           # newest first, none twice
        assert said[n][k + 1] in cs[n]["first"]                       # the faces the device rolled
    # the webhook: every event once, in order per tray, with its outcome and trackers
    assert wait_for(lambda: len(rx.got) == 10, 30), rx.got
    for k, n in enumerate(TRAYS):
        got = [r for r in rx.got if r["tray"] == n]
        assert [r["seq"] for r in got] == list(range(1, k + 2))
        for r in got:
            assert r["schema"] == "dicetray.event/1" and r["event"] == "roll"
            assert r["summary"] == "%s: %s" % (n, said[n][r["seq"]].strip()) or \
                r["summary"].startswith("%s: %s" % (n, said[n][r["seq"]].strip()))
            assert r["outcome"]["verdict"] in ("success", "failure")
            assert any(t["name"] == "Pressure" for t in r["trackers"]["talismans"])
    # automatic backups: one of each tray as it came up (event 0), and every 3 events:
    # c's third, d's third (or its fourth, when it came before the backup)
    def taken():
        last = {}
        for t, _b, n in auto.done:
            last[t] = max(last.get(t, -1), n)
        return last
    assert wait_for(lambda: len(taken()) == 4 and taken()["c"] == 3 and taken()["d"] >= 3, 60), \
        (auto.done, lines)
    assert not [ln for ln in lines if "failed" in ln], lines
    st = bk.BackupStore(db, create=False)
    try:
        rows = st.list()
    finally:
        st.close()
    assert {r["campaign"] for r in rows} == {hub.trays[n].info["campaign"] for n in TRAYS}
    assert max(r["last"] for r in rows) >= 3


def test_the_page_draws_the_trays_screen_and_ring(table):
    hub, web, d = table[:3]
    d.get(web.url())
    cs = browser.wait_for(lambda: all(c["lit"] > 0 for c in _cards(d)) and _cards(d),
                          what="every tray's OLED drawn")
    for c in cs:
        assert c["leds"] == 12                     # the ring of every board profile
        assert 0 < c["lit"] < 128 * 64             # a screen, not a blank or a full panel


def test_the_keepers_page_numbers_the_trackers_and_reads_large(table):
    """The trackers in the tray's home order and the
    rules' words; the keeper's page puts the number its commands take
    before each talisman and character; a large mode for a TV (the
    header's button, kept in the URL as ?large=1)."""
    from selenium.webdriver.common.by import By
    hub, web, d = table[:3]
    keeper = Web(web.view, "127.0.0.1", 0, keeper="k33per", parse_action=parse_action)
    try:
        d.get(keeper.url(keeper=True))
        rows = browser.wait_for(lambda: d.execute_script(
            "const c = document.querySelector('section.tray[data-tray=a] .trackers');"
            "return c && c.children.length ? [...c.children].map(r => r.textContent) : null;"),
            what="tray a's trackers")
        assert rows[:3] == ["tal 1Tension 0/3", "tal 0Pressure 0/6", "tal 2Sin 0/8"], rows
        assert not [r for r in rows if "_" in r], rows                # no identifier
        size = "return getComputedStyle(document.body).fontSize"
        assert d.execute_script(size) == "20px"
        d.find_element(By.ID, "large").click()
        browser.wait_for(lambda: d.execute_script(size) == "34px", what="the large mode")
        assert "large=1" in d.current_url and "keeper=k33per" in d.current_url
        assert d.execute_script(
            "return document.querySelector('.ring').getBoundingClientRect().width") == 220
        d.get(web.url() + "?large=1")                                  # the players' page, large
        browser.wait_for(lambda: d.execute_script(size) == "34px", what="?large=1")
        plain = browser.wait_for(lambda: d.execute_script(
            "const c = document.querySelector('section.tray[data-tray=a] .trackers');"
            "return c && c.children.length ? c.textContent : null;"), what="the trackers")
        assert plain.startswith("Tension 0/3") and "tal " not in plain  # no numbers for players
    finally:
        keeper.close()


def test_a_token_guards_the_page(table):
    hub, web, d = table[:3]
    guarded = Web(web.view, "127.0.0.1", 0, token="s3cret")
    try:
        base = guarded.url().split("?")[0]
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(base + "state", timeout=10)
        assert e.value.code == 403
        with urllib.request.urlopen(base + "state?token=s3cret", timeout=10) as r:
            assert r.status == 200
        d.get(guarded.url())                        # the printed URL carries it
        browser.wait_for(lambda: len(_cards(d)) == 4, what="the page through its token")
    finally:
        guarded.close()


def test_the_keeper_acts_from_the_page(table):
    """Opened with the keeper's token, a card takes an action as the
    terminal would type it; the answer is the command's lines, the roll
    lands on the page, and a refused action says why. Without the token
    the same page has no controls."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from dicetray.link import hubclient
    hub, web, d = table[:3]
    reg = hubclient.find()
    keeper = Web(web.view, "127.0.0.1", 0, keeper="k33p", parse_action=parse_action,
                 connect=lambda tray: hubclient.HubDevice(reg, tray=tray))
    try:
        d.get(keeper.url())                                   # the page, not the keeper's
        browser.wait_for(lambda: len(_cards(d)) == 4, what="the page")
        assert not d.find_elements(By.CSS_SELECTOR, "form.act")
        d.get(keeper.url(keeper=True))
        browser.wait_for(lambda: len(d.find_elements(By.CSS_SELECTOR, "form.act")) == 4,
                         what="a form on every card")
        before, other = hub.trays["b"].last, hub.trays["a"].last

        def said(n):
            return d.execute_script(
                "const s = document.querySelector('section[data-tray=\"b\"] .said');"
                "return [s.className, s.textContent];")

        box = d.find_element(By.CSS_SELECTOR, 'section[data-tray="b"] form.act input')
        box.send_keys("roll --pool 3", Keys.ENTER)
        cls, text = browser.wait_for(lambda: said(0)[1].startswith("event") and said(0),
                                     what="the roll's answer")
        m = re.match(r"event (\d+): (roll 3d6: [\d ]+)", text)
        assert m and cls == "said" and int(m.group(1)) == before + 1, text
        cs = browser.wait_for(lambda: {c["tray"]: c for c in _cards(d)}["b"]["seqs"][:1] ==
                              [before + 1] and {c["tray"]: c for c in _cards(d)},
                              what="the roll on b's card")
        assert m.group(2).strip() in cs["b"]["first"]
        assert hub.trays["a"].last == other                   # b's card acts on b alone
        box = d.find_element(By.CSS_SELECTOR, 'section[data-tray="b"] form.act input')
        assert box.get_attribute("value") == "roll --pool 3"  # kept across the update
        box.clear()
        box.send_keys("roll --pool 99", Keys.ENTER)
        cls, text = browser.wait_for(lambda: said(0)[0] == "said bad" and said(0),
                                     what="the refusal")
        assert "--pool 99" in text
        d.find_element(By.XPATH, '//section[@data-tray="b"]//button[text()="Undo"]').click()
        cls, text = browser.wait_for(lambda: said(0)[1].startswith("event %d: undo" % (before + 2))
                                     and said(0), what="the undo's answer")
        assert hub.trays["b"].last == before + 2
    finally:
        keeper.close()


def _sinks(d):
    return d.execute_script("""
        return [...document.querySelectorAll('#forward .sink')].map(s => ({
          text: s.textContent, failing: s.classList.contains('failing'),
          pending: +s.dataset.pending}));""")


def test_the_page_shows_how_forwarding_fares(table, tmp_path):
    """Each forwarding URL's queue, last delivery and last
    error under the trays (a 302 is not a delivery); its host only."""
    hub, web, d = table[:3]
    good, bad = Receiver(), Receiver()
    bad.mode = "redirect"
    view = View(hub)                  # not a sink: the trays are the table's page's
    f = Forwarder([good.url, bad.url], str(tmp_path / "q.db"), backoff=(0.05, 0.2))
    view.add_feed(Feed(f))
    f.start()
    page = Web(view, "127.0.0.1", 0)
    try:
        for n in (1, 2):
            f.put({"id": "dev:1:%d" % n, "summary": "a: roll %d" % n})
        d.get(page.url())

        def shown():
            s = _sinks(d)
            return len(s) == 2 and s[0]["pending"] == 0 and "302" in s[1]["text"] and s
        s = browser.wait_for(shown, what="both forwarding URLs, one failing")
        host = "http://127.0.0.1:%d/..." % good.srv.server_address[1]
        assert s[0]["text"].startswith("forward 1 %s: 0 queued, last delivered " % host)
        assert "never" not in s[0]["text"] and not s[0]["failing"]
        assert s[1]["failing"] and s[1]["pending"] == 2
        assert ": 2 queued, last delivered never; last error " in s[1]["text"]
        assert "HTTP 302 Found (a redirect is not followed" in s[1]["text"]
        assert "/hook" not in d.find_element("id", "forward").text   # a webhook's path: a secret
        bad.mode = "ok"
        s = browser.wait_for(lambda: (s := _sinks(d)) and s[1]["pending"] == 0 and
                             not s[1]["failing"] and s, what="the second one delivering again")
        assert "last delivered never" not in s[1]["text"]
        assert [b["id"] for b in bad.got] == ["dev:1:1", "dev:1:2"]
        # Records the queue file refuses (another
        # process's write lock) are held in memory, and the page says so.
        other = sqlite3.connect(str(tmp_path / "q.db"), timeout=0, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            f.put({"id": "dev:1:3", "summary": "a: roll 3"})
            s = browser.wait_for(lambda: (s := _sinks(d)) and all(
                "1 held in memory (the queue file refuses them)" in x["text"] for x in s) and s,
                what="the held record on both lines")
            assert all(x["failing"] and "refused a write (database is locked)" in x["text"]
                       for x in s)
        finally:
            other.rollback()
            other.close()
        browser.wait_for(lambda: [b["id"] for b in bad.got] == ["dev:1:1", "dev:1:2", "dev:1:3"],
                         what="the held record queued (the view tries again) and delivered")
        s = browser.wait_for(lambda: (s := _sinks(d)) and not any(
            "held" in x["text"] for x in s) and s, what="nothing held")
    finally:
        page.close()
        f.stop()
        good.close()
        bad.close()
