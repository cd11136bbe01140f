"""Hold'em and Omaha win probabilities: spots and ranges, exact counting, Monte Carlo, suit
symmetry, the all-hands kernels behind the preflop tables, and every-seat equity.
"""

from pipeline.core.constants import MAX_OPPONENTS
from pipeline.equity.engine import equity_seats
from pipeline.equity.exact.count import exact_cost
from pipeline.equity.games.omaha import omaha_equity, score_omaha
from pipeline.equity.hand_api import DEFAULT_SAMPLES, equity
from pipeline.equity.ranges.parse import Range, parse_range
from pipeline.equity.spots.question import Spot, make_spot
from pipeline.equity.spots.result import EquityResult

__all__ = ["DEFAULT_SAMPLES", "MAX_OPPONENTS", "EquityResult", "Spot", "equity", "exact_cost",
           "make_spot", "omaha_equity", "score_omaha", "Range", "parse_range", "equity_seats"]
