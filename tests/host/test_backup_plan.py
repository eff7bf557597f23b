"""backup/plan.py, the plan of a backup, on data alone: no device, no
database (take.py reads what the plan asks for; test_backup.py and
test_backup_linear.py take real backups through it)."""
import ast
import os
from types import SimpleNamespace

from dicetray.backup import plan
from dicetray.fwstore import chain

EVS = [b"ev%d" % s for s in range(1, 21)]   # event seq s is EVS[s - 1]


def prev(last=10, base_seq=0, first=1, events=None):
    """The newest stored version: events first..last of lineage 7."""
    return SimpleNamespace(id=3, lineage=7, last=last, base_seq=base_seq, base_snap=None,
                           base=None, first=first, anchor=EVS[last - 1],
                           events=EVS[first - 1:last] if events is None else events)


def test_a_first_backup_takes_every_event_or_starts_from_the_snapshot():
    p = plan.first(1, EVS[:5])
    assert p.new == EVS[:5] and not p.baseline and p.camp is None
    p = plan.first(4, None)
    assert p.baseline and p.new == [] and "events 1..3 were compacted" in p.notes[0]


def test_events_compacted_before_they_were_backed_up_start_from_the_snapshot():
    assert plan.compacted(prev(), 20, 11) is None     # event 11 on: nothing missed
    p = plan.compacted(prev(), 20, 13)
    assert p.baseline and p.camp == 7 and "events 11..12 were compacted" in p.notes[0]


def test_where_a_continuation_reads_from():
    assert plan.continues_from(prev(), 20, 1) == 9    # the stored event 10 again
    assert plan.continues_from(prev(last=10, base_seq=10, first=11), 20, 11) == 10
    assert plan.continues_from(prev(), 8, 1) is None  # the device holds fewer events


def test_a_continuation_takes_the_new_events_and_checks_the_chain():
    pv = prev()
    ph = chain.over(chain.ZERO, 1, EVS[:10])
    dhead = chain.over(chain.ZERO, 1, EVS[:20])
    p, unseen = plan.continued(pv, 9, EVS[9:20], 20, ph, dhead, "fold", "hasher")
    assert not unseen and p.camp == 7 and p.prev == 3 and p.prev_head == ph
    assert p.new_from == 11 and p.new == EVS[10:20] and p.resume == "fold"
    # the stored event read again differs: no continuation, nothing unseen
    assert plan.continued(pv, 9, [b"other"] + EVS[10:20], 20, ph, dhead) == (None, False)
    # the same bytes, another chain: the histories differ before what was compared
    p, unseen = plan.continued(pv, 9, EVS[9:20], 20, ph, b"\0" * 32)
    assert p is None and unseen


def test_a_history_that_differs_is_a_new_lineage_from_the_fork():
    mine = EVS[:6] + [b"x%d" % s for s in range(7, 16)]  # differs from event 7 on
    p = plan.forked(prev(), EVS[:10], 1, mine, False)
    assert p.parent == 7 and p.camp is None and p.fork == 6
    assert p.old == EVS[:6] and p.new_from == 7 and p.new == mine[6:]
    assert "differs from backup 3 after event 6" in p.notes[0]
    # compacted on the device, every event both hold the same, the chains not
    p = plan.forked(prev(), EVS[:10], 5, EVS[4:12], True)
    assert p.baseline and p.fork == 0 and "at or before event 4" in p.notes[0]


def test_the_planner_reads_nothing():
    """plan.py imports no database, no link, no file or device module:
    what it plans from is handed in."""
    path = os.path.join(os.path.dirname(plan.__file__), "plan.py")
    tree = ast.parse(open(path).read())
    found = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom):
            found.add("." * n.level + (n.module or ""))
        elif isinstance(n, ast.Import):
            found.update(a.name for a in n.names)
    assert found == {"..fwstore"}, found
