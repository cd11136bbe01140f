"""Ordered tuples of pairwise-disjoint opponent hands that all score at most ``s``, by how many
tie, counted by inclusion-exclusion over shared cards (1 to 3 random opponents).

On a complete board every live two-card hand has a fixed score. Seen as a graph on the live
cards, each hand is an edge weighted 1 (below ``s``), ``x`` (equal) or 0 (above); the count of
ordered tuples of disjoint edges is a polynomial in ``x`` whose coefficients come from card
degrees, edge neighbourhoods and triangles, with no enumeration of the tuples themselves.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.bits import ctpop64
from pipeline.core.constants import DECK_SIZE

#: Most random opponents :func:`tuple_poly` counts (the formulas go up to triples).
MAX_EXACT_RANDOM = 3


@nb.njit(cache=True)
def tuple_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-thread buffers ``(dL, dE, NL, NE, poly)`` for :func:`tuple_poly`."""
    return (np.empty(DECK_SIZE, np.int64), np.empty(DECK_SIZE, np.int64),
            np.empty(DECK_SIZE, np.int64), np.empty(DECK_SIZE, np.int64),
            np.zeros(MAX_EXACT_RANDOM + 1, np.int64))


@nb.njit(cache=True)
def tuple_poly(pair_s: np.ndarray, m: int, nr: int, s: int, dL: np.ndarray, dE: np.ndarray,
               NL: np.ndarray, NE: np.ndarray, poly: np.ndarray) -> None:
    """Ordered tuples of ``nr`` (1..3) pairwise-disjoint hands from the m live cards, all scoring
    <= s, by how many score exactly s: poly[j] = tuples with j ties.

    Each hand is an edge of weight 1 (below s), x (equal) or 0 (above). The weighted count of
    disjoint tuples, by inclusion-exclusion over which positions share a card:
      N=1: S1;  N=2: S1^2 - Q;  N=3: S1^3 - 3 S1 Q + 3 P - T
    with S1 = sum w_e, Q = sum_c deg_c^2 - sum w_e^2 (ordered conflicting pairs),
    P = sum_e w_e (deg_a + deg_b - w_e)^2 (conflict paths through a middle edge),
    T = sum_c deg_c^3 - sum w_e^3 + 6 * triangles (pairwise-conflicting triples: a shared
    card, or three hands forming a triangle on three cards). Coefficients of x are integers.
    """
    for i in range(m):
        dL[i] = 0
        dE[i] = 0
        NL[i] = 0
        NE[i] = 0
    nL = 0
    nE = 0
    k = 0
    for i in range(m):
        for j in range(i + 1, m):
            v = pair_s[k]
            k += 1
            if v < s:
                nL += 1
                dL[i] += 1
                dL[j] += 1
                if nr == 3:
                    NL[i] |= np.int64(1) << j
                    NL[j] |= np.int64(1) << i
            elif v == s:
                nE += 1
                dE[i] += 1
                dE[j] += 1
                if nr == 3:
                    NE[i] |= np.int64(1) << j
                    NE[j] |= np.int64(1) << i
    for j in range(4):
        poly[j] = 0
    if nr == 1:
        poly[0] = nL
        poly[1] = nE
        return
    sLL = 0
    sLE = 0
    sEE = 0
    sLLL = 0
    sLLE = 0
    sLEE = 0
    sEEE = 0
    for i in range(m):
        a = dL[i]
        b = dE[i]
        sLL += a * a
        sLE += a * b
        sEE += b * b
        if nr == 3:
            sLLL += a * a * a
            sLLE += a * a * b
            sLEE += a * b * b
            sEEE += b * b * b
    q0 = sLL - nL
    q1 = 2 * sLE
    q2 = sEE - nE
    if nr == 2:
        poly[0] = nL * nL - q0
        poly[1] = 2 * nL * nE - q1
        poly[2] = nE * nE - q2
        return
    # nr == 3: paths and triangles need a second pass over the edges
    p0 = 0
    p1 = 0
    p2 = 0
    p3 = 0
    t0 = 0
    t1 = 0
    t2 = 0
    t3 = 0
    k = 0
    for i in range(m):
        for j in range(i + 1, m):
            v = pair_s[k]
            k += 1
            if v > s:
                continue
            isE = 1 if v == s else 0
            u = dL[i] + dL[j] - (1 - isE)
            w = dE[i] + dE[j] - isE
            hi = ~((np.int64(2) << j) - 1)
            ll = ctpop64(NL[i] & NL[j] & hi)
            le = ctpop64(((NL[i] & NE[j]) | (NE[i] & NL[j])) & hi)
            ee = ctpop64(NE[i] & NE[j] & hi)
            if isE == 0:
                p0 += u * u
                p1 += 2 * u * w
                p2 += w * w
                t0 += ll
                t1 += le
                t2 += ee
            else:
                p1 += u * u
                p2 += 2 * u * w
                p3 += w * w
                t1 += ll
                t2 += le
                t3 += ee
    T0 = sLLL - nL + 6 * t0
    T1 = 3 * sLLE + 6 * t1
    T2 = 3 * sLEE + 6 * t2
    T3 = sEEE - nE + 6 * t3
    c0 = nL * nL * nL
    c1 = 3 * nL * nL * nE
    c2 = 3 * nL * nE * nE
    c3 = nE * nE * nE
    sq0 = nL * q0
    sq1 = nL * q1 + nE * q0
    sq2 = nL * q2 + nE * q1
    sq3 = nE * q2
    poly[0] = c0 - 3 * sq0 + 3 * p0 - T0
    poly[1] = c1 - 3 * sq1 + 3 * p1 - T1
    poly[2] = c2 - 3 * sq2 + 3 * p2 - T2
    poly[3] = c3 - 3 * sq3 + 3 * p3 - T3


__all__ = ["MAX_EXACT_RANDOM", "tuple_scratch", "tuple_poly"]
