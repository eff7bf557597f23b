"""The plan of a backup of a damaged journal is pure (backup/damaged.py):
made from data alone, the client's JournalDamaged, the device's snapshot,
its chain heads and events, with no device and no database; it asks
(needs) for exactly what it then uses."""
from dicetray.backup import damaged as dm
from dicetray.fwstore import chain
from dicetray.link.errors import JournalDamaged
from dicetray.rules import campaign as cp


def _journal(n=30):
    """A campaign's n events (free rolls, faces keyed in) and its snapshot."""
    c = cp.Campaign(0, 7, cp.UNDO_DEPTH)
    for i in range(n):
        c.act(cp.DICE, (6, 2), faces=[i % 6 + 1, (i * 5) % 6 + 1])
    return [bytes(e) for e in c.events], cp.encode_snapshot(c)


def _read(evs, gaps, bases):
    """JournalDamaged as Device.events raises it: every event that read,
    None for each damaged one."""
    got = [None if any(g[0] <= s <= g[1] for g in gaps) else ev
           for s, ev in enumerate(evs, 1)]
    g = gaps[0]
    return JournalDamaged(g[0], g[2], g[3], g[1], gaps, got, 0, bases)


def _heads(evs, seqs):
    return {s: chain.over(chain.ZERO, 1, evs[:s]) for s in seqs}


def test_a_damaged_journal_is_planned_on_data_alone():
    evs, snap = _journal()
    gaps = [[12, 12, 10, "record fails its CRC"], [22, 23, 20, "record header check failed"]]
    e = _read(evs, gaps, [0, 10, 20])
    runs = dm.spans(e)
    assert [(f, len(r)) for f, r in runs] == [(1, 11), (13, 9), (24, 7)]
    bp = dm.before(None, e, runs, None, None)   # events 1..11: a version of their own, once folded
    assert (bp.new_from, bp.new) == (1, evs[:11])
    folded = (bp, 11, None, None, None, None, None)   # as take.py folds it (here: not needed)
    base_seq = dm.snapshot_seq(e, snap)
    assert base_seq == 30
    seqs, more = dm.needs(e, runs, folded, base_seq)
    assert seqs == {30, 20} and not more   # 24..30 read: nothing after the snapshot to fetch
    heads = _heads(evs, seqs)
    p = dm.intact(None, e, runs, folded, snap, base_seq, heads, None)
    assert p.baseline and (p.base_seq, p.base_snap, p.base_head) == (30, snap, heads[30])
    assert (p.first, p.new_from, p.new) == (24, 24, evs[23:])
    assert p.before is folded
    [k] = p.runs
    assert (k.first, k.last, k.events) == (13, 21, evs[12:21])
    assert (k.anchor, k.head, k.checked, k.broken) == (20, heads[20].hex(), None, False)
    assert k.links[20 - 13] == heads[20]
    assert k.links[21 - 13] == chain.link(heads[20], 21, evs[20])
    assert k.links[:20 - 13] == [None] * 7
    said = p.notes[0]([4])   # the ids written before it: the version before the damage
    assert "events 12..12" in said and "events 22..23" in said and "backup 4" in said


def test_damage_at_the_end_asks_for_the_events_after_the_snapshot():
    evs, snap = _journal(26)
    gaps = [[25, 26, 20, "record fails its CRC"]]
    e = _read(evs, gaps, [0, 10, 20])
    runs = dm.spans(e)
    base_seq = dm.snapshot_seq(e, snap)
    seqs, more = dm.needs(e, runs, None, base_seq)
    assert more and seqs == {26, 10, 20}   # run 1..24 is kept with its segments' heads
    after = []   # the device had nothing after its snapshot
    p = dm.intact(None, e, runs, None, snap, base_seq, _heads(evs, seqs), after)
    assert (p.first, p.new) == (27, after)
    [k] = p.runs
    assert (k.first, k.last, k.anchor, k.checked) == (1, 24, 0, 20)   # chained from event 0, checked at 20


def test_a_recorded_head_the_run_does_not_lead_to_leaves_it_unchained():
    evs, snap = _journal(26)
    e = _read(evs, [[25, 26, 20, "record fails its CRC"]], [0, 10, 20])
    runs = dm.spans(e)
    heads = _heads(evs, {26, 10})
    heads[20] = bytes(32)   # not what the events chain to
    p = dm.intact(None, e, runs, None, snap, 26, heads, [])
    [k] = p.runs
    assert k.broken and k.anchor is None and "do not lead" in k.gap


def test_the_plan_imports_nothing_that_reads():
    """damaged.py reads neither the device nor the database: it imports
    neither take.py (the reads) nor the link."""
    import ast
    tree = ast.parse(open(dm.__file__, encoding="utf-8").read())
    mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert mods == {"fwstore", "rules", "db", "plan"}, mods   # db: StoreError only
