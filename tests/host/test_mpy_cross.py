"""Every firmware file compiles with mpy-cross: it is valid MicroPython."""
import os

from tools.mpy import FIRMWARE, compile_firmware


def test_every_firmware_file_compiles(tmp_path):
    sources = [os.path.join(b, f) for b, _, fs in os.walk(FIRMWARE) for f in fs if f.endswith(".py")]
    made = compile_firmware(str(tmp_path))
    assert len(made) == len(sources) > 0
    for m in made:
        with open(m, "rb") as fh:
            assert fh.read(1) == b"M"  # the .mpy header


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
