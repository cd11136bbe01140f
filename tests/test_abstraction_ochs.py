"""The river's OCHS figures: the grouped all-hands showdown, the per-cluster opponent counts and
``2*wins + ties`` per opponent cluster, each against a brute force over the 990 opponent hands;
the opponent clusters of the 169 preflop classes (EMD k-medians on totals past 2**24)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from refpoker import colex

from pipeline.abstraction.buckets import _medians, _medians_by_sorting, kmedians_emd
from pipeline.abstraction.ochs import RIVER_HANDS, ochs_block
from pipeline.core.cards import BINOM, colex_index
from pipeline.equity.exact.allhands import board_showdown, group_opponents, group_showdown, showdown_scratch
from pipeline.query.abstraction import index_batch, unindex
from pipeline.query.abstraction.clusters import cluster_opponents, hand_clusters
from pipeline.query.abstraction.reader import river_counts
from pipeline.query.tables import Tables

#: Opponent clusters of the tests (the build's default).
K = 8
#: Random river situations checked against the brute force.
SITUATIONS = 1000


@pytest.fixture(scope="module")
def table7(artifacts: Path) -> np.ndarray:
    return np.asarray(Tables(artifacts).table(7))


def _random_clusters(seed: int) -> np.ndarray:
    """A made-up cluster per preflop class (every cluster used): the counts must be right for
    any labelling, not only the build's."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, K, 169)
    labels[:K] = np.arange(K)
    return labels


def _brute(table7: np.ndarray, cards: list[int], groups: np.ndarray) -> tuple[np.ndarray, ...]:
    """Wins, ties and opponents per cluster, over the opponent hands one by one (each hand's
    7 cards looked up by their colex index; numpy does the 990 lookups as one batch)."""
    board = cards[2:]
    mine = int(table7[colex_index(sorted(cards))])
    opp = np.array(list(combinations([c for c in range(52) if c not in cards], 2)), np.int64)
    s = table7[colex(np.hstack([opp, np.tile(board, (len(opp), 1))]))].astype(np.int64)
    g = groups[opp[:, 0] + opp[:, 1] * (opp[:, 1] - 1) // 2]
    return (np.bincount(g, weights=mine > s, minlength=K).astype(np.int64),
            np.bincount(g, weights=mine == s, minlength=K).astype(np.int64),
            np.bincount(g, minlength=K).astype(np.int64))


def test_grouped_showdown_counts_every_group_and_keeps_the_ungrouped_counts(table7: np.ndarray) -> None:
    """On random boards: per-group wins, ties and opponents of every hand equal a brute force,
    and summed over the groups they are the ungrouped kernel's figures."""
    groups = hand_clusters(_random_clusters(3))
    rng = np.random.default_rng(4)
    board, parts, gap, live, keys, pa, pb, less1, eq1, lo1, eq1h, srt = showdown_scratch()
    less_c, eq_c = np.zeros((52, K), np.int64), np.zeros((52, K), np.int64)
    less_g, eq_g = np.zeros(K, np.int64), np.zeros(K, np.int64)
    lo, eq = np.zeros((1326, K), np.int64), np.zeros((1326, K), np.int64)
    opp = np.zeros(K, np.int64)
    for _ in range(3):
        cards = sorted(rng.permutation(52)[:5].tolist())
        board[:] = cards
        used = np.uint64(sum(1 << c for c in cards))
        n = group_showdown(board, used, table7, BINOM, parts, gap, live, keys, pa, pb, groups,
                           less_c, eq_c, less_g, eq_g, lo, eq, srt)
        assert n == RIVER_HANDS
        for i in rng.choice(n, 40, replace=False):
            w, t, o = _brute(table7, [int(pa[i]), int(pb[i]), *cards], groups)
            group_opponents(int(pa[i]), int(pb[i]), groups, less_c, less_g, opp)
            assert lo[i].tolist() == w.tolist() and eq[i].tolist() == t.tolist() and opp.tolist() == o.tolist()
        n1, opponents = board_showdown(board, used, table7, BINOM, parts, gap, live, keys, pa, pb,
                                       less1, eq1, lo1, eq1h, srt)
        assert n1 == n and opponents == 990
        assert np.array_equal(lo[:n].sum(axis=1), lo1[:n]) and np.array_equal(eq[:n].sum(axis=1), eq1h[:n])


def test_ochs_of_random_river_situations_equal_a_brute_force(table7: np.ndarray) -> None:
    """``2*wins + ties`` per cluster of 1,000 random river situations, from their classes'
    canonical boards, equal the count over the opponent hands one by one; so do ``n_g``."""
    class_cluster = _random_clusters(5)
    groups = hand_clusters(class_cluster)
    rng = np.random.default_rng(6)
    cards = np.array([rng.permutation(52)[:7] for _ in range(SITUATIONS)], np.int64)
    idx = index_batch(cards)
    canon = {int(i): unindex("river", int(i))[1] for i in idx}
    boards = np.array(sorted(set(canon.values())), np.int64)
    rows_idx, rows = ochs_block(boards, groups, K, table7)
    got = dict(zip(rows_idx.tolist(), rows))
    n_g = cluster_opponents(cards, groups, K)
    for r, c in enumerate(cards.tolist()):
        w, t, o = _brute(table7, c, groups)
        assert got[int(idx[r])].tolist() == (2 * w + t).tolist(), c
        assert n_g[r].tolist() == o.tolist(), c
        if r < 20:   # the CLI's recount agrees too
            wc, tc, oc = river_counts(table7, c[:2], c[2:], groups, K)
            assert wc.tolist() == w.tolist() and tc.tolist() == t.tolist() and oc.tolist() == o.tolist()


def test_opponent_counts_cover_the_990_hands() -> None:
    groups = hand_clusters(_random_clusters(7))
    rng = np.random.default_rng(8)
    cards = np.array([rng.permutation(52)[:7] for _ in range(2000)], np.int64)
    assert np.all(cluster_opponents(cards, groups, K).sum(axis=1) == 990)
    # preflop (2 known cards): every other hand
    assert np.all(cluster_opponents(cards[:, :2], groups, K).sum(axis=1) == 1225)


def test_medians_by_sorting_equal_the_counted_medians() -> None:
    rng = np.random.default_rng(9)
    x = np.sort(rng.integers(0, 300, (4000, 12)), axis=1)
    w = rng.integers(1, 30, 4000)
    labels = rng.integers(0, 9, 4000)
    labels[labels == 4] = 5   # an empty bucket
    a = _medians(x, w, labels, 9, 300)
    b = _medians_by_sorting(x, w, labels, 9)
    assert np.array_equal(a, b) and a[4, 0] == -1


def test_preflop_sized_histograms_cluster_exactly() -> None:
    """Totals past 2**24 (the preflop's 2,118,760 boards a hand) take float64 distances and
    sorted medians: same seed same labels, far below a random assignment."""
    rng = np.random.default_rng(10)
    shapes = rng.dirichlet(np.full(50, 0.3), size=6)
    pick = rng.integers(0, 6, 169)
    hist = np.array([rng.multinomial(2_118_760, shapes[p]) for p in pick], np.int64)
    w = rng.choice([4, 6, 12], 169).astype(np.uint8)
    a = kmedians_emd(hist, w, K, seed=1)
    b = kmedians_emd(hist, w, K, seed=1)
    assert a.labels.tobytes() == b.labels.tobytes() and a.objective == b.objective
    print(f"objective {a.objective:,} random {a.random_objective:,}")
    assert 5 * a.objective < a.random_objective
