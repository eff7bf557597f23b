"""expedition's town phase, on CPython and MicroPython,
with keyed-in faces: each test quotes the sentence of the seed
(shared/seeds/004_cd61a830e243f4ef.txt) it implements."""
from rules import campaign as cp, systems
from rules import expedition_town as tw
from support import raises_unchanged

T = tw.TOWN


def new(wealth=4, cash=10, bus=0, circles=0):
    c = cp.Campaign(systems.EXPEDITION, cid=9)
    c.act(cp.CHAR_ADD, (), "Ada")
    c.act(cp.CHAR_ADD, (), "Bo")
    c.act(T, (tw.SHEET, 0, wealth, cash, bus, circles))
    return c


def f(c, k, i=0):
    return tw.get(c.chars[i].v, k)


def test_cash_test_against_cost_minus_wealth():
    # "Spend (remove and lose) any number of Cash dice; these dice form the
    # dice pool that you roll against the purchase's Obstacle Rating, which is
    # equal to the difference between your Wealth and the thing's Cost. For
    # example, if your Wealth rating is 4 and you would like to purchase a
    # Cost 6 service, you must succeed against an Obstacle 2 Cash test".
    c = new()
    out = c.act(T, (tw.BUY, 0, 6, 4), faces=(6, 5, 1, 2))
    assert (out.successes, out.verdict, out.margin) == (2, 1, 0) and f(c, tw.CASH_F) == 6
    out = c.act(T, (tw.BUY, 0, 6, 4), faces=(6, 1, 1, 2))
    assert (out.verdict, out.margin) == (0, 1) and f(c, tw.CASH_F) == 2
    raises_unchanged(c, c.act, T, (tw.BUY, 0, 6, 3), faces=(6, 6, 6))   # 3 wagered, 2 held
    raises_unchanged(c, c.act, T, (tw.BUY, 0, 4, 1), faces=(6,))        # within Wealth
    raises_unchanged(c, c.act, T, (tw.BUY, 0, 41, 1), faces=(6,))       # Cost 1..40
    # Past 20 dice: the Stronghold's Ob 20 wants about 40 Cash dice.
    c.act(T, (tw.CASH, 0, 58))
    out = c.act(T, (tw.BUY, 0, 34, 60), faces=(6,) * 30 + (1,) * 30)
    assert (out.successes, out.verdict) == (30, 1) and f(c, tw.CASH_F) == 0


def test_wealth_purchases_three_free_then_cumulative_cash():
    # "you may automatically purchase goods or services of any Cost equal to
    # or less than your current Wealth rating. You may do this up to three
    # times "for free" per Town Phase. Additional purchases may be made for an
    # additional and cumulative +1 Cash each."
    c = new(cash=3)
    for cost in (4, 0, 2):
        c.act(T, (tw.WEALTH, 0, cost))
    assert f(c, tw.CASH_F) == 3 and f(c, tw.BUYS) == 3
    c.act(T, (tw.WEALTH, 0, 1))                 # the 4th: 1 Cash
    assert f(c, tw.CASH_F) == 2
    c.act(T, (tw.WEALTH, 0, 1))                 # the 5th: 2 Cash
    assert f(c, tw.CASH_F) == 0
    raises_unchanged(c, c.act, T, (tw.WEALTH, 0, 1))   # the 6th: 3 Cash, none held
    raises_unchanged(c, c.act, T, (tw.WEALTH, 0, 5))   # Cost over the Wealth
    c.act(T, (tw.START,))                       # a new Town Phase
    c.act(T, (tw.WEALTH, 0, 1))
    assert f(c, tw.CASH_F) == 0 and f(c, tw.BUYS) == 1


def test_selling_wealth():
    # "decrease your Wealth rating by one point, but gain twice as many Cash
    # dice as the former rating. Examples: You may reduce your Wealth from 5
    # to 4, but gain 10 Cash." (Its 6 to 2 example says 18; by the rule it
    # is 12 + 10 + 8 + 6 = 36: docs/rules/expedition.md.)
    c = new(wealth=5, cash=0)
    out = c.act(T, (tw.SELL, 0, 1))
    assert (f(c, tw.W), f(c, tw.CASH_F), out.margin) == (4, 10, 10)
    c = new(wealth=6, cash=0)
    c.act(T, (tw.SELL, 0, 4))
    assert (f(c, tw.W), f(c, tw.CASH_F)) == (2, 36)
    raises_unchanged(c, c.act, T, (tw.SELL, 0, 3))


def test_businesses_income_once_a_session():
    # "when a character is first activated for a session, roll a number of
    # dice equal to your Businesses rating. Each success immediately
    # generates one income of Cash."
    c = new(bus=3, cash=0)
    out = c.act(T, (tw.INCOME, 0), faces=(6, 4, 1))
    assert (out.successes, f(c, tw.CASH_F)) == (2, 2)
    raises_unchanged(c, c.act, T, (tw.INCOME, 0), faces=(6, 6, 6))
    raises_unchanged(c, c.act, T, (tw.INCOME, 1))              # Bo has no Businesses
    c.act(T, (tw.START,))
    c.act(T, (tw.INCOME, 0), faces=(6, 6, 6))
    assert f(c, tw.CASH_F) == 5


def test_improving_town_abilities_once_a_session_on_the_table():
    # "Each session, you may only attempt to increase each different Town
    # Ability once, regardless of whether you succeed (and gain one rank) or
    # fail." The Ob table: Wealth 2 3 5 6 ..., Businesses 2 2 3 3 ...,
    # Circles 1..6, Stronghold 10..20.
    c = new(wealth=2, cash=30)
    assert tw.improve_ob(c, c.chars[0].v, 1) == 5       # Wealth 3
    out = c.act(T, (tw.IMPROVE, 0, 1, 6), faces=(6, 6, 6, 6, 6, 1))
    assert out.verdict == 1 and f(c, tw.W) == 3 and f(c, tw.CASH_F) == 24
    raises_unchanged(c, c.act, T, (tw.IMPROVE, 0, 1, 6), faces=(6,) * 6)   # once a session
    out = c.act(T, (tw.IMPROVE, 0, 2, 2), faces=(1, 6))                    # Businesses 1: Ob 2
    assert out.verdict == 0 and f(c, tw.BUS) == 0 and f(c, tw.CASH_F) == 22
    # The Stronghold is the company's: a STRONGHOLD talisman; "Strongholds are
    # each rated from 1-6".
    out = c.act(T, (tw.IMPROVE, 0, 3, 20), faces=(6,) * 10 + (1,) * 10)
    t, r = tw.stronghold(c)
    assert out.verdict == 1 and r == 1 and c.tals[t].role == tw.ROLE_STRONGHOLD
    c.act(T, (tw.CASH, 1, 12))
    out = c.act(T, (tw.IMPROVE, 1, 3, 12), faces=(6,) * 12)            # Bo: Ob 12 for rank 2
    assert tw.stronghold(c)[1] == 2
    c.act(T, (tw.SHEET, 1, 0, 10, 0, 6))
    raises_unchanged(c, c.act, T, (tw.IMPROVE, 1, 0, 1), faces=(6,))   # Circles 6 is the top
    raises_unchanged(c, c.act, T, (tw.IMPROVE, 0, 4, 1), faces=(6,))


def test_circles_check_with_reputation():
    # "roll a Pool of six-sided dice equal to two plus your Presence score ...
    # plus an additional number of dice equal to your Circles rating ... you
    # may also add a number of dice equal to your Faction's Reputation";
    # "Circles tests that are failed by a substantial margin (three or more
    # failures) may invoke the Enmity Clause".
    c = new(circles=2)
    out = c.act(T, (tw.REPUTE, -1, 3), "Guild")
    g = out.tal
    assert c.tals[g].a == 3 and c.tals[g].role == tw.ROLE_FACTION
    out = c.act(T, (tw.CIRCLES, 0, 1, 4, g, 0, 0), faces=(1,) * 8)   # 2 + 1 + 2 + 3 = 8 dice
    assert len(out.faces) == 8 and out.margin == 4
    assert "failed by 3+: the Enmity Clause may apply" in out.notes
    # "Reputation scores ... may increase or decrease (to a limit of +-10)".
    c.act(T, (tw.REPUTE, g, -15))
    assert c.tals[g].a == -10 and c.tals[g].n == 0
    out = c.act(T, (tw.CIRCLES, 0, 1, 2, g, 0, 0), faces=(6, 6, 1, 1, 1))  # negative adds none
    assert out.verdict == 1
    # "Roll 1d12: if the result is equal to or less than the your Reputation
    # with the given Faction, then the character is recognized".
    c.act(T, (tw.REPUTE, g, 14))
    assert c.act(T, (tw.RECOGNIZE, g), faces=(4,)).verdict == 1
    assert c.act(T, (tw.RECOGNIZE, g), faces=(5,)).verdict == 0
    raises_unchanged(c, c.act, T, (tw.REPUTE, -1, 1), "Guild")       # exists


def test_bad_town_events_change_nothing():
    c = new()
    for bad in ((11, 0), (tw.SHEET, 0, 11, 0, 0, 0), (tw.SHEET, 0, 0, 0, 0, 7), (tw.CASH, 0, -11),
                (tw.INCOME,), (tw.START, 0), (tw.BUY, 5, 6, 1), (tw.RECOGNIZE, 0)):
        raises_unchanged(c, c.act, T, bad, faces=(6,))


def test_an_old_state_still_loads_and_gains_town_fields():
    # A state encoded before items 5 and 7 (twelve fields a character): it
    # decodes and re-encodes byte for byte; the first town event adds the
    # town fields (TOWN_FIELDS, after CHAR_FIELDS), defaults zero ("Your
    # Wealth and Businesses are zero. Your Circles score is +0d.").
    old = (b"DT\x01\x02\x08\x14\x0c\x08\x00\x04\x04\x02\x02\x02\x03Ada\x18\x06\x08\x00\x02"
           b"\x04\x00\x00\x00\x00\x00\x02\x00\x02\x01\x05Torch\n\x06\x00\x01\x02\x01\x0c\x02")
    c = cp.decode_state(old)
    assert cp.encode_state(c) == old and tw.get(c.chars[0].v, tw.W) == 0
    c.act(T, (tw.CASH, 0, 2))
    assert f(c, tw.CASH_F) == 2
    c2 = cp.decode_state(cp.encode_state(c))
    assert tw.get(c2.chars[0].v, tw.CASH_F) == 2


def test_the_town_screen_buys_with_cash():
    # Home > Town: the character's Wealth and Cash, then its actions; a Cash
    # test with the Ob and the exact odds of the wagered dice.
    from hw.keys import K_DOWN, K_RIGHT, K_OK
    from rules import codec
    from fakeapp import make, press
    from ui import town
    a, b, s = make(2)
    s.do(cp.CHAR_ADD, (), "Ada")
    s.do(T, (tw.SHEET, 0, 4, 10, 1, 0))
    rows = press(a, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_DOWN, K_OK)   # Town
    assert rows[:4] == ["TOWN     < Ada >", "Wealth 4 Cash 10", "Businesses 1", "Circles 0"]
    scr = a.top()
    press(a, *(K_DOWN,) * scr.items.index("Cash buy"))
    rows = press(a, K_OK)
    assert rows[0].endswith("Ob1")                    # Cost 5 - Wealth 4, 1 die
    rows = press(a, K_RIGHT)                          # Cost 6: Ob 2
    assert rows[0].endswith("Ob2")
    assert rows[7] == "Odds " + town.cash_odds(1, 2)
    rows = press(a, K_DOWN, K_RIGHT, K_RIGHT, K_RIGHT, K_OK)  # 4 dice
    kind, args, faces, _t = codec.decode_event(s.log[-1])
    assert kind == T and args == [tw.BUY, 0, 6, 4] and len(faces) == 4
    assert tw.get(s.c.chars[0].v, tw.CASH_F) == 6
    assert rows[0] == "RESULT  Cash buy"
    rows = press(a, K_OK)                             # the result in the form's place: Town
    assert rows[1] == "Wealth 4  Cash 6" and a.top() is scr
    assert town.cash_odds(4, 2) == "68.8%" and town.cash_odds(60, 20) == "99.7%"


def test_one_downtime_action_a_town_phase():
    # "In general, players may also make one Downtime Action per Town Phase."
    c = new()
    out = c.act(T, (tw.DOWNTIME, 0), "Learn Miasma")
    assert "Learn Miasma" in " ".join(out.notes)
    raises_unchanged(c, c.act, T, (tw.DOWNTIME, 0), "Train")    # the second in this phase
    raises_unchanged(c, c.act, T, (tw.DOWNTIME, 1))             # words needed
    c.act(T, (tw.DOWNTIME, 1), "Carouse")                       # Bo has his own
    c.act(T, (tw.START,))                                       # the next Town Phase
    c.act(T, (tw.DOWNTIME, 0), "Train")
