"""What the game master reads (runs under
pytest and on MicroPython): an action's every note, the consequence that
matters first, on the toast rows or a page of its own; values and menus
that stop at their ends; a hidden difficulty kept from the shared screen;
lists that say whose and what; results that name their sides; a form's
result that goes back where the form was opened; the dead marked."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK, K_ROLL
from rules import campaign as cp, codec, hunt, expedition as ex, paths
from rules import expedition_foes as ef, expedition_chars as ec, expedition_town as tw
from ui import notes
from ui.screen import lr
from fakeapp import make, press, long


def _sheet(a, i=0):
    press(a, K_DOWN, K_DOWN, K_DOWN, K_OK, *(K_DOWN,) * i)
    return press(a, K_OK)


# --- every note, what matters first ------------------------------------
def test_the_brink_is_read_first_on_a_page_the_next_key_does_not_close():
    a, b, s = make()
    s.do(cp.CHAR_ADD, (), "Ada")
    s.do(hunt.STRESS, (0, 6, 0, 0))                  # injuries 1, then 2: stress 0/4
    s.do(hunt.STRESS, (0, 5, 0, 0))
    rows = _sheet(a)
    assert rows[1] == lr("Stress", "0/4>")
    for _ in range(3):
        rows = press(a, K_RIGHT)
    rows = press(a, K_RIGHT)                          # the 4th: injury 3, the brink
    assert rows[0] == "OUTCOME"
    assert rows[1:6] == ["Ada is on the", "brink of death", "Ada injury 3", "Ada stress 0/3", ""]
    assert rows[7] == "OK: close"
    assert press(a, K_RIGHT, K_LEFT, K_ROLL)[0] == "OUTCOME"   # no stress given unread
    assert s.c.chars[0].v[hunt.BRINK] == 1 and len(s.log) == 7
    rows = press(a, K_OK)                             # the sheet, the brink first on its toast
    assert rows[0] == "Ada" and rows[6:] == ["Ada is on the", "brink of death;"]


def test_an_injury_goes_before_the_stress_left_on_the_toast():
    a, b, s = make()
    s.do(cp.CHAR_ADD, (), "Ada")
    s.do(hunt.STRESS, (0, 5, 0, 0))
    _sheet(a)
    rows = press(a, K_RIGHT)                          # 6/6: an injury, stress 0/5
    assert rows[6:] == ["Ada injury 1;", "Ada stress 0/5"] and rows[0] == "Ada"


def test_the_sins_healing_in_its_palace_is_read_first():
    a, b, s = make()
    s.c.x[hunt.X_PALACE] = 1
    sin = s.c.find(hunt.ROLE_SIN)
    s.do(cp.SLASH, (sin, 3, 0))
    press(a, K_DOWN, K_DOWN, K_OK, K_DOWN)            # Talismans > Tension
    rows = press(a, K_RIGHT, K_RIGHT, K_RIGHT)        # tension full: pressure +1
    text = " ".join(rows[1:7])
    assert rows[0].startswith("OUTCOME") and text.startswith("Pressure 1/6: Sin capacity 9 Sin heals")
    assert text.index("Sin heals") < text.index("Tension full")


def test_notes_order_puts_the_consequences_first_and_keeps_the_rest():
    ns = ["turn 3, next check in 2", "Torches d6 rolls 1: now d4", "encounter check 3: sign"]
    assert notes.order(ns) == [ns[1], ns[0], ns[2]]
    ns = ["Bram channels Spell 1: CR 1/2", "5 vs Ob 6: failure by 1", "Bram takes 1: HP 3/4",
          "Spell 1 lost until a long rest"]
    assert notes.order(ns)[0] == "Spell 1 lost until a long rest"
    assert notes.order(["Ada injury 3", "Ada is on the brink of death", "Ada stress 0/3"]) == \
        ["Ada is on the brink of death", "Ada injury 3", "Ada stress 0/3"]


def test_a_usage_die_is_read_on_turns_and_listed_as_its_die():
    a, b, s = make(2)
    s.do(cp.CHAR_ADD, (), "Ada")
    s.do(ex.USAGE_NEW, (6, -1, 1), "Torches")
    press(a, K_DOWN, K_DOWN, K_OK)                    # Talismans: the die, not 0/5
    assert a.top().menu.items[0] == lr("Torches", "d6")
    press(a, K_BACK, *(K_DOWN,) * 4, K_OK)            # Turns
    for _ in range(12):                               # until the torches' roll comes
        rows = press(a, K_OK)
        if rows[0] == "OUTCOME" and "Torches" in " ".join(rows):
            assert rows[1].startswith("Torches d6 rolls")
            break
        if rows[0] == "OUTCOME":
            press(a, K_OK)
    else:
        raise AssertionError("no usage roll in 12 turns")


# --- values and menus stop at their ends ----------------------------------------
def test_paths_situation_and_difficulty_stop_at_their_ends():
    a, b, s = make(1)
    press(a, K_OK, *(K_DOWN,) * 5)                    # Situation (under Test of, Skill, Path)
    for _ in range(4):
        press(a, K_LEFT)
    assert a.pool.v["sit"] == -2
    press(a, K_DOWN, K_DOWN)                          # Difficulty
    for _ in range(9):
        press(a, K_RIGHT)
    assert a.pool.v["diff"] == 7


def test_a_scene_never_ends_from_the_other_end_of_its_menu():
    a, b, s = make()
    press(a, *(K_DOWN,) * 4, K_OK)                    # Scenes
    assert a.top().menu.items[0] == "New scene: calm"
    press(a, K_UP)                                    # the first row: it stays
    assert a.top().menu.sel == 0
    n = len(a.top().menu.items)
    press(a, *(K_DOWN,) * n)                          # The hunt, the last: it stays
    assert a.top().menu.sel == n - 1 and not s.log


def test_a_new_town_phase_asks_first():
    a, b, s = make(2)
    s.do(cp.CHAR_ADD, (), "Ada")
    press(a, *(K_DOWN,) * 6, K_OK)                    # Town
    rows = press(a, K_UP, K_DOWN)                     # the last row, then wrapped onto the first
    assert rows[4] == "New Town Phase" and a.fb.inv[4]
    rows = press(a, K_OK)
    assert rows[0] == "NEW TOWN PHASE?" and rows[6:] == ["OK: start", "Back: cancel"]
    press(a, K_BACK)
    assert len(s.log) == 1                            # cancelled: no event
    press(a, K_OK, K_OK)
    assert codec.decode_event(s.log[-1])[1] == [tw.START]


# --- the hidden difficulty ----------------------------------------------------
def test_a_hidden_difficulty_is_the_gms_on_the_builder():
    a, b, s = make(1)
    rows = press(a, K_OK, *(K_DOWN,) * 7, K_RIGHT)    # Difficulty 2
    assert rows[7] == "Odds 25.0%" or rows[7].startswith("Odds")
    rows = press(a, K_DOWN, K_RIGHT)                  # Hidden yes
    assert rows[0].startswith("HIDDEN") and rows[7] == "long OK: GM view"
    assert a.top().menu.items[7] == lr("Difficulty", "?")
    rows = long(a, K_OK)                              # the GM view
    assert rows[0].startswith("HIDDEN GM") and rows[7].startswith("Odds")
    assert a.top().menu.items[7] == lr("Difficulty", "2") and not s.log   # no redo
    rows = long(a, K_OK)
    assert rows[7] == "long OK: GM view"
    press(a, K_BACK, K_OK)                            # opened again: not the GM's view
    assert a.fb.rows[7] == "long OK: GM view" and a.fb.rows[0].startswith("HIDDEN")


# --- lists say whose and what; results name their sides --------------------------
def test_talismans_name_their_owners_and_show_what_roles_hold():
    a, b, s = make(2)
    for n in ("Ada", "Bo"):
        s.do(cp.CHAR_ADD, (), n)
    s.do(ec.ABIL, (ec.OP_SET, 0, 3, 3, 3, 3, 3, 3))
    s.do(ef.FOE, (ef.OP_NEW, 3, 0, 0, -1), "Foe 1")
    s.do(ef.FOE, (ef.OP_HIT, ef.foes(s.c)[0], 3, 0, 0, 0))
    s.do(ef.ROUND, (ef.OP_NEXT,))
    press(a, K_DOWN, K_DOWN, K_OK)
    items = a.top().menu.items
    assert lr("Boons (Ada)", "2") in items            # not 2/64
    assert lr("Foe 1", "5/8") in items                # its HP, as on Foes
    assert lr("Fight", "round 1") in items            # not 1/64
    a, b, s = make()
    s.do(cp.CHAR_ADD, (), "Ada")
    press(a, K_DOWN, K_DOWN, K_OK)
    assert lr("Stress (Ada)", "0/6") in a.top().menu.items


def test_a_versus_result_names_its_sides_and_separates_their_faces():
    a, b, s = make(2)
    rows = press(a, K_OK, K_RIGHT, K_RIGHT)           # the builder: versus a monster
    rows = press(a, K_ROLL)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    n = 3                                             # Ability 1: 3 dice
    assert kind == ex.VERSUS and rows[1] == "Roller: " + " ".join(str(f) for f in faces[:n])
    assert rows[2].startswith("Monster: ") and rows[3].split()[-1] in ("WINS", "LOSES", "TIE")
    assert "A wins" not in " ".join(a.top().lines) and "B wins" not in " ".join(a.top().lines)


def test_a_paths_opposed_result_separates_helper_roller_and_opponent():
    a, b, s = make(1)
    s.do(cp.CHAR_ADD, (), "Ada")
    press(a, K_OK, K_RIGHT, K_DOWN, K_RIGHT)          # who Ada, opposed
    a.pool.v["h1"] = 1
    a.top().refresh()
    press(a, K_ROLL)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == paths.OPPOSED
    lines = a.top().lines
    assert lines[0] == "Helper 1: %d" % faces[0]
    assert lines[1].startswith("Ada: ") and [ln for ln in lines if ln.startswith("Opponent: ")]


# --- back where the form was opened; the dead -------------------------------
def test_back_from_a_forms_result_returns_where_it_was_opened():
    a, b, s = make(2)
    s.do(cp.CHAR_ADD, (), "Ada")
    s.do(tw.TOWN, (tw.SHEET, 0, 2, 5, 0, 0))
    press(a, *(K_DOWN,) * 6, K_OK, *(K_DOWN,) * 4, K_OK)   # Town > Sell a good
    rows = press(a, K_OK)
    assert rows[0] == lr("RESULT", "goods") and len(s.log) == 3
    rows = press(a, K_BACK)
    assert a.top().__class__.__name__ == "Town" and len(s.log) == 3


def test_town_opens_on_the_living_and_lists_mark_the_dead():
    a, b, s = make(2)
    for n in ("Ada", "Bram"):
        s.do(cp.CHAR_ADD, (), n)
    s.do(ex.DAMAGE, (0, 4, 0))
    s.do(ex.DOWN_OUT, (0, 0))                         # no aid: Ada dies
    assert s.c.chars[0].v[ex.DEAD]
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_OK)
    assert rows[1] == lr("Ada", "dead") and rows[2] == "Bram"
    rows = press(a, K_BACK, K_BACK, *(K_DOWN,) * 6, K_OK)   # Town: on Bram
    assert rows[0] == lr("TOWN", "< Bram >")
    rows = press(a, K_LEFT)
    assert rows[0] == lr("< Ada >", "dead")
    rows = press(a, K_LEFT)                           # the first: it stays
    assert rows[0] == lr("< Ada >", "dead")


def test_the_talisman_words_name_the_rules_roles():
    # ui/words.py reads roles by number (their chapters' modules are not
    # loaded for Talismans): the numbers are the rules' own.
    from rules import hunt_more, paths_more, expedition_spells as sp
    assert (hunt_more.ROLE_AFFLICTION, hunt_more.ROLE_SETUP) == (6, 7)
    assert (paths.PROLONGED, paths_more.FIGHT) == (1, 2)
    assert (ex.USAGE, ef.FOE_ROLE, ex.ROLE_FIGHT, ex.ROLE_ABILITIES) == (1, 16, 17, 18)
    assert (ex.ROLE_SPELL, sp.ROLE_MUTATION, tw.ROLE_FACTION, tw.ROLE_STRONGHOLD,
            sp.ROLE_NEVER) == (8, 9, 10, 11, 12)
