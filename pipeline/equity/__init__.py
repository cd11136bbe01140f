"""Hold'em and Omaha win probabilities: spots and ranges, exact counting, Monte Carlo, suit
symmetry, the all-hands kernels behind the preflop tables, and every-seat equity: one
:class:`Question`, one planner (:func:`solve`), one :class:`Answer`.

The names below load lazily (:mod:`pipeline.core.lazy`): importing one sub-module (a table
reader, the range parser) does not import the engine and its numba kernels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.core.constants import MAX_OPPONENTS
from pipeline.core.lazy import lazy_exports

if TYPE_CHECKING:
    from pipeline.equity.engine import equity_seats
    from pipeline.equity.exact.count import exact_cost
    from pipeline.equity.games.omaha import score_omaha
    from pipeline.equity.hand_api import DEFAULT_SAMPLES, equity, omaha_equity
    from pipeline.equity.planner import solve
    from pipeline.equity.question import Budget, Question
    from pipeline.equity.ranges.parse import Range, parse_range
    from pipeline.equity.spots.answer import Answer, EquityResult, Method, SeatRow
    from pipeline.equity.spots.spot import Spot

#: public name -> "module:attribute" it is loaded from on first use (read by the stage-key walk)
_EXPORTS = {
    "equity_seats": "pipeline.equity.engine:equity_seats",
    "exact_cost": "pipeline.equity.exact.count:exact_cost",
    "omaha_equity": "pipeline.equity.hand_api:omaha_equity",
    "score_omaha": "pipeline.equity.games.omaha:score_omaha",
    "DEFAULT_SAMPLES": "pipeline.equity.hand_api:DEFAULT_SAMPLES",
    "equity": "pipeline.equity.hand_api:equity",
    "Range": "pipeline.equity.ranges.parse:Range",
    "parse_range": "pipeline.equity.ranges.parse:parse_range",
    "Spot": "pipeline.equity.spots.spot:Spot",
    "Answer": "pipeline.equity.spots.answer:Answer",
    "EquityResult": "pipeline.equity.spots.answer:EquityResult",
    "Method": "pipeline.equity.spots.answer:Method",
    "SeatRow": "pipeline.equity.spots.answer:SeatRow",
    "Budget": "pipeline.equity.question:Budget",
    "Question": "pipeline.equity.question:Question",
    "solve": "pipeline.equity.planner:solve",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

__all__ = ["DEFAULT_SAMPLES", "MAX_OPPONENTS", "Answer", "Budget", "EquityResult", "Method",
           "Question", "SeatRow", "Spot", "equity", "exact_cost", "omaha_equity", "score_omaha",
           "Range", "parse_range", "equity_seats", "solve"]
