"""Argument checks shared by the core and the rule systems: each raises
ValueError naming what was wrong and what is allowed, before anything
changes."""


def arity(args, n, msg):
    """args must hold exactly n values; msg says which."""
    if len(args) != n:
        raise ValueError(msg)


def span(what, v, lo, hi):
    """lo <= v <= hi."""
    if not lo <= v <= hi:
        raise ValueError("%s %d is not in %d..%d" % (what, v, lo, hi))


def flag(what, v):
    """v is 0 or 1."""
    if v not in (0, 1):
        raise ValueError("%s must be 0 or 1, not %d" % (what, v))


def alive(c, i, dead):
    """Character i of campaign c, unless its field `dead` is set."""
    ch = c.char(i)
    if ch.v[dead]:
        raise ValueError("%s is dead" % ch.name)
    return ch
