"""Card-abstraction figures against a brute force that scores every opponent hand one by one.

The brute force here shares nothing with the production pass but the 7-card score table: it
looks every (hand, board) and (opponent, board) up by its colex index, on every completion,
with numpy; the production pass ranks all hands of a board at once and writes by class index.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from pathlib import Path

import h5py
import numpy as np
import pytest
from full_pass import FullPass

from pipeline.abstraction import index_batch
from pipeline.abstraction.strength import RIVER_SCALE, canonical_boards, future_figures, river_and_preflop

#: C(n, k) for the colex index of a sorted card set: sum of C(card_i, i + 1).
CHOOSE = np.array([[comb(n, k) for k in range(8)] for n in range(53)], np.int64)
#: COLEX[i][c] = C(c, i + 1): card c's term of the colex index as the set's (i+1)-th smallest
COLEX = [np.ascontiguousarray(CHOOSE[:, i + 1]) for i in range(7)]
BINS = 50


def _scores(table7: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """7-card scores of rows of 7 distinct cards (any order)."""
    s = np.sort(sets.astype(np.uint8, copy=False), axis=1)
    idx = COLEX[0][s[:, 0]]
    for i in range(1, 7):
        idx += COLEX[i][s[:, i]]
    return table7[idx]


def _river_e(table7: np.ndarray, holes: list[list[int]], board: list[int]) -> list[int]:
    """2*wins + ties of each hole in ``holes`` on a complete ``board`` against all 990 opponent
    hands that avoid it: every opponent hand of the board is scored once, for all its holes."""
    rest = [c for c in range(52) if c not in board]
    opp = np.array(list(combinations(rest, 2)), np.int64)
    theirs = _scores(table7, np.hstack([opp, np.tile(board, (len(opp), 1))]))
    mine = _scores(table7, np.array([hole + board for hole in holes]))
    out = []
    for hole, m in zip(holes, mine):
        live = ~np.isin(opp, hole).any(axis=1)    # the opponents that avoid the hole
        assert live.sum() == RIVER_SCALE // 2
        out.append(int(2 * (m > theirs[live]).sum() + (m == theirs[live]).sum()))
    return out


def _future(table7: np.ndarray, board: list[int], holes: list[list[int]]
            ) -> list[tuple[int, int, np.ndarray]]:
    """(sum e, sum e², histogram of e) of each hole in ``holes`` over every completion of
    ``board`` to five cards: each completion's e counts its opponents one by one (the opponents
    that avoid it and the hole). The opponents' scores depend on the board alone, so every
    (completion, opponent) pair of the board is scored once, for all its holes."""
    rest = [c for c in range(52) if c not in board]
    # cards as uint8 (ids < 52): the ~1.07 million 7-card rows per flop stay 7 bytes each
    comp = np.array(list(combinations(rest, 5 - len(board))), np.uint8).reshape(-1, 5 - len(board))
    opp = np.array(list(combinations(rest, 2)), np.uint8)
    bit = np.int64(1) << np.arange(52, dtype=np.int64)
    cmask = bit[comp].sum(axis=1)
    omask = bit[opp].sum(axis=1)
    full = np.hstack([np.tile(np.array(board, np.uint8), (len(comp), 1)), comp])  # 5-card boards
    apart = (cmask[:, None] & omask[None, :]) == 0           # completions x opponent hands
    ci, oi = np.nonzero(apart)
    theirs = np.zeros(apart.shape, table7.dtype)          # 0 (no score) where they overlap
    theirs[ci, oi] = _scores(table7, np.hstack([opp[oi], full[ci]]))
    out = []
    for hole in holes:
        hmask = bit[hole].sum()
        rows = (cmask & hmask) == 0                             # completions avoiding the hole
        ok = apart[rows] & ((omask & hmask) == 0)[None, :]      # opponents avoiding both
        assert np.all(ok.sum(axis=1) == RIVER_SCALE // 2)
        f = full[rows]
        mine = _scores(table7, np.hstack([np.tile(np.array(hole, np.uint8), (len(f), 1)), f]))
        t = theirs[rows]
        e = 2 * ((mine[:, None] > t) & ok).sum(axis=1) + ((mine[:, None] == t) & ok).sum(axis=1)
        hist = np.bincount(np.minimum(e * BINS // RIVER_SCALE, BINS - 1), minlength=BINS)
        out.append((int(e.sum()), int((e * e).sum()), hist))
    return out


def _situations(rng: np.random.Generator, n_boards: int, per_board: int, k: int) -> list[tuple[list[int], list[int]]]:
    out = []
    for _ in range(n_boards):
        deck = rng.permutation(52)
        board = sorted(int(c) for c in deck[:k])
        for j in range(per_board):
            out.append(([int(deck[k + 2 * j]), int(deck[k + 2 * j + 1])], board))
    return out


@pytest.fixture(scope="module")
def table7(artifacts: Path) -> np.ndarray:
    with h5py.File(artifacts / "seven.h5", "r") as f:
        table = np.asarray(f["score"][:])
    # read-only, as the build's memory map and a Dask worker's own table are: one numba
    # specialization of each kernel for all of them (tests/test_dask.py loads these)
    table.flags.writeable = False
    return table


def test_river_values_equal_brute_force(table7: np.ndarray) -> None:
    """10,000 random river situations (500 boards x 20 hands): exact 2*wins + ties."""
    sit = _situations(np.random.default_rng(18), 500, 20, 5)
    boards = np.unique(np.array([b for _, b in sit], np.int64), axis=0)
    # read-only, as the build's memory-mapped table: the river kernel the preflop abstraction
    # build compiled, not a specialization of its own (3.6 CPU s of compiling on a clean clone)
    shared = table7.view()
    shared.flags.writeable = False
    river, _ = river_and_preflop(shared, BINS, boards=boards)
    idx = index_batch(np.array([h + b for h, b in sit], np.int64))
    assert river.value is not None
    got = river.value[idx].astype(np.int64)
    by_board: dict[tuple[int, ...], list[int]] = {}
    for j, (_, b) in enumerate(sit):
        by_board.setdefault(tuple(b), []).append(j)
    want = np.zeros(len(sit), np.int64)
    for b, js in by_board.items():
        want[js] = _river_e(table7, [sit[j][0] for j in js], list(b))
    assert len(sit) == 10_000 and np.array_equal(got, want)


def test_every_river_class_and_preflop_equal_the_heads_up_table(full_pass: FullPass, artifacts: Path,
                                                              preflop_abstraction: Path) -> None:
    """The full pass reaches all 123,156,254 river classes with weights summing to every
    (hole, board) situation; its preflop sums equal preflop.h5's exact heads-up counts (a
    different kernel: 2*wins + ties of each class against one random hand over every deal).
    The pass is the preflop abstraction build's (made once per run, :mod:`full_pass`), so the
    built table holds exactly these preflop figures."""
    pre = full_pass.pre
    assert full_pass.bins == BINS and pre.s1 is not None and pre.hist is not None
    assert full_pass.classes == 123_156_254 and full_pass.value_max <= RIVER_SCALE  # UNSET is larger
    assert full_pass.weight_sum == comb(52, 2) * comb(50, 5)
    assert int(pre.weight.sum()) == comb(52, 2) and len(pre.weight) == 169
    with h5py.File(preflop_abstraction / "abstraction" / "preflop.h5", "r") as f:
        assert np.array_equal(f["s1"][:], pre.s1) and np.array_equal(f["hist"][:], pre.hist)
    assert np.all(pre.hist.sum(axis=1) == comb(50, 5))
    with h5py.File(artifacts / "preflop.h5", "r") as f:
        win = np.asarray(f["heads_up/win"][:], np.int64)   # by two-card colex index
        tie = np.asarray(f["heads_up/tie"][:], np.int64)
    hands = np.array([[a, b] for b in range(52) for a in range(b)], np.int64)
    assert np.array_equal(2 * win + tie, pre.s1[index_batch(hands)].astype(np.int64))


def _check_future(table7: np.ndarray, street: str, sit: list[tuple[list[int], list[int]]]) -> None:
    """The pass over the situations' boards against the brute force, situation by situation."""
    boards = np.unique(np.array([b for _, b in sit], np.int64), axis=0)
    fig = future_figures(street, table7, BINS, boards=boards)
    assert fig.s1 is not None and fig.s2 is not None and fig.hist is not None
    idx = index_batch(np.array([h + b for h, b in sit], np.int64))
    by_board: dict[tuple[int, ...], list[int]] = {}
    for j, (_, b) in enumerate(sit):
        by_board.setdefault(tuple(b), []).append(j)
    for b, js in by_board.items():
        for j, (s1, s2, hist) in zip(js, _future(table7, list(b), [sit[j][0] for j in js])):
            i = idx[j]
            assert (int(fig.s1[i]), int(fig.s2[i])) == (s1, s2) and np.array_equal(fig.hist[i], hist)
    assert np.all(fig.hist[idx].sum(axis=1) == fig.completions)


def test_turn_figures_equal_brute_force(table7: np.ndarray) -> None:
    """1,000 random turn situations (100 boards x 10 hands): sum e, sum e², histogram."""
    sit = _situations(np.random.default_rng(19), 100, 10, 4)
    assert len(sit) == 1_000
    _check_future(table7, "turn", sit)


def test_flop_figures_equal_brute_force(table7: np.ndarray) -> None:
    """200 random flop situations (20 boards x 10 hands), each over its 1,081 turn-river pairs."""
    sit = _situations(np.random.default_rng(20), 20, 10, 3)
    assert len(sit) == 200
    _check_future(table7, "flop", sit)


def test_canonical_board_counts() -> None:
    """Suit-canonical boards: 1,755 flops, 16,432 turns, 134,459 rivers; orbits cover every board."""
    for k, n in ((3, 1_755), (4, 16_432), (5, 134_459)):
        boards, w = canonical_boards(k)
        assert len(boards) == n and int(w.sum()) == comb(52, k)
