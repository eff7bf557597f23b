"""hunt's procedures on the device's own keys (runs
under pytest and on MicroPython): each test presses keys from home to the
screen, reads what it shows and ends in the event journaled. Scenes: a
new scene calm or a fight, a fight breaking out, the risk die of the
acting exorcist, the rest with its dice shown; The hunt: a new hunt, the
session's end, trauma answers, the palace, the Sin's end, the success
face. A sheet: stress of N in one move (instant death, defying fate, a
trauma answer), hooks, a kit item named.

One app for the whole file (many App instances in one MicroPython test
VM can crash it): each test starts on home with the campaign undone back
to its two exorcists."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from rules import campaign as cp, codec, hunt as m
from ui.screen import lr
from fakeapp import one_app, press

_APP = []


def _app():
    """(app, session) on home, the campaign back at Ada and Bram."""
    return one_app(_APP, 0, ("Ada", "Bram"))


def _last(s):
    """(kind, args, faces, text) of the newest event journaled."""
    return codec.decode_event(s.log[-1])


def _kt(s):
    """(kind, text) of the newest event journaled."""
    e = _last(s)
    return e[0], e[3]


def _items(a):
    return a.top().menu.items


def _to(a, label):
    """The cursor onto the row that starts with `label` (Up/Down), its rows."""
    items = _items(a)
    i = [j for j in range(len(items)) if items[j].startswith(label)][0]
    m_ = a.top().menu
    k = K_DOWN if i > m_.sel else K_UP
    while m_.sel != i:
        press(a, k)
    return a.fb.rows


def _scenes(a):
    return press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)


def _hunt(a):
    _scenes(a)
    _to(a, "The hunt")
    return press(a, K_OK)


def _sheet(a, i=0):
    return press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, *((K_DOWN,) * i + (K_OK,)))


# --- scenes, named so they cannot be misread -------------------------
def test_a_new_scene_calm_or_a_fight_and_a_fight_that_breaks_out():
    a, s = _app()
    rows = _scenes(a)
    assert rows[0] == "SCENE 0" and rows[1] == "Tension 0/3"
    assert _items(a)[:3] == ["New scene: calm", "New scene: fight", "Fight breaks out"]
    rows = press(a, K_OK)                                  # the calm scene passes
    assert _last(s)[:2] == (m.SCENE_END, [0]) and rows[0] == "SCENE 1"
    assert rows[1] == "Tension 1/3" and rows[6:8] == ["Tension 1/3;", "Scene 1"]
    rows = press(a, K_DOWN, K_OK)                          # the next one is a fight
    assert _last(s)[:2] == (m.SCENE_END, [1]) and rows[0] == "SCENE 2  a fight"
    assert "Fight breaks out" not in _items(a)             # it is one already
    press(a, K_UP, K_OK)                                   # the fight passes: no slash
    assert rows[1] == "Tension 2/3" and a.fb.rows[1] == "Tension 2/3"
    rows = press(a, K_DOWN, K_DOWN, K_OK)                  # a fight breaks out mid-scene
    assert _last(s)[:2] == (m.SCENE, [1]) and rows[0] == "SCENE 3  a fight"
    assert s.c.x[m.X_COMBAT] == 1 and s.c.x[m.X_SCENE] == 3


def test_the_list_does_not_wrap_onto_a_new_scene():
    a, s = _app()
    _scenes(a)
    press(a, K_UP)
    assert a.top().menu.sel == 0                           # Up on the first row stays
    n = len(_items(a))
    press(a, *(K_DOWN,) * (n + 2))
    assert a.top().menu.sel == n - 1 and _items(a)[-1] == "The hunt"


# --- the risk die names the acting exorcist; hooks ---------------------
def test_the_risk_die_is_rolled_for_who_last_rolled_and_slashes_their_hooks():
    a, s = _app()
    s.do(m.HOOK, (1,), "Debt")
    press(a, K_OK, K_RIGHT, K_RIGHT)                       # the builder: Bram rolls
    assert a.fb.rows[1] == lr("Who", "Bram")
    press(a, K_BACK)
    _scenes(a)
    rows = _to(a, "Risk die")
    assert rows[5] == lr("Risk die", "<Bram>")
    press(a, K_OK)
    kind, args, faces, _t = _last(s)
    assert kind == m.RISK and args == [1] and len(faces) == 1
    assert a.fb.rows[6] == "Risk die %d" % faces[0]
    rows = press(a, K_LEFT)                                # Ada, then nobody
    assert rows[5] == lr("Risk die", "<Ada>")
    rows = press(a, K_LEFT)
    assert rows[5] == lr("Risk die", "<->")
    s.do(m.RISK, (1,), "", (1,))                           # a 1 slashes Bram's hook
    assert s.c.tals[s.c.find(m.ROLE_HOOK, 1)].n == 1


def test_gain_a_hook_by_name_gain_it_again_and_a_bargain():
    a, s = _app()
    _sheet(a)
    items = _items(a)
    assert items[-3:] == ["Hooks", "Afflictions", "Rename"]
    press(a, K_UP, K_UP, K_UP)
    rows = press(a, K_OK)
    assert rows[0] == lr("Ada", "HOOKS") and rows[1:3] == ["+ gain a hook", "+ bargain"]
    rows = press(a, K_OK)                                  # the name: Threat 1 as it starts
    assert rows[0] == "NEW HOOK" and rows[2] == "Threat 1"
    rows = press(a, K_UP, K_OK)                            # Threat 2, then OK: gained
    assert _kt(s) == (m.HOOK, "Threat 2") and _last(s)[1] == [0]
    assert rows[0] == lr("Ada", "HOOKS") and rows[1] == lr("Threat 2", "0/3")
    assert _items(a)[a.top().menu.sel] == "+ gain a hook"  # the cursor stays on the row pressed
    rows = press(a, K_UP, K_OK)                            # gained again: a slash
    assert _kt(s) == (m.HOOK, "Threat 2")
    assert rows[:5] == ["OUTCOME", "Ada gains Threat", "2 again", "Hook Threat 2", "1/3"]
    rows = press(a, K_OK)                                  # its notes read: OK
    assert rows[1] == lr("Threat 2", "1/3")
    assert _items(a)[1:] == ["+ gain a hook", "+ bargain"]
    rows = press(a, K_DOWN, K_DOWN, K_OK, K_OK)            # + bargain, its name as it starts
    assert _kt(s) == (m.HOOK, "Bargain 1")
    assert rows[2] == lr("Bargain 1", "0/3")


# --- rest, the dice shown, each spent on the keys ------------------------
def test_a_rest_shows_the_dice_and_spends_each_as_chosen():
    a, s = _app()
    s.do(m.STRESS, (0, 3, 0, 0))                           # Ada: stress to heal
    s.do(m.BURST, (1, 0))                                  # Bram: a burst spent
    hook = s.do(m.HOOK, (1,), "Debt").tal
    s.do(cp.SLASH, (hook, 1, 0))
    _scenes(a)
    _to(a, "Rest")
    rows = press(a, K_OK)
    assert rows[0] == "REST pressure +1" and rows[7] == "OK: rest"
    shown = [int(r.split()[1]) for r in rows[1:5]]
    assert all(1 <= f <= 3 for f in shown)
    assert rows[1] == lr("Ada %d" % shown[0], "<stress>")   # stress to heal: stress first
    assert rows[3] == lr("Bram %d" % shown[2], "<bursts>")
    rows = press(a, K_BACK, K_OK)                          # Back and again: the same dice
    assert [int(r.split()[1]) for r in rows[1:5]] == shown
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_RIGHT, K_RIGHT)  # Bram's 2nd die: bursts, stress, Debt
    assert rows[4] == lr("Bram %d" % shown[3], "<Debt>")
    press(a, K_OK)
    kind, args, faces, _t = _last(s)
    assert kind == m.REST and args == [1, 1, 0, 2 + hook]
    assert list(faces) == shown                            # the dice shown are the event's
    assert s.c.tals[s.c.find(m.ROLE_PRESSURE)].n == 1
    assert a.top().title == "OUTCOME"                       # every note, on a page
    lines = a.top().lines      # the pressure step slashed the hook first: Debt 2/3
    assert lines[:3] == ["Pressure 1/6:", "Sin capacity 9", "Hook Debt 2/3"]
    assert lines[-2:] == ["Bram %d: hook" % shown[3], "Debt %d/3" % max(0, 2 - shown[3])]


def test_a_rest_in_the_palace_rolls_the_sins_heal_first():
    a, s = _app()
    s.do(m.NEW_HUNT, (0, 1))
    sin = s.c.find(m.ROLE_SIN)
    s.do(cp.SLASH, (sin, 3, 0))
    _scenes(a)
    _to(a, "Rest")
    rows = press(a, K_OK)
    shown = [int(r.split()[1]) for r in rows[1:5]]
    press(a, K_OK)
    kind, args, faces, _t = _last(s)
    assert kind == m.REST and list(faces[1:]) == shown and len(faces) == 5
    assert s.c.tals[sin].n == 3 - faces[0]                 # the heal came first


# --- items 2 and 3: the hunt ---------------------------------------------------------
def test_a_new_hunt_with_the_sins_cat_in_its_palace():
    a, s = _app()
    rows = _hunt(a)
    assert rows[0] == "THE HUNT" and rows[1] == lr("Sin 0/8", "outside")
    _to(a, "New hunt")
    rows = press(a, K_OK)
    assert rows[0] == "NEW HUNT" and rows[1] == lr("Sin's CAT", "<0>")
    rows = press(a, K_RIGHT, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT)
    assert rows[2] == lr("In palace", "<yes>") and rows[7] == "OK: start it"
    rows = press(a, K_OK)
    assert _last(s)[:2] == (m.NEW_HUNT, [3, 1])
    assert rows[0] == lr("THE HUNT", "1") and rows[1] == lr("Sin 0/11", "inside")
    assert rows[6] == "Hunt 1: Sin CAT" and rows[7] == "3, capacity 11"
    rows = press(a, K_BACK, K_BACK)
    assert rows[3] == lr("Sin", "0/11 pal")


def test_the_session_ends_when_asked_twice():
    a, s = _app()
    s.do(m.WITNESS, (0,))
    _hunt(a)
    _to(a, "End of session")
    rows = press(a, K_OK)
    assert rows[0] == "END SESSION?" and rows[2] == "Pathos: all lost"
    press(a, K_BACK)                                       # cancelled: nothing
    assert _last(s)[0] == m.WITNESS
    rows = press(a, K_OK, K_OK)
    assert _last(s)[:2] == (m.SESSION_END, [])
    assert rows[6] == "Session 1 ends:" and s.c.chars[0].v[m.PATHOS] == 0


def test_answers_the_palace_the_sins_end_and_the_success_face():
    a, s = _app()
    _hunt(a)
    assert _items(a)[0] == lr("Answer found", "0/3")
    press(a, K_OK, K_OK, K_OK)
    assert _last(s)[0] == m.TRAUMA and _items(a)[0] == lr("Answer found", "3/3")
    rows = press(a, K_DOWN, K_OK)                          # Nail of Abel: it comes back
    assert _last(s)[:2] == (m.PALACE, [1]) and _items(a)[1] == "Sin goes outside"
    assert rows[1] == lr("Sin 0/8", "inside")
    press(a, K_OK)
    assert _last(s)[:2] == (m.PALACE, [0]) and _items(a)[1] == "Nail of Abel"
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_RIGHT)       # Dice succeed 5+
    assert _last(s)[:2] == (m.FACE, [5]) and rows[5] == lr("Success on", "<5+>")
    press(a, K_LEFT, K_LEFT)
    assert s.c.x[m.X_FACE] == 3
    # The Sin's talisman full (in its palace): execute, or, with 3 answers, spare.
    s.do(m.PALACE, (1,))
    s.do(cp.SLASH, (s.c.find(m.ROLE_SIN), 8, 0))
    press(a, K_BACK, K_BACK)
    rows = _hunt(a)
    assert _items(a)[:2] == ["Execute the Sin", "Spare the Sin"]
    rows = press(a, K_DOWN, K_OK)
    assert _last(s)[:2] == (m.SIN_END, [1]) and rows[1] == "Sin spared"
    assert "Execute the Sin" not in _items(a)


# --- stress of N in one move -------------------------------------------------
def test_stress_of_n_in_one_move():
    a, s = _app()
    rows = _sheet(a)
    assert _items(a)[0] == lr("Stress", "0/6>")
    rows = press(a, K_OK)
    assert rows[0] == lr("Ada", "STRESS 0/6") and rows[1] == lr("Stress", "<1>")
    assert rows[2] == "" and rows[7] == "OK: take it"       # no answer to expend
    press(a, K_RIGHT, K_RIGHT, K_RIGHT, K_RIGHT)           # 5
    rows = press(a, K_OK)
    assert _last(s)[:2] == (m.STRESS, [0, 5, 0, 0])
    assert rows[0] == "Ada" and s.c.tals[s.c.find(m.ROLE_STRESS, 0)].n == 5
    rows = press(a, K_OK, K_RIGHT, K_RIGHT, K_OK)          # 3 more: an injury, first
    assert _last(s)[:2] == (m.STRESS, [0, 3, 0, 0])
    assert rows[0] == "Ada" and rows[6:8] == ["Ada injury 1;", "Ada stress 2/5"]


def test_seven_stress_in_one_move_kills_unless_fate_is_defied():
    a, s = _app()
    _sheet(a)
    press(a, K_OK, *(K_RIGHT,) * 6)
    rows = press(a, K_OK)
    assert rows[0] == "INSTANT DEATH" and rows[1:3] == ["7 stress in one", "move kills Ada."]
    assert rows[6:8] == ["Defy fate", "Instant death"]
    n = len(s.log)
    press(a, K_BACK)                                       # left: nothing yet
    assert len(s.log) == n and a.top().__class__.__name__ == "Stress"
    press(a, K_OK, K_DOWN, K_OK)                           # Instant death
    assert _last(s)[:2] == (m.STRESS, [0, 7, 0, 0]) and s.c.chars[0].v[m.DEAD] == 1
    s.do(cp.UNDO)
    a.top().refresh()
    press(a, K_OK, *(K_RIGHT,) * 6)
    press(a, K_OK, K_OK)                                   # Defy fate
    kind, args, faces, _t = _last(s)
    assert (kind, args, len(faces)) == (m.STRESS, [0, 7, 0, 1], 1)
    v = s.c.chars[0].v
    assert v[m.DEAD] == 0 and v[m.MARKS] == 1 and v[m.CHECK] == faces[0]
    assert a.top().title == "OUTCOME" and "defies fate" in " ".join(a.top().lines)


def _dice_left(s):
    """The d3 the answer of the move under way rolled (ui/predraw.py)."""
    from ui import predraw
    return predraw._faces[0]


def test_a_trauma_answer_against_stress_and_defying_what_is_left():
    a, s = _app()
    s.do(m.TRAUMA)
    s.do(m.TRAUMA)
    _sheet(a)
    rows = press(a, K_OK)
    assert rows[2] == lr("Answer", "<no>")
    press(a, K_RIGHT, K_RIGHT, K_RIGHT, K_DOWN, K_RIGHT)    # 4 stress, answered
    press(a, K_OK)
    kind, args, faces, _t = _last(s)
    assert (kind, args, len(faces)) == (m.STRESS, [0, 4, 1, 0], 1)  # 4 - d3 never kills
    assert s.c.x[m.X_EXPENDED] == 1
    # 10 stress, answered: what is left (7..9) kills; the d3 is rolled first.
    press(a, K_BACK, K_OK, *(K_RIGHT,) * 9)
    rows = press(a, K_DOWN, K_RIGHT, K_OK)
    assert rows[0] == "INSTANT DEATH" and rows[1] == "%d stress left in" % (10 - _dice_left(s))
    press(a, K_OK)                                         # defy fate
    kind, args, faces, _t = _last(s)
    assert (kind, args, len(faces)) == (m.STRESS, [0, 10, 1, 1], 2)
    assert faces[0] == _dice_left(s)                       # the d3 shown is the event's
    assert s.c.chars[0].v[m.DEAD] == 0 and s.c.x[m.X_EXPENDED] == 2


def test_a_kit_item_carries_its_name():
    a, s = _app()
    _sheet(a)
    _to(a, "Kit points")
    rows = press(a, K_OK)
    assert rows[0] == lr("Ada", "KIT 5") and rows[1] == lr("Points", "<2>")
    assert rows[2] == lr("Item", "Weapon") and rows[7] == "OK: pull it out"
    rows = press(a, K_DOWN, K_OK)                          # its name
    assert rows[0] == "KIT ITEM" and rows[2] == "Weapon"
    press(a, K_ROLL, K_ROLL, K_ROLL)                       # Wea
    rows = press(a, K_OK)
    assert rows[2] == lr("Item", "Wea")
    press(a, K_OK)
    assert _kt(s) == (m.KIT, "Wea") and _last(s)[1] == [0, 2]
    assert a.fb.rows[6] == "Ada Wea: kit 3"


def test_an_undo_under_a_form_closes_what_it_no_longer_fits():
    # A long Back on the rest takes back the last event: its dice were for
    # that state, so the rest closes; on the stress form the exorcist is
    # still there, so it stays.
    from fakeapp import long
    a, s = _app()
    s.do(m.WITNESS, (0,))
    _scenes(a)
    _to(a, "Rest")
    press(a, K_OK)
    long(a, K_BACK)
    assert _last(s)[0] == cp.UNDO and a.top().__class__.__name__ == "Scenes"
    s.do(m.WITNESS, (0,))
    press(a, K_BACK)
    _sheet(a)
    press(a, K_OK)
    rows = long(a, K_BACK)
    assert _last(s)[0] == cp.UNDO and rows[0] == lr("Ada", "STRESS 0/6")
