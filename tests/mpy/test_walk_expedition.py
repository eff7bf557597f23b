"""The screen walk of expedition (tests/mpy/screenwalk.py; runs under pytest and
on MicroPython): the key script with the log read after each kind, then
every screen reached from home. One walk for the file's three tests: its
rows in the game's words, its labels whole in their rows, its values and
menus stopping at their ends."""
import screenwalk

MPY_FUEL = 20_000_000_000
_WALK = []


def _found(kind):
    if not _WALK:
        _WALK.append(screenwalk.walk(2))
    return _WALK[0].report(kind)


def test_every_expedition_row_speaks_the_games_words():
    bad = _found("identifier")
    assert not bad, "identifiers on the screens:\n" + bad


def test_every_expedition_label_fits_its_row():
    bad = _found("cut")
    assert not bad, "labels or rows cut to fit:\n" + bad


def test_expedition_values_and_menus_stop_at_their_ends():
    bad = _found("wrap")
    assert not bad, "values that wrap, wraps onto a row that ends something:\n" + bad
