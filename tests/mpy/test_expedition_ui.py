"""The expedition screens for Obstacles and monsters (runs under pytest and
on MicroPython): the builder takes an Ob up to 30 and a monster by its
Level (Level + 3 dice), the turn tracker's overland turn checks every turn
and its short rest passes an Exploration Turn."""
from hw.keys import K_UP, K_DOWN, K_LEFT, K_RIGHT, K_OK, K_ROLL
from rules import campaign as cp, codec, expedition as ex, odds
from fakeapp import make, press


def _builder():
    a, b, s = make(2)
    press(a, K_OK)  # home's first item: Roll
    return a, b, s


def _to(a, label):
    """Select the builder row whose label starts with `label`."""
    for _ in range(12):
        rows = a.fb.rows
        scr = a.top()
        if scr.fs[scr.menu.sel] == label:
            return rows
        press(a, K_DOWN)
    raise AssertionError("no field " + label)


def test_builder_ob_to_30_with_its_exact_odds():
    a, b, s = _builder()
    _to(a, "ob")
    rows = press(a, K_LEFT)                        # Ob 1 stays 1: values stop at their ends
    assert a.pool.v["ob"] == 1
    for _ in range(30):
        rows = press(a, K_RIGHT)                   # Ob 30, and no further
    assert a.pool.v["ob"] == 30 and "Ob" in " ".join(rows) and "30" in " ".join(rows)
    assert rows[7] == "Odds 0.0%"                  # 3 dice never make 30
    for _ in range(18):
        rows = press(a, K_LEFT)                    # Ob 12
    assert a.pool.v["ob"] == 12
    _to(a, "hel")
    for _ in range(7):
        press(a, K_RIGHT)
    _to(a, "ab")
    for _ in range(9):
        press(a, K_RIGHT)                          # Ability 10, 7 helpers: 19 dice
    rows = a.fb.rows
    assert rows[0].endswith("19d6")
    assert rows[7] == "Odds " + odds.fmt_permille(odds.builder_odds(2, 19, 12))
    press(a, K_ROLL)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == ex.TEST and args[1] == 12 and len(faces) == 19


def test_builder_versus_a_monster_by_level():
    a, b, s = _builder()
    rows = press(a, K_RIGHT, K_RIGHT)              # mode: test -> versus -> monster
    assert a.pool.v["mode"] == 2 and "monster" in rows[1]
    _to(a, "blv")
    rows = press(a, K_LEFT, K_LEFT)                # Level 1 -> 0, and no further
    assert a.pool.v["blv"] == 0
    for _ in range(15):
        rows = press(a, K_RIGHT)                   # Level 14, the highest
    assert a.pool.v["blv"] == 14
    assert rows[0].endswith("3d6 v17")             # Ability 1: 3 dice; Level 14: 17
    w, t, l = odds.builder_odds(2, 3, 0, versus=17)
    assert rows[6:] == ["Win %d.%d%%" % (w // 10, w % 10), "Tie %d.%d%%" % (t // 10, t % 10)]
    _to(a, "bmd")
    rows = press(a, K_RIGHT, K_RIGHT)              # two strength dice: 19
    assert rows[0].endswith("3d6 v19")
    press(a, K_ROLL)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == ex.VERSUS and len(args) == 13 and args[12] == 2
    assert args[6:9] == [14, 2, 0] and len(faces) == 3 + 19
    # The builder takes the roll back from the journal: the monster mode.
    a.pool.v["mode"] = 0
    assert a.pool.restore(s.c, s.c.events)
    assert a.pool.v["mode"] == 2 and a.pool.v["blv"] == 14 and a.pool.v["bmd"] == 2


def test_turns_overland_checks_every_turn_and_short_rest_takes_one():
    a, b, s = make(2)
    s.do(cp.CHAR_ADD, (), "Ada")
    press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)  # Turns
    scr = a.top()
    assert scr.menu.items[:3] == ["Explore turn", "Short rest", "Overland turn"]
    rows = press(a, K_DOWN, K_DOWN)
    for k in range(3):                              # three overland turns
        rows = press(a, K_OK)
        assert rows[0] == "OUTCOME" and rows[1] == "encounter check"   # more than two rows
        assert rows[7] == "OK: close"
        press(a, K_OK)
    assert s.c.x[ex.TURN_N] == 3
    for ev in s.log[-3:]:
        kind, args, faces, _t = codec.decode_event(ev)
        assert kind == ex.TURN and args == [ex.OVERLAND] and len(faces) == 1  # a d12 each
    assert a.fb.rows[6].startswith("encounter check")   # the first of them on the toast rows
    press(a, K_UP)                                  # Short rest (everyone), a turn
    assert scr.menu.items[scr.menu.sel] == "Short rest"
    press(a, K_OK)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == ex.SHORT_REST and args == [0, 1] and s.c.x[ex.TURN_N] == 4
    assert s.c.chars[0].v[ex.RESTS] == 1
    assert ex.next_check(s.c) == (1, 1)             # the dungeon countdowns moved


def test_versus_odds_with_minus_s_exact_and_cheap():
    # The builder's versus line with -Ns comes from the coin counts of
    # odds.coins_above (ui/poolodds._coin_vs): the same triple as the two
    # distributions compared, A's successes floored at 0 after -Ns.
    from ui import poolodds
    c = odds.counts(6, ex.SUCCESS)
    for n in (0, 1, 3, 20):
        da = odds.power(c, n) if n else [1]
        for nb in (1, 2, 17, 19):
            db = odds.power(c, nb)
            for m in (0, 1, 2, 6):
                sh = [0] * (len(da) - m if len(da) > m else 1)
                for i in range(len(da)):
                    sh[i - m if i > m else 0] += da[i]
                assert poolodds._coin_vs(n, nb, m) == odds.split3(*odds.compare(sh, db)), \
                    (n, nb, m)


def test_builder_bonus_dice_to_18():
    # "spend Subterfuge to add +3d to the test"; a
    # Stronghold's rating 1-6; Circles "up to six bonus dice +6d)" plus
    # Reputation. The builder's Bonus dice row takes them (0..18, the most
    # a 20-die pool holds), with exact odds; past 20 dice it says so.
    a, b, s = _builder()
    _to(a, "bon")
    rows = press(a, K_RIGHT, K_RIGHT, K_RIGHT)     # +3d: Ability 1 -> 6 dice
    assert a.pool.v["bon"] == 3 and rows[0].endswith("6d6")
    assert rows[7] == "Odds " + odds.fmt_permille(odds.builder_odds(2, 6, 1))
    rows = press(a, *(K_RIGHT,) * 16)              # 18, and no further
    assert a.pool.v["bon"] == 18 and "bad pool" in rows[0]   # 2 + 1 + 18 = 21 dice
    assert rows[7] == "Roll: says why"
    rows = press(a, K_LEFT)
    assert a.pool.v["bon"] == 17 and rows[0].endswith("20d6")
    press(a, K_ROLL)
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == ex.TEST and args[2] == 17 and len(faces) == 20


def test_paths_builder_opposed_odds_to_20_dice():
    # The opposed line shows exact table odds for every
    # pool the rules accept (Skill 6 + Path 6 + situation +2, plus help,
    # against an opponent's 20 dice), where it said "Win pool > 12".
    from rules import paths
    from ui import poolodds
    a, b, s = make(1)
    press(a, K_OK)
    p = a.pool
    p.v.update({"mode": 1, "pskill": 6, "path": 6, "sit": 2, "opp": 20})
    a.top().refresh()
    a.render()
    w = odds.builder_odds(1, 14, 0, versus=20)[0]
    assert a.fb.rows[7] == "Win %d.%d%%" % (w // 10, w % 10)
    p.v["init"] = 1
    assert poolodds.line(p, s.c) == "Win %d.%d%%" % ((1000 - odds.builder_odds(1, 20, 0, versus=14)[0]) // 10,
                                                     (1000 - odds.builder_odds(1, 20, 0, versus=14)[0]) % 10)
    p.v.update({"init": 0, "h1": 20, "h2": 20})
    got = poolodds.line(p, s.c)
    wts = odds.paths_help(40, 6)
    acc = 0
    for k in range(7):
        acc += wts[k] * odds.builder_odds(1, 14 + k, 0, versus=20)[0]
    pm = (2 * acc + odds.HELP_ONE) // (2 * odds.HELP_ONE)
    assert got == "Win %d.%d%%~" % (pm // 10, pm % 10) and paths.MAX_POOL == 20
