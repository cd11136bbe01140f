"""One ranking: :class:`pipeline.core.category.Category` gives every category's code, order and
name, and ``eval``, ``hits`` and ``vp`` print the same names for the same category."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations, combinations_with_replacement
from pathlib import Path

import pytest

from pipeline.core.category import CATEGORY_NAMES, Category
from pipeline.core.evaluate import hand_value
from pipeline.equity.ranges.hits import MADE
from pipeline.videopoker.paytables.hands import HAND_NAMES, PAY_HANDS
from tests.cli_runner import run_main

#: DESIGN.md: the ``category`` uint8 of every table, 0 high card .. 8 straight flush
DESIGN_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                "full house", "four of a kind", "straight flush")
#: distinct 5-card hand values by category (published: 7,462 in all)
CLASSES = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)


def test_codes_names_and_order_are_the_contract() -> None:
    assert [int(c) for c in Category] == list(range(9))
    assert CATEGORY_NAMES == DESIGN_NAMES
    assert all(Category.from_label(n.upper()) is c for n, c in zip(DESIGN_NAMES, Category))
    assert [c for c in Category if c.ranked_by_top_card] == [Category.STRAIGHT, Category.STRAIGHT_FLUSH]
    with pytest.raises(ValueError, match="quads"):
        Category.from_label("quads")


def test_hand_value_categories_count_the_published_classes() -> None:
    """The Python ranking behind every table gives each category its published number of values."""
    values: dict[int, Category] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) < 5:
            v = hand_value(ranks, False)
            values[v.key] = v.category
    for ranks in combinations(range(13), 5):
        v = hand_value(ranks, True)
        values[v.key] = v.category
    counts = Counter(values.values())
    assert tuple(counts[c] for c in Category) == CLASSES


def test_pay_hands_and_hits_rows_take_the_category_names() -> None:
    """A pay hand or hits row that is a whole category prints its name, strongest first."""
    whole = [h for h in PAY_HANDS if not h.refinement]
    assert [h.name for h in whole] == [c.label for c in reversed(Category)][:-1]  # all but high card
    for i, h in enumerate(PAY_HANDS):
        if h.refinement and h.category is not None:  # a refinement sits above its category's line
            assert i < HAND_NAMES.index(h.category.label), h
    assert HAND_NAMES[:2] == ("royal flush", "wild royal flush")
    rows = [Category.from_label(m) for m in MADE if m in CATEGORY_NAMES]
    assert rows == sorted(rows, reverse=True) and len(rows) == 6
    assert "quads" not in MADE


def test_eval_hits_and_vp_print_the_same_names(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    quads = Category.FOUR_OF_A_KIND.label
    code, out, err = run_main(capsys, "--artifacts", str(artifacts), "eval", "Qs Qh Qd Qc 2s", "--json")
    assert code == 0, err
    assert json.loads(out)["category_name"] == quads
    code, out, err = run_main(capsys, "--artifacts", str(artifacts), "hits", "QQ,AKs", "--board",
                              "Qd Qc 7s", "--json")
    assert code == 0, err
    made = {r["category"]: r["combos"] for r in json.loads(out)["made"]}
    assert made[quads] == 1 and made[Category.FULL_HOUSE.label] == 0
    code, out, err = run_main(capsys, "--artifacts", str(artifacts), "vp", "analyze",
                              "jacks-or-better-9-6", "--json")
    assert code == 0, err
    hands = [ln["hand"] for ln in json.loads(out)["lines"]]
    assert hands[:2] == ["royal flush", Category.STRAIGHT_FLUSH.label]
    assert [Category.from_label(h) for h in hands[2:8]] == \
        [Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.FLUSH, Category.STRAIGHT,
         Category.THREE_OF_A_KIND, Category.TWO_PAIR]
