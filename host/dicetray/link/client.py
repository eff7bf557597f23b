"""The host's client for the tray's serial link (docs/protocol.md).

    from dicetray.link.client import Device, DeviceError
    with Device.open() as dev:          # port None: the one board or simulator found
        dev.info()                      # {"device", "firmware", "protocol", "schema",
                                        #  "system", "campaign", "events", "first", ...}
        seq, snap = dev.snapshot()      # encode_snapshot bytes, after event `seq`
        evs = dev.events(since)         # every event with seq > since, paged
        dev.act(kind, args, text)       # applied and on flash when it returns
        for seq, ev in dev.subscribe(): # events as they happen
            ...

Three modules, one class each on the one before: session.py (the port,
the handshake, a numbered request and its retries, an app restarted),
reads.py (snapshot, chain, events: the journal's pages several in flight)
and here Device, the calls that change something or watch: act, restore,
the campaign slots, the screen, the subscription. Every refusal raises
DeviceError with the device's own message.
"""

import json
import re
import select
import socket
import time
from collections.abc import Generator, Iterable
from typing import Any

from ..rules import codec
from ..rules.systems import NAMES
from . import frame as fr

# AnswerLost, AtRepl, DeviceError and JournalDamaged: what the callers of
# Device catch, importable from here with it
from .errors import AnswerLost, AtRepl, DeviceError, JournalDamaged  # noqa: F401
from .reads import Reads
from . import payloads
from .session import RECOVER, STOPPED, recovering
from .tray import Progress, Screen

POLL_S = 0.005  # poll() on a port with no fd to select on: how often it looks at `wake`

_STALE = re.compile(r"stale: the device is at event (\d+)")
_STALE_NEW = "stale: the current campaign is"


def _woken(wake: socket.socket | None, wait: float) -> bool:
    """Whether `wake` had something to read within `wait` seconds (read and dropped)."""
    if wake is None or not select.select([wake], [], [], wait)[0]:
        return False
    try:
        wake.recv(4096)
    except OSError:  # a non-blocking socket another reader emptied first
        pass
    return True


class Device(Reads):
    """A tray on a serial port, after the handshake (use Device.open)."""

    def act(
        self,
        kind: int,
        args: Iterable[int] = (),
        text: str = "",
        faces: Iterable[int] | None = None,
    ) -> dict[str, Any]:
        """Apply an action on the device (as a button press would); returns
        {"seq", "kind", "successes", "verdict", "margin", "faces", "notes",
        "hidden"} once its event is on flash. DeviceError: refused (the
        rules' message), nothing changed; AnswerLost: applied once, but the
        device reset before answering.

        Each ACT names the last event the host saw ("after"): the device
        refuses it if another came in since. So a retry that reaches the
        device after a reset (which forgets the answer cache) is not applied
        a second time, and an action never lands on a journal that moved
        under it (the keys at the table): the host looks again and retries."""
        d: dict[str, Any] = {"kind": int(kind), "args": [int(a) for a in args], "text": text}
        if faces is not None:
            d["faces"] = [int(f) for f in faces]
        stopped = 0
        for _ in range(8):
            if self.head is None:
                self.info()
            d["after"] = self.head
            try:
                out = json.loads(self._request(fr.ACT, json.dumps(d).encode()))
            except AtRepl:
                # The app stopped with the ACT sent: it may have been applied
                # first. Restarted, the device says where its journal is.
                if not self.restart or stopped >= RECOVER:
                    raise
                stopped += 1
                self.recover()
                # (head == after + 1: an int, which mypy cannot narrow from Any)
                if self.head == d["after"] + 1 and self._is(self.head, d):  # type: ignore[arg-type]
                    raise AnswerLost(self.head, STOPPED) from None  # type: ignore[arg-type]
                continue
            except DeviceError as e:
                m = _STALE.match(str(e))
                if m is None:
                    raise
                now = int(m.group(1))
                retried = self.tries > 1
                self.head = now
                if retried and now == d["after"] + 1 and self._is(now, d):
                    raise AnswerLost(now) from None
                continue  # someone else acted: again, on the new head
            self.head = out["seq"]
            return out
        raise DeviceError(
            "the device's journal kept moving while acting (a key held down?): "
            "nothing was applied; try again"
        )

    def _is(self, seq: int, d: dict[str, Any]) -> bool:
        """Whether event seq is the action d (kind, args, text; faces if given)."""
        evs = self.events(seq - 1)
        if not evs:
            return False
        kind, args, faces, text = codec.decode_event(evs[0])
        return (
            kind == d["kind"]
            and list(args) == d["args"]
            and text == d["text"]
            and ("faces" not in d or list(faces) == d["faces"])
        )

    def set_clock(self, unix_seconds: float | None = None) -> None:
        """Set the device's clock (default: now)."""
        if unix_seconds is None:
            unix_seconds = int(time.time())
        self._request(fr.CLOCK, json.dumps({"unix": int(unix_seconds)}).encode())

    # --- a subscription a caller drives (the hub's tray thread) ------------
    def sub(self, since: int) -> int:
        """Subscribe from event `since` (-1: new events only): the device
        pushes each event it appends, taken by poll() and handed out by
        pushed(). Returns the device's head. An app restarted since
        (`recovered` moved on) lost it: subscribe again."""
        self.pushes.clear()
        head, _i = codec.get_int(self._request(fr.SUB, payloads.ints(since)), 0)
        return head

    def poll(self, wait: float, wake: socket.socket | None = None) -> bool:
        """Wait up to `wait` seconds for the device to send something, or
        for `wake` to be readable (another thread has work for the
        caller: what it sent is read and dropped), and keep the events it
        pushed; True if a push came."""
        if not self.frames:
            fd = self.t.fileno()
            if fd is None:  # nothing to select on: look at `wake` every POLL_S
                end = time.monotonic() + wait
                while not self._read(min(POLL_S, max(0, end - time.monotonic()))):
                    if _woken(wake, 0) or time.monotonic() >= end:
                        return False
            else:
                r, _w, _x = select.select([fd] + ([wake] if wake else []), [], [], wait)
                if wake in r:
                    _woken(wake, 0)
                if fd not in r:
                    return False
                self._read(0.01)
        came = False
        while self.frames:
            f = self.frames.popleft()
            if f[0] == fr.PUSH:
                self.keep_push(f[2])
                came = True
        return came

    def pushed(self) -> Generator[tuple[int, bytes], None, None]:
        """The (seq, event) the device pushed, in order, each handed out once
        (a read in between may keep more: they follow)."""
        while self.pushes:
            yield self.pushes.popleft()

    def subscribe(
        self, since: int = -1, timeout: float | None = None
    ) -> Generator[tuple[int, bytes], None, None]:
        """Yield (seq, event) as the device appends events (since: also the
        ones after that seq first; -1: only new ones). With `timeout`, stop
        after that many quiet seconds. Closing the iterator unsubscribes.

        An app that stops meanwhile (AtRepl: a Ctrl-C on the line) is
        restarted and subscribed to again from the last event yielded, so
        nothing is missed (RECOVER times in a row at most); so is one that
        another call on this Device restarted (its subscription went with
        the old app)."""
        self.pushes.clear()
        last = since
        stopped = 0
        epoch: int | None = None  # self.recovered when last subscribed
        try:
            quiet = time.monotonic()
            while True:
                try:
                    if epoch != self.recovered:
                        epoch = self.recovered
                        head = self.sub(last)
                        if last < 0:
                            last = head  # from now: the pushes start after it
                        continue
                    if self.pushes:
                        item = self.pushes.popleft()
                        last = max(last, item[0])
                        stopped = 0
                        yield item
                        quiet = time.monotonic()
                        continue
                    f = self._frame(time.monotonic() + 0.2)
                    if f is not None and f[0] == fr.PUSH:
                        self.keep_push(f[2])
                    elif timeout is not None and time.monotonic() - quiet > timeout:
                        return
                except AtRepl:
                    if not self.restart or stopped >= RECOVER:
                        raise
                    stopped += 1
                    self.recover()  # and subscribe again, above
        finally:
            try:
                self._request(fr.UNSUB)
            except DeviceError:
                pass

    def restore(
        self,
        snapshot: bytes,
        events: Iterable[bytes],
        seq: int,
        first: int = 1,
        progress: Progress | None = None,
        head: bytes | None = None,
    ) -> dict[str, Any]:
        """Replace the device's campaign, atomically.

        `events` are the journal events numbered first, first+1, ...;
        `snapshot` is encode_snapshot of the campaign after event `seq`
        (first-1 <= seq < first+len(events)). With first=1 (the whole
        history) the device replays every event from a new campaign and
        checks that it meets the snapshot at seq; with first>1 the
        snapshot must be at first-1 and is the base. The device stages it
        all in a new store, verifies it as a boot would read it, and swaps
        it in with one rename: a reset leaves the old campaign or the new
        one. `head`: the hash chain's head after `seq` (bytes) for a
        restore from past event 1 (the device chains the events on from
        it; with first=1 it chains them from the start). Returns the
        device's new info."""
        snapshot = bytes(snapshot)
        events = [bytes(e) for e in events]
        self.restore_stage = "sending"
        hexhead = bytes(head).hex() if head is not None else None
        self._request(
            fr.R_BEGIN, payloads.restore_begin(snapshot, len(events), seq, first, hexhead)
        )
        try:
            try:
                for typ, payload, k in payloads.restore_requests(snapshot, events, first):
                    self._request(typ, payload)
                    if k and progress is not None:
                        progress(k, len(events))
            except ValueError as e:  # an event too large for any request
                raise DeviceError(str(e)) from None
            self.restore_stage = "commit"
            self.last_info = json.loads(self._request(fr.R_COMMIT, timeout=max(self.timeout, 10.0)))
            self.restore_stage = "done"
        except AtRepl:
            # No R_ABORT: the app that stopped dropped what it staged.
            raise DeviceError(
                "%s during the restore: a restore is swapped in atomically, so the "
                "device holds its old campaign, or the new one if the commit was "
                "reached: `dicetray status` says which; restore again if it is "
                "the old" % STOPPED
            ) from None
        except BaseException:
            try:
                self._request(fr.R_ABORT, retries=0)
            except DeviceError:
                pass
            raise
        return self.last_info

    # --- campaign slots (docs/protocol.md, docs/store.md) ------------------------
    def _slot_request(
        self,
        typ: int,
        payload: bytes = b"",
        lacks: str = "keeps no list of its campaign slots",
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """A slot request's JSON answer; a firmware without the request
        is told to upgrade, naming what it `lacks`."""
        try:
            return json.loads(self._request(typ, payload, timeout))
        except DeviceError as e:
            if str(e).startswith("unknown request type"):
                raise DeviceError(
                    "this firmware %s (it answers: %s): upgrade the firmware (dicetray deploy)"
                    % (lacks, e)
                ) from None
            raise

    @recovering
    def campaigns(self) -> dict[str, Any]:
        """The campaign slots on the device's flash, lowest first:
        {"current": slot, "block": 4096, "slots": [{"slot", "campaign",
        "system", "events", "bytes", "blocks", "current"}]} (bytes: the
        sum of the slot's file sizes; blocks: the littlefs blocks they
        take). Pages of SLOTS until the device says there is no next."""
        out: dict[str, Any] | None = None
        lo = 0
        while True:
            d = self._slot_request(fr.SLOTS, payloads.ints(lo))
            if out is None:
                out = d
            else:
                out["slots"].extend(d["slots"])
            if d.get("next") is None:
                out.pop("next", None)
                return out
            lo = d["next"]

    @recovering
    def screen(self) -> Screen:
        """What the tray shows now: {"width", "height", "fb": the display's
        framebuffer (MONO_VLSB bytes), "leds": 3 bytes R,G,B an LED of the
        ring}. A read: never cached on the device, never applied."""
        try:
            p = self._request(fr.SCREEN)
        except DeviceError as e:
            if str(e).startswith("unknown request type"):
                raise DeviceError(
                    "this firmware has no SCREEN request: it cannot show its "
                    "screen to the host (it answers: %s): upgrade the firmware "
                    "(dicetray deploy)" % e
                ) from None
            raise
        w, h, n = (p[0], p[1], p[2]) if len(p) >= 3 else (0, 0, 0)  # a short one: refused below
        size = w * h // 8
        if len(p) != 3 + size + 3 * n:
            raise DeviceError(
                "a SCREEN answer of %d bytes for %dx%d and %d LEDs: the firmware "
                "and the host tool disagree (upgrade both)" % (len(p), w, h, n)
            )
        return {"width": w, "height": h, "fb": p[3 : 3 + size], "leds": p[3 + size :]}

    def switch(self, slot: int) -> dict[str, Any]:
        """Make campaign slot `slot` current (it becomes the highest slot:
        its number changes, its campaign id does not); returns the device's
        new info. DeviceError: no such slot."""
        self.last_info = self._slot_request(fr.SWITCH, payloads.ints(slot))
        self.head = self.last_info["events"]
        return self.last_info

    def delete(self, slot: int) -> dict[str, Any]:
        """Delete campaign slot `slot`, which must not be the current one;
        returns {"slot", "bytes", "blocks"}: what it held on flash."""
        return self._slot_request(fr.DELETE, payloads.ints(slot))

    def new_campaign(self, system: int, name: str = "") -> dict[str, Any]:
        """Start a new campaign of rule system 0..2 (named `name`: its
        event 1), staged and swapped in as the device's Settings > New
        campaign does; the old one keeps its slot. Returns the device's new
        info. DeviceError: refused (the device's words: a system or a name
        its rules refuse), nothing made.

        At most once: NEW names the slot current now ("from"). A retry
        that reaches the device after it made the campaign (a reset lost
        the answer cache, or the app stopped and was restarted) is refused
        as stale, and the campaign this request made is returned; one that
        someone else made meanwhile (the keys) is an error, nothing made."""
        was = self.info()
        d = {"system": int(system), "name": name, "from": was["slot"]}
        stopped = 0
        for _ in range(RECOVER + 2):
            try:
                got = self._slot_request(
                    fr.NEW,
                    json.dumps(d).encode(),
                    "cannot start a campaign for the host",
                    max(self.timeout, 10.0),
                )
            except AtRepl:
                if not self.restart or stopped >= RECOVER:
                    raise
                stopped += 1
                now = self.recover()
                if now["slot"] != was["slot"]:
                    return self._made(now, d, was, True)
                continue  # the app stopped before it: ask again
            except DeviceError as e:
                if not str(e).startswith(_STALE_NEW):
                    raise
                return self._made(self.info(), d, was, self.tries > 1)
            self.last_info = got
            self.head = got["events"]
            return self.last_info
        raise DeviceError(
            "the app kept stopping while a new campaign was asked for: `dicetray "
            "campaigns` says whether it was made"
        )

    def _made(
        self, now: dict[str, Any], d: dict[str, Any], was: dict[str, Any], sent: bool
    ) -> dict[str, Any]:
        """`now`, the device's info after NEW `d` was refused as stale, if
        it is the campaign that NEW made (its system, name and events, in a
        slot above the old one); else DeviceError: another one came (`sent`:
        a try of NEW may have reached the device before it)."""
        if (
            now.get("system") == NAMES[d["system"]]
            and now.get("name", "") == d["name"]
            and now["events"] == (1 if d["name"] else 0)
            and now["slot"] > was["slot"]
        ):
            return now
        raise DeviceError(
            "the device's current campaign changed while a new one was asked for (campaign %s "
            "in slot %s, not slot %s): %s; `dicetray campaigns` lists them"
            % (
                now["campaign"],
                now["slot"],
                d["from"],
                "the new one may be among them" if sent else "nothing was made",
            )
        )

    def end_session(self) -> None:
        """Stop the app and leave the port to the REPL (for mpremote); the
        next Device.open restarts the app."""
        try:
            self._request(fr.END)
        except AtRepl:
            pass  # the REPL's prompt came with (or before) END's answer: ended as asked
