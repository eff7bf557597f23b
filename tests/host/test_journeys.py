"""User journeys on the whole firmware (main.py, unmodified) in the desktop
simulator: real MicroPython, scripted button presses in virtual time, a
fresh flash directory per journey.

For each rule system: build a roll and read its odds on the screen (OCR of
the framebuffer, tests/host/fbtext.py), roll and read the result, slash a
talisman until it fills (hunt: tension carries into pressure and the Sin's
capacity grows), undo; then power off and on with the same flash: the same
home screen and the same campaign. The state is checked three ways: the
screen text, the digest main.py prints when the run ends, and the store on
the flash directory read back on the host with the same rules core.

A fresh flash starts on the first run's tour (ui/first.py): the journeys
skip it with Back (SKIP) before their first key, and the tour's own
journeys play it: its pages, a skip, a roll and an undo from it, a
slashed talisman after it, and the boots after it that go straight home.
"""

import binascii
import os
import subprocess
import sys


from dicetray.rules import campaign as cp
from dicetray.rules import codec, odds
from dicetray.sim.vm import Simulator
from dicetray.sim.script import parse

import fbtext
import linkutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")

class Sim(Simulator):
    """Screenshots kept in memory (display and LEDs) instead of PNG files."""

    def __init__(self, *a, **kw):
        Simulator.__init__(self, *a, **kw)
        self.shots = {}

    def screenshot(self, path):
        self.shots[path] = (self.display, self.leds)


SLOT = 300      # ms per tap: held 100 ms, then the firmware's debounce and a frame
LONG_SLOT = 1400


def script(steps):
    """Script text from steps: 'KEY', 'KEY long' or 'shot NAME'."""
    t = 400
    out = []
    for s in steps:
        if s.startswith("shot "):
            out.append("%d screenshot %s" % (t, s[5:]))
            t += 20
        elif s.endswith(" long"):
            out.append("%d %s" % (t, s))
            t += LONG_SLOT
        else:
            out.append("%d %s" % (t, s))
            t += SLOT
    out.append("%d quit" % (t + 200))
    return "\n".join(out)


def run(flash, steps):
    sim = Sim(FIRMWARE, str(flash), script=parse(script(steps)), virtual=True, paced=False)
    code = sim.run()
    assert code == 0, sim.output
    state = [ln.split()[1] for ln in sim.output.splitlines() if ln.startswith("STATE ")]
    assert state, sim.output
    return sim, binascii.unhexlify(state[-1])


SKIP = "BACK"   # the tour's first page: "Back: skip"


def screen(sim, name):
    return fbtext.lines(sim.shots[name][0])


def stored(flash, n=None):
    """(state bytes, events after it, every event of the journal) read from
    the flash directory with the firmware's own store module, for the
    current campaign (highest cN)."""
    import store
    from store import journal
    base = os.path.join(str(flash), "dicetray")
    if n is None:
        n = max(int(d[1:]) for d in os.listdir(base) if d[0] == "c" and d[1:].isdigit())
    st = store.Store(store.OsFs(), os.path.join(base, "c%d" % n))
    state, events, rep = st.open()
    st.close()
    assert rep.errors == []
    every = []
    for b in st.segments():  # the whole journal, as a backup reads it
        assert b == len(every)
        r = journal.scan(st.fs, st.root + "/j%08x.log" % b, b, every.append)
        assert r.status == journal.OK
    assert every[len(every) - len(events):] == events
    return state, events, every


def rebuilt(flash):
    """The campaign rebuilt on the host from the store, as main.py does,
    and every event of its journal."""
    state, events, every = stored(flash)
    c = cp.decode_snapshot(state, cp.UNDO_DEPTH)
    for ev in events:
        c.apply(ev)
    return c, every


def tal(c, name):
    for t in c.tals:
        if t is not None and t.name == name:
            return t
    raise AssertionError("no talisman %s" % name)


def rolls(events, kinds):
    return [codec.decode_event(e) for e in events if e[0] in kinds]


def face_text(faces):
    return " ".join(str(f) for f in faces)


def check_reboot(tmp_path, sim, digest, home_shot):
    """Power off, power on with the same flash: same home screen, same state."""
    sim2, digest2 = run(tmp_path, ["shot boot"])
    assert digest2 == digest
    assert screen(sim2, "boot") == screen(sim, home_shot)


def test_hunt_journey(tmp_path):
    steps = [SKIP, "shot home0",
             "OK", "DOWN", "RIGHT", "RIGHT", "DOWN", "RIGHT", "shot builder",   # skill 2, adv 1
             "ROLL", "shot result",
             "BACK", "BACK", "DOWN", "DOWN", "OK",                              # talismans
             "DOWN", "RIGHT", "RIGHT", "shot tension2", "RIGHT", "shot notes", "OK",
             "shot slashed", "BACK long", "shot undone",
             "BACK", "shot home1"]
    sim, digest = run(tmp_path, steps)
    home = screen(sim, "home0")
    assert home[0].startswith("HUNT") and home[1] == "Tension      0/3"
    assert home[2] == "Pressure     0/6" and home[3] == "Sin          0/8"
    b = screen(sim, "builder")
    assert b[0] == "ROLL         3d6"
    assert b[2] == "Skill          2" and b[3] == "Advantage      1"
    assert b[7] == "Odds " + odds.fmt_permille(odds.builder_odds(0, 3, 1))  # 87.5%

    c, events = rebuilt(tmp_path)
    assert cp.encode_state(c) == digest
    (kind, args, faces, text), = rolls(events, (32,))
    assert args == [-1, 2, 1, 0, 0, 0, -1] and len(faces) == 3
    r = screen(sim, "result")
    s = sum(1 for f in faces if f >= 4)
    assert r[1] == face_text(faces)
    assert r[2].startswith("%d succ" % s) and r[2].endswith("SUCCESS" if s else "FAILURE")

    assert "Tension      2/3" in screen(sim, "tension2")
    # The fill's notes are more than the toast's two rows: a page of them,
    # the consequence first (the Sin's capacity), OK closes it.
    assert screen(sim, "notes")[:6] == ["OUTCOME", "Pressure 1/6:", "Sin capacity 9",
                                        "Tension 0/3", "Tension full:", "pressure +1"]
    sl = screen(sim, "slashed")
    assert "Pressure     1/6" in sl and "Tension      0/3" in sl
    assert "Sin          0/9" in sl                          # Sin capacity 8 -> 9
    assert sl[6:8] == ["Pressure 1/6:", "Sin capacity 9;"]   # the trigger's note first
    un = screen(sim, "undone")
    assert "Pressure     0/6" in un and "Tension      2/3" in un and "Sin          0/8" in un
    assert un[6] == "Undone"
    assert tal(c, "Tension").n == 2 and tal(c, "Pressure").n == 0 and tal(c, "Sin").cap == 8
    assert events[-1] == codec.encode_event(cp.UNDO)
    assert screen(sim, "home1")[1] == "Tension      2/3"
    check_reboot(tmp_path, sim, digest, "home1")


def test_paths_journey(tmp_path):
    steps = [SKIP, "UP", "OK", "RIGHT", "OK", "OK", "shot home0",              # settings: paths
             "DOWN", "DOWN", "OK", "OK", "OK", "shot created",                   # + new, cap 4
             "RIGHT", "RIGHT", "RIGHT", "RIGHT", "shot full", "BACK long", "shot undone",
             "BACK", "OK",                                                      # builder
             "DOWN", "DOWN", "DOWN", "RIGHT", "shot builder",                    # skill 2: 3d12
             "DOWN", "DOWN", "DOWN", "DOWN", "DOWN", "RIGHT", "shot hidden_on",  # hidden
             "ROLL", "shot result", "OK long", "shot gm",
             "BACK", "BACK", "shot home1"]
    sim, digest = run(tmp_path, steps)
    home = screen(sim, "home0")
    assert home[0].startswith("PATHS") and home[1] == "Open tests     0"
    assert "Clock 1      0/4" in screen(sim, "created")
    assert "Clock 1      4/4" in screen(sim, "full")
    assert "Clock 1      3/4" in screen(sim, "undone")
    b = screen(sim, "builder")
    assert b[0] == "ROLL        3d12"
    assert b[7] == "Odds " + odds.fmt_permille(odds.builder_odds(1, 3, 1))
    h = screen(sim, "hidden_on")   # hidden: the title says so, the odds are the GM's
    assert h[0] == "HIDDEN      3d12" and h[7] == "long OK: GM view"

    c, events = rebuilt(tmp_path)
    assert cp.encode_state(c) == digest
    assert tal(c, "Clock 1").n == 3
    (kind, args, faces, text), = rolls(events, (64,))
    assert args == [-1, 2, 1, 0, 0, 1, 1] and len(faces) == 3
    s = sum((0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2)[f] for f in faces)
    r = screen(sim, "result")
    assert r[1] == face_text(faces)
    assert r[2].startswith("%d succ" % s) and r[2].endswith("hidden")
    assert not any("SUCCESS" in ln or "FAILURE" in ln for ln in r)   # players see no verdict
    g = screen(sim, "gm")
    assert g[2].endswith("SUCCESS" if s >= 1 else "FAILURE")
    assert g[3] == "margin %s GM" % ("%+d" % (s - 1) if s != 1 else "0")
    check_reboot(tmp_path, sim, digest, "home1")


def test_expedition_journey(tmp_path):
    steps = [SKIP, "UP", "OK", "RIGHT", "RIGHT", "OK", "OK", "shot home0",    # expedition
             "OK", "DOWN", "DOWN", "RIGHT", "shot builder",                      # ability 2: 4d6
             "ROLL", "shot result", "BACK",
             "ROLL long", "DOWN", "OK", "OK", "OK", "OK", "shot keyed4", "OK", "shot keyed",
             "BACK", "BACK",
             "DOWN", "DOWN", "DOWN", "DOWN", "OK", "OK", "OK", "shot check", "OK",  # 2 turns
             "shot turns", "BACK",
             "DOWN", "DOWN", "OK", "OK", "RIGHT", "RIGHT", "OK",                    # clock cap 6
             "RIGHT", "RIGHT", "RIGHT", "RIGHT", "RIGHT", "RIGHT", "shot full",
             "BACK long", "shot undone", "BACK", "shot home1"]
    sim, digest = run(tmp_path, steps)
    home = screen(sim, "home0")
    assert home[0].startswith("EXPEDITION")
    assert home[1:4] == ["Turn 0     day 1", "Next encounter 2", "Next usage     2"]
    b = screen(sim, "builder")
    assert b[0] == "ROLL         4d6"
    assert b[7] == "Odds " + odds.fmt_permille(odds.builder_odds(2, 4, 1))  # 93.8%

    c, events = rebuilt(tmp_path)
    assert cp.encode_state(c) == digest
    live, keyed = rolls(events, (96,))
    assert live[1] == [2, 1, 0, 0, 0, 0, 0, -1] and len(live[2]) == 4
    r = screen(sim, "result")
    s = sum(1 for f in live[2] if f >= 4)
    assert r[1] == face_text(live[2]) and r[2].startswith("%d succ" % s)
    # Physical roll: four 6s keyed in, read by the same rules, logged with its faces.
    assert screen(sim, "keyed4")[1] == "6 6 6 6"
    assert keyed[2] == b"\x06\x06\x06\x06" and keyed[1] == live[1]
    k = screen(sim, "keyed")
    assert k[1] == "6 6 6 6" and k[2] == "4 succ   SUCCESS" and k[3] == "margin +3"

    t = screen(sim, "turns")
    assert t[0] == "TURN 2     day 1"
    turns = rolls(events, (109,))
    assert len(turns) == 2 and len(turns[0][2]) == 0 and len(turns[1][2]) == 1  # d12 on turn 2
    d12 = turns[1][2][0]
    word = "ENCOUNTER" if d12 <= 2 else ("sign or sighting" if d12 == 3 else "nothing")
    ck = screen(sim, "check")      # the check and the turn: more than two rows, a page
    assert ck[0] == "OUTCOME" and " ".join(ck[1:7]).startswith("encounter check %d:" % d12)
    assert word.split()[0] in " ".join(ck[1:7])
    assert " ".join(t[6:8]).startswith("encounter check %d:" % d12)
    assert "Clock 1      6/6" in screen(sim, "full")
    assert "Clock 1      5/6" in screen(sim, "undone")
    assert tal(c, "Clock 1").n == 5 and c.x[0] == 2
    check_reboot(tmp_path, sim, digest, "home1")


def test_long_session_survives_garbage_collections(tmp_path):
    """Five minutes of table time, a roll every 5 s: the heap fills and is
    collected many times (simboard/desktop.py keeps collections at a safe point);
    the run ends cleanly and every roll is on flash."""
    lines = []
    for k in range(60):
        t = 1000 + 5000 * k
        lines += ["%d ROLL" % t, "%d BACK" % (t + 1500)]
    lines.append("%d quit" % 302000)
    sim = Sim(FIRMWARE, str(tmp_path), script=parse("\n".join(lines)), virtual=True, paced=False)
    assert sim.run() == 0, sim.output
    c, events = rebuilt(tmp_path)
    assert c.nevents == 60  # one event per roll, all on flash
    assert sum(1 for ev in events if ev[0] == 32) == 60  # hunt ROLL events


def test_screens_say_what_their_keys_do(tmp_path):
    """The words on the screens match the keys: the Settings
    System row shows it changes and fits 16 columns, the builder shows an
    undo's "Undone", key-in names Up/Down, OK and Left, deleting a clock
    says how to get it back."""
    steps = [SKIP, "UP", "OK", "shot settings", "RIGHT", "RIGHT", "shot system",
             "OK", "shot confirm", "BACK", "RIGHT", "BACK",                     # still hunt
             "OK", "DOWN", "RIGHT", "ROLL", "OK", "shot builder",               # skill 1, rolled
             "BACK long", "shot undone", "DOWN", "shot next",
             "ROLL long", "shot keyin", "UP", "OK", "shot keyed", "LEFT", "shot erased",
             "BACK", "BACK",
             "DOWN", "DOWN", "OK", "UP", "OK", "OK", "shot clock",               # + new: Clock 1
             "OK", "DOWN", "OK", "shot deleted", "BACK long", "shot back"]
    sim, digest = run(tmp_path, steps)
    assert screen(sim, "settings")[1] == "System    <hunt>"
    assert screen(sim, "system")[1] == "Sys <expedition>"
    assert screen(sim, "confirm")[2:4] == ["System:", "expedition"]
    b = screen(sim, "builder")
    assert b[0] == "ROLL         1d6" and b[7] == "Odds 50.0%"             # the odds, not the roll's notes
    u = screen(sim, "undone")
    assert u[0] == "ROLL         1d6" and u[7] == "Undone"
    assert screen(sim, "next")[7] == "Odds 50.0%"                         # until the next key
    k = screen(sim, "keyin")
    assert k[0] == "KEY IN       1d6" and k[4] == "0 of 1 faces"
    assert k[5:8] == ["Up/Down face   1", "OK: add face", ""]
    fb = sim.shots["keyin"][0]
    assert all(fbtext.INVERTED.get(fbtext.cell(fb, 5, col)) == ch               # the cursor bar
               for col, ch in enumerate("Up/Down face   1"))
    k = screen(sim, "keyed")
    assert k[1] == "2" and k[4] == "1 of 1 faces" and k[5] == "OK/Roll: apply"
    assert k[7] == "Left: erase last"
    assert screen(sim, "erased")[1] == "no faces yet"
    assert "Clock 1      0/4" in screen(sim, "clock")
    d = screen(sim, "deleted")
    assert "Clock 1      0/4" not in d and d[6:8] == ["Deleted. Undo:", "long Back"]
    back = screen(sim, "back")
    assert "Clock 1      0/4" in back and back[6] == "Undone"
    c, events = rebuilt(tmp_path)
    assert cp.encode_state(c) == digest and tal(c, "Clock 1").cap == 4
    assert [e[0] for e in events] == [32, cp.UNDO, cp.TAL_NEW, cp.TAL_DEL, cp.UNDO]


def test_a_long_boot_message_pages(tmp_path):
    """Both snapshots damaged: the boot's STORE DAMAGE message is longer
    than the screen; it pages (1/2, 2/2) and every word of it is shown."""
    steps = [SKIP, "DOWN", "DOWN", "OK", "DOWN"] + ["RIGHT", "LEFT"] * 17      # 34 events
    sim, digest = run(tmp_path, steps)
    snaps = sorted(n for n in os.listdir(tmp_path / "dicetray" / "c1") if n.endswith(".snp"))
    # The campaign's first, and the one due after event 16: the keys came
    # faster than an idle moment (ui/app.py TIDY_MS), so the action that
    # brought the events since the last snapshot to session.SNAP_MAX (32)
    # wrote it; 33 and 34 owe none.
    assert snaps == ["s00000000.snp", "s00000020.snp"]
    for n in snaps:
        p = tmp_path / "dicetray" / "c1" / n
        b = bytearray(p.read_bytes())
        b[len(b) // 2] ^= 0xFF
        p.write_bytes(bytes(b))
    sim2, digest2 = run(tmp_path, ["shot page1", "DOWN", "shot page2", "DOWN", "shot page3",
                                   "UP", "UP", "shot again", "DOWN", "DOWN", "OK", "shot home"])
    assert digest2 == digest                                # the journal replays it all
    p1, p2, p3 = screen(sim2, "page1"), screen(sim2, "page2"), screen(sim2, "page3")
    assert p1[0] == "STORE DAMAGE 1/3" and p1[7] == "Down/OK: more"
    assert p2[0] == "STORE DAMAGE 2/3" and p3[0] == "STORE DAMAGE 3/3" and p3[7] == "OK: close"
    assert screen(sim2, "again") == p1
    words = " ".join(p1[1:7] + p2[1:7] + p3[1:7]).split()
    assert " ".join(words) == ("snapshot s00000020.snp damaged (CRC mismatch): using the one before "
                               "snapshot s00000000.snp damaged (CRC mismatch): using the one before "
                               "no snapshot readable: the campaign is rebuilt from its journal as "
                               "hunt")
    assert screen(sim2, "home")[0] == "HUNT         #34"


# --- the first run's tour --------------------------------------------------------

TOUR1 = ["KEYS  Back: skip", "Up/Down: move", "Left/Right: -/+", "OK: open, choose",
         "Back: go back", "Roll: roll dice", "Hold: long press", "OK: next     1/3"]
TOUR2 = ["ROLL  Back: skip", "Press Roll now:", "it rolls the", "dice set in the",
         "Roll menu and", "shows each die", "and the verdict.", "OK: next     2/3"]
TOUR3 = ["UNDO  Back: skip", "Hold Back: undo", "the last action,", "a roll or slash.",
         "Hold OK: redo.", "Try it now.", "", "OK: done     3/3"]


def ui_txt(flash):
    p = os.path.join(str(flash), "dicetray", "ui.txt")
    return open(p).read() if os.path.exists(p) else None


def test_a_new_player_from_the_tour_to_a_roll_a_slash_and_an_undo(tmp_path):
    """The design's "from make sim to a rolled pool, a slashed talisman and
    an undo without reading anything but the screen": keys only, each one
    what the screen before it said."""
    steps = ["shot keys",
             "OK", "shot roll",                                   # "OK: next"
             "ROLL", "shot result",                               # "Press Roll now"
             "OK", "shot undo",                                   # the result closes
             "BACK long", "shot undone",                          # "Hold Back: undo"
             "OK long", "shot redone",                            # "Hold OK: redo."
             "OK", "shot home",                                   # "OK: done"
             "DOWN", "DOWN", "OK", "shot talismans",              # Talismans (home menu)
             "DOWN", "RIGHT", "shot slashed",                     # "Left/Right: -/+"
             "BACK long", "shot unslashed",                       # undo the slash
             "BACK", "shot home2"]
    sim, digest = run(tmp_path, steps)
    assert screen(sim, "keys") == TOUR1
    fb = sim.shots["keys"][0]
    assert all(fbtext.INVERTED.get(fbtext.cell(fb, 0, col)) == ch          # the title bar
               for col, ch in enumerate(TOUR1[0]))
    assert all(fbtext.cell(fb, r, col) in fbtext.FONT                       # the rest: plain
               for r in range(1, 8) for col in range(16))
    assert screen(sim, "roll") == TOUR2
    c, events = rebuilt(tmp_path)
    assert cp.encode_state(c) == digest
    roll = rolls(events, (32,))[0]
    r = screen(sim, "result")
    assert r[0] == "RESULT   2d6 low" and r[1] == face_text(roll[2])  # the builder's pool
    assert r[2].endswith("SUCCESS") or r[2].endswith("FAILURE")
    assert screen(sim, "undo") == TOUR3
    assert screen(sim, "undone") == TOUR3[:6] + ["Undone", TOUR3[7]]
    assert screen(sim, "redone") == TOUR3[:6] + ["Redone", TOUR3[7]]
    home = screen(sim, "home")
    assert home[0] == "HUNT          #3" and home[4] == "Roll"
    assert fbtext.inverted(sim.shots["home"][0], 4)      # the cursor on Roll
    t = screen(sim, "talismans")
    assert t[0] == "TALISMANS      3" and t[2] == "Tension      0/3"
    sl = screen(sim, "slashed")
    assert sl[2] == "Tension      1/3" and sl[6] == "Tension 1/3"
    un = screen(sim, "unslashed")
    assert un[2] == "Tension      0/3" and un[6] == "Undone"
    assert screen(sim, "home2")[0] == "HUNT          #5"
    assert [e[0] for e in events] == [32, cp.UNDO, cp.REDO, cp.SLASH, cp.UNDO]
    assert tal(c, "Tension").n == 0 and len(rolls(events, (32,))) == 1
    assert ui_txt(tmp_path) == "bright=3\n"   # ended: the settings saved, not new
    check_reboot(tmp_path, sim, digest, "home2")       # and the next boot goes home


def test_back_skips_the_tour_and_it_never_comes_back(tmp_path):
    sim, digest = run(tmp_path, ["shot tour", "OK", "shot page2", SKIP, "shot home"])
    assert screen(sim, "tour") == TOUR1 and screen(sim, "page2") == TOUR2
    home = screen(sim, "home")
    assert home[0] == "HUNT          #0" and home[1] == "Tension      0/3"
    assert ui_txt(tmp_path) == "bright=3\n"
    c, events = rebuilt(tmp_path)
    assert events == [] and cp.encode_state(c) == digest  # skipping made no event
    check_reboot(tmp_path, sim, digest, "home")


def test_the_tour_waits_for_its_end_or_the_first_event(tmp_path):
    """Off before the tour ended and nothing done: the tour again. A roll
    from it is the campaign's first event: the tray is no longer new,
    ended or not."""
    sim, digest = run(tmp_path, ["OK", "shot page2"])
    assert screen(sim, "page2") == TOUR2 and ui_txt(tmp_path) is None
    sim, digest = run(tmp_path, ["shot again", "ROLL", "shot result"])
    assert screen(sim, "again") == TOUR1
    assert screen(sim, "result")[0] == "RESULT   2d6 low" and ui_txt(tmp_path) is None
    sim2, digest2 = run(tmp_path, ["shot boot"])
    assert digest2 == digest and screen(sim2, "boot")[0] == "HUNT          #1"


def test_a_flash_with_a_campaign_never_shows_the_tour(tmp_path):
    c = linkutil.write_flash(str(tmp_path), 40)   # made on the host: no ui.txt at all
    sim, digest = run(tmp_path, ["shot boot"])
    b = screen(sim, "boot")
    assert b[0].endswith("#%d" % c.nevents) and b[4] == "Roll"
    assert "SCREEN Home" in sim.output and ui_txt(tmp_path) is None


# The README's screenshot (docs/img/sim.png), made by the simulator's own
# --screenshot after these keys on a fresh flash (docs/ui.md): the tour
# skipped, Tension slashed four times (one carries into Pressure: its notes
# on a page, OK closes it), home.
from tools.docshots import SIM_SCRIPT as README_SCRIPT  # noqa: E402  (what `make docs` plays)


def test_the_readme_screenshot_is_what_the_simulator_draws(tmp_path):
    script = tmp_path / "readme.txt"
    script.write_text(README_SCRIPT)
    shot = tmp_path / "sim.png"
    r = subprocess.run([sys.executable, "-m", "dicetray", "sim", "--headless",
                        "--flash", str(tmp_path / "flash"), "--script", str(script),
                        "--screenshot", str(shot)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = fbtext.lines(fbtext.from_png(str(shot)))
    assert lines[:5] == ["HUNT          #4", "Tension      1/3", "Pressure     1/6",
                         "Sin          0/9", "Roll"]
    committed = os.path.join(ROOT, "docs", "img", "sim.png")
    assert shot.read_bytes() == open(committed, "rb").read(), \
        "docs/img/sim.png is stale: regenerate it with `make docs`"


def test_rename_a_talisman_on_the_keys_and_it_stays_renamed(tmp_path):
    """Renaming with seven keys on the whole firmware;
    the new name is an event (undo would give the old one back) and
    survives a power cycle."""
    steps = [SKIP, "DOWN", "DOWN", "OK", "OK", "shot menu", "DOWN", "DOWN", "OK", "shot rename",
             "DOWN", "RIGHT", "UP", "shot edited", "OK", "shot saved", "BACK", "shot home"]
    sim, digest = run(tmp_path, steps)
    assert screen(sim, "menu")[2:5] == ["Clear", "Delete", "Rename"]
    r = screen(sim, "rename")
    assert r[0] == "RENAME" and r[2] == "Pressure" and r[3] == "       ^"
    assert screen(sim, "edited")[2:4] == ["PressurdA", "        ^"]
    assert "PressurdA    0/6" in screen(sim, "saved")
    c, events = rebuilt(tmp_path)
    assert tal(c, "PressurdA").cap == 6 and cp.encode_state(c) == digest
    assert codec.decode_event(events[-1])[:2] == (cp.RENAME, [1, 0])
    assert "Pressure     0/6" in screen(sim, "home")     # home labels hunt's trackers by their rule
    check_reboot(tmp_path, sim, digest, "home")
