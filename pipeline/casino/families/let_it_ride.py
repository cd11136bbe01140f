"""Family ``let-it-ride``: Let It Ride.

Three equal bets; the player sees three cards and may take back bet 1 ("pull") or let it ride;
the first of two community cards is shown and he may take back bet 2; bet 3 always stays. The
bets still out are paid on the final five cards by table ``pays`` (a hand on no line loses
them). House edge per unit of one bet.

Method: the deals are the 22,100 three-card hands x 49 first community cards x 48 second
(51,979,200; the community cards' order matters, the player's own does not). Bet 2's decision
is worth ``max(0, E[pay | four cards])``, bet 1's ``max(0, E[pay | three cards])``, bet 3 is
``E[pay]``; the expectations come from the video-poker subset counts (five-card hands holding
each 3- and 4-card subset, by pay line), so every EV is an exact integer numerator.

Decision points: ``bet 1`` (the three cards; EVs of all three bets, optimal later) and
``bet 2`` (the four cards; EVs of bets 2 and 3, bet 1 being settled by then).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.casino.draws import TEN, line_counts, spread, subset_rows, suited
from pipeline.casino.family import PlayerStrategy, optimal
from pipeline.casino.game import Game, TableSpec
from pipeline.casino.result import CasinoAnalysis, DecisionPoint, rows_from_counts
from pipeline.casino.settings import check_settings
from pipeline.casino.subsets import colex, colex_hands, supersets
from pipeline.errors import InputError

FAMILY = "let-it-ride"
#: the card groups dealt at the first decision (the trainer deals these)
FIRST_DEAL = (3,)
BASE_BET = "one bet"
BET1, BET2 = "bet 1", "bet 2"
OPTIONS = ("pull", "ride")
PULL, RIDE = 0, 1
#: completions of three cards (two more) and of four (one more)
AFTER3, AFTER4 = 1_176, 48
#: first community cards after three player cards
FIRST_CARDS = 49
LAYOUTS = {BET1: "the player's three cards",
           BET2: "the player's three cards and the first community card (ascending)"}


def check_rules(raw: Mapping[str, Any]) -> dict[str, Any]:
    """No settings: the rules are the pay table."""
    return check_settings(raw, {})


def point_options(game: Game) -> dict[str, tuple[str, ...]]:
    """Each decision point's options, in tie-break order."""
    return {BET1: OPTIONS, BET2: OPTIONS}


def table_specs(rules: Mapping[str, Any]) -> dict[str, TableSpec]:
    """One table, ``pays``, on the final five cards; a hand on no line loses."""
    return {"pays": TableSpec("five")}


def _solve(game: Game, strategy: PlayerStrategy | None) -> tuple[DecisionPoint, DecisionPoint, np.ndarray,
                                                                    np.ndarray, np.ndarray]:
    """(bet 1 point, bet 2 point, bet 1 choice, bet 2 choice, counts of the 4-card sets)."""
    table = game.tables["pays"]
    scale = game.pay_scale()
    units = np.array([int(p * scale) for p in table.amounts()], np.int64)
    c = line_counts(table)
    v3, v4 = c[3].astype(np.int64) @ units, c[4].astype(np.int64) @ units
    choose = dict(strategy.choose) if strategy else {}
    p2 = DecisionPoint(BET2, OPTIONS, LAYOUTS[BET2], colex_hands(4), np.ones(len(v4), np.int64),
                       np.stack([v4, 2 * v4], axis=1), AFTER4 * scale)
    r2 = choose.get(BET2, optimal)(p2).astype(bool)
    s3 = np.where(r2, v4, 0)[supersets(3)].sum(axis=1)  # bet 2 over every first community card
    # over AFTER3 * 2 = FIRST_CARDS * AFTER4 completions: bet 3 (and bet 1 if it rides) + bet 2
    p1 = DecisionPoint(BET1, OPTIONS, LAYOUTS[BET1], colex_hands(3), np.ones(len(v3), np.int64),
                       np.stack([2 * v3 + s3, 4 * v3 + s3], axis=1), FIRST_CARDS * AFTER4 * scale)
    r1 = choose.get(BET1, optimal)(p1).astype(bool)
    return p1, p2, r1, r2, c[4].astype(np.int64)


def analyze(game: Game, strategy: PlayerStrategy | None = None) -> CasinoAnalysis:
    """The exact analysis over all 51,979,200 deals (optimal play unless ``strategy``)."""
    p1, p2, r1, r2, c4 = _solve(game, strategy)
    riding1 = np.zeros(len(r2), np.int64)  # of each 4-card set's 3-card subsets, how many ride bet 1
    for idx in subset_rows(3):
        riding1 += r1[idx]
    by_bets = np.zeros((4, c4.shape[1]), np.int64)  # [bets out, pay line]
    for ride2 in (False, True):
        mine = r2 == ride2
        by_bets[2 + ride2] += riding1[mine] @ c4[mine]
        by_bets[1 + ride2] += (4 - riding1[mine]) @ c4[mine]
    table = game.tables["pays"]
    labels, counts = [], []
    for bets in (3, 2, 1):
        for li, (line, pay) in enumerate(zip(table.labels(), table.amounts())):
            name = "loses" if line == "otherwise" else line
            labels.append((f"{name}, {bets} bet{'s' * (bets > 1)}", pay * bets, Fraction(bets)))
            counts.append(int(by_bets[bets, li]))
    return CasinoAnalysis(game.slug, game.name, FAMILY, 22_100 * FIRST_CARDS * AFTER4,
                          rows_from_counts(labels, counts), (p1, p2), strategy.name if strategy else "optimal",
                          BASE_BET)


def _ranks(cards: np.ndarray) -> np.ndarray:
    return cards.astype(np.int64) >> 2


def _paying(cards: np.ndarray) -> np.ndarray:
    """Holds a pair of tens or better, or more than one pair of ranks (two pair, trips, quads)."""
    r = np.sort(_ranks(cards), axis=1)
    same = r[:, 1:] == r[:, :-1]
    high_pair = (same & (r[:, 1:] >= TEN)).any(axis=1)
    return high_pair | (same.sum(axis=1) >= 2)


def _bet1_rule(point: DecisionPoint) -> np.ndarray:
    cards = point.cards
    r = _ranks(cards)
    distinct, width, ace_low = spread(r)
    high = (r >= TEN).sum(axis=1) - ace_low  # an ace playing low is no high card
    sf = suited(cards) & distinct
    low_run = np.isin(np.sort(r, axis=1), [[0, 1, 2], [0, 1, 12]]).all(axis=1)
    ride = _paying(cards) | (sf & (r >= TEN).all(axis=1)) | (sf & (width == 3) & ~low_run)
    ride |= sf & (width == 4) & (high >= 1)
    ride |= sf & (width == 5) & (high >= 2)
    return ride.astype(np.uint8)


def _bet2_rule(point: DecisionPoint) -> np.ndarray:
    cards = point.cards
    r = _ranks(cards)
    distinct = spread(r)[0]
    low = np.sort(r, axis=1)
    outside = distinct & (low[:, 3] - low[:, 0] == 3) & (low[:, 0] >= 0) & (low[:, 3] <= 11)
    inside_high = distinct & (r >= TEN).all(axis=1)
    ride = _paying(cards) | suited(cards) | outside | inside_high
    return ride.astype(np.uint8)


def strategies(game: Game) -> tuple[PlayerStrategy, ...]:
    """The published rule lists for the usual pay table (each scored exactly: their cost is 0
    exactly when they are the optimal strategy)."""
    rules = (
        "bet 1 (three cards), let it ride with: a pair of tens or better, or three of a kind; three "
        "to a royal flush; three suited in a row except 2-3-4 and A-2-3; three to a straight flush "
        "with one gap and at least one ten or better (an ace playing low is no high card: A-2-4 "
        "and A-3-4 are taken back); with two gaps and at least two tens or better",
        "bet 2 (four cards), let it ride with: a paying hand (tens or better, two pair, three of a "
        "kind); four to a flush; four to an outside straight (2-3-4-5 to 10-J-Q-K); four to an "
        "inside straight with four tens or better",
        "otherwise take the bet back")
    return (PlayerStrategy("rules", rules, {BET1: _bet1_rule, BET2: _bet2_rule}),)


def decision_state(game: Game, cards: list[list[int]]) -> tuple[str, dict[str, int]]:
    """Three cards: bet 1; four (three and the first community card): bet 2."""
    n = sum(len(g) for g in cards)
    if n == 3:
        return BET1, {}
    if n == 4:
        return BET2, {}
    raise InputError(f"{game.name}: a hand is three cards (bet 1) or four (bet 2: yours | the "
                     f"first community card), got {n}")


def grade_state(game: Game, point: str, cards: list[list[int]], context: Mapping[str, int],
                artifacts: Path | None = None) -> list[Fraction]:
    """Exact EVs of pulling and riding at this hand's decision point."""
    p1, p2, _, _, _ = _solve(game, None)
    p = p1 if point == BET1 else p2
    row = int(colex(np.array([sorted(c for g in cards for c in g)]))[0])
    return [p.ev_exact(row, o) for o in range(len(OPTIONS))]
