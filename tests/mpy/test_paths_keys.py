"""paths' procedures on the device's own keys (runs under pytest
and on MicroPython): a prolonged test opened from the
builder (its Skill, total, timeframe, time limit, hidden) and rolled, a
finished one showing what was rolled, a character's Paths and Skills on
the sheet and the builder filling the pool from them (helpers too), and
the builder's cursor staying on Mode.

One app for the whole file (many App instances in one MicroPython test
VM can crash it): each test starts on home with the campaign undone back
to its two characters."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from rules import campaign as cp, codec, paths as P, paths_more as pm
from ui import paths_more
from ui.screen import lr
from fakeapp import one_app, press

_APP = []


def _app():
    """(app, session) on home, the campaign back at Ada and Bram, a new
    builder (not the newest roll's, undone)."""
    a, s = one_app(_APP, 1, ("Ada", "Bram"))
    a.pool = paths_more.Pool()
    return a, s


def _last(s):
    """(kind, args, faces, text) of the newest event journaled."""
    return codec.decode_event(s.log[-1])


def _sel(a):
    m = a.top().menu
    return m.items[m.sel]


def _prolonged(a):
    """The builder in Mode prolonged (the cursor on Mode)."""
    rows = press(a, K_OK)
    while a.pool.v["mode"] != 2:
        if a.top().menu.sel != 1:
            press(a, K_UP) if a.top().menu.sel > 1 else press(a, K_DOWN)
        rows = press(a, K_RIGHT)
    return rows


# --- a prolonged test opened on the device -----------------------------
def test_open_a_prolonged_test_hidden_with_a_time_limit_and_roll_it():
    a, s = _app()
    rows = _prolonged(a)
    assert rows[1] == lr("Mode", "prolonged") and rows[2] == lr("Test", "+ new")
    n = len(s.log)
    rows = press(a, K_ROLL)                                # Roll with no test: words, not -1
    assert rows[0] == "REFUSED" and " ".join(rows[1:5]) == \
        "no prolonged test picked: OK on Test + new opens one" and len(s.log) == n
    press(a, K_OK)
    rows = press(a, K_DOWN, K_OK)                          # OK on Test + new
    assert rows[0] == "PROLONGED TEST" and rows[7] == "OK: open it"
    assert rows[1:7] == [lr("Who", "<->"), lr("Skill", "Healing"), lr("Successes", "<8>"),
                         lr("Each roll", "<day>"), lr("Attempts", "<none>"), lr("Hidden", "<no>")]
    press(a, K_RIGHT, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT)   # Ada, Erudition
    rows = press(a, K_DOWN, K_LEFT, K_LEFT, K_DOWN, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT)
    assert rows[1:7] == [lr("Who", "<Ada>"), "Skill  Languages", lr("Successes", "<6>"),
                         lr("Each roll", "<day>"), lr("Attempts", "<3>"), lr("Hidden", "<yes>")]
    rows = press(a, K_OK)
    kind, args, _f, text = _last(s)
    assert kind == P.PRO_OPEN and args == [0, 6, 3, 2, 1] and text == "Languages"
    assert rows[:4] == ["OUTCOME", "Languages (1", "day, 3 max.) ?", "successes"]  # its note
    rows = press(a, K_OK)
    assert rows[0] == "ROLL        2d12"
    assert a.top().menu.items[1] == "Languages    0/?"      # no room for `Test`: never `Te`
    out = a.roll()
    press(a)                                               # its result drawn
    assert _last(s)[:2] == (P.PRO_ROLL, [len(s.c.tals) - 1, 1, 1, 0, 0])
    assert a.top().lines[len(out.faces) // 16 + 1] == lr("%d succ" % out.successes, "hidden")
    press(a, K_BACK, K_BACK)
    assert a.fb.rows[1] == lr("Open tests", "1" if out.successes else "0")


# --- a finished prolonged test shows what was rolled --------------------
def test_a_finished_prolonged_test_shows_ten_of_eight():
    a, s = _app()
    t = s.do(P.PRO_OPEN, (0, 8, 3, 2, 0), "Healing").tal
    s.do(P.PRO_ROLL, (t, 2, 2, 0, 0), "", (12, 12, 1, 1))    # 4/8
    _prolonged(a)
    rows = press(a, K_DOWN, K_RIGHT)                          # Test Healing
    assert rows[2] == lr("Test", "Healing 4/8")
    a.pool.v["pskill"], a.pool.v["path"] = 4, 2
    a.roll((12, 12, 12, 1, 1, 1))                             # keyed in: 6 more, 10
    rows = press(a)
    assert rows[0] == lr("RESULT", "6d12") and rows[2] == lr("6 succ", "SUCCEEDED")
    assert rows[3] == "margin +2" and a.top().lines[-2:] == ["Healing", "succeeded: 10/8"]


# --- Paths and Skills on the sheet; the builder fills the pool -----------
def _set_hope(a, lv, eloquence):
    """Characters > the sheet on screen > Hope: its form, the levels set."""
    rows = a.fb.rows
    while not _sel(a).startswith("Hope"):
        rows = press(a, K_DOWN)
    rows = press(a, K_OK)
    assert rows[0] == lr(a.c.chars[a.top().i].name, "SHEET") and rows[1] == lr("Hope", "0")
    assert rows[2:7] == [lr("Empathy", "0"), lr("Eloquence", "0"), lr("Resilience", "0"),
                         lr("Artistry", "0"), lr("Etiquette", "0")]
    press(a, *(K_RIGHT,) * lv)
    press(a, K_DOWN, K_DOWN, *(K_RIGHT,) * eloquence)
    return press(a, K_OK)


def test_paths_and_skills_on_the_sheet_fill_the_builder():
    a, s = _app()
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, K_OK)              # Characters > Ada
    assert a.top().menu.items == [lr(p, " 0 ") for p in ("Legacy", "Hope", "Dogma", "Secrets",
                                                          "Fear", "Lies")] + ["Rename"]
    rows = _set_hope(a, 2, 3)                                 # Loriane: Hope 2, Eloquence 3
    assert _last(s)[:2] == (pm.PATH, [0, 1, 2, 0, 3, 0, 0, 0])
    assert a.top().menu.items[1:3] == [lr("Hope", " 2 "), lr(" Eloquence", " 3 ")]
    press(a, K_BACK, K_DOWN, K_OK)                            # Bram: Hope 1, Eloquence 1
    _set_hope(a, 1, 1)
    press(a, K_BACK, K_BACK, K_BACK)
    rows = press(a, K_OK, K_RIGHT, K_DOWN, K_DOWN)            # builder: Ada, Test of
    assert rows[3] == lr("Test of", "-") and rows[4] == lr("Skill", "1")
    rows = press(a, *(K_RIGHT,) * 7)                          # Beasts .. Eloquence
    assert a.top().menu.items[2] == "Eloquence       "     # no room for `Test of`
    assert rows[0] == "ROLL        5d12" and rows[4] == lr("Skill", "3") and rows[5] == lr("Path", "2")
    assert a.top().menu.sel == 2                              # the cursor stays on its row
    rows = press(a, K_DOWN, K_RIGHT)                          # dialled by hand: Skill 4
    assert rows[4] == lr("Skill", "4")
    rows = press(a, K_BACK, K_OK)                             # it stays: nothing changed since
    assert rows[4] == lr("Skill", "4") and rows[0] == "ROLL        6d12"
    items = a.top().menu.items
    assert items[-2:] == [lr("Helper 1", "-"), lr("Helper 2", "-")]
    while a.top().menu.sel != len(items) - 2:
        press(a, K_DOWN)
    press(a, K_RIGHT)                                         # Bram helps: his own pool, 2d
    assert a.top().menu.items[-2] == lr("Helper 1", "Bram 2d")
    press(a, K_RIGHT)                                         # nobody else: it stops at Bram
    assert a.top().menu.items[-2] == lr("Helper 1", "Bram 2d")
    press(a, K_LEFT)                                          # none
    assert a.top().menu.items[-2] == lr("Helper 1", "-")
    press(a, K_RIGHT, K_ROLL)
    kind, args, _f, text = _last(s)
    assert kind == P.TEST and args == [0, 4, 2, 0, 0, 1, 0, 2] and text == "Eloquence"
    # Who rolls changed: Bram's own levels, and Ada may help him.
    press(a, K_BACK)
    while a.top().menu.sel:
        press(a, K_UP)
    rows = press(a, K_RIGHT)
    assert rows[1] == lr("Who", "Bram") and rows[4] == lr("Skill", "1") and rows[5] == lr("Path", "1")
    assert a.top().menu.items[-2] == lr("Helper 1", "-")       # Bram cannot help himself
    # Back to by hand: the rows as they are, helpers' pools dialled.
    press(a, K_DOWN, K_DOWN, *(K_LEFT,) * 7)                 # Eloquence (6) .. -
    assert a.top().menu.items[2] == lr("Test of", "-")
    assert a.top().menu.items[-2:] == [lr("Helper 1", "-"), lr("Helper 2", "-")]


# --- the cursor stays on Mode -------------------------------------------
def test_the_builder_cursor_stays_on_mode_when_it_changes():
    a, s = _app()
    press(a, K_OK, K_DOWN)
    for k, mode, row in ((K_RIGHT, "opposed", 1), (K_RIGHT, "prolonged", 0), (K_LEFT, "opposed", 1),
                         (K_LEFT, "test", 1)):
        press(a, k)
        assert _sel(a) == lr("Mode", mode) and a.top().menu.sel == row


# --- the core's TAL_CAP: a talisman's capacity, on its menu ------------------------
def test_the_exarch_changes_the_successes_a_prolonged_test_needs():
    a, s = _app()
    t = s.do(P.PRO_OPEN, (0, 8, 0, 2, 0), "Healing").tal
    s.do(P.PRO_ROLL, (t, 2, 2, 0, 0), "", (12, 12, 12, 1))   # 6/8
    press(a, K_DOWN, K_DOWN, K_OK)                            # Talismans
    assert _sel(a) == "Healin (Ada) 6/8"                      # the owner's name beside it
    rows = press(a, K_OK)
    assert a.top().menu.items == ["Clear", "Delete", "Rename", "Capacity"]
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_OK)             # Capacity, the last row
    assert rows[0] == lr("Healing", "6/8") and rows[1] == lr("Capacity", "<8>")
    assert rows[7] == "OK: set"
    rows = press(a, K_LEFT, K_LEFT, K_LEFT, K_OK)             # 5: it fills
    assert _last(s)[:2] == (cp.TAL_CAP, [t, 5]) and s.c.tals[t].n == 5
    assert rows[0].startswith("TALISMANS") and P.status(s.c.tals[t]) == P.ST_SUCCEEDED


def test_an_undo_under_the_capacity_form_closes_it():
    from fakeapp import long
    a, s = _app()
    s.do(P.PRO_OPEN, (0, 8, 0, 2, 0), "Healing")
    press(a, K_DOWN, K_DOWN, K_OK, K_OK, K_DOWN, K_DOWN, K_DOWN, K_OK)  # Healing > Capacity
    assert a.top().__class__.__name__ == "Capacity"
    long(a, K_BACK)                                           # the test is gone
    assert _last(s)[0] == cp.UNDO and a.top().__class__.__name__ == "Talismans"


def test_the_builder_loads_the_sheets_module_only_with_a_skill_named():
    # Every name a module interns makes each new str of every builder key
    # look through one more: the sheet's part waits for a Skill named.
    import sys
    import ui
    from ui import pathsheet  # noqa: F401  (loaded by the tests before: forget it)
    del sys.modules["ui.pathsheet"]
    del ui.pathsheet
    a, s = _app()
    press(a, K_OK, K_DOWN, K_RIGHT, K_LEFT, K_DOWN, K_DOWN, K_RIGHT, K_LEFT)   # Mode, Skill
    assert "ui.pathsheet" not in sys.modules
    press(a, K_UP, K_RIGHT)                                    # Test of Beasts
    assert "ui.pathsheet" in sys.modules
