"""expedition's town phase: the TOWN event (kind 125)
with an op, apart from expedition.py so that boot does not load it.

Per character (fields after the system's CHAR_FIELDS, added the first
time a town event writes them, so an old state decodes and encodes as
before; TOWN_FIELDS): Wealth 0..10, Cash 0..9999, Businesses 0..10,
Circles 0..6, the Wealth purchases of this Town Phase, what was tried
this session (bits 0..3: the improvement of Circles, Wealth, Businesses,
Stronghold; bit 4: the Businesses income roll; bit 5: the Downtime
Action of this Town Phase; bit 6: its building or boat; bit 7: a
Follower lost, expedition_foes), and the hirelings and the medium or
large animals bought this Town Phase (fields 6 and 7, written
at the first such purchase). The company's Stronghold
is a STRONGHOLD talisman (n = its rating 0..6), each Faction's
Reputation a FACTION talisman (a = -10..10).

Ops: 0 START, 1 SHEET, 2 CASH, 3 BUY (a Cash test), 4 WEALTH (a Wealth
purchase), 5 SELL, 6 INCOME, 7 IMPROVE, 8 CIRCLES, 9 REPUTE, 10
RECOGNIZE, 11 DOWNTIME, 12 GOODS (a good sold by dice); BUY and WEALTH
take what is bought as an optional last argument (ITEMS: the seed's
"specific modifications"). docs/rules/expedition.md, "The town phase",
quotes the seed for each.
"""

from . import core
from . import expedition as ex
from .expedition_foes import roll_vs   # the same independent test as a foe's save
from . import talisman as tl
from .core import MAX_TALS, Outcome, name_error

TOWN = 125          # the kind (expedition.py names the range)
ROLE_FACTION = 10   # a = Reputation -10..10 (n = its positive part); text = the Faction
ROLE_STRONGHOLD = 11  # cap 6, n = the company's Stronghold rating

START = 0
SHEET = 1
CASH = 2
BUY = 3
WEALTH = 4
SELL = 5
INCOME = 6
IMPROVE = 7
CIRCLES = 8
REPUTE = 9
RECOGNIZE = 10
DOWNTIME = 11
GOODS = 12

# What a purchase buys (BUY's and WEALTH's optional last argument): "The
# following specific modification apply: Hirelings: +1 Cash (cumulative)
# for each additional hireling after the first. Animals, Livestock, Pack
# Animals, Mounts: +1 Cash (cumulative) for each additional medium or
# large animal after the first. Buildings and Boats: Only one of these
# big-ticket items may be purchased per Town Phase."
OTHER = 0
HIRELING = 1
ANIMAL = 2
BIG = 3
ITEMS = ("other", "hireling", "animal", "building or boat")

TOWN_FIELDS = ("wealth", "cash", "businesses", "circles", "buys", "tried", "hires", "beasts")
W = 0
CASH_F = 1
BUS = 2
CIR = 3
BUYS = 4
TRIED = 5
HIRES = 6    # hirelings bought this Town Phase
BEASTS = 7   # medium or large animals bought this Town Phase
INCOME_BIT = 16  # TRIED bit 4: the Businesses roll of this session
DOWNTIME_BIT = 32  # TRIED bit 5: the Downtime Action of this Town Phase
BIG_BIT = 64     # TRIED bit 6: the building or boat of this Town Phase
LOST_BIT = 128   # TRIED bit 7: a Follower lost this session (expedition_foes)

MAX_CASH = 9999
MAX_WAGER = 60   # Cash dice in one wager (an event holds 64 faces)
MAX_COST = 40    # Wealth 10 + Ob 30
# A Circles check's dice: 2 + Presence 10 + Circles 6 + Reputation 10 +
# 18 other bonus dice. Past the 20 of a pool, as a Cash wager is (an
# event holds 64 faces).
MAX_CIRCLES = 46
FREE_BUYS = 3
MAX_REP = 10
ABILITY_NAMES = ("Circles", "Wealth", "Businesses", "Stronghold")
# "Cash Obstacle Rating by Target Town Ability Rank", ranks 1..
OB_TABLE = ((1, 2, 3, 4, 5, 6), (2, 3, 5, 6, 8, 9, 11, 12, 14, 15),
            (2, 2, 3, 3, 4, 4, 5, 5, 6, 6), (10, 12, 14, 16, 18, 20))
LIFESTYLE = ("Destitute", "Destitute", "Destitute", "Meager", "Meager", "Modest", "Modest",
             "Bountiful", "Bountiful", "Opulent", "Opulent")


def get(v, k):
    """Town field k of character fields v (0 until a town event wrote it)."""
    j = len(ex.CHAR_FIELDS) + k
    return v[j] if j < len(v) else 0


def put(v, k, x):
    j = len(ex.CHAR_FIELDS) + k
    while len(v) <= j:
        v.append(0)
    v[j] = x


def _clear(v, k):
    """Field k back to 0 where it is written (never adds it: a state from
    before it encodes as it did)."""
    if len(v) > len(ex.CHAR_FIELDS) + k:
        v[len(ex.CHAR_FIELDS) + k] = 0


def stronghold(c):
    """(talisman index or -1, the company's Stronghold rating)."""
    t = c.find(ROLE_STRONGHOLD)
    return t, (c.tals[t].n if t >= 0 else 0)


def rank(c, v, which):
    """Current rank of Town Ability `which` (0 Circles .. 3 Stronghold)."""
    if which == 3:
        return stronghold(c)[1]
    return get(v, (CIR, W, BUS)[which])


def improve_ob(c, v, which):
    """The Cash Ob of the next rank of `which`, or 0 at its top."""
    r = rank(c, v, which)
    tab = OB_TABLE[which]
    return tab[r] if r < len(tab) else 0


def factions(c):
    return [t for t in range(len(c.tals))
            if c.tals[t] is not None and c.tals[t].role == ROLE_FACTION]


def apply(c, kind, args, text, src):
    """One TOWN event (called by expedition.py with the tapped source)."""
    if not args:
        raise ValueError("TOWN takes an op 0..12 (0 start, 1 sheet, 2 cash, 3 buy, 4 wealth, 5 sell,"
                         " 6 income, 7 improve, 8 circles, 9 repute, 10 recognize, 11 downtime,"
                         " 12 goods)")
    op = args[0]
    out = Outcome(TOWN)
    if op == START:
        core.arity(args, 1, "TOWN start takes op 0 only")
        for ch in c.chars:
            if len(ch.v) > len(ex.CHAR_FIELDS):
                put(ch.v, BUYS, 0)
                put(ch.v, TRIED, 0)
                _clear(ch.v, HIRES)
                _clear(ch.v, BEASTS)
        out.note("a new Town Phase: 3 free purchases, each improvement and income once")
        return out
    if op == REPUTE:
        _repute(c, args, text, out)
        return out
    if op == RECOGNIZE:
        core.arity(args, 2, "TOWN recognize takes op 10, faction")
        tal = faction(c, args[1])
        f = src.d(12)
        out.margin = f
        out.verdict = 1 if f <= tal.a else 0
        out.note("d12 %d vs %s %d: %s" % (f, tal.name, tal.a, "recognized" if out.verdict else "not"))
        return out
    if not 0 < op <= GOODS:
        raise ValueError("TOWN op %d is not in 0..12" % op)
    if len(args) < 2:
        raise ValueError("TOWN op %d takes a character" % op)
    i = args[1]
    ch = core.alive(c, i, ex.DEAD)
    v = ch.v
    if op == SHEET:
        core.arity(args, 6, "TOWN sheet takes op 1, char, wealth, cash, businesses, circles")
        core.span("Wealth", args[2], 0, 10)
        core.span("Cash", args[3], 0, MAX_CASH)
        core.span("Businesses", args[4], 0, 10)
        core.span("Circles", args[5], 0, 6)
        put(v, W, args[2])
        put(v, CASH_F, args[3])
        put(v, BUS, args[4])
        put(v, CIR, args[5])
    elif op == CASH:
        core.arity(args, 3, "TOWN cash takes op 2, char, Cash gained (or lost, < 0)")
        core.span("Cash change", args[2], -MAX_CASH, MAX_CASH)
        core.span("Cash after it", get(v, CASH_F) + args[2], 0, MAX_CASH)
        put(v, CASH_F, get(v, CASH_F) + args[2])
    elif op == BUY:
        if len(args) != 5:
            core.arity(args, 4, "TOWN buy takes op 3, char, cost 1..40, Cash dice wagered[, what:"
                        " 0 other, 1 hireling, 2 animal, 3 building or boat]")
        cost, n = args[2], args[3]
        core.span("Cost", cost, 1, MAX_COST)
        ob = cost - get(v, W)
        if ob < 1:
            raise ValueError("Cost %d is within Wealth %d: a Wealth purchase (op 4), not Cash"
                             % (cost, get(v, W)))
        core.span("Cash Ob (Cost - Wealth)", ob, 1, ex.MAX_OB)
        what = args[4] if len(args) == 5 else OTHER
        more = _surcharge(ch, v, what)
        _wager(v, n, more)
        put(v, CASH_F, get(v, CASH_F) - n)
        roll_vs(src, n, ob, out, "%d Cash dice" % n)
        if out.verdict:
            _bought(v, what, more, out)
    elif op == WEALTH:
        if len(args) != 4:
            core.arity(args, 3, "TOWN wealth takes op 4, char, cost 0..Wealth[, what: 0 other,"
                        " 1 hireling, 2 animal, 3 building or boat]")
        core.span("Cost (at most the Wealth)", args[2], 0, get(v, W))
        k = get(v, BUYS) + 1
        extra = k - FREE_BUYS if k > FREE_BUYS else 0
        what = args[3] if len(args) == 4 else OTHER
        more = _surcharge(ch, v, what)
        if extra + more > get(v, CASH_F):
            raise ValueError("purchase %d this Town Phase costs %d Cash; %s has %d"
                             % (k, extra + more, ch.name, get(v, CASH_F)))
        put(v, BUYS, k)
        put(v, CASH_F, get(v, CASH_F) - extra)
        out.note("purchase %d: Cost %d%s" % (k, args[2], (", %d Cash" % extra) if extra else ", free"))
        _bought(v, what, more, out)
    elif op == GOODS:
        _goods(v, args, text, src, out)
    elif op == SELL:
        core.arity(args, 3, "TOWN sell takes op 5, char, Wealth points sold")
        core.span("Wealth points sold", args[2], 1, get(v, W))
        w = get(v, W)
        gain = 0
        for _ in range(args[2]):
            gain += 2 * w
            w -= 1
        core.span("Cash after it", get(v, CASH_F) + gain, 0, MAX_CASH)
        put(v, W, w)
        put(v, CASH_F, get(v, CASH_F) + gain)
        out.margin = gain
        out.note("sold: +%d Cash" % gain)
    elif op == INCOME:
        core.arity(args, 2, "TOWN income takes op 6, char")
        n = get(v, BUS)
        if not n:
            raise ValueError("%s has no Businesses" % ch.name)
        if get(v, TRIED) & INCOME_BIT:
            raise ValueError("%s rolled Businesses this session: once, when first activated" % ch.name)
        s = ex._draw(src, n)
        core.span("Cash after it", get(v, CASH_F) + s, 0, MAX_CASH)
        put(v, TRIED, get(v, TRIED) | INCOME_BIT)
        put(v, CASH_F, get(v, CASH_F) + s)
        out.successes = s
        out.margin = s
        out.verdict = 1 if s else 0
        out.note("Businesses %dd: +%d Cash" % (n, s))
    elif op == DOWNTIME:
        core.arity(args, 2, "TOWN downtime takes op 11, char (text: the action)")
        if get(v, TRIED) & DOWNTIME_BIT:
            raise ValueError("%s made a Downtime Action this Town Phase: one a Town Phase" % ch.name)
        if not text:
            raise ValueError("a Downtime Action needs its words (text), e.g. Learn a spell")
        put(v, TRIED, get(v, TRIED) | DOWNTIME_BIT)
        out.note("%s: %s (the Downtime Action of this Town Phase)" % (ch.name, text))
    elif op == IMPROVE:
        core.arity(args, 4, "TOWN improve takes op 7, char, which (0 Circles, 1 Wealth, 2 Businesses,"
                    " 3 Stronghold), Cash dice wagered")
        which, n = args[2], args[3]
        core.span("Town Ability (0 Circles, 1 Wealth, 2 Businesses, 3 Stronghold)", which, 0, 3)
        ob = improve_ob(c, v, which)
        if not ob:
            raise ValueError("%s is at its highest rank" % ABILITY_NAMES[which])
        if get(v, TRIED) & (1 << which):
            raise ValueError("%s tried to improve %s this session: once a session"
                             % (ch.name, ABILITY_NAMES[which]))
        t = stronghold(c)[0]
        if which == 3 and t < 0 and len(c.tals) >= MAX_TALS:
            raise ValueError("no room for the Stronghold talisman (%d talismans)" % MAX_TALS)
        _wager(v, n)
        put(v, CASH_F, get(v, CASH_F) - n)
        put(v, TRIED, get(v, TRIED) | (1 << which))
        roll_vs(src, n, ob, out, "%d Cash dice" % n)
        if out.verdict:
            if which == 3:
                if t < 0:
                    t = c.new_tal("Stronghold", 6, tl.CLAMP, tl.NONE, ROLE_STRONGHOLD)
                c.tals[t].n += 1
                out.tal = t
            else:
                k = (CIR, W, BUS)[which]
                put(v, k, get(v, k) + 1)
            out.note("%s %d" % (ABILITY_NAMES[which], rank(c, v, which)))
    elif op == CIRCLES:
        _circles(c, args, v, src, out)
    if op != INCOME and op != BUY and op != IMPROVE and op != CIRCLES and op != GOODS:
        out.note("%s: Wealth %d (%s) Cash %d" % (ch.name, get(v, W), LIFESTYLE[get(v, W)],
                                                  get(v, CASH_F)))
    else:
        out.note("%s: Cash %d" % (ch.name, get(v, CASH_F)))
    return out


def _wager(v, n, more=0):
    # n dice wagered, and `more` Cash the purchase costs on top (_surcharge)
    core.span("Cash dice wagered", n, 1, MAX_WAGER)
    if n + more > get(v, CASH_F):
        raise ValueError("%d Cash dice wagered%s, %d held"
                         % (n, (" and %d Cash more" % more) if more else "", get(v, CASH_F)))


def _surcharge(ch, v, what):
    """The Cash a purchase of `what` costs past the Wealth or the wager
    (the k-th hireling or animal of this Town Phase: k - 1); a second
    building or boat is refused."""
    core.span("what (0 other, 1 hireling, 2 animal, 3 building or boat)", what, OTHER, BIG)
    if what == BIG and get(v, TRIED) & BIG_BIT:
        raise ValueError("%s bought a building or boat this Town Phase: one a Town Phase"
                         % ch.name)
    if what == HIRELING or what == ANIMAL:
        return get(v, HIRES if what == HIRELING else BEASTS)
    return 0


def _bought(v, what, more, out):
    """A purchase of `what` made: its count, its surcharge spent."""
    if what == BIG:
        put(v, TRIED, get(v, TRIED) | BIG_BIT)
    elif what != OTHER:
        k = HIRES if what == HIRELING else BEASTS
        put(v, k, get(v, k) + 1)
        put(v, CASH_F, get(v, CASH_F) - more)
        out.note("%s %d this Town Phase%s" % (ITEMS[what], get(v, k),
                                              (": +%d Cash" % more) if more else ""))


def _goods(v, args, text, src, out):
    # "If a good has a Cost lower than a character's Wealth score, that good
    # cannot be sold for a significant amount of Cash. ... If a good has a
    # higher Cost than a character's Wealth, subtract the Wealth score from
    # the Cost and roll that number of dice; successes generate a point of
    # Cash (analogous to a Business roll)."
    core.arity(args, 3, "TOWN goods takes op 12, char, the good's Cost (text: the good)")
    core.span("Cost", args[2], 1, MAX_COST)
    n = args[2] - get(v, W)
    if n < 1:
        raise ValueError("Cost %d is not over Wealth %d: no significant Cash (pocket change)"
                         % (args[2], get(v, W)))
    core.span("Cash after it, at most", get(v, CASH_F) + n, 0, MAX_CASH)
    s = ex._draw(src, n)
    put(v, CASH_F, get(v, CASH_F) + s)
    out.successes = s
    out.margin = s
    out.verdict = 1 if s else 0
    out.note("%s sold: %dd, +%d Cash" % (text or "a good", n, s))


def faction(c, t):
    tal = c.tal(t)
    if tal.role != ROLE_FACTION:
        raise ValueError("talisman %d is not a Faction" % t)
    return tal


def _repute(c, args, text, out):
    core.arity(args, 3, "TOWN repute takes op 9, faction (-1: a new one, text = its name), change")
    t, d = args[1], args[2]
    core.span("Reputation change", d, -2 * MAX_REP, 2 * MAX_REP)
    if t == -1:
        bad = name_error(text)
        if bad:
            raise ValueError("a new Faction needs a name: " + bad)
        for f in factions(c):
            if c.tals[f].name == text:
                raise ValueError("Faction %s exists: talisman %d" % (text, f))
        t = c.new_tal(text, MAX_REP, tl.CLAMP, tl.NONE, ROLE_FACTION)
        tal = c.tals[t]
    else:
        tal = faction(c, t)
    r = reputation(tal, tal.a + d)
    out.tal = t
    out.margin = r
    out.note("Reputation with %s %s%d" % (tal.name, "+" if r > 0 else "", r))


def reputation(tal, r):
    """Set Faction talisman tal's Reputation to r, kept in -MAX_REP..MAX_REP
    (n: its positive part); returns it."""
    r = MAX_REP if r > MAX_REP else (-MAX_REP if r < -MAX_REP else r)
    tal.a = r
    tal.n = r if r > 0 else 0
    return r


def _circles(c, args, v, src, out):
    core.arity(args, 7, "TOWN circles takes op 8, char, Presence, Ob, faction (-1 none), bonus,"
                " penalty")
    pres, ob, f, bon, pen = args[2:7]
    core.span("Ob", ob, 1, ex.MAX_OB)
    rep = 0
    if f != -1:
        rep = faction(c, f).a
        if rep < 0:
            rep = 0
    core.span("Presence", pres, 0, ex.MAX_ABILITY)
    core.span("bonus dice", bon, 0, ex.MAX_BONUS)
    core.span("penalty dice", pen, 0, 2)
    # Past the 20 of a pool: Presence 5, Circles +6d and Reputation 10 are
    # 23 dice; at most MAX_CIRCLES. A 0-die pool rolls nothing, as a pool.
    n = 2 + pres + get(v, CIR) + rep + bon - pen
    s = ex._draw(src, n)
    m = ex.resolve(s, ob)
    out.successes = s
    out.verdict = 1 if m >= 0 else 0
    out.margin = m if m >= 0 else -m
    out.note("Circles %dd: %d vs Ob %d: %s" % (n, s, ob, "in contact, amenable" if m >= 0 else
                                               "found, not amenable"))
    if m <= -3:
        out.note("failed by 3+: the Enmity Clause may apply")
