"""The operations `make bench` measures, as source text that runs unchanged
on MicroPython and on CPython (both import the firmware as `rules`)."""

from rules import campaign as cp
from rules import hunt

# Shared setup: one seeded Dice, one preallocated pool buffer.
DICE = "from rules import dice, hunt, paths, expedition, odds, campaign as cp\nD = dice.Dice(2026)\nB = dice.new_pool()\n"

# A hunt campaign with 4 exorcists each holding a hook, the Sin in its
# palace: every tension fill raises pressure and fires its three triggers.
CASCADE = (
    DICE
    + """
C = cp.Campaign(0, 1)
for name in ('Ada', 'Bo', 'Cy', 'Di'):
    C.act(cp.CHAR_ADD, (), name)
C.act(hunt.NEW_HUNT, (2, 1))
for i in range(4):
    C.act(hunt.HOOK, (i,), 'Marked')
T = C.find(hunt.ROLE_TENSION)
"""
)


def _reference_setup():
    # The reference campaign is built here, on CPython, and enters the VM as
    # its encoded state: replaying 500 events there would need garbage
    # collections, which this VM cannot do safely mid-call (simboard/desktop.py).
    state = cp.encode_state(reference_campaign())
    return DICE + "S = bytes.fromhex(%r)\nC = cp.decode_state(S)\n" % state.hex()


# (name, setup, statement, repetitions, fuel target or None)
OPS = [
    ("hunt: roll + evaluate 10d6 action pool", DICE, "hunt.roll_pool(D, B, 10, 0)", 20, 50_000),
    ("paths: roll + evaluate 10d12 pool", DICE, "paths.roll_pool(D, B, 10)", 20, 50_000),
    (
        "expedition: roll 10d6 + resolve vs Ob 3",
        DICE,
        "expedition.resolve(expedition.roll_pool(D, B, 10), 3, 0, 0)",
        20,
        50_000,
    ),
    (
        "hunt: slash tension -> pressure cascade",
        CASCADE,
        "C.act(cp.SLASH, (T, 3, 0), dice=D)",
        5,
        None,
    ),
    ("odds in the builder: hunt 9d6 vs 3", DICE, "odds.builder_odds(0, 9, 3)", 3, 800_000),
    ("odds in the builder: paths 12d12 vs 7", DICE, "odds.builder_odds(1, 12, 7)", 3, 800_000),
    (
        "odds in the builder: paths 12d12 opposed 12",
        DICE,
        "odds.builder_odds(1, 12, 0, 0, 12)",
        3,
        800_000,
    ),
    (
        "odds in the builder: expedition 15d6 vs Ob 7",
        DICE,
        "odds.builder_odds(2, 15, 7)",
        3,
        800_000,
    ),
    (
        "odds in the builder: expedition 15 vs 15",
        DICE,
        "odds.builder_odds(2, 15, 0, 0, 15)",
        3,
        800_000,
    ),
    # Obs past 7 and monsters by Level (17 dice at Level 14)
    (
        "odds in the builder: expedition 20d6 vs Ob 20",
        DICE,
        "odds.builder_odds(2, 20, 20)",
        3,
        800_000,
    ),
    (
        "odds in the builder: expedition 17d6 vs Ob 17",
        DICE,
        "odds.builder_odds(2, 17, 17)",
        3,
        800_000,
    ),
    (
        "odds in the builder: expedition 17d6 vs Ob 30",
        DICE,
        "odds.builder_odds(2, 17, 30)",
        3,
        800_000,
    ),
    (
        "odds in the builder: exp. 20 vs 17 (a Level 14)",
        DICE,
        "odds.builder_odds(2, 20, 0, 0, 17)",
        3,
        800_000,
    ),
    (
        "  the same exactly, in long ints (no table)",
        DICE,
        "odds.builder_odds(2, 20, 0, 0, 17, expedition.SUCCESS)",
        3,
        800_000,
    ),
    # Paths opposed to 20 v 20 (14 dice + help against 20)
    (
        "odds in the builder: paths 20d12 opposed 20",
        DICE,
        "odds.builder_odds(1, 20, 0, 0, 20)",
        3,
        800_000,
    ),
    # bonus dice to +18 (a 20-die pool), the roll hot path
    (
        "expedition: roll 20d6 (bonus 18) + resolve",
        DICE,
        "expedition.resolve(expedition.roll_pool(D, B, expedition.pool(0, 18)), 3, 0, 0)",
        20,
        None,
    ),
    ("encode state (reference campaign)", None, "cp.encode_state(C)", 5, None),
    ("decode state (reference campaign)", None, "cp.decode_state(S)", 5, None),
]


def ops():
    """OPS with the reference campaign's setup filled in."""
    ref = _reference_setup()
    return [(n, ref if setup is None else setup, st, r, t) for n, setup, st, r, t in OPS]


def reference_campaign():
    """A hunt campaign of 4 characters, 10 talismans and 500 events.

    Deterministic (seeded dice, fixed action cycle): the same bytes on every
    run and on both interpreters.
    """
    from rules.dice import Dice

    d = Dice(500)
    c = cp.Campaign(hunt.ID, 0x5EED)
    for name in ("Ada", "Bo", "Cy", "Di"):
        c.act(cp.CHAR_ADD, (), name)
    c.act(hunt.NEW_HUNT, (2, 0))
    for name in ("Marked", "Hunted"):
        c.act(hunt.HOOK, (0,), name)
    c.act(cp.TAL_NEW, (4, 0, -1, 0, -1, 0, 0), "Door")
    # 4 stress + tension + pressure + Sin + 2 hooks + Door = 10 talismans
    cycle = (
        (hunt.ROLL, (0, 2, 1, 0, 0, 0, -1)),
        (hunt.ROLL, (1, 3, 2, 0, 0, 1, -1)),
        (hunt.RISK, (2,)),
        (hunt.ROLL, (2, 1, 0, 0, 2, 0, -1)),
        (hunt.ROLL, (3, 2, 3, 0, 0, 0, -1)),
        (hunt.SCENE_END, (0,)),
        (cp.SLASH, (c.find(hunt.ROLE_TASK), 1, 1)),
        (cp.UNDO, ()),
        (hunt.BURST, (1, 0)),
        (hunt.ROLL, (0, 1, 1, 0, 0, 1, -1)),
    )
    i = 0
    while len(c.events) < 500:
        kind, args = cycle[i % len(cycle)]
        i += 1
        try:
            c.act(kind, args, dice=d)
        except ValueError:
            pass  # e.g. no bursts left: the cycle moves on
    return c


def report_sizes():
    """Print the encoded size of the reference campaign."""
    c = reference_campaign()
    state = cp.encode_state(c)
    events = sum(len(e) for e in c.events)
    live = sum(1 for t in c.tals if t is not None)
    print(
        "Reference campaign: %d characters, %d talismans, %d events"
        % (len(c.chars), live, len(c.events))
    )
    print("  state encoding: %d bytes" % len(state))
    print("  events: %d bytes (%.1f bytes per event on average)" % (events, events / len(c.events)))
    try:
        from store import journal

        over = journal.HDR * len(c.events)
        print(
            "  on flash with journal record headers (%d B each): %d bytes"
            % (journal.HDR, events + over)
        )
    except ImportError:
        pass
