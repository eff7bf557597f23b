"""Dice a screen shows before the event that records them: hunt's rest
(the exorcists spend each d3 once they see it) and a trauma answer's d3
(defying fate is chosen once the stress left is known). They are drawn
from the session's own dice, the ones an event would draw, and given to
the event as its faces. Kept for the campaign state they were drawn in,
so that leaving the screen and coming back shows the same dice: a Back
is no re-roll. Loaded on first use."""

_key = None  # (campaign id, events, what) the faces were drawn for
_faces = b""


def faces(app, what, sides, n):
    """n faces of a d`sides` for `what` in the campaign as it is now: the
    same ones while no event comes between."""
    global _key, _faces
    c = app.c
    key = (c.cid, c.nevents, what)
    if _key != key or len(_faces) != n:
        d = app.s.dice
        _key = key
        _faces = bytes([d.d(sides) for _ in range(n)])
    return _faces
