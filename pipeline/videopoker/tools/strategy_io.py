"""Strategy arrays for charts and cross-play: from a built artifact or computed now; the chart's
export (``strategy/chart_hold``); one game's strategy played on another game's paytable.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.errors import InputError
from pipeline.videopoker.catalog.paytable_file import current_artifact, read_chart_parts, read_strategy_data
from pipeline.videopoker.charts.chart import (
    CHART_COST_TARGET,
    CHART_LINE_STEP,
    DEFAULT_MAX_LINES,
    MAX_EXPORT_LINES,
    Chart,
    ChartLine,
    StrategyData,
    chart_maker,
    derive_chart,
    exact_return,
)
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.solver.analysis import Analysis, analyze
from pipeline.videopoker.solver.deals import DealClasses, deal_classes

CHART_HOLD_MEANING = ("hold mask the derived strategy chart picks (bit t = keep the t-th card of "
                      "the deal in ascending card id order); weight x ev[chart_hold] summed over "
                      "the classes / C(deck, 5) = the chart's exact return")


def strategy_data_of(a: Analysis) -> StrategyData:
    """Chart inputs from a fresh analysis."""
    cls = a.classes
    return StrategyData(a.paytable, cls.hands, cls.weight, a.ev, a.best,
                        a.pay_category[cls.index5])


def strategy_data(pt: Paytable, artifacts: Path, classes: DealClasses | None = None
                  ) -> tuple[StrategyData, str]:
    """(chart inputs, where they came from): the current artifact, else an analysis now."""
    art = current_artifact(pt, artifacts)
    if art is not None:
        return read_strategy_data(pt, art), f"artifact {art}"
    a = analyze(pt, classes if classes is not None else deal_classes(pt.deck_size))
    return strategy_data_of(a), "computed now (no current artifact)"


def read_chart(data: StrategyData, path: Path) -> Chart | None:
    """The chart the build exported into ``path`` (None if absent), judged exactly again from
    ``strategy/ev`` and ``strategy/chart_hold``."""
    stored = read_chart_parts(path)
    if stored is None:
        return None
    holds, rows, patterns, written = stored
    lines = [ChartLine(x["text"], list(x["codes"]), int(x["classes"]), int(x["deals"]),
                       float(x["loss"])) for x in rows]
    pt = data.paytable
    ret = exact_return(data.ev, data.weight, holds, pt)
    if ret != written:
        return None
    opt = exact_return(data.ev, data.weight, data.best, pt)
    return Chart(pt.name, lines, holds, ret, opt, 0.0, patterns)


def default_chart(data: StrategyData) -> Chart:
    """The chart the build exports: ``DEFAULT_MAX_LINES`` lines, or more (up to
    ``MAX_EXPORT_LINES``) where a game needs them to cost at most ``CHART_COST_TARGET``
    (wild games such as Double Joker need about 60)."""
    lines = DEFAULT_MAX_LINES
    make = chart_maker(data)   # the line counts tried share the search's start
    chart = make(lines)
    while chart.cost > CHART_COST_TARGET and lines < MAX_EXPORT_LINES:
        lines += CHART_LINE_STEP
        chart = make(lines)
    return chart


def cross_play(strategy: StrategyData, target: StrategyData, use_chart: bool = False
               ) -> dict[str, Any]:
    """Exact return on ``target``'s paytable of the holds ``strategy``'s game plays.

    The holds are game A's optimal holds (or its chart's); their EVs are B's. Both games must
    use the same deck, so the deal classes and hold masks mean the same cards.
    """
    a_pt, b_pt = strategy.paytable, target.paytable
    if a_pt.deck_size != b_pt.deck_size:
        raise InputError("{strategy} {a} uses a {a_n}-card deck, {b} a {b_n}-card deck: holds "
                         "cannot be transferred", "strategy", a=a_pt.name, a_n=a_pt.deck_size,
                         b=b_pt.name, b_n=b_pt.deck_size)
    if not np.array_equal(strategy.hands, target.hands):
        raise InputError("the two games' deal classes differ; rebuild both artifacts")
    holds = derive_chart(strategy, DEFAULT_MAX_LINES).holds if use_chart else strategy.best
    played = exact_return(target.ev, target.weight, holds, b_pt)
    optimal = exact_return(target.ev, target.weight, target.best, b_pt)
    cost = optimal - played
    differ = holds != target.best
    return {"paytable": b_pt.name, "strategy": a_pt.name + (" (chart)" if use_chart else ""),
            "return": float(played), "return_exact": _frac(played),
            "optimal_return": float(optimal), "optimal_return_exact": _frac(optimal),
            "cost": float(cost), "cost_exact": _frac(cost),
            "classes_played_differently": int(differ.sum()),
            "deals_played_differently": int(target.weight[differ].sum())}


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"
