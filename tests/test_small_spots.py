"""The numpy path for small heads-up spots (pipeline.equity.exact.small_spots) against the numba
kernels it stands in for, and the promise it exists for: no numba in the process."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import chain, combinations
from math import comb

import numpy as np
import pytest
from eval_once import eval_tables

from pipeline.core.evalkeys import EvalTables, score_keys
from pipeline.core.fasteval import score_rows
from pipeline.equity.exact.small_spots import headsup_small, is_small
from pipeline.equity.seating import parse_table, seats_arrays


@pytest.fixture(scope="module")
def ev() -> EvalTables:
    return eval_tables()


def _keys_masks(cards: np.ndarray, ev: EvalTables) -> tuple[np.ndarray, np.ndarray]:
    return ev.card_keys[cards].sum(axis=1), (np.uint64(1) << cards.astype(np.uint64)).sum(axis=1)


def test_score_keys_every_five_card_hand(ev: EvalTables) -> None:
    n = comb(52, 5)
    cards = np.fromiter(chain.from_iterable(combinations(range(52), 5)), np.int64, count=5 * n).reshape(n, 5)
    ref = np.empty(len(cards), np.uint16)
    assert score_rows(cards, ev, ref) == 0
    got = score_keys(*_keys_masks(cards, ev), ev)
    assert got.dtype == np.int64 and np.array_equal(got, ref)
    assert len(np.unique(got)) == 7462


@pytest.mark.parametrize("k", [6, 7])
def test_score_keys_random_hands(ev: EvalTables, k: int) -> None:
    rng = np.random.default_rng(k)
    cards = np.argsort(rng.random((200_000, 52)), axis=1)[:, :k]
    ref = np.empty(len(cards), np.uint16)
    assert score_rows(np.ascontiguousarray(cards), ev, ref) == 0
    keys, masks = _keys_masks(cards, ev)
    assert np.array_equal(score_keys(keys, masks, ev), ref)
    # any shape, int64 or uint64
    assert np.array_equal(score_keys(keys.reshape(400, 500).astype(np.int64), masks.reshape(400, 500), ev),
                          ref.reshape(400, 500))


SPOTS = [
    # hero, villain, board, dead
    ("QQ+,AKs", "JJ-88", "2c 4c 5h", ""),
    ("AsKs", "QQ+", "Qs Js 3d", ""),
    ("AA,KK:0.5", "T9s,98s:0.25", "9h 8h 2c", "Ad"),
    ("AhKh", "QcQd", "2h 7h 9c Td", ""),
    ("ATs+,KQs", "22-66", "Kd 9s 4c 2h 3h", ""),
    ("77", "AK,AQ", "7h 2s 9d Kc", "Ac Ah"),
    ("JJ+", "JJ+", "Jc 5d 2s", ""),
    ("AhAd", "AcAs", "Kh Qh Jh", ""),
]


def _kernel_and_numpy(ev: EvalTables, hero: str, villain: str, board: str, dead: str
                      ) -> tuple[tuple[np.ndarray, int, np.ndarray, float], tuple[np.ndarray, int, np.ndarray, float]]:
    from pipeline.equity.exact.ranges import range_exact, range_group

    table = parse_table(None, hero, [villain], None, board, dead)
    seats = seats_arrays(table.seats)
    gone = set(table.board) | set(table.dead) | {c for s in table.seats if s.is_single for c in s.cards()}
    avail = np.array([c for c in range(52) if c not in gone], np.int64)
    r = 5 - len(table.board)
    b = np.array(table.board, np.int64)
    kernel = range_exact(seats, b, avail, r, range_group(seats, [table.board, table.dead]), *ev)
    assert is_small(seats, len(avail), r)
    return kernel, headsup_small(seats, b, avail, r, *ev)


@pytest.mark.parametrize("hero,villain,board,dead", SPOTS)
def test_same_sums_as_the_range_kernel(ev: EvalTables, hero: str, villain: str, board: str,
                                       dead: str) -> None:
    (k_i, k_tot, k_f, k_ftot), (n_i, n_tot, n_f, n_ftot) = _kernel_and_numpy(ev, hero, villain, board, dead)
    assert n_tot == k_tot > 0
    assert np.array_equal(n_i, k_i)
    assert np.allclose(n_f, k_f, rtol=1e-12) and n_ftot == pytest.approx(k_ftot, rel=1e-12)


def test_counts_by_brute_force(ev: EvalTables) -> None:
    """AhKh vs QcQd on 2h 7h 9c Td: every river, scored one by one."""
    (_, _, _, _), (n_i, n_tot, _, _) = _kernel_and_numpy(ev, "AhKh", "QcQd", "2h 7h 9c Td", "")
    from pipeline.core.cards import parse_cards

    board = parse_cards("2h7h9cTd")
    hero, vill = parse_cards("AhKh"), parse_cards("QcQd")
    rivers = [c for c in range(52) if c not in board + hero + vill]
    rows = np.array([[*board, c, *h] for c in rivers for h in (hero, vill)], np.int64)
    s = np.empty(len(rows), np.uint16)
    score_rows(rows, ev, s)
    a, b = s[0::2].astype(int), s[1::2].astype(int)
    assert n_tot == len(rivers) == 44
    assert n_i[0, :3].tolist() == [int((a > b).sum()), int((a == b).sum()), int((a < b).sum())]


def test_engine_answers_small_spots_without_numba(artifacts) -> None:  # type: ignore[no-untyped-def]
    """The first exact range question of a fresh process loads no numba (issue 33), and its
    counts are the kernel's."""
    code = (
        "import json, sys\n"
        "from pipeline import Tables\n"
        "from pipeline.equity.engine import equity_seats\n"
        f"r = equity_seats(Tables({str(artifacts)!r}), 'QQ+,AKs', vs=['JJ-88'], board='2c 4c 5h')\n"
        "print(json.dumps({'numba': 'numba' in sys.modules, 'counts': r.counts.to_json(), 'method': r.method}))\n"
    )
    out = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout)
    assert out["numba"] is False and out["method"] == "exact"
    from pipeline.query.tables import Tables

    (k_i, k_tot, _, _), _ = _kernel_and_numpy(Tables(artifacts).eval_tables(), "QQ+,AKs", "JJ-88",
                                             "2c 4c 5h", "")
    assert out["counts"]["win"] == int(k_i[0, 0]) and out["counts"]["lose"] == int(k_i[0, 2])
    assert out["counts"]["equity_denominator"] == 2520 * k_tot
