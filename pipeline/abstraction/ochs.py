"""OCHS on the river: every class's exact ``2*wins + ties`` against each of K opponent clusters.

The clusters group the 169 preflop classes by their equity histograms against a random hand
(the preflop figures of :func:`pipeline.abstraction.strength.river_and_preflop`): weighted
k-medians under EMD (:func:`pipeline.abstraction.buckets.kmedians_emd`, weights = the hands of
each class) with the build seed, so they are reproducible and stored with the table. Each
two-card hand then carries its class's cluster as its group, and one grouped all-hands showdown
per canonical 5-card board (:func:`pipeline.equity.exact.allhands.group_showdown`, the kernel every
street uses) counts, for every live hand, the hands of each group it beats and ties.

Per class and cluster g the table holds ``2*wins + ties`` (uint16, at most 2 * 990); the
equity against the cluster is that over ``2 * n_g``, with ``n_g`` the cluster's hands disjoint
from the 7 cards (:func:`pipeline.query.abstraction.clusters.cluster_opponents`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numba as nb
import numpy as np

from pipeline.abstraction.buckets import Clustering, kmedians_emd
from pipeline.abstraction.strength import N_CHUNKS, RIVER_SCALE, UNSET, board_mask, canonical_boards
from pipeline.core.cards import BINOM
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, N_HOLE_PAIRS
from pipeline.core.parallel import even_chunk
from pipeline.equity.exact.allhands import MAX_GROUPS, group_showdown, showdown_scratch
from pipeline.errors import InputError
from pipeline.query.abstraction.clusters import card_counts, row_opponents
from pipeline.query.abstraction.indexer import SCRATCH, class_count, index_row, unindex_row
from pipeline.query.abstraction.shapes import HOLE_SIZE, TABLES, IndexerTables

#: Live two-card hands on a river board: C(47, 2).
RIVER_HANDS = 1081
#: Opponent clusters, as in the OCHS literature (Johanson et al. 2013).
DEFAULT_CLUSTERS = 8
#: Classes per block when features are derived from the table (bounds the temporaries).
FEATURE_BLOCK = 1 << 22


def opponent_clusters(pre_hist: np.ndarray, pre_weight: np.ndarray, k: int, seed: int) -> Clustering:
    """Cluster the 169 preflop classes into ``k`` opponent clusters by their river-equity
    histograms (EMD k-medians, weighted by each class's hands)."""
    if not 1 <= k <= min(MAX_GROUPS, len(pre_hist)):
        raise InputError(f"ochs_clusters must be 1 .. {min(MAX_GROUPS, len(pre_hist))}, got {k}")
    return kmedians_emd(pre_hist, pre_weight, k, seed)


@nb.njit(cache=True, parallel=True)
def _ochs_rows(boards: np.ndarray, table: np.ndarray, binom: np.ndarray, t: IndexerTables,
               group: np.ndarray, k: int, idx: np.ndarray, out: np.ndarray) -> None:
    """For every hand on every board row (5 sorted cards): its class in ``idx`` and its
    ``2*wins + ties`` against the hands of each group in ``out``; board ``bi``'s hands fill rows
    ``bi * 1,081 ..``."""
    for ch in nb.prange(N_CHUNKS):
        start, stop = even_chunk(boards.shape[0], N_CHUNKS, ch)
        board, parts, gap, live, keys, pa, pb, _, _, _, _, srt = showdown_scratch()
        less_c = np.zeros((DECK_SIZE, k), np.int64)
        eq_c = np.zeros((DECK_SIZE, k), np.int64)
        less_g = np.zeros(k, np.int64)
        eq_g = np.zeros(k, np.int64)
        lo = np.empty((N_HOLE_PAIRS, k), np.int64)
        eq = np.empty((N_HOLE_PAIRS, k), np.int64)
        row = np.empty((1, HOLE_SIZE + BOARD_CARDS), np.int64)
        for bi in range(start, stop):
            for j in range(BOARD_CARDS):
                board[j] = boards[bi, j]
                row[0, HOLE_SIZE + j] = board[j]
            n = group_showdown(board, board_mask(board), table, binom, parts, gap, live, keys, pa,
                               pb, group, less_c, eq_c, less_g, eq_g, lo, eq, srt)
            for h in range(n):
                row[0, 0] = pa[h]
                row[0, 1] = pb[h]
                r = bi * RIVER_HANDS + h
                idx[r] = index_row(row, np.int64(0), t)
                for g in range(k):
                    out[r, g] = 2 * lo[h, g] + eq[h, g]


def ochs_block(boards: np.ndarray, hand_cluster: np.ndarray, k: int,
               table7: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Pure task: ``(idx, ochs)`` of every hand on a block of river boards (rows of 5 sorted
    cards), board-major, 1,081 rows a board. Without ``table7`` (a Dask worker) the 7-card
    scores are computed in the process."""
    if table7 is None:
        from pipeline.core.evaluate import seven_scores

        table7 = seven_scores()
    boards = np.ascontiguousarray(boards, np.int64)
    idx = np.empty(len(boards) * RIVER_HANDS, np.int64)
    out = np.empty((len(idx), k), np.uint16)
    _ochs_rows(boards, table7, BINOM, TABLES, np.ascontiguousarray(hand_cluster, np.int64), k, idx, out)
    return idx, out


def river_ochs(table7: np.ndarray | None, hand_cluster: np.ndarray, k: int,
               boards: np.ndarray | None = None, progress: Callable[[float], None] | None = None,
               blocks: int = 1,
               run_blocks: Callable[[list[np.ndarray]], Iterable[tuple[np.ndarray, np.ndarray]]] | None = None
               ) -> np.ndarray:
    """``2*wins + ties`` of every river class against each of the ``k`` clusters (uint16[N, k];
    ``hand_cluster`` per two-card hand). Given ``boards`` rows, only the classes they reach are
    set (the rest hold :data:`UNSET`). ``run_blocks`` maps :func:`ochs_block` over the board
    blocks (default: here, one after another); a class's rows all come from one board, so the
    scattered result is the same bytes however the blocks ran."""
    if boards is None:
        boards, _ = canonical_boards(BOARD_CARDS)
    boards = np.ascontiguousarray(boards, np.int64)
    out = np.full((class_count("river"), k), UNSET, np.uint16)
    cuts = [len(boards) * i // blocks for i in range(blocks + 1)]
    parts = [boards[a:b] for a, b in zip(cuts, cuts[1:])]
    if run_blocks is None:
        def run_blocks(ps: list[np.ndarray]) -> Iterable[tuple[np.ndarray, np.ndarray]]:
            return (ochs_block(p, hand_cluster, k, table7) for p in ps)
    for i, (idx, rows) in enumerate(run_blocks(parts)):
        out[idx] = rows
        if progress is not None:
            progress((i + 1) / blocks)
    return out


@nb.njit(cache=True, parallel=True)
def _equities(ochs: np.ndarray, value: np.ndarray, lo: int, hi: int, hand_cluster: np.ndarray,
              per_card: np.ndarray, total: np.ndarray, t: IndexerTables, out: np.ndarray) -> None:
    k = ochs.shape[1]
    n = hi - lo
    for ch in nb.prange(N_CHUNKS):
        a, b = even_chunk(n, N_CHUNKS, ch)
        cards = np.empty((1, HOLE_SIZE + BOARD_CARDS), np.int64)
        scratch = np.empty(SCRATCH, np.int64)
        n_g = np.empty((1, k), np.int64)
        for r in range(a, b):
            unindex_row(lo + r, BOARD_CARDS, t, cards, 0, scratch)
            row_opponents(cards, 0, hand_cluster, per_card, total, n_g, 0)
            for g in range(k):
                if n_g[0, g] > 0:
                    out[r, g] = ochs[lo + r, g] / (2.0 * n_g[0, g])
                else:
                    out[r, g] = value[lo + r] / RIVER_SCALE


def ochs_features(ochs: np.ndarray, value: np.ndarray, hand_cluster: np.ndarray,
                  progress: Callable[[float], None] | None = None) -> np.ndarray:
    """Equity of every river class against each cluster (float32[N, k]): ``ochs / (2 n_g)``;
    a cluster the 7 cards leave no hand of takes the class's equity against all 990 hands
    (``value / 1,980``). Computed block by block from (memory-mapped) ``ochs`` and ``value``."""
    n, k = ochs.shape
    group = np.ascontiguousarray(hand_cluster, np.int64)
    per_card, total = card_counts(group, k)
    out = np.empty((n, k), np.float32)
    for lo in range(0, n, FEATURE_BLOCK):
        hi = min(n, lo + FEATURE_BLOCK)
        _equities(ochs, value, lo, hi, group, per_card, total, TABLES, out[lo:hi])
        if progress is not None:
            progress(hi / n)
    return out


__all__ = ["DEFAULT_CLUSTERS", "RIVER_HANDS", "opponent_clusters", "ochs_block", "river_ochs", "ochs_features"]
