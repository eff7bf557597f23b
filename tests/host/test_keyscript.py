"""The key script (`dicetray rules SYSTEM --keys`, dicetray/keyscript.py):
every event kind of a rule system made with the device's keys only, from a
fresh flash, replayed on the real firmware on MicroPython in the desktop
simulator (`dicetray sim --headless --script`).

For each system: every kind is either made by a procedure of
host/dicetray/catalog/keypaths.py or marked host only there, with its reason (never
both); the script, run by the simulator on a fresh flash folder, journals
every kind that is not host only, the walk's events byte for byte, and
ends on the new campaign; no host-only kind is made by any key of any
screen reachable from home (`keyscript.reach`), so the host-only list
cannot outlive a screen that makes its kind; `dicetray rules --json`
marks exactly the host-only kinds, with the reason.
"""

import json
import os

import pytest

from dicetray import cli, keyscript
from dicetray.catalog import events
from dicetray.rules import codec
from dicetray.rules.systems import NAMES
from dicetray.sim.script import parse
from dicetray.sim.vm import Simulator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
SYSTEMS = (0, 1, 2)


def _store():
    """The firmware's store module, as the board imports it."""
    import store
    return store


def _journal(fs, root):
    """Every event of the journal of the campaign in `root` on `fs`, oldest
    first, as a backup reads it (the segments), and the events after its
    newest snapshot (store.open)."""
    store = _store()
    from store import journal
    st = store.Store(fs, root)
    _state, tail, rep = st.open()
    st.close()
    assert rep.errors == []
    out = []
    for b in st.segments():
        r = journal.scan(st.fs, st.root + "/j%08x.log" % b, b, out.append)
        assert r.status == journal.OK
    return out, tail


def _names(system, evs):
    return [events.name(system, *codec.decode_event(e)[:2]) for e in evs]


@pytest.fixture(scope="module")
def walks():
    """Each system's walk (the script's presses, on CPython), once."""
    out = {}
    for s in SYSTEMS:
        w, rows = keyscript.walk(s)
        w.s.st.close()
        out[s] = (w, rows)
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_kind_has_a_key_path_or_a_reason_why_not(system):
    every = keyscript.kinds(system)
    assert len(every) == len(set(every))
    ways = {}
    for name, steps in keyscript.entries(system):
        assert isinstance(steps, (tuple, str)) and steps, name
        ways.setdefault(name, set()).add("keys" if isinstance(steps, tuple) else "host only")
    assert set(ways) <= set(every), "entries of no event: %s" % sorted(set(ways) - set(every))
    both = sorted(n for n, w in ways.items() if len(w) > 1)
    assert not both, "both a procedure and a host-only reason: %s" % both
    missing = sorted(set(every) - set(ways))
    assert not missing, "neither a procedure nor a host-only reason: %s" % missing


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_script_makes_every_kind_on_the_firmware_in_the_simulator(system, walks, tmp_path):
    w, rows = walks[system]
    text = keyscript.script(system)
    flash = tmp_path / "flash"
    sim = Simulator(FIRMWARE, str(flash), script=parse(text), virtual=True, paced=False)
    assert sim.run() == 0, sim.output
    base = flash / "dicetray"
    slots = sorted(d for d in os.listdir(base) if d[0] == "c")
    assert slots == ["c1", "c2"]   # the tour's campaign, and the new one, current
    store = _store()
    got, tail = _journal(store.OsFs(), str(base / "c2"))
    assert got[len(got) - len(tail):] == tail   # nothing after the segments
    made = set(_names(system, got))
    host = keyscript.host_only(system)
    for name in keyscript.kinds(system):
        assert (name in made) != (name in host), \
            "%s: %s" % (name, "host only, yet made" if name in made else "not made on the keys")
    # The same events as the walk on CPython, byte for byte (faces included):
    # the simulator replays the walk exactly.
    want, _ = _journal(w.fs, "/dicetray/c2")
    assert got == want
    assert len(got) == w.app.c.nevents
    state = [ln.split()[1] for ln in sim.output.splitlines() if ln.startswith("STATE ")]
    assert bytes.fromhex(state[-1])[3] == system   # DT, the schema, then the system


@pytest.mark.parametrize("system", SYSTEMS)
def test_no_host_only_kind_is_made_by_a_key_of_any_screen(system, walks):
    w, _rows = walks[system]
    found = keyscript.reach(system, w.fs)
    host = keyscript.host_only(system)
    stale = {name: " ".join(found[name]) for name in host if name in found}
    assert not stale, ("marked host only in host/dicetray/catalog/keypaths.py, yet made on the keys "
                       "(give each a procedure there): %s" % stale)
    # The reach explores: what the core's screens make (a menu row's OK,
    # a value row's Left and Right, a form's OK, a long press) it finds.
    assert {"CHAR_ADD", "TAL_NEW", "SLASH", "UNSLASH", "RENAME", "UNDO"} <= set(found)


@pytest.mark.parametrize("system", SYSTEMS)
def test_rules_json_marks_the_host_only_kinds_with_why(system, capsys):
    assert cli.main(["rules", NAMES[system], "--json"]) == 0
    evs = json.loads(capsys.readouterr().out)["events"]
    marked = {e["name"]: e["host_only"] for e in evs if "host_only" in e}
    assert marked == keyscript.host_only(system)
    assert cli.main(["rules", NAMES[system]]) == 0
    text = capsys.readouterr().out
    for why in marked.values():
        assert "      host only: %s\n" % why in text


def test_rules_keys_prints_the_script(capsys):
    assert cli.main(["rules", "paths", "--keys"]) == 0
    out = capsys.readouterr().out
    assert out == keyscript.script(1)
    evs = parse(out)
    assert evs[-1][1] == "quit" and all(t % 100 == 0 for t, _v, _a in evs)
    assert "# OPPOSED: " in out and out.startswith("# dicetray rules paths --keys:")


def test_a_key_path_that_no_longer_fits_the_screens_says_where(monkeypatch, capsys):
    kp = keyscript.table()
    monkeypatch.setattr(kp, "PROCEDURES", (kp.HUNT, (("COMBAT", ("Fight", "Fight begins")),),
                                           kp.EXPEDITION))
    assert cli.main(["rules", "paths", "--keys"]) == 1
    cap = capsys.readouterr()
    assert cap.out == ""
    assert cap.err == ("dicetray rules: error: no key script: COMBAT: no row 'Fight begins' on "
                       "Turns, rows Fight starts | Fight ends\n")


def test_a_key_path_that_makes_another_event_is_refused(monkeypatch):
    kp = keyscript.table()
    monkeypatch.setattr(kp, "PROCEDURES", (kp.HUNT, (("OPPOSED", ("Roll", "OK")),), kp.EXPEDITION))
    with pytest.raises(keyscript.KeyPathError) as e:
        keyscript.walk(1)
    assert str(e.value) == "OPPOSED: its key path made TEST, not OPPOSED"


def test_an_action_the_rules_refuse_stops_the_walk_in_their_words(monkeypatch):
    kp = keyscript.table()
    monkeypatch.setattr(kp, "PROCEDURES", (kp.HUNT, kp.PATHS,
                                           (("TOWN income", ("Town", "Income roll")),)))
    with pytest.raises(keyscript.KeyPathError) as e:
        keyscript.walk(2)
    assert str(e.value) == "TOWN income: OK REFUSED on the device: Ada has no Businesses"
