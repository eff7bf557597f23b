"""A long session on the real rp2 port, with MicroPython's collector running
as it does on a board (only when an allocation finds no room): 2,000
actions (longsession.py: rolls, slashes, undos and redos from the host,
rolls and undos from the keys through the UI), a snapshot every 16 events,
and no MemoryError; the free heap after a collection every 100 actions,
printed with -s."""

import boards
import longsession

HEAP_TARGET = 64 * 1024   # never under 64 KB free during the session


def test_two_thousand_actions_without_running_out_of_heap(tmp_path):
    with boards.board(tmp_path / "flash.bin", seed=21) as em:
        em.wait_app(boards.HANG)
        heap, last, history = longsession.play(em)
    print("\nactions  heap free  heap used (after a collection)")
    for n, free, used in heap:
        print("%7d  %9d  %9d" % (n, free, used))
    # Every action went in (undo and redo are events too).
    assert last["events"] == longsession.ACTIONS + longsession.SETUP == len(history)
    assert [n for n, _f, _u in heap] == list(range(0, longsession.ACTIONS + 1, longsession.EVERY))
    low = min(free for _n, free, _u in heap)
    assert low >= HEAP_TARGET, "free heap fell to %d bytes: %s" % (low, heap)
