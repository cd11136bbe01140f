"""The Monte Carlo sample count when no stopping rule is given. Kept apart from the kernels
(imports no numba), so a door can name it without loading them; the stopping rules themselves
are checked with the question (:class:`pipeline.equity.question.Budget`)."""

from __future__ import annotations

#: Default Monte Carlo sample count: shares lie in [0, 1] so a seat's variance is <= 1/4 and
#: 0.5 / sqrt(300,000) < 0.1 percentage point.
DEFAULT_SAMPLES = 300_000

__all__ = ["DEFAULT_SAMPLES"]
