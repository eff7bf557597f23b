"""A journal of combat checks recorded by an older firmware
(journal_old_combat.py: its events, and the state that firmware folded
them to) folds to that state with the firmware of now, byte for byte:
COMBAT has since moved into rules/expedition_more.py and its threat got
bits 4-9 (a tracked foe), a form no older journal holds. 100 combat
checks of every form then: supporters and their NPCs, firing into a
melee and its stray shots, blocks, monsters by Level, helpless sides,
ties; damage, Down and Out, long rests and undos among them. A file of
its own: one MicroPython heap holds one such fold (test_expedition_journal.py)."""
import sys

from rules import campaign as cp, systems

MPY = sys.implementation.name == "micropython"
if MPY:
    # As test_expedition_journal.py: no collection while the runner's loop
    # frame is on the heap; running out is then a clean MemoryError.
    import gc
    gc.disable()


def test_a_journal_of_combat_checks_made_before_folds_to_the_same_state():
    import journal_old_combat as j
    c = cp.Campaign(systems.EXPEDITION, 2828, cp.UNDO_DEPTH, False)   # as the device folds it
    for ev in j.EVENTS:
        c.apply(ev)
    assert cp.encode_state(c) == j.STATE
    if not MPY:   # the same by the host's replay (one fold is what the VM's heap holds)
        assert cp.encode_state(cp.replay(systems.EXPEDITION, j.EVENTS, 2828)) == j.STATE
