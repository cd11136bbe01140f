"""Columns of the exact range counters' sums (a module without numba, so the numpy-only paths
can name them): per seat win, tie, lose and pot share numerator (units of 1/SHARE_SCALE); per
hand of a seat split by hand also the deals."""

from __future__ import annotations

WIN, TIE, LOSE, SHARE, DEALS = range(5)
#: Columns of a per-hand row.
HAND_COLUMNS = DEALS + 1

__all__ = ["DEALS", "HAND_COLUMNS", "LOSE", "SHARE", "TIE", "WIN"]
