"""The range writer (pipeline/equity/ranges/format.py) is the parser's inverse: for any range,
``parse(format(r))`` holds the same hands with bit-identical weights (a property test over
arbitrary weighted sets of the 1,326 hands), every form the range tests use reads back the
same after one trip through the writer, and runs come out the way people write them."""

from __future__ import annotations

import numpy as np
import pytest
import test_pasted_ranges
import test_range_forms
import test_range_grid
import test_ranges
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.constants import N_HAND_CLASSES, N_HOLE_PAIRS
from pipeline.equity.hands.starting_hands import hand_classes
from pipeline.equity.ranges.format import format_range, format_weights
from pipeline.equity.ranges.parse import parse_range

#: a stand-in preflop ordering, so that top-% forms parse without the table
STRENGTH = lambda opponents=1: (np.arange(N_HOLE_PAIRS) * opponents) % 1327  # noqa: E731
CLS = hand_classes()[0]


def _marked(test: object, arg: int = 0) -> list[str]:
    """The first parameter of each case of a parametrized test (its forms)."""
    return [case[arg] if isinstance(case, tuple) else case
            for mark in getattr(test, "pytestmark", []) if mark.name == "parametrize"
            for case in mark.args[1]]


#: every valid range form the range tests name
FORMS = sorted(set(
    _marked(test_ranges.test_combo_counts)
    + _marked(test_range_forms.test_form_equals_its_spelled_out_list)
    + _marked(test_range_forms.test_form_equals_its_spelled_out_list, 1)
    + [text for text, _ in test_pasted_ranges.FORMS]
    + test_range_grid.FORMS + test_range_grid.PARTIAL_FORMS
    + ["15%", "0.1%", "33.3%", "8%vs3", "AA:0.3,AsAh:0", "AA, AsAh:0.5", "KK:0.5,AKs:0.25"]))


def _same(a: object, b: object) -> None:
    assert a.hands.tolist() == b.hands.tolist()  # type: ignore[attr-defined]
    assert a.weights.tolist() == b.weights.tolist()  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", FORMS)
def test_every_form_of_the_range_tests_round_trips(text: str) -> None:
    r = parse_range(text, STRENGTH)
    written = format_range(r)
    _same(parse_range(written), r)
    assert format_range(parse_range(written)) == written  # the writer's text is a fixed point


def test_forms_are_found() -> None:
    assert len(FORMS) > 60 and "[50]KK,QQ[/50]" in FORMS and "A♠K♠" in FORMS and "15%" in FORMS


WEIGHTS = st.one_of(st.just(1.0), st.sampled_from([0.5, 0.25, 0.33, 0.1, 0.05]),
                    st.floats(min_value=0, max_value=1, exclude_min=True, allow_subnormal=True))


@st.composite
def ranges(draw: st.DrawFn) -> np.ndarray:
    """Weights of the 1,326 hands: whole classes at one weight, single combos on top (some
    overriding a class's weight), at least one hand in."""
    w = np.zeros(N_HOLE_PAIRS, np.float64)
    for k, x in draw(st.dictionaries(st.integers(0, N_HAND_CLASSES - 1), WEIGHTS, max_size=12)).items():
        w[CLS == k] = x
    for h, x in draw(st.dictionaries(st.integers(0, N_HOLE_PAIRS - 1), WEIGHTS, max_size=8)).items():
        w[h] = x
    if draw(st.booleans()):
        w[:] = draw(WEIGHTS)  # every hand at one weight: "random"
    if not (w > 0).any():
        w[draw(st.integers(0, N_HOLE_PAIRS - 1))] = 1.0
    return w


@settings(max_examples=80, deadline=None)
@given(ranges())
def test_parse_of_format_is_the_range(w: np.ndarray) -> None:
    r = parse_range(format_weights(w))
    idx = np.flatnonzero(w > 0)
    assert r.hands.tolist() == idx.tolist()
    assert r.weights.tolist() == w[idx].tolist()


@pytest.mark.parametrize("text, written", [
    ("QQ+,AKs,A5s-A2s", "QQ+,AKs,A5s-A2s"), ("KK:0.5,AA,QQ", "AA,KK:0.5,QQ"),
    ("77,66,55", "77-55"), ("AKs,AKo", "AK"), ("ATs+,ATo+", "AT+"), ("K9o+", "K9o+"),
    ("any two", "random"), ("[50]KK,QQ[/50]", "KK-QQ:0.5"), ("T9s-54s", "T9s,98s,87s,76s,65s,54s"),
    ("AsKs,AhKh:0.25", "AsKs,AhKh:0.25"), ("AK:0.1", "AK:0.1"),
])
def test_runs_read_as_people_write_them(text: str, written: str) -> None:
    assert format_range(parse_range(text)) == written


def test_no_exponent_in_a_tiny_weight() -> None:
    w = np.zeros(N_HOLE_PAIRS)
    w[0] = 1e-300
    text = format_weights(w)
    assert "e" not in text.split(":")[1] and parse_range(text).weights.tolist() == [1e-300]
