"""Flopzilla/GTO+ range forms: weight brackets, connector spans and ``any two`` each equal
their spelled-out list (same combos, same weights); anything else is one error naming the token."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.equity.ranges.parse import parse_range
from pipeline.errors import InputError


def _same(a: str, b: str) -> None:
    ra, rb = parse_range(a), parse_range(b)
    assert ra.hands.tolist() == rb.hands.tolist()
    assert ra.weights.tolist() == rb.weights.tolist()


@pytest.mark.parametrize("form,spelled", [
    ("[50]KK,QQ[/50]", "KK:0.5,QQ:0.5"),
    ("[50]KK,QQ[/50],AA", "KK:0.5,QQ:0.5,AA"),
    ("AA,[25]AKs[/25]", "AA,AKs:0.25"),
    ("[75]KK[/75]", "KK:0.75"),
    ("[50.0]QQ+,AKs[/50.0]", "QQ:0.5,KK:0.5,AA:0.5,AKs:0.5"),
    ("[100]JJ[/100],[10]TT[/10]", "JJ,TT:0.1"),
    ("T9s-54s", "T9s,98s,87s,76s,65s,54s"),
    ("54s-T9s", "T9s,98s,87s,76s,65s,54s"),
    ("KQo-JTo", "KQo,QJo,JTo"),
    ("J9s-64s", "J9s,T8s,97s,86s,75s,64s"),
    ("AK-QJ", "AK,KQ,QJ"),
    ("[30]T9s-76s[/30]", "T9s:0.3,98s:0.3,87s:0.3,76s:0.3"),
    ("any two", "random"),
    ("ANY TWO", "random"),
])
def test_form_equals_its_spelled_out_list(form: str, spelled: str) -> None:
    _same(form, spelled)


def test_connector_span_combo_counts() -> None:
    assert parse_range("T9s-54s").combos == 6 * 4
    assert parse_range("KQo-JTo").combos == 3 * 12
    assert parse_range("any two").combos == 1326


def test_bracket_weights_are_exact_fractions_of_100() -> None:
    r = parse_range("[33]AA[/33]")
    assert np.all(r.weights == 0.33) and r.combos == 6


@pytest.mark.parametrize("text,bad", [
    ("[50]KK,QQ", "[50]KK"),              # never closed
    ("KK[/50]", "KK[/50]"),               # closes nothing
    ("[50]KK,QQ[/40]", "QQ[/40]"),        # wrong number
    ("[50]KK:0.5[/50]", "[50]KK:0.5[/50]"),  # own weight inside a bracket
    ("[50]KK,[60]QQ[/60]", "[60]QQ[/60]"),   # nested
    ("[150]KK[/150]", "[150]KK[/150]"),   # above 100 %
    ("[50][/50]", "[50][/50]"),           # empty
    ("T9s-53s", "T9s-53s"),               # gap changes
    ("T9s-54o", "T9s-54o"),               # suffix changes
    ("[x]KK[/x]", "[x]KK[/x]"),
    ("any three", "'three'"),           # spaces separate tokens: 'any' is every hand
])
def test_bad_forms_name_the_token(text: str, bad: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_range(text)
    assert bad in str(exc.value)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]/05AKQT9s:o,-+. y", max_size=24))
def test_bracket_and_span_text_raises_only_input_error(text: str) -> None:
    try:
        r = parse_range(text)
    except InputError:
        return
    assert r.combos > 0 and np.all((r.weights > 0) & (r.weights <= 1))
