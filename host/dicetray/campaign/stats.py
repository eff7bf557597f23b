"""Dice fairness and success rates from a campaign's log.

Every event records the faces it drew, but not the size of each die (a
hunt roll's d6 pool can trigger 1d3 heals in the same event). So the log is
refolded with a dice source that notes the sides of every face it hands
out, exactly as the rules drew them.

Fairness: per die size, Pearson's chi-square of the face counts against a
uniform die, with its exact p-value from the regularized upper incomplete
gamma function (stdlib only: math.lgamma, a series and a continued fraction).
The chi-square distribution is only a fair stand-in for the statistic when
every face is expected at least MIN_EXPECTED times (Cochran's rule): below
that (two or three d6 rolled, a handful of d3 heals) the p-value is
reported with a warning that it says nothing either way.
"""

import math

from .. import backup as bk
from ..base import outfile
from ..rules import campaign as cp
from ..rules import codec
from ..catalog.events import entry, named
from ..rules.dice import Replay

# Roll events and the index of their acting character in the args (-1: none).
MIN_EXPECTED = 5  # rolls per face below which chi-square's p-value is not valid

# The rolls counted per character: (system, event) -> the argument naming
# who rolls (catalog/events.py); None: a roll of nobody's (expedition's TEST).
ROLLS = {
    (0, "ROLL"): "who",
    (1, "TEST"): "who",
    (1, "OPPOSED"): "who",
    (2, "TEST"): None,
    (2, "COMBAT"): "a_char",
}  # COMBAT: side A's
ROLL_KINDS = {(s, entry(s, n)[0]): who for (s, n), who in ROLLS.items()}


def gammaincc(a, x):
    """Q(a, x) = Gamma(a, x) / Gamma(a), for a > 0, x >= 0."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x < 0:
        raise ValueError("x must be non-negative")
    if x == 0:
        return 1.0
    lead = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        # Series for P(a, x); Q = 1 - P.
        term = total = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(lead))
    # Continued fraction for Q (modified Lentz).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(lead) * h


def chi2_sf(x, k):
    """P(X >= x) for a chi-square variable with k degrees of freedom."""
    return gammaincc(k / 2.0, x / 2.0)


def chi_square(counts):
    """(statistic, degrees of freedom, p-value) of `counts` (face 1..n)
    against a uniform die; p is None with fewer than 2 faces or no rolls."""
    n = sum(counts)
    k = len(counts)
    if k < 2 or n == 0:
        return 0.0, k - 1, None
    e = float(n) / k
    stat = sum((o - e) ** 2 for o in counts) / e
    return stat, k - 1, chi2_sf(stat, k - 1)


class _Tally(Replay):
    """A Replay that records the sides of every face it hands out."""

    def __init__(self, faces, sink):
        Replay.__init__(self, faces)
        self.sink = sink

    def d(self, sides):
        f = Replay.d(self, sides)
        self.sink.append((sides, f))
        return f


def collect(system, cid, base, events, depth=bk.HOST_DEPTH):
    """Fold `events` (after `base`, an encode_snapshot or None) and count:
    {sides: [count of face 1, ...]}, {character index: [rolls, successes]},
    the final campaign. The fold keeps the host's undo window (an undo
    refolds at most a window, uncounted: its faces were counted when they
    were drawn); an UNDO beyond it counts again with the whole history."""
    c = bk.start(system, cid, base, depth)
    faces = {}
    rolls = {}
    for ev in events:
        kind, args, fs, text = codec.decode_event(ev)
        drawn = []
        try:
            out = c.apply(ev, lambda faces: _Tally(faces, drawn))
        except ValueError:
            if depth is None or c.depth is None or kind != cp.UNDO:
                raise
            return collect(system, cid, base, events, None)
        for sides, f in drawn:
            faces.setdefault(sides, [0] * sides)[f - 1] += 1
        if (c.system, kind) in ROLL_KINDS:
            k = ROLL_KINDS[(c.system, kind)]
            who = getattr(named(c.system, kind, args), k) if k is not None else -1
            who = -1 if who is None else who
            r = rolls.setdefault(who, [0, 0])
            r[0] += 1
            r[1] += 1 if out.verdict == 1 else 0
    return faces, rolls, c


def report(system, cid, base, events):
    """The stats as plain data (fixed order)."""
    faces, rolls, c = collect(system, cid, base, events)
    dice = []
    for sides in sorted(faces):
        stat, df, p = chi_square(faces[sides])
        n = sum(faces[sides])
        expected = float(n) / sides
        small = expected < MIN_EXPECTED
        dice.append(
            {
                "sides": sides,
                "rolls": n,
                "counts": faces[sides],
                "chi2": round(stat, 6),
                "df": df,
                "p": None if p is None else round(p, 6),
                "expected": round(expected, 6),
                "small_sample": small,
                "warning": small_sample_warning(sides, n) if small else None,
            }
        )
    chars = []
    for who in sorted(rolls):
        name = c.chars[who].name if 0 <= who < len(c.chars) else "(no character)"
        n, s = rolls[who]
        chars.append(
            {
                "index": who,
                "name": name,
                "rolls": n,
                "successes": s,
                "rate": round(float(s) / n, 6) if n else None,
            }
        )
    return {"events": len(events), "dice": dice, "characters": chars}


def small_sample_warning(sides, rolls):
    """The words for a die size rolled too few times for chi-square."""
    return (
        "%d d%d rolled: %.3g expected per face, and chi-square needs at least %d per face "
        "(%d rolls of a d%d): this p-value says nothing either way"
        % (rolls, sides, float(rolls) / sides, MIN_EXPECTED, MIN_EXPECTED * sides, sides)
    )


def figure(rep):
    """The histogram as a matplotlib Figure (Agg backend): one panel per
    die size, bars = how often each face was rolled, a line = what a fair
    die would give."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'dicetray[plot]'")
    dice = rep["dice"] or [
        {"sides": 6, "counts": [0] * 6, "rolls": 0, "p": None, "small_sample": True}
    ]
    fig, axes = plt.subplots(len(dice), 1, figsize=(6, 2.6 * len(dice)), squeeze=False)
    for ax, d in zip(axes[:, 0], dice):
        xs = range(1, d["sides"] + 1)
        ax.bar(xs, d["counts"], color="#4a7bb7", label="times rolled")
        if d["rolls"]:
            ax.axhline(
                float(d["rolls"]) / d["sides"], color="#c33", linewidth=1, label="a fair die"
            )
        p = ""
        if d["p"] is not None:
            p = ", chi-square p = %.3g" % d["p"]
            if d.get("small_sample"):
                p += " (too few rolls to judge)"
        ax.set_title(
            "d%d: %d %s rolled%s"
            % (d["sides"], d["rolls"], "die" if d["rolls"] == 1 else "dice", p),
            fontsize=9,
        )
        ax.set_xlabel("face", fontsize=8)
        ax.set_ylabel("times rolled", fontsize=8)
        ax.set_xticks(list(xs))
        if d["rolls"]:
            ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def plot(rep, path):
    """A PNG histogram of face counts per die size (see figure())."""
    fig = figure(rep)
    import matplotlib.pyplot as plt

    try:
        with outfile.replacing(path, "wb") as f:
            fig.savefig(f, format="png")
    finally:
        plt.close(fig)
