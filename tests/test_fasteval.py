"""The cache-resident evaluator (pipeline.core.fasteval) against the dense tables and phevaluator."""

from __future__ import annotations

from itertools import chain, combinations, combinations_with_replacement, starmap
from math import comb
from pathlib import Path

import numba as nb
import numpy as np
import pytest
from eval_once import eval_tables
from refpoker import colex, random_hands

from pipeline.core.fasteval import (
    RANK_KEYS,
    EvalTables,
    hand_key,
    hand_score,
    score_hands_fast,
)
from pipeline.query.tables import Tables


@pytest.fixture(scope="module")
def ev() -> EvalTables:
    return eval_tables()


def test_rank_keys_unique_per_multiset() -> None:
    """Every multiset of at most 7 ranks (at most 4 of a rank) has its own rank-key sum."""
    sums: dict[int, tuple[int, ...]] = {}
    n = 0
    for k in range(8):
        for ms in combinations_with_replacement(range(13), k):
            if any(ms.count(r) > 4 for r in set(ms)):
                continue
            s = sum(RANK_KEYS[r] for r in ms)
            assert s not in sums, f"{ms} and {sums[s]} share key {s}"
            sums[s] = ms
            n += 1
    # C(20, 7) multisets of size <= 7, minus those with 5, 6 or 7 of one rank
    assert n == comb(20, 7) - 13 * (1 + 13 + 91) == 76_155


def test_tables_are_small(ev: EvalTables) -> None:
    """Together well under 1 MB, so they stay in L2."""
    assert ev.card_keys.shape == (52,) and ev.flush.shape == (8192,)
    assert sum(a.nbytes for a in ev) < 1 << 20


def test_every_five_card_hand(ev: EvalTables, tables: Tables) -> None:
    """All 2,598,960 five-card hands equal five.h5."""
    n = comb(52, 5)
    hands = np.fromiter(chain.from_iterable(combinations(range(52), 5)), np.uint8, count=5 * n).reshape(n, 5)
    got = score_hands_fast(hands[:, ::-1], ev)     # cards in descending order, to vary the order
    bad = np.flatnonzero(got != tables.table(5)[colex(hands)])
    assert bad.size == 0, f"{bad.size} mismatches, first {hands[bad[0]].tolist()}"


@pytest.mark.parametrize("k", [6, 7])
def test_random_hands_vs_dense_tables(ev: EvalTables, tables: Tables, k: int) -> None:
    """2,000,000 random 6- and 7-card hands (cards in random order) equal six.h5 / seven.h5."""
    hands = random_hands(np.random.default_rng(1100 + k), 2_000_000, k)
    got = score_hands_fast(hands, ev)
    want = tables.table(k)[colex(hands)]
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} mismatches, first {hands[bad[0]].tolist()}"


def test_random_seven_vs_phevaluator(ev: EvalTables) -> None:
    """1,000,000 random 7-card hands equal phevaluator (7463 - its rank)."""
    from phevaluator import _pheval

    hands = random_hands(np.random.default_rng(1107), 1_000_000, 7)
    ph = np.fromiter(starmap(_pheval.evaluate_7cards, hands.tolist()), np.int64, count=len(hands))
    bad = np.flatnonzero(score_hands_fast(hands, ev) != 7463 - ph)
    assert bad.size == 0, f"{bad.size} mismatches, first {hands[bad[0]].tolist()}"


@nb.njit(cache=True)
def _incremental(boards: np.ndarray, holes: np.ndarray, ck: np.ndarray, offsets: np.ndarray,
                 ranks: np.ndarray, flush: np.ndarray) -> np.ndarray:
    out = np.empty(holes.shape[0], np.int64)
    for i in range(holes.shape[0]):
        bk, bm = hand_key(boards[i], 5, ck)
        key = bk + ck[holes[i, 0]] + ck[holes[i, 1]]
        mask = bm | (np.uint64(1) << np.uint64(holes[i, 0])) | (np.uint64(1) << np.uint64(holes[i, 1]))
        out[i] = hand_score(key, mask, offsets, ranks, flush)
    return out


def test_incremental_board_plus_hole(ev: EvalTables, tables: Tables) -> None:
    """A board's (key, mask) plus two hole cards scores like the whole 7-card hand."""
    hands = random_hands(np.random.default_rng(1108), 200_000, 7).astype(np.uint8)
    got = _incremental(hands[:, :5], hands[:, 5:], *ev)
    assert np.array_equal(got, tables.table(7)[colex(hands)])


def test_flush_and_hash_edge_hands(ev: EvalTables, tables: Tables) -> None:
    """Hands whose flush suit is each of the four suits, 6- and 7-suited flushes, quads + flush."""
    from pipeline.core.cards import parse_cards

    texts = ["As Ks Qs Js Ts 2c 3d", "Ac Kc Qc Jc Tc 9c 8c", "2d 3d 4d 5d Ad Ah As",
             "7h 8h 9h Th 2h 7c 7d", "Ah Ad Ac As Kh Qh Jh", "2c 3c 4c 5c 7c"]
    hands = np.array([parse_cards(t) for t in texts[:-1]], np.uint8)
    want = tables.table(7)[colex(hands)]
    assert np.array_equal(score_hands_fast(hands, ev), want)
    five = np.array([parse_cards(texts[-1])], np.uint8)
    assert score_hands_fast(five, ev)[0] == tables.score5(texts[-1])


def test_stage_tables_memory_mapped(ev: EvalTables, tables: Tables) -> None:
    """eval_tables.h5 (stage eval_tables) holds the same arrays, mapped read-only, and scores hands."""
    mapped = tables.eval_tables()
    for name in EvalTables._fields:
        a = getattr(mapped, name)
        assert isinstance(a, np.memmap) and not a.flags.writeable, name
        assert np.array_equal(a, getattr(ev, name)), name
    hands = random_hands(np.random.default_rng(1109), 100_000, 7)
    assert np.array_equal(score_hands_fast(hands, mapped), tables.table(7)[colex(hands)])


def test_catalog_lists_eval_tables(artifacts) -> None:  # type: ignore[no-untyped-def]
    """artifacts/README.md lists every dataset of eval_tables.h5 with its real shape; all contiguous."""
    import h5py

    catalog = (Path(__file__).resolve().parent.parent / "artifacts" / "README.md").read_text()
    rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in catalog.splitlines()
            if ln.startswith("| eval_tables.h5 |")]
    with h5py.File(artifacts / "eval_tables.h5", "r") as f:
        assert sorted(r[1] for r in rows) == sorted("/" + k for k in f)
        for _, ds, dtype, shape, _, _ in rows:
            d = f[ds]
            assert str(d.dtype) == dtype and "x".join(map(str, d.shape)) == shape, ds
            assert d.id.get_offset() is not None and d.chunks is None and d.compression is None
