"""The suit-isomorphic hold'em indexers (pipeline.query.abstraction.indexer): class counts, round trips,
invariance under the 24 suit permutations and separation of non-isomorphic situations.

Everything is checked against facts computed here, independently of the indexer: Burnside's
lemma for the counts and, for canonical forms, the lexicographically least image over all suit
permutations. No artifacts are needed.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, permutations
from math import comb

import numpy as np
import pytest

from pipeline.core.cards import parse_cards
from pipeline.errors import InputError
from pipeline.query.abstraction.indexer import (
    board_size,
    class_count,
    index,
    index_batch,
    unindex,
    unindex_batch,
)
from pipeline.query.abstraction.shapes import STREETS, config_count, configurations

PUBLISHED = {"preflop": 169, "flop": 1_286_792, "turn": 13_960_050, "river": 123_156_254}
N_RANKS, N_SUITS, DECK = 13, 4, 52
HOLE = 2
PERMS = list(permutations(range(N_SUITS)))
#: PERM_CARDS[p, c] = card c with its suit mapped by permutation p
PERM_CARDS = np.array([[N_SUITS * (c // N_SUITS) + p[c % N_SUITS] for c in range(DECK)] for p in PERMS],
                      np.int64)
#: bits per card in the packed canonical key (card ids < 64)
CARD_BITS = 6


def random_situations(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n uniformly random situations (2 hole + k board cards, all distinct, in random order) as
    uint8[n, 2 + k]: independent uniform cards, each row that repeats a card drawn again whole
    (so every ordered tuple of distinct cards is equally likely; an argsort of n x 52 random
    keys gives the same law at ~20 times the cost)."""
    out = rng.integers(0, DECK, (n, HOLE + k), dtype=np.uint8)
    bad = np.arange(n)
    while len(bad):
        rows = out[bad]
        repeats = np.zeros(len(bad), bool)
        for i, j in combinations(range(HOLE + k), 2):
            repeats |= rows[:, i] == rows[:, j]
        bad = bad[repeats]
        out[bad] = rng.integers(0, DECK, (len(bad), HOLE + k), dtype=np.uint8)
    return out


def canonical_keys(cards: np.ndarray) -> np.ndarray:
    """Per row, the least over the 24 suit permutations of (sorted hole, sorted board) packed as
    one integer whose order is the lexicographic order of that tuple."""
    c = cards.astype(np.int64)
    best = np.full(len(c), np.iinfo(np.int64).max, np.int64)
    for p in range(len(PERMS)):
        m = PERM_CARDS[p][c]
        parts = np.concatenate([np.sort(m[:, :HOLE], axis=1), np.sort(m[:, HOLE:], axis=1)], axis=1)
        key = np.zeros(len(c), np.int64)
        for j in range(parts.shape[1]):
            key = (key << CARD_BITS) | parts[:, j]
        best = np.minimum(best, key)
    return best


def burnside_count(k: int) -> int:
    """Orbits of (hole 2-set, board k-set) under the suit permutations, by Burnside's lemma.

    A permutation fixes a situation iff hole and board are unions of its card cycles; a suit
    cycle of length L gives 13 card cycles of length L, each going to the hole, the board or
    neither: the fixed count is [x^2 y^k] of prod over card cycles of (1 + x^L + y^L).
    """
    total = 0
    for p in PERMS:
        seen, lengths = set(), []
        for s in range(N_SUITS):
            if s not in seen:
                n, t = 0, s
                while t not in seen:
                    seen.add(t)
                    t, n = p[t], n + 1
                lengths.append(n)
        poly = {(0, 0): 1}
        for length in lengths:
            for _ in range(N_RANKS):
                nxt: dict[tuple[int, int], int] = {}
                for (a, b), v in poly.items():
                    for da, db in ((0, 0), (length, 0), (0, length)):
                        if a + da <= HOLE and b + db <= k:
                            nxt[(a + da, b + db)] = nxt.get((a + da, b + db), 0) + v
                poly = nxt
        total += poly.get((HOLE, k), 0)
    assert total % len(PERMS) == 0
    return total // len(PERMS)


# ---------------------------------------------------------------------------------- counts
@pytest.mark.parametrize("street", list(PUBLISHED))
def test_class_counts_closed_form_and_burnside(street: str) -> None:
    k = board_size(street)
    assert class_count(street) == PUBLISHED[street]
    assert sum(config_count(c) for c in configurations(k)) == PUBLISHED[street]
    assert burnside_count(k) == PUBLISHED[street]


def test_preflop_brute_force() -> None:
    """All 1,326 holes: 169 canonical forms, and equal index exactly when equal canonical form."""
    holes = np.array(list(combinations(range(DECK), HOLE)), np.uint8)
    canon = canonical_keys(holes)
    idx = index_batch(holes)
    assert len(set(canon.tolist())) == PUBLISHED["preflop"]
    assert sorted(set(idx.tolist())) == list(range(PUBLISHED["preflop"]))
    assert len(set(zip(canon.tolist(), idx.tolist()))) == PUBLISHED["preflop"]
    assert index([51, 50], []) == index("Ad Ah", "") != index("As Ks", "")


# ------------------------------------------------------------------------------ round trips
@pytest.mark.parametrize("street", ["preflop", "flop", "turn"])
def test_every_class_round_trips(street: str) -> None:
    """index(unindex(i)) == i for every class, through the batch kernels; the turn's 13,960,050
    classes take about 4-5 s on two cores shared with other work (unindex ~3.5 M/s and index
    ~17 M/s a thread), the flop's 1,286,792 well under a second once compiled."""
    n = class_count(street)
    cards = unindex_batch(street, np.arange(n))
    assert np.array_equal(index_batch(cards, check=False), np.arange(n))
    _assert_canonical_rows(cards, board_size(street))


def _assert_canonical_rows(cards: np.ndarray, k: int) -> None:
    """unindex gives valid situations: ids 0..51, each group ascending, no card twice."""
    assert cards.shape[1] == HOLE + k
    assert cards.max() < DECK
    cols = [np.ascontiguousarray(cards[:, j]) for j in range(HOLE + k)]
    for j in range(HOLE + k - 1):
        if j != HOLE - 1:
            assert (cols[j] < cols[j + 1]).all()
    for h in cols[:HOLE]:
        for b in cols[HOLE:]:
            assert (h != b).all()


@pytest.mark.parametrize("street", ["turn", "river"])
def test_random_classes_round_trip(street: str) -> None:
    rng = np.random.default_rng(7)
    n = class_count(street)
    idx = np.concatenate([rng.integers(0, n, 1_000_000), np.arange(1000), np.arange(n - 1000, n)])
    cards = unindex_batch(street, idx)
    _assert_canonical_rows(cards, board_size(street))
    assert np.array_equal(index_batch(cards), idx)
    # the scalar API agrees with the batch kernels
    for i in idx[:200].tolist() + [n - 1]:
        hole, board = unindex(street, i)
        assert index(hole, board) == i
        assert list(hole) + list(board) == unindex_batch(street, np.array([i]))[0].tolist()


def test_unindex_of_the_first_and_last_classes() -> None:
    # configuration order is lexicographic over ascending shape codes m1 * 6 + m2, and
    # canonical suits are in ascending (shape, per-suit index): the empty suits come first
    assert unindex("preflop", 0) == ((3, 7), ())           # 2s 3s: suited hands come first
    assert unindex("preflop", 168) == ((50, 51), ())       # Ah As: the pairs come last
    assert unindex("flop", 0) == ((3, 7), (11, 15, 19))    # 2s 3s, 4s 5s 6s
    # the royal flop is the last class of the first flop configuration (one suit holds it all)
    assert index("As Ks", "Qs Js Ts") == comb(N_RANKS, 2) * comb(N_RANKS - 2, 3) - 1


# ------------------------------------------------------------------------------- invariance
@pytest.mark.full_tier  # 72 M indices: about 10 s of CPU in all
@pytest.mark.parametrize("street", list(STREETS))
def test_index_is_invariant_under_suit_permutations(street: str) -> None:
    """1,000,000 random situations x 24 suit permutations (24 M indices a street, a few
    seconds); the preflop's 1,326 holes all, in both orders."""
    k = board_size(street)
    rng = np.random.default_rng(11 + k)
    if k:
        cards = random_situations(rng, 1_000_000, k)
    else:
        holes = np.array(list(combinations(range(DECK), HOLE)), np.uint8)
        cards = np.concatenate([holes, holes[:, ::-1]])
    base = index_batch(cards)
    assert base.min() >= 0 and base.max() < class_count(street)
    perm_cards = PERM_CARDS.astype(np.uint8)
    for p in range(len(PERMS)):
        # a new order inside each group too (groups are sets): the rows' orders are uniformly
        # random already, so one random reordering of the board columns (and the hole swapped)
        # leaves every row's order uniformly random and different from its base row's
        cols = np.concatenate([[1, 0], HOLE + rng.permutation(k)]).astype(np.int64)
        moved = perm_cards[p][cards[:, cols]]
        assert np.array_equal(index_batch(moved), base)


# ------------------------------------------------------------------------------- separation
def _subdeck_situations(n_ranks: int, k: int) -> np.ndarray:
    """Every situation whose cards all have ranks below ``n_ranks`` (many suit collisions)."""
    deck = n_ranks * N_SUITS
    holes = np.array(list(combinations(range(deck), HOLE)), np.int64)
    boards = np.array(list(combinations(range(deck), k)), np.int64).reshape(comb(deck, k), k)
    h = np.repeat(holes, len(boards), axis=0)
    b = np.tile(boards, (len(holes), 1))
    hm = (np.int64(1) << h).sum(axis=1)
    bm = (np.int64(1) << b).sum(axis=1)
    keep = (hm & bm) == 0
    return np.concatenate([h[keep], b[keep]], axis=1)


def _assert_same_partition(cards: np.ndarray) -> None:
    canon = canonical_keys(cards)
    idx = index_batch(cards)
    n_canon = len(np.unique(canon))
    assert len(np.unique(idx)) == n_canon
    pairs = np.unique(np.stack([canon, idx], axis=1), axis=0)
    assert len(pairs) == n_canon


@pytest.mark.parametrize("street", list(STREETS))
def test_equal_index_exactly_when_isomorphic_on_a_small_deck(street: str) -> None:
    """Exhaustive over the 16 cards of ranks 2-5 (river: 240,240 situations, ~2 s)."""
    _assert_same_partition(_subdeck_situations(4, board_size(street)))


@pytest.mark.parametrize("street", list(STREETS))
def test_equal_index_exactly_when_isomorphic_on_random_situations(street: str) -> None:
    k = board_size(street)
    rng = np.random.default_rng(23 + k)
    cards = random_situations(rng, 50_000, k)
    # add isomorphic copies (random suit permutation) so equal classes do occur
    perm = rng.integers(0, len(PERMS), len(cards))
    copies = PERM_CARDS[perm[:, None], cards.astype(np.int64)]
    _assert_same_partition(np.concatenate([cards.astype(np.int64), copies]))


# ------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(("call", "named"), [
    (lambda: index([0, 1], [2, 3]), "got 2"),
    (lambda: index([0, 1, 2], []), "got 3"),
    (lambda: index([0, 0], []), "2c"),
    (lambda: index([0, 1], [1, 5, 9]), "2d"),
    (lambda: index([0, 52], []), "52"),
    (lambda: index([-1, 5], [1, 2, 3]), "-1"),
    (lambda: index("As Kx", ""), "Kx"),
    (lambda: unindex("river", PUBLISHED["river"]), str(PUBLISHED["river"])),
    (lambda: unindex("flop", -1), "-1"),
    (lambda: unindex("flop", 1.5), "1.5"),
    (lambda: unindex("showdown", 0), "showdown"),
    (lambda: class_count("Flop"), "Flop"),
    (lambda: index_batch(np.zeros((3, 3), np.int64)), "board size 1"),
    (lambda: index_batch(np.array([[0, 1, 2, 3, 60]])), "60"),
    (lambda: index_batch(np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 7]])), "row 1"),
    (lambda: index_batch(np.array([[0.0, 1.0]])), "float64"),
    (lambda: unindex_batch("turn", np.array([0, -5])), "-5"),
    (lambda: unindex_batch("preflop", np.array([3, 169])), "169"),
])
def test_bad_input_raises_input_error_naming_it(call: Callable[[], object], named: str) -> None:
    with pytest.raises(InputError) as err:
        call()
    assert named in str(err.value)


def test_the_worked_example_of_the_docs() -> None:
    """docs/ALGORITHM.md, "Card-abstraction indexer": the flop Ah Kd | Qh 7d 2c."""
    assert index("Ah Kd", "Qh 7d 2c") == 643_144
    assert unindex("flop", 643_144) == ((46, 51), (1, 22, 43))  # Kh As | 2d 7h Qs
    flop = configurations(3)
    assert sum(config_count(c) for c in flop[:flop.index((0, 1, 7, 7))]) == 631_072


def test_text_and_ids_agree() -> None:
    assert index("Ah Kh", "Qh Jh Th 2c 3d") == index(parse_cards("Ah Kh"), parse_cards("Qh Jh Th 2c 3d"))
