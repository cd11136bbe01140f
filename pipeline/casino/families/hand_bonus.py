"""Family ``hand-bonus``: a side bet paid on the best hand of N cards dealt at random, with no
decision: Three Card Poker's Pair Plus (N = 3, three-card ranking) and 6-card bonus (the best
five of the player's and the dealer's six), Let It Ride's 3-card bonus, Caribbean Stud's
progressive (N = 5, lines paying shares of a meter), Ultimate Texas Hold'em's Trips (N = 7).

Rules (``[rules]``): ``cards`` (3, 5, 6 or 7; default 3), ``pays`` (``"to one"``, the default:
a winning line returns the bet plus the pay; ``"for one"``: the pay includes the bet, as
progressive tables are written). Table ``pays``: a hand on no line loses the bet.

Method: the exact number of N-card hands of every score (three cards: all 22,100 scored;
five: all 2,598,960; six and seven: the best-five score counts of every 6- and 7-card hand,
:func:`pipeline.casino.hands.score_counts`), summed by pay line.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.casino.family import PlayerStrategy
from pipeline.casino.game import Game, TableSpec
from pipeline.casino.hands import score_counts, three_card_table
from pipeline.casino.result import CasinoAnalysis, rows_from_counts
from pipeline.casino.settings import check_settings, choice
from pipeline.errors import InputError

FAMILY = "hand-bonus"
BASE_BET = "side bet"
HAND_SIZES = (3, 5, 6, 7)


def _cards(v: object) -> int:
    if isinstance(v, bool) or v not in HAND_SIZES:
        raise ValueError(f"must be one of {', '.join(map(str, HAND_SIZES))}")
    return int(v)


def check_rules(raw: Mapping[str, Any]) -> dict[str, Any]:
    """``cards`` and the ``pays`` basis, checked."""
    return check_settings(raw, {"cards": (3, _cards), "pays": ("to one", choice("to one", "for one"))})


def point_options(game: Game) -> dict[str, tuple[str, ...]]:
    """Each decision point's options, in tie-break order."""
    return {}


def table_specs(rules: Mapping[str, Any]) -> dict[str, TableSpec]:
    """One table, ``pays``, on the three-card ranking for three cards, else the five-card one."""
    return {"pays": TableSpec("three" if rules["cards"] == 3 else "five", meter=True)}


def hand_counts(cards: int) -> np.ndarray:
    """int64[n_scores + 1]: how many hands of ``cards`` cards have each (best-five) score."""
    if cards == 3:
        t = three_card_table()
        return np.bincount(t.score, minlength=t.ranking.n_scores + 1).astype(np.int64)
    return score_counts(cards)


def analyze(game: Game, strategy: PlayerStrategy | None = None) -> CasinoAnalysis:
    """The exact return over all C(52, N) hands (no decision: ``strategy`` changes nothing)."""
    n = game.rules["cards"]
    table = game.tables["pays"]
    counts = np.zeros(len(table.lines) + 1, np.int64)
    np.add.at(counts, table.line_of_score(), hand_counts(n))
    stake = Fraction(1) if game.rules["pays"] == "for one" else Fraction(0)
    labels = [(ln.label, ln.amount(game.meter) - stake, Fraction(1)) for ln in table.lines]
    labels.append(("loses", Fraction(-1), Fraction(1)))
    return CasinoAnalysis(game.slug, game.name, FAMILY, comb(52, n), rows_from_counts(labels, counts.tolist()),
                          (), "optimal", BASE_BET)


def strategies(game: Game) -> tuple[PlayerStrategy, ...]:
    """A side bet has no decision: nothing to simplify."""
    return ()


def decision_state(game: Game, cards: list[list[int]]) -> tuple[str, dict[str, int]]:
    """A side bet has no decision to grade."""
    raise InputError(f"{game.name} is a side bet without decisions: nothing to grade")


def grade_state(game: Game, point: str, cards: list[list[int]], context: Mapping[str, int],
                artifacts: Path | None = None) -> list[Fraction]:
    """A side bet has no decision to grade."""
    raise InputError(f"{game.name} is a side bet without decisions: nothing to grade")
