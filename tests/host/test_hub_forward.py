"""Roll forwarding (issue 15, item 3): a queue on disk posted to each
webhook in order, against a real local HTTP server that fails, stalls
and recovers; at least once across a kill -9."""

import os
import signal
import subprocess
import sys
import time

import pytest

from dicetray.hub.forward import GIVE_UP, Forwarder, _shape

from linkutil import ROOT, wait_for
from webhook import Receiver


@pytest.fixture
def rx():
    r = Receiver()
    yield r
    r.close()


def rec(n):
    return {"schema": "dicetray.event/1", "id": "dev:1:%d" % n, "seq": n,
            "summary": "a: roll %d" % n}


def test_delivered_in_order_and_a_failing_webhook_gets_everything_when_it_recovers(tmp_path, rx):
    f = Forwarder([rx.url], str(tmp_path / "q.db"), timeout=2, backoff=(0.02, 0.2)).start()
    try:
        for n in range(1, 6):
            f.put(rec(n))
        assert wait_for(lambda: len(rx.got) == 5)
        rx.mode = "fail"
        for n in range(6, 11):
            f.put(rec(n))
        assert wait_for(lambda: rx.tries >= 10)      # tried again and again, backing off
        assert f.stats()[rx.url]["pending"] == 5 and "500" in f.stats()[rx.url]["last_error"]
        rx.mode = "busy"                              # a 429 once, then fine
        assert wait_for(lambda: len(rx.got) == 10)
        assert rx.ids() == ["dev:1:%d" % n for n in range(1, 11)]   # in order, none lost or twice
        assert f.stats()[rx.url]["pending"] == 0
    finally:
        f.stop()


def test_the_back_off_grows(tmp_path, rx):
    rx.mode = "fail"
    f = Forwarder([rx.url], str(tmp_path / "q.db"), timeout=2, backoff=(0.05, 10.0)).start()
    try:
        f.put(rec(1))
        assert wait_for(lambda: rx.tries >= 5, 30)
        # 0.05, 0.1, 0.2, 0.4, 0.8...: after five tries the next waits 1.6 s,
        # so a second's look sees at most one more (a constant 0.05 s would make 20)
        n = rx.tries
        time.sleep(1.0)
        assert rx.tries - n <= 2
    finally:
        f.stop()


def test_a_stalled_webhook_holds_back_only_its_own_queue(tmp_path, rx):
    good = Receiver()
    rx.mode = "stall"
    f = Forwarder([rx.url, good.url], str(tmp_path / "q.db"), timeout=0.5,
                  backoff=(0.05, 0.2)).start()
    try:
        for n in range(1, 4):
            f.put(rec(n))                              # returns while the first one stalls
        assert wait_for(lambda: len(good.got) == 3)
        assert rx.got == [] and f.stats()[rx.url]["pending"] == 3
        assert wait_for(lambda: "timed out" in (f.stats()[rx.url]["last_error"] or ""))
        rx.mode = "ok"
        assert wait_for(lambda: len(rx.got) == 3)
    finally:
        f.stop()
        good.close()


def test_what_was_not_delivered_survives_a_restart(tmp_path, rx):
    path = str(tmp_path / "q.db")
    rx.mode = "fail"
    f = Forwarder([rx.url], path, backoff=(0.05, 0.2)).start()
    for n in range(1, 4):
        f.put(rec(n))
    assert wait_for(lambda: rx.tries >= 1)
    f.stop()
    rx.mode = "ok"
    f = Forwarder([rx.url], path, backoff=(0.05, 0.2)).start()
    try:
        assert wait_for(lambda: len(rx.got) == 3)
        assert rx.ids() == ["dev:1:1", "dev:1:2", "dev:1:3"]
    finally:
        f.stop()
    other = Receiver()                                  # a webhook added later gets no history
    f = Forwarder([rx.url, other.url], path).start()
    try:
        f.put(rec(4))
        assert wait_for(lambda: len(other.got) == 1 and len(rx.got) == 4)
        assert other.ids() == ["dev:1:4"]
    finally:
        f.stop()
        other.close()


def test_a_record_refused_for_good_is_skipped_after_some_attempts(tmp_path, rx):
    rx.mode = "refuse"
    rx.bad = {"dev:1:2"}
    f = Forwarder([rx.url], str(tmp_path / "q.db"), backoff=(0.01, 0.05)).start()
    try:
        for n in range(1, 4):
            f.put(rec(n))
        assert wait_for(lambda: len(rx.got) == 2)
        assert rx.ids() == ["dev:1:1", "dev:1:3"] and rx.tries == 2 + GIVE_UP
        assert "skipped after %d attempts" % GIVE_UP in f.stats()[rx.url]["last_error"]
    finally:
        f.stop()


def test_chat_webhooks_get_a_message(tmp_path, rx):
    assert _shape("https://discord.com/api/webhooks/1/abc") == (
        "https://discord.com/api/webhooks/1/abc", "discord")
    assert _shape("http://x/hook#slack") == ("http://x/hook", "slack")
    assert _shape("http://x/hook") == ("http://x/hook", "json")
    f = Forwarder([rx.url + "#discord", rx.url + "?s#slack"], str(tmp_path / "q.db")).start()
    try:
        long = dict(rec(1), summary="x" * 2500)
        f.put(long)
        assert wait_for(lambda: len(rx.got) == 2)
        by = {("content" in b): b for b in rx.got}
        assert by[True] == {"content": "x" * 2000}      # Discord's limit
        assert by[False] == {"text": "x" * 2500}
    finally:
        f.stop()


KILLED = """
import sys, time
from dicetray.hub.forward import Forwarder
f = Forwarder([sys.argv[1]], sys.argv[2], backoff=(0.01, 0.05)).start()
if sys.argv[3] == "put":
    for n in range(1, 201):
        f.put({"id": "dev:1:%d" % n, "summary": str(n)})
print("ready", flush=True)
time.sleep(60)
"""


def test_kill_9_while_forwarding_loses_nothing_and_repeats_at_most_the_one_in_flight(tmp_path, rx):
    path = str(tmp_path / "q.db")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "host"))

    def forwarder(what):
        p = subprocess.Popen([sys.executable, "-c", KILLED, rx.url, path, what], env=env,
                             stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "ready"
        return p

    p = forwarder("put")
    assert wait_for(lambda: len(rx.got) >= 20)
    p.send_signal(signal.SIGKILL)                       # in the middle of the stream
    p.wait(30)
    p.stdout.close()
    at_kill = len(rx.got)
    assert at_kill < 200
    p = forwarder("resume")
    try:
        assert wait_for(lambda: len(set(rx.ids())) == 200, 60)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(30)
        p.stdout.close()
    ids = rx.ids()
    first = list(dict.fromkeys(ids))
    assert first == ["dev:1:%d" % n for n in range(1, 201)]    # every one, in order
    assert len(ids) - len(first) <= 1                       # the one posted as the kill came
