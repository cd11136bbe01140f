"""The page's hits table (``/api/hits/view``, :func:`pipeline.answers.hits_view.hits_view`) on
a flop against a brute force written from the cards alone: every combined draw category (flush
draw + gutshot, pair + draw, ...) holds exactly the combos a plain Python walk over the 1,326
hands says it does, and the live combos of a weighted range after board and dead cards are the
hands that share no card with them, their weights summed exactly (docs/hits.md has the
definitions: a flush draw is four of a suit with a hole card in it; a straight draw counts the
ranks whose arrival makes a straight using a hole rank not on the board, two or more
open-ended, one a gutshot; a pair is one pair made with a hole card)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from pipeline.answers import Context
from pipeline.answers.hits_view import hits_view
from pipeline.core.cards import format_cards, parse_cards
from pipeline.equity.ranges.parse import parse_range

ACE = 12
#: unpaired flops: two-tone connected, rainbow with a gap, monotone, an ace-low wheel board
FLOPS = ("Kh 9h 8c", "Jd Td 4s", "8s 7s 2s", "Ac 4d 3c")


def _positions(ranks: set[int]) -> set[int]:
    """Rank positions with the ace also below the deuce (0 = ace low, r + 1 = rank r)."""
    return {r + 1 for r in ranks} | ({0} if ACE in ranks else set())


def _straight(ranks: set[int], using: set[int]) -> bool:
    """Five ranks in a row among ``ranks`` (with one of ``using`` in them, when given)."""
    pos, own = _positions(ranks), _positions(using)
    return any(set(range(w, w + 5)) <= pos and (not using or own & set(range(w, w + 5))) for w in range(10))


def _draws(hole: list[int], board: list[int]) -> dict[str, bool]:
    cards = hole + board
    flush_draw = any(sum(c & 3 == s for c in cards) == 4 and any(c & 3 == s for c in hole) for s in range(4))
    ranks = {c >> 2 for c in cards}
    own = {c >> 2 for c in hole} - {c >> 2 for c in board}
    outs = 0 if _straight(ranks, set()) or not own else sum(_straight(ranks | {r}, own) for r in range(13))
    counts = Counter(c >> 2 for c in cards)
    pairs = [r for r, n in counts.items() if n == 2]
    pair = len(pairs) == 1 and max(counts.values()) == 2 and pairs[0] in {c >> 2 for c in hole}
    return {"fd": flush_draw, "oesd": outs >= 2, "gut": outs == 1, "pair": pair}


#: the combined rows the brute force defines, from the draws of one combo
COMBINED: dict[str, Callable[[dict[str, bool]], bool]] = {
    "flush draw + open-ended": lambda d: d["fd"] and d["oesd"],
    "flush draw + gutshot": lambda d: d["fd"] and d["gut"],
    "flush draw + pair": lambda d: d["fd"] and d["pair"],
    "open-ended + pair": lambda d: d["oesd"] and d["pair"],
    "gutshot + pair": lambda d: d["gut"] and d["pair"],
    "pair + any draw": lambda d: d["pair"] and (d["fd"] or d["oesd"] or d["gut"]),
    "any flush or straight draw": lambda d: d["fd"] or d["oesd"] or d["gut"],
}


@pytest.mark.parametrize("flop", FLOPS)
def test_combined_draws_equal_a_brute_force(artifacts: Path, flop: str) -> None:
    board = parse_cards(flop)
    v = hits_view(Context(artifacts), "random", flop)
    rows = {r["category"]: r for r in v["combined"]}
    live = [list(h) for h in combinations(range(52), 2) if not set(h) & set(board)]
    assert v["live_combos"] == len(live) == 1176
    draws = [(h, _draws(h, board)) for h in live]
    for name, holds in COMBINED.items():
        want = {format_cards(sorted(h, reverse=True)) for h, d in draws if holds(d)}
        got = set(rows[name]["combo_list"])
        assert got == want, (flop, name, sorted(got ^ want)[:6])
        assert rows[name]["combos"] == len(want)
        assert rows[name]["percent"] == pytest.approx(100 * len(want) / len(live), abs=1e-12)
    if flop == FLOPS[0]:  # the two-tone connected flop has both kinds of combined flush draw
        assert rows["flush draw + gutshot"]["combos"] > 0 and rows["flush draw + open-ended"]["combos"] > 0


def test_live_weighted_combos_equal_a_brute_force(artifacts: Path) -> None:
    """A weighted range on a flop with a dead card: the live combos and their exact weight sum
    (hits and the page's grid, ``range/format``)."""
    from pipeline.answers.range_view import range_view
    from pipeline.equity.hands.starting_hands import HOLE_CARDS

    text, flop, dead = "QQ+:0.5,AKs,AhJh,T9s:0.25,98s", "Kh 9h 8c", "As"
    removed = set(parse_cards(flop + " " + dead))
    r = parse_range(text)
    live = {h: Fraction(str(w)) for h, w in zip(r.hands.tolist(), r.weights.tolist())
            if not set(HOLE_CARDS[h].tolist()) & removed}
    v = hits_view(Context(artifacts), text, flop, dead)
    # QQ+ 12 live at 1/2, AKs 2 (As dead, Kh on board), AhJh, T9s 3 at 1/4, 98s 2 (9h 8c on board)
    assert Fraction(str(v["live_combos"])) == sum(live.values()) == Fraction(12, 2) + 2 + 1 + Fraction(3, 4) + 2
    grid = range_view(Context(artifacts), text, flop, dead, [], None)
    assert Fraction(str(grid["live_weighted"])) == sum(live.values()) and grid["live"] == len(live)
