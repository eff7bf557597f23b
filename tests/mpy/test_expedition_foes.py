"""expedition's tracked monsters and NPCs, combat rounds
and character generation, ability improvement and Boons, with
keyed-in faces; runs under pytest and on MicroPython. Each test quotes the
sentence of the seed (004) it implements."""
from rules import campaign as cp, systems
from rules import expedition as ex
from rules import expedition_foes as ef
from rules import expedition_chars as ec
from support import raises_unchanged


def new(names=("Ada", "Bo")):
    c = cp.Campaign(systems.EXPEDITION, cid=4)
    for n in names:
        c.act(cp.CHAR_ADD, (), n)
    return c


def monster(c, level=3, tier=0, hp=0, owner=-1, name="Orc"):
    return c.act(ef.FOE, (0, level, tier, hp, owner), name).tal


# --- monsters and NPCs ------------------------------------------------

def test_toughness_by_level_elite_and_legendary():
    # "The baseline formula for a monster's Toughness is 2 HP plus 2 HP per
    # level. Elite monsters have 50% more HP, while Legendary monsters have
    # 100% more HP."
    assert [ef.toughness(lv, ef.MONSTER) for lv in (0, 1, 3, 14)] == [2, 4, 8, 30]
    assert [ef.toughness(lv, ef.ELITE) for lv in (0, 1, 3, 14)] == [3, 6, 12, 45]
    assert [ef.toughness(lv, ef.LEGENDARY) for lv in (0, 1, 3, 14)] == [4, 8, 16, 60]
    c = new()
    t = monster(c, 5, ef.ELITE)
    tal = c.tals[t]
    assert (tal.name, tal.cap, ef.hp(tal), ef.level(tal), ef.tier(tal)) == ("Orc", 18, 18, 5, 1)
    assert c.last.margin == 18 and "Save 4" in c.last.notes[0]
    # "Non-player characters have Toughness (Hit Points) as indicated."
    t = monster(c, 4, ef.NPC, 7, name="Hireling")
    assert c.tals[t].cap == 7 and ef.foe_pool(c.tals[t]) == 4
    t = monster(c, 2, ef.MONSTER, 9, name="Big rat")  # the Referee's own figure wins
    assert c.tals[t].cap == 9


def test_save_is_half_the_level_plus_one_rounded_up():
    # "A monster's Save is equal to half of the monster's Level plus one,
    # rounded up."
    assert [ef.save(lv) for lv in range(15)] == [1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8]
    c = new()
    t = monster(c, 4)                                     # Save 3
    # "the Obstacle Rating for player characters to resist their Moves"
    out = c.act(ef.FOE, (4, t, 1, 0, 0, 0), faces=(4, 5, 6))   # 3 dice, 3 successes: Ob 3 met
    assert out.verdict == 1 and out.successes == 3 and out.margin == 0
    out = c.act(ef.FOE, (4, t, 1, 0, 0, 0), faces=(4, 5, 1))
    assert out.verdict == 0 and out.margin == 1
    # The foe's own save against a PC's power: Level + 3 dice vs the PC's successes.
    out = c.act(ef.FOE, (3, t, 5, 1, 0), faces=(6, 6, 6, 6, 6, 1, 1, 1))   # 4 + 3 + 1 dice
    assert out.verdict == 1 and len(out.faces) == 8
    n = monster(c, 3, ef.NPC, 5, name="Guide")
    raises_unchanged(c, c.act, ef.FOE, (4, n, 1, 0, 0, 0), faces=(4, 4, 4))  # an NPC has no Save
    out = c.act(ef.FOE, (3, n, 2, 0, 0), faces=(4, 4, 1))   # an NPC rolls its Pool
    assert out.verdict == 1


def test_the_partys_damage_takes_its_hp_down_to_out_of_action():
    # "If an NPC's HP drop to zero, they are immediately out of action."
    c = new()
    t = monster(c, 1)                                     # 4 HP
    out = c.act(ex.COMBAT, (0, 1, 0, 0, 0, 0, -1, 1, 0, 0, 0, 0, 0, 0, 0, 3 | ex.FOE_B),
                faces=(4, 5, 6, 1, 1, 1, 1))              # Ada 3 vs the Level 1's 0
    assert out.verdict == 1 and out.margin == 3
    out = c.act(ef.FOE, (1, t, out.margin, 0, 0, 0))      # the damage result, to the foe
    assert ef.hp(c.tals[t]) == 1 and out.margin == 3 and out.verdict == 0
    out = c.act(ef.FOE, (1, t, 1, 0, 0, 0))
    assert ef.hp(c.tals[t]) == 0 and out.verdict == 1 and "OUT OF ACTION" in out.notes[0]
    raises_unchanged(c, c.act, ef.FOE, (1, t, 1, 0, 0, 0))   # already out
    c.act(ef.FOE, (2, t, 2))
    assert ef.hp(c.tals[t]) == 2
    c.act(ef.FOE, (2, t, 9))
    assert ef.hp(c.tals[t]) == 4                          # never above its Toughness
    c.act(ef.FOE, (5, t))
    assert c.tals[t] is None and ef.foes(c) == []
    c.undo()
    assert ef.foes(c) == [t]


def test_plus_ns_is_added_before_halving():
    # "If you must divide a damage result in half, first add any additional
    # successes (+1s benefits)." and "halve and round up the damage rolled"
    c = new()
    t = monster(c, 14, ef.LEGENDARY)                      # 60 HP
    out = c.act(ef.FOE, (1, t, 0, 6, 2, 1), faces=(4, 5, 6, 1, 2, 3))
    assert out.successes == 3 and out.margin == 3         # (3 + 2) / 2 up = 3, not 2 + 2
    assert ef.hp(c.tals[t]) == 57
    out = c.act(ef.FOE, (1, t, 4, 2, 1, 1), faces=(6, 1))  # (4 + 1 + 1) / 2 = 3
    assert out.margin == 3
    out = c.act(ef.FOE, (1, t, 2, 0, 1, 0))               # no halving: 2 + 1
    assert out.margin == 3 and ef.hp(c.tals[t]) == 51


def test_morale_prompts_and_who_is_not_subject():
    # "A morale check is normally made for a single combatant, for example,
    # when they first take damage and when they drop below 1/3 Health."
    c = new()
    t = monster(c, 2)                                     # 6 HP
    out = c.act(ef.FOE, (1, t, 1, 0, 0, 0))
    assert out.notes[-1] == "morale check: first damage"
    out = c.act(ef.FOE, (1, t, 2, 0, 0, 0))               # 3 HP: not below 2
    assert len(out.notes) == 1
    out = c.act(ef.FOE, (1, t, 2, 0, 0, 0))               # 1 HP
    assert out.notes[-1] == "morale check: below 1/3 HP"
    # "Legendary creatures are not subject to morale checks." Followers
    # "are not generally subject to Morale Checks".
    t = monster(c, 2, ef.LEGENDARY)
    assert len(c.act(ef.FOE, (1, t, 1, 0, 0, 0)).notes) == 1
    t = monster(c, 3, ef.MONSTER, 0, 0, "Hound")
    assert c.tals[t].owner == 0 and len(c.act(ef.FOE, (1, t, 1, 0, 0, 0)).notes) == 1


def _vs(c, t, ab=1, plus=0, bplus=0, threat=3, blocks=0, b_ability=None):
    """COMBAT of Ada (ability ab) against tracked foe t (TRACKED bits)."""
    lv = ef.level(c.tals[t]) if b_ability is None else b_ability
    return (0, ab, 0, 0, plus, 0, -1, lv, 0, 0, bplus, 0, 0, 0, blocks,
            threat | ex.FOE_B | (t + 1) * ef.TRACKED)


def test_a_combat_check_against_a_tracked_foe_takes_its_hp():
    # "If you have more successes, you deal damage equal to your Margin of
    # Success ... If you lose the Versus test and the adversary is
    # threatening you, you will take damage equal to your Margin of
    # Failure." A tracked foe's damage is its HP's, in the same event.
    c = new()
    t = monster(c, 3)                                     # Orc: L3, 8 HP, 6 dice
    out = c.act(ex.COMBAT, _vs(c, t, plus=1), faces=(6, 6, 6) + (6, 1, 1, 1, 1, 1))
    assert out.verdict == 1 and out.margin == 3 and out.tal == t   # 3 vs 1, +1s
    assert ef.hp(c.tals[t]) == 5
    assert out.notes == ["3 vs 1: Ada wins by 3", "Orc takes 3: HP 5/8",
                         "morale check: first damage"]
    out = c.act(ex.COMBAT, _vs(c, t, blocks=0), faces=(1, 1, 1) + (6, 6, 1, 1, 1, 1))
    assert out.verdict == 0 and c.chars[0].v[ex.HP] == 2 and ef.hp(c.tals[t]) == 5
    assert out.notes[0] == "0 vs 2: Orc wins by 2"
    # "In case of any ties ..., all participants in the exchange take one damage."
    out = c.act(ex.COMBAT, _vs(c, t), faces=(6, 1, 1) + (6, 1, 1, 1, 1, 1))
    assert out.verdict == 2 and ef.hp(c.tals[t]) == 4 and c.chars[0].v[ex.HP] == 1
    assert out.notes[1:] == ["Orc takes 1: HP 4/8", "Ada takes 1: HP 1/4"]
    # Down to 0: out of action, and no further combat against it.
    out = c.act(ex.COMBAT, _vs(c, t, ab=8), faces=(6,) * 10 + (1,) * 6)
    assert "Orc takes 10: HP 0/8 OUT OF ACTION" in out.notes
    raises_unchanged(c, c.act, ex.COMBAT, _vs(c, t), faces=(6, 1, 1) + (1,) * 6)


def test_a_tracked_foe_rolls_its_own_dice_and_must_be_named_right():
    c = new()
    n = monster(c, 4, ef.NPC, 5, name="Guide")             # an NPC: its Pool, 4 dice
    out = c.act(ex.COMBAT, _vs(c, n), faces=(6, 6, 1) + (1, 1, 1, 1))
    assert len(out.faces) == 7 and ef.hp(c.tals[n]) == 3
    t = monster(c, 3)
    # FOE_B not set, a Level that is not the foe's, a talisman that is no foe
    bad = list(_vs(c, t))
    bad[15] &= ~ex.FOE_B
    raises_unchanged(c, c.act, ex.COMBAT, tuple(bad))
    raises_unchanged(c, c.act, ex.COMBAT, _vs(c, t, b_ability=4))
    c.act(ex.USAGE_NEW, (6, -1, 1), "Torches")
    raises_unchanged(c, c.act, ex.COMBAT, _vs(c, t)[:15] + (3 | ex.FOE_B | 3 * ef.TRACKED,))
    raises_unchanged(c, c.act, ex.COMBAT, _vs(c, t)[:15] + (3 | ex.FOE_B | 33 * ef.TRACKED,))
    # The old form (no TRACKED bits): the damage is only reported, as before.
    out = c.act(ex.COMBAT, _vs(c, t)[:15] + (3 | ex.FOE_B,), faces=(6, 6, 6) + (1,) * 6)
    assert out.notes[1] == "enemy takes 3" and ef.hp(c.tals[t]) == 8 and out.tal == -1


def test_one_class_resource_per_round():
    # "Characters may only spend one of each type of Class Resource per
    # Round unless explicitly noted otherwise."
    c = new()
    c.act(ex.SHEET, (0, 4, 4, 5, 5, 0, 0, 0))
    c.act(ex.USE_RES, (0, 2))                             # no fight tracked: as before
    out = c.act(ef.ROUND, (0,))
    f = out.tal
    assert c.tals[f].n == 1 and out.successes == 1
    raises_unchanged(c, c.act, ex.USE_RES, (0, 2))        # two at once
    c.act(ex.USE_RES, (0, 1))
    e = raises_unchanged(c, c.act, ex.USE_RES, (0, 1))    # a second this round
    assert "this Round" in str(e)
    c.act(ex.USE_RES, (0, 1, 1))                          # a power that says otherwise
    assert c.chars[0].v[ex.RES] == 1
    raises_unchanged(c, c.act, ex.USE_RES, (0, 1, 2))
    c.act(ef.ROUND, (0,))
    assert c.tals[f].n == 2
    c.act(ex.USE_RES, (0, 1))                             # a new round, a new one
    assert c.chars[0].v[ex.RES] == 0
    out = c.act(ef.ROUND, (1,))
    assert c.tals[f] is None and out.successes == 2
    raises_unchanged(c, c.act, ef.ROUND, (1,))            # no fight to end
    raises_unchanged(c, c.act, ef.ROUND, (2,))


def test_bad_foes_are_refused_naming_what_is_allowed():
    c = new()
    for args, text, word in (((0, 15, 0, 0, -1), "Orc", "Level 15 is not in 0..14"),
                             ((0, 3, 4, 0, -1), "Orc", "tier"),
                             ((0, 3, 3, 0, -1), "Orc", "as indicated"),
                             ((0, 3, 0, 65, -1), "Orc", "hp"),
                             ((0, 3, 0, 0, 5), "Orc", "no character number 5"),
                             ((0, 3, 0, 0, -1), "", "needs a name"),
                             ((9, 0), "", "op 9"),
                             ((), "", "op first"),
                             ((1, 0, 1, 0, 0, 0), "", "no talisman number 0")):
        e = raises_unchanged(c, c.act, ef.FOE, args, text)
        assert word in str(e), (word, str(e))
    c.act(ex.USAGE_NEW, (6, -1, 1), "Torches")
    e = raises_unchanged(c, c.act, ef.FOE, (1, 0, 1, 0, 0, 0))
    assert "not a foe" in str(e)
    t = monster(c)
    raises_unchanged(c, c.act, ef.FOE, (1, t, 1, 0, 7, 0))   # +7s
    raises_unchanged(c, c.act, ef.FOE, (1, t, 1, 21, 0, 0))  # 21 dice
    raises_unchanged(c, c.act, ef.FOE, (1, t, 1, 0, 0, 2))
    raises_unchanged(c, c.act, ef.FOE, (1, t, 0, 2, 0, 0), faces=(4,))  # a face short


# --- old states --------------------------------------------------------------

# A snapshot the firmware wrote before monsters and character generation (Ada's
# sheet, a torch, a turn, a resource spent, Bo hurt): it must still load.
OLD_SNAPSHOT = (
    b"DS\x01\x02\x82\x01DT\x01\x02\x12\x0e\x0c\x02\x00\x04\x02\x02\x02\x04\x03Ada\x18\n\x0c\x00"
    b"\x00\x06\x02\x02\x00\x08\x00\x00\x00\x02Bo\x18\x04\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x02\x01\x07Torches\n\x04\x00\x01\x02\x01\x10\x02\x00\x00\x0e\x0e\x03\x00\x00\x03Ada\x0c"
    b"\x03\x00\x00\x02Bo\x18h\x08\x00\n\x0c\x04\x06\x02\x02\x08\x00\x00\x1cp\x03\x10\x01\x02\x00"
    b"\x07Torches\nm\x01\x00\x00\x00\x0ci\x02\x00\x04\x00\x00\x0ec\x03\x02\x04\x00\x00\x00\x00")
OLD_STATE = (
    b"DT\x01\x02\x12\x0e\x0c\x02\x00\x04\x02\x02\x02\x04\x03Ada\x18\n\x0c\x00\x00\x06\x02\x02\x00"
    b"\x08\x00\x00\x00\x02Bo\x18\x04\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x01\x07Torches"
    b"\n\x04\x00\x01\x02\x01\x10\x02")


def test_a_state_saved_before_still_loads_and_takes_foes():
    c = cp.decode_snapshot(OLD_SNAPSHOT, depth=cp.UNDO_DEPTH)
    assert cp.encode_state(c) == OLD_STATE                # byte for byte
    assert [ch.name for ch in c.chars] == ["Ada", "Bo"] and c.chars[0].v[ex.RES] == 0
    assert c.chars[1].v[ex.HP] == 2 and c.x[ex.TURN_N] == 1
    t = monster(c, 2)
    c.act(ef.ROUND, (0,))
    c.act(ec.ABIL, (0, 0), faces=(1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6))
    c.act(ef.FOE, (1, t, 2, 0, 0, 0))
    back = cp.decode_snapshot(cp.encode_snapshot(c), depth=cp.UNDO_DEPTH)
    assert cp.encode_state(back) == cp.encode_state(c)
    assert ef.hp(back.tals[t]) == 4 and ec.get(back.tals[ec.record(back, 0)], 5) == 6
    for _ in range(4):
        back.undo()
    old = cp.decode_state(OLD_STATE)                      # undone to the old state
    assert len(back.tals) == 1 and [ch.v for ch in back.chars] == [ch.v for ch in old.chars]
    back.undo()                                           # and further: its own window
    assert back.chars[1].v[ex.HP] == 4


# --- character generation, improvement, Boons ---------------------------

def test_roll_a_new_characters_abilities():
    # "Generate Abilities: Roll for each Natural Ability in order. Set each
    # Ability equal to the average of the sum of 2d6, rounded down."
    c = new()
    out = c.act(ec.ABIL, (0, 0), faces=(1, 2, 6, 6, 3, 4, 1, 1, 5, 4, 2, 3))
    t = ec.record(c, 0)
    assert out.tal == t and c.tals[t].owner == 0
    assert [ec.get(c.tals[t], k) for k in range(6)] == [1, 6, 3, 1, 4, 2]
    assert out.notes[0] == "Ada: Mig 1 Agi 6 Pre 3 Acu 1 Kno 4 Dis 2"
    # "Characters begin with two Boons"
    assert c.tals[t].n == 2
    raises_unchanged(c, c.act, ec.ABIL, (0, 0), faces=(1,) * 12)   # rolled already
    raises_unchanged(c, c.act, ec.ABIL, (0, 0))                     # (no faces, drawn live)
    raises_unchanged(c, c.act, ec.ABIL, (0, 1), faces=(1,) * 11)   # a face short
    assert ec.record(c, 1) == -1
    # "Swap a Pair Abilities: If desired, swap any two Ability scores."
    c.act(ec.ABIL, (1, 0, 0, 1))
    assert [ec.get(c.tals[t], k) for k in range(2)] == [6, 1]
    raises_unchanged(c, c.act, ec.ABIL, (1, 0, 2, 3))     # once
    raises_unchanged(c, c.act, ec.ABIL, (1, 1, 0, 1))     # Bo has none


def test_improve_an_ability():
    # "sum 2d6, divide by two, and round down; if the result is higher than
    # your current base score ..., permanently increase the Ability by one
    # point. If you fail to improve that Ability, choose another Ability to
    # try. ... If you fail all six, start over again."
    c = new()
    c.act(ec.ABIL, (4, 0, 3, 5, 2, 4, 1, 6))
    t = ec.record(c, 0)
    out = c.act(ec.ABIL, (2, 0, 0), faces=(3, 4))         # 7 // 2 = 3, not over 3
    assert out.verdict == 0 and out.successes == 3 and ec.get(c.tals[t], 0) == 3
    e = raises_unchanged(c, c.act, ec.ABIL, (2, 0, 0), faces=(6, 6))
    assert "choose another" in str(e)
    for k in (1, 2, 3, 4):
        c.act(ec.ABIL, (2, 0, k), faces=(1, 1))
    out = c.act(ec.ABIL, (2, 0, 5), faces=(6, 6))         # 6, not over 6: all six failed
    assert "start over" in out.notes[0]
    out = c.act(ec.ABIL, (2, 0, 0), faces=(6, 2))         # start over: 4 > 3
    assert out.verdict == 1 and ec.get(c.tals[t], 0) == 4
    assert ec.improvements(c.tals[t]) == 1 and c.tals[t].n == 3   # the Boon it was
    c.act(ec.ABIL, (2, 0, 0), faces=(6, 6))               # a new improvement: 0 may go again
    assert ec.get(c.tals[t], 0) == 5
    raises_unchanged(c, c.act, ec.ABIL, (1, 0, 0, 1))     # no swap after creation
    c.act(ec.ABIL, (4, 0, 6, 6, 7, 8, 9, 10))
    e = raises_unchanged(c, c.act, ec.ABIL, (2, 0, 0), faces=(6, 6))
    assert "at most 6" in str(e)                          # it could never end


def test_boons_and_a_trauma_lowers_a_tracked_ability():
    # "After you return from a successful expedition, your current character
    # gains one Boon."
    c = new()
    c.act(ec.ABIL, (4, 0, 3, 3, 3, 3, 3, 3))
    t = ec.record(c, 0)
    out = c.act(ec.ABIL, (3, 0), "Tough")
    assert c.tals[t].n == 3 and "Tough" in out.notes[0]
    # "Trauma: Permanently lose one point from a random Ability"
    c.act(ex.DAMAGE, (0, 4, 0))
    out = c.act(ex.DOWN_OUT, (0, 1), faces=(2, 2, 3))     # 4: Trauma, the d6 3: Presence
    assert ec.get(c.tals[t], 2) == 2 and out.notes[-1] == "Presence now 2"
    assert [ec.get(c.tals[t], k) for k in (0, 1, 3, 4, 5)] == [3] * 5
    # Bo's Abilities are not tracked: only the note, as before.
    c.act(ex.DAMAGE, (1, 4, 0))
    out = c.act(ex.DOWN_OUT, (1, 1), faces=(2, 2, 3))
    assert out.notes[-1] == "Bo Trauma: lose 1 Presence" and ec.record(c, 1) == -1
    raises_unchanged(c, c.act, ec.ABIL, (3, 1))           # no record: roll or set first
    raises_unchanged(c, c.act, ec.ABIL, (4, 0, 3, 3, 3, 3, 3, 11))
    raises_unchanged(c, c.act, ec.ABIL, (5, 0))
