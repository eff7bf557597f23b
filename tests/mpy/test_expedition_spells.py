"""expedition's spells and channeling, on CPython and
MicroPython, with keyed-in faces: each test quotes the sentence of the
seed (shared/seeds/004_cd61a830e243f4ef.txt) it implements."""
from rules import campaign as cp, systems
from rules import expedition as ex
from rules import expedition_spells as sp
from rules import expedition_foes as ef
from support import raises_unchanged

S = sp.SPELL
HIT = (6, 6, 6, 1, 1, 1)   # three successes of six dice
NONE6 = (1, 2, 3, 1, 2, 3)  # no success


def new(hp=10, res=3, armor=0, shield=0):
    c = cp.Campaign(systems.EXPEDITION, cid=7)
    c.act(cp.CHAR_ADD, (), "Katie")
    c.act(ex.SHEET, (0, hp, hp, res, res, armor, shield, 0))
    c.act(S, (sp.LEARN, 0, 4, 5), "Miasma")      # "Knowledge Ob 5"
    return c


def v(c):
    return c.chars[0].v


def test_learn_a_spell():
    c = new()
    t = sp.spells(c, 0)[0]
    tal = c.tals[t]
    assert (tal.name, tal.role, tal.owner, tal.a, tal.b, tal.n) == ("Miasma", ex.ROLE_SPELL, 0, 4, 5, 0)
    raises_unchanged(c, c.act, S, (sp.LEARN, 0, 4, 5), "Miasma")   # known already
    raises_unchanged(c, c.act, S, (sp.LEARN, 0, 6, 5), "Bind")     # Ability 0..5
    raises_unchanged(c, c.act, S, (sp.LEARN, 0, 3, 8), "Bind")     # Ob 1..7
    raises_unchanged(c, c.act, S, (sp.LEARN, 0, 3, 4), "")         # a name
    raises_unchanged(c, c.act, S, (3, 0), "")                      # ops 0..2


def test_channeling_spends_a_control_and_succeeds():
    # "To channel a spell, spend one Control and then make the listed Ability
    # test. ... If you successfully pass the test, you will be able to attempt
    # another channeling of the spell later today (as long as you have Control
    # to power it)."
    c = new(res=2)
    t = sp.spells(c, 0)[0]
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 5 + (1,))
    assert (out.successes, out.verdict, out.margin) == (5, 1, 0)
    assert v(c)[ex.RES] == 1 and c.tals[t].n == 0 and v(c)[ex.HP] == 10
    c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 6)
    assert v(c)[ex.RES] == 0
    # No Control left: refused, nothing spent, nothing rolled.
    raises_unchanged(c, c.act, S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 6)


def test_channeling_in_a_fight_is_the_rounds_class_resource():
    # "Characters may only spend one of each type of Class Resource per
    # Round": the Control a channeling spends is that Round's.
    c = new(res=3)
    t = sp.spells(c, 0)[0]
    c.act(ef.ROUND, (0,))                              # a fight is tracked
    c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 6)
    e = raises_unchanged(c, c.act, S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 6)
    assert "this Round" in str(e)
    raises_unchanged(c, c.act, ex.USE_RES, (0, 1))
    c.act(ef.ROUND, (0,))                              # the next Round
    c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 6)
    assert v(c)[ex.RES] == 1


def test_failure_deals_the_margin_and_loses_the_spell_until_a_long_rest():
    # "If you fail the test, however, you 1) take damage equal to your Margin
    # of Failure, and 2) cannot channel that specific spell again until
    # you've taken a long rest." "After a long rest, characters ... replenish
    # any depleted spells".
    c = new()
    t = sp.spells(c, 0)[0]
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=HIT)
    assert (out.successes, out.verdict, out.margin) == (3, 0, 2)
    assert v(c)[ex.HP] == 8 and c.tals[t].n == 1 and v(c)[ex.RES] == 2
    assert len(c.tals) == 1                                       # no mutation
    raises_unchanged(c, c.act, S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 6)
    c.act(ex.LONG_REST, ())
    assert c.tals[t].n == 0
    c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 6)


def test_zero_successes_bring_a_random_mutation():
    # "If you fail a channeling test by rolling zero successes, the plasmid's
    # mutagenic energy cascades out of control: you gain a random Mutation."
    # "Roll 1d100 whenever something causes you to mutate."
    c = new()
    t = sp.spells(c, 0)[0]
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=NONE6 + (37,))
    assert (out.successes, out.verdict, out.margin) == (0, 0, 5)
    assert v(c)[ex.HP] == 5 and list(out.faces) == list(NONE6) + [37]
    assert out.tal == t                         # the channel's Outcome names its spell
    m = c.tals[-1]                              # the Mutation: the newest talisman
    assert (m.role, m.owner, m.a, m.name) == (sp.ROLE_MUTATION, 0, 37, "Mutation 37")
    # -Ns taking the only success away is a failure, not a zero-success roll.
    c.act(ex.LONG_REST, ())
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 1, 0), faces=(6, 1, 1, 1, 1, 1))
    assert out.verdict == 0 and len(c.tals) == 2
    # Mutate on its own (Genoplasm, Accelerating Mutation...), named.
    out = c.act(S, (sp.MUTATE, 0), "Gills", faces=(100,))
    assert c.tals[out.tal].name == "Gills" and c.tals[out.tal].a == 100


def test_armor_adds_one_ob_a_slot():
    # "Armor: +1 Ob from each Slot that armor or a shield occupies"; "Light
    # Armor occupies one Slot", heavy "occupies two Slots", a shield "must be
    # held in a Fast Slot".
    c = new(armor=2, shield=1)                    # Ob 5 + 2 + 1
    t = sp.spells(c, 0)[0]
    assert sp.armor_ob(v(c)) == 3
    out = c.act(S, (sp.CHANNEL, t, 4, 2, 0, 0, 0, 0), faces=(6,) * 7 + (1,))
    assert (out.verdict, out.margin) == (0, 1) and "7 vs Ob 8: failure by 1" in out.notes
    c = new(armor=1)
    t = sp.spells(c, 0)[0]
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0), faces=(6,) * 6)
    assert (out.verdict, out.margin) == (1, 0)


def test_katies_miasma_damage_taken_while_channeling():
    # The seed's example: Knowledge 4 (six dice), Miasma Ob 5, a troll's six
    # dice; "Katie fails, with just three successes to five. So, Katie not
    # only takes two points of damage, but she must also add her Margin of
    # Failure (2) to the Channeling Test's Obstacle Rating ... Knowledge Ob 7
    # ... Katie takes an additional four points of damage (three successes
    # versus Ob 7) and loses the spell."
    c = new()
    t = sp.spells(c, 0)[0]
    troll = (6, 6, 6, 6, 6, 1)                    # a Level 3 troll: 6 dice, 5 successes
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0), faces=HIT + troll)
    assert (out.successes, out.verdict, out.margin) == (3, 0, 4)
    assert "3 vs Ob 7: failure by 4" in out.notes
    assert v(c)[ex.HP] == 10 - 2 - 4 and c.tals[t].n == 1


def test_damage_taken_raises_the_ob_after_blocks_and_by_argument():
    # "+1 Ob per point of damage taken": what gets past an armor block is taken.
    c = new(armor=1)                              # light: Block 2, 1 Slot
    t = sp.spells(c, 0)[0]
    foe = (6, 6, 6, 6, 6, 6)                      # an Ability 4 foe: 6 successes
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1), faces=HIT + foe)
    # 3 vs 6: 3 damage, 2 blocked, 1 taken; Ob 5 + 1 (armor) + 1 = 7.
    assert "3 vs Ob 7: failure by 4" in out.notes and v(c)[ex.SPENT] == 1
    assert v(c)[ex.HP] == 10 - 1 - 4
    # Damage taken earlier in the round, given as `taken`.
    c = new()
    t = sp.spells(c, 0)[0]
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 2), faces=(6,) * 6)
    assert "6 vs Ob 7: failure by 1" in out.notes
    # A tie: "all participants in the exchange take one damage".
    c = new()
    t = sp.spells(c, 0)[0]
    out = c.act(S, (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0),
                faces=(6,) * 6 + (6, 6, 6, 6, 6, 6))
    assert "attacker takes 1" in out.notes and "6 vs Ob 6: success by 0" in out.notes
    assert v(c)[ex.HP] == 9


def test_bad_channels_are_refused_and_change_nothing():
    c = new()
    t = sp.spells(c, 0)[0]
    c.act(ex.USAGE_NEW, (6, -1, 1), "Torches")
    ok = (sp.CHANNEL, t, 4, 0, 0, 0, 0, 0)
    for bad in ((sp.CHANNEL, 1, 4, 0, 0, 0, 0, 0),          # not a spell
                (sp.CHANNEL, t, 11, 0, 0, 0, 0, 0),         # score 0..10
                (sp.CHANNEL, t, 4, 0, 0, 0, 0, 100),        # damage taken 0..99
                (sp.CHANNEL, t, 4, 0, 0, 7, 0, 0),          # +s 0..6
                ok[:7], ok + (0,),                          # 8 or 14 arguments
                ok + (-1, 1, 0, 0, 0, 0),                   # no attacker: no flags
                ok + (4, 0, 0, 0, 0, 1),                    # no armor to block with
                ok + (15, 1, 0, 0, 0, 0)):                  # Level 0..14
        raises_unchanged(c, c.act, S, bad, faces=(6,) * 12)
    c.act(ex.DAMAGE, (0, 10, 0))
    c.act(ex.DOWN_OUT, (0, 0))                               # dead
    raises_unchanged(c, c.act, S, ok, faces=(6,) * 6)


def test_an_old_state_still_loads():
    # A state encoded by the firmware before spells and the town phase (one
    # character, a torch): it decodes, and the new events work on it.
    old = (b"DT\x01\x02\x08\x14\x0c\x08\x00\x04\x04\x02\x02\x02\x03Ada\x18\x06\x08\x00\x02"
           b"\x04\x00\x00\x00\x00\x00\x02\x00\x02\x01\x05Torch\n\x06\x00\x01\x02\x01\x0c\x02")
    c = cp.decode_state(old)
    assert cp.encode_state(c) == old
    c.act(ex.SHEET, (0, 4, 4, 1, 1, 0, 0, 0))
    c.act(S, (sp.LEARN, 0, 0, 2), "Bloodlust")
    out = c.act(S, (sp.CHANNEL, 1, 2, 0, 0, 0, 0, 0), faces=(6, 6, 1, 1))
    assert out.verdict == 1 and c.chars[0].v[ex.RES] == 0


def test_the_spells_screen_learns_and_channels():
    # Home > Spells > + learn, then OK on the spell: its Channeling Test with
    # the pool, the Ob and the exact odds; OK channels it.
    from hw.keys import K_DOWN, K_RIGHT, K_OK
    from rules import codec, odds
    from fakeapp import make, press
    a, b, s = make(2)
    s.do(cp.CHAR_ADD, (), "Katie")
    s.do(ex.SHEET, (0, 8, 8, 2, 2, 1, 0, 0))      # light armor: +1 Ob
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)     # Spells
    assert rows[0].startswith("SPELLS") and rows[1] == "+ learn" and rows[2] == "Mutate"
    rows = press(a, K_OK)                                            # + learn
    assert rows[0] == "LEARN A SPELL" and "Knowledge" in rows[2]
    rows = press(a, K_DOWN, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT, K_OK)  # Ob 5
    assert rows[0] == "OUTCOME" and " ".join(rows[1:4]) == "Katie knows Spell 1 (Knowledge Ob 5)"
    rows = press(a, K_OK)                                            # read: Spells
    assert rows[1].startswith("Spell 1") and rows[1].endswith("Kn5")
    assert rows[6:] == ["Spell 1: rename", "in Talismans"]
    rows = press(a, K_OK)                                            # its Channeling Test
    assert rows[0].endswith("5d6 Ob6")                               # Score 3; Ob 5 + 1
    assert rows[7] == "Odds " + odds.fmt_permille(odds.builder_odds(2, 5, 6))
    rows = press(a, K_RIGHT)                                         # Score 4
    assert rows[0].endswith("6d6 Ob6")
    press(a, K_OK)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == sp.SPELL and args == [1, 0, 4, 0, 0, 0, 0, 0] and len(faces) == 6
    assert s.c.chars[0].v[ex.RES] == 1
    assert a.top().head.startswith("RESULT")
