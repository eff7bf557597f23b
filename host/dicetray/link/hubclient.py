"""A tray reached through the running hub: the Tray protocol (tray.py),
as dicetray.link.client.Device, each method a call the hub runs on its own
Device for that tray (docs/hub.md). Commands get one from
`cli.common.open_device` when a hub runs, so `status`, `backup`, `watch`...
work unchanged while the hub holds the port.

The hub's socket is local and reliable, so a call is sent once: a call
whose answer is lost (the hub killed under it) may have been applied,
and says so, as AnswerLost does on a serial link.
"""

import io
import socket
import time
from collections.abc import Generator, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from . import client as lc
from . import errors, wire
from .tray import Progress, Screen, Tray

# The error kinds a call can raise, rebuilt by name.
KINDS = {
    c.__name__: c
    for c in (errors.DeviceError, errors.AtRepl, errors.JournalDamaged, errors.AnswerLost)
}
_H = TypeVar("_H", bound="HubDevice")


def _connect(reg: dict[str, Any]) -> socket.socket:
    try:
        s = socket.create_connection(("127.0.0.1", int(reg["port"])), timeout=5.0)
    except OSError as e:
        raise errors.DeviceError(
            "the hub (pid %s) does not answer on 127.0.0.1:%s (%s): stop it "
            "and start `dicetray serve` again" % (reg["pid"], reg["port"], e)
        ) from None
    s.settimeout(wire.TIMEOUT_S)
    return s


class HubDevice:
    """Tray `tray` (a name; None: the hub's only one) or the one on `port`."""

    def __init__(
        self,
        reg: dict[str, Any],
        tray: str | None = None,
        port: str | None = None,
        check_schema: bool = True,
    ) -> None:
        self.reg = reg
        self.want = {"tray": tray, "port": port}
        self.sock = _connect(reg)
        self.f = self.sock.makefile("rwb")
        self.name = tray
        self.head: int | None = None
        self.last_info: dict[str, Any] = self.info()
        self.port = "tray %s at the hub" % self.name
        if check_schema:
            lc.Device.check_versions(self)  # type: ignore[arg-type]  # its last_info and info()

    def _call(self, name: str, *args: Any, progress: Progress | None = None, **kw: Any) -> Any:
        return self._ask(self.f, name, list(args), kw, progress)

    def _ask(
        self,
        f: io.BufferedIOBase,
        name: str,
        args: list[Any],
        kw: dict[str, Any],
        progress: Progress | None = None,
    ) -> Any:
        msg = dict(self.want, token=self.reg["token"], call=name, args=args, kw=kw)
        try:
            f.write(wire.line(msg))
            f.flush()
            while True:
                ans = wire.read(f)
                if ans is None:
                    raise OSError("the hub closed the connection")
                if "progress" in ans:
                    if progress is not None:
                        progress(*ans["progress"])
                    continue
                break
        except (OSError, ValueError) as e:
            raise errors.DeviceError(
                "lost the hub (pid %s) during %s: %s%s"
                % (
                    self.reg["pid"],
                    name,
                    e,
                    "; the action may have been applied once: "
                    "`dicetray status` shows the device's last event"
                    if name == "act"
                    else "; the campaign may have been made once: `dicetray campaigns` lists them"
                    if name == "new_campaign"
                    else "",
                )
            ) from None
        if "err" in ans:
            raise wire.rebuild(ans["err"], KINDS, errors.DeviceError)
        self.name = ans.get("tray", self.name)
        return ans["ok"]

    # --- Device's methods ----------------------------------------------------
    def info(self, collect: bool = False, heap: bool = False) -> dict[str, Any]:
        i: dict[str, Any] = self._call("info", collect, heap)
        self.last_info = i
        self.head = i.get("events")
        return i

    def snapshot(self) -> tuple[int, bytes]:
        seq, snap = self._call("snapshot")
        return seq, snap

    def chain(self, seq: int) -> bytes | None:
        return self._call("chain", seq)

    def events(self, since: int, progress: Progress | None = None) -> list[bytes]:
        return self._call("events", since, progress=progress)

    def act(
        self,
        kind: int,
        args: Iterable[int] = (),
        text: str = "",
        faces: Iterable[int] | None = None,
    ) -> dict[str, Any]:
        out: dict[str, Any] = self._call("act", kind, list(args), text, faces)
        self.head = out.get("seq", self.head)
        return out

    def set_clock(self, unix_seconds: float | None = None) -> None:
        return self._call("set_clock", unix_seconds)

    def restore(
        self,
        snapshot: bytes,
        events: Iterable[bytes],
        seq: int,
        first: int = 1,
        progress: Progress | None = None,
        head: bytes | None = None,
    ) -> dict[str, Any]:
        self.last_info = self._call(
            "restore",
            bytes(snapshot),
            [bytes(e) for e in events],
            seq,
            first=first,
            head=head,
            progress=progress,
        )
        return self.last_info

    def campaigns(self) -> dict[str, Any]:
        return self._call("campaigns")

    def switch(self, slot: int) -> dict[str, Any]:
        self.last_info = self._call("switch", slot)
        self.head = self.last_info.get("events")
        return self.last_info

    def delete(self, slot: int) -> dict[str, Any]:
        return self._call("delete", slot)

    def new_campaign(self, system: int, name: str = "") -> dict[str, Any]:
        self.last_info = self._call("new_campaign", system, name)
        self.head = self.last_info.get("events")
        return self.last_info

    def screen(self) -> Screen:
        return self._call("screen")

    def subscribe(
        self, since: int = -1, timeout: float | None = None
    ) -> Generator[tuple[int, bytes | None], None, None]:
        """Yield (seq, event) as the tray appends them (the hub's own
        subscription, shared); closing the iterator hangs up. (head, None)
        when the tray's campaign is another one from here, or its history
        another (a restore, a switch, a new campaign, through any client):
        read its state again; the events after head follow."""
        s = _connect(self.reg)
        f = s.makefile("rwb")
        try:
            self._ask(f, "subscribe", [since], {})
            s.settimeout(10 * wire.TICK_S)  # the hub ticks while quiet: silence is a lost hub
            quiet = time.monotonic()
            why: OSError | str
            while True:
                try:
                    m = wire.read(f)
                except OSError as e:
                    m = None
                    why = e
                else:
                    why = "it closed the connection"
                if m is None:
                    raise errors.DeviceError(
                        "lost the hub (pid %s) while watching: %s" % (self.reg["pid"], why)
                    )
                if "push" in m:
                    seq, ev = m["push"]
                    yield seq, ev
                    quiet = time.monotonic()
                elif "reset" in m:
                    yield m["reset"], None
                    quiet = time.monotonic()
                elif timeout is not None and time.monotonic() - quiet > timeout:
                    return
        finally:
            f.close()
            s.close()

    def end_session(self) -> None:
        raise errors.DeviceError(
            "the hub (pid %s) holds the tray's port: stop `dicetray serve` "
            "before a deploy or mpremote" % self.reg["pid"]
        )

    @property
    def wire(self) -> tuple[int, int]:
        return 0, 0

    def close(self) -> None:
        try:
            self.f.close()
            self.sock.close()
        except OSError:
            pass

    def __enter__(self: _H) -> _H:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def find() -> dict[str, Any] | None:
    """The running hub's registration, or None."""
    return wire.running()


def trays(reg: dict[str, Any]) -> list[dict[str, Any]]:
    """[{"tray", "port", "state", ...}] of the hub's trays."""
    s = _connect(reg)
    f = s.makefile("rwb")
    try:
        f.write(wire.line({"token": reg["token"], "call": "trays"}))
        f.flush()
        ans = wire.read(f)
    except (OSError, ValueError) as e:
        raise errors.DeviceError("lost the hub (pid %s): %s" % (reg["pid"], e)) from None
    finally:
        f.close()
        s.close()
    if ans is None or "ok" not in ans:
        raise errors.DeviceError(
            "the hub (pid %s) would not list its trays: %s"
            % (reg["pid"], (ans or {}).get("err", {}).get("msg", "no answer"))
        )
    return ans["ok"]


if TYPE_CHECKING:  # both ways to a tray are one Tray (the type check holds them to it)
    _SERIAL: type[Tray] = lc.Device
    _HUB: type[Tray] = HubDevice
