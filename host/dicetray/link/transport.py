"""The serial port to the tray, through pyserial.

Opened the way mpremote opens it: 115200 baud (a USB CDC port ignores the
rate, but 1200 baud is the "touch" that resets some boards into their
bootloader, so it is refused), no hardware or software flow control, and
DTR/RTS left as the OS raises them at open and never toggled afterwards
(toggling them resets ESP-style boards; MicroPython's USB CDC only needs
DTR up to send). The port is locked (flock) so two host tools never
interleave frames.

Before anything is written, the port is checked (Linux: /proc): a tty
that is some process's controlling terminal (a shell's) is no tray and is
refused untouched. A port another program has locked (`dicetray watch`)
is tried again for LOCK_WAIT seconds, then refused naming that program
(/proc/locks; else /proc/*/fd; else "another program"). The terminal
settings (termios) the port had are put back when it is closed, so a
wrong --port is never left in raw mode.
"""

import errno
import os
import stat
import time
from typing import Any

BAUD = 115200
LOCK_WAIT = 2.0  # seconds to wait for a port another program has locked
_B1200 = 0o000011  # termios.B1200 on Linux (also read from termios when there is one)


class TransportError(Exception):
    """The port could not be opened or failed."""


class PortBusy(TransportError):
    """Another program holds the port (its lock); `holders`: [(pid, command line)]."""

    def __init__(self, message: str, holders: list[tuple[int, str]]) -> None:
        TransportError.__init__(self, message)
        self.holders = holders


def _cmdline(pid: int) -> str:
    """A process's command line, shortened to what a user recognises."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            raw = f.read().split(b"\0")
    except OSError:
        return ""
    args = [a.decode("utf-8", "replace") for a in raw if a]
    for k in range(
        min(2, len(args))
    ):  # /usr/bin/python3 /x/bin/dicetray watch -> python3 dicetray watch
        if args[k].startswith("/"):
            args[k] = os.path.basename(args[k])
    line = " ".join(" ".join(args).split())  # one line, whatever the arguments hold
    return line if len(line) <= 100 else line[:97] + "..."


def _pids() -> list[int]:
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    return [int(n) for n in names if n.isdigit() and int(n) != os.getpid()]


def lock_holders(path: str) -> list[tuple[int, str]]:
    """[(pid, command line)] of the processes that hold a lock on the
    port (Linux /proc/locks, by the file's device and inode), else of
    those that have it open (/proc/*/fd); [] where the OS does not tell."""
    try:
        st = os.stat(path)
    except OSError:
        return []
    key = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            locks = f.read().splitlines()
    except OSError:
        locks = None
    pids = []
    if locks is not None:
        for ln in locks:
            w = ln.split()
            # "1: FLOCK  ADVISORY  WRITE 1234 00:1a:4 0 EOF" ("->" marks a waiter)
            if len(w) >= 6 and "->" not in w and w[5] == key and w[4].isdigit():
                pid = int(w[4])
                if pid != os.getpid() and pid not in pids:
                    pids.append(pid)
    else:
        real = os.path.realpath(path)
        for pid in _pids():
            try:
                fds = os.listdir("/proc/%d/fd" % pid)
            except OSError:
                continue
            for fd in fds:
                try:
                    if os.readlink("/proc/%d/fd/%s" % (pid, fd)) == real:
                        pids.append(pid)
                        break
                except OSError:
                    continue
    return [(pid, _cmdline(pid)) for pid in pids]


def terminal_of(path: str) -> list[tuple[int, str]]:
    """[(pid, command line)] of the processes whose controlling terminal
    the port is (Linux /proc/*/stat tty_nr): a shell's terminal, not a
    tray. [] when it is nobody's (a board's USB port, a simulator's pty)
    or where the OS does not tell."""
    try:
        st = os.stat(path)
    except OSError:
        return []
    if not stat.S_ISCHR(st.st_mode):
        return []
    maj, mnr = os.major(st.st_rdev), os.minor(st.st_rdev)
    want = (mnr & 0xFF) | (maj << 8) | ((mnr & ~0xFF) << 12)
    out = []
    for pid in _pids():
        try:
            with open("/proc/%d/stat" % pid, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # after "pid (comm)": state ppid pgrp session tty_nr
        if len(fields) > 4 and fields[4].lstrip(b"-").isdigit() and int(fields[4]) == want:
            out.append(pid)
    return [(pid, _cmdline(pid)) for pid in sorted(out)]


def _who(procs: list[tuple[int, str]]) -> str:
    return ", ".join("pid %d (%s)" % (pid, cmd) if cmd else "pid %d" % pid for pid, cmd in procs)


def _is_lock_error(e: BaseException) -> bool:
    return getattr(e, "errno", None) in (
        errno.EAGAIN,
        errno.EWOULDBLOCK,
    ) or "exclusively lock" in str(e)


def _serial_class() -> tuple[Any, Any]:
    """pyserial's Serial, keeping the port's termios settings from before
    its first change (`saved`) so that close() can put them back."""
    import serial

    try:
        import termios
    except ImportError:  # not a POSIX system: nothing to keep
        return serial.Serial, None

    class Serial(serial.Serial):
        saved = None

        def _reconfigure_port(self, *a, **kw):
            if self.saved is None and self.fd is not None:
                try:
                    self.saved = termios.tcgetattr(self.fd)
                except termios.error:
                    pass
            return serial.Serial._reconfigure_port(self, *a, **kw)

    return Serial, termios


def is_url(port: str) -> bool:
    """True for a pyserial URL (socket://127.0.0.1:N ...), False for a device path."""
    return "://" in port


class Transport:
    """A byte pipe to the device: write(b), read(timeout) -> bytes."""

    def __init__(self, port: str, baud: int = BAUD) -> None:
        import serial

        if baud == 1200:
            raise TransportError("1200 baud resets some boards into their bootloader: refused")
        self.port = port
        self.sent = 0  # bytes on the wire, each way (for figures)
        self.received = 0
        if is_url(port):
            self._open_url(port, baud)
            return
        shell = terminal_of(port)
        if shell:
            raise TransportError(
                "%s is the terminal of %s, not a Dicetray: nothing was sent to "
                "it; name the tray's port with --port (`dicetray ports` lists "
                "boards and simulators)" % (port, _who(shell))
            )
        cls, self._termios = _serial_class()
        s = cls()
        s.port = port
        s.baudrate = baud
        s.timeout = 0
        s.write_timeout = 5
        s.rtscts = False
        s.dsrdtr = False
        s.xonxoff = False
        s.exclusive = True
        end = time.monotonic() + LOCK_WAIT
        while True:
            try:
                s.open()
                break
            except (serial.SerialException, OSError) as e:
                s.saved = None  # what the holder set is not the port's own
                if not _is_lock_error(e):
                    raise TransportError("cannot open %s: %s" % (port, e)) from None
                if time.monotonic() < end:
                    time.sleep(0.1)  # another program has it: it may be about to let go
                    continue
                who = lock_holders(port)
                raise PortBusy(
                    "%s is in use by %s: one program at a time talks to the tray; "
                    "stop that one (Ctrl-C in its terminal%s) and try again, or, for a "
                    "second screen at the table, start `dicetray serve` instead: it holds "
                    "the port and every command and `watch` goes through it at once"
                    % (
                        port,
                        _who(who) if who else "another program",
                        ", or kill %d" % who[0][0] if who else "",
                    ),
                    who,
                ) from None
        self.ser = s

    def _open_url(self, url: str, baud: int) -> None:
        """A pyserial URL (socket://HOST:PORT: `dicetray sim --tcp`, or any
        serial_for_url scheme): no tty, so no lock, no terminal settings and
        no controlling-terminal check; the simulator itself keeps one
        client at a time."""
        import serial

        self._termios = None
        try:
            s = serial.serial_for_url(
                url, do_not_open=True, baudrate=baud, timeout=0, write_timeout=5
            )
            s.open()
        except (serial.SerialException, OSError, ValueError) as e:
            raise TransportError(
                "cannot open %s: %s (is `dicetray sim --tcp` running there?)" % (url, e)
            ) from None
        self.ser = s

    def write(self, data: bytes) -> None:
        """Send all of data."""
        import serial

        try:
            self.ser.write(data)
            self.ser.flush()
        except (serial.SerialException, OSError) as e:
            raise TransportError("write to %s failed: %s" % (self.port, e)) from None
        self.sent += len(data)

    def read(self, timeout: float) -> bytes:
        """Bytes that arrive within `timeout` seconds (b'' if none)."""
        import serial

        ser = self.ser
        try:
            n = ser.in_waiting
            if not n:
                ser.timeout = timeout
                data = ser.read(1)
                if not data:
                    return b""
                n = ser.in_waiting
                if n:
                    data += ser.read(n)
            else:
                ser.timeout = 0
                data = ser.read(n)
        except (serial.SerialException, OSError) as e:
            raise TransportError("read from %s failed: %s" % (self.port, e)) from None
        self.received += len(data)
        return data

    def fileno(self) -> int | None:
        """The file descriptor to wait on with select (a tty's, a
        socket:// URL's socket), or None where there is none (Windows'
        COM ports, other URL schemes)."""
        ser = self.ser
        sock = getattr(ser, "_socket", None)
        try:
            return sock.fileno() if sock is not None else ser.fileno()
        except (AttributeError, OSError, ValueError):
            return None

    def drain(self, quiet: float = 0.05, limit: float = 1.0) -> bytes:
        """Read and return what the device sends until it is quiet."""
        got = b""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            d = self.read(quiet)
            if not d:
                break
            got += d
        return got

    def close(self) -> None:
        """Put the port's terminal settings back as they were before the
        open, then close it. Never at 1200 baud (the bootloader touch): a
        port that had that speed keeps the one it has now."""
        ser, tm = self.ser, self._termios
        saved = getattr(ser, "saved", None)
        if tm is not None and saved is not None and ser.fd is not None:
            try:
                attrs = list(saved)
                b1200 = getattr(tm, "B1200", _B1200)
                if b1200 in (attrs[4], attrs[5]):
                    now = tm.tcgetattr(ser.fd)
                    attrs[4], attrs[5] = now[4], now[5]  # (tcsetattr sets the speed from these)
                tm.tcsetattr(ser.fd, tm.TCSANOW, attrs)
            except (tm.error, OSError, ValueError):
                pass
        try:
            ser.close()
        except Exception:
            pass
