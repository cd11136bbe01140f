"""Issue 39's three-range spot, exact: ``77+,ATs+,A4s-A5s,KTs+,QTs+`` / ``JJ-88,AQs+,KQs`` /
``22+,A2s+,K9s+,ATo+``. On a turn, every seat's counts and the hero's breakdown rows equal a
brute force written here (every river x every card-disjoint triple of hands, scored with the
dense seven.h5, numpy-vectorised over the triples); on the issue's flop (268 M deals, too many
for the brute force in a test) they equal OMPEval's exact enumeration of the same spot."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from refpoker import colex

from pipeline.core.cards import parse_cards
from pipeline.equity.breakdown import equity_breakdown
from pipeline.equity.engine import equity_seats
from pipeline.equity.hands.starting_hands import HOLE_CARDS
from pipeline.equity.ranges.parse import parse_range

HERO = "77+,ATs+,A4s-A5s,KTs+,QTs+"
VS = ["JJ-88,AQs+,KQs", "22+,A2s+,K9s+,ATo+"]
#: Pot shares of a k-way tie (k = 1, 2, 3) in whole units: 1/k of this.
SHARE_UNITS = 6
#: OMPEval's exact enumeration of the flop spot (its harness, ``../shared/tools/ompeval``):
#: ``ompeval equity "77+,ATs+,A5s,A4s,KTs+,QTs+|JJ,TT,99,88,AQs+,KQs|22+,A2s+,K9s+,ATo+"
#: Ks9d4c "" 1 0 1`` printed hands 268068192, wins [92627126, 105242631, 63656254] and tie
#: shares [2277284.6667, 2467516.6667, 1797379.6667] (thirds: 6831854/3, 7402550/3, 5392139/3).
OMPEVAL_FLOP = ("Ks 9d 4c", 268_068_192, (92_627_126, 105_242_631, 63_656_254),
                (Fraction(6_831_854, 3), Fraction(7_402_550, 3), Fraction(5_392_139, 3)))


def _seat_cards(text: str, board: list[int]) -> np.ndarray:
    """The range's hands as (n, 2) card ids, without those touching the board."""
    cards = HOLE_CARDS[parse_range(text).hands]
    return cards[~np.isin(cards, board).any(axis=1)]


def brute_three(table7: np.ndarray, board: list[int]) -> dict[str, Any]:
    """Every river x every card-disjoint (hero, vs1, vs2) triple: per seat win/tie/lose counts
    and pot shares in 1/SHARE_UNITS, per hero hand its deals and share, and the deal count."""
    seats = [_seat_cards(t, board) for t in [HERO, *VS]]
    masks = [(np.uint64(1) << s[:, 0].astype(np.uint64)) | (np.uint64(1) << s[:, 1].astype(np.uint64))
             for s in seats]
    a, b, c = masks
    disjoint = (((a[:, None, None] & b[None, :, None]) | (a[:, None, None] & c[None, None, :])
                 | (b[None, :, None] & c[None, None, :])) == 0)
    win, tie, lose, share = (np.zeros(3, np.int64) for _ in range(4))
    hero_deals = np.zeros(len(seats[0]), np.int64)
    hero_share = np.zeros(len(seats[0]), np.int64)
    for river in (x for x in range(52) if x not in board):
        full = np.array(board + [river], np.int64)
        scores, live = [], []
        for s, m in zip(seats, masks):
            free = (m & (np.uint64(1) << np.uint64(river))) == 0
            rows = np.concatenate([np.tile(full, (int(free.sum()), 1)), s[free]], axis=1)
            score = np.zeros(len(s), np.int64)  # a hand holding the river is never dealt with it
            score[free] = table7[colex(rows)]
            scores.append(score)
            live.append(free)
        ok = disjoint & live[0][:, None, None] & live[1][None, :, None] & live[2][None, None, :]
        sa, sb, sc = scores[0][:, None, None], scores[1][None, :, None], scores[2][None, None, :]
        best = np.maximum(np.maximum(sa, sb), sc)
        top = [(sa == best) & ok, (sb == best) & ok, (sc == best) & ok]
        k = top[0].astype(np.int64) + top[1] + top[2]
        unit = np.where(ok, SHARE_UNITS // np.maximum(k, 1), 0)
        for p in range(3):
            win[p] += int((top[p] & (k == 1)).sum())
            tie[p] += int((top[p] & (k > 1)).sum())
            lose[p] += int((ok & ~top[p]).sum())
            share[p] += int((top[p] * unit).sum())
        hero_deals += ok.sum(axis=(1, 2))
        hero_share += (top[0] * unit).sum(axis=(1, 2))
    return {"win": win, "tie": tie, "lose": lose, "share": share, "deals": int(win[0] + tie[0] + lose[0]),
            "hero": seats[0], "hero_deals": hero_deals, "hero_share": hero_share}


def test_turn_spot_equals_the_brute_force(tables: Any) -> None:
    """The three ranges on Kd 9s 4c 2h (12 M deals): every seat's counts, the hero's exact
    equity, and each hero combo's breakdown row (its share of the deals and its equity)."""
    board = "Kd 9s 4c 2h"
    want = brute_three(tables.table(7), parse_cards(board))
    deals = want["deals"]
    res = equity_seats(tables, HERO, VS, board=board, exact=True)
    assert res.method == "exact" and res.deals == deals
    for p, row in enumerate(res.players):
        assert (round(row.win * deals), round(row.tie * deals), round(row.lose * deals)) == \
            (want["win"][p], want["tie"][p], want["lose"][p])
        assert row.equity == pytest.approx(want["share"][p] / (SHARE_UNITS * deals), abs=1e-12)
    c = res.counts
    assert (c.win, c.tie, c.lose) == (want["win"][0], want["tie"][0], want["lose"][0])
    assert Fraction(c.equity_numerator, c.equity_denominator) == Fraction(int(want["share"][0]),
                                                                          SHARE_UNITS * deals)
    bd = equity_breakdown(tables, HERO, VS, board=board, exact=True)
    rows = {frozenset(parse_cards(r.label)): r for r in bd.combos}
    assert len(rows) == len(want["hero"])
    for hand, n, s in zip(want["hero"], want["hero_deals"], want["hero_share"]):
        r = rows[frozenset(int(x) for x in hand)]
        assert r.frequency_exact == Fraction(int(n), deals)
        assert r.equity_exact == Fraction(int(s), SHARE_UNITS * int(n))


def test_flop_spot_equals_ompeval(tables: Any) -> None:
    """The issue's flop: every seat's wins and win + tie share equal OMPEval's enumeration."""
    board, hands, wins, ties = OMPEVAL_FLOP
    res = equity_seats(tables, HERO, VS, board=board, exact=True)
    assert res.method == "exact" and res.deals == hands
    c = res.counts
    assert c.win == wins[0]
    assert Fraction(c.equity_numerator, c.equity_denominator) == (wins[0] + ties[0]) / hands
    for p, row in enumerate(res.players):
        assert round(row.win * hands) == wins[p]
        assert row.equity == pytest.approx(float((wins[p] + ties[p]) / hands), abs=1e-12)
