"""`dicetray rules SYSTEM [--json]` and its table (dicetray.catalog.events)
against the rules core: every declared event exists under that name, a
sample of its arguments is accepted, one past either end of each range is
refused, and so is a missing or an extra argument."""
import json

import pytest

from dicetray import cli
from dicetray.catalog import events
from dicetray.rules import campaign as cp, codec, systems
from dicetray.rules import expedition as E, hunt as H, paths as P  # noqa: F401
from dicetray.rules.dice import Dice
from eventsamples import SAMPLES


def _ok(make, kind, args, text):
    c = make()
    c.act(kind, tuple(args), text, dice=Dice(5))


def _refused(make, kind, args, text):
    c = make()
    before = cp.encode_state(c)
    with pytest.raises(ValueError):
        c.act(kind, tuple(args), text, dice=Dice(5))
    assert cp.encode_state(c) == before


@pytest.mark.parametrize("system", [0, 1, 2])
def test_the_table_is_the_rules_core(system):
    m = systems.get(system)
    make, samples = SAMPLES[system]
    table = events.TABLES[system]
    lo, hi = m.KINDS
    names = cli_names(system)
    assert sorted(_key(e) for e in table) == sorted(_key(k) for k in samples), "every event has a sample"
    for kind, name, args, opt, _dice, _changes in table:
        assert lo <= kind <= hi and names[kind] == name.split(" ")[0], (kind, name)
        sample, text = samples[(kind, args[0][1]) if _has_op(args) else kind]
        assert len(sample) == len(args) or opt < 0, (name, sample)
        _ok(make, kind, sample, text)
        if opt > 0:
            _ok(make, kind, sample[:len(args) - opt], text)      # the older, shorter form
        if opt >= 0:
            _refused(make, kind, tuple(sample) + (0,), text)     # one argument too many
            if args:
                _refused(make, kind, sample[:len(args) - max(opt, 0) - 1], text)
        for i, (arg, a_lo, a_hi, _means) in enumerate(args):
            if opt < 0:
                break
            if arg == "op":
                continue  # each op is its own entry
            for bad in (a_lo - 1, a_hi + 1):
                wrong = list(sample)
                wrong[i] = bad
                _refused(make, kind, wrong, text)
    # No event the module applies is missing from the table.
    listed = {e[0] for e in table}
    for kind in range(lo, hi + 1):
        if kind not in listed:
            c = make()
            with pytest.raises(ValueError, match="unknown"):
                c.act(kind, (), "")


def _core():
    c = cp.Campaign(systems.PATHS, cid=4)
    for n in ("Ada", "Bo"):
        c.act(cp.CHAR_ADD, (), n)
    c.act(cp.TAL_NEW, (4, 0, -1, 0, -1, 0, 0), "Clock")
    c.act(cp.SLASH, (len(c.tals) - 1, 2, 0))
    return c


def _undone():
    c = _core()
    c.act(cp.UNDO)
    return c


def test_the_core_table_is_the_campaign():
    """CORE lists kinds 1..11 in order under campaign.py's names; each
    sample is accepted, one past every bound the table sets is refused, and
    so is an argument too many or too few; kinds 12..31 are unknown."""
    t = len(_core().tals) - 1
    samples = {1: ((), ""), 2: ((), ""), 3: ((), "Cy"), 4: ((4, 1, t, 0, 0, 3, 5), "Task"),
               5: ((t, 1, 1), ""), 6: ((t, 1), ""), 7: ((t,), ""), 8: ((t,), ""),
               9: ((t, 3), ""), 10: ((6, 2), ""), 11: ((1, t), "Timer")}
    assert [e[0] for e in events.CORE] == list(range(1, 12)) == sorted(samples)
    for kind, name, args, opt, _dice, _changes in events.CORE:
        assert getattr(cp, name) == kind and opt == 0
        make = _undone if name == "REDO" else _core
        sample, text = samples[kind]
        assert len(sample) == len(args)
        _ok(make, kind, sample, text)
        _refused(make, kind, tuple(sample) + (0,), text)
        if args:
            _refused(make, kind, sample[:-1], text)
        for i, (_arg, a_lo, a_hi, _means) in enumerate(args):
            for bad in (None if a_lo is None else a_lo - 1, None if a_hi is None else a_hi + 1):
                if bad is not None:
                    wrong = list(sample)
                    wrong[i] = bad
                    _refused(make, kind, wrong, text)
    for kind in range(12, 32):
        with pytest.raises(ValueError, match="unknown"):
            _core().act(kind, (), "")


def test_a_journal_s_undo_with_arguments_still_replays():
    """New actions of the no-argument kinds are refused with arguments;
    an event already journaled that way (before the check) replays."""
    c = _core()
    old = codec.encode_event(cp.UNDO, (0,), b"", "")
    c.apply(old)
    assert c.tals[-1].n == 0


def _has_op(args):
    return bool(args) and args[0][0] == "op"


def _key(e):
    """(kind, op) of a table entry or a SAMPLES key; op -1 for a kind without ops."""
    if isinstance(e, int):
        return (e, -1)
    if len(e) == 2:
        return e
    return (e[0], e[2][0][1]) if _has_op(e[2]) else (e[0], -1)


def cli_names(system):
    """{kind: name} from the rules modules themselves (not the table): the
    kind constants of the system module and of the modules it hands kinds
    to (NAME_*.py: hunt_more, expedition_more, expedition_foes ...), KIND_NAMES."""
    import importlib
    import pkgutil
    import dicetray.rules
    m = systems.get(system)
    lo, hi = m.KINDS
    mods = [m] + [importlib.import_module("dicetray.rules." + i.name)
                  for i in pkgutil.iter_modules(dicetray.rules.__path__)
                  if i.name.startswith(m.NAME + "_")]
    names = {}
    for mod in mods:
        for n, v in vars(mod).items():
            if (isinstance(v, int) and lo <= v <= hi and n.isupper()
                    and not n.startswith(("MAX_", "ROLE_", "DEFAULT_", "_"))):
                names.setdefault(v, n)
    for i, n in enumerate(getattr(m, "KIND_NAMES", ())):
        assert names.get(lo + i, n) == n
        names[lo + i] = n
    return names


def test_rules_json_lists_the_new_events(capsys):
    assert cli.main(["rules", "expedition", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["system"] == "expedition" and doc["kinds"] == [96, 127]
    ev = {e["name"]: e for e in doc["events"]}
    test = ev["TEST"]
    assert test["kind"] == 96
    assert [(a["name"], a["min"], a["max"], a["optional"]) for a in test["args"]][:3] == [
        ("ability", 0, 14, False), ("ob", 1, 30, False), ("bonus", 0, 18, False)]
    assert test["args"][-1]["name"] == "foe" and test["args"][-1]["optional"]
    assert "changes" in test and ev["SHORT_REST"]["args"][1]["optional"]
    # The last rules, and the campaign's own name
    for name, kind, op in (("TOWN goods", 125, 12), ("SPELL master", 124, 3), ("FOE lost", 121, 6)):
        assert ev[name]["kind"] == kind and ev[name]["args"][0]["min"] == op
    assert [(a["name"], a["optional"]) for a in ev["DESPERATE"]["args"]] == [
        ("char", False), ("cash", True)]
    for name in ("TOWN buy", "TOWN wealth"):
        assert (ev[name]["args"][-1]["name"], ev[name]["args"][-1]["max"]) == ("what", 3)
        assert ev[name]["args"][-1]["optional"]
    assert ev["RENAME"]["args"][0]["max"] == 2 and ev["RENAME"]["core"]
    assert cli.main(["rules", "hunt", "--json"]) == 0
    hunt = {e["name"]: e for e in json.loads(capsys.readouterr().out)["events"]}
    assert hunt["AFFLICT"]["kind"] == 48 and "pathos" in hunt["AFFLICT"]["changes"]
    assert [a["name"] for a in hunt["ROLL"]["args"]][-2:] == ["grant", "setup"]
    assert hunt["REST"]["repeats"]
    assert cli.main(["rules", "paths"]) == 0
    out = capsys.readouterr().out
    assert "68 COMBAT" in out and "on 0..1" in out and "opp_pool 1..20" in out


def test_rules_usage_errors(capsys):
    assert cli.main(["rules", "dice"]) == 2
    err = capsys.readouterr().err
    assert "unknown rule system 'dice'" in err and "hunt, paths or expedition" in err


@pytest.mark.parametrize("system", range(3))
def test_events_are_built_and_read_by_their_names(system):
    """events.args builds an event from its arguments by name, in the
    table's order; events.named reads them back by name (the host's CLI
    and exports use both, so neither counts positions)."""
    for kind, name, spec, opt, _dice, _changes in events.CORE + events.TABLES[system]:
        if opt < 0:
            continue                       # REST: its codes repeat, no names to give
        names = [a[0] for a in spec]
        values = [0 if a[1] is None else a[1] for a in spec]  # each argument's lowest value
        assert events.args(system, name, **dict(zip(names, values))) == (kind, tuple(values))
        a = events.named(system, kind, values)
        assert not [n for n in names if hasattr(tuple, n)], "a name a tuple's method hides"
        assert [getattr(a, n) for n in names] == values and list(a) == values
        if opt:                            # the optional last ones may be left out...
            short = dict(zip(names[:-opt], values[:-opt]))
            assert events.args(system, name, **short) == (kind, tuple(values[:-opt]))
            assert getattr(events.named(system, kind, values[:-opt]), names[-1]) is None
            if opt > 1:                    # ...but not one before another that is given
                gap = dict(short, **{names[-1]: values[-1]})
                with pytest.raises(ValueError, match="needs its argument %s" % names[-opt]):
                    events.args(system, name, **gap)
        if names:
            with pytest.raises(ValueError, match="needs its argument %s" % names[0]):
                events.args(system, name, **dict(zip(names[1:], values[1:])))
        with pytest.raises(ValueError, match="not bogus"):
            events.args(system, name, bogus=1)
        with pytest.raises(AttributeError, match="no argument bogus"):
            events.named(system, kind, values).bogus
