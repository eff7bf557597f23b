"""The long session the board stage and `make bench` play on an emulated
board: 2,000 actions, most from the host (rolls, slashes, undos, redos),
every 25th and 50th from the keys through the UI (a roll with its
animation and result screen, a long-Back undo); after every 100 the
device collects and reports its free heap (INFO "gc")."""


import boards

from dicetray.rules import campaign as cp
from dicetray.rules import hunt

ACTIONS = 2000
EVERY = 100
SETUP = 3                 # two characters and a talisman before the actions
ROLL_KEY = 64             # hw/keys.py K_ROLL
BACK_KEY = 32             # K_BACK


class KeyMissed(AssertionError):
    """A key action did not make exactly one event."""


def keyed(em, dev, mask, hold_ms, settle_ms, mark):
    """An action from the keys; KeyMissed unless it made exactly one event
    (naming the screen after it)."""
    before = dev.info()["events"]
    em.tap(mask, hold_ms, settle_ms, mark)
    after = dev.info()["events"]
    if after != before + 1:
        raise KeyMissed("%s made %d events; %s" % (mark, after - before, _around(em, mark)))


def _around(em, mark):
    """The screen at `mark` (after the key), in text."""
    import fbtext
    return "the screen after it: %s" % " | ".join(fbtext.lines(em.marks[mark]["display"]))


def play(em, actions=ACTIONS, every=EVERY):
    """Play the session on the booted board `em`; returns (heap, info,
    history): [(actions done, heap free, heap used)] after a collection at
    the start and every `every` actions, the last info, every event."""
    heap = []
    with boards.device(em.port) as dev:
        dev.act(cp.CHAR_ADD, (), "Ada")
        dev.act(cp.CHAR_ADD, (), "Bo")
        dev.act(cp.TAL_NEW, (6, 0, -1, 0, -1, 0, 0), "Lair")
        lair = [t.name if t else None for t in cp.decode_snapshot(dev.snapshot()[1]).tals].index("Lair")
        i = dev.info(collect=True)
        heap.append((0, i["heap_free"], i["heap_used"]))
        for done in range(actions):
            k = done % 50
            if k == 25:       # the ROLL key: the builder's pool, its animation, the result screen
                keyed(em, dev, ROLL_KEY, 100, 1500, "roll%d" % done)
            elif k == 49:     # long Back: undo from the keys
                keyed(em, dev, BACK_KEY, 900, 300, "undo%d" % done)
            elif k % 10 == 8:
                dev.act(cp.UNDO)
            elif k % 10 == 9:
                dev.act(cp.REDO)
            elif k % 10 == 4:
                dev.act(cp.SLASH, (lair, 1, 0))
            elif k % 10 == 6:
                dev.act(cp.UNSLASH, (lair, 1))
            else:
                dev.act(hunt.ROLL, (done % 2, 1 + done % 3, done % 2, 0, 0, done % 7 == 0, -1))
            if (done + 1) % every == 0:
                i = dev.info(collect=True)
                heap.append((done + 1, i["heap_free"], i["heap_used"]))
        return heap, dev.info(), dev.events(0)
