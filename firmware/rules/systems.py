"""The rule systems a campaign can run, by number.

Each system module provides the same small interface (see docs/architecture.md):
ID, NAME, KINDS (its event-kind range), CHAR_FIELDS, COUNTERS, new_counters(),
new_char(), setup(c), on_char(c, i), apply(c, kind, args, text, src),
on_slash(c, t, k, src), on_fill(c, t, src).
"""

HUNT = 0
PATHS = 1
EXPEDITION = 2
NAMES = ("hunt", "paths", "expedition")


_loaded = [None, None, None]


def get(system):
    """The rules module for system number `system` (imported on first use)."""
    if 0 <= system <= 2:
        m = _loaded[system]
        if m is not None:
            return m  # an import statement resolves its dotted name: ~60,000 fuel
    if system == HUNT:
        from . import hunt as m
    elif system == PATHS:
        from . import paths as m
    elif system == EXPEDITION:
        from . import expedition as m
    else:
        raise ValueError("rule system %d is not one of 0 hunt, 1 paths, 2 expedition" % system)
    _loaded[system] = m
    return m


def number(name):
    """System number for a name such as 'hunt'; ValueError lists the choices."""
    for i, n in enumerate(NAMES):
        if n == name:
            return i
    raise ValueError("unknown rule system %r: choose hunt, paths or expedition" % name)
