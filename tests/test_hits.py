"""``pokertables hits``: every combo's made hand and draws against an independent classifier
written here from the definitions in docs/hits.md (plain Python; hand values from
tests/refpoker.py, which shares nothing with the production evaluator), exact weighted sums,
made hands summing to the live range, the JSON rows loading as a table, and the time."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from refpoker import key5

from pipeline.core.cards import format_cards, parse_cards
from pipeline.equity.hands.starting_hands import HOLE_CARDS
from pipeline.equity.ranges.hits import DRAWS, MADE, classify, range_hits
from pipeline.equity.ranges.parse import parse_range

ROOT = Path(__file__).resolve().parent.parent
ACE = 12
STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = 4, 5, 6, 7, 8


def best(cards: list[int]) -> tuple[int, ...]:
    return max(key5(c) for c in combinations(cards, 5))


def runs(ranks: set[int]) -> list[set[int]]:
    """Every five-rank straight (as a set of ranks, the ace also low as -1) inside ``ranks``."""
    have = set(ranks) | ({-1} if ACE in ranks else set())
    return [set(range(lo, lo + 5)) for lo in range(-1, 9) if set(range(lo, lo + 5)) <= have]


def ref_made(hole: list[int], board: list[int]) -> str:
    a, b = sorted((hole[0] >> 2, hole[1] >> 2), reverse=True)
    bc = Counter(c >> 2 for c in board)
    distinct = sorted(bc, reverse=True)
    d0, d1 = distinct[0], (distinct[1] if len(distinct) > 1 else -1)
    mine = best(hole + board)
    theirs = best(board) if len(board) == 5 else (0,)
    better = mine > theirs
    cat = mine[0]
    if cat == STRAIGHT_FLUSH and better:
        return "straight flush"
    if cat == QUADS and mine[1] in (a, b):
        return "four of a kind"
    names = {FULL_HOUSE: "full house", FLUSH: "flush", STRAIGHT: "straight"}
    if cat in names and better:
        return names[cat]
    if 4 in bc.values() or theirs[0] >= STRAIGHT:
        return "nothing"
    if a == b:
        if bc[a] == 1:
            return "set"
        if a > d0:
            return "overpair"
        return "pocket pair below top pair" if a > d1 else "weak pair"
    if bc[a] >= 2 or bc[b] >= 2:
        return "trips"
    if bc[a] and bc[b]:
        return "two pair"
    if d0 in (a, b):
        kicker = b if a == d0 else a
        better_kickers = [r for r in range(kicker + 1, 13) if r != d0 and r not in bc]
        if not better_kickers:
            return "top pair, top kicker"
        return "top pair, good kicker" if len(better_kickers) <= 2 else "top pair, weak kicker"
    if d1 in (a, b):
        return "middle pair"
    if bc[a] or bc[b]:
        return "weak pair"
    return "ace high" if a == ACE else "nothing"


def ref_draws(hole: list[int], board: list[int]) -> set[str]:
    if len(board) == 5:
        return set()
    out = set()
    cards = hole + board
    for s in range(4):
        suited = [c for c in cards if c % 4 == s]
        mine = [c for c in hole if c % 4 == s]
        if mine and len(suited) == 4:
            top = max(c for c in range(s, 52, 4) if c not in board)
            out.add("flush draw, nut" if top in hole else "flush draw, non-nut")
        if mine and len(suited) == 3 and len(board) == 3:
            out.add("backdoor flush draw")
    ranks = {c >> 2 for c in cards}
    board_ranks = {c >> 2 for c in board}
    own = {r for r in (hole[0] >> 2, hole[1] >> 2) if r not in board_ranks}
    own_low = own | ({-1} if ACE in own else set())
    if not runs(ranks):
        outs = [r for r in range(13) if any(run & own_low for run in runs(ranks | {r}))]
        if len(outs) >= 2:
            out.add("open-ended straight draw")
        elif len(outs) == 1:
            out.add("gutshot")
    a, b = sorted((hole[0] >> 2, hole[1] >> 2), reverse=True)
    if a != b and b > max(board_ranks):
        out.add("overcards")
    return out


CASES = [
    ("random", "Kh 7d 2c"),            # dry rainbow flop
    ("random", "9h 8h 7h"),            # monotone, connected
    ("random", "Ks Kd 4c"),            # paired flop
    ("random", "5s 5d 5c"),            # trips on the flop
    ("random", "Ah 4d 3c"),            # wheel draws
    ("QQ+,AKs,[50]T9s-54s[/50],KQo:0.25", "Ah Kh 5h 5c"),  # paired turn, three hearts
    ("22+,A2s+,KTo+,T9s-54s", "Js Ts 4s 2d"),              # turn with three spades
    ("random", "Qc Qd Qh Qs"),         # quads on the turn board
    ("random", "6c 7d 8h 9s Tc"),      # straight on the board
    ("random", "2h 5h 9h Jh Kh"),      # flush on the board
    ("random", "As Ad Ah Ks Kd"),      # full house on the board
    ("[33]random[/33],AA,KK:0.5", "Tc 9c 2d 2h 7s"),       # paired river, weights
    ("random", "Ac Kc Qc Jc"),         # turn: royal draws
    ("random", "3d 4d 8s"),            # low two-tone flop
]


@pytest.fixture(scope="module")
def evaluator(tables):  # type: ignore[no-untyped-def]
    return tables.eval_tables()


@pytest.mark.parametrize("text,board_text", CASES)
def test_every_combo_matches_the_reference(evaluator, text: str, board_text: str) -> None:  # type: ignore[no-untyped-def]
    rng = parse_range(text)
    board = parse_cards(board_text)
    bmask = sum(1 << c for c in board)
    live = [i for i, h in enumerate(rng.hands)
            if not (1 << int(HOLE_CARDS[h][0]) | 1 << int(HOLE_CARDS[h][1])) & bmask]
    holes = HOLE_CARDS[rng.hands[live]]
    made, draws = classify(holes, np.array(board, np.int64), *evaluator)
    want_made: Counter[str] = Counter()
    want_draws: Counter[str] = Counter()
    want_lists: dict[str, set[str]] = {k: set() for k in MADE + DRAWS}
    total = Fraction(0)
    for j, (i, (x, y)) in enumerate(zip(live, holes)):
        hole = [int(x), int(y)]
        m, ds = ref_made(hole, board), ref_draws(hole, board)
        got_ds = {DRAWS[k] for k in range(len(DRAWS)) if draws[j] >> k & 1}
        assert (MADE[made[j]], got_ds) == (m, ds), (hole, board_text)
        w = Fraction(repr(float(rng.weights[i])))
        want_made[m] += w
        text = format_cards([max(hole), min(hole)]) + ("" if w == 1 else f":{float(w)!r}")
        want_lists[m].add(text)
        for d in ds:
            want_draws[d] += w
            want_lists[d].add(text)
        total += w
    h = range_hits(rng, board, [], evaluator)
    assert h.live_combos == total and h.live_hands == len(live)
    assert {r.name: r.combos for r in h.made} == {k: want_made[k] for k in MADE}
    assert {r.name: r.combos for r in h.draws} == {k: want_draws[k] for k in DRAWS}
    assert sum(r.combos for r in h.made) == h.live_combos
    assert sum(r.hands for r in h.made) == h.live_hands
    assert all(isinstance(r.hands, int) for r in h.made + h.draws)
    # each category lists exactly its combos, once each, highest cards first
    assert {r.name: set(r.combo_list) for r in h.made + h.draws} == want_lists
    for r in h.made + h.draws:
        assert len(r.combo_list) == r.hands
        firsts = [parse_cards(c.split(":")[0]) for c in r.combo_list]
        assert firsts == sorted(firsts, key=lambda hc: (hc[0], hc[1]), reverse=True)


def test_known_counts_random_on_a_dry_flop(evaluator) -> None:  # type: ignore[no-untyped-def]
    # by hand: sets = 3 ranks x C(3,2); two pair = 3 pairs of board ranks x 3 x 3; backdoor
    # flush draws = suited hands in the 3 board suits, C(12,2) each
    h = range_hits(parse_range("random"), parse_cards("Kh 7d 2c"), [], evaluator)
    made = {r.name: r.combos for r in h.made}
    assert h.live_hands == 1176 and made["set"] == 9 and made["two pair"] == 27
    assert made["overpair"] == 6 and made["top pair, top kicker"] == 4 * 3
    assert {r.name: r.combos for r in h.draws}["backdoor flush draw"] == 3 * 66


def test_dead_cards_are_removed(evaluator) -> None:  # type: ignore[no-untyped-def]
    h = range_hits(parse_range("AA,KK"), parse_cards("Ah 7d 2c"), parse_cards("As"), evaluator)
    assert h.live_hands == 1 + 6 and {r.name: r.hands for r in h.made}["set"] == 1


def test_1326_combos_within_50_ms(evaluator) -> None:  # type: ignore[no-untyped-def]
    rng = parse_range("random")
    board = parse_cards("Ah Kh 5h 5c")
    range_hits(rng, board, [], evaluator)
    best_s = min(_timed(lambda: range_hits(rng, board, [], evaluator)) for _ in range(5))
    assert best_s < 0.05


def _timed(f) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_cli_json_rows_load_as_a_table(artifacts) -> None:  # type: ignore[no-untyped-def]
    r = _cli("--artifacts", str(artifacts), "hits", "QQ+,AKs,[50]T9s-54s[/50]", "--board",
             "Ah Kh 5h 5c", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    t = pa.Table.from_pylist(out["made"] + out["draws"])
    assert t.num_rows == len(MADE) + len(DRAWS)
    made = dict(zip(t.column("category").to_pylist()[:len(MADE)], t.column("combos").to_pylist()))
    assert made["full house"] == 6 and made["flush"] == 2 and made["two pair"] == 3
    assert out["live_combos"] == 25 and out["live_hands"] == 35
    assert sum(r["percent"] for r in out["made"]) == pytest.approx(100)
    lists = {r["category"]: r["combo_list"] for r in out["made"] + out["draws"]}
    assert lists["full house"] == ["As Ad", "As Ac", "Ad Ac", "Ks Kd", "Ks Kc", "Kd Kc"]
    assert lists["flush"] == ["Th 9h:0.5", "9h 8h:0.5", "8h 7h:0.5", "7h 6h:0.5"]
    assert lists["flush draw, nut"] == ["Qs Qh", "Qh Qd", "Qh Qc"] and lists["four of a kind"] == []


def test_cli_text_lists_each_category_combos(artifacts) -> None:  # type: ignore[no-untyped-def]
    r = _cli("--artifacts", str(artifacts), "hits", "QQ+,AKs,[50]T9s-54s[/50]", "--board",
             "Ah Kh 5h 5c")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()

    def under(category: str) -> str:
        i = next(k for k, ln in enumerate(lines) if ln.split("  ")[0] == category)
        return lines[i + 1].strip()
    # whole classes by name (all live AA and KK are full houses), partial ones combo by combo
    assert under("full house") == "AA KK"
    assert under("two pair") == "AKs"
    assert under("flush") == "Th9h:0.5 9h8h:0.5 8h7h:0.5 7h6h:0.5"
    assert under("flush draw, nut") == "QsQh QhQd QhQc"
    assert under("straight").startswith("set ")  # an empty category lists nothing


@pytest.mark.parametrize("args,needle", [
    (["hits", "QQ+", "--board", "Ah Kh"], "got 2"),
    (["hits", "QQ+", "--board", "Ah Kh 5h 5c 9d 2s"], "got 6"),
    (["hits", "AA", "--board", "Ah Ad 5h", "--dead", "Ac As"], "no hand left"),
    (["hits", "T9s-53s", "--board", "Ah Kh 5h"], "T9s-53s"),
])
def test_cli_bad_input_one_error_line(artifacts, args: list[str], needle: str) -> None:  # type: ignore[no-untyped-def]
    r = _cli("--artifacts", str(artifacts), *args)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.returncode == 2 and r.stdout == ""
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines


@pytest.mark.parametrize("board_text,hole_text,want", [
    # the examples docs/hits.md gives
    ("Ks Kd 5c", "Ah Kh", "trips"),
    ("Ks Kd 5c", "Ah 5h", "middle pair"),
    ("Ks Kd 7c", "Ah 7h", "middle pair"),
    ("Ks Kd 5c", "9h 9c", "pocket pair below top pair"),
    ("Ks Kd 5c", "5h 5d", "full house"),
    ("Ks Kd 5c", "Ah Qh", "ace high"),
    ("Kh 7d 2c", "Ks Qd", "top pair, good kicker"),
    ("Kh 7d 2c", "Ks Jd", "top pair, good kicker"),
    ("Kh 7d 2c", "Ks Td", "top pair, weak kicker"),
    ("Kh 7d 2c", "Ks Ad", "top pair, top kicker"),
    ("Ks Kd 7c", "7h 7d", "full house"),
    ("Ks Kd Kh 7c 7d", "Ah 7s", "nothing"),
    ("Ks Kd Kh 7c 2d", "Ah As", "full house"),
])
def test_documented_examples(evaluator, board_text: str, hole_text: str, want: str) -> None:  # type: ignore[no-untyped-def]
    made, _ = classify(np.array([parse_cards(hole_text)], np.int64),
                       np.array(parse_cards(board_text), np.int64), *evaluator)
    assert MADE[made[0]] == want
