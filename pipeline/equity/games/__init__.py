"""Poker games other than hold'em, on the same question and result types: :mod:`.spec` (the
games), :mod:`.evaluate` (hand scores), :mod:`.kernels` (exact and Monte Carlo), :mod:`.ranges`
(Omaha ranges), :mod:`.equity` (the front door the planner calls); :mod:`.omaha` batch-scores
Omaha hands against the five-card table."""
