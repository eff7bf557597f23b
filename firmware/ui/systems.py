"""Each rule system's screens, by system number: what home, the LED ring,
the roll builder, Turns and a character's sheet show and do differently in
hunt, paths and expedition. As rules.systems loads the rules, only the
campaign's own system is imported, on first use: a hunt campaign never
loads the screens of paths or expedition. Two modules a system, as the
rules have hunt.py and hunt_more.py:

ui/hunt.py, paths.py, expedition.py, what the boot shows (home is the
first screen), loaded by ui/home.py's `system(n)`, not from here, so that
the boot imports one module for it, not two (a module's load costs its
names: docs/architecture.md): NAME (home's title), MENU (home's menu),
SCREENS (the screen each row opens), lines(c, out) (home's tracker rows),
dial(app) (the talisman the LED ring shows when the screen paints none).

ui/hunt_more.py, paths_more.py, expedition_more.py, `get` here: the rest,
imported when one of them first needs it (the builder's pool, Turns, a
sheet): Pool (the builder's model: ui/pools.py), ACTS, sheet_top(c, i),
SHEET_MORE, SHEET_OK, sheet_open(app, i, f) (a sheet: ui/chars.py), and
where the system has them turns() and turns_head(c) (ui/turns.py).
"""

_loaded = [None, None, None]


def get(system):
    """The screens module of system number `system` (0..2)."""
    m = _loaded[system]
    if m is not None:
        return m
    if system == 0:
        from ui import hunt_more as m
    elif system == 1:
        from ui import paths_more as m
    else:
        from ui import expedition_more as m
    _loaded[system] = m
    return m
