"""Sampling of the Monte Carlo kernels (pipeline.equity.montecarlo.fixed, pipeline.equity.montecarlo.ranged): the
batch generator is uniform (chi-square over swap positions, dealt cards and opponents' pairs),
rejected draws are redrawn, the joint table of range assignments lists exactly the compatible
ones, and Monte Carlo agrees with exact counts within 4 standard errors on every kernel."""

from __future__ import annotations

import math
from itertools import combinations, product
from typing import Any

import numpy as np
import pytest

from pipeline.core.rng import REJECTED, seed_state, shuffle_positions, splitmix_fill, step
from pipeline.equity.engine import equity_seats
from pipeline.equity.montecarlo.fixed import deal_cards
from pipeline.equity.montecarlo.ranged import JOINT_MAX, WEIGHT_ONE, prepare_joint, prepare_seats

#: Normal quantile of a one-sided 1e-6 tail: a fair generator fails a test about once in 10^6 runs.
Z_TAIL = 4.753


def chi2_limit(dof: int) -> float:
    """Upper 1e-6 point of chi-square with ``dof`` degrees of freedom (Wilson-Hilferty)."""
    a = 2.0 / (9.0 * dof)
    return dof * (1.0 - a + Z_TAIL * math.sqrt(a)) ** 3


def chi2(counts: np.ndarray, expected: float) -> float:
    """Pearson's statistic of ``counts`` against one expected count per cell."""
    return float(((counts - expected) ** 2).sum() / expected)


def test_splitmix_fill_is_the_step_sequence() -> None:
    s0 = np.uint64(seed_state(7, 3)[0])
    words = np.empty((3, 5), np.uint64)
    s1 = splitmix_fill(s0, words)
    s = s0
    for w in words.reshape(-1):
        t, z = step(s)  # from Python the state comes back as an int: keep it uint64
        s = np.uint64(t)
        assert z == int(w)
    assert s == s1


def test_shuffle_positions_uniform_and_rejections_marked() -> None:
    n, need, batch = 50, 7, 400_000
    words = np.empty(((need + 3) // 4, batch), np.uint64)
    splitmix_fill(np.uint64(seed_state(1, 0)[0]), words)
    pos = np.empty((need, batch), np.uint8)
    shuffle_positions(words, n, need, pos)
    for i in range(need):
        row = pos[i]
        ok = row[row != REJECTED].astype(np.int64)
        assert ok.min() >= i and ok.max() < n
        counts = np.bincount(ok - i, minlength=n - i)
        assert chi2(counts, len(ok) / (n - i)) < chi2_limit(n - i - 1)
        # Lemire rejects exactly (65536 mod k) of the 65536 16-bit values
        p = (65536 % (n - i)) / 65536
        rej = int((row == REJECTED).sum())
        assert abs(rej - batch * p) < Z_TAIL * math.sqrt(batch * p * (1 - p)) + 1
    # all-zero words: every low part is 0, below the threshold unless k divides 65536
    zeros = np.zeros((2, 8), np.uint64)
    shuffle_positions(zeros, 50, 7, pos[:, :8])
    assert (pos[:, :8] == REJECTED).all()


def test_dealt_cards_uniform_and_distinct() -> None:
    live = np.array([c for c in range(52) if c not in (48, 49)], np.uint8)  # As Ks... two cards out
    deals, need = 300_000, 7
    cards = deal_cards(deals, np.uint64(seed_state(5, 0)[0]), live.copy(), need)
    assert cards.shape == (deals, need)
    srt = np.sort(cards, axis=1)
    assert (np.diff(srt.astype(np.int64), axis=1) > 0).all()  # distinct within a deal
    assert np.isin(cards, live).all()
    for i in range(need):  # each position uniform over the live cards
        counts = np.bincount(cards[:, i], minlength=52)[live]
        assert chi2(counts, deals / len(live)) < chi2_limit(len(live) - 1)
    # the opponent's two cards (positions 5, 6) as an unordered pair: uniform over C(50, 2)
    a = np.minimum(cards[:, 5], cards[:, 6]).astype(np.int64)
    b = np.maximum(cards[:, 5], cards[:, 6]).astype(np.int64)
    pairs = np.bincount(a * 52 + b, minlength=52 * 52)
    cells = [x * 52 + y for x, y in combinations(sorted(live.tolist()), 2)]
    assert chi2(pairs[cells], deals / len(cells)) < chi2_limit(len(cells) - 1)


def test_same_stream_same_cards() -> None:
    live = np.arange(52, dtype=np.uint8)
    s = np.uint64(seed_state(9, 4)[0])
    a = deal_cards(5_000, s, live.copy(), 15)
    b = deal_cards(5_000, s, live.copy(), 15)
    assert (a == b).all()


def _agrees_with_exact(ex: Any, mc: Any, n: int) -> None:
    """Every seat's sampled equity within 4 of its standard errors of the exact one, and its
    win rate within 4 binomial standard errors."""
    for e, m in zip(ex.players, mc.players):
        assert m["stderr"] > 0
        assert abs(m["equity"] - e["equity"]) < 4 * m["stderr"], (e, m)
        if e["win"] is not None:
            assert abs(m["win"] - e["win"]) < 4 * math.sqrt(e["win"] * (1 - e["win"]) / n) + 1e-9
            assert m["win"] + m["tie"] + m["lose"] == pytest.approx(1.0)


@pytest.mark.parametrize("hero,vs,opponents,board,seed", [
    ("AsKs", ["QdQc"], None, "", 21),            # hand vs hand preflop (heads-up loop)
    ("7h6h", [], 1, "", 22),                      # hand vs one random preflop (heads-up loop)
    ("AsKs", [], 2, "Ts 7h 2c", 23),              # two random on the flop (multiway loop)
    ("JdJc", ["AhKh"], 1, "Qs 8h 3h 2d", 24),     # hand, hand, random on the turn
    ("random", ["8c8d"], None, "Kd 9s 4h", 25),   # a random seat before a fixed one
])
def test_fixed_seats_mc_within_4_stderr_of_exact(tables, hero, vs, opponents, board, seed) -> None:  # type: ignore[no-untyped-def]
    ex = equity_seats(tables, hero, vs, opponents=opponents, board=board, exact=True)
    n = 300_000
    mc = equity_seats(tables, hero, vs, opponents=opponents, board=board, samples=n, seed=seed)
    assert mc.method == "monte-carlo" and mc.samples == n
    assert len(ex.players) == len(mc.players)
    _agrees_with_exact(ex, mc, n)


def test_five_random_matches_preflop_table(tables) -> None:  # type: ignore[no-untyped-def]
    """Against 5 random hands the preflop table's Monte Carlo column (its own stderr) agrees."""
    table = equity_seats(tables, "AsKs", opponents=5)
    assert table.method != "monte-carlo" or table.stderr is not None
    mc = equity_seats(tables, "AsKs", opponents=5, samples=400_000, seed=31)
    assert mc.method == "monte-carlo" and mc.stderr is not None
    tol = 4 * math.hypot(mc.stderr, table.stderr or 0.0)
    assert abs(mc.equity - table.equity) < tol, (mc.equity, table.equity, tol)
    assert sum(p["equity"] for p in mc.players) == pytest.approx(1.0)


def test_fixed_seats_same_on_one_or_two_threads(tables) -> None:  # type: ignore[no-untyped-def]
    import numba

    start = numba.get_num_threads()
    if start < 2:
        pytest.skip("needs 2 numba threads (set NUMBA_NUM_THREADS=2) to compare 1 with 2")
    runs = []
    for spot in ((("AsKs",), {"opponents": 1}), (("AsKs", ["QdQc"]), {"opponents": 3})):
        per = []
        for k in (1, 2):
            numba.set_num_threads(k)
            r = equity_seats(tables, *spot[0], **spot[1], samples=90_000, seed=77)
            per.append([(p["win"], p["tie"], p["equity"]) for p in r.players])
        runs.append(per)
    numba.set_num_threads(start)
    for per in runs:
        assert per[0] == per[1]


def test_two_random_seats_are_symmetric(tables) -> None:  # type: ignore[no-untyped-def]
    """Heads-up with no known hand (both seats random): each seat's equity is 1/2."""
    n = 200_000
    mc = equity_seats(tables, "random", ["random"], samples=n, seed=41)
    assert mc.method == "monte-carlo" and mc.samples == n
    for p in mc.players:
        assert abs(p["equity"] - 0.5) < 4 * p["stderr"]
    a, b = mc.players
    assert a["win"] + a["tie"] + a["lose"] == pytest.approx(1.0)
    assert a["tie"] == pytest.approx(b["tie"]) and a["win"] == pytest.approx(b["lose"])


def test_complete_board_deals_nothing(tables) -> None:  # type: ignore[no-untyped-def]
    """River with known hands only: every deal is the same showdown (no card is drawn)."""
    ex = equity_seats(tables, "AsKs", ["QdQc"], board="Qs Js Ts 2h 3d", exact=True)
    mc = equity_seats(tables, "AsKs", ["QdQc"], board="Qs Js Ts 2h 3d", samples=5_000, seed=1)
    assert mc.method == "monte-carlo"
    assert [p["equity"] for p in mc.players] == [p["equity"] for p in ex.players] == [1.0, 0.0]


#: Two ranges whose pairs of hands are too many to list (over JOINT_MAX): drawn seat by seat.
WIDE_HERO = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"
WIDE_VILLAIN = "A2s+,K2s+,Q8s+,J8s+,T8s+,97s+,87s,76s,A2o+"


@pytest.mark.parametrize("hero,vs,board,seed,joint", [
    ("AA:0.5,KK", ["QQ,AK:0.25"], "", 51, True),                     # weighted ranges, joint table
    ("QQ+,AKs", ["A2s+", "random"], "2c 4c 5h 9d", 52, True),       # issue 19's shape on a turn
    ("66+,A9s+,KTs+,AJo+,KQo", ["A2s+,K8s+,Q9s+,J9s+,T9s,98s", "random"], "3d 6h Jc 2s", 55,
     True),                                                          # 10,824 pairs: still listed
    (WIDE_HERO, [WIDE_VILLAIN, "random"], "3d 6h Jc 2s", 53, False),  # seat by seat, redraws
    (WIDE_HERO + ":0.3", [WIDE_VILLAIN], "3d 6h Jc", 54, False),
])
def test_range_seats_mc_within_4_stderr_of_exact(tables, hero, vs, board, seed, joint) -> None:  # type: ignore[no-untyped-def]
    ex = equity_seats(tables, hero, vs, board=board, exact=True)
    n = 300_000
    mc = equity_seats(tables, hero, vs, board=board, samples=n, seed=seed)
    assert mc.method == "monte-carlo" and mc.samples == n
    sizes = [p["combos"] for p in mc.players if p["range"] != "random"]
    assert (math.prod(sizes) <= JOINT_MAX) == joint  # the kernel the spot is meant to run
    _agrees_with_exact(ex, mc, n)


def test_joint_table_lists_every_compatible_assignment() -> None:
    keys = np.arange(52, dtype=np.uint64) * np.uint64(1000)  # distinct sums for the check
    seats = [[(51, 50, 1.0), (51, 49, 0.5), (47, 44, 1.0)], [(51, 44, 0.25), (50, 45, 1.0), (43, 42, 1.0)]]
    rows = [h for seat in seats for h in seat]
    off = np.array([0, 3, 6], np.int64)
    a = np.array([h[0] for h in rows], np.int64)
    b = np.array([h[1] for h in rows], np.int64)
    w = np.array([h[2] for h in rows])
    m = (np.uint64(1) << a.astype(np.uint64)) | (np.uint64(1) << b.astype(np.uint64))
    deck = np.array([c for c in range(52) if c != 7], np.uint8)  # one dead card
    hk, hm, multi, lo, size, ck, cm, thr = prepare_seats(off, a, b, w, m, keys)
    assert multi.tolist() == [0, 1] and size.tolist() == [3, 3]
    tk, tm, tdeck, tthr = prepare_joint(deck, multi, lo, size, w, ck, cm)
    want = [(x, y) for y, x in product(seats[1], seats[0]) if not {x[0], x[1]} & {y[0], y[1]}]
    assert tk.shape[0] == len(want) == 5
    top = max(x[2] * y[2] for x, y in want)
    for t, (x, y) in enumerate(want):  # the first seat's hand varies fastest
        assert tk[t].tolist() == [int(keys[x[0]] + keys[x[1]]), int(keys[y[0]] + keys[y[1]])]
        gone = {x[0], x[1], y[0], y[1]}
        live = [c for c in deck.tolist() if c not in gone]
        assert tdeck[t, :len(live)].tolist() == live
        assert int(tthr[t]) == math.floor(x[2] * y[2] / top * WEIGHT_ONE)


def test_range_seats_same_on_one_or_two_threads(tables) -> None:  # type: ignore[no-untyped-def]
    import numba

    start = numba.get_num_threads()
    if start < 2:
        pytest.skip("needs 2 numba threads (set NUMBA_NUM_THREADS=2) to compare 1 with 2")
    spots = [("QQ+,AKs", ["A2s+", "random"], ""),                              # joint table
             (WIDE_HERO, [WIDE_VILLAIN], "3d 6h Jc")]                                 # seat by seat
    for hero, vs, board in spots:
        per = []
        for k in (1, 2):
            numba.set_num_threads(k)
            r = equity_seats(tables, hero, vs, board=board, samples=50_000, seed=78)
            per.append([(p["win"], p["tie"], p["equity"]) for p in r.players] + [r.counts])
        numba.set_num_threads(start)
        assert per[0] == per[1]
