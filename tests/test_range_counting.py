"""The exact range kernels without the built tables: every count and weighted sum against a
brute force that scores every (board, assignment) deal in numpy, and the per-hand rows against
the numpy pair counts. Small spots, so the bounds-checked tier (tests/test_wild.py) runs them:
the walk with its last seat counted from its tables or visited hand by hand, 3 and 4 seats,
weights, suit symmetry, one random seat counted per board. (The evaluator itself is checked
against the dense 7-card table elsewhere; the engine's answers against a brute force on that
table in tests/test_equity_seats.py.)"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from eval_once import eval_tables

from pipeline.core.cards import parse_cards
from pipeline.core.constants import SHARE_SCALE
from pipeline.core.evalkeys import EvalTables, score_keys
from pipeline.equity.exact.per_hand import split_rows
from pipeline.equity.exact.range_random import range_random
from pipeline.equity.exact.ranges import VISIT_MAX, range_exact, range_group
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_MASKS
from pipeline.equity.ranges.parse import Range, parse_range
from pipeline.equity.spots.seats import Seats

#: (seats, board): the last seat (the largest) counted or visited, weights, 3 and 4 seats
SPOTS: dict[str, tuple[list[str], str]] = {
    "counted": (["AA,KK", "QQ,JTs", "AK,AQ"], "9h 8h 2c 3d"),  # 32 hands, turn
    "visited": (["AA,KK", "QQ", "JTs"], "9h 8h 2c 3d"),
    "weighted": (["KK:0.5,AKs:0.25,QJs", "AA:0.3,JJ", "66-88:0.7,T9s"], "Kd Jh 5c 2s"),
    "four-seats": (["AA,KK", "QQ", "JTs", "AK,AQ"], "9h 8h 2c 3d 4s"),
    # one suit on the board: 6 suit symmetries fold the boards
    "symmetric": (["QQ,JJ", "AK", "T9s,98s,87s,76s,65s"], "Ks 9s 4s 2s"),
}


@pytest.fixture(scope="module")
def ev() -> EvalTables:
    return eval_tables()


def _ranges(texts: list[str], board: str) -> list[Range]:
    """The seats' ranges without the hands touching the board (or a named hand's cards)."""
    ranges = [parse_range(t) for t in texts]
    known = 0
    for c in [*parse_cards(board), *(c for r in ranges if r.is_single for c in r.cards())]:
        known |= 1 << c
    return [r if r.is_single else r.without(known, "the board") for r in ranges]


def _spot(texts: list[str], board: str) -> tuple[Seats, np.ndarray, np.ndarray, int, list[int]]:
    """The kernels' seats (in the order given), the board, the cards left, how many to come."""
    ranges = _ranges(texts, board)
    off = np.cumsum([0, *(r.combos for r in ranges)])
    hands = np.concatenate([r.hands for r in ranges])
    seats = Seats(off, HOLE_CARDS[hands, 0].copy(), HOLE_CARDS[hands, 1].copy(),
                  np.concatenate([r.weights for r in ranges]), HOLE_MASKS[hands].copy(), 0)
    ids = parse_cards(board)
    gone = set(ids) | {c for r in ranges if r.is_single for c in r.cards()}
    avail = np.array([c for c in range(52) if c not in gone], np.int64)
    return seats, np.array(ids, np.int64), avail, 5 - len(ids), ids


def _brute(seats: Seats, board: list[int], avail: np.ndarray, r: int, ev: EvalTables
           ) -> tuple[np.ndarray, int, np.ndarray, float]:
    """Per seat [win, tie, lose, share] over every board x card-disjoint assignment, the deal
    count, and the same weighted by the product of the assignment's weights, and its total."""
    P = seats.off.shape[0] - 1
    rows = [range(seats.off[p], seats.off[p + 1]) for p in range(P)]
    combos = np.array([c for c in itertools.product(*rows)
                       if len({int(x) for k in c for x in (seats.hand_a[k], seats.hand_b[k])}) == 2 * P])
    cards = np.stack([seats.hand_a[combos], seats.hand_b[combos]], axis=2)  # [deal, seat, 2]
    w = seats.hand_w[combos].prod(axis=1)
    keys = ev.card_keys.astype(np.int64)
    acc = np.zeros((P, 4), np.int64)
    wacc = np.zeros((P, 4))
    total, wtotal = 0, 0.0
    for extra in itertools.combinations(avail.tolist(), r):
        full = np.array(board + list(extra), np.int64)
        live = ~np.isin(cards, full).any(axis=(1, 2))
        hands = np.concatenate([cards[live], np.broadcast_to(full, (live.sum(), P, len(full)))], axis=2)
        sc = score_keys(keys[hands].sum(axis=2), (np.int64(1) << hands).sum(axis=2), ev)
        top = sc == sc.max(axis=1, keepdims=True)
        k = top.sum(axis=1, keepdims=True)
        cols = [top & (k == 1), top & (k > 1), ~top]
        share = np.where(top, SHARE_SCALE // k, 0)
        wl = w[live][:, None]
        for c, m in enumerate(cols):
            acc[:, c] += m.sum(axis=0)
            wacc[:, c] += (m * wl).sum(axis=0)
        acc[:, 3] += share.sum(axis=0)
        wacc[:, 3] += (share * wl).sum(axis=0)
        total += int(live.sum())
        wtotal += float(w[live].sum())
    return acc, total, wacc, wtotal


@pytest.mark.parametrize("texts,board", SPOTS.values(), ids=SPOTS.keys())
def test_range_kernel_equals_the_brute_force(ev: EvalTables, texts: list[str], board: str) -> None:
    seats, b, avail, r, board_ids = _spot(texts, board)
    acc, total, wacc, wtotal = _brute(seats, board_ids, avail, r, ev)
    a_i, t_i, a_f, t_f = range_exact(seats, b, avail, r, range_group(seats, [board_ids, []]), *ev)
    assert t_i == total > 0
    assert np.array_equal(a_i, acc)
    assert t_f == pytest.approx(wtotal, rel=1e-12)
    assert np.allclose(a_f, wacc, rtol=1e-12)


def test_both_ways_of_the_last_seat_are_used() -> None:
    sizes = [_ranges(*spot)[-1].combos for spot in SPOTS.values()]
    assert min(sizes) <= VISIT_MAX < max(sizes)


SPLIT = ("counted", "weighted", "symmetric")


@pytest.mark.parametrize("texts,board", [SPOTS[k] for k in SPLIT], ids=SPLIT)
def test_rows_per_hand_add_up_and_equal_each_hands_own_spot(ev: EvalTables, texts: list[str],
                                                            board: str) -> None:
    """The per-hand rows of the first seat sum to its range total, and each row is the spot
    with that hand in the seat's place (counted again, the hand a one-hand range)."""
    ranges = _ranges(texts, board)
    h_i, h_f = split_rows(ranges, parse_cards(board), [], ev)
    seats, b, avail, r, board_ids = _spot(texts, board)
    a_i, t_i, a_f, t_f = range_exact(seats, b, avail, r, range_group(seats, [board_ids, []]), *ev)
    assert np.array_equal(h_i[:, :4].sum(axis=0), a_i[0]) and h_i[:, 4].sum() == t_i
    assert np.allclose(h_f[:, :4].sum(axis=0), a_f[0], rtol=1e-12)
    for k in (0, len(h_i) // 2, len(h_i) - 1):
        a, c = (int(x) for x in HOLE_CARDS[ranges[0].hands[k]])
        one = [f"{_name(c)}{_name(a)}", *texts[1:]]
        s1, b1, av1, r1, bids = _spot(one, board)
        o_i, o_t, o_f, o_tf = range_exact(s1, b1, av1, r1, range_group(s1, [bids, []]), *ev)
        assert np.array_equal(h_i[k, :4], o_i[0]) and h_i[k, 4] == o_t
        w = ranges[0].weights[k]
        assert np.allclose(h_f[k, :4], w * o_f[0], rtol=1e-12)


def _name(card: int) -> str:
    return "23456789TJQKA"[card // 4] + "cdhs"[card % 4]


@pytest.mark.parametrize("texts,board", [pytest.param(["QQ", "AKs"], "Kd 9s 4c 2h", id="turn"),
                                         pytest.param(["AA,KK:0.5", "T9s,87s"], "9h 8h 2c", id="flop")])
def test_one_random_seat_counted_equals_it_walked(ev: EvalTables, texts: list[str], board: str) -> None:
    seats, b, avail, r, board_ids = _spot(texts, board)
    walk, *_ = _spot([*texts, "random"], board)
    a_i, a_t, a_f, a_tf = range_exact(walk, b, avail, r, range_group(walk, [board_ids, []]), *ev)
    c_i, c_t, c_f, c_tf = range_random(seats, b, avail, r, range_group(seats, [board_ids, []]), *ev)
    assert a_t == c_t > 0 and np.array_equal(a_i, c_i)
    assert np.allclose(a_f, c_f, rtol=1e-12) and a_tf == pytest.approx(c_tf, rel=1e-12)
