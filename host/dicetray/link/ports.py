"""Finding the tray: USB serial ports by vendor/product id, and running
simulators (each `dicetray sim` writes a file under <home>/sims/ while it
runs: what it is, its port or address and its flash folder, as JSON).

<home> is $DICETRAY_HOME, else $XDG_DATA_HOME/dicetray, else
~/.local/share/dicetray.
"""

import json
import os

from ..base.datadir import home

# (vid, pid or None for any): boards that run the Dicetray firmware.
USB_IDS = (
    (0x2E8A, None, "Raspberry Pi (RP2040/RP2350)"),
    (0x239A, None, "Adafruit (MacroPad RP2040)"),
    (0xF055, 0x9802, "MicroPython"),
)


# What a simulator is (its file's "what"), in words: the desktop VM
# (`dicetray sim`), the rp2 port on an emulated RP2040 (`--rp2040`), the
# page of `dicetray sim --web`, whose firmware and flash are in a browser.
SIM_WORDS = {
    "desktop": "desktop simulator",
    "board": "emulated RP2040 board",
    "web": "web page simulator",
}


class Port:
    """A candidate: `device` (the path to open, or a web page's address),
    `kind` ('usb', 'sim', or 'web': a page no command can reach),
    `description`; a simulator's `what` (SIM_WORDS' key) and `flash` (its
    flash folder; None for the web page, whose flash is in the browser)."""

    def __init__(
        self,
        device: str,
        kind: str,
        description: str,
        what: str | None = None,
        flash: str | None = None,
    ) -> None:
        self.device = device
        self.kind = kind
        self.description = description
        self.what = what
        self.flash = flash
        # what a simulator is, in words (None: a board)
        self.simulator = (
            SIM_WORDS.get(what or "", "Dicetray simulator") if kind in ("sim", "web") else None
        )

    def __repr__(self) -> str:
        return "Port(%r, %r, %r)" % (self.device, self.kind, self.description)

    def as_dict(self) -> dict[str, str | None]:
        d: dict[str, str | None] = {
            "port": self.device,
            "kind": self.kind,
            "description": self.description,
        }
        if self.simulator is not None:
            d.update(simulator=self.simulator, flash=self.flash)
        return d


def sims_dir() -> str:
    return os.path.join(home(), "sims")


def register_sim(
    path: str, pid: int | None = None, what: str = "desktop", flash: str | None = None
) -> str:
    """Announce a running simulator: its pty or URL `path`, what it is
    (SIM_WORDS' key) and its flash folder; returns the file to remove at exit."""
    d = sims_dir()
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, "%d.port" % (pid or os.getpid()))
    entry = {"port": path, "what": what, "flash": flash and os.path.abspath(flash)}
    with open(f, "w", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")
    return f


class announced:
    """`with announced(path, what, flash):` a running simulator is announced
    (register_sim) for its lifetime; an unwritable home only means that
    `dicetray` will not find it without --port."""

    def __init__(self, path: str, what: str = "desktop", flash: str | None = None) -> None:
        self.path = path
        self.what = what
        self.flash = flash
        self.file: str | None = None

    def __enter__(self) -> "announced":
        try:
            self.file = register_sim(self.path, what=self.what, flash=self.flash)
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


def _entry(text: str) -> dict[str, str | None]:
    """A simulator's file: JSON (port, what, flash), or the bare pty path
    an older `dicetray sim` wrote (a simulator of unknown kind)."""
    try:
        d = json.loads(text)
        if isinstance(d, dict) and isinstance(d.get("port"), str):
            return {
                k: d.get(k) if isinstance(d.get(k), str) else None
                for k in ("port", "what", "flash")
            }
    except ValueError:
        pass
    return {"port": text, "what": None, "flash": None}


def sim_words(what: str | None, flash: str | None, pid: str | int | None = None) -> str:
    """'desktop simulator (pid 8705), flash folder /tmp/f': what a simulator
    is and where its flash lives, in words."""
    said = SIM_WORDS.get(what or "", "Dicetray simulator")
    if pid is not None:
        said += " (pid %s)" % pid
    if what == "web":
        return said + ": its firmware and flash are in the browser that opened it"
    return said + (", flash folder %s" % flash if flash else "")


def simulators(web: bool = False) -> list[Port]:
    """Ports of the running simulators (stale entries are removed); the
    web pages too with `web` (kind 'web': no command reaches them)."""
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
                e = _entry(inp.read().strip())
        except OSError:
            continue
        path = e["port"] or ""
        if not _alive(int(nm[:-5])) or "://" not in path and not os.path.exists(path):
            try:
                os.remove(f)
            except OSError:
                pass
            continue
        kind = "web" if e["what"] == "web" else "sim"
        if kind == "web" and not web:
            continue
        out.append(
            Port(path, kind, sim_words(e["what"], e["flash"], nm[:-5]), e["what"], e["flash"])
        )
    return out


def simulator_at(port: str) -> Port | None:
    """The running simulator serving `port`, if one is."""
    for p in simulators():
        if p.device == port:
            return p
    return None


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
