"""The device's own screens for expedition's town, spells and foes
(runs under pytest and on MicroPython): each test presses keys from
the home screen and ends in the event journaled. Town: Desperate Returns
(the halving form), selling a good, buying a hireling, an animal, a
building or boat. Spells: the Spell Mastery Check. Foes: a lost
Follower, the morale checks a hit prompts shown whole, a morale check,
reaction and distance.

One app for the whole file (many App instances in one MicroPython test
VM can crash it): each test starts on home with the campaign undone back
to its two characters."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_BACK
from rules import codec, expedition as ex
from rules import expedition_foes as ef, expedition_town as tw, expedition_spells as sp
from ui.screen import lr
from fakeapp import press, long, one_app

_APP = []


def _app():
    """(app, session) on home, the campaign back at Ada and Bram."""
    return one_app(_APP, 2, ("Ada", "Bram"))


def _last(s):
    """(kind, args, faces, text) of the newest event journaled."""
    return codec.decode_event(s.log[-1])


def _sel(a):
    m = a.top().menu
    return m.items[m.sel]


def _town(a):
    return press(a, *(K_DOWN,) * 6 + (K_OK,))


def _cash(s, i=0):
    return tw.get(s.c.chars[i].v, tw.CASH_F)


# --- Desperate Returns -----------------------------------------------
def test_desperate_return_halves_the_cash_on_a_3():
    # The session's end away from a safe haven: Town > Desperate return,
    # the character shown; always the halving form, DESPERATE (char, 1).
    a, s = _app()
    s.do(tw.TOWN, (tw.SHEET, 0, 0, 9, 0, 0))        # Ada: 9 Cash
    _town(a)
    press(a, K_UP, K_UP, K_UP)                       # above Recognize and Town sheet
    assert _sel(a) == "Desperate return"
    for _ in range(60):                             # until the d6 shows a 3
        rows = press(a, K_OK)
        kind, args, faces, _t = _last(s)
        assert kind == ex.DESPERATE and args == [0, 1]
        assert rows[0] == "DESPERATE d6 %d" % faces[0]
        if faces[0] == 3:
            break
        press(a, K_OK)                              # closed: back on Town
        long(a, K_BACK)                             # undo it
    assert faces[0] == 3 and _cash(s) == 4          # 9: 5 lost (rounded up), 4 kept
    assert "Ada loses 5 Cash: Cash 4" in " ".join(rows)
    rows = press(a, K_OK)
    assert rows[1] == "Wealth 0  Cash 4"            # on Town, its Cash halved
    press(a, K_RIGHT, K_OK)                         # each player rolls: Bram next
    assert _last(s)[1] == [1, 1]


# --- items 3 and 4: Town ----------------------------------------------------------
def test_sell_a_good_by_its_dice():
    a, s = _app()
    s.do(tw.TOWN, (tw.SHEET, 0, 2, 5, 0, 0))        # Ada: Wealth 2, Cash 5
    _town(a)
    press(a, *(K_DOWN,) * 4)
    assert _sel(a) == "Sell a good"
    rows = press(a, K_OK)
    assert rows[0] == lr("SELL A GOOD", "1d") and rows[1] == lr("Cost", "<3>")
    assert rows[7] == "OK: roll"
    rows = press(a, K_RIGHT, K_RIGHT)               # Cost 5: 5 - Wealth 2 = 3 dice
    assert rows[0] == lr("SELL A GOOD", "3d")
    rows = press(a, K_OK)
    kind, args, faces, _t = _last(s)
    assert kind == tw.TOWN and args == [tw.GOODS, 0, 5] and len(faces) == 3
    assert _cash(s) == 5 + len([f for f in faces if f >= 4])
    assert rows[0] == lr("RESULT", "goods")
    rows = press(a, K_OK)                           # the result in the form's place: Town
    assert _sel(a) == "Sell a good" and a.top().__class__.__name__ == "Town"


def test_buy_hirelings_by_wealth_each_more_costs_cash():
    a, s = _app()
    s.do(tw.TOWN, (tw.SHEET, 0, 3, 4, 0, 0))        # Wealth 3, Cash 4
    _town(a)
    rows = press(a, K_DOWN, K_OK)                   # Wealth buy
    assert rows[1] == lr("Cost", "<3>") and rows[2] == lr("What", "<other>")
    assert rows[6] == "buy 1: free"
    rows = press(a, K_OK)                           # other: the form with no goods field
    assert _last(s)[1] == [tw.WEALTH, 0, 3]
    assert rows[0] == "OUTCOME"                     # back on Town, its notes: a page over it
    press(a, K_OK, K_OK)                            # read; Wealth buy again
    rows = press(a, K_DOWN, K_RIGHT)                # a hireling
    assert rows[2] == lr("What", "<hireling>") and rows[6] == "buy 2: free"
    press(a, K_OK)
    assert _last(s)[1] == [tw.WEALTH, 0, 3, tw.HIRELING] and _cash(s) == 4
    rows = press(a, K_OK, K_OK, K_DOWN, K_RIGHT)    # the second hireling: +1 Cash
    assert rows[6] == "buy 3: 1 Cash"
    rows = press(a, K_RIGHT)                        # an animal: the first, free
    assert rows[2] == lr("What", "<animal>") and rows[6] == "buy 3: free"
    press(a, K_LEFT, K_OK)
    assert _last(s)[1] == [tw.WEALTH, 0, 3, tw.HIRELING] and _cash(s) == 3


def test_buy_a_boat_by_cash_one_a_town_phase():
    a, s = _app()
    s.do(tw.TOWN, (tw.SHEET, 0, 1, 10, 0, 0))
    _town(a)
    press(a, K_DOWN, K_DOWN, K_OK)                  # Cash buy: Cost 2, 1 die
    press(a, K_DOWN, K_RIGHT, K_RIGHT)              # 3 dice
    rows = press(a, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT)   # What: a building or boat
    assert rows[3] == lr("What", "<bldg/boat>") and rows[6] == "one a Town Phase"
    rows = press(a, K_OK)
    kind, args, faces, _t = _last(s)
    assert kind == tw.TOWN and args == [tw.BUY, 0, 2, 3, tw.BIG] and len(faces) == 3
    assert rows[0] == lr("RESULT", "Cash buy")
    assert bool(tw.get(s.c.chars[0].v, tw.TRIED) & tw.BIG_BIT) == (
        len([f for f in faces if f >= 4]) >= 1)     # bought when the Cash test succeeded


# --- the Spell Mastery Check ------------------------------------------------
def test_a_failed_mastery_check_leaves_its_never_record():
    a, s = _app()
    rows = press(a, *(K_DOWN,) * 5 + (K_OK,))       # Spells
    assert rows[1:4] == ["+ learn", "Mutate", "Mastery check"]
    rows = press(a, K_UP, K_OK)                     # Up from the top: the last row
    assert rows[0] == lr("MASTERY", "5d6 Ob3") and rows[1] == lr("Who", "Ada")
    assert rows[2] == lr("Test", "Knowledge") and rows[3] == lr("Ob", "<2>")
    press(a, K_DOWN, K_DOWN, *(K_RIGHT,) * 5)       # the spell's Ob 7: the check's 8
    rows = press(a, K_DOWN, K_LEFT, K_LEFT, K_LEFT)  # Score 0: 2 dice, a sure failure
    assert rows[0] == lr("MASTERY", "2d6 Ob8") and rows[7] == "Odds 0.0%"
    rows = press(a, K_OK)
    kind, args, faces, text = _last(s)
    assert kind == sp.SPELL and args == [sp.MASTER, 0, 4, 7, 0, 0, 0] and text == "Spell 1"
    assert len(faces) == 2 and rows[0] == lr("RESULT", "mastery") and "FAILURE" in rows[2]
    assert "Ada can never learn Spell 1" in " ".join(rows)
    never = [t for t in s.c.tals if t is not None and t.role == sp.ROLE_NEVER]
    assert len(never) == 1 and never[0].name == "Spell 1" and never[0].owner == 0
    rows = press(a, K_OK)                           # back on Spells
    assert rows[6] == "Spell 1: rename"
    press(a, K_UP, K_UP, K_OK, K_OK, K_OK)          # + learn (its notes read): a name the record does not hold
    kind, args, _f, text = _last(s)
    assert args == [sp.LEARN, 0, 4, 2] and text == "Spell 2"


def test_a_mastery_check_with_materials_learns_on_a_success():
    a, s = _app()
    press(a, *(K_DOWN,) * 5 + (K_OK,), K_UP, K_OK)
    press(a, K_UP, K_UP, K_RIGHT, K_RIGHT)          # Bonus d: 2 units of materials
    rows = press(a, K_UP, K_UP, K_UP, K_RIGHT)      # Ability: Discipline
    assert rows[0] == lr("MASTERY", "7d6 Ob3") and rows[2] == lr("Test", "Discipline")
    press(a, K_OK)
    kind, args, faces, text = _last(s)
    assert args == [sp.MASTER, 0, 5, 2, 3, 2, 0] and len(faces) == 7
    won = len([f for f in faces if f >= 4]) >= 3
    assert len(sp.spells(s.c, 0)) == (1 if won else 0)


# --- Followers and morale -----------------------------------------------------
def test_a_lost_follower_waits_for_the_next_town_phase():
    a, s = _app()
    s.do(ef.FOE, (ef.OP_NEW, 1, 0, 0, 0), "Follower 1")     # Ada's
    s.do(ef.FOE, (ef.OP_NEW, 1, 0, 0, -1), "Foe 2")
    t = ef.foes(s.c)[0]
    press(a, K_UP, K_OK)                            # Foes
    rows = press(a, K_DOWN, K_DOWN, K_OK)           # the Follower, below Next round
    assert rows[0] == lr("Follower 1", "Ada")
    press(a, *(K_DOWN,) * 6)
    assert _sel(a) == "Lost: died/left"
    rows = press(a, K_OK)
    kind, args, _f, _t = _last(s)
    assert kind == ef.FOE and args == [ef.OP_LOST, t]
    assert rows[0] == "FOLLOWER LOST" and "next Town Phase" in " ".join(rows)
    rows = press(a, K_OK)                           # back on Foes, without it
    assert rows[3] == lr("Foe 2", "4/4")
    press(a, K_OK)                                  # a foe no one's: no Lost
    assert a.top().menu.items[-2:] == ["Its test/save", "Remove"]
    press(a, K_BACK, K_UP, K_UP, K_OK, K_UP, K_RIGHT)   # + new foe, Follows Ada
    rows = press(a, K_OK)
    assert rows[0] == "REFUSED" and "next Town Phase" in " ".join(rows)
    s.do(tw.TOWN, (tw.START,))                      # the next Town Phase: it may join
    press(a, K_OK, K_OK, K_UP, K_RIGHT, K_OK)
    assert _last(s)[1] == [ef.OP_NEW, 1, 0, 0, 0]


def test_reaction_distance_and_a_morale_check_on_foes():
    a, s = _app()
    rows = press(a, K_UP, K_OK)                     # Foes
    assert rows[1:6] == ["+ new foe", "Next round", "Morale check", "Reaction", "Distance"]
    rows = press(a, K_UP, K_UP, K_OK)               # Reaction
    kind, args, faces, _t = _last(s)
    assert kind == ex.REACTION and args == [] and len(faces) == 1
    assert " ".join(rows[6:8]).startswith("reaction %d: " % faces[0])
    rows = press(a, K_DOWN, K_OK)                   # Distance
    kind, args, faces, _t = _last(s)
    assert kind == ex.DISTANCE and " ".join(rows[6:8]).startswith("distance %d" % faces[0])
    press(a, K_DOWN, K_DOWN, K_OK, K_OK)            # a fight (its notes read): End fight after the tables
    assert a.top().menu.items[2:] == ["Morale check", "Reaction", "Distance", "End fight"]
    rows = press(a, K_DOWN, K_OK)                   # Morale check
    assert rows[0] == "MORALE CHECK" and rows[1] == lr("Die", "<d8>")
    assert rows[2] == lr("Modifier", "<0>") and rows[6] == "holds 4 in 8"
    rows = press(a, K_RIGHT, K_DOWN, K_RIGHT)       # a militant d10, +1
    assert rows[1] == lr("Die", "<d10>") and rows[6] == "holds 7 in 10"
    rows = press(a, K_OK)
    kind, args, faces, _t = _last(s)
    assert kind == ex.MORALE and args == [10, 1] and len(faces) == 1
    assert rows[0] == ("MORALE HOLDS" if faces[0] + 1 >= 5 else "MORALE BREAKS")


def test_a_hit_shows_the_morale_checks_it_prompts():
    a, s = _app()
    s.do(ef.FOE, (ef.OP_NEW, 1, 0, 0, -1), "Foe 1")          # 4 HP each
    s.do(ef.FOE, (ef.OP_NEW, 1, 0, 0, -1), "Foe 2")
    t = ef.foes(s.c)[0]
    press(a, K_UP, K_OK)                            # Foes
    rows = press(a, K_DOWN, K_DOWN, K_LEFT)         # 1 damage from full HP
    assert _last(s)[1] == [ef.OP_HIT, t, 1, 0, 0, 0]
    assert rows[0] == "MORALE CHECK" and "morale check: first damage" in " ".join(rows)
    rows = press(a, K_OK, K_LEFT)                   # 2/4: no prompt, the list
    assert rows[0] == "FOES" and rows[3] == lr("Foe 1", "2/4")
    press(a, K_OK, K_RIGHT)                         # the foe: Damage 2, Hit
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_OK)
    assert _last(s)[1] == [ef.OP_HIT, t, 2, 0, 0, 0]
    assert rows[0] == lr("MORALE CHECK", "1/2")     # three notes: two pages
    text = " ".join(rows[1:7]) + " " + " ".join(press(a, K_DOWN)[1:7])
    assert "OUT OF ACTION" in text and "group morale check: the first one down" in text
    assert "group morale check: half the side out (1 of 2)" in text
