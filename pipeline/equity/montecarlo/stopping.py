"""When Monte Carlo stops: the default sample count and the checked stopping rules (a sample
count, a target standard error or a time limit). Kept apart from the kernels (imports no
numba), so a question answered from a table checks its arguments without loading them."""

from __future__ import annotations

import math

from pipeline.core.constants import MAX_SAMPLES
from pipeline.errors import InputError, clip

#: Default Monte Carlo sample count: shares lie in [0, 1] so a seat's variance is <= 1/4 and
#: 0.5 / sqrt(300,000) < 0.1 percentage point.
DEFAULT_SAMPLES = 300_000
#: Bounds of the stopping rules: a target standard error below MIN_STDERR would need more than
#: MAX_SAMPLES deals for any seat near 50 %; MAX_SECONDS is one hour.
MIN_STDERR = 1e-5
MAX_STDERR = 0.5
MAX_SECONDS = 3600.0
#: Seeds are below this: a seed is a non-negative int64 in the kernels.
SEED_LIMIT = 2 ** 63


def check_stop_rule(samples: int | None, stderr: float | None, time_limit: float | None) -> None:
    """:class:`InputError` unless at most one rule is given and it is a finite number in range
    (the one check every Monte Carlo door uses, hold'em and Omaha alike)."""
    if sum(v is not None for v in (samples, stderr, time_limit)) > 1:
        raise InputError("choose one of --samples, --stderr and --time")
    if samples is not None and (isinstance(samples, bool) or not 1 <= samples <= MAX_SAMPLES):
        raise InputError(f"--samples must be 1 .. {MAX_SAMPLES:,}, got {clip(str(samples))}")
    if stderr is not None and not (math.isfinite(stderr) and MIN_STDERR <= stderr <= MAX_STDERR):
        raise InputError(f"--stderr must be a number from {MIN_STDERR:g} to {MAX_STDERR:g}, got "
                         f"{clip(str(stderr))} (below {MIN_STDERR:g} needs over {MAX_SAMPLES:,} deals)")
    if time_limit is not None and not (math.isfinite(time_limit) and 0 < time_limit <= MAX_SECONDS):
        raise InputError(f"--time must be more than 0 and at most {MAX_SECONDS:g} seconds, got "
                         f"{clip(str(time_limit))}")


def check_method(exact: bool | None, samples: int | None, stderr: float | None,
                 time_limit: float | None, seed: int | None) -> bool:
    """:func:`check_stop_rule`, the seed's range and that ``exact`` is not asked together with
    a Monte Carlo rule (:class:`InputError` naming the bad value); whether a rule was given."""
    check_stop_rule(samples, stderr, time_limit)
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise InputError(f"--seed must be 0 .. 2^63-1, got {clip(str(seed))}")
    mc_asked = samples is not None or stderr is not None or time_limit is not None
    if exact and mc_asked:
        raise InputError("choose either --exact or Monte Carlo (--samples/--stderr/--time)")
    return mc_asked
