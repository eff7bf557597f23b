"""Where a roll's CPU time goes on the board, a development instrument
beside make bench's roll rows: the emulator's cycles (XIP stalls included)
in the runs that drew a roll's result, up to the result's first byte for
the display, in three phases: up to the event's flash program, from it to
the first call of a mark (a C function: framebuf_text, the first row
drawn, unless --mark says another), and after the mark. Named by C
function from the release image's ELF, or with --py by the frozen Python
function whose bytecode the VM read last (its C calls included).

    .venv/bin/python bench/pcprofile.py [--system hunt] [--top 25] [--mark FN] [--py]
"""

import argparse
import bisect
import json
import os
import subprocess
import tempfile

import board

SYSTEMS = {"hunt": "bench-flash", "paths": "bench-paths", "expedition": "bench-exp"}
PHASES = (
    ("", "from the wake to the event's flash program"),
    ("+", "from the flash program to the mark's first call"),
    ("*", "from the mark to the result's first byte for the display"),
)


def symbols(elf, py):
    """Sorted (address, size, name) of the ELF's functions (Thumb bit
    cleared), or with `py` of its constant data: the frozen bytecode
    (fun_data_<module>_<function>) and the tables among it."""
    out = subprocess.run(
        ["arm-none-eabi-nm", "-n", "-S", "--defined-only", elf],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        addr, size, kind, name = int(parts[0], 16), int(parts[1], 16), parts[2], parts[3]
        if py and kind in "rRdD":
            syms.append((addr, size, name))
        elif not py and kind in "tTwW":
            syms.append((addr & ~1, size, name))
    syms.sort()
    return syms


def by_function(profile, syms, phase):
    """{function: cycles} of the emulator's {"<pc or b<addr>><phase>": cycles}."""
    addrs = [a for a, _, _ in syms]
    out = {}
    for key, c in profile.items():
        at = key.rstrip("+*")
        if key[len(at) :] != phase:
            continue
        a = int(at.lstrip("b"))
        i = bisect.bisect_right(addrs, a) - 1
        name = syms[i][2] if i >= 0 and a < syms[i][0] + max(syms[i][1], 2) else "?"
        out[name] = out.get(name, 0) + c
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--system", default="hunt", choices=sorted(SYSTEMS))
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--mark", default="framebuf_text")
    ap.add_argument("--py", action="store_true")
    ap.add_argument("--rolls", type=int, default=5)
    ap.add_argument("--first", action="store_true", help="the first roll of a boot, from home")
    o = ap.parse_args()
    uf2_path = board.image()
    elf = os.path.join(
        board.ROOT, "build", "rp2", "RPI_PICO", "firmware.elf"
    )  # the image's (tools/uf2.py)
    funcs = symbols(elf, False)
    syms = symbols(elf, True) if o.py else funcs
    mark = [a for a, _, name in funcs if name == o.mark][0]
    # The frozen bytecode's range: from the first fun_data_ symbol to the
    # end of the last (the constants between them are named too, so a
    # read of a table says which).
    code = [(a, n) for a, n, name in syms if name.startswith("fun_data_")]
    extra = {"py_code": (min(a for a, _ in code), max(a + n for a, n in code))} if o.py else {}
    prof = tempfile.mktemp(suffix=".json")
    b = board.Board(
        uf2_path, board.campaign_files(SYSTEMS[o.system]), pc_profile=prof, pc_mark=mark, **extra
    )
    b.wait_ms(1000)
    rows = []
    if o.first:
        b.em.spans(True)
        rows.append(b.roll())
        n = 1
    else:
        b.tap("OK")  # the builder
        for _ in range(o.rolls):
            b.em.spans(True)
            rows.append(b.roll())
            b.em.spans(False)
            b.tap("BACK")
        n = o.rolls
    b.close()
    with open(prof) as f:
        data = json.load(f)
    os.unlink(prof)
    for r in rows:
        print("  roll: %.1f ms, CPU %.1f, bus %.1f" % r[:3])
    ms = 8 / (n * 1e6)
    for phase, what in PHASES:
        got = by_function(data, syms, phase)
        total = sum(got.values())
        print("%s: %.2f ms a roll %s" % (o.system, total * ms, what))
        for name, c in sorted(got.items(), key=lambda kv: -kv[1])[: o.top]:
            print("%8.3f ms %5.1f %%  %s" % (c * ms, 100 * c / total, name))


if __name__ == "__main__":
    main()
