"""Screen logic of the device app (ui/) on a fake board and an in-RAM
session: runs under pytest on CPython and on MicroPython (tests/mpy_run.py).

The fake display keeps the 16x8 text grid the screens draw on, so the
tests read the screen as text; the full firmware with the real framebuffer
is covered by tests/host/test_journeys.py in the simulator.
"""

from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from rules import campaign as cp, core, hunt, expedition, odds
from ui import app as uiapp, paths_more, poolodds

from fakeapp import FakeBoard, RamSession, make, press, long, flash, boot


def test_home_hunt_trackers_and_menu():
    a, b, s = make()
    rows = b.display.rows
    assert rows[0].startswith("HUNT") and rows[0].endswith("#0")
    assert rows[1] == "Tension      0/3" and rows[2] == "Pressure     0/6"
    assert rows[3] == "Sin          0/8" and rows[4] == "Roll" and b.display.inv[4]


def _lit(leds):
    """The LEDs of a ring frame that are lit, by number."""
    return [i for i in range(len(leds) // 3) if leds[3 * i] | leds[3 * i + 1] | leds[3 * i + 2]]


def test_the_ring_lights_as_many_leds_as_home_says_slashes():
    # Home said "Pressure 0/6" while the ring lit six LEDs
    # (the capacity's empty slots glowing). The rules count slashes
    # (docs/rules/hunt.md: pressure full, the hunt is lost): the ring lights
    # one LED a slash, the number home shows, and nothing for an empty slot.
    a, b, s = make()
    for _ in range(3):
        b.now += a.step()
    assert b.display.rows[2] == "Pressure     0/6" and _lit(b.leds.last) == []
    for k, want in ((2, [0, 1]), (3, [0, 1, 2, 3, 4]), (1, [0, 1, 2, 3, 4, 5])):
        out = s.do(cp.SLASH, (s.c.find(hunt.ROLE_PRESSURE), k, 0))
        a.applied(cp.SLASH, out)
        a.render()
        for _ in range(60):                    # past the action's ring animation
            b.now += a.step()
        n = len(want)
        assert b.display.rows[2] == "Pressure     %d/6" % n, b.display.rows
        assert _lit(b.leds.last) == want, (n, b.leds.last)


def test_builder_odds_follow_each_change():
    a, b, s = make()
    rows = press(a, K_OK)
    assert rows[0] == "ROLL         0d6" or rows[0] == "ROLL     2d6 low"
    assert rows[7] == "Odds " + odds.fmt_permille(odds.builder_odds(0, 0, 1))
    rows = press(a, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT)  # skill 3
    assert rows[0] == "ROLL         3d6"
    assert rows[7] == "Odds 87.5%"
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_RIGHT)  # hard
    assert rows[7] == "Odds " + odds.fmt_permille(odds.builder_odds(0, 3, 1, 1))


def test_roll_from_any_screen_logs_before_showing():
    a, b, s = make()
    press(a, K_DOWN, K_DOWN, K_OK)  # talismans
    rows = press(a, K_ROLL)
    assert rows[0].startswith("RESULT")
    assert len(s.log) == 1 and s.log[0][0] == hunt.ROLL
    out = s.c.last
    assert rows[1] == " ".join(str(f) for f in out.faces)
    assert a.anim == 0  # the ring animation started


def test_slash_carries_and_long_back_undoes():
    a, b, s = make()
    press(a, K_DOWN, K_DOWN, K_OK, K_DOWN)
    rows = press(a, K_RIGHT, K_RIGHT, K_RIGHT)
    # Tension full: its notes are more than the two toast rows, so they open
    # on a page, the consequence that matters first (the Sin's capacity).
    assert rows == ["OUTCOME", "Pressure 1/6:", "Sin capacity 9", "Tension 0/3",
                    "Tension full:", "pressure +1", "", "OK: close"]
    rows = press(a, K_RIGHT)                         # Left, Right, Roll: not a close
    assert rows[0] == "OUTCOME"
    rows = press(a, K_OK)
    assert "Pressure     1/6" in rows and "Sin          0/9" in rows
    assert rows[6:8] == ["Pressure 1/6:", "Sin capacity 9;"]
    rows = long(a, K_BACK)
    assert "Tension      2/3" in rows and "Sin          0/8" in rows and rows[6] == "Undone"
    rows = long(a, K_OK)  # redo: the slash again, its notes again
    assert rows[0] == "OUTCOME" and rows[1:3] == ["Pressure 1/6:", "Sin capacity 9"]
    rows = press(a, K_OK)
    assert "Pressure     1/6" in rows and rows[6] == "Redone"


def test_refusal_is_shown_and_changes_nothing():
    a, b, s = make()
    press(a, K_OK, K_DOWN, K_DOWN, K_DOWN, K_RIGHT)  # divine agony with nobody rolling
    rows = press(a, K_OK)
    assert rows[0] == "REFUSED" and "divine agony" in " ".join(rows)
    assert s.log == [] and s.c.nevents == 0
    rows = press(a, K_OK)  # dismissed: back on the builder
    assert rows[0].startswith("ROLL")


def test_hidden_difficulty_needs_gm_view():
    a, b, s = make(1)
    press(a, K_OK, K_DOWN, K_DOWN, K_DOWN, K_RIGHT)     # Skill 2 (under `Test of`)
    for _ in range(5):
        press(a, K_DOWN)
    press(a, K_RIGHT)  # hidden
    assert a.pool.v["hidden"] == 1
    rows = press(a, K_ROLL)
    text = " ".join(rows)
    assert "hidden" in text and "SUCCESS" not in text and "FAILURE" not in text
    rows = long(a, K_OK)
    v = "SUCCESS" if s.c.last.verdict else "FAILURE"
    assert rows[2].endswith(v) and rows[3].endswith("GM")


def test_key_in_faces_by_hand():
    a, b, s = make()
    press(a, K_OK, K_DOWN, K_RIGHT, K_RIGHT)  # skill 2: 2d6
    rows = long(a, K_ROLL)
    assert rows[0].startswith("KEY IN") and rows[4].startswith("0 of 2")
    press(a, K_DOWN, K_OK)  # a 6
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK)  # a 3
    rows = press(a, K_LEFT)  # remove the 3
    assert rows[1] == "6" and rows[4].startswith("1 of 2")
    press(a, K_OK)  # the 3 again
    rows = press(a, K_OK)
    assert rows[0].startswith("RESULT") and rows[1] == "6 3" and rows[2].endswith("SUCCESS")
    assert s.c.last.faces == b"\x06\x03"


def test_paths_helpers_decide_the_faces_needed():
    c = cp.Campaign(1)
    p = paths_more.Pool()
    p.v["pskill"], p.v["path"], p.v["h1"] = 2, 1, 2
    assert p.need(c, b"") == 2 + 3
    assert p.need(c, b"\x0c\x0c") == 2 + 3 + 2    # 4 successes, capped at Skill 2
    assert p.need(c, b"\x01\x07") == 2 + 3 + 1
    # odds with a helper lie between the bare pool and the pool + cap
    lo = odds.builder_odds(1, 3, 3)
    hi = odds.builder_odds(1, 5, 3)
    p.v["diff"] = 3
    text = poolodds.line(p, c)
    assert text.endswith("%~")  # within the table: a permille mixture
    pm = int(text.split()[1][:-2].replace(".", ""))
    assert lo < pm < hi
    # The mixture against the exact probability (integers: MicroPython
    # has no fractions): Skill 2 caps the bonus at 2; helper 2 dice.
    h = odds.dist(1, 2)                      # helper successes, over 144
    hd = [h[0], h[1], 144 - h[0] - h[1]]     # bonus 0, 1, 2 (capped)
    num = 0
    for b in range(3):
        num += hd[b] * odds.p_at_least(odds.dist(1, 3 + b), 3) * 12 ** (2 - b)
    exact = odds.permille(num, 144 * 12 ** 5)
    assert abs(pm - exact) <= 1, (pm, exact)


def test_expedition_turns_show_the_check():
    a, b, s = make(2)
    assert b.display.rows[1] == "Turn 0     day 1"
    press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)
    rows = press(a, K_OK, K_OK)
    assert rows[0] == "OUTCOME" and " ".join(rows[1:7]).startswith("encounter check")
    rows = press(a, K_OK)
    assert rows[:3] == ["TURN 2     day 1", "Next encounter 2", "Next usage     2"]
    assert rows[6].startswith("encounter check")
    assert s.c.x[expedition.TURN_N] == 2


def test_settings_new_campaign_behind_confirmation():
    a, b, s = make()
    press(a, K_UP, K_OK, K_RIGHT)  # settings, system -> paths
    rows = press(a, K_OK)
    assert rows[0] == "NEW CAMPAIGN?"
    rows = press(a, K_BACK)
    assert rows[0] == "SETTINGS" and s.c.system == 0
    rows = press(a, K_OK, K_OK)
    assert rows[0].startswith("PATHS") and s.c.system == 1
    press(a, K_UP, K_OK, K_DOWN, K_LEFT)
    assert s.bright == 2


def test_idle_loop_draws_nothing_and_allocates_nothing():
    a, b, s = make()
    while not a.warm:            # the first idle moments' one-time work (App.idle)
        b.now += a.step()
    a.step()
    shows, writes = b.display.shows, b.leds.writes
    try:
        import micropython
    except ImportError:
        micropython = None
    if not hasattr(micropython, "heap_lock"):  # CPython (even with a stub module)
        micropython = None
    if micropython is not None:
        micropython.heap_lock()
    try:
        for _ in range(50):
            ms = a.step()
            b.now += ms
    finally:
        if micropython is not None:
            micropython.heap_unlock()
    assert b.display.shows == shows and b.leds.writes == writes
    b.raw = K_DOWN
    for _ in range(3):
        b.now += a.step()
    assert b.display.shows == shows + 1  # a key: one redraw


def test_key_in_marks_say_what_the_keys_do():
    a, b, s = make()
    press(a, K_OK, K_DOWN, K_RIGHT, K_RIGHT)  # skill 2: 2d6
    rows = long(a, K_ROLL)
    assert rows[4] == "0 of 2 faces"
    assert rows[5] == "Up/Down face   1" and b.display.inv[5]
    assert rows[6] == "OK: add face" and rows[7] == ""  # nothing to erase yet
    rows = press(a, K_RIGHT)                             # Right does nothing
    assert rows[5] == "Up/Down face   1" and rows[4] == "0 of 2 faces"
    rows = press(a, K_UP, K_UP)
    assert rows[5] == "Up/Down face   3"
    rows = press(a, K_OK)
    assert rows[1] == "3" and rows[4] == "1 of 2 faces" and rows[7] == "Left: erase last"
    rows = press(a, K_LEFT)                              # erases the 3
    assert rows[1] == "no faces yet" and rows[7] == ""
    rows = press(a, K_OK, K_OK)
    assert rows[4] == "2 of 2 faces" and rows[5] == "OK/Roll: apply" and rows[6] == ""
    assert rows[7] == "Left: erase last"
    assert all(len(r) <= 16 for r in rows)


def test_settings_system_row_shows_it_changes_and_fits():
    a, b, s = make()
    rows = press(a, K_UP, K_OK)
    assert rows[1] == "System    <hunt>" and b.display.inv[1]
    rows = press(a, K_RIGHT)
    assert rows[1] == "System   <paths>"
    rows = press(a, K_RIGHT)
    assert rows[1] == "Sys <expedition>"
    rows = press(a, K_RIGHT)                         # the last: it stays
    assert rows[1] == "Sys <expedition>"
    rows = press(a, K_OK)
    assert rows[0] == "NEW CAMPAIGN?" and rows[2:4] == ["System:", "expedition"]
    assert rows[4:8] == ["The current one", "stays on flash.", "OK: start", "Back: cancel"]
    assert all(len(r) <= 16 for r in rows)


def test_undo_from_the_builder_says_undone():
    a, b, s = make()
    rows = press(a, K_OK, K_DOWN, K_RIGHT)        # the builder, skill 1
    odds_row = rows[7]
    assert odds_row.startswith("Odds ")
    rows = press(a, K_ROLL)
    assert rows[0].startswith("RESULT")
    rows = press(a, K_OK)                          # back on the builder: the odds, not the roll's notes
    assert rows[0].startswith("ROLL") and rows[7] == odds_row
    rows = long(a, K_BACK)                         # undo the roll
    assert rows[0].startswith("ROLL") and rows[7] == "Undone"
    assert s.log[-1][0] == cp.UNDO
    rows = press(a, K_DOWN)                        # the next key: the odds again
    assert rows[7] == odds_row
    rows = long(a, K_OK)                           # redo
    assert rows[7] == "Redone"
    rows = press(a, K_RIGHT)
    assert rows[7].startswith("Odds ")


def test_deleting_a_clock_says_undo_brings_it_back():
    a, b, s = make(1)                              # paths: no standing talismans
    press(a, K_DOWN, K_DOWN, K_OK)                 # talismans
    rows = press(a, K_OK, K_OK)                    # + new, capacity 4
    assert rows[1] == "Clock 1      0/4"
    assert a.top().menu.sel == 0                   # the cursor on the new clock
    rows = press(a, K_OK)                          # Clock 1: Clear / Delete
    assert rows[0] == "Clock 1"
    rows = press(a, K_DOWN, K_OK)                  # Delete: no question asked
    assert rows[0] == "TALISMANS      0" and rows[1] == "+ new"
    assert rows[6:8] == ["Deleted. Undo:", "long Back"]
    assert s.c.tals[0] is None
    rows = long(a, K_BACK)
    assert rows[1] == "Clock 1      0/4" and rows[6] == "Undone"
    assert s.c.tals[0] is not None and s.c.tals[0].name == "Clock 1"


def _with_warning(text):
    b = FakeBoard()
    s = RamSession()
    s.warnings = [("STORE DAMAGE", text)]
    a = uiapp.App(b, s)
    a.render()
    return a, b


def test_a_long_boot_message_pages():
    text = "\n".join("line %d of 20" % (i + 1) for i in range(20))
    a, b = _with_warning(text)                     # 20 lines: pages of 6
    rows = b.display.rows
    assert rows[0] == "STORE DAMAGE 1/4" and b.display.inv[0]
    assert rows[1:7] == ["line %d of 20" % (i + 1) for i in range(6)]
    assert rows[7] == "Down/OK: more"
    seen = rows[1:7]
    rows = press(a, K_DOWN)
    assert rows[0] == "STORE DAMAGE 2/4"
    seen += rows[1:7]
    rows = press(a, K_OK)                          # OK reads on, too
    assert rows[0] == "STORE DAMAGE 3/4"
    seen += rows[1:7]
    rows = press(a, K_DOWN)
    assert rows[0] == "STORE DAMAGE 4/4" and rows[7] == "OK: close"
    assert rows[3:7] == ["", "", "", ""]
    seen += rows[1:3]
    assert seen == ["line %d of 20" % (i + 1) for i in range(20)]  # every line, once
    rows = press(a, K_DOWN)                        # no page after the last
    assert rows[0] == "STORE DAMAGE 4/4"
    rows = press(a, K_UP)
    assert rows[0] == "STORE DAMAGE 3/4"
    rows = press(a, K_DOWN, K_OK)                  # OK on the last page closes it
    assert rows[0].startswith("HUNT")


def test_a_long_boot_message_closes_with_back_and_a_short_one_fits():
    a, b = _with_warning("\n".join("line %d" % i for i in range(9)))
    assert b.display.rows[0] == "STORE DAMAGE 1/2"
    rows = press(a, K_BACK)
    assert rows[0].startswith("HUNT")
    a, b = _with_warning("\n".join("line %d" % i for i in range(7)))
    rows = b.display.rows
    assert rows[0] == "STORE DAMAGE" and rows[1:8] == ["line %d" % i for i in range(7)]
    rows = press(a, K_DOWN)                        # one page: Down keeps it
    assert rows[0] == "STORE DAMAGE"
    rows = press(a, K_OK)
    assert rows[0].startswith("HUNT")


# --- the first run's tour (ui/first.py) -----------------------------------------

TOUR1 = ["KEYS  Back: skip", "Up/Down: move", "Left/Right: -/+", "OK: open, choose",
         "Back: go back", "Roll: roll dice", "Hold: long press", "OK: next     1/3"]
TOUR2 = ["ROLL  Back: skip", "Press Roll now:", "it rolls the", "dice set in the",
         "Roll menu and", "shows each die", "and the verdict.", "OK: next     2/3"]
TOUR3 = ["UNDO  Back: skip", "Hold Back: undo", "the last action,", "a roll or slash.",
         "Hold OK: redo.", "Try it now.", "", "OK: done     3/3"]
HOME = ["HUNT          #0", "Tension      0/3", "Pressure     0/6", "Sin          0/8",
        "Roll", "Key in dice", "Talismans", "Characters"]


def test_a_first_run_starts_on_the_tour_and_its_pages_read_as_meant():
    a, b, s = make(new=True)
    fb = b.display
    assert fb.rows == TOUR1 and fb.inv == [True] + [False] * 7
    assert type(a.top()).__name__ == "Tour" and len(a.stack) == 2  # home under it
    rows = press(a, K_UP, K_DOWN)                  # nothing to move: the page stays
    assert rows == TOUR1
    rows = press(a, K_OK)
    assert rows == TOUR2 and fb.inv[0]
    rows = press(a, K_LEFT)                        # Left: the page before
    assert rows == TOUR1
    rows = press(a, K_LEFT)                        # no page before the first
    assert rows == TOUR1
    rows = press(a, K_RIGHT, K_RIGHT)              # Right reads on, as OK does
    assert rows == TOUR3
    for page in (TOUR1, TOUR2, TOUR3):
        assert all(len(r) <= 16 for r in page)
    assert s.log == [] and s.saves == 0 and s.new  # reading the tour changed nothing
    rows = press(a, K_OK)                          # OK on the last page: done
    assert rows == HOME and b.display.inv[4]       # home, the cursor on Roll
    assert s.saves == 1 and not s.new and len(a.stack) == 1  # ended: settings saved


def test_back_skips_the_tour_from_any_page():
    for oks in (0, 1, 2):
        a, b, s = make(new=True)
        press(a, *([K_OK] * oks))
        rows = press(a, K_BACK)
        assert rows == HOME and s.saves == 1 and not s.new and len(a.stack) == 1, oks
        rows = press(a, K_BACK)                    # home stays home: no tour left under it
        assert rows == HOME


def test_the_tour_rolls_then_undoes_and_redoes():
    a, b, s = make(new=True)
    press(a, K_OK)
    rows = press(a, K_ROLL)                        # "Press Roll now": the builder's pool
    assert rows[0] == "RESULT   2d6 low" and s.log[0][0] == hunt.ROLL
    assert rows[1] == " ".join(str(f) for f in s.c.last.faces)
    rows = press(a, K_OK)                          # the result closes: the undo page
    assert rows == TOUR3
    rows = long(a, K_BACK)                         # the roll undone, said on the page
    assert rows[6] == "Undone" and rows[:6] == TOUR3[:6] and rows[7] == TOUR3[7]
    assert s.log[-1][0] == cp.UNDO and s.c.nevents == 2
    rows = press(a, K_LEFT, K_RIGHT)               # the next key: the note goes
    assert rows == TOUR3
    rows = long(a, K_OK)
    assert rows[6] == "Redone" and s.log[-1][0] == cp.REDO
    rows = press(a, K_OK)
    assert rows[0] == "HUNT          #3" and s.saves == 1


def test_roll_on_the_keys_page_rolls_and_turns_to_undo():
    a, b, s = make(new=True)
    rows = press(a, K_ROLL)
    assert rows[0].startswith("RESULT") and len(s.log) == 1
    rows = press(a, K_BACK)                        # Back closes the result, not the tour
    assert rows == TOUR3 and s.saves == 0


def test_not_new_no_tour_and_no_import():
    import sys
    import ui
    sys.modules.pop("ui.first", None)              # as if never imported (other tests did)
    if hasattr(ui, "first"):
        del ui.first
    a, b, s = make()
    assert b.display.rows == HOME and len(a.stack) == 1
    assert "ui.first" not in sys.modules           # a normal boot never loads it
    make(new=True)
    assert "ui.first" in sys.modules


_SYSTEM_UI = ("ui.hunt", "ui.hunt_more", "ui.paths", "ui.paths_more", "ui.expedition",
              "ui.expedition_more")


def _forget_system_ui():
    """As if no system's screens were ever imported (other tests did)."""
    import sys
    import ui
    from ui import home, systems
    for name in _SYSTEM_UI:
        sys.modules.pop(name, None)
        if hasattr(ui, name[3:]):
            delattr(ui, name[3:])
    for i in range(3):
        home._loaded[i] = None
        systems._loaded[i] = None


def _loaded_system_ui():
    import sys
    return [name for name in _SYSTEM_UI if name in sys.modules]


def test_a_campaign_loads_the_screens_of_its_own_system_only():
    # Each rule system's screens are modules of its own,
    # loaded as rules.systems loads the rules: ui/hunt.py with home, ui/
    # hunt_more.py when the builder, Scenes or a sheet first needs it; a
    # hunt campaign never loads those of paths or expedition.
    _forget_system_ui()
    a, b, s = make()
    assert _loaded_system_ui() == ["ui.hunt"]          # the boot: home and the ring
    rows = press(a, K_OK)                               # the builder
    assert rows[0] == "ROLL     2d6 low" and _loaded_system_ui() == ["ui.hunt", "ui.hunt_more"]
    press(a, K_ROLL, K_BACK, K_BACK)
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)   # Scenes
    assert rows[0] == "SCENE 0" and rows[1] == "Tension 0/3"
    press(a, K_BACK, K_DOWN, K_DOWN, K_DOWN, K_OK, K_OK, K_OK)   # Characters, + add, her sheet
    assert a.top().fields[0] == "stress"
    press(a, K_BACK, K_BACK, K_BACK)
    assert _loaded_system_ui() == ["ui.hunt", "ui.hunt_more"]
    # expedition's own: its home, then its builder; never paths'
    _forget_system_ui()
    a, b, s = make(2)
    assert _loaded_system_ui() == ["ui.expedition"]
    press(a, K_OK)
    assert _loaded_system_ui() == ["ui.expedition", "ui.expedition_more"]
    assert a.pool.fields()[0] == "mode" and "bab" in a.pool.v and "skill" not in a.pool.v   # expedition's fields


def test_the_tour_once_on_a_blank_flash_then_never():
    fs = flash()
    a, b, s = boot(fs)                            # blank: campaign 1 made now
    assert s.new and b.display.rows == TOUR1
    assert "/dicetray/ui.txt" not in fs.files
    a, b, s = boot(fs)                            # off before the tour ended, nothing done:
    assert s.new and b.display.rows == TOUR1       # still a new tray
    rows = press(a, K_OK, K_BACK)                  # skipped
    assert rows[0] == "HUNT          #0" and not s.new
    assert bytes(fs.files["/dicetray/ui.txt"]) == b"bright=3\n"  # the settings, saved
    a, b, s = boot(fs)                            # the same flash again: straight home
    assert not s.new and b.display.rows == HOME
    a.set_bright(2)
    a, b, s = boot(fs)
    assert not s.new and s.bright == 2 and b.display.rows[0] == "HUNT          #0"


def test_a_flash_with_a_campaign_never_shows_the_tour():
    fs = flash()
    a, b, s = boot(fs)
    press(a, K_ROLL)                               # the first event, the tour never ended
    assert "/dicetray/ui.txt" not in fs.files
    a, b, s = boot(fs)                            # a used campaign: home
    assert not s.new and b.display.rows[0] == "HUNT          #1"
    fs = flash()
    a, b, s = boot(fs)
    s.new_campaign(1)                              # campaign 2, no event yet
    a, b, s = boot(fs)
    assert s.n == 2 and not s.new and b.display.rows[0] == "PATHS         #0"


def test_rename_a_character_with_the_keys_and_undo_it():
    a, b, s = make()
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK)           # Characters
    rows = press(a, K_OK)                            # + add: Ada
    assert "Ada" in rows
    press(a, K_OK)                                   # Ada's sheet
    n = len(a.top().menu.items)
    rows = press(a, *([K_DOWN] * (n - 1)))
    assert a.top().menu.items[-1] == "Rename" and b.display.inv[a.top().menu.r0 + min(n - 1, 4)]
    rows = press(a, K_OK)
    assert rows[0] == "RENAME" and rows[2] == "Ada" and rows[3] == "  ^"
    rows = press(a, K_RIGHT, K_UP, K_UP)             # past the end: a letter added, turned
    assert rows[2] == "AdaB" and rows[3] == "   ^"
    rows = press(a, K_LEFT, K_ROLL)                  # delete the 'a'
    assert rows[2] == "AdB"
    rows = press(a, K_OK)
    assert s.c.chars[0].name == "AdB" and s.log[-1][0] == cp.RENAME
    assert rows[0] == "AdB"                          # back on the sheet, its new name
    long(a, K_BACK)                                  # undo
    assert s.c.chars[0].name == "Ada"


def test_rename_a_talisman_and_back_keeps_the_name():
    a, b, s = make()
    press(a, K_DOWN, K_DOWN, K_OK)                   # Talismans
    rows = press(a, K_OK)                            # Pressure's menu
    assert "Rename" in rows
    rows = press(a, K_DOWN, K_DOWN, K_OK)
    assert rows[0] == "RENAME" and rows[2] == "Pressure"
    rows = press(a, K_DOWN)                          # 'e' turned back to 'd'
    assert rows[2] == "Pressurd"
    press(a, K_BACK)                                 # Back: nothing saved
    assert s.c.tals[0].name == "Pressure" and not any(e[0] == cp.RENAME for e in s.log)
    press(a, K_OK, K_DOWN, K_DOWN, K_OK, K_ROLL, K_ROLL, K_OK)   # delete 'e', then backspace
    assert s.c.tals[0].name == "Pressu"
    assert "Pressu" in press(a)


def test_names_the_screen_cannot_draw_are_refused():
    c = cp.Campaign(0, 1)
    for bad in ("", " Ada", "Ada ", "A" * 13, "Zo\u00eb", "tab\there"):
        try:
            c.act(cp.CHAR_ADD, (), bad)
        except ValueError as e:
            assert str(e).startswith(core.NAME_RULE), str(e)
        else:
            raise AssertionError("accepted %r" % bad)
    c.act(cp.CHAR_ADD, (), "O'Neil-Smith")
    for args, text in (((0, 0), "A" * 13), ((1, 0), "x\u00e9")):
        try:
            c.act(cp.RENAME, args, text)
        except ValueError as e:
            assert core.NAME_RULE in str(e)
        else:
            raise AssertionError("accepted %r" % text)
    c.act(cp.RENAME, (0, 0), "Abcdefghijkl")         # 12: the limit
    assert c.chars[0].name == "Abcdefghijkl"
    # A name accepted by an older firmware still replays (apply checks no name).
    old = cp.codec.encode_event(cp.CHAR_ADD, (), b"", "Zo\u00eb, a name of 22 B")
    c2 = cp.Campaign(0, 1)
    c2.apply(old)
    assert c2.chars[0].name.startswith("Zo")
