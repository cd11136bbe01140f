"""Shared facts and an independent judge for the video-poker tests (not a test module).

The naive judge is written from the rules only: it tries every substitution of the wild cards
and takes the first paytable line matched.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAYTABLES = ROOT / "pipeline" / "data" / "paytables"
JOB96 = PAYTABLES / "jacks-or-better-9-6.toml"
#: the build stages the video-poker tests build
MY_STAGES = ("vp_classes", "paytable", "vp_summary")
#: 9/6 Jacks or Better: final-hand combinations under optimal play (the published table's counts)
JOB96_FINAL = [493_512_264, 2_178_883_296, 47_093_167_764, 229_475_482_596, 219_554_786_160,
               223_837_565_784, 1_484_003_070_324, 2_576_946_164_148, 4_277_372_890_968,
               10_872_274_993_896]


def _natural(cards: list[tuple[int, int]]) -> tuple[str, dict[int, int]]:
    """Naive poker category of five (rank, suit) cards; five of a kind allowed."""
    cnt = Counter(r for r, _ in cards)
    flush = len({s for _, s in cards}) == 1 and len(cnt) == 5
    rs = sorted(cnt)
    straight = len(cnt) == 5 and (rs[-1] - rs[0] == 4 or rs == [0, 1, 2, 3, 12])
    shape = sorted(cnt.values(), reverse=True)
    if straight and flush:
        return ("royal" if rs[0] == 8 else "sf"), cnt
    if shape[0] == 5:
        return "five", cnt
    if shape[0] == 4:
        return "quads", cnt
    if shape[:2] == [3, 2]:
        return "fh", cnt
    if flush:
        return "flush", cnt
    if straight:
        return "straight", cnt
    if shape[0] == 3:
        return "trips", cnt
    if shape[:2] == [2, 2]:
        return "twopair", cnt
    if shape[0] == 2:
        return "pair", cnt
    return "high", cnt



def naive_category(pt: Any, cards: list[int]) -> int:
    """First line matched, best over every substitution of the wild cards by any card."""
    wild = [c for c in cards if (pt.wild == "deuces" and c < 4) or c == 52]
    nat = [(c >> 2, c & 3) for c in cards if c not in wild]
    best, best_pay = len(pt.lines), Fraction(0)
    for sub in itertools.product([(r, s) for r in range(13) for s in range(4)], repeat=len(wild)):
        cat, cnt = _natural(nat + list(sub))
        for j, ln in enumerate(pt.lines):
            ok = {
                "royal flush": cat == "royal" and not wild,
                "wild royal flush": cat == "royal" and bool(wild),
                "five of a kind": cat == "five",
                "four deuces": len(wild) == 4 and pt.wild == "deuces" and bool(ln.kicker >> nat[0][0] & 1),
                "straight flush": cat in ("royal", "sf"),
                "four of a kind": cat == "quads" and any(
                    v == 4 and ln.ranks >> r & 1 for r, v in cnt.items()) and any(
                    v == 1 and ln.kicker >> r & 1 for r, v in cnt.items()),
                "full house": cat == "fh", "flush": cat == "flush", "straight": cat == "straight",
                "three of a kind": cat == "trips" and any(v == 3 and ln.ranks >> r & 1 for r, v in cnt.items()),
                "two pair": cat == "twopair",
                "pair": cat == "pair" and any(v == 2 and ln.ranks >> r & 1 for r, v in cnt.items()),
            }[ln.hand]
            if ok:
                if ln.pays > best_pay or (ln.pays == best_pay and j < best):
                    best, best_pay = j, ln.pays
                break
    return best


