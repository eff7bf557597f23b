# Dicetray release image: the freeze manifest of MicroPython's rp2 build
# (FROZEN_MANIFEST). MicroPython's tools/makemanifest.py executes it as
# Python; tools/uf2.py stages the firmware and names the staging folder in
# $DICETRAY_FREEZE_DIR: every firmware/**/*.py with firmware/main.py renamed
# dtmain.py, rp2/main.py (the boot launcher) as main.py, and rp2/i2cstage.py
# (machine code: the port's MICROPY_CROSS_FLAGS give mpy-cross its -march)
# (docs/image.md).
import os

# The port's own manifest: _boot.py (mounts littlefs at /), rp2.py,
# asyncio, neopixel, onewire, ds18x20, dht; the tray uses neopixel.
include("$(PORT_DIR)/boards/manifest.py")

_stage = os.environ.get("DICETRAY_FREEZE_DIR")
if not _stage:
    raise Exception("DICETRAY_FREEZE_DIR is not set: this manifest freezes the staged "
                    "firmware; build the image with `python tools/uf2.py` (make uf2)")
for _name in ("main.py", "dtmain.py"):
    if not os.path.isfile(os.path.join(_stage, _name)):
        raise Exception("%s has no %s: not a staged firmware; run `python tools/uf2.py`"
                        % (_stage, _name))
freeze(_stage)
