"""Suit symmetry: count each board completion once per orbit of the suit permutations.

A permutation of the four suits that maps every known card set (hero, named hands, board, dead
cards) onto itself maps each board completion to another completion with the same counts.
Enumerating one representative per orbit (its colex-least member) and weighting it with the
orbit's size is exact; results that are per hand are then symmetrised back over the group.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numba as nb
import numpy as np
from numba import get_num_threads

from pipeline.core.combos import colex_chunk, next_combination, sort_small
from pipeline.core.constants import DECK_SIZE, N_HOLE_PAIRS, N_SUITS
from pipeline.core.parallel import run_chunks
from pipeline.equity.hands.starting_hands import HOLE_CARDS

#: The 24 permutations of the suits, one per row (``perm[suit]`` is the image suit).
SUIT_PERMS = np.array(list(itertools.permutations(range(N_SUITS))), dtype=np.int64)
#: Chunks :func:`canonical_subsets` splits its subsets into (parallel work units).
N_CHUNKS = 256


@nb.njit(cache=True)
def orbit_weight(x: np.ndarray, r: int, perms: np.ndarray, binom: np.ndarray,
                 work: np.ndarray) -> int:
    """Orbit size of the sorted card set x[:r] if it is its orbit's colex-least member, else 0.

    ``perms`` is a suit-permutation group that maps the live deck onto itself, so every
    image is another completion; counting each orbit once with its size is exact.
    """
    g = perms.shape[0]
    if g == 1 or r == 0:
        return 1
    v0 = 0
    for i in range(r):
        v0 += binom[x[i], i + 1]
    stab = 0
    for p in range(g):
        for i in range(r):
            c = x[i]
            work[i] = N_SUITS * (c >> 2) + perms[p, c & 3]
        sort_small(work, r)
        v = 0
        for i in range(r):
            v += binom[work[i], i + 1]
        if v < v0:
            return 0
        if v == v0:
            stab += 1
    return g // stab


@nb.njit(cache=True)
def orbit_step(step: bool, avail: np.ndarray, pos: np.ndarray, r: int, perms: np.ndarray,
               binom: np.ndarray, x: np.ndarray, work: np.ndarray) -> int:
    """Move ``pos`` to the next r-subset of positions (when ``step``), put its cards
    ``avail[pos]`` in x[:r] and return its :func:`orbit_weight` (0: not a representative).

    The board-orbit kernels walk their chunk of subsets with this, one call per subset.
    """
    if step:
        next_combination(pos)
    for i in range(r):
        x[i] = avail[pos[i]]
    return orbit_weight(x, r, perms, binom, work)


def canonical_subsets(avail: np.ndarray, r: int, perms: np.ndarray, binom: np.ndarray
                      ) -> np.ndarray:
    """Orbit weight of every r-subset of the sorted card array ``avail`` (colex over positions);
    0 for subsets that are not their orbit's representative. Weights sum to C(len(avail), r).
    The chunks run on threads (:func:`run_chunks`: no ``parallel=True`` wrapper to compile)."""
    out = np.zeros(int(binom[avail.shape[0], r]), np.int64)
    run_chunks(lambda ch: _canonical_chunk(ch, avail, r, perms, binom, out), N_CHUNKS,
               get_num_threads())
    return out


@nb.njit(cache=True, nogil=True)
def _canonical_chunk(ch: int, avail: np.ndarray, r: int, perms: np.ndarray, binom: np.ndarray,
                     out: np.ndarray) -> None:
    """Chunk ``ch`` of :func:`canonical_subsets`."""
    start, stop, pos = colex_chunk(out.shape[0], N_CHUNKS, ch, 0, r, avail.shape[0], binom)
    x = np.empty(r + 1, np.int64)
    work = np.empty(r + 1, np.int64)
    for idx in range(start, stop):
        out[idx] = orbit_step(idx > start, avail, pos, r, perms, binom, x, work)


def stabilizer(card_sets: Sequence[Sequence[int]]) -> np.ndarray:
    """The suit permutations (rows of ``SUIT_PERMS``) mapping every card set onto itself."""
    return SUIT_PERMS[_fixes_cards(card_sets)].reshape(-1, N_SUITS)


#: Bits of one card set's rank mask within a suit signature (13 ranks).
RANK_BITS = DECK_SIZE // N_SUITS
#: Suit signatures whose stabilizer is kept per process.
SIGNATURE_CACHE = 4096


def _fixes_cards(card_sets: Sequence[Sequence[int]]) -> np.ndarray:
    """Indices into ``SUIT_PERMS`` of the permutations mapping every card set onto itself.

    A permutation p sends card (rank, suit) to (rank, p[suit]), so it fixes a set exactly when
    every suit holds the same ranks of the set as its image suit does. Each suit's signature
    is its rank masks in all the sets side by side; p fixes them all when it maps every suit
    to a suit of the same signature."""
    sig = [0] * N_SUITS
    for k, cs in enumerate(card_sets):
        shift = RANK_BITS * k
        for card in cs:
            c = int(card)
            sig[c & 3] |= 1 << (shift + (c >> 2))
    return _perms_keeping(tuple(sig))


@functools.lru_cache(maxsize=SIGNATURE_CACHE)
def _perms_keeping(sig: tuple[int, ...]) -> np.ndarray:
    """Indices of the suit permutations p with ``sig[p[s]] == sig[s]`` for every suit s."""
    keep = np.array([all(sig[p[s]] == sig[s] for s in range(N_SUITS)) for p in SUIT_PERMS.tolist()])
    out = np.flatnonzero(keep)
    out.flags.writeable = False
    return out


def hand_perm_table(perms: np.ndarray) -> np.ndarray:
    """int64[g, 1326]: the two-card index each suit permutation sends each hand to."""
    a0, b0 = HOLE_CARDS[:, 0], HOLE_CARDS[:, 1]
    out = np.empty((perms.shape[0], N_HOLE_PAIRS), np.int64)
    for p, perm in enumerate(perms):
        a = N_SUITS * (a0 >> 2) + perm[a0 & 3]
        b = N_SUITS * (b0 >> 2) + perm[b0 & 3]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        out[p] = lo + hi * (hi - 1) // 2
    return out


@functools.cache
def _all_hand_perms() -> np.ndarray:
    """:func:`hand_perm_table` of all 24 suit permutations, built once per process."""
    table = hand_perm_table(SUIT_PERMS)
    table.flags.writeable = False
    return table


def range_stabilizer(card_sets: Sequence[Sequence[int]],
                     ranges: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The suit permutations fixing each card set and mapping every weighted range onto itself.

    A range is (two-card indices, weights). A permutation maps it onto itself when every hand's
    image is in the range with the same weight (a bijection sending the range into itself
    sends it onto itself). Permutations that move a card set are dropped first, so on a board
    of four suits only the identity is checked against the ranges."""
    keep = _fixes_cards(card_sets)
    ptab = _all_hand_perms()
    for hands, weights in ranges:
        if keep.size <= 1:
            break  # the identity always survives
        dense = np.zeros(N_HOLE_PAIRS)
        dense[hands] = weights
        keep = keep[(dense[ptab[keep][:, hands]] == weights[None, :]).all(axis=1)]
    return SUIT_PERMS[keep].reshape(-1, N_SUITS)


def symmetrise_hands(counts: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """Per-hand counts (rows by two-card index) from an orbit-weighted enumeration under the
    group ``perms``, averaged over the group: exact, since each hand's images share its counts."""
    total = counts[hand_perm_table(perms)].sum(axis=0)
    if np.any(total % len(perms)):
        raise AssertionError("suit symmetrisation left a remainder")  # cannot happen
    return total // len(perms)


__all__ = ["SUIT_PERMS", "orbit_weight", "orbit_step", "canonical_subsets", "stabilizer",
           "hand_perm_table", "range_stabilizer", "symmetrise_hands"]
