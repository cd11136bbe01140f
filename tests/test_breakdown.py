"""``equity --breakdown``: each combo's share of the deals and its equity. The shares sum to 1
and their weighted mean of the rows is the engine's range answer, exactly where exact; rows
are checked against a brute force written here from the definitions."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Any

import pytest
from cli_runner import assert_one_error, run_here

from pipeline.core.cards import parse_cards
from pipeline.equity.breakdown import equity_breakdown
from pipeline.equity.engine import equity_seats

#: (hero, vs, random opponents, board, dead): preflop, flop, turn and river, ranges on the others
SPOTS: list[tuple[str, list[str], int | None, str, str]] = [
    ("QQ+,AKs", ["JJ,AQs"], None, "", ""),
    ("TT+", [], 1, "", ""),
    ("AKs,AKo", ["QQ"], None, "", ""),
    ("22-55", ["random"], None, "", ""),
    ("AA,KK", [], 2, "", ""),
    ("AK,QQ", ["random"], None, "Ks 9d 4c", ""),
    ("AKs,KQs", ["JJ+"], None, "Qs 7s 2d", ""),
    ("T9s,87s", ["AA"], None, "9h 8h 2c", ""),
    ("JJ+", ["AK"], None, "Jc 5d 2s", "Ah"),
    ("A5s-A2s", ["KK", "QQ"], None, "5c 4d 3h", ""),
    ("AK", ["QQ", "random"], None, "Ks 9d 4c 2h", ""),
    ("99+", ["AQs+"], None, "Qd 9c 4s 2h", ""),
    ("KQ", ["random"], None, "Kd Qc 7h 7s", ""),
    ("77,88", ["AK:0.5,QQ"], None, "8c 7d 2s 3h", ""),
    ("AhKh,QsQd", ["JJ"], None, "Th 9h 2c 3d", "Jc"),
    ("QQ,JJ", ["AK"], None, "As 7c 2d 9h Kd", ""),
    ("AK,AQ", ["random"], None, "Ah Qc 7d 5s 2c", ""),
    ("TT-88", ["A9s+", "KQs"], None, "Td 8d 3c 2s 4h", ""),
    ("A2s+", ["KK+"], None, "Ks Kd 2c 3c 4c", ""),
    ("JTs,98s", ["random", "random"], None, "Js Ts 2d 3c 4h", ""),
    ("AK,QQ", ["JJ"], None, "Ks 9d 4c", ""),
]


@pytest.mark.parametrize("spot", SPOTS, ids=lambda s: f"{s[0]} vs {s[1] or s[2]} on {s[3] or '-'}")
def test_rows_add_up_to_the_range(tables: Any, spot: tuple[str, list[str], int | None, str, str]) -> None:
    hero, vs, n, board, dead = spot
    bd = equity_breakdown(tables, hero, vs, n, board, dead)
    plain = equity_seats(tables, hero, vs, n, board, dead)
    assert sum(r.frequency for r in bd.combos) == pytest.approx(1.0, abs=1e-12)
    assert sum(r.frequency for r in bd.classes) == pytest.approx(1.0, abs=1e-12)
    mean = sum(r.frequency * r.equity for r in bd.combos)
    assert bd.result.equity == pytest.approx(mean, abs=1e-12)
    assert [r.equity for r in bd.combos] == sorted((r.equity for r in bd.combos), reverse=True)
    assert sum(r.combos for r in bd.classes) == len(bd.combos)
    if all(r.frequency_exact is not None for r in bd.combos):
        # exact: the shares are fractions summing to 1 and the mean is the range's count
        assert sum(r.frequency_exact for r in bd.combos if r.frequency_exact) == 1
        total = sum(r.frequency_exact * r.equity_exact for r in bd.combos
                    if r.frequency_exact is not None and r.equity_exact is not None)
        c = plain.counts
        assert total == Fraction(c["equity_numerator"], c["equity_denominator"])
        for cls in bd.classes:
            members = [r for r in bd.combos if r.label in _combos_of(cls.label, bd)]
            assert cls.frequency_exact == sum(r.frequency_exact for r in members if r.frequency_exact)
    elif plain.method == "exact":
        # exact with weights: floats, the same answer to rounding
        assert bd.result.equity == pytest.approx(plain.equity, abs=1e-12)
    else:
        # sampled rows (or rows read from a Monte Carlo column) carry their standard error
        assert all(r.stderr is not None for r in bd.combos)
        assert abs(bd.result.equity - plain.equity) < 4 * (bd.result.stderr or 0) + 4 * (plain.stderr or 0)


def _combos_of(cls: str, bd: Any) -> set[str]:
    """Combo labels of a class, from the combos' own ranks and suits."""
    out = set()
    for r in bd.combos:
        a, b = r.label.split()
        hi, lo = sorted((a, b), key=lambda x: "23456789TJQKA".index(x[0]), reverse=True)
        name = hi[0] + lo[0] + ("" if hi[0] == lo[0] else "s" if hi[1] == lo[1] else "o")
        if name == cls:
            out.add(r.label)
    return out


# ------------------------------------------------------------------ brute force, from definitions
def _brute_rows(tables: Any, hero: list[tuple[int, int]], others: list[list[tuple[int, int]]],
                board: list[int], dead: list[int]) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    """Per hero combo: (share of all deals, equity) by walking every deal."""
    deals: dict[tuple[int, int], int] = {}
    shares: dict[tuple[int, int], Fraction] = {}
    for h in hero:
        for combo in itertools.product(*others):
            cards = list(h) + [c for o in combo for c in o]
            if len(set(cards)) != len(cards) or set(cards) & (set(board) | set(dead)):
                continue
            live = [c for c in range(52) if c not in set(cards) | set(board) | set(dead)]
            for extra in itertools.combinations(live, 5 - len(board)):
                b = board + list(extra)
                sc = [tables.score7(list(x) + b) for x in (h, *combo)]
                best = max(sc)
                deals[h] = deals.get(h, 0) + 1
                if sc[0] == best:
                    shares[h] = shares.get(h, Fraction(0)) + Fraction(1, sc.count(best))
    total = sum(deals.values())
    return {h: (Fraction(deals[h], total), shares.get(h, Fraction(0)) / deals[h]) for h in deals}


def _hands(text: str, board: list[int]) -> list[tuple[int, int]]:
    from pipeline.equity.hands.starting_hands import HOLE_CARDS
    from pipeline.equity.ranges.parse import parse_range

    r = parse_range(text)
    return [(int(HOLE_CARDS[h][0]), int(HOLE_CARDS[h][1])) for h in r.hands
            if not set(int(c) for c in HOLE_CARDS[h]) & set(board)]


@pytest.mark.parametrize("hero,vs,board,dead", [
    ("AK,QQ", ["JJ,T9s"], "Ks 9d 4c 2h", ""),
    ("77,A5s", ["88", "KQs"], "8c 7d 2s 3h 5d", ""),
    ("TT+", ["AK"], "Qs Jd 4c 2h", "Ac"),
    # one enumeration for every combo, folded by the 6 suit symmetries of a one-suit board
    ("QQ,JJ", ["AK", "T9s"], "Ks 9s 4s 2s", ""),
])
def test_rows_equal_a_brute_force(tables: Any, hero: str, vs: list[str], board: str, dead: str) -> None:
    b = parse_cards(board)
    d = parse_cards(dead) if dead else []
    want = _brute_rows(tables, _hands(hero, b + d), [_hands(v, b + d) for v in vs], b, d)
    bd = equity_breakdown(tables, hero, vs, None, board, dead)
    checked = 0
    for r in bd.combos:
        x, y = parse_cards(r.label)
        key = (min(x, y), max(x, y))
        assert (r.frequency_exact, r.equity_exact) == want[key]
        checked += 1
    assert checked == len(want) >= 5


def test_cli_breakdown_json_and_errors(artifacts: Any, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_here(capsys, "-a", str(artifacts), "equity", "AK,QQ", "--board", "Ks 9d 4c", "--breakdown", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    rows = d["breakdown"]["combos"]
    assert len(rows) == 18 and {"hand", "weight", "frequency", "equity", "stderr"} <= set(rows[0])
    assert [c["hand"] for c in d["breakdown"]["classes"]] == ["AKs", "AKo", "QQ"]
    assert_one_error(run_here(capsys, "-a", str(artifacts), "equity", "AK", "--breakdown", "--time", "1"),
                     "--time")
    assert_one_error(run_here(capsys, "-a", str(artifacts), "equity", "As Ad Ks Kd", "--breakdown"), "Omaha")


@pytest.mark.parametrize("hero,vs,seat,board,dead", [
    ("AK", ["QQ,JJ"], 1, "Ks 9d 4c 2h", ""),
    ("AK,QQ", ["88", "KQs,T9s"], 2, "8c 7d 2s 3h", ""),
    ("TT+", ["AK", "77"], 1, "Qs Jd 4c 2h", "Ac"),
])
def test_any_seat_rows_equal_a_brute_force(tables: Any, hero: str, vs: list[str], seat: int,
                                           board: str, dead: str) -> None:
    # the brute force walks the deals with the split seat's hand first (seat order does not
    # change who wins a deal); the other seats keep the answer of the question as asked
    b = parse_cards(board)
    d = parse_cards(dead) if dead else []
    texts = [hero, *vs]
    others = [_hands(t, b + d) for i, t in enumerate(texts) if i != seat]
    want = _brute_rows(tables, _hands(texts[seat], b + d), others, b, d)
    bd = equity_breakdown(tables, hero, vs, None, board, dead, seat=seat)
    got = {tuple(sorted(parse_cards(r.label))): (r.frequency_exact, r.equity_exact) for r in bd.combos}
    assert got == want and len(want) >= 5
    plain = equity_seats(tables, hero, vs, None, board, dead)
    j = bd.to_json()
    assert j["breakdown"]["seat"] == seat and j["breakdown"]["player"] == f"vs{seat}"
    assert j["breakdown"]["range"] == plain.players[seat]["range"]
    for i, p in enumerate(j["players"]):
        assert p["player"] == plain.players[i]["player"]
        assert p["equity"] == pytest.approx(plain.players[i]["equity"], abs=1e-12)
    # the split seat's answer is its rows' frequency-weighted mean
    mean = sum(f * e for f, e in want.values())
    assert j["players"][seat]["equity"] == pytest.approx(float(mean), abs=1e-12)


def test_random_opponent_seat_splits_into_its_hands(tables: Any) -> None:
    # seat 1 is a random hand: 45 live combos against AA on a full board, each dealt alike
    bd = equity_breakdown(tables, "As Ad", [], 1, "Kh Qh 7c 5d 2s", "", seat=1)
    assert len(bd.combos) == 45 * 44 // 2
    assert all(r.frequency_exact == Fraction(1, 990) for r in bd.combos)
    wins = {r.label for r in bd.combos if r.equity_exact == 1}
    # the hands beating aces there: two pair or better made with the board (sets, K-Q ...)
    assert "Kd Kc" in wins and "Kd Qd" in wins and "Ac Kd" not in wins


def test_cli_breakdown_seat(artifacts: Any, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_here(capsys, "-a", str(artifacts), "equity", "AK", "--vs", "QQ,JJ", "--board", "Ks 9d 4c",
                "--breakdown-seat", "1", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["breakdown"]["seat"] == 1 and d["breakdown"]["range"] == "QQ,JJ"
    assert sorted(c["hand"] for c in d["breakdown"]["classes"]) == ["JJ", "QQ"]
    assert len(d["breakdown"]["combos"]) == 12 and d["players"][0]["range"] == "AK"
    t = run_here(capsys, "-a", str(artifacts), "equity", "AK", "--vs", "QQ,JJ", "--board", "Ks 9d 4c",
                "--breakdown-seat", "1")
    assert "  vs1 (QQ,JJ) by class:" in t.stdout.splitlines()
    assert_one_error(run_here(capsys, "-a", str(artifacts), "equity", "AK", "--vs", "QQ", "--breakdown-seat",
                             "2"), "breakdown seat 2")


def test_class_rows_count_their_combos_with_weights(artifacts: Any) -> None:
    """A class row's ``weighted`` is its combos counted with their weights (``AQs:0.5``: 2 of
    its 4), as the range view counts the same class on the same board (a peer computation),
    and it is the count the class's ``frequency`` is weighted by (the page shows it beside)."""
    from pipeline.answers import Context
    from pipeline.answers.range_view import range_view

    hero, board = "KK,AQs:0.5,AJs:0.1,AsTs:0.25,AhTh", "Ks 9d 4c"
    ctx = Context(artifacts)
    bd = equity_breakdown(ctx.tables(), hero, ["QQ"], board=board).to_json()["breakdown"]
    classes = {c["hand"]: c for c in bd["classes"]}
    for name, text in (("KK", "KK"), ("AQs", "AQs:0.5"), ("AJs", "AJs:0.1"), ("ATs", "AsTs:0.25,AhTh")):
        want = range_view(ctx, text, board=board)["live_weighted"]
        assert classes[name]["weighted"] == want, name
    assert (classes["KK"]["combos"], classes["AQs"]["combos"], classes["ATs"]["combos"]) == (3, 4, 2)
    assert (classes["AQs"]["weighted"], classes["AJs"]["weighted"], classes["ATs"]["weighted"]) == (2, 0.4, 1.25)
    assert all(c["weighted"] == c["weight"] for c in bd["combos"])
