"""What a player reads says the rules' words, never a
field's identifier. Every event of every system (eventsamples.py) is
walked through what `dicetray watch`, `backups show` and `backups diff`,
the hub's page and the CSV export say of it and of the
trackers after it; none of it may hold an identifier with an underscore
(`agony_user`, `SCENE_END`) or a field's bare name with its number
(`palace 0`, `face 4`, a talisman's `policy`, `link`, `role`, `a`, `b`).

One place is left as it is, on purpose: the CSV's `kind` column is the
event kind's name (`SCENE_END`), the name `dicetray act` and `dicetray
rules` take; its `summary` column says the event in words.
"""
import csv
import io
import json
import os
import re
import sys

import pytest

from ramtray import RamTray, serve
from eventsamples import SAMPLES

from dicetray.campaign import export as ex
from dicetray.catalog import events
from dicetray.rules import campaign as cp, codec, systems
from dicetray.rules.dice import Dice

UNDERSCORED = re.compile(r"\b[A-Za-z]+_[A-Za-z0-9_]+\b")
TAL_FIELDS = ("n", "cap", "policy", "link", "role", "owner", "a", "b")


def _bare(system):
    """The identifiers of system's fields that are not the rules' words too
    (`turn`, `day`, `injuries` are both: their labels say them), as a
    pattern that finds one said with its number ('palace 0', 'a 3')."""
    m = systems.get(system)
    names = list(TAL_FIELDS)
    for field in m.COUNTERS + m.CHAR_FIELDS:
        names.append(field)
    out = []
    for name in names:
        label = (events.COUNTER_LABELS[system].get(name) or events.CHAR_LABELS[system].get(name)
                 or events.TAL_LABELS.get(name) or ("",))[0]
        if name not in label.split():
            out.append(re.escape(name))
    return re.compile(r"(?<![\w'])(%s) -?\d" % "|".join(sorted(set(out))))


def raw(system, text):
    """What of `text` is an identifier a player should not read (empty: nothing)."""
    return UNDERSCORED.findall(text) + [m.group(0) for m in _bare(system).finditer(text)]


def _csv_player_text(text):
    """The CSV's cells a player reads: all but the header and an event
    row's kind name (the name `dicetray act` takes: see the module doc)."""
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[0]
    out = []
    for r in rows[1:]:
        cells = dict(zip(head, r))
        cells.pop("kind", None)
        out.append(" | ".join(cells.values()))
    return "\n".join(out)


def _key(key):
    return key if isinstance(key, tuple) else (key, None)


@pytest.mark.parametrize("system", [0, 1, 2])
def test_every_field_of_every_system_has_a_label(system):
    m = systems.get(system)
    assert set(events.COUNTER_LABELS[system]) == set(m.COUNTERS)
    assert set(events.CHAR_LABELS[system]) == set(m.CHAR_FIELDS)
    assert set(events.TAL_LABELS) == set(TAL_FIELDS) - {"a", "b"}
    make, samples = SAMPLES[system]
    roles = set()
    for key, (args, text) in samples.items():   # every role any event makes
        c = make()
        c.act(_key(key)[0], tuple(args), text, dice=Dice(5))
        roles |= {t.role for t in c.tals if t is not None}
    assert roles <= set(events.ROLE_LABELS[system]), roles - set(events.ROLE_LABELS[system])


@pytest.mark.parametrize("system", [0, 1, 2])
def test_no_identifier_reaches_a_player(system, capsys, monkeypatch):
    from dicetray.campaign import tracked
    from dicetray.cli import watch
    from dicetray.hub import view
    monkeypatch.setattr(watch.shutil, "get_terminal_size", lambda: os.terminal_size((200, 60)))
    make, samples = SAMPLES[system]
    for key, (args, text) in samples.items():
        kind = _key(key)[0]
        c = make()
        before = ex.trackers(c)
        c.act(kind, tuple(args), text, dice=Dice(5))
        ev = c.events[-1]
        seq = c.nevents
        said = {}
        v = make()                                              # watch's view of the tray
        said["watch line"] = ex.live(v, seq, ev)[0]
        capsys.readouterr()
        watch._draw(v, [said["watch line"]])
        said["watch screen"] = capsys.readouterr().out
        said["backups show"] = "\n".join(tracked.lines(c, every=True))
        said["backups diff"] = "\n".join(ex.diff_trackers(before, ex.trackers(c), system))
        h = make()                                              # the hub page's
        said["hub roll"] = view.roll_of(h, seq, ev)["line"]
        said["hub rows"] = json.dumps(tracked.rows(h))
        said["hub journal"] = "\n".join(
            x[1] for x in ex.recent(system, c.cid, c.events, n=99, public=True))
        doc = ex.document(system, c.cid, cp.encode_state(c), c.events)
        said["csv"] = _csv_player_text(ex.to_csv(doc))
        said["csv state"] = _csv_player_text(ex.state_csv(c))
        for where, text in said.items():
            assert not raw(system, text), (key, where, raw(system, text), text)


def _played(system):
    """A RamTray holding the sample campaign of `system` and, after it, every
    sample event the campaign takes in turn: (tray, events before the samples)."""
    make, samples = SAMPLES[system]
    tray = RamTray(system=system, cid=4000 + system)
    for ev in make().events:
        kind, args, faces, text = codec.decode_event(ev)
        tray.act(kind, args, text, faces)
    setup = tray.s.c.nevents
    for key, (args, text) in samples.items():
        try:
            tray.act(_key(key)[0], args, text)
        except ValueError:
            pass   # refused after the samples before it: the next one
    return tray, setup


@pytest.mark.parametrize("system", [0, 1, 2])
def test_the_commands_say_the_rules_words(system, tmp_path, monkeypatch, capsys):
    # The same through the commands themselves, on the real firmware.
    monkeypatch.setenv("DICETRAY_HOME", str(tmp_path / "home"))
    tray, setup = _played(system)
    trays = serve({"dev": tray})

    def run(*argv):
        capsys.readouterr()
        code = trays.main(list(argv))
        out = capsys.readouterr().out
        assert code == (130 if argv == ("watch",) else 0), (argv, out)
        return out

    out = {}
    run("backup")
    out["backups show"] = run("backups", "show", "1")
    out["export csv"] = _csv_player_text(run("export", "--format", "csv"))
    out["export csv --state"] = _csv_player_text(run("export", "--format", "csv", "--state"))

    def ctrl_c():
        raise KeyboardInterrupt
    tray.idle = [ctrl_c]
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    out["watch"] = run("watch")
    for where, text in out.items():
        assert not raw(system, text), (where, raw(system, text), text)
