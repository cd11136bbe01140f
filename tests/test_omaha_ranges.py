"""Compact Omaha ranges (pipeline/equity/games/ranges.py): counted without listing, listed on
request, equal hand for hand and weight for weight to a reference that builds every hand the
old way (one card per pattern element, then any cards), and counts checked by formulas."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from pipeline.errors import InputError

RANKS = "23456789TJQKA"


def _expand_reference(pattern: str, hole: int) -> set[int]:
    """Bitmaps of the hands one ``!``-free pattern names, built as the first implementation
    did: one card from each element (a card, a rank's four cards), repeats dropped, padded with
    any cards; then the ds/ss filter on the suits holding two or more cards."""
    suited = None
    for suffix, span in (("ds", (2, 4)), ("ss", (1, 1))):
        if pattern.endswith(suffix) and len(pattern) > 2:
            pattern, suited = pattern[:-2], span
            break
    elems: list[list[int]] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "x":
            elems.append(list(range(52)))
            i += 1
        elif i + 1 < len(pattern) and pattern[i + 1] in "cdhs":
            elems.append([4 * RANKS.index(ch.upper()) + "cdhs".index(pattern[i + 1])])
            i += 2
        else:
            elems.append([4 * RANKS.index(ch.upper()) + s for s in range(4)])
            i += 1
    elems += [list(range(52))] * (hole - len(elems))
    fixed = [e for e in elems if len(e) < 52]
    partial = {0}
    for cands in fixed:
        partial = {p | 1 << c for p in partial for c in cands if not p >> c & 1}
    free = hole - len(fixed)
    out = set()
    for p in partial:
        rest = [c for c in range(52) if not p >> c & 1]
        for extra in combinations(rest, free):
            out.add(p | sum(1 << c for c in extra))
    if suited is not None:
        lo, hi = suited
        lane = sum(1 << (4 * r) for r in range(13))
        out = {b for b in out
               if lo <= sum(bin(b & (lane << s)).count("1") >= 2 for s in range(4)) <= hi}
    return out


def _reference(text: str, hole: int) -> dict[int, float]:
    """Every hand's weight: the last item naming it."""
    weights: dict[int, float] = {}
    for item in text.lower().replace(" ", "").split(","):
        body, w = (item.rsplit(":", 1)[0], float(item.rsplit(":", 1)[1])) if ":" in item \
            else (item, 1.0)
        first, *rest = body.split("!")
        hands = _expand_reference(first, hole)
        for ex in rest:
            hands -= _expand_reference(ex, hole)
        for b in hands:
            weights[b] = w
    return weights


CASES = [
    ("AAxx!AAAx,KKQQds:0.5", 4),
    ("AsAdxx,AKxx:0.25,AAKKss", 4),
    ("QQJJ,T9xxds:0.5,T9!TT,7s6s5sx", 4),
    ("AKQJx:0.5,AAKQx!AAAKQ,KsKQJxss", 5),
    ("JJT98x,AsKsQsxxx:0.5", 6),
]


@pytest.mark.parametrize("text,hole", CASES)
def test_compact_range_equals_reference(text: str, hole: int) -> None:
    """Every hand and weight, listed in blocks, equals the reference; the counts, weighted
    counts and live counts (with known cards) agree with it."""
    from pipeline.equity.games.ranges import omaha_range

    want = _reference(text, hole)
    r = omaha_range(text, hole, f"omaha{hole}")
    got: dict[int, float] = {}
    for bits, w in r.chunks(1000):
        for b, x in zip(bits.tolist(), w.tolist()):
            assert b not in got
            got[b] = x
    assert got == want
    assert r.combos == len(want) and r.weighted == pytest.approx(sum(want.values()))
    known = (1 << 51) | (1 << 44) | (1 << 3)  # As, Qc, 2s
    live = [w for b, w in want.items() if not b & known]
    assert r.live_counts(known)[0] == len(live)
    assert r.live_counts(known)[1] == pytest.approx(sum(live))


def test_headline_range_counted_without_listing() -> None:
    """The issue's omaha6 range: its count equals a generating-function count of six-card
    hands holding at least three of the ranks A, K, Q, J; no hand is listed (no multiset is
    split), and the first hands come from the first block alone."""
    from pipeline.equity.games.ranges import count_combos, omaha_range

    def poly_mul(a: list[int], b: list[int]) -> list[int]:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                out[i + j] += x * y
        return out

    present = [0] + [comb(4, k) for k in range(1, 5)]
    want = 0
    for n_present in (3, 4):
        poly = [1]
        for _ in range(n_present):
            poly = poly_mul(poly, present)
        rest = [comb(36, k) for k in range(7)]  # the absent ones hold no card
        want += comb(4, n_present) * sum(poly[k] * rest[6 - k] for k in range(min(7, len(poly))))
    text = "AKQxxx,AKJxxx,AQJxxx,KQJxxx"
    assert count_combos(text, "omaha6") == want == 2_867_872
    r = omaha_range(text, 6, "omaha6")
    assert len(r.hands) == 0 and r.weighted == want
    bits, _ = r.first(12)
    assert len(bits) == 12 and all(bin(b).count("1") == 6 for b in bits.tolist())


def test_count_combos_games() -> None:
    """Hold'em, short deck (no card below six) and Omaha counts; stud has no ranges."""
    from pipeline.equity.games.ranges import count_combos

    assert count_combos("QQ+,AKs", "holdem") == 22
    assert count_combos("QQ+,AKs,65s,A5s", "short-deck") == 22
    assert count_combos("AAxx", "plo") == comb(4, 2) * comb(48, 2) + 4 * 48 + 1
    with pytest.raises(InputError, match="stud has no ranges"):
        count_combos("AA", "stud")
    with pytest.raises(InputError, match="names no hand"):
        count_combos("AAAAA", "omaha5")
    with pytest.raises(InputError, match="too wide to list"):
        count_combos("Asxxxxxds", "omaha6")


def test_rows_are_the_listed_live_hands() -> None:
    """``rows`` (what exact counting walks) is the listing without the known cards' hands,
    ordered by card bitmap."""
    from pipeline.equity.games.ranges import bits_to_rows, omaha_range

    r = omaha_range("AAxx!AAAx,KKQQds:0.5", 4, "omaha")
    known = 1 << 51
    rows, w = r.rows(known)
    bits = np.concatenate([b for b, _ in r.chunks()])
    live = np.sort(bits[(bits & known) == 0])
    assert rows.tolist() == bits_to_rows(live, 4).tolist() and len(w) == len(live)
