"""stats: the incomplete gamma / chi-square p-value against known values,
face tallies per die size, success rates, the histogram PNG; the devices
are the real firmware (RamTrays: tests/host/ramtray.py)."""
import json
import math

import pytest

from ramtray import RamTray, play, serve

from dicetray.campaign import stats
from dicetray.rules import campaign as cp


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
    tray = play(RamTray(system=0), 150)
    events = tray.device().events(0)
    faces, rolls, c = stats.collect(0, tray.c.cid, None, events)
    total = sum(len(cp.codec.decode_event(e)[2]) for e in events)
    assert sum(sum(v) for v in faces.values()) == total
    assert 6 in faces and all(len(v) == s for s, v in faces.items())
    assert cp.encode_state(c) == tray.state()
    assert set(rolls) <= {-1, 0, 1} and sum(r[0] for r in rolls.values()) > 0
    assert all(0 <= r[1] <= r[0] for r in rolls.values())


def test_hunt_heal_d3_is_counted_as_d3():
    c = cp.Campaign(0, 1)
    c.act(cp.CHAR_ADD, (), "Ada")
    c.act(39, (0, 0), faces=b"\x02\x03")   # REST: 1d3 per spend code
    faces, _r, _c = stats.collect(0, 1, None, c.events)
    assert faces == {3: [0, 1, 1]}


def test_stats_command_and_plot(tmp_path, capsys, monkeypatch):
    trays = serve({"dev": play(RamTray(system=1), 120)})
    png = tmp_path / "h.png"
    assert trays.main(["stats", "--json", "--plot", str(png)]) == 0
    import json
    rep = json.loads(capsys.readouterr().out)
    d12 = [d for d in rep["dice"] if d["sides"] == 12][0]
    assert d12["df"] == 11 and 0 <= d12["p"] <= 1 and len(d12["counts"]) == 12
    assert {c["name"] for c in rep["characters"]} <= {"Ada", "Bo", "(no character)"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_few_dice_get_a_small_sample_warning(capsys, monkeypatch):
    # three d6 and two d3: chi-square needs 5 expected per face (30 d6, 15 d3),
    # keyed in by hand on the tray (the faces rolled in it)
    tray = RamTray(system=0, cid=1)
    tray.act(cp.CHAR_ADD, (), "Ada")
    tray.act(32, (0, 3, 0, 0, 0, 0, -1), faces=b"\x06\x04\x01")
    tray.act(39, (0, 0), faces=b"\x01\x02")   # REST: a d3 per spend code (and no pressure die)
    rep = stats.report(0, 1, None, tray.journal())
    d3, d6 = rep["dice"]
    assert (d3["sides"], d3["rolls"], d6["sides"], d6["rolls"]) == (3, 2, 6, 3)
    for d in (d3, d6):
        assert d["small_sample"] is True and d["p"] is not None
        assert d["expected"] == round(d["rolls"] / d["sides"], 6)
        assert "chi-square needs at least 5 per face" in d["warning"]
    assert "3 d6 rolled: 0.5 expected per face" in d6["warning"]
    assert "(30 rolls of a d6)" in d6["warning"]

    trays = serve({"dev": tray})
    assert trays.main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "  d6        3 rolled" in out and "faces " not in out.split("counts")[0]
    line = [x for x in out.splitlines() if x.startswith("  d6 ")][0]
    assert "*" in line
    assert "  * 3 d6 rolled: 0.5 expected per face, and chi-square needs at least 5" in out
    assert trays.main(["stats", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert [d["small_sample"] for d in rep["dice"]] == [True, True]


def test_enough_dice_get_no_warning():
    tray = play(RamTray(system=0), 200)
    rep = stats.report(0, tray.c.cid, None, tray.device().events(0))
    d6 = [d for d in rep["dice"] if d["sides"] == 6][0]
    assert d6["rolls"] >= 30 and d6["small_sample"] is False and d6["warning"] is None


def test_the_plot_labels_dice_faces_and_counts():
    rep = {"dice": [{"sides": 6, "rolls": 3, "counts": [1, 0, 0, 1, 0, 1], "p": 0.4,
                     "small_sample": True},
                    {"sides": 3, "rolls": 1, "counts": [0, 1, 0], "p": None, "small_sample": True}]}
    fig = stats.figure(rep)
    try:
        ax6, ax3 = fig.axes
        assert ax6.get_title() == "d6: 3 dice rolled, chi-square p = 0.4 (too few rolls to judge)"
        assert ax3.get_title() == "d3: 1 die rolled"
        for ax in (ax6, ax3):
            assert ax.get_xlabel() == "face" and ax.get_ylabel() == "times rolled"
            assert "faces" not in ax.get_title()
        assert [t.get_text() for t in ax6.get_legend().get_texts()] == ["a fair die",
                                                                        "times rolled"]
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


def test_stats_of_a_campaign_with_no_rolls_says_so_under_each_heading(capsys):
    trays = serve({"dev": RamTray(system=0, cid=1)})
    assert trays.main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rates = lines.index("success rates (every roll, undone ones too):")
    assert lines[rates + 1:] == ["  no rolls yet"], lines     # not a heading over nothing
    assert "  no dice rolled" in lines
