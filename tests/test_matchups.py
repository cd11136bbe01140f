"""Stage preflop_matchups: exact heads-up counts of every hand pair, checked independently."""

from __future__ import annotations

from itertools import permutations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from refpoker import brute

from pipeline.core.cards import parse_cards
from pipeline.equity.exact.matchups import hand_cards, matchup_classes
from pipeline.equity.hand_api import exact_fixed
from pipeline.equity.hands.starting_hands import hole_index
from pipeline.query.tables import PreflopMatchups, Tables

BOARDS = comb(48, 5)


@pytest.fixture(scope="module")
def mu(tables: Tables) -> PreflopMatchups:
    return tables.preflop_matchups()


def _disjoint() -> np.ndarray:
    cards = hand_cards().astype(np.int64)
    masks = (np.int64(1) << cards[:, 0]) | (np.int64(1) << cards[:, 1])
    return (masks[:, None] & masks[None, :]) == 0


def test_class_count_by_burnside() -> None:
    """47,008 classes of 812,175 pairs; Burnside's lemma over the 24 suit permutations agrees."""
    classes = matchup_classes()
    assert len(classes.first) == 1326 * comb(50, 2) // 2 == 812_175
    cards = hand_cards().astype(np.int64)
    first, second = classes.first, classes.second
    fixed = 0
    for perm in permutations(range(4)):
        p = np.asarray(perm)
        x = 4 * (cards >> 2) + p[cards & 3]
        lo, hi = np.minimum(x[:, 0], x[:, 1]), np.maximum(x[:, 0], x[:, 1])
        image = lo + hi * (hi - 1) // 2
        u, v = image[first], image[second]
        fixed += int((((u == first) & (v == second)) | ((u == second) & (v == first))).sum())
    assert fixed % 24 == 0 and fixed // 24 == len(classes.reps) == 47_008


def test_shape_zeros_and_symmetry(mu: PreflopMatchups) -> None:
    """win[a,b] + tie[a,b] + win[b,a] = 1,712,304 for every disjoint pair; 0 where cards clash."""
    assert mu.win.shape == mu.tie.shape == (1326, 1326) and mu.win.dtype == np.uint32
    dis = _disjoint()
    win = np.asarray(mu.win, np.int64)
    tie = np.asarray(mu.tie, np.int64)
    assert np.array_equal(tie, tie.T)
    total = win + win.T + tie
    assert np.all(total[dis] == BOARDS)
    assert not win[~dis].any() and not tie[~dis].any()


@pytest.mark.parametrize("seed", range(6))
def test_sampled_entries_equal_exact_fixed(mu: PreflopMatchups, tables: Tables, seed: int) -> None:
    """Random disjoint pairs: the table equals a fresh exact enumeration of that very pair."""
    rng = np.random.default_rng(900 + seed)
    cards = rng.permutation(52)[:4].tolist()
    a, b = hole_index(*cards[:2]), hole_index(*cards[2:])
    got = exact_fixed(np.array([cards[:2], cards[2:]], np.uint8), np.zeros(0, np.uint8), 0,
                      tables.eval_tables())
    assert (int(mu.win[a, b]), int(mu.win[b, a]), int(mu.tie[a, b])) == \
        (int(got.win[0]), int(got.win[1]), int(got.tie[0]))


def test_rank_pass_plus_flush_corrections_equal_the_rank_first_walk(tables: Tables) -> None:
    """The matchup counter (rank multisets + flush corrections) equals exact_fixed's walk on
    pairs of every suit shape: suited vs suited in the same and in other suits, pairs, and
    random pairs."""
    from pipeline.core.cards import BINOM
    from pipeline.equity.exact.headsup_preflop import LOOKED, headsup_preflop

    ev = tables.eval_tables()
    shaped = [("As Ks", "Qs Js"), ("As Ks", "Qd Jd"), ("Ah Ad", "Kh Kd"), ("2c 7d", "2h 7s"),
              ("5s 4s", "Ac Ad"), ("As 2h", "Ks 3h")]
    rng = np.random.default_rng(77)
    pairs = [parse_cards(h) + parse_cards(v) for h, v in shaped]
    pairs += [rng.permutation(52)[:4].tolist() for _ in range(24)]
    for c in pairs:
        out = np.zeros(4, np.int64)
        headsup_preflop(*c, *ev, BINOM, out)
        ref = exact_fixed(np.array([c[:2], c[2:]], np.uint8), np.zeros(0, np.uint8), 0, ev)
        assert (int(out[0]), int(out[1]), int(out[2])) == \
            (int(ref.win[0]), int(ref.win[1]), int(ref.tie[0])), c
        assert 0 < out[LOOKED] < BOARDS // 10


@pytest.mark.parametrize("hero,villain", [("As Ks", "Qd Qc"), ("7h 2c", "7d 2s"), ("Ts 9s", "Ah Kd")])
def test_entries_equal_seven_table_brute_force(mu: PreflopMatchups, tables: Tables, hero: str,
                                               villain: str) -> None:
    """Entries equal a brute force over all boards with the dense seven.h5 table."""
    h, v = parse_cards(hero), parse_cards(villain)
    win, tie, _, nb = brute(tables.table(7), [h, v], [], [])
    a, b = hole_index(*h), hole_index(*v)
    assert nb == BOARDS
    assert (int(mu.win[a, b]), int(mu.win[b, a]), int(mu.tie[a, b])) == (int(win[0]), int(win[1]), int(tie[0]))


def test_aces_vs_kings_total(mu: PreflopMatchups, tables: Tables) -> None:
    """AA vs KK summed over its 36 combos equals 6 same-suit + 24 one-suit + 6 no-shared-suit
    matchups, each brute-forced on seven.h5."""
    aces = [c for c in range(48, 52)]
    kings = [c for c in range(44, 48)]
    aa = [(x, y) for i, x in enumerate(aces) for y in aces[i + 1:]]
    kk = [(x, y) for i, x in enumerate(kings) for y in kings[i + 1:]]
    w = sum(int(mu.win[hole_index(*p), hole_index(*q)]) for p in aa for q in kk)
    lo = sum(int(mu.win[hole_index(*q), hole_index(*p)]) for p in aa for q in kk)
    t = sum(int(mu.tie[hole_index(*p), hole_index(*q)]) for p in aa for q in kk)
    table7 = tables.table(7)
    want = np.zeros(3, np.int64)
    for mult, (hero, vill) in ((6, ("As Ah", "Ks Kh")), (24, ("As Ah", "Ks Kd")), (6, ("As Ah", "Kd Kc"))):
        win, tie, _, _ = brute(table7, [parse_cards(hero), parse_cards(vill)], [], [])
        want += mult * np.array([win[0], win[1], tie[0]])
    assert (w, lo, t) == tuple(int(x) for x in want)
    assert w + lo + t == 36 * BOARDS
    assert 0.81 < (w + t / 2) / (36 * BOARDS) < 0.83   # the familiar ~82% for aces over kings


def test_class_parquet_matches_h5(mu: PreflopMatchups, artifacts: Path) -> None:
    """The 169 x 169 Parquet sums the h5 counts over the classes' disjoint combos."""
    import pyarrow.parquet as pq

    cols = pq.read_table(artifacts / "parquet" / "preflop_matchups.parquet").to_pydict()
    assert len(cols["hero"]) == 169 * 169 and (artifacts / "preflop_matchups.png").stat().st_size > 10_000
    rows = {(h, v): i for i, (h, v) in enumerate(zip(cols["hero"], cols["villain"], strict=True))}

    def get(hero: str, villain: str, col: str) -> int | float:
        return cols[col][rows[(hero, villain)]]

    aces = [(x, y) for x in range(48, 52) for y in range(x + 1, 52)]
    kings = [(x, y) for x in range(44, 48) for y in range(x + 1, 48)]
    assert get("AA", "KK", "pairs") == 36 and get("AA", "KK", "boards") == 36 * BOARDS
    assert get("AA", "KK", "win") == sum(int(mu.win[hole_index(*p), hole_index(*q)])
                                         for p in aces for q in kings)
    assert get("AA", "KK", "win") + get("AA", "KK", "tie") + get("AA", "KK", "lose") == 36 * BOARDS
    assert get("AKs", "AKo", "pairs") == 4 * 6   # each AKs leaves 6 of the 12 AKo card-disjoint
    assert abs(get("AKs", "QQ", "equity") + get("QQ", "AKs", "equity") - 1) < 1e-12
    assert get("AA", "AA", "pairs") == 6 and get("AA", "AA", "win") == get("AA", "AA", "lose")


def test_read_helper_is_memory_mapped(mu: PreflopMatchups) -> None:
    assert isinstance(mu.win, np.memmap) and not mu.win.flags.writeable
    assert isinstance(mu.tie, np.memmap)

