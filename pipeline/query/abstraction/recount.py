"""The river's wins and ties recounted from the 7-card scores, a batch of situations at a time.

The river tables store only ``2*wins + ties`` per class (and per opponent cluster); ``pokertables
bucket`` shows wins and ties apart, so it recounts them, and the recount also proves the stored
figure. :func:`river_recount` scores every situation's 990 opponent hands in one parallel kernel
on the cache-resident evaluator (the board's key is summed once, each opponent adds two cards):
20,000 situations are 20 M scores, a fraction of a second. Without ``eval_tables.h5`` it scores
them in batch calls of ``Tables.score7`` on the dense 7-card table instead (about 20x slower).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import numba as nb
import numpy as np

from pipeline.core.constants import DECK_SIZE, SEVEN
from pipeline.core.fasteval import hand_score
from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: Hole cards and river board cards of a situation.
HOLE, RIVER_BOARD = 2, 5
#: Cards an opponent may hold once a river situation's 7 are out, and their 990 pairs.
LEFT = DECK_SIZE - SEVEN
#: Positions (i < j) in a row's ascending unseen cards of each opponent hand, in colex order.
PAIR_POSITIONS = np.array(list(combinations(range(LEFT), 2)), np.int64)
#: Situations recounted per batch call without the evaluator's tables: 1,024 x 991 hands of 7
#: bytes, ~50 MB with the tallies.
RECOUNT_ROWS = 1024
#: Two-card hands (colex index ``a + C(b, 2)``).
HANDS = DECK_SIZE * (DECK_SIZE - 1) // 2


@nb.njit(cache=True, parallel=True, nogil=True)
def _recount_kernel(cards: np.ndarray, hand_cluster: np.ndarray, card_keys: np.ndarray,
                    offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, wins: np.ndarray,
                    ties: np.ndarray, opponents: np.ndarray) -> None:
    """Rows of 7 distinct ids 0..51 (hole first): tally each opponent hand of the unseen cards
    into its cluster's column, as a win, a tie or neither for the hero."""
    for i in nb.prange(cards.shape[0]):
        key = np.int64(0)
        mask = np.int64(0)
        for j in range(HOLE, SEVEN):
            c = cards[i, j]
            key += np.int64(card_keys[c])
            mask |= np.int64(1) << c
        seen = mask
        hero_key = key
        for j in range(HOLE):
            c = cards[i, j]
            hero_key += np.int64(card_keys[c])
            seen |= np.int64(1) << c
        mine = hand_score(hero_key, seen, offsets, ranks, flush)
        for b in range(DECK_SIZE):
            if (seen >> b) & 1:
                continue
            kb = key + np.int64(card_keys[b])
            mb = mask | (np.int64(1) << b)
            for a in range(b):
                if (seen >> a) & 1:
                    continue
                theirs = hand_score(kb + np.int64(card_keys[a]), mb | (np.int64(1) << a), offsets,
                                    ranks, flush)
                g = hand_cluster[a + (b * (b - 1)) // 2]
                opponents[i, g] += 1
                wins[i, g] += mine > theirs
                ties[i, g] += mine == theirs


def river_recount(tables: Tables, cards: np.ndarray, hand_cluster: np.ndarray | None = None,
                  clusters: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wins, ties and opponent hands (each int64[n, clusters]) of each river situation
    (an (n, 7) array of distinct card ids, hole first) against every hand of the 45 unseen
    cards, split by ``hand_cluster`` (the cluster of each two-card hand, by colex index
    ``a + C(b, 2)``) or all in column 0 without it."""
    cards = np.asarray(cards)
    if cards.ndim != 2 or cards.shape[1] != SEVEN or cards.dtype.kind not in "iu":
        raise InputError(f"river situations are integer rows of {SEVEN} cards, got shape {cards.shape}")
    from pipeline.query.abstraction.indexer import check_situations

    check_situations(cards)  # the kernel indexes its tables by these ids
    group = (np.zeros(HANDS, np.int64) if hand_cluster is None
             else np.ascontiguousarray(hand_cluster, np.int64))
    if group.shape != (HANDS,) or (group.size and (group.min() < 0 or group.max() >= clusters)):
        raise InputError(f"hand_cluster must give each of the {HANDS:,} two-card hands a cluster "
                         f"0..{clusters - 1}")
    n = cards.shape[0]
    wins = np.zeros((n, clusters), np.int64)
    ties = np.zeros((n, clusters), np.int64)
    opponents = np.zeros((n, clusters), np.int64)
    fast = tables.fast_evaluator()
    if fast is not None:
        _recount_kernel(np.ascontiguousarray(cards, np.int64), group, *fast, wins, ties, opponents)
        return wins, ties, opponents
    for lo in range(0, n, RECOUNT_ROWS):
        hi = min(n, lo + RECOUNT_ROWS)
        _recount_block(tables, cards[lo:hi].astype(np.int64), group, clusters,
                       wins[lo:hi], ties[lo:hi], opponents[lo:hi])
    return wins, ties, opponents


def _recount_block(tables: Tables, cards: np.ndarray, hand_cluster: np.ndarray, clusters: int,
                   wins: np.ndarray, ties: np.ndarray, opponents: np.ndarray) -> None:
    n = cards.shape[0]
    seen = np.zeros((n, DECK_SIZE), bool)
    seen[np.arange(n)[:, None], cards] = True
    # a stable sort of the seen flags puts each row's unseen cards first, in ascending order
    rest = np.argsort(seen, axis=1, kind="stable")[:, :LEFT]
    a = rest[:, PAIR_POSITIONS[:, 0]]
    b = rest[:, PAIR_POSITIONS[:, 1]]
    hands = np.empty((n, 1 + len(PAIR_POSITIONS), SEVEN), np.uint8)
    hands[:, 0] = cards
    hands[:, 1:, :RIVER_BOARD] = cards[:, None, HOLE:]
    hands[:, 1:, RIVER_BOARD] = a
    hands[:, 1:, RIVER_BOARD + 1] = b
    scores = np.asarray(tables.score7(hands.reshape(-1, SEVEN))).reshape(n, -1).astype(np.int32)
    mine, theirs = scores[:, :1], scores[:, 1:]
    group = hand_cluster[a + b * (b - 1) // 2]
    slot = (group + clusters * np.arange(n)[:, None]).ravel()
    size = n * clusters
    wins += np.bincount(slot, weights=(mine > theirs).ravel(), minlength=size).astype(np.int64).reshape(n, clusters)
    ties += np.bincount(slot, weights=(mine == theirs).ravel(), minlength=size).astype(np.int64).reshape(n, clusters)
    opponents += np.bincount(slot, minlength=size).astype(np.int64).reshape(n, clusters)


__all__ = ["PAIR_POSITIONS", "RECOUNT_ROWS", "river_recount"]
