"""The PRNG's faces are uniform: chi-square on 60,000 faces per die size.

The sequence is platform-independent (tests/mpy/test_dice.py pins it and
runs on MicroPython), so this CPython run speaks for the device too.
"""
import zlib

import pytest

from rules import dice

# Chi-square critical values at p = 0.001 for df = sides - 1.
CRIT_001 = {2: 13.816, 3: 16.266, 5: 20.515, 7: 24.322, 9: 27.877, 11: 31.264, 19: 43.820}
N = 60_000


def faces(sides, seed, n=N):
    d = dice.Dice(seed)
    buf = dice.new_pool()
    out = bytearray()
    table = bytes(sides + 1)
    while len(out) < n:
        d.roll(sides, 20, buf, table)
        out += buf
    return bytes(out[:n])


def chi2(fs, sides):
    counts = [0] * (sides + 1)
    for f in fs:
        counts[f] += 1
    assert counts[0] == 0 and sum(counts) == len(fs)
    e = len(fs) / sides
    return sum((c - e) ** 2 / e for c in counts[1:])


@pytest.mark.parametrize("sides", dice.SIDES)
def test_pool_faces_are_uniform(sides):
    stat = chi2(faces(sides, 2026), sides)
    assert stat < CRIT_001[sides - 1], (sides, stat)


@pytest.mark.parametrize("sides", dice.SIDES)
def test_single_draws_are_uniform(sides):
    d = dice.Dice(99)
    stat = chi2(bytes(d.d(sides) for _ in range(N)), sides)
    assert stat < CRIT_001[sides - 1], (sides, stat)


def test_pairs_of_d6_are_independent():
    # Consecutive faces as one d36: catches a digit-extraction correlation.
    fs = faces(6, 7, 2 * N)
    pairs = bytes((a - 1) * 6 + b for a, b in zip(fs[::2], fs[1::2]))
    stat = chi2(pairs, 36)
    assert stat < 66.62, stat  # df 35, p = 0.001


def test_chi2_detects_a_biased_die():
    # The test itself can fail: a modulo-biased d6 from bytes is caught.
    fair = faces(6, 3)
    weighted = bytes(1 if i % 5 == 0 else f for i, f in enumerate(fair))
    assert chi2(weighted, 6) > CRIT_001[5]


def test_crc_of_sequence_matches_device():
    # tests/mpy/test_dice.py asserts the same CRCs on MicroPython.
    got = {s: zlib.crc32(faces(s, 5, 6000)) for s in dice.SIDES}
    assert got == SEQUENCE_CRC, got


SEQUENCE_CRC = {3: 303620962, 4: 1475324460, 6: 325297191, 8: 3275469986,
                10: 3648883849, 12: 706075587, 20: 497202913}
