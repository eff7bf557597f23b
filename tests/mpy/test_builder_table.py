"""The roll builder's events against the rules' events table
(catalog/events.py): every value each field can take, in every mode, builds
an event of a kind the table lists, with as many arguments as its entry
allows, each in the entry's range. The device never reads the table (it
is host only: a boot would load its text), so this is what ties the
builder's argument positions (ui/hunt_more.py, paths_more.py,
expedition_more.py) to the names and ranges the host reads."""
from dicetray.catalog import events
from rules import campaign as cp
from rules.dice import Dice
from support import raises
from ui import expedition_more, hunt_more, paths_more


def _entry(system, kind, args):
    found = None
    for e in events.TABLES[system]:
        if e[0] == kind:
            found = found or e
            if e[2] and args and e[2][0][1] <= args[0] <= e[2][0][2]:
                return e
    return found


def _check(system, kind, args, where, c=None):
    """The table's entry holds (kind, args); with campaign `c`, an argument
    outside its range is allowed if the rules refuse the event (a reference
    the player has not picked yet, -1: the builder shows the refusal)."""
    e = _entry(system, kind, args)
    assert e is not None, "%s: kind %d is not in the table" % (where, kind)
    spec, opt = e[2], e[3]
    assert len(spec) - opt <= len(args) <= len(spec), \
        "%s: %s takes %d..%d arguments, the builder gave %d" % (where, e[1], len(spec) - opt,
                                                               len(spec), len(args))
    for (name, lo, hi, _means), v in zip(spec, args):
        if c is not None and not ((lo is None or lo <= v) and (hi is None or v <= hi)):
            raises(ValueError, c.act, kind, args, "", Dice(1))
            continue
        assert (lo is None or lo <= v) and (hi is None or v <= hi), \
            "%s: %s %s=%d is outside %s..%s" % (where, e[1], name, v, lo, hi)


def _sweep(P, chosen=None):
    """Each field at each end of its range, in each mode, the others as a
    new builder has them (`chosen`: those a roll needs picked first, as
    the player does: a PRO_ROLL's profession)."""
    c = cp.Campaign(P.system, cid=1)
    modes = range(P.F["mode"][1], P.F["mode"][2] + 1) if "mode" in P.F else (None,)
    n = 0
    for mode in modes:
        for f, (_label, lo, hi) in P.F.items():
            if f == "mode":
                continue
            for v in (lo, hi):
                p = P()
                p.v.update(chosen or {})
                if mode is not None:
                    p.v["mode"] = mode
                p.v[f] = v
                unpicked = f in P.REFS and v == -1
                if unpicked and f == "test" and mode == 2:   # paths: the builder refuses it
                    raises(ValueError, p.action, c)
                    n += 1
                    continue
                kind, args, _text = p.action(c)
                _check(P.system, kind, args, "mode %s, %s=%d" % (mode, f, v), c if unpicked else None)
                n += 1
    return n


def test_hunt_builder_events_are_the_tables():
    assert _sweep(hunt_more.Pool) == 2 * len(hunt_more.Pool.F)


def test_paths_builder_events_are_the_tables():
    assert _sweep(paths_more.Pool, {"test": 0}) == 3 * 2 * (len(paths_more.Pool.F) - 1)


def test_expedition_builder_events_are_the_tables():
    assert _sweep(expedition_more.Pool) == 4 * 2 * (len(expedition_more.Pool.F) - 1)


def test_hunt_builder_setups_are_the_tables():
    # The builder's Setup for and Uses are ROLL's
    # `grant` and `setup`, by the table's names, in its ranges; the rules
    # take the event.
    from rules import hunt, hunt_more as hm
    c = cp.Campaign(0, cid=1)
    for n in ("Ada", "Bo"):
        c.act(cp.CHAR_ADD, (), n)
    c.act(hunt.ROLL, (0, 1, 0, 0, 0, 0, -1, 1), "", faces=(6,))   # a setup for Bo
    st = hm.tals(c, hm.ROLE_SETUP, 1)[0]
    p = hunt_more.Pool()
    p.v.update({"who": 1, "grant": 0, "setup": st})
    kind, args, _text = p.action(c)
    e = _entry(0, kind, args)
    assert [a[0] for a in e[2][7:]] == ["grant", "setup"] and args[7:] == (0, st)
    _check(0, kind, args, "setups")
    c.act(kind, args, "", Dice(1))
    assert c.tals[st] is None
