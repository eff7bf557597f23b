"""stats: the incomplete gamma / chi-square p-value against known values,
face tallies per die size, success rates, the histogram PNG."""
import math
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from fake_device import FakeDevice, play  # noqa: E402

from dicetray import commands, stats  # noqa: E402
from dicetray.rules import campaign as cp  # noqa: E402


@pytest.mark.parametrize("x,k,p", [
    (3.841458820694124, 1, 0.05),    # the textbook 5% critical values
    (6.634896601021213, 1, 0.01),
    (11.070497693516351, 5, 0.05),
    (15.08627246938899, 5, 0.01),
    (30.14352720564616, 19, 0.05),
    (5.0, 5, 0.4158801869955079),
    (0.0, 3, 1.0),
    (100.0, 5, 5.285148360943e-20),
])
def test_chi2_sf_known_values(x, k, p):
    assert stats.chi2_sf(x, k) == pytest.approx(p, rel=1e-9, abs=1e-300)


def test_gammaincc_closed_forms():
    for x in (0.1, 1.0, 2.5, 7.0, 40.0):
        assert stats.gammaincc(1, x) == pytest.approx(math.exp(-x), rel=1e-12)
        assert stats.gammaincc(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-10)
        assert stats.gammaincc(3, x) == pytest.approx(math.exp(-x) * (1 + x + x * x / 2), rel=1e-12)
    with pytest.raises(ValueError):
        stats.gammaincc(0, 1)


def test_chi_square():
    s, df, p = stats.chi_square([10] * 6)
    assert (s, df, p) == (0.0, 5, 1.0)
    s, df, p = stats.chi_square([60, 0, 0, 0, 0, 0])
    assert s == 300.0 and p < 1e-50
    assert stats.chi_square([0, 0])[2] is None


def test_collect_counts_every_face_by_die_size():
    dev = play(FakeDevice(system=0), 150)
    faces, rolls, c = stats.collect(0, dev.c.cid, None, dev.events(0))
    total = sum(len(cp.codec.decode_event(e)[2]) for e in dev.events(0))
    assert sum(sum(v) for v in faces.values()) == total
    assert 6 in faces and all(len(v) == s for s, v in faces.items())
    assert cp.encode_state(c) == cp.encode_state(dev.c)
    assert set(rolls) <= {-1, 0, 1} and sum(r[0] for r in rolls.values()) > 0
    assert all(0 <= r[1] <= r[0] for r in rolls.values())


def test_hunt_heal_d3_is_counted_as_d3():
    c = cp.Campaign(0, 1)
    c.act(cp.CHAR_ADD, (), "Ada")
    c.act(39, (0, 0), faces=b"\x02\x03")   # REST: 1d3 per spend code
    faces, _r, _c = stats.collect(0, 1, None, c.events)
    assert faces == {3: [0, 1, 1]}


def test_stats_command_and_plot(tmp_path, capsys, monkeypatch):
    dev = play(FakeDevice(system=1), 120)
    monkeypatch.setattr(commands, "open_device", lambda port, timeout, **kw: dev)
    png = tmp_path / "h.png"
    assert commands.main(["stats", "--json", "--plot", str(png)]) == 0
    import json
    rep = json.loads(capsys.readouterr().out)
    d12 = [d for d in rep["dice"] if d["sides"] == 12][0]
    assert d12["df"] == 11 and 0 <= d12["p"] <= 1 and len(d12["counts"]) == 12
    assert {c["name"] for c in rep["characters"]} <= {"Ada", "Bo", "(nobody)"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
