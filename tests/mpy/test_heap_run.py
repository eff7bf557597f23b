"""main.py's free run at the heap's bottom (a bytearray the app holds as
`low`, docs/architecture.md): let go once the first idle work has made
what stays, or as soon as a host talks (which holds that work off).
Runs on CPython and on MicroPython (tests/mpy_run.py)."""

from fakeapp import make


class TalkingLink:
    """A host link that has work at every poll."""

    def poll(self):
        return True


def test_the_first_idle_work_lets_the_run_go():
    a, b, s = make(0)
    a.low = bytearray(64)
    while not a.warm:
        assert a.low is not None
        assert b.now < 5000, "no idle work came"
        b.now += a.step()
    assert a.low is None


def test_a_talking_host_lets_it_go_at_once():
    a, b, s = make(0)
    a.low = bytearray(64)
    a.link = TalkingLink()
    b.now += a.step()
    assert a.low is None and not a.warm
