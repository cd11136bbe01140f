"""How the trainer finds the line of a game's strategy chart that decides a deal ("line 12 of the
chart: 4 to a flush"): the chart indexed by deal class.

A deal's suit class is found by its canonical colex index, the hold the chart picks for that class
gives a hold pattern, and the pattern belongs to exactly one line (a lookup costs microseconds;
:func:`pipeline.answers.vp_chart.chart_line` looks up, with the chart ``vp chart`` shows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pipeline.videopoker.solver.holds import DRAW_FIVE

if TYPE_CHECKING:
    from pipeline.videopoker.charts.chart import Chart, StrategyData
    from pipeline.videopoker.charts.patterns import GameTraits


@dataclass(frozen=True)
class ChartIndex:
    """A game's chart and what finding a deal's line needs: class keys, the chart's hold per
    class, each class's cards and own pay category, the line of each hold pattern."""

    lines: tuple[str, ...]
    index5: np.ndarray
    holds: np.ndarray
    hands: np.ndarray
    deal_cat: np.ndarray
    line_of: dict[int, int]
    traits: GameTraits


def players_words(text: str) -> str:
    """A chart line's text with the one name of the hold that keeps no card."""
    return DRAW_FIVE if text == "discard everything" else text


def make_index(data: StrategyData, made: Chart) -> ChartIndex:
    """The lookup index of ``made``, a chart of the game of ``data``."""
    from pipeline.videopoker.charts.patterns import game_traits
    from pipeline.videopoker.solver.deals import canonical_index

    index5 = canonical_index(data.hands)
    order = np.argsort(index5)
    line_of = {code: i for i, ln in enumerate(made.lines) for code in ln.codes}
    return ChartIndex(tuple(players_words(ln.text) for ln in made.lines), index5[order],
                      made.holds[order], data.hands[order], np.asarray(data.deal_cat)[order], line_of,
                      game_traits(data.paytable))


__all__ = ["ChartIndex", "make_index", "players_words"]
