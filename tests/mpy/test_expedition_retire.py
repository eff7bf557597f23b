"""expedition's retirement ("how retirement affects the
creation of replacement characters"), on CPython and MicroPython, with
keyed-in faces: each test quotes the sentence of the seed
(shared/seeds/004_cd61a830e243f4ef.txt) it implements."""
from rules import campaign as cp, systems
from rules import expedition_chars as ec
from rules import expedition_town as tw
from support import raises_unchanged

A = ec.ABIL
R = ec.OP_RETIRE


def new(boons=2):
    """Ada, Abilities 3 each and `boons` Boons; Bo, her new character (rolled)."""
    c = cp.Campaign(systems.EXPEDITION, cid=5)
    for n in ("Ada", "Bo"):
        c.act(cp.CHAR_ADD, (), n)
        c.act(A, (ec.OP_SET, len(c.chars) - 1, 3, 3, 3, 3, 3, 3))
    for _ in range(boons - ec.START_BOONS):
        c.act(A, (ec.OP_BOON, 0))
    return c


def abilities(c, i):
    t = c.tals[ec.record(c, i)]
    return [ec.get(t, k) for k in range(6)]


def test_mentorship_one_ability_a_full_five_boons():
    # "the new character gains +1 to a different Ability (of your choice)
    # for each complete set of five Boons that the retiring character
    # possesses, up to a maximum of +1 to all Abilities at 30 Boons."
    c = new(boons=12)                                   # two full sets of five
    raises_unchanged(c, c.act, A, (R, 0, 1, 0, 0b000001))      # names one, owes two
    raises_unchanged(c, c.act, A, (R, 0, 1, 0, 0b000111))      # three
    out = c.act(A, (R, 0, 1, 0, 0b100001))              # Might and Discipline
    assert abilities(c, 1) == [4, 3, 3, 3, 3, 4] and abilities(c, 0) == [3] * 6
    assert ec.retired(c.tals[ec.record(c, 0)]) and "Ada retires" in " ".join(out.notes)
    c = new(boons=34)
    c.act(A, (R, 0, 1, 0, 63))                          # at 30 and over: all six
    assert abilities(c, 1) == [4] * 6


def test_businesses_one_rank_for_two_of_the_retirees():
    # "the new character gains one rank in Businesses for every two full
    # ranks in the retiree's Businesses score."
    c = new()
    c.act(tw.TOWN, (tw.SHEET, 0, 4, 0, 5, 0))           # Ada: Businesses 5
    c.act(A, (R, 0, 1, 1, 0))
    assert tw.get(c.chars[1].v, tw.BUS) == 2
    raises_unchanged(c, c.act, A, (R, 0, 1, 1, 3))      # Businesses takes no pick


def test_reputation_a_d8_plus_boons_over_it():
    # "Roll 1d8 and add one point for every full set of five Boons earned by
    # the retiring character; if the result is greater than your Reputation
    # with that Faction, increase your Reputation with them by one point per
    # complete set of ten Boons."
    c = new(boons=20)
    g = c.act(tw.TOWN, (tw.REPUTE, -1, 5), "Guild").tal  # Reputation +5
    out = c.act(A, (R, 0, 1, 2, g), faces=(2,))         # 2 + 4 = 6 > 5: +2
    assert (out.successes, out.verdict) == (6, 1) and c.tals[g].a == 7
    c = new(boons=20)
    g = c.act(tw.TOWN, (tw.REPUTE, -1, 5), "Guild").tal
    out = c.act(A, (R, 0, 1, 2, g), faces=(1,))         # 1 + 4 = 5, not greater
    assert out.verdict == 0 and c.tals[g].a == 5
    assert ec.retired(c.tals[ec.record(c, 0)])         # retired either way
    c = new(boons=20)
    raises_unchanged(c, c.act, A, (R, 0, 1, 2, 0), faces=(8,))   # talisman 0 is no Faction


def test_one_benefit_for_the_new_character_only():
    # "you may choose one (and only one) of the three following benefits
    # for your new character" ... "existing characters never receive
    # benefits from other characters' retirement; an incentive only applies
    # to the new character rolled to replace the retiring character."
    c = new(boons=5)
    raises_unchanged(c, c.act, A, (R, 0, 0, 0, 1))      # not herself
    raises_unchanged(c, c.act, A, (R, 0, 1, 3, 0))      # benefit 0..2
    c.act(A, (ec.OP_BOON, 1))                           # Bo is no longer new
    raises_unchanged(c, c.act, A, (R, 0, 1, 0, 1))
    c.act(cp.CHAR_ADD, (), "Cy")                        # Cy has no Abilities yet
    raises_unchanged(c, c.act, A, (R, 0, 2, 0, 1))
    c.act(A, (ec.OP_SET, 2, 2, 2, 2, 2, 2, 2))
    c.act(A, (R, 0, 2, 0, 1))
    # "Retired characters live on as non-player characters": the record
    # stays as it was, and takes no more improvements, Boons or retirement.
    raises_unchanged(c, c.act, A, (ec.OP_BOON, 0))
    raises_unchanged(c, c.act, A, (R, 0, 2, 0, 1))
    c.undo()                                            # undo brings her back
    assert not ec.retired(c.tals[ec.record(c, 0)]) and abilities(c, 2) == [2] * 6
