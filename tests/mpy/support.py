"""Assertions that work the same on MicroPython and CPython (no pytest there)."""


def raises(exc, fn, *args, **kw):
    """Call fn; assert it raises exc; return the exception."""
    try:
        fn(*args, **kw)
    except exc as e:
        return e
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc.__name__))


def raises_unchanged(c, fn, *args, **kw):
    """Assert fn raises ValueError and campaign c's encoded state is unchanged."""
    from rules.campaign import encode_state
    before = encode_state(c)
    n = len(c.events)
    e = raises(ValueError, fn, *args, **kw)
    assert encode_state(c) == before, "state changed by a refused action"
    assert len(c.events) == n, "a refused action reached the journal"
    return e
