"""The enclosure (hardware/enclosure.py): printed parts that are
closed solids, overlap nothing, hold every bought part with the clearance
the table names, have walls and floors at least the table's minimum,
openings in line with the parts they serve, no overhangs, and fit the
print bed; and the same checks fail when one table entry is changed so
that something collides. Needs build123d (the [hardware] extra, which
`make test` installs); without it this module skips with one line, and
DICETRAY_HARDWARE_REQUIRED=1 (set by .ci/run) turns that into a failure."""
import copy
import os

import pytest


if not os.environ.get("DICETRAY_HARDWARE_REQUIRED"):
    pytest.importorskip("build123d", reason="build123d missing: pip install -e '.[hardware]'",
                        exc_type=ImportError)   # also a broken OpenCascade install

import enclosure as E
import enclosure_check as C
from hw.keys import NAMES
from rules.dice import MAX_POOL


@pytest.fixture(scope="session")
def model():
    return E.build()


@pytest.fixture(scope="session")
def files(model, tmp_path_factory):
    out = tmp_path_factory.mktemp("enclosure")
    return E.write(model, str(out), renders=False)


def _stls(files):
    return [f for f in files if f.endswith(".stl")]


# --- the checks on the real table --------------------------------------------
def test_every_part_is_one_valid_closed_solid(model, files):
    import build123d as b
    for name, part in model.parts.items():
        assert part.is_valid, name
        assert len(part.solids()) == 1, "%s is %d solids" % (name, len(part.solids()))
        assert part.volume > 0, name
        step = b.import_step(os.path.join(os.path.dirname(files[0]), name + ".step"))
        assert step.is_valid and abs(step.volume - part.volume) < 1e-3 * part.volume, name
    assert sorted(os.path.basename(f) for f in _stls(files)) == sorted(p + ".stl" for p in E.PARTS)
    for path in _stls(files):
        assert C.stl_problems(path, 1e9, 1e9) == []


def test_no_part_overlaps_another_or_a_component(model):
    assert C.collisions(model) == []


def test_components_fit_their_pockets_with_the_tables_clearance(model):
    assert C.fits(model) == []


def test_walls_and_floors_at_least_the_tables_minimum(model):
    assert C.thickness(model) == []


def test_openings_line_up_with_their_parts(model):
    assert C.openings(model) == []


def test_parts_print_without_supports(model):
    assert C.overhangs(model) == []


def test_stl_files_fit_the_print_bed(model, files):
    t = model.table
    for path in _stls(files):
        assert C.stl_problems(path, t["bed_x"], t["bed_y"]) == []
        tri = C.read_stl(path).reshape(-1, 3)
        assert abs(tri[:, 2].min()) < 1e-3, "%s is not on the bed" % path


def test_keypad_follows_the_firmwares_keys(model):
    """Every key the firmware names has a place: arrows in a diamond round
    OK, BACK beside them, ROLL (the arcade button) right of all; the OLED in
    front of the tray; the ring under the tray's centre, where dice land."""
    t = model.table
    pos = E.key_positions(t)
    assert sorted(pos) == sorted(NAMES)
    ok = pos["OK"]
    p = t["key_pitch"]
    assert pos["UP"] == (ok[0], ok[1] + p) and pos["DOWN"] == (ok[0], ok[1] - p)
    assert pos["LEFT"] == (ok[0] - p, ok[1]) and pos["RIGHT"] == (ok[0] + p, ok[1])
    assert abs(pos["BACK"][0] - ok[0]) == p and abs(pos["BACK"][1] - ok[1]) == p
    assert all(pos["ROLL"][0] > x + p for k, (x, _y) in pos.items() if k != "ROLL")
    assert t["oled_y"] + t["oled_h"] / 2 < t["tray_y"] - t["tray_d"] / 2
    ring = model.components["ring"]["pcb"].bounding_box().center()
    assert (round(ring.X, 6), round(ring.Y, 6)) == (t["tray_x"], t["tray_y"])


def test_each_key_cap_carries_its_keys_symbol(model):
    """The six caps were identical and unlabelled. Each is
    printed with its key's symbol raised on its top: the arrows point their
    way (a triangle's centroid lies a sixth of its height behind the middle
    of its box, away from the tip), OK is a ring (nothing at its middle),
    BACK a U-turn arrow, not LEFT's triangle; printed standing up, its
    socket on the switch's plunger."""
    import build123d as b
    t = model.table
    top = E.cap_levels(t)[2]
    assert sorted(E.CAPS) == sorted("cap_" + k for k in NAMES if k != "ROLL")
    raised = {}
    for key, (x, y) in E.key_positions(t).items():
        if key == "ROLL":
            continue
        r = model.parts["cap_" + key] & E.cyl(x, y, top, t["cap_d"], 50)
        raised[key] = b.Pos(-x, -y, -top) * r
        bb = raised[key].bounding_box()
        assert abs(bb.max.Z - t["symbol_h"]) < 1e-6 and r.volume > 5, key
        assert max(bb.size.X, bb.size.Y) <= t["symbol_w"] + 1e-6, key
    for key, (dx, dy) in (("UP", (0, 1)), ("DOWN", (0, -1)), ("LEFT", (-1, 0)), ("RIGHT", (1, 0))):
        bb, c = raised[key].bounding_box(), raised[key].center()
        off = (c.X - bb.center().X, c.Y - bb.center().Y)
        assert off[0] * dx + off[1] * dy < -0.5, (key, off)      # behind the middle: tip ahead
        assert abs(off[0] * dy) + abs(off[1] * dx) < 1e-6, (key, off)
    hole = b.Pos(0, 0, 0.1) * b.Box(1, 1, 0.2)
    assert (raised["OK"] & hole).volume < 1e-9 and (raised["UP"] & hole).volume > 0.1
    assert abs((raised["BACK"] - raised["LEFT"]).volume) > 1
    assert C.symbols(model) == []
    # the STL of a cap is one closed surface standing on the bed, its top up
    cap = E.print_ready(model, "cap_OK").bounding_box()
    assert abs(cap.min.Z) < 1e-6 and abs(cap.max.Z - (top + t["symbol_h"] - E.cap_levels(t)[0])) < 1e-6


def test_the_dice_well_is_sized_for_the_largest_pools():
    """A 100 mm well for the 20-dice pools the rules allow
    (rules/dice.py MAX_POOL: paths' d12, expedition's d6). The well's
    diameter is no longer an entry: well_d() derives it from the pools and
    the dice, and it holds them (holds()), where a millimetre less would not."""
    t = E.table()
    assert t["pool_d6"] == t["pool_d12"] == MAX_POOL
    assert "tray_d" not in E.TABLE and t["tray_d"] == E.well_d(t) == 127.0
    d6, d12 = E.holds(t)
    assert (d6, d12) == (24, 20) and d6 >= MAX_POOL and d12 >= MAX_POOL
    small = dict(t, tray_d=t["tray_d"] - 1)
    assert min(E.holds(small)[0] - MAX_POOL, E.holds(small)[1] - MAX_POOL) < 0
    assert E.holds(dict(t, tray_d=100.0)) == (15, 12)      # the old well: 15 d6 or 12 d12
    assert E.table(pool_d12=10, pool_d6=10)["tray_d"] < t["tray_d"]
    with pytest.raises(ValueError, match="no table entry 'tray_d'"):
        E.table(tray_d=100)
    # the tray at the back of the lid, its rim tray_back from the edge
    assert t["tray_y"] + t["tray_d"] / 2 + t["tray_rim"] + t["tray_back"] == t["box_d"] / 2


@pytest.mark.parametrize("variant", [{"oled": "sh1106"}, {"arcade": "24"}, {"ring": "ring50"}])
def test_other_parts_pass_every_check(variant):
    assert C.check(E.build(E.table(**variant))) == []


# --- the checks fail when the table makes something collide ---------------------------
# (entry, value, check, what it must report)
MUTATIONS = [
    ("box_h", 36.0, C.collisions, "base and arcade.switch overlap"),   # box too low for ROLL
    ("key_clear", -0.2, C.collisions, "lid and cap_UP overlap"),       # lid holes under the caps
    ("oled_x", -30.0, C.collisions, "oled.pcb and keypad.bodies overlap"),  # OLED onto the keypad
    ("wall", 1.5, C.thickness, "base wall is 1.50 mm thick"),          # walls under wall_min
    ("oled_margin", -1.0, C.openings, "the lid covers part of the OLED's active area"),
    ("overhang_max", 30.0, C.overhangs, "base: "),                   # the USB opening's 45 deg roof
    ("bed_x", 170.0, C.bed, "over the 170 x 220 mm bed"),
    ("symbol_h", 0.3, C.symbols, "the UP key's symbol is 0.30 mm high: under two layers"),
    ("symbol_w", 11.0, C.symbols, "the OK key's symbol reaches the edge of its cap"),
    ("cap_rise", 4.0, C.symbols, "a key cap's roof over its socket is 1.29 mm"),
    ("cap_socket_clear", -0.1, C.collisions, "keypad.plungers overlap"),   # a socket too small
    ("pool_d12", 40.0, C.collisions, "overlap"),     # a well for 40 d12 runs into the keys
]


@pytest.mark.parametrize("key,value,check,want", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_colliding_table_fails_the_checks(key, value, check, want):
    problems = check(E.build(E.table(**{key: value})))
    assert any(want in p for p in problems), problems


def test_the_fit_check_sees_a_pocket_not_sized_by_its_clearance(model):
    """A lid whose key holes are 0.5 mm wider than the caps + key_clear fails
    'exactly the clearance', though nothing collides."""
    import build123d as b
    t = model.table
    lid = model.parts["lid"]
    z = E.levels(t)["z_lid"]
    for k, (x, y) in E.key_positions(t).items():
        if k != "ROLL":
            lid = lid - b.Pos(x, y, z - 1) * b.Cylinder(t["cap_d"] / 2 + t["key_clear"] + 0.5, t["lid_t"] + 2,
                                                        align=(b.Align.CENTER, b.Align.CENTER, b.Align.MIN))
    model2 = copy.copy(model)
    model2.parts = dict(model.parts, lid=lid)
    assert C.collisions(model2) == []
    assert any("caps.caps in lid: more than key_clear" in p for p in C.fits(model2))


def test_make_enclosure_refuses_a_colliding_table(tmp_path, capsys):
    out = tmp_path / "out"
    assert E.main(["--out", str(out), "--set", "box_h=36", "--no-renders"]) == 1
    assert not out.exists()
    err = capsys.readouterr().err
    assert "base and arcade.switch overlap" in err and "nothing written" in err


def test_make_enclosure_says_its_checks_passed(tmp_path, capsys):
    """`make enclosure` printed the files it wrote and
    never that its checks passed; now it says so first, with what the well
    holds (docs/hardware.md quotes the line)."""
    assert E.main(["--out", str(tmp_path), "--no-renders"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("enclosure: every check passed (no collisions, every fit at its clearance, "
                      "walls and floors, openings, no overhangs, the print bed, the key caps' "
                      "symbols); the dice well is 127 mm across: it holds 24 d6 or 20 d12 lying "
                      "on its felt (pools of 20 d6 and 20 d12 asked)"), out[0]
    assert sorted(os.path.basename(p) for p in out[1:]) == sorted(
        [p + ext for p in E.PARTS for ext in (".step", ".stl")] + ["assembly.step"])


def test_renders_are_pictures(model, tmp_path):
    import enclosure_render
    from PIL import Image
    for exploded in (False, True):
        path = enclosure_render.render(model, str(tmp_path / "r.png"), exploded, size=(5, 4), longest=20)
        img = Image.open(path)
        assert img.size[0] > 200 and img.size[1] > 200
        assert len(img.convert("RGB").getcolors(1 << 16)) > 20, "%s looks blank" % path
