"""`dicetray odds`: a pool's exact odds, no device needed."""

import json

from ..campaign import odds
from .words import PROG, UsageError

ODDS = PROG + " odds"


def register(sub):
    p = sub.add_parser(
        "odds",
        help="exact odds of a dice pool",
        description="Exact odds of a pool: the probability of each number of "
        "successes, of reaching a target, or of winning a versus/opposed roll.",
    )
    p.add_argument("system", metavar="SYSTEM", help="hunt, paths or expedition")
    p.add_argument(
        "--pool",
        type=int,
        required=True,
        metavar="N",
        help="dice in the pool (hunt 0..9, 0 = 2d6 keep lower; paths 1..20; expedition 1..20)",
    )
    p.add_argument("--hard", action="store_true", help="hunt: a hard roll (only 6 succeeds)")
    p.add_argument(
        "--target",
        "--difficulty",
        "--ob",
        dest="target",
        type=int,
        metavar="K",
        help="successes needed (hunt 1..9, paths difficulty 1..7, expedition Ob 1..30)",
    )
    p.add_argument(
        "--versus",
        type=int,
        metavar="M",
        help="opposing pool (paths: opposed test, the first pool initiates; "
        "expedition: versus test)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON object, probabilities as reduced 'num/den' ('0/1', '1/1')",
    )
    p.set_defaults(run=_run_odds)


def _check_odds(args):
    """Validate; return the system number. Raises UsageError."""
    try:
        s = odds.system_number(args.system)
    except ValueError as e:
        raise UsageError(str(e), ODDS)
    name = odds.NAMES[s]
    bad = odds.pool_error(s, args.pool)
    if bad:
        raise UsageError(bad, ODDS)
    if args.hard and s != odds.core.HUNT:
        raise UsageError("--hard is only for hunt, not %s" % name, ODDS)
    if args.target is not None and args.versus is not None:
        raise UsageError(
            "give --target or --versus, not both (a roll is against "
            "a target or against another pool)",
            ODDS,
        )
    if args.target is not None:
        bad = odds.target_error(s, args.target)
        if bad:
            raise UsageError(bad, ODDS)
    if args.versus is not None:
        rng = odds.core.VERSUS[s]
        if rng is None:
            raise UsageError("--versus: hunt has no versus roll (use --target)", ODDS)
        if not rng[0] <= args.versus <= rng[1]:
            raise UsageError(
                "--versus %d is outside %d..%d for %s" % (args.versus, rng[0], rng[1], name), ODDS
            )
    return s


def _describe(s, pool, hard):
    sides, table = odds.dice(s, hard)
    first = min(f for f in range(1, sides + 1) if table[f])
    what = "only %d succeeds" % first if first == sides else "%d+ succeeds" % first
    if max(table) > 1:
        what += ", a %d is worth %d" % (sides, table[sides])
    dice = "2d%d keep the lower" % sides if pool == 0 else "%dd%d" % (pool, sides)
    return "%s%s: %s, %s" % (odds.NAMES[s], " (hard)" if hard else "", dice, what)


def _pct(f):
    return "%.2f%%" % (100.0 * f.numerator / f.denominator)


def _run_odds(args):
    s = _check_odds(args)
    fs = odds.fraction_str
    dist = odds.distribution(s, args.pool, args.hard)
    out = {
        "system": odds.NAMES[s],
        "pool": args.pool,
        "hard": bool(args.hard),
        "successes": {str(k): fs(p) for k, p in enumerate(dist)},
    }
    if args.target is not None:
        out["target"] = args.target
        p = sum(dist[args.target :], odds.Fraction(0))
        out["p_success"] = fs(p)
    if args.versus is not None:
        out["versus"] = args.versus
        other = odds.distribution(s, args.versus)
        out["versus_successes"] = {str(k): fs(p) for k, p in enumerate(other)}
        w, t, l = odds.versus(s, args.pool, args.versus)
        out.update(p_win=fs(w), p_tie=fs(t), p_lose=fs(l))
    if args.json:
        print(json.dumps(out))
        return 0
    lines = [_describe(s, args.pool, args.hard)]
    lines += _table_lines(dist)
    if args.target is not None:
        lines.append(
            "P(at least %d success%s) = %s = %s"
            % (args.target, "" if args.target == 1 else "es", out["p_success"], _pct(p))
        )
    if args.versus is not None:
        kind = "opposed test, first pool initiates" if s == odds.core.PATHS else "versus test"
        lines.append("")
        lines.append("versus %s (%s)" % (_describe(s, args.versus, False), kind))
        lines += _table_lines(other)
        lines.append("")
        for label, f in (("win", w), ("tie", t), ("lose", l)):
            lines.append("%-4s %22s %9s" % (label, fs(f), _pct(f)))
    print("\n".join(lines))
    return 0


def _table_lines(dist):
    rows = ["%9s %22s %9s" % ("successes", "probability", "percent")]
    for k, p in enumerate(dist):
        rows.append("%9d %22s %9s" % (k, odds.fraction_str(p), _pct(p)))
    return rows
