"""Mississippi Stud's published point-count strategy as code, scored exactly by the solver.

Points: a 2-5 is worth 0, a 6-10 ("mid card") 1, a jack to ace ("high card") 2. The rules are
those of the usual pay table (pair of sixes to tens pushes, jacks or better pay); on another
table their exact cost says how far off they are.
"""

from __future__ import annotations

import numpy as np

from pipeline.casino.draws import spread, suited
from pipeline.casino.family import PlayerStrategy
from pipeline.casino.game import Game
from pipeline.casino.result import DecisionPoint

SIX, TEN, JACK = 4, 8, 9
FIVE, FOUR, EIGHT, KING = 3, 2, 6, 11

RULES = (
    "points: 2-5 count 0, 6-10 count 1, J-A count 2",
    "3rd street (two cards): 3x with a pair; 1x with 2+ points or 6-5 suited; else fold",
    "4th street (three cards): 3x with a pair of sixes or better (or better hand), three to a royal "
    "flush, three to a straight flush without gap from 5-6-7 up, with one gap and a 6 or better, "
    "with two gaps and two 6s or better; 1x with any other three suited, a low pair (2s-5s), 3+ "
    "points, three to a straight without gap from 4-5-6 up, with one gap and two 6-10s; else fold",
    "5th street (four cards): 3x with a pair of sixes or better (or better hand), four to a flush, "
    "four to an outside straight 8-high or better; 1x with any other straight draw, a low pair, 4+ "
    "points, three 6-10s after a 3x bet; else fold",
)


def _features(cards: np.ndarray) -> dict[str, np.ndarray]:
    r = cards.astype(np.int64) >> 2
    srt = np.sort(r, axis=1)
    same = srt[:, 1:] == srt[:, :-1]
    pair_rank = np.where(same, srt[:, 1:], -1).max(axis=1)
    distinct, width, _ = spread(r)
    return {"ranks": r, "points": np.select([r >= JACK, r >= SIX], [2, 1], 0).sum(axis=1),
            "made": (same.sum(axis=1) >= 2) | (pair_rank >= SIX), "low_pair": (pair_rank >= 0) & (pair_rank < SIX),
            "distinct": distinct, "width": width, "suited": suited(cards), "low": srt[:, 0], "high": srt[:, -1],
            "mid": ((r >= SIX) & (r <= TEN)).sum(axis=1), "six_up": (r >= SIX).sum(axis=1)}


def _pick(three: np.ndarray, one: np.ndarray) -> np.ndarray:
    """Option index per state (1x, 2x, 3x, fold order): 3x where ``three``, else 1x where
    ``one``, else fold."""
    return np.where(three, 2, np.where(one, 0, 3)).astype(np.uint8)


def _third(p: DecisionPoint) -> np.ndarray:
    f = _features(p.cards)
    r = f["ranks"]
    six_five = f["suited"] & (np.sort(r, axis=1) == [FIVE, SIX]).all(axis=1)
    return _pick(~f["distinct"], (f["points"] >= 2) | six_five)


def _fourth(p: DecisionPoint) -> np.ndarray:
    f = _features(p.cards)
    sf = f["suited"] & f["distinct"]
    royal = sf & (f["low"] >= TEN)
    three = f["made"] | royal | (sf & (f["width"] == 3) & (f["low"] >= FIVE)) \
        | (sf & (f["width"] == 4) & (f["six_up"] >= 1)) | (sf & (f["width"] == 5) & (f["six_up"] >= 2))
    straight = f["distinct"] & ~f["suited"]
    one = f["suited"] | f["low_pair"] | (f["points"] >= 3) | (straight & (f["width"] == 3) & (f["low"] >= FOUR)) \
        | (straight & (f["width"] == 4) & (f["mid"] >= 2))
    return _pick(three, one)


def _fifth(p: DecisionPoint) -> np.ndarray:
    f = _features(p.cards)
    outside = f["distinct"] & (f["high"] - f["low"] == 3) & (f["high"] <= KING)
    three = f["made"] | f["suited"] | (outside & (f["high"] >= EIGHT))
    draw = f["distinct"] & (f["width"] <= 5)
    after_3x = p.context["wagered"] >= 5
    one = draw | f["low_pair"] | (f["points"] >= 4) | ((f["mid"] >= 3) & after_3x)
    return _pick(three, one)


def published_rules(game: Game) -> PlayerStrategy:
    """The point-count strategy (3x / 1x / fold at each street)."""
    return PlayerStrategy("points", RULES, {"3rd street": _third, "4th street": _fourth, "5th street": _fifth})
