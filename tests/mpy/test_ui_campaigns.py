"""Settings > Campaigns by its text rows: the slots on
flash with system, events and KB, switch behind a second OK (and it
survives a reboot), delete behind a second OK, never the current one.
A real session on simulated flash; runs on CPython and on MicroPython."""

import gc
import sys

from hw.keys import K_UP, K_DOWN, K_OK, K_BACK
from rules import campaign as cp
from fakeapp import flash, boot, open_campaigns, press

if sys.implementation.name == "micropython":
    gc.disable()   # see storesession.py


def test_campaigns_list_switch_and_delete_on_the_screen():
    fs = flash()
    a, b, s = boot(fs)
    s.set_bright(3)                            # past the first run's tour
    for k in range(5):
        s.do(cp.DICE, (6, 1 + k % 3))
    s.new_campaign(1)
    s.do(cp.DICE, (12, 2))
    s.do(cp.DICE, (12, 3))
    a, b, s = boot(fs)
    assert s.n == 2 and b.display.rows[0].startswith("PATHS")
    rows = open_campaigns(a)
    # Small files: each slot is its directory's two 4 KB blocks and its
    # pending journal's directory's two (store/__init__.py).
    assert rows[:3] == ["CAMPAIGNS    32K", " hunt      5 16K", "*paths     2 16K"]
    assert a.fb.inv[2] and not a.fb.inv[1]     # the cursor opens on the current one
    assert rows[6:] == ["#2 id 5", "Current: in use"]
    assert all(len(r) <= 16 for r in rows)
    rows = press(a, K_OK)                      # the current one: it says why not
    assert rows[6:] == ["Current: switch", "first to delete"] and s.n == 2
    rows = press(a, K_UP)
    assert a.fb.inv[1] and rows[6:] == ["#1 id 5", "OK: switch/del"]
    rows = press(a, K_OK)
    assert rows[:4] == ["#1          hunt", "Events         5", "Flash        16K",
                        "Id             5"]
    assert rows[5:7] == ["Switch to it", "Delete"] and a.fb.inv[5]
    rows = press(a, K_DOWN, K_OK)              # Delete asks
    assert rows == ["DELETE?", "", "#1          hunt", "5 events", "frees 16K",
                    "Cannot be undone", "OK: delete", "Back: cancel"]
    rows = press(a, K_BACK, K_UP, K_OK)        # cancelled; Switch asks
    assert rows == ["SWITCH?", "", "#1          hunt", "5 events", "The current one",
                    "stays on flash.", "OK: switch", "Back: cancel"]
    assert s.n == 2
    rows = press(a, K_OK)                      # switched: home, on that campaign
    assert rows[0] == "HUNT          #5" and s.n == 3 and s.c.nevents == 5
    a, b, s = boot(fs)                        # and after a reboot
    assert s.n == 3 and b.display.rows[0] == "HUNT          #5"
    rows = open_campaigns(a)
    assert rows[1:3] == [" paths     2 16K", "*hunt      5 16K"]
    rows = press(a, K_UP, K_OK, K_DOWN, K_OK, K_OK)   # slot 2, Delete, OK
    assert rows[:2] == ["CAMPAIGNS    16K", "*hunt      5 16K"] and rows[2] == ""
    assert rows[6:] == ["Deleted: 16K", "freed"]
    assert [t[0] for t in s.campaigns()[0]] == [3]
    assert not [p for p in fs.files if p.startswith("/dicetray/c2")]
    rows = press(a, K_DOWN)                    # the note goes with the next key
    assert rows[6:] == ["#3 id 5", "Current: in use"]


def test_info_screen_shows_the_chain_head():
    # Settings > Info: the campaign's events and the
    # first 16 hex digits of its hash chain head, as the link's info says.
    from binascii import hexlify
    from store import chain
    fs = flash()
    a, b, s = boot(fs)
    s.set_bright(3)
    for k in range(3):
        s.do(cp.DICE, (6, 1 + k))
    a, b, s = boot(fs)                        # past the first run's tour
    press(a, K_UP, K_OK)                       # Settings
    rows = press(a, K_UP)                      # the last row: Info
    assert a.fb.inv[6] and rows[6] == "Info", rows
    rows = press(a, K_OK)
    want = hexlify(chain.over(chain.ZERO, 1, s.recent()[-3:])).decode()
    assert s.info()[4] == want
    assert rows[0].startswith("INFO")
    assert rows[3].startswith("Events") and rows[3].endswith(" 3"), rows
    # No whole scrub cycle since boot: the journal is not checked yet.
    assert rows[5] == "Chain   checking" and rows[6] == want[:16], rows
    assert all(len(r) <= 16 for r in rows)
    press(a, K_BACK)
    s.scrub()                                  # one segment: a whole cycle
    rows = press(a, K_OK)
    assert rows[5] == "Chain      holds" and rows[6] == want[:16], rows
    press(a, K_BACK)
    a, b, s = boot(fs)                        # the head survives a reboot
    assert s.info()[4] == want
