"""The depth-first walk over assignments of hands to range seats, one hand per seat, whose
cards are pairwise disjoint and avoid a given mask (the board, or the hero's hand).

The exact range kernels (:mod:`pipeline.equity.exact.ranges`, :mod:`pipeline.equity.exact.range_random`)
run one walk per board and the breakdown's frequency count (:func:`count_assignments`) one per
hero hand. Seat ``p`` holds rows ``off[p]:off[p+1]`` of ``hand_m`` (card masks) and
``hand_w`` (weights); there are ``P >= 1`` seats. The walk keeps its state in arrays the caller
allocates once (``at``, ``sel``: P entries; ``used``, ``wp``: P + 1). :func:`next_outer` stops
at each assignment of the first ``P - 1`` seats, with ``sel[:P-1]`` its rows, ``used[P-1]``
its cards and ``wp[P-1]`` its weight (the product of its rows' weights, seat by seat); the
caller then loops over the last seat's rows itself, so the innermost loop, which runs once per
full assignment, stays a plain loop in the kernel::

    d = start_walk(mask, off, at, used, wp)
    while True:
        d = next_outer(d, off, hand_m, hand_w, at, used, wp, sel)
        if d < 0:
            break
        for k in range(off[P - 1], off[P]):
            if hand_m[k] & used[P - 1]:
                continue
            sel[P - 1] = k
            w = wp[P - 1] * hand_w[k]
            ...  # one assignment

Both functions are inlined into the kernels (``inline="always"``). Numba's on-disk cache of a
kernel is keyed on the kernel's own file only: after editing this module, touch the three
callers' files (or clear their ``__pycache__``) so they compile again.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, inline="always")
def start_walk(mask: np.uint64, off: np.ndarray, at: np.ndarray, used: np.ndarray, wp: np.ndarray) -> int:
    """Set the walk before its first assignment avoiding ``mask``; the depth to resume at."""
    at[0] = off[0] - 1
    used[0] = mask
    wp[0] = 1.0
    return 0


@nb.njit(cache=True, inline="always")
def next_outer(d: int, off: np.ndarray, hand_m: np.ndarray, hand_w: np.ndarray, at: np.ndarray,
               used: np.ndarray, wp: np.ndarray, sel: np.ndarray) -> int:
    """Resume the walk at depth ``d`` (:func:`start_walk`'s answer, then this function's) and
    stop at the next assignment of all seats but the last (``sel[:P-1]``, ``used[P-1]`` and
    ``wp[P-1]`` set), answering the depth to resume at; -1 once there is none left. With one
    seat there is one such assignment, the empty one."""
    last = off.shape[0] - 2  # the last seat, which the caller walks
    if last == 0:
        at[0] += 1
        return 0 if at[0] == off[0] else -1
    while d >= 0:
        at[d] += 1
        k = at[d]
        if k >= off[d + 1]:
            d -= 1
            continue
        if hand_m[k] & used[d]:
            continue
        sel[d] = k
        used[d + 1] = used[d] | hand_m[k]
        wp[d + 1] = wp[d] * hand_w[k]
        if d + 1 < last:
            d += 1
            at[d] = off[d] - 1
            continue
        return d
    return -1


@nb.njit(cache=True)
def count_assignments(hero_m: np.ndarray, off: np.ndarray, hand_m: np.ndarray, hand_w: np.ndarray,
                      out_i: np.ndarray, out_f: np.ndarray) -> None:
    """Per hero hand: the number (out_i) and weight (out_f) of card-disjoint assignments of
    hands to the other range seats (rows off[p]:off[p+1] of hand_m/hand_w)."""
    P = off.shape[0] - 1
    at = np.empty(max(P, 1), np.int64)
    sel = np.empty(max(P, 1), np.int64)
    used = np.zeros(P + 1, np.uint64)
    wp = np.ones(P + 1, np.float64)
    for h in range(hero_m.shape[0]):
        if P == 0:
            out_i[h] = 1
            out_f[h] = 1.0
            continue
        n_i = 0
        n_f = 0.0
        d = start_walk(hero_m[h], off, at, used, wp)
        while True:
            d = next_outer(d, off, hand_m, hand_w, at, used, wp, sel)
            if d < 0:
                break
            for k in range(off[P - 1], off[P]):  # the last seat
                if hand_m[k] & used[P - 1]:
                    continue
                n_i += 1
                n_f += wp[P - 1] * hand_w[k]
        out_i[h] = n_i
        out_f[h] = n_f


__all__ = ["count_assignments", "next_outer", "start_walk"]
