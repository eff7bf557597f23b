"""What goes wrong on the way to a tray, whichever way it is reached
(Device on its port, HubDevice through the hub): every refusal is a
DeviceError with the device's own message, its kinds rebuilt by name
across the hub's socket."""

from typing import Any


class DeviceError(Exception):
    """A request the device refused, or a device the host cannot talk to;
    the message says what was wrong and what to do."""


class AtRepl(DeviceError):
    """The device sits at the MicroPython REPL: the app is not running."""


class JournalDamaged(DeviceError):
    """Records of the device's journal on flash fail their checks: events
    `seq`..`last` (the first damaged range) cannot be read. A full read
    (Device.events) goes on past each damaged range to the next record
    that reads, so it also carries what it read: `since`, `events` (the
    events since+1.. in order, None where one could not be read), `gaps`
    ([first, last, segment base, why] of every damaged range) and `bases`
    (the base of every journal segment it read: where the device may have
    recorded its hash chain's head, Device.chain)."""

    def __init__(
        self,
        seq: int,
        base: int,
        why: str,
        last: int,
        gaps: list[list[Any]] | None = None,
        events: list[bytes | None] | None = None,
        since: int | None = None,
        bases: list[int] | None = None,
    ) -> None:
        more = (gaps or [])[1:]
        DeviceError.__init__(
            self,
            "the device's journal is damaged at event %d (segment j%08x.log: %s): "
            "events %d..%d cannot be read from the device%s"
            % (
                seq,
                base,
                why,
                seq,
                last,
                "; %d more damaged: events %s"
                % (len(more), ", ".join("%d..%d" % (g[0], g[1]) for g in more))
                if more
                else "",
            ),
        )
        self.hint = (
            "`dicetray backup` keeps every event that reads (the device's state and "
            "the events around the damage); an earlier backup may hold events %d..%d "
            "(`dicetray backups`), and `--backup ID` exports or counts from it" % (seq, last)
        )
        self.seq = seq
        self.last = last
        self.gaps = gaps if gaps is not None else [[seq, last, base, why]]
        self.events = events
        self.since = since
        self.bases = bases


class AnswerLost(DeviceError):
    """An action was applied, once (`seq` is its event), but the device
    reset before its answer reached the host."""

    def __init__(self, seq: int, what: str = "the device reset") -> None:
        DeviceError.__init__(
            self,
            "%s while acting: the action is event %d on its "
            "flash, applied once, but its answer was lost (`dicetray status` or the "
            "tray's log shows it); do not repeat it" % (what, seq),
        )
        self.seq = seq


def is_device_error(e: BaseException) -> bool:
    """A DeviceError or one of its kinds (AtRepl, JournalDamaged, AnswerLost...):
    by name, so a test's fake device may raise its own."""
    return any(k.__name__ == "DeviceError" for k in type(e).__mro__)


def check_timeout(timeout: float) -> None:
    """A timeout must be a number of seconds above 0: 0 would never wait
    for an answer, and a negative one never send twice."""
    try:
        ok = float(timeout) > 0 and float(timeout) < float("inf")
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise DeviceError(
            "a timeout of %r seconds cannot work: give the seconds to wait for each "
            "answer, more than 0 (default 2)" % (timeout,)
        )
