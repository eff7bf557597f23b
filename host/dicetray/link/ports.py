"""Finding the tray: USB serial ports by vendor/product id, and running
simulators (each `dicetray sim` writes its pty path to a file under
<home>/sims/ while it runs).

<home> is $DICETRAY_HOME, else $XDG_DATA_HOME/dicetray, else
~/.local/share/dicetray.
"""

import os

from ..datadir import home

# (vid, pid or None for any): boards that run the Dicetray firmware.
USB_IDS = (
    (0x2E8A, None, "Raspberry Pi (RP2040/RP2350)"),
    (0x239A, None, "Adafruit (MacroPad RP2040)"),
    (0xF055, 0x9802, "MicroPython"),
)


class Port:
    """A candidate: `device` (the path to open), `kind` ('usb' or 'sim'), `description`."""

    def __init__(self, device: str, kind: str, description: str) -> None:
        self.device = device
        self.kind = kind
        self.description = description

    def __repr__(self) -> str:
        return "Port(%r, %r, %r)" % (self.device, self.kind, self.description)

    def as_dict(self) -> dict[str, str]:
        return {"port": self.device, "kind": self.kind, "description": self.description}


def sims_dir() -> str:
    return os.path.join(home(), "sims")


def register_sim(path: str, pid: int | None = None) -> str:
    """Announce a running simulator's pty; returns the file to remove at exit."""
    d = sims_dir()
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, "%d.port" % (pid or os.getpid()))
    with open(f, "w", encoding="utf-8") as out:
        out.write(path + "\n")
    return f


class announced:
    """`with announced(path):` a running simulator's pty is announced
    (register_sim) for its lifetime; an unwritable home only means that
    `dicetray` will not find it without --port."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.file: str | None = None

    def __enter__(self) -> "announced":
        try:
            self.file = register_sim(self.path)
        except OSError:
            self.file = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file:
            try:
                os.remove(self.file)
            except OSError:
                pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def simulators() -> list[Port]:
    """Ports of the running simulators (stale entries are removed)."""
    out: list[Port] = []
    d = sims_dir()
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return out
    for nm in names:
        if not nm.endswith(".port") or not nm[:-5].isdigit():
            continue
        f = os.path.join(d, nm)
        try:
            with open(f, encoding="utf-8") as inp:
                path = inp.read().strip()
        except OSError:
            continue
        if not _alive(int(nm[:-5])) or "://" not in path and not os.path.exists(path):
            try:
                os.remove(f)
            except OSError:
                pass
            continue
        out.append(Port(path, "sim", "Dicetray simulator (pid %s)" % nm[:-5]))
    return out


def usb() -> list[Port]:
    """USB serial ports whose vendor/product id is a supported board."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    out: list[Port] = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        for vid, pid, what in USB_IDS:
            if p.vid == vid and (pid is None or p.pid == pid):
                out.append(
                    Port(
                        p.device,
                        "usb",
                        "%s %04x:%04x %s" % (what, p.vid, p.pid, p.product or p.description or ""),
                    )
                )
                break
    return out


def find() -> list[Port]:
    """Every candidate: boards first, then simulators."""
    return usb() + simulators()
