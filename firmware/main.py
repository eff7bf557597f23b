"""Dicetray firmware entry point: runs at boot (the simulator imports it).

Boot: find the board (hw.board.detect), open the campaign on its flash
(session.py: the newest snapshot, then every journal event after it) and
run the app (ui/app.py) on the screen it left. When the simulator ends the
run, the state digest is printed: `STATE <hex of encode_state>`.
"""

# Taken before anything else, freed once the app has made what its first
# roll needs (at its first idle moment): a free run at the bottom of the
# heap for the app's short-lived allocations. After each
# collection the allocator searches for free blocks from the heap's start;
# without this run, that search walks past all the firmware's code on
# every allocation (about 13 % of a builder key: docs/architecture.md).
_low = bytearray(4096)

import binascii  # noqa: E402

from hw.board import detect  # noqa: E402
from hw.keys import K_OK  # noqa: E402
from rules import campaign as cp  # noqa: E402


def boot():
    """Find the board, rebuild the campaign; returns the app, ready to run."""
    from ui.app import App
    from link.waiting import Waiting
    board = detect()
    if board.keys() & K_OK:
        # OK held at power-on: the builder's self-test (every key, LED, pixel).
        from ui import selftest
        selftest.run(board)
    app = App(board, _session(board))
    app.link = Waiting(app)  # the host link on the board's serial port (docs/protocol.md)
    return app


def _session(board):
    """The campaign on the board's flash; a long replay of its journal says
    so on the screen (ui/replay.py). This frame and boot's stay small: the
    simulator collects garbage under them (simboard/desktop.py spare)."""
    from session import Session, REPLAY_STEP
    from ui.replay import Replaying
    return Session(board, Replaying(board, REPLAY_STEP))


def _ended(app):
    """The simulator ended the run: leave a digest for tests and tools."""
    print("STATE", binascii.hexlify(cp.encode_state(app.s.c)).decode())
    print("SCREEN", type(app.top()).__name__)


# Kept tiny on purpose: the simulator collects garbage from board.idle(),
# while this frame is active, and only small frames are safe then (see
# simboard/desktop.py).
app = boot()
app.low = _low  # the app lets it go after its first idle work (ui/app.py idle)
del _low
if hasattr(app.b, "steps"):
    app.b.steps(app)  # a web page: it calls app.step() itself, never blocking (simboard/web.py)
else:
    try:
        app.run()  # returns when the host ends the link session (END): the REPL follows
    except SystemExit:
        _ended(app)
        raise
    app.s.st.close()
