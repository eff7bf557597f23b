"""The XIP cache model (emulator/src/xip.mjs): the RP2040's 16 kB two-way
cache of 8-byte lines in front of the flash, charging each miss the SSI's
line fetch (docs/emulator.md, "XIP cache")."""

import json
import os
import subprocess

import boards
from boards import repl

XIP = os.path.join(boards.uf2.ROOT, "emulator", "src", "xip.mjs")


def run_model(body):
    """Run JS `body` with the model imported (XipCache, SETS...); returns
    what it prints as JSON."""
    boards.node()
    script = "import * as m from %s;\nconst { XipCache, SETS } = m;\n%s" % (json.dumps(XIP), body)
    r = subprocess.run(["node", "--input-type=module", "-e", script],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_a_line_misses_once_then_hits_and_two_ways_hold_two_lines_of_a_set():
    got = run_model("""
const c = new XipCache(); c.take();
const A = 0x10000000, B = A + 8 * SETS, C = A + 16 * SETS;   // one set, three tags
const seen = [];
for (const a of [A, A + 4, A + 7, B, A, B, C, A, B]) {
  const m = c.misses; c.access(a); seen.push(c.misses - m);
}
console.log(JSON.stringify({ seen, stall: c.take(), miss: c.missCycles() }));
""")
    # A, B fill both ways; C evicts the least recently used (A), A then evicts B.
    assert got["seen"] == [1, 0, 0, 1, 0, 0, 1, 1, 1]
    assert got["miss"] == 28 * 2 + 4          # 28 SCK clocks at BAUDR 2, plus the overhead
    assert got["stall"] == 5 * got["miss"]


def test_the_aliases_flush_and_the_divider_behave_as_the_datasheet_lists():
    got = run_model("""
const c = new XipCache(); c.take();
const n = (a) => { const m = c.misses; c.access(a); return c.misses - m; };
const out = {};
out.noalloc = [n(0x11000100), n(0x11000100)];            // cached, not allocating: misses stay misses
out.nocache = [n(0x12000200), n(0x10000200), n(0x12000200)];  // allocates, never hits itself
out.raw = [n(0x13000300), n(0x10000300)];                // neither: the 0x10 alias still misses
c.flush(); out.flushed = [n(0x10000200), c.take() >= 1024];
c.baudr = 4; out.slow = c.missCycles();
c.enable(false); out.off = [n(0x10000200), n(0x10000200)];
console.log(JSON.stringify(out));
""")
    assert got["noalloc"] == [1, 1]
    assert got["nocache"] == [1, 0, 1]
    assert got["raw"] == [1, 1]
    assert got["flushed"] == [1, True]
    assert got["slow"] == 28 * 4 + 4
    assert got["off"] == [1, 1]


def test_the_firmware_sees_the_cache_through_xip_ctrl_and_only_the_model_costs_misses(tmp_path):
    # The port's own code through XIP_CTRL's counters: a loop run twice
    # misses less the second time (the VM's paths for it are cached). The
    # access counter is cleared first and read last, so it also counts the
    # hits of the statements around the loop: as many in both runs.
    code = ("from machine import mem32\n"
            "def f():\n s = 0\n for i in range(200):\n  s += i\n return s\n"
            "out = []\n"
            "for k in range(2):\n"
            " mem32[0x14000010] = 0; mem32[0x1400000c] = 0\n"
            " f()\n"
            " h = mem32[0x1400000c]; a = mem32[0x14000010]\n"
            " out.append(a - h)\n"
            "print('misses', out)\n")
    stock = boards.image(stock=True)
    misses = {}
    for xip in (True, False):
        with boards.board(tmp_path / ("f%d.bin" % xip), stock, xip=xip) as em:
            if xip:
                out = repl(em, code)
                first, second = eval(out.split("misses", 1)[1])
                assert 0 <= second < first, out
            misses[xip] = em.stats()["xipMisses"]
    assert misses[True] > 1000 and misses[False] == 0
