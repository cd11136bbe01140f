"""Outcomes of the exact range walk with a counted last seat (:mod:`pipeline.equity.exact.ranges`).

For each assignment of the walked seats the kernel knows how many of the last seat's hands
score below, level with and above the walked seats' best, and which walked seats hold that
best (a bit mask). Seats' wins, ties, losses and pot shares follow from those counts: a walked
seat holding the best loses to the hands above, splits with the level ones and wins (or splits
within the mask) against the ones below; a walked seat below the best loses them all; the last
seat wins above, splits level and loses below. So the kernel tallies counts per mask
(:func:`tally`) and turns them into per-seat sums once per chunk (:func:`resolve`); per hand of
one walked seat it adds each assignment's outcome directly (:func:`per_hand`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.bits import ctpop64
from pipeline.core.constants import SHARE_SCALE
from pipeline.equity.exact.columns import DEALS, LOSE, SHARE, TIE, WIN


@nb.njit(cache=True, inline="always")
def tally(hb_i: np.ndarray, hb_f: np.ndarray, m: int, c_lo: int, c_le: int, c_all: int,
          weighted: bool, wo: float, w_lo: float, w_le: float, w_all: float) -> None:
    """Add one assignment's counted-seat hands below / level / above to the tallies of ``m``."""
    hb_i[m, 0] += c_lo
    hb_i[m, 1] += c_le - c_lo
    hb_i[m, 2] += c_all - c_le
    if weighted:
        hb_f[m, 0] += wo * w_lo
        hb_f[m, 1] += wo * (w_le - w_lo)
        hb_f[m, 2] += wo * (w_all - w_le)


@nb.njit(cache=True, inline="always")
def per_hand(hi: np.ndarray, hf: np.ndarray, ch: int, row: int, at_best: int, n_best: int,
             wb: int, c_lo: int, c_le: int, c_all: int, wo: float, w_lo: float, w_le: float,
             w_all: float) -> None:
    """One assignment's outcome for hand ``row`` of the seat split by hand, in chunk ``ch``'s
    rows of ``hi``/``hf`` (columns ``WIN`` .. ``DEALS``), from the counted seat's hands below
    (``c_lo``), at most level (``c_le``) and all, times the board weight ``wb`` (and ``wo``
    times their weights)."""
    # one exit writing every column: a return per branch would leave reference counts of the
    # arrays in the caller's loop (tests/test_codegen.py)
    won = WIN if n_best == 1 else TIE
    tie_sh = SHARE_SCALE // (n_best + 1) if at_best else 0
    sh = SHARE_SCALE // n_best if at_best else 0
    lo, eq, hi_n = (c_lo, c_le - c_lo, c_all - c_le) if at_best else (0, 0, c_all)
    w_lo_, w_eq, w_hi = (w_lo, w_le - w_lo, w_all - w_le) if at_best else (0.0, 0.0, w_all)
    hi[ch, row, won] += wb * lo
    hi[ch, row, TIE] += wb * eq
    hi[ch, row, LOSE] += wb * hi_n
    hi[ch, row, SHARE] += wb * (lo * sh + eq * tie_sh)
    hi[ch, row, DEALS] += wb * c_all
    hf[ch, row, won] += wo * w_lo_
    hf[ch, row, TIE] += wo * w_eq
    hf[ch, row, LOSE] += wo * w_hi
    hf[ch, row, SHARE] += wo * (w_lo_ * sh + w_eq * tie_sh)
    hf[ch, row, DEALS] += wo * w_all


@nb.njit(cache=True)
def resolve(hc_i: np.ndarray, hc_f: np.ndarray, L: int, weighted: bool, acc_i: np.ndarray,
            acc_f: np.ndarray, tot_i: np.ndarray, tot_f: np.ndarray, ch: int) -> None:
    """Per-seat sums from the counts by mask of walked seats at the best score (seat L is the
    counted one): a seat in the mask loses to the hands above, splits with the level ones and
    wins (or splits within the mask) against the ones below; a seat outside it loses them all."""
    for m in range(hc_i.shape[0]):
        n_lo, n_eq, n_hi = hc_i[m, 0], hc_i[m, 1], hc_i[m, 2]
        w_lo, w_eq, w_hi = hc_f[m, 0], hc_f[m, 1], hc_f[m, 2]
        n_all = n_lo + n_eq + n_hi
        if n_all == 0:
            continue
        nb_ = ctpop64(np.int64(m))
        tie_sh = SHARE_SCALE // (nb_ + 1)
        sh = SHARE_SCALE // nb_
        for p in range(L):
            if (m >> p) & 1:
                won = WIN if nb_ == 1 else TIE
                acc_i[p, won] += n_lo
                acc_i[p, TIE] += n_eq
                acc_i[p, LOSE] += n_hi
                acc_i[p, SHARE] += n_lo * sh + n_eq * tie_sh
                if weighted:
                    acc_f[p, won] += w_lo
                    acc_f[p, TIE] += w_eq
                    acc_f[p, LOSE] += w_hi
                    acc_f[p, SHARE] += w_lo * sh + w_eq * tie_sh
            else:
                acc_i[p, LOSE] += n_all
                if weighted:
                    acc_f[p, LOSE] += w_lo + w_eq + w_hi
        acc_i[L, WIN] += n_hi
        acc_i[L, TIE] += n_eq
        acc_i[L, LOSE] += n_lo
        acc_i[L, SHARE] += n_hi * SHARE_SCALE + n_eq * tie_sh
        tot_i[ch] += n_all
        if weighted:
            acc_f[L, WIN] += w_hi
            acc_f[L, TIE] += w_eq
            acc_f[L, LOSE] += w_lo
            acc_f[L, SHARE] += w_hi * SHARE_SCALE + w_eq * tie_sh
            tot_f[ch] += w_lo + w_eq + w_hi


__all__ = ["per_hand", "resolve", "tally"]
