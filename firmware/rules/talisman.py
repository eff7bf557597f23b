"""Talismans: the one generic tracker behind clocks, hooks, stress, tension,
pressure, project clocks, prolonged tests and usage dice.

A talisman has a capacity and a number of slashes. What happens when it
fills is its policy:

- CLAMP: slashes stop at capacity; the talisman stays filled.
- CARRY: on filling it clears, slashes its `link` talisman once (a chain,
  e.g. tension feeding pressure) and any excess slashes carry over.

Whenever slashes land or a talisman fills, the rule system of the campaign
is told (`on_slash`, `on_fill`): that is where triggers such as "each time
pressure increases, the Sin's talisman gains +1 capacity" live. The role
tells the rule system what a talisman is; `a` and `b` are two integers a
role may use (a Sin's CAT, a prolonged test's attempts, ...).
"""

CLAMP = 0
CARRY = 1
POLICIES = (CLAMP, CARRY)
MAX_CAP = 64
NONE = -1  # no link, no owner


class Talisman:
    """One tracker. Plain attributes so MicroPython and CPython agree."""

    def __init__(self, name, cap, policy=CLAMP, link=NONE, role=0, owner=NONE, a=0, b=0):
        self.name = name
        self.cap = cap
        self.n = 0
        self.policy = policy
        self.link = link
        self.role = role
        self.owner = owner
        self.a = a
        self.b = b

    def fields(self):
        """The integers that define this talisman, in encoding order."""
        return (self.cap, self.n, self.policy, self.link, self.role, self.owner, self.a, self.b)

    def filled(self):
        return self.n >= self.cap

    def room(self, nofill=False):
        """Slashes that still fit (one fewer when the last may not be filled)."""
        r = self.cap - self.n - (1 if nofill else 0)
        return r if r > 0 else 0


def check_new(cap, policy, link, count):
    """Validate a new talisman's settings before anything changes."""
    if not 1 <= cap <= MAX_CAP:
        raise ValueError("capacity %d is not in 1..%d" % (cap, MAX_CAP))
    if policy not in POLICIES:
        raise ValueError("overflow policy %d is not CLAMP (0) or CARRY (1)" % policy)
    if policy == CARRY and not 0 <= link < count:
        raise ValueError("a CARRY talisman needs an existing talisman to link to")
    if link != NONE and not 0 <= link < count:
        raise ValueError("link %d names no talisman" % link)


def slash(c, t, k, nofill, src, depth=0):
    """Add k >= 0 slashes to talisman index t of campaign c.

    Returns the number of times it filled. Chains and triggers run through
    c.rules (the campaign's rule system); `src` hands them dice.
    """
    tal = c.tals[t]
    if nofill:
        r = tal.room(True)
        if k > r:
            k = r
    if k <= 0:
        return 0
    if depth > 8:
        raise ValueError("talisman chain is a loop")
    fills = 0
    if tal.policy == CLAMP:
        before = tal.n
        tal.n = min(tal.n + k, tal.cap)
        if tal.n > before:
            c.rules.on_slash(c, t, tal.n - before, src)
        if tal.n >= tal.cap and before < tal.cap:
            fills = 1
            c.rules.on_fill(c, t, src)
        return fills
    total = tal.n + k
    c.rules.on_slash(c, t, k, src)
    while total >= tal.cap and tal.cap > 0:
        total -= tal.cap
        tal.n = 0
        fills += 1
        c.rules.on_fill(c, t, src)
        if tal.link != NONE:
            slash(c, tal.link, 1, False, src, depth + 1)
    tal.n = total
    return fills


def unslash(tal, k):
    """Remove up to k slashes; returns how many came off."""
    if k > tal.n:
        k = tal.n
    tal.n -= k
    return k
