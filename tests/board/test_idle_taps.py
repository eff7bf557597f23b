"""A Roll tap that begins and ends while the CPU waits out an idle moment's
flash erase rolls, on MicroPython's own rp2 port: no poll can
see that key down (the erase stalls the CPU, interrupts off), so only the
press the key's falling-edge interrupt noted (hw/pico.py fell()) and the
app's word that it was busy (ui/app.py, ui/buttons.py) make it a press.

Keys only, no host until the end, so the emulated board runs the same
way twice from a fresh flash: the first run finds where the idle work
after the last roll erases (marks every few ms carry the last flash
stall), the second taps inside that erase, and the test checks that the press
fell inside it before it counts the events. A second tap goes down
inside the erase and comes up 25 ms after it: the first poll after the
work sees it down, the next idle poll sees it up, too few for the
debounce; the interrupt's note makes it a press at that first poll."""

import boards

NS = 1_000_000
ROLL, BACK = 64, 32          # hw/keys.py K_ROLL, K_BACK
ROLLS = 16                   # the 16th event's snapshot: its fold and write erase
EVERY = 1600                 # ms between Roll taps (the ring's animation is ~1.2 s)
END = 1500 + ROLLS * EVERY + 4000
MARK = 5                     # ms between the first run's marks


def _script():
    steps = [(500 * NS, BACK, None), (600 * NS, 0, None)]   # the first run's tour skipped
    for k in range(ROLLS):
        t = 1500 + k * EVERY
        steps += [(t * NS, ROLL, None), ((t + 100) * NS, 0, None)]
    return steps + [(END * NS, None, "end")]


def _run(flash, marks=(), tap=()):
    """Play the script on a fresh board; returns (app ns, events, marks)."""
    with boards.board(flash, seed=5, unique_id="e6614103e7452d2f") as em:
        em.at(_script() + list(marks), base="app")
        if tap:
            em.at(list(tap), base="power")
        app = em.wait_app(boards.HANG)
        em.wait_mark("end", timeout=boards.HANG)
        with boards.device(em.port) as dev:
            events = dev.info()["events"]
        return app, events, dict(em.marks)


def test_taps_begun_inside_an_idle_erase_roll(tmp_path):
    boards.node()
    app, events, marks = _run(
        tmp_path / "a.bin", [(t * NS, None, "m%d" % t) for t in range(0, END, MARK)]
    )
    assert events == ROLLS, "the script's rolls: %d events" % events
    last_roll = app + (1500 + (ROLLS - 1) * EVERY + 100) * NS
    erases = sorted({tuple(m["stall"]) for m in marks.values()
                     if m.get("stall") and m["stall"][0] > last_roll
                     and m["stall"][1] - m["stall"][0] >= 40 * NS})
    assert erases, "no erase in the idle work after the last roll"
    t0, t1 = erases[-1]
    # Held 35 ms, wholly inside the erase: no poll sees the key down. Then
    # down inside it and up 25 ms after it: one poll after the work sees
    # the key down, and the next idle poll, 30 ms on, sees it up.
    for k, (down, up) in enumerate(((t0 + 5 * NS, t1 - 5 * NS), (t0 + 5 * NS, t1 + 25 * NS))):
        app2, events2, marks2 = _run(
            tmp_path / ("b%d.bin" % k), tap=[(down, ROLL, "down"), (up, 0, "up")]
        )
        assert app2 == app, "the second run booted differently"
        m = marks2["down"]                   # the press fell inside that erase
        assert m["stall"] == [t0, t1] and m["t"] - t1 < 0.05 * NS, (m["stall"], (t0, t1))
        assert (marks2["up"]["t"] <= t1 + 0.05 * NS) == (up < t1)
        assert events2 == ROLLS + 1, "the tap held %.1f ms from inside the erase was lost" % (
            (up - down) / NS)
