"""Buttons held by the host, and timed button scripts.

A script is a text file, one event a line, times in ms of simulated time
from the start (lines need not be sorted; '#' starts a comment):

    0     OK                 # tap: pressed for TAP_MS
    500   DOWN long          # pressed for LONG_MS
    900   ROLL down          # pressed until an `up`
    1400  ROLL up
    2000  screenshot shot.png
    2500  quit               # optional: otherwise the run ends after the last event

Keys: UP DOWN LEFT RIGHT OK BACK ROLL (any case).
"""

import os

KEY_BITS = {"UP": 1, "DOWN": 2, "LEFT": 4, "RIGHT": 8, "OK": 16, "BACK": 32, "ROLL": 64}
TAP_MS = 100
LONG_MS = 1000
ACTIONS = ("tap", "long", "down", "up")


def dice_seed(script):
    """The dice's seed when none is given: 1 with a script (a scripted run
    replays), else drawn from os.urandom, so every simulator a person
    starts, headless or not, rolls its own dice."""
    return 1 if script else int.from_bytes(os.urandom(4), "little")


class Buttons:
    """The pressed-key mask as the firmware's keys() sees it."""

    def __init__(self):
        self.mask = 0
        self._release = {}  # bit -> time (ms) at which it lifts

    def press(self, bit, now, hold_ms=None):
        """Press `bit`; it lifts by itself after hold_ms if given."""
        self.mask |= bit
        if hold_ms is None:
            self._release.pop(bit, None)
        else:
            self._release[bit] = now + hold_ms

    def release(self, bit):
        self.mask &= ~bit
        self._release.pop(bit, None)

    def act(self, key, action, now):
        """Apply a script/terminal action ('tap', 'long', 'down', 'up') to KEY."""
        bit = KEY_BITS[key]
        if action == "up":
            self.release(bit)
        else:
            self.press(bit, now, {"tap": TAP_MS, "long": LONG_MS}.get(action))

    def update(self, now):
        """Lift the timed presses that are due at `now`."""
        for bit, t in list(self._release.items()):
            if now >= t:
                self.release(bit)


class ScriptError(ValueError):
    pass


def parse(text, name="script"):
    """Parse a script into a time-sorted list of (ms, verb, arg).

    verb is a key name (arg: the action), 'screenshot' (arg: file) or 'quit'.
    Raises ScriptError naming the line and what is allowed.
    """
    events = []
    for no, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = "%s:%d: " % (name, no)
        try:
            ms = int(words[0])
            if ms < 0:
                raise ValueError
        except ValueError:
            raise ScriptError(
                where + "time %r is not a whole number of ms >= 0" % words[0]
            ) from None
        if len(words) < 2:
            raise ScriptError(where + "missing what to do after the time")
        verb = words[1]
        if verb.lower() == "screenshot":
            if len(words) != 3:
                raise ScriptError(where + "use: <ms> screenshot FILE.png")
            events.append((ms, "screenshot", words[2]))
        elif verb.lower() == "quit":
            events.append((ms, "quit", None))
        elif verb.upper() in KEY_BITS:
            action = words[2].lower() if len(words) > 2 else "tap"
            if action not in ACTIONS or len(words) > 3:
                raise ScriptError(
                    where + "action %r: use one of %s" % (" ".join(words[2:]), ", ".join(ACTIONS))
                )
            events.append((ms, verb.upper(), action))
        else:
            raise ScriptError(
                where
                + "unknown %r: use a key (%s), screenshot or quit" % (verb, " ".join(KEY_BITS))
            )
    events.sort(key=lambda e: e[0])  # stable: same-time lines keep file order
    return events
