"""Hold'em and Omaha win probabilities: spots and ranges, exact counting, Monte Carlo, suit
symmetry, the all-hands kernels behind the preflop tables, and every-seat equity.

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
    from pipeline.equity.games.omaha import omaha_equity, score_omaha
    from pipeline.equity.hand_api import DEFAULT_SAMPLES, equity
    from pipeline.equity.ranges.parse import Range, parse_range
    from pipeline.equity.spots.question import Spot, make_spot
    from pipeline.equity.spots.result import EquityResult

#: public name -> "module:attribute" it is loaded from on first use (read by the stage-key walk)
_EXPORTS = {
    "equity_seats": "pipeline.equity.engine:equity_seats",
    "exact_cost": "pipeline.equity.exact.count:exact_cost",
    "omaha_equity": "pipeline.equity.games.omaha:omaha_equity",
    "score_omaha": "pipeline.equity.games.omaha:score_omaha",
    "DEFAULT_SAMPLES": "pipeline.equity.hand_api:DEFAULT_SAMPLES",
    "equity": "pipeline.equity.hand_api:equity",
    "Range": "pipeline.equity.ranges.parse:Range",
    "parse_range": "pipeline.equity.ranges.parse:parse_range",
    "Spot": "pipeline.equity.spots.question:Spot",
    "make_spot": "pipeline.equity.spots.question:make_spot",
    "EquityResult": "pipeline.equity.spots.result:EquityResult",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

__all__ = ["DEFAULT_SAMPLES", "MAX_OPPONENTS", "EquityResult", "Spot", "equity", "exact_cost",
           "make_spot", "omaha_equity", "score_omaha", "Range", "parse_range", "equity_seats"]
