"""What every way to a tray does: the Tray protocol. Device (link/client.py,
the tray on its serial port) and HubDevice (link/hubclient.py, the tray
through a running hub) are its two implementations; the operations, the
backup and every front-end take a Tray and never ask which it is."""

from collections.abc import Callable, Generator, Iterable
from typing import Any, Protocol, TypedDict

# progress(done, total) of a long call (events, restore)
Progress = Callable[[int, int], object]


class Screen(TypedDict):
    """Device.screen(): the display's framebuffer (MONO_VLSB) and the ring's LEDs."""

    width: int
    height: int
    fb: bytes
    leds: bytes


class Tray(Protocol):
    """A tray, open, after the handshake: `last_info` is its last INFO,
    `port` says where it is in words."""

    @property
    def port(self) -> str | None: ...

    @property
    def last_info(self) -> dict[str, Any] | None: ...

    def info(self, collect: bool = False, heap: bool = False) -> dict[str, Any]: ...

    def snapshot(self) -> tuple[int, bytes]: ...

    def chain(self, seq: int) -> bytes | None: ...

    def events(self, since: int, progress: Progress | None = None) -> list[bytes]: ...

    def act(
        self,
        kind: int,
        args: Iterable[int] = (),
        text: str = "",
        faces: Iterable[int] | None = None,
    ) -> dict[str, Any]: ...

    def set_clock(self, unix_seconds: float | None = None) -> None: ...

    def restore(
        self,
        snapshot: bytes,
        events: Iterable[bytes],
        seq: int,
        first: int = 1,
        progress: Progress | None = None,
        head: bytes | None = None,
    ) -> dict[str, Any]: ...

    def campaigns(self) -> dict[str, Any]: ...

    def switch(self, slot: int) -> dict[str, Any]: ...

    def delete(self, slot: int) -> dict[str, Any]: ...

    def new_campaign(self, system: int, name: str = "") -> dict[str, Any]: ...

    def screen(self) -> Screen: ...

    def subscribe(
        self, since: int = -1, timeout: float | None = None
    ) -> Generator[tuple[int, bytes | None], None, None]: ...

    def end_session(self) -> None: ...

    def close(self) -> None: ...
