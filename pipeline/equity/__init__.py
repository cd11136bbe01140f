"""Hold'em and Omaha win probabilities: spots, exact counting, Monte Carlo, suit symmetry and
the all-hands kernels behind the preflop tables.
"""

from pipeline.equity.engine import DEFAULT_SAMPLES, MAX_OPPONENTS, EquityResult, Spot, equity, exact_cost, make_spot
from pipeline.equity.omaha import omaha_equity, score_omaha

__all__ = ["DEFAULT_SAMPLES", "MAX_OPPONENTS", "EquityResult", "Spot", "equity", "exact_cost", "make_spot",
           "omaha_equity", "score_omaha"]
