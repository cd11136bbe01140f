"""Family ``three-card-poker``: Three Card Poker's ante and play, with the ante bonus.

Rules (``[rules]``): ``dealer_qualifies`` (default ``"queen high"``), ``play_bet`` (the Play
bet in antes, default 1). Table ``ante bonus`` (optional; three-card hands): paid on the ante
to a player who plays, whatever the dealer holds; a hand on no line gets no bonus.

The player sees three cards and folds (loses the ante) or plays. Dealer not qualified: the
ante wins 1:1, the play bet pushes. Qualified: the higher hand wins 1:1 on both; a tie pushes.

Method: every one of the 22,100 player hands against the 18,424 dealer hands of the other 49
cards, counted without enumerating them: the dealer hands below a score ``s`` disjoint from the
player's cards are, by inclusion–exclusion over the 8 subsets of the player's cards, sums of
"hands containing this subset with a score below s" (cumulative counts per 0-, 1- and 2-card
subset, the hand itself for the 3-card one). So each hand's EV of playing is exact integers.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.casino.family import PlayerStrategy, optimal
from pipeline.casino.game import Game, TableSpec
from pipeline.casino.hands import qualifier_score, three_card_table
from pipeline.casino.result import CasinoAnalysis, DecisionPoint, rows_from_counts
from pipeline.casino.settings import check_settings, multiple, qualifier
from pipeline.casino.subsets import colex, colex_hands, cumulative, subsets_of, superset_counts
from pipeline.core.cards import RANKS
from pipeline.errors import InputError

FAMILY = "three-card-poker"
#: the card groups dealt at the first decision (the trainer deals these)
FIRST_DEAL = (3,)
BASE_BET = "ante"
POINT = "play or fold"
OPTIONS = ("fold", "play")
FOLD, PLAY = 0, 1
LAYOUT = "the player's three cards"
#: dealer hands from the 49 cards the player does not hold
DEALER_HANDS = 18_424
HAND_CARDS = 3
#: outcomes of a played hand: (event, ante result, play result)
EVENTS = (("dealer does not qualify", 1, 0), ("player wins", 1, 1), ("push", 0, 0),
          ("dealer wins", -1, -1))


def check_rules(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The ``[rules]`` table checked, defaults filled in."""
    return check_settings(raw, {"dealer_qualifies": ("queen high", qualifier("three")),
                                "play_bet": (1, multiple)})


def point_options(game: Game) -> dict[str, tuple[str, ...]]:
    """Each decision point's options, in tie-break order."""
    return {POINT: OPTIONS}


def table_specs(rules: Mapping[str, Any]) -> dict[str, TableSpec]:
    """One optional table: the ante bonus (no line: no bonus)."""
    return {"ante bonus": TableSpec("three", required=False, otherwise=Fraction(0))}


@functools.cache
def _tables() -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """(hands uint8[22100, 3], score per hand, cumulative score counts of the hands containing
    each 0-, 1- and 2-card subset): what every pay table shares."""
    t = three_card_table()
    hands = colex_hands(HAND_CARDS)
    score = t.score.astype(np.int64)
    n = t.ranking.n_scores + 1
    cums = [cumulative(superset_counts(hands, score, n, size)) for size in range(HAND_CARDS)]
    return hands, score, cums


def dealer_below(hands: np.ndarray, score: np.ndarray, s: np.ndarray) -> np.ndarray:
    """For each player hand (rows of ``hands``, its score in ``score``) the number of dealer
    hands from the other 49 cards with a score below ``s`` (per row), by inclusion–exclusion."""
    _, _, cums = _tables()
    s = np.broadcast_to(np.asarray(s, np.int64), score.shape)
    out = np.full(score.shape, 0, np.int64)
    for size in range(HAND_CARDS):
        sign = -1 if size % 2 else 1
        for idx in subsets_of(hands, size) if size else [np.zeros(len(score), np.int64)]:
            out += sign * cums[size][idx, s]
    return out - (score < s)


def outcome_counts(game: Game, hands: np.ndarray, score: np.ndarray) -> np.ndarray:
    """int64[n, 4]: per player hand the dealer hands ending each way of :data:`EVENTS`."""
    q = qualifier_score(three_card_table().ranking, game.rules["dealer_qualifies"])
    nq = dealer_below(hands, score, np.int64(q))
    lt = dealer_below(hands, score, score)
    le = dealer_below(hands, score, score + 1)
    above = score >= q
    win = np.where(above, lt - nq, 0)
    tie = np.where(above, le - lt, 0)
    return np.stack([nq, win, tie, DEALER_HANDS - nq - win - tie], axis=1)


def _bonus(game: Game) -> tuple[np.ndarray, list[Fraction], list[str]]:
    """(bonus line of every score, pay of each line then 0, labels) of the ante bonus."""
    t = three_card_table().ranking
    table = game.tables.get("ante bonus")
    if table is None:
        return np.zeros(t.n_scores + 1, np.int64), [Fraction(0)], [""]
    return table.line_of_score(), table.amounts(), [ln.label for ln in table.lines] + [""]


def point_of(game: Game, hands: np.ndarray, score: np.ndarray) -> tuple[DecisionPoint, np.ndarray]:
    """The decision point of these hands (exact EVs of fold and play) and their outcome counts."""
    counts = outcome_counts(game, hands, score)
    line, pays, _ = _bonus(game)
    scale = game.pay_scale()
    pb = game.rules["play_bet"]
    scale = scale * pb.denominator
    units = np.array([int(Fraction(a) * scale + Fraction(p) * pb * scale) for _, a, p in EVENTS], np.int64)
    bonus = np.array([int(p * scale) for p in pays], np.int64)[line[score]]
    ev = np.empty((len(score), 2), np.int64)
    ev[:, FOLD] = -DEALER_HANDS * scale
    ev[:, PLAY] = counts @ units + DEALER_HANDS * bonus
    return DecisionPoint(POINT, OPTIONS, LAYOUT, hands, np.ones(len(score), np.int64), ev,
                         DEALER_HANDS * scale), counts


def analyze(game: Game, strategy: PlayerStrategy | None = None) -> CasinoAnalysis:
    """The exact analysis over all 22,100 x 18,424 deals (optimal play unless ``strategy``)."""
    hands, score, _ = _tables()
    point, counts = point_of(game, hands, score)
    choose = (strategy.choose.get(POINT, optimal) if strategy else optimal)
    plays = choose(point) == PLAY
    line, pays, labels = _bonus(game)
    pb = game.rules["play_bet"]
    rows: list[tuple[str, Fraction, Fraction]] = [("fold", Fraction(-1), Fraction(1))]
    n = [int((~plays).sum()) * DEALER_HANDS]
    hand_line = line[score]
    for i, (pay, label) in enumerate(zip(pays, labels)):
        mine = plays & (hand_line == i)
        sums = counts[mine].sum(axis=0)
        for (event, a, p), c in zip(EVENTS, sums):
            rows.append((f"{event}, {label} bonus" if label else event, a + p * pb + pay, 1 + pb))
            n.append(int(c))
    return CasinoAnalysis(game.slug, game.name, FAMILY, len(score) * DEALER_HANDS,
                          rows_from_counts(rows, n), (point,), strategy.name if strategy else "optimal",
                          BASE_BET)


def hand_text(score: int) -> str:
    """A three-card hand value as a player says it: ``Q-6-4``, ``pair of 5s``, ``flush K-9-4``."""
    rk = three_card_table().ranking
    cat = rk.categories[int(rk.category[score])]
    ranks = "-".join(RANKS[r] for r in rk.ranks[score])
    if cat == "high card":
        return ranks
    if cat == "pair":
        return f"pair of {RANKS[int(rk.ranks[score][0])]}s"
    return f"{cat} {ranks}"


def _threshold_strategy(name: str, t: int, why: str) -> PlayerStrategy:
    hands, score, _ = _tables()
    rule = (f"play {hand_text(t)} or better, fold worse" if t > 1 else "play every hand")
    return PlayerStrategy(name, (rule, why), {POINT: lambda p: (score >= t).astype(np.uint8)})


def strategies(game: Game) -> tuple[PlayerStrategy, ...]:
    """The best "play X or better" rule (Q-6-4 for the usual tables: found, not assumed), then
    "mimic the dealer" and "play everything"; each scored exactly by :func:`analyze`."""
    hands, score, _ = _tables()
    point, _ = point_of(game, hands, score)
    gain = point.ev_num[:, PLAY] - point.ev_num[:, FOLD]
    per = np.zeros(three_card_table().ranking.n_scores + 2, np.int64)
    np.add.at(per, score, gain)
    suffix = np.cumsum(per[::-1])[::-1]  # gain of playing every hand with a score >= t
    t = int(np.argmax(suffix[1:]) + 1) if suffix[1:].max() > 0 else len(per) - 1
    q = qualifier_score(three_card_table().ranking, game.rules["dealer_qualifies"])
    return (_threshold_strategy("threshold", t, "the best one-threshold rule for this pay table"),
            _threshold_strategy("mimic the dealer", q, "play what would qualify for the dealer"),
            _threshold_strategy("play everything", 1, "never fold"))


def decision_state(game: Game, cards: list[list[int]]) -> tuple[str, dict[str, int]]:
    """Three cards (one group) are the play-or-fold decision."""
    flat = [c for g in cards for c in g]
    if len(flat) != HAND_CARDS:
        raise InputError(f"{game.name}: a hand is the player's three cards, got {len(flat)}")
    return POINT, {}


def grade_state(game: Game, point: str, cards: list[list[int]], context: Mapping[str, int],
                artifacts: Path | None = None) -> list[Fraction]:
    """Exact EVs of fold and play for one three-card hand."""
    hand = np.array([sorted(c for g in cards for c in g)], np.uint8)
    score = three_card_table().score[colex(hand)].astype(np.int64)
    p, _ = point_of(game, hand, score)
    return [p.ev_exact(0, o) for o in range(len(OPTIONS))]
