"""expedition's rules of the town, spells and foes, on CPython and
MicroPython, with keyed-in faces: each test quotes the sentence of the
seed (shared/seeds/004_cd61a830e243f4ef.txt) it implements (a journal
recorded before them folds as it did: test_expedition_journal.py)."""
from rules import campaign as cp, systems
from rules import expedition as ex
from rules import expedition_foes as ef
from rules import expedition_spells as sp
from rules import expedition_town as tw
from support import raises_unchanged

T = tw.TOWN


def new(wealth=4, cash=10):
    c = cp.Campaign(systems.EXPEDITION, cid=28)
    c.act(cp.CHAR_ADD, (), "Ada")
    c.act(cp.CHAR_ADD, (), "Bo")
    c.act(T, (tw.SHEET, 0, wealth, cash, 0, 0))
    return c


def cash(c, i=0):
    return tw.get(c.chars[i].v, tw.CASH_F)


# --- a Circles check past 20 dice ------------------------------------

def test_a_circles_check_rolls_past_twenty_dice():
    # "roll a Pool of six-sided dice equal to two plus your Presence score
    # (as usual for Presence tests) plus an additional number of dice equal
    # to your Circles rating. If you belong to a Faction that would
    # plausibly make your Ask more credible ..., you may also add a number of
    # dice equal to your Faction's Reputation." Presence 5, Circles +6d and
    # Reputation 10: 23 dice.
    c = new()
    c.act(T, (tw.SHEET, 0, 4, 10, 0, 6))
    g = c.act(T, (tw.REPUTE, -1, 10), "Guild").tal
    out = c.act(T, (tw.CIRCLES, 0, 5, 12, g, 0, 0), faces=(6,) * 12 + (1,) * 11)
    assert len(out.faces) == 23 and (out.successes, out.verdict, out.margin) == (12, 1, 0)
    assert "Circles 23d" in out.notes[0]
    # The most the arguments make: Presence 10, +6d, Reputation 10, 18 more bonus dice.
    out = c.act(T, (tw.CIRCLES, 0, 10, 30, g, 18, 0), faces=(4,) * 46)
    assert len(out.faces) == tw.MAX_CIRCLES == 46 and out.successes == 46
    raises_unchanged(c, c.act, T, (tw.CIRCLES, 0, 10, 30, g, 19, 0), faces=(4,) * 47)
    raises_unchanged(c, c.act, T, (tw.CIRCLES, 0, 11, 3, g, 0, 0), faces=(4,) * 29)


def _coins_at_least(n, k):
    # P(at least k heads of n coins) * 2**n, by Pascal's triangle (no long
    # arithmetic shortcut shared with the code under test).
    row = [1]
    for _ in range(n):
        row = [a + b for a, b in zip([0] + row, row + [0])]
    return sum(row[k:])


def test_the_circles_screen_shows_exact_odds_past_twenty_dice():
    # The Town screen's Circles line: the exact odds of every pool the check
    # rolls (it said "pool over 20" before).
    from hw.keys import K_DOWN, K_RIGHT, K_OK
    from fakeapp import make, press
    from rules import odds
    from ui import town
    a, b, s = make(2)
    s.do(cp.CHAR_ADD, (), "Ada")
    s.do(T, (tw.SHEET, 0, 4, 10, 0, 6))
    s.do(T, (tw.REPUTE, -1, 10), "Guild")
    press(a, *(K_DOWN,) * 6 + (K_OK,))                               # Town
    scr = a.top()
    press(a, *(K_DOWN,) * scr.items.index("Circles check"))
    press(a, K_OK)                                                   # Presence 2, Ob 2, no faction
    rows = press(a, K_RIGHT, K_RIGHT, K_RIGHT)                      # Presence 5
    press(a, K_DOWN, K_DOWN)
    rows = press(a, K_RIGHT)                                         # the Guild: +10d
    n = 2 + 5 + 6 + 10
    want = odds.fmt_permille(odds.permille(_coins_at_least(n, 2), 1 << n))
    assert rows[7] == "%dd Odds %s" % (n, want) == "23d Odds 99.9%"
    assert town.cash_odds(46, 30) == odds.fmt_permille(
        odds.permille(_coins_at_least(46, 30), 1 << 46)) == "2.7%"
    assert town.cash_odds(0, 1) == "0.0%"


# --- Desperate Returns 3 halves the Cash -------------------------------

def test_desperate_returns_three_halves_the_cash():
    # "3. Lose half of your Cash and Cash-equivalent Treasure." Half of 9
    # lost is 4.5: "Always round up unless explicitly noted otherwise", so
    # 5 are lost and 4 kept.
    c = new(cash=9)
    out = c.act(ex.DESPERATE, (0, 1), faces=(3,))
    assert cash(c) == 4 and "Ada loses 5 Cash: Cash 4" in out.notes
    c.undo()
    assert cash(c) == 9
    c.redo()
    c.act(ex.DESPERATE, (0, 1), faces=(3,))
    c.act(ex.DESPERATE, (0, 1), faces=(3,))
    assert cash(c) == 1
    c.act(ex.DESPERATE, (0, 1), faces=(3,))
    assert cash(c) == 0
    # The old form (char) notes it only, as every journal before means.
    c = new(cash=9)
    c.act(ex.DESPERATE, (0,), faces=(3,))
    assert cash(c) == 9
    # No Cash ever set: nothing written (the character's fields as they were).
    before = list(c.chars[1].v)
    c.act(ex.DESPERATE, (1, 1), faces=(3,))
    assert c.chars[1].v == before
    c.act(ex.DESPERATE, (0, 1), faces=(4,))          # another result: its own, Cash kept
    assert cash(c) == 9 and c.chars[0].v[ex.MAX_HP] == 2
    raises_unchanged(c, c.act, ex.DESPERATE, (0, 2), faces=(3,))


# --- goods sold by dice -----------------------------------------------

def test_selling_a_good_by_dice():
    # "If a good has a Cost lower than a character's Wealth score, that good
    # cannot be sold for a significant amount of Cash. ... If a good has a
    # higher Cost than a character's Wealth, subtract the Wealth score from
    # the Cost and roll that number of dice; successes generate a point of
    # Cash (analogous to a Business roll)."
    c = new(wealth=4, cash=10)
    out = c.act(T, (tw.GOODS, 0, 7), "Rowboat", faces=(6, 5, 1))
    assert (out.successes, out.margin, out.verdict) == (2, 2, 1) and cash(c) == 12
    assert "Rowboat sold: 3d, +2 Cash" in out.notes
    out = c.act(T, (tw.GOODS, 0, 5), faces=(3,))
    assert out.verdict == 0 and cash(c) == 12
    raises_unchanged(c, c.act, T, (tw.GOODS, 0, 4), faces=())       # Cost = Wealth: pocket change
    raises_unchanged(c, c.act, T, (tw.GOODS, 0, 2), faces=())
    raises_unchanged(c, c.act, T, (tw.GOODS, 0, 41), faces=(6,) * 37)
    c.act(T, (tw.CASH, 0, 9999 - 12))
    raises_unchanged(c, c.act, T, (tw.GOODS, 0, 5), faces=(1,))     # no room for the Cash


# --- the buying limits --------------------------------------------------

def test_each_more_hireling_or_animal_costs_one_cash_more():
    # "Hirelings: +1 Cash (cumulative) for each additional hireling after the
    # first." "Animals, Livestock, Pack Animals, Mounts: +1 Cash (cumulative)
    # for each additional medium or large animal after the first."
    c = new(wealth=5, cash=10)
    for k in range(3):                                   # three Porters (Cost 3), Wealth purchases
        c.act(T, (tw.WEALTH, 0, 3, tw.HIRELING))
    assert cash(c) == 10 - 1 - 2 and tw.get(c.chars[0].v, tw.HIRES) == 3
    out = c.act(T, (tw.WEALTH, 0, 4, tw.ANIMAL))         # the 4th purchase (1), the 1st animal (0)
    assert cash(c) == 6 and tw.get(c.chars[0].v, tw.BEASTS) == 1
    out = c.act(T, (tw.WEALTH, 0, 4, tw.ANIMAL))         # the 5th (2), the 2nd animal (1)
    assert cash(c) == 3 and "animal 2 this Town Phase: +1 Cash" in out.notes
    raises_unchanged(c, c.act, T, (tw.WEALTH, 0, 3, tw.HIRELING))   # 3 + 3 Cash, 3 held
    c.act(T, (tw.WEALTH, 1, 0, tw.HIRELING))             # Bo counts his own
    assert tw.get(c.chars[1].v, tw.HIRES) == 1
    # A Cash test: the surcharge is spent with a purchase made, never rolled.
    c.act(T, (tw.START,))
    c.act(T, (tw.CASH, 0, 7))                            # 10 Cash
    c.act(T, (tw.BUY, 0, 6, 2, tw.HIRELING), faces=(6, 1))   # an Expert, Cost 6, Ob 1: the 1st
    assert cash(c) == 8
    out = c.act(T, (tw.BUY, 0, 6, 2, tw.HIRELING), faces=(1, 1))   # failed: nothing bought
    assert out.verdict == 0 and cash(c) == 6 and tw.get(c.chars[0].v, tw.HIRES) == 1
    c.act(T, (tw.BUY, 0, 6, 2, tw.HIRELING), faces=(5, 1))  # the 2nd: 2 dice and 1 Cash
    assert cash(c) == 3 and tw.get(c.chars[0].v, tw.HIRES) == 2
    raises_unchanged(c, c.act, T, (tw.BUY, 0, 6, 2, tw.HIRELING), faces=(6, 6))  # 2 + 2 > 3
    raises_unchanged(c, c.act, T, (tw.BUY, 0, 6, 1, 4), faces=(6,))
    c.act(T, (tw.START,))                                # counted afresh
    c.act(T, (tw.WEALTH, 0, 3, tw.HIRELING))
    assert cash(c) == 3


def test_one_building_or_boat_a_town_phase():
    # "Buildings and Boats: Only one of these big-ticket items may be
    # purchased per Town Phase."
    c = new(wealth=7, cash=20)
    c.act(T, (tw.WEALTH, 0, 7, tw.BIG))                  # Small Sailing Vessel, Cost 7
    raises_unchanged(c, c.act, T, (tw.WEALTH, 0, 7, tw.BIG))
    raises_unchanged(c, c.act, T, (tw.BUY, 0, 10, 5, tw.BIG), faces=(6,) * 5)
    c.act(T, (tw.WEALTH, 0, 7))                          # anything else still
    c.act(T, (tw.START,))
    out = c.act(T, (tw.BUY, 0, 10, 4, tw.BIG), faces=(1,) * 4)   # a failed Cash test buys none...
    assert out.verdict == 0
    c.act(T, (tw.BUY, 0, 10, 4, tw.BIG), faces=(6,) * 4)         # ...so one may still be bought
    raises_unchanged(c, c.act, T, (tw.WEALTH, 0, 6, tw.BIG))


def test_purchases_of_an_older_journal_keep_their_meaning():
    # The old forms (no `what`) are "other" purchases: nothing counted, and
    # a state without the new fields encodes as it did.
    c = new(wealth=5, cash=10)
    for _ in range(3):
        c.act(T, (tw.WEALTH, 0, 3))
    c.act(T, (tw.BUY, 0, 7, 2), faces=(6, 6))
    assert len(c.chars[0].v) <= len(ex.CHAR_FIELDS) + tw.HIRES
    c.act(T, (tw.START,))
    assert len(c.chars[0].v) <= len(ex.CHAR_FIELDS) + tw.HIRES


# --- a failed Spell Mastery Check ------------------------------------

def test_a_failed_spell_mastery_check_is_never_learnable():
    # "The Obstacle Rating for the check is equal to the normal Channeling
    # Ability and Ob for the spell plus one. ... If the Spell Mastery Check
    # succeeds, the spell is added to the sorcerer's list of known spells.
    # If it is failed, the sorcerer can never learn the spell, no matter how
    # many times she retries the test."
    c = new()
    # Miasma, Knowledge Ob 2: the check is Ob 3. Knowledge 3 and +1d: 6 dice.
    out = c.act(sp.SPELL, (sp.MASTER, 0, 4, 2, 3, 1, 0), "Miasma", faces=(6, 6, 1, 1, 1, 1))
    assert (out.successes, out.verdict, out.margin) == (2, 0, 1)
    t = out.tal
    assert (c.tals[t].role, c.tals[t].owner, c.tals[t].name) == (sp.ROLE_NEVER, 0, "Miasma")
    assert sp.spells(c, 0) == []
    e = raises_unchanged(c, c.act, sp.SPELL, (sp.MASTER, 0, 4, 2, 3, 1, 0), "Miasma",
                         faces=(6,) * 6)
    assert "never learnable" in str(e)
    raises_unchanged(c, c.act, sp.SPELL, (sp.LEARN, 0, 4, 2), "Miasma")
    # Another sorcerer may; a success learns it as LEARN does.
    out = c.act(sp.SPELL, (sp.MASTER, 1, 4, 2, 3, 0, 0), "Miasma", faces=(6, 6, 6, 1, 1))
    assert out.verdict == 1 and sp.spells(c, 1) == [out.tal]
    assert (c.tals[out.tal].a, c.tals[out.tal].b) == (4, 2)
    raises_unchanged(c, c.act, sp.SPELL, (sp.MASTER, 1, 4, 2, 3, 0, 0), "Miasma",
                     faces=(6,) * 5)                                # known already
    c.undo()
    c.undo()                                             # the failure taken back: learnable again
    c.act(sp.SPELL, (sp.LEARN, 0, 4, 2), "Miasma")


# --- group morale, a lost Follower -------------------------------------

def _orc(c, tier=ef.MONSTER, owner=-1, name="Orc"):
    return c.act(ef.FOE, (ef.OP_NEW, 1, tier, 0, owner), name).tal   # Level 1: 4 HP


def test_group_morale_prompts():
    # "For a group, moral checks are usually made when the first creature
    # goes down, and when half of the total number on one's side are
    # incapacitated or killed. (Groups make shared morale checks.)"
    c = new()
    orcs = [_orc(c) for _ in range(4)]
    _orc(c, owner=1, name="Hound")                       # Bo's Follower: the party's side
    out = c.act(ef.FOE, (ef.OP_HIT, orcs[0], 4, 0, 0, 0))
    assert "group morale check: the first one down" in out.notes
    out = c.act(ef.FOE, (ef.OP_HIT, orcs[1], 9, 0, 0, 0))
    assert "group morale check: half the side out (2 of 4)" in out.notes
    out = c.act(ef.FOE, (ef.OP_HIT, orcs[2], 9, 0, 0, 0))
    assert not [n for n in out.notes if "group" in n]
    out = c.act(ef.FOE, (ef.OP_HIT, orcs[3], 1, 0, 0, 0))    # hurt, not down: its own prompt
    assert out.notes[-1] == "morale check: first damage"
    # "Legendary creatures are not subject to morale checks": with only one
    # left standing, no group check.
    c = new()
    a = _orc(c)
    _orc(c, ef.LEGENDARY, name="Dragon")
    out = c.act(ef.FOE, (ef.OP_HIT, a, 4, 0, 0, 0))
    assert not [n for n in out.notes if "group" in n]


def test_a_lost_followers_replacement_joins_from_the_next_session():
    # "If a specific Follower dies, another may be recruited, but is not
    # able to join the expedition until the beginning of the session
    # following the loss." The tray's sessions are its Town Phases.
    c = new()
    h = _orc(c, owner=0, name="Hound")
    out = c.act(ef.FOE, (ef.OP_LOST, h))
    assert c.tals[h] is None and "next Town Phase" in out.notes[-1]
    e = raises_unchanged(c, c.act, ef.FOE, (ef.OP_NEW, 3, ef.MONSTER, 0, 0), "Hound 2")
    assert "next Town Phase" in str(e)
    _orc(c, owner=1, name="Cat")                         # Bo lost none
    _orc(c)                                              # a monster is no one's Follower
    o = _orc(c, name="Wolf")
    raises_unchanged(c, c.act, ef.FOE, (ef.OP_LOST, o))  # "lost" is a Follower's
    c.act(T, (tw.START,))                                # the next session
    _orc(c, owner=0, name="Hound 2")
    # FOE remove (op 5), as every journal before wrote it, waits for nothing.
    c = new()
    h = _orc(c, owner=0, name="Hound")
    c.act(ef.FOE, (ef.OP_REMOVE, h))
    _orc(c, owner=0, name="Hound 2")


# --- a channel's Outcome names its spell -------------------------------

def test_a_channels_outcome_is_its_spell():
    c = new()
    c.act(ex.SHEET, (0, 8, 8, 3, 3, 0, 0, 0))
    c.act(ef.ROUND, (ef.OP_NEXT,))                       # talisman 0: the fight
    t = c.act(sp.SPELL, (sp.LEARN, 0, 4, 2), "Miasma").tal
    assert t == 1
    out = c.act(sp.SPELL, (sp.CHANNEL, t, 3, 0, 0, 0, 0, 0), faces=(6, 6, 1, 1, 1))
    assert out.verdict == 1 and out.tal == t
    c.act(ef.ROUND, (ef.OP_NEXT,))
    out = c.act(sp.SPELL, (sp.CHANNEL, t, 3, 0, 0, 0, 0, 0), faces=(1,) * 5 + (50,))
    assert out.successes == 0 and out.tal == t and c.tals[-1].role == sp.ROLE_MUTATION
