"""Every-seat equity with ranges: exact results against a brute force on the dense 7-card
table, the preflop tables, Monte Carlo against exact, the stopping rules, the command line."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from cli_runner import run_main

from pipeline.core.cards import parse_cards
from pipeline.equity.engine import equity_seats, preflop
from pipeline.equity.hands.starting_hands import HOLE_CARDS
from pipeline.equity.seating import parse_table


def brute_force(tables, table):  # type: ignore[no-untyped-def]
    """Every board completion x every non-conflicting assignment, scored with seven.h5.

    Returns per seat [win, tie, lose] counts, share sums (Fractions), the unit-weight deal
    count, and the weighted equity per seat (Fractions of the product-of-weights total)."""
    P = len(table.seats)
    hands = [[(tuple(int(c) for c in HOLE_CARDS[h]), Fraction(w).limit_denominator(10 ** 6))
              for h, w in zip(s.hands, s.weights)] for s in table.seats]
    known = set(table.board) | set(table.dead) | {c for s in table.seats if s.is_single
                                                  for c in s.cards()}
    live = [c for c in range(52) if c not in known]
    counts = [[0, 0, 0] for _ in range(P)]
    shares = [Fraction(0)] * P
    wshares = [Fraction(0)] * P
    deals = 0
    wtotal = Fraction(0)
    for extra in itertools.combinations(live, 5 - len(table.board)):
        board = list(table.board) + list(extra)
        bset = set(board)
        for combo in itertools.product(*hands):
            cards = [c for (h, _) in combo for c in h]
            if len(set(cards)) != len(cards) or bset & set(cards):
                continue
            w = Fraction(1)
            for _, x in combo:
                w *= x
            sc = [tables.score7(list(h) + board) for (h, _) in combo]
            best = max(sc)
            k = sc.count(best)
            deals += 1
            wtotal += w
            for p in range(P):
                if sc[p] == best:
                    counts[p][0 if k == 1 else 1] += 1
                    shares[p] += Fraction(1, k)
                    wshares[p] += w * Fraction(1, k)
                else:
                    counts[p][2] += 1
    return counts, shares, deals, [s / wtotal for s in wshares]


SPOTS = [
    # (hero, vs, board): small ranges on turn and river boards, 2 and 3 seats
    ("AK,QQ", ["JJ-99", "AQs"], "Ks 9d 4c 2h"),
    ("AsKs,QQ", ["T9s,87s"], "Qs Js 3d 2c"),
    ("TT+", ["AK", "random"], "Ah Kd 7c 5s 2s"),
    ("AA,KK", ["QQ", "JTs"], "9h 8h 2c 3d"),
    # four seats: the last seat's hands are classed against the best of the other three
    # (counted from its tables: 32 hands; the straight board's AK is visited hand by hand)
    ("AA,KK", ["QQ", "JTs", "AK,AQ"], "9h 8h 2c 3d 4s"),
    # a straight on the board: most deals are 3- and 4-way ties, AK alone beats it
    ("22,33", ["44", "AK", "55"], "Ts Jd Qh Kc 9s"),
]


@pytest.mark.parametrize("hero,vs,board", SPOTS)
def test_exact_ranges_equal_brute_force(tables, hero, vs, board) -> None:  # type: ignore[no-untyped-def]
    res = equity_seats(tables, hero, vs, board=board, exact=True)
    assert res.method == "exact"
    table = parse_table(tables, hero, vs, None, board, "")
    counts, shares, deals, _ = brute_force(tables, table)
    assert res.deals == deals
    for p, row in enumerate(res.players):
        assert round(row["win"] * deals) == counts[p][0]
        assert round(row["tie"] * deals) == counts[p][1]
        assert round(row["lose"] * deals) == counts[p][2]
        assert row["equity"] == pytest.approx(float(shares[p] / deals), abs=1e-12)
    h = res.counts
    assert (h["win"], h["tie"], h["lose"]) == tuple(counts[0])
    assert Fraction(h["equity_numerator"], h["equity_denominator"]) == shares[0] / deals


@pytest.mark.parametrize("hero,vs,board", [
    ("KK:0.5,AKs:0.25,QJs", ["AA:0.3,JJ"], "Kd Jh 5c 2s"),
    # three seats: the last seat's weights visited hand by hand, and counted from its
    # per-card prefix sums (26 hands)
    ("KK:0.5,AKs:0.25,QJs", ["AA:0.3,JJ", "T9s:0.5,QJs:0.2,KQs"], "Kd Jh 5c 2s 3s"),
    ("KK:0.5,AKs:0.25,QJs", ["AA:0.3,JJ", "T9s:0.5,QJs:0.2,KQs,66-88:0.7"], "Kd Jh 5c 2s 3s"),
])
def test_weighted_ranges_equal_brute_force(tables, hero, vs, board) -> None:  # type: ignore[no-untyped-def]
    res = equity_seats(tables, hero, vs, board=board, exact=True)
    table = parse_table(tables, hero, vs, None, board, "")
    _, _, _, weq = brute_force(tables, table)
    for p, row in enumerate(res.players):
        assert row["equity"] == pytest.approx(float(weq[p]), abs=1e-12)


def test_preflop_ranges_equal_matchup_table(tables) -> None:  # type: ignore[no-untyped-def]
    from pipeline.equity.tables.preflop import matchup_tables

    mt = matchup_tables(tables)
    if mt is None:
        pytest.skip("preflop_matchups.h5 is not built (stage of issue 11's evaluator half)")
    res = preflop(tables, "QQ+,AKs", vs="JJ-88,AQs+,KQs")
    assert res.source and "matchups" in res.source
    # the same spot by enumerating every board (the range kernel, not the table)
    from pipeline.equity.question import Question
    from pipeline.equity.seating import seat_table
    from pipeline.equity.solve_exact import range_enumeration

    q = Question.parse("QQ+,AKs", ["JJ-88,AQs+,KQs"], exact=True)
    enum = range_enumeration(q, seat_table(q, tables), tables)
    assert enum is not None and enum.run().counts == res.counts
    # and one pair cell against the exact hand-vs-hand engine
    from pipeline.equity.hand_api import equity
    from pipeline.equity.hands.starting_hands import hole_index

    a, b = parse_cards("AsKs"), parse_cards("QdQc")
    r = equity(tables, a, vs=[b])
    assert int(np.asarray(mt.win)[hole_index(*a), hole_index(*b)]) == r.counts["win"]
    assert int(np.asarray(mt.tie)[hole_index(*a), hole_index(*b)]) == r.counts["tie"]


def test_preflop_vs_random_from_table(tables) -> None:  # type: ignore[no-untyped-def]
    import h5py

    res = equity_seats(tables, "AsAd")
    assert res.method == "exact" and res.source and "preflop.h5" in res.source
    with h5py.File(tables.path / "preflop.h5", "r") as f:
        h = int(np.flatnonzero((f["hands/text"][:] == b"As Ad") | (f["hands/text"][:] == b"Ad As"))[0])
        row = (int(f["heads_up/win"][h]), int(f["heads_up/tie"][h]), int(f["heads_up/lose"][h]))
    assert (res.counts["win"], res.counts["tie"], res.counts["lose"]) == row
    assert res.deals == 2_097_572_400
    r3 = equity_seats(tables, "AsAd", opponents=3)
    assert r3.method == "monte-carlo" and r3.stderr is not None and 0.6 < r3.equity < 0.67
    assert sum(p["equity"] for p in r3.players) == pytest.approx(1.0)


@pytest.mark.parametrize("hero,vs,board,seed", [
    ("AK,QQ", ["JJ-99", "AQs,KQs"], "Ks 9d 4c", 11),
    ("TT+:0.5,AKs", ["random", "87s,65s"], "Th 7h 2c 5d", 12),
])
def test_monte_carlo_within_4_stderr_of_exact(tables, hero, vs, board, seed) -> None:  # type: ignore[no-untyped-def]
    ex = equity_seats(tables, hero, vs, board=board, exact=True)
    mc = equity_seats(tables, hero, vs, board=board, samples=200_000, seed=seed)
    assert mc.method == "monte-carlo" and mc.samples == 200_000
    for e, m in zip(ex.players, mc.players):
        assert m["stderr"] > 0
        assert abs(m["equity"] - e["equity"]) < 4 * m["stderr"], (e, m)
        if e["win"] is not None:
            assert abs(m["win"] - e["win"]) < 4 * np.sqrt(e["win"] * (1 - e["win"]) / 200_000) + 1e-9


def test_stderr_target_really_stops(tables) -> None:  # type: ignore[no-untyped-def]
    target = 0.003
    res = equity_seats(tables, "QQ+,AKs", ["JJ-88,AQs+,KQs", "random"], stderr=target, seed=5)
    ses = [p["stderr"] for p in res.players]
    assert max(ses) <= target
    # about var / target^2 deals (var <= 1/4), not far more
    assert res.samples is not None and res.samples <= 2 * 0.25 / target ** 2
    assert res.note and "stderr" in res.note


def test_same_result_on_one_or_two_threads(tables) -> None:  # type: ignore[no-untyped-def]
    import numba

    runs = []
    start = numba.get_num_threads()
    if start < 2:
        pytest.skip("needs 2 numba threads (set NUMBA_NUM_THREADS=2) to compare 1 with 2")
    for n in (1, 2):
        numba.set_num_threads(n)
        r = equity_seats(tables, "AK,99", ["random", "QJs+"], board="2c 7d 9h", samples=70_000,
                         seed=99)
        runs.append([(p["win"], p["tie"], p["equity"]) for p in r.players])
    numba.set_num_threads(start)
    assert runs[0] == runs[1]


def test_cli_range_vs_range(capsys, artifacts) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_main(capsys, "--artifacts", str(artifacts), "equity", "QQ+,AKs", "--vs",
                              "JJ-88,AQs+,KQs", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["hole"] == "QQ+,AKs" and len(d["players"]) == 2
    assert [p["combos"] for p in d["players"]] == [22, 36]
    assert sum(p["equity"] for p in d["players"]) == pytest.approx(1.0)
    assert 0.72 < d["players"][0]["equity"] < 0.76
    for k in ("range", "combos", "win", "tie", "lose", "equity", "stderr"):
        assert k in d["players"][1]


def test_time_limit_stops(tables) -> None:  # type: ignore[no-untyped-def]
    equity_seats(tables, "AK", ["QQ", "random"], samples=1_000, seed=1)  # kernels loaded
    res = equity_seats(tables, "AK", ["QQ", "random"], time_limit=0.3, seed=1)
    assert res.method == "monte-carlo" and res.samples and res.samples > 0
    assert res.note and "time limit" in res.note


# one random seat is counted per board (rangerandom), not walked deal by deal (rangeexact)
COUNTED = [
    # (hero, vs, board, dead)
    ("random", ["QQ", "AKs"], "Kd 9s 4c 2h", ""),
    ("JJ+", ["random", "AsKs"], "Qs Js 3d 2c", ""),
    ("AA,KK:0.5", ["T9s", "random"], "9h 8h 2c", "Ad"),
    ("7c7d", ["random"], "7h 2s 9d Kc", "Ac Ah"),
    ("QQ+,AKs", ["A2s+", "random"], "2c 4c 5h 6d", ""),
    ("AK", ["22-55", "random"], "As 5d 5c", "Kh"),
    ("KK", ["AK", "QJs", "random"], "Kd 9s 4c 2h 3h", ""),
]


@pytest.mark.parametrize("hero,vs,board,dead", COUNTED)
def test_one_random_seat_counted_per_board_equals_the_deal_walk(tables, hero, vs, board, dead) -> None:  # type: ignore[no-untyped-def]
    from pipeline.equity.exact.range_random import range_random
    from pipeline.equity.exact.ranges import range_exact, range_group
    from pipeline.equity.seating import seats_arrays

    table = parse_table(tables, hero, vs, None, board, dead)
    ranged = [s for s, r in zip(table.seats, table.random) if not r]
    rnd = [s for s, r in zip(table.seats, table.random) if r]
    assert len(rnd) == 1
    walk = seats_arrays(ranged + rnd)
    counted = seats_arrays(ranged)
    gone = set(table.board) | set(table.dead) | {c for s in ranged if s.is_single for c in s.cards()}
    avail = np.array([c for c in range(52) if c not in gone], np.int64)
    r = 5 - len(table.board)
    ev = tables.eval_tables()
    args = (np.array(table.board, np.int64), avail, r)
    keys = (ev.card_keys, ev.offsets, ev.ranks, ev.flush)
    a_i, a_tot, a_f, a_ftot = range_exact(walk, *args, range_group(walk, [table.board, table.dead]), *keys)
    b_i, b_tot, b_f, b_ftot = range_random(counted, *args, range_group(counted, [table.board, table.dead]),
                                           *keys)
    assert a_tot == b_tot > 0
    assert np.array_equal(a_i, b_i)
    assert np.allclose(a_f, b_f, rtol=1e-12) and a_ftot == pytest.approx(b_ftot, rel=1e-12)
    # and the engine chooses it, with the same per-seat answer
    res = equity_seats(tables, hero, vs, board=board, dead=dead, exact=True)
    assert res.method == "exact"
    if all(s.unit_weights for s in table.seats):
        assert res.deals == a_tot
