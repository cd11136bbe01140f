"""Card ids, text parsing/formatting, bitmaps and the colex index (DESIGN.md contracts)."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.cards import (
    bitmap,
    bitmap_cards,
    card_id,
    card_text,
    colex_cards,
    colex_index,
    format_cards,
    parse_cards,
)

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def test_card_id_contract() -> None:
    assert card_id("2c") == 0
    assert card_id("2d") == 1
    assert card_id("3c") == 4
    assert card_id("Ts") == 35
    assert card_id("As") == 51
    for r, rc in enumerate(RANKS):
        for s, sc in enumerate(SUITS):
            assert card_id(rc + sc) == 4 * r + s
            assert card_text(4 * r + s) == rc + sc


@pytest.mark.parametrize("text", ["AsKs", "As Ks", "AS KS", "as ks", "aS,kS", "  As\tKs \n", "As;Ks"])
def test_parse_forms(text: str) -> None:
    assert parse_cards(text) == [51, 47]


def test_ten_spelled_10_or_t() -> None:
    assert parse_cards("10h") == parse_cards("Th") == parse_cards("th") == [34]
    assert parse_cards("10s10h") == [35, 34]
    assert parse_cards("As 10s Js") == [51, 35, 39]


def test_canonical_format() -> None:
    assert format_cards(parse_cards("as ks qs js 10s")) == "As Ks Qs Js Ts"
    assert format_cards(parse_cards("2C3D4H5S")) == "2c 3d 4h 5s"
    assert format_cards([]) == ""


def test_parse_ids_and_mixed() -> None:
    assert parse_cards([51, 47, 0]) == [51, 47, 0]
    assert parse_cards(["As", "Ks"]) == [51, 47]
    with pytest.raises(ValueError, match="52"):
        parse_cards([51, 52])
    with pytest.raises(ValueError, match="-1"):
        parse_cards([-1])


@pytest.mark.parametrize("text,token", [
    ("As Xs", "'Xs'"),        # unknown rank
    ("As Kx", "'Kx'"),        # unknown suit
    ("As 1s", "'1s'"),
    ("AsKsQ", "'Q'"),         # dangling rank
    ("As 10", "'10'"),        # ten without suit
    ("Asx", "'x'"),
    ("A♠", "'A♠'"),
])
def test_bad_token_is_named(text: str, token: str) -> None:
    with pytest.raises(ValueError) as exc:
        parse_cards(text)
    assert token in str(exc.value)


def test_duplicate_is_named() -> None:
    with pytest.raises(ValueError, match="duplicate card As"):
        parse_cards("As Ks as")
    with pytest.raises(ValueError, match="duplicate card Ts"):
        parse_cards("10s Ts")
    with pytest.raises(ValueError, match="duplicate card Kd"):
        parse_cards([46, 45, 45])


def test_wrong_count_and_empty() -> None:
    with pytest.raises(ValueError, match="expected 5 cards, got 2: As Ks"):
        parse_cards("As Ks", count=5)
    with pytest.raises(ValueError, match=r"expected 5 or 6 or 7 cards, got 0: \(none\)"):
        parse_cards("", count=(5, 6, 7))
    with pytest.raises(ValueError, match="got 0"):
        parse_cards("   ", count=2)
    assert parse_cards("As Ks Qs Js Ts", count=(5, 6, 7)) == [51, 47, 43, 39, 35]


# --------------------------------------------------------------------- fuzzing
@settings(max_examples=400, deadline=None)
@given(st.text(max_size=40))
def test_parse_never_crashes_otherwise(text: str) -> None:
    """Any text gives a list of distinct ids 0..51 or a ValueError, nothing else."""
    try:
        ids = parse_cards(text)
    except ValueError as exc:
        assert str(exc)
        return
    assert isinstance(ids, list)
    assert all(type(c) is int and 0 <= c < 52 for c in ids)
    assert len(set(ids)) == len(ids)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), unique=True, max_size=12),
       st.lists(st.sampled_from(["", " ", ",", "  ", "\t"]), min_size=12, max_size=12),
       st.lists(st.booleans(), min_size=24, max_size=24))
def test_parse_round_trips_random_spellings(ids: list[int], seps: list[str], upper: list[bool]) -> None:
    """Cards written with random case, `10`/`T` and separators parse back to the same ids."""
    parts = []
    for i, c in enumerate(ids):
        r, s = RANKS[c >> 2], SUITS[c & 3]
        if r == "T" and upper[i + 12]:
            r = "10"
        text = (r.upper() if upper[i] else r.lower()) + (s.upper() if upper[i + 12] else s)
        parts.append(text + seps[i])
    assert parse_cards("".join(parts)) == ids
    assert parse_cards(format_cards(ids)) == ids


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 7).flatmap(lambda k: st.tuples(st.just(k), st.integers(0, comb(52, k) - 1))))
def test_colex_index_round_trip(k_index: tuple[int, int]) -> None:
    k, index = k_index
    cards = colex_cards(index, k)
    assert len(cards) == k and cards == sorted(set(cards)) and 0 <= cards[0] and cards[-1] < 52
    assert colex_index(cards) == index
    assert colex_index(cards[::-1]) == index  # order does not matter
    # the contract's formula, written out independently
    assert sum(comb(c, i + 1) for i, c in enumerate(cards)) == index


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 51), min_size=1, max_size=7))
def test_colex_cards_inverts_index(cards: set[int]) -> None:
    assert colex_cards(colex_index(cards), len(cards)) == sorted(cards)
    assert bitmap_cards(bitmap(cards)) == sorted(cards)
    assert bitmap(cards) == sum(1 << c for c in cards)


def test_colex_is_a_bijection_for_small_k() -> None:
    for k in (1, 2, 3):
        seen = sorted(colex_index(h) for h in combinations(range(52), k))
        assert seen == list(range(comb(52, k)))
    assert colex_index(range(7)) == 0
    assert colex_index(range(45, 52)) == comb(52, 7) - 1
    assert colex_index([0, 1, 2, 3, 5]) == 1  # next after 0..4 in colex order
    with pytest.raises(ValueError):
        colex_cards(comb(52, 5), 5)
    with pytest.raises(ValueError):
        colex_cards(-1, 5)


def test_colex_bitmaps_enumerate_in_index_order() -> None:
    """The build's Gosper-hack enumeration yields the bitmap of colex index first, first+1, ..."""
    import numpy as np

    from pipeline.core.bits import colex_bitmaps
    from pipeline.core.cards import BINOM

    for k, first, count in ((7, 0, 3000), (7, comb(52, 7) - 2000, 2000), (5, 1_234_567, 5000),
                            (2, 0, comb(52, 2))):
        out = np.empty(count, np.uint64)
        colex_bitmaps(k, first, BINOM, out)
        want = [bitmap(colex_cards(first + i, k)) for i in range(count)]
        assert out.tolist() == want, (k, first)
