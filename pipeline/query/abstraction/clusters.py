"""Opponent clusters of the river's OCHS figures: which cluster each two-card hand is in, and
how many opponent hands of each cluster a situation leaves.

The river table stores, per class and cluster g, ``2*wins + ties`` against the live hands of
cluster g; the equity against the cluster is that over ``2 * n_g``, where ``n_g`` (the hands of
cluster g disjoint from the 7 known cards) depends only on the cards, so it is recounted here
(inclusion-exclusion over the 7 cards and their 21 pairs) rather than stored.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.constants import DECK_SIZE
from pipeline.errors import InputError
from pipeline.query.abstraction.indexer import class_count, index_batch

#: Hole cards.
_HOLE = 2


def hand_clusters(class_cluster: np.ndarray) -> np.ndarray:
    """Cluster of each of the 1,326 two-card hands (int64, by colex index ``a + C(b, 2)``),
    from the cluster of each of the 169 preflop classes."""
    class_cluster = np.asarray(class_cluster)
    if class_cluster.shape != (class_count("preflop"),):
        raise InputError(f"expected one cluster per preflop class, got shape {class_cluster.shape}")
    hands = np.array([[a, b] for b in range(DECK_SIZE) for a in range(b)], np.int64)
    return class_cluster[index_batch(hands, check=False)].astype(np.int64)


@nb.njit(cache=True)
def card_counts(hand_cluster: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Hands of each cluster holding each card (int64[52, k]), and of each cluster (int64[k])."""
    per_card = np.zeros((DECK_SIZE, k), np.int64)
    total = np.zeros(k, np.int64)
    for b in range(DECK_SIZE):
        for a in range(b):
            g = hand_cluster[a + (b * (b - 1)) // 2]
            per_card[a, g] += 1
            per_card[b, g] += 1
            total[g] += 1
    return per_card, total


@nb.njit(cache=True, inline="always")
def row_opponents(cards: np.ndarray, i: int, hand_cluster: np.ndarray, per_card: np.ndarray,
                  total: np.ndarray, out: np.ndarray, j: int) -> None:
    """``out[j, g]`` = hands of cluster g disjoint from the cards of row ``i`` of ``cards``."""
    k = total.shape[0]
    for g in range(k):
        out[j, g] = total[g]
    for x in range(cards.shape[1]):
        cx = np.int64(cards[i, x])
        for g in range(k):
            out[j, g] -= per_card[cx, g]
        # a hand of two known cards (the hero's own among them) was subtracted twice
        for y in range(x):
            cy = np.int64(cards[i, y])
            a, b = min(cx, cy), max(cx, cy)
            out[j, hand_cluster[a + (b * (b - 1)) // 2]] += 1


@nb.njit(cache=True, parallel=True)
def _opponents(cards: np.ndarray, hand_cluster: np.ndarray, per_card: np.ndarray, total: np.ndarray,
               out: np.ndarray) -> None:
    for i in nb.prange(cards.shape[0]):
        row_opponents(cards, i, hand_cluster, per_card, total, out, i)


def cluster_opponents(cards: np.ndarray, hand_cluster: np.ndarray, k: int) -> np.ndarray:
    """``n_g``: opponent hands of each of the ``k`` clusters disjoint from each row's cards
    (int64[n, k]; rows of distinct card ids, hole first; unchecked)."""
    cards = np.ascontiguousarray(cards)
    if cards.ndim != 2 or cards.shape[1] < _HOLE:
        raise InputError(f"expected rows of cards, got shape {cards.shape}")
    per_card, total = card_counts(np.ascontiguousarray(hand_cluster, np.int64), k)
    out = np.empty((cards.shape[0], k), np.int64)
    _opponents(cards, hand_cluster, per_card, total, out)
    return out

__all__ = ["hand_clusters", "card_counts", "row_opponents", "cluster_opponents"]
