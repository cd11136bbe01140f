"""Exact enumeration of fixed hands (pipeline.equity.exact.enumerate) against brute force on seven.h5."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from refpoker import brute

from pipeline.core.cards import parse_cards
from pipeline.core.fasteval import EvalTables
from pipeline.equity.exact.enumerate import ExactCounts
from pipeline.equity.hand_api import exact_fixed
from pipeline.errors import InputError
from pipeline.query.tables import Tables


@pytest.fixture(scope="module")
def ev(tables: Tables) -> EvalTables:
    return tables.eval_tables()


def check(got: ExactCounts, want: tuple[np.ndarray, np.ndarray, np.ndarray, int]) -> None:
    win, tie, share, nb = want
    assert got.boards == nb
    assert got.win.tolist() == win.tolist()
    assert got.tie.tolist() == tie.tolist()
    assert got.share.tolist() == share.tolist()


def test_aks_vs_qq_preflop_full(ev: EvalTables, tables: Tables) -> None:
    """AsKs vs QdQc over all 1,712,304 boards equals the brute force exactly, with few evaluations."""
    hands = [parse_cards("As Ks"), parse_cards("Qd Qc")]
    got = exact_fixed(np.array(hands, np.uint8), np.zeros(0, np.uint8), 0, ev)
    assert got.boards == comb(48, 5) == 1_712_304
    check(got, brute(tables.table(7), hands, [], []))
    assert got.win[0] + got.win[1] + got.tie[0] == got.boards
    # suits merged once no flush is possible: far fewer evaluations than boards
    assert got.evaluations < got.boards // 5


@pytest.mark.parametrize("seed,n_board,n_seats,n_dead", [
    (1, 5, 2, 0), (2, 5, 4, 3), (3, 4, 2, 0), (4, 4, 3, 2), (5, 4, 4, 0),
    (6, 3, 2, 0), (7, 3, 3, 1), (8, 3, 4, 0), (9, 0, 3, 0), (10, 3, 10, 0), (11, 0, 2, 4),
])
def test_random_spots_vs_brute_force(ev: EvalTables, tables: Tables, seed: int, n_board: int,
                                     n_seats: int, n_dead: int) -> None:
    """Random hands, boards and dead cards (river, turn, flop, preflop; 2-10 seats)."""
    rng = np.random.default_rng(5000 + seed)
    cards = rng.permutation(52)[: 2 * n_seats + n_board + n_dead].tolist()
    hands = [cards[2 * i: 2 * i + 2] for i in range(n_seats)]
    board = cards[2 * n_seats: 2 * n_seats + n_board]
    dead = cards[2 * n_seats + n_board:]
    dead_mask = sum(1 << c for c in dead)
    got = exact_fixed(np.array(hands, np.uint8), np.array(board, np.uint8), dead_mask, ev)
    check(got, brute(tables.table(7), hands, board, dead))


def test_suited_connectors_flush_heavy_spot(ev: EvalTables, tables: Tables) -> None:
    """Hands sharing a suit and a two-flush flop: the flush paths of the walk."""
    hands = [parse_cards("Ah Kh"), parse_cards("7h 6h"), parse_cards("Qc Qh")]
    board = parse_cards("2h 9h Ts")
    got = exact_fixed(np.array(hands, np.uint8), np.array(board, np.uint8), 0, ev)
    check(got, brute(tables.table(7), hands, board, []))


@pytest.mark.parametrize("hero,vs,board", [
    ("As Ks", ["Qd Qc"], "2c 7h Jd"),
    ("Ah Kh", ["9s 9d", "Tc Jc"], "Qh 5h 2d 8c"),
    ("7c 7d", ["As Qs", "Kd Jh"], "7s Ts 2s"),
])
def test_agrees_with_engine(ev: EvalTables, tables: Tables, hero: str, vs: list[str], board: str) -> None:
    """Same counts as exact counting on seven.h5 (pipeline.equity.hand_api.equity with --vs hands)."""
    from pipeline.equity.hand_api import equity

    res = equity(tables, hero, board, vs=vs, exact=True)
    hands = [parse_cards(hero)] + [parse_cards(v) for v in vs]
    got = exact_fixed(np.array(hands, np.uint8), np.array(parse_cards(board), np.uint8), 0, ev)
    assert got.boards == res.deals
    assert (int(got.win[0]), int(got.tie[0])) == (res.counts["win"], res.counts["tie"])
    assert int(got.share[0]) == res.counts["equity_numerator"]
    for p, row in enumerate(res.players):
        assert got.win[p] / got.boards == row["win"] and got.tie[p] / got.boards == row["tie"]


@pytest.mark.parametrize("hands,board,dead", [
    ([[51, 47]], [], 0),                      # one seat
    ([[51, 47], [51, 3]], [], 0),             # a card twice
    ([[51, 47], [1, 2]], [4, 5], 0),          # two board cards
    ([[51, 47], [1, 2]], [], 1 << 51),        # dead card in a hand
    ([[51, 52], [1, 2]], [], 0),              # id out of range
])
def test_bad_input(ev: EvalTables, hands: list[list[int]], board: list[int], dead: int) -> None:
    with pytest.raises(InputError):
        exact_fixed(np.array(hands), np.array(board, np.int64), dead, ev)
