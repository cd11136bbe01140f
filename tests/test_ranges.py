"""Range parsing: combo counts of every form, weights, top-% by the preflop table, card
removal, and fuzzing (bad text raises InputError naming the token, never anything else)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_cli, run_here
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.cards import parse_cards
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_HIGH, HOLE_LOW, HOLE_SUITED
from pipeline.equity.ranges.parse import MAX_SHOWN, parse_range
from pipeline.errors import InputError

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text,combos", [
    ("QQ", 6), ("QQ+", 18), ("22-66", 30), ("66-22", 30), ("22+", 78), ("AKs", 4), ("AKo", 12),
    ("AK", 16), ("KA", 16), ("AQs+", 8), ("K9o+", 48), ("A5s-A2s", 16), ("KTs-K7s", 16),
    ("A2s-A5s", 16), ("AsKs", 1), ("10h9h", 1), ("random", 1326), ("ANY", 1326),
    ("qq+, aks", 22), ("JJ-88,AQs+,KQs", 36), ("A2+", 192), ("AA,AA", 6), ("AA,AsAh", 6),
])
def test_combo_counts(text: str, combos: int) -> None:
    assert parse_range(text).combos == combos


def test_forms_select_the_right_hands() -> None:
    r = parse_range("AQs+")
    assert set(HOLE_LOW[r.hands]) == {10, 11} and HOLE_SUITED[r.hands].all()
    assert (HOLE_HIGH[r.hands] == 12).all()
    r = parse_range("K9o+")
    assert set(HOLE_LOW[r.hands]) == {7, 8, 9, 10} and not HOLE_SUITED[r.hands].any()
    r = parse_range("A5s-A2s")
    assert set(HOLE_LOW[r.hands]) == {0, 1, 2, 3} and HOLE_SUITED[r.hands].all()
    r = parse_range("As Ks")
    assert sorted(HOLE_CARDS[r.hands[0]]) == sorted(parse_cards("AsKs"))
    assert r.cards() == parse_cards("AsKs")


def test_weights_last_mention_wins() -> None:
    r = parse_range("KK:0.5,AKs:0.25")
    assert r.combos == 10 and r.weights.sum() == pytest.approx(6 * 0.5 + 4 * 0.25)
    r = parse_range("AA, AsAh:0.5")
    assert r.combos == 6 and sorted(r.weights) == [0.5, 1, 1, 1, 1, 1]
    r = parse_range("AA:0.3,AsAh:0")
    assert r.combos == 5 and not r.unit_weights


def test_top_fraction_by_heads_up_equity(tables) -> None:  # type: ignore[no-untyped-def]
    from pipeline.equity.tables.preflop import hand_strength

    key = hand_strength(tables)
    assert parse_range("100%", key).combos == 1326
    aa = parse_range("0.1%", key)
    assert aa.combos == 6 and set(HOLE_HIGH[aa.hands]) == {12} and set(HOLE_LOW[aa.hands]) == {12}
    for pct in (5, 15, 33.3):
        r = parse_range(f"{pct}%", key)
        inside = np.zeros(1326, bool)
        inside[r.hands] = True
        # a prefix of the ordering: everything in beats everything out, classes stay whole
        assert key[inside].min() > key[~inside].max()
        # nearest prefix: one more or one fewer group of equal hands would be farther away
        target = pct / 100 * 1326
        levels = np.unique(key)[::-1]
        sizes = np.cumsum([np.count_nonzero(key == v) for v in levels])
        assert abs(r.combos - target) == min(abs(sizes - target))
    # equal-equity hands (one class) share a key
    assert len(set(key[parse_range("AKs").hands])) == 1
    # 15% is the usual ~200 combos
    assert 180 <= parse_range("15%", key).combos <= 220


def test_card_removal() -> None:
    r = parse_range("AK").without(1 << parse_cards("As")[0], "the board")
    assert r.combos == 12
    with pytest.raises(InputError, match="no hand left"):
        parse_range("AsKs").without(1 << parse_cards("As")[0], "the board")


@pytest.mark.parametrize("text,needle", [
    ("QQ+,XY", "'XY'"), ("AKs-QTs", "AKs-QTs"), ("QQs", "QQs"), ("AsAs", "duplicate card As"),
    ("AK:2", "between 0 and 1"), ("AK:x", "'x'"), ("", "empty range"), (",,", "empty range"),
    ("KK:0", "weight 0"), ("0%", "0%"), ("101%", "101%"), ("AsK", "bad card"),
    ("AsKsQs", "expected 2 hole cards"), ("Z" * 200, "..."),
])
def test_bad_tokens_name_the_token(text: str, needle: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_range(text, np.arange(1326))
    assert needle in str(exc.value)
    assert len(str(exc.value)) < 300


def test_top_fraction_without_table_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="preflop"):
        parse_range("15%")


_ALPHABET = "AKQJT98765432akqjtscdho+-,:.%0123456789 xX"


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=40))
def test_fuzz_only_input_errors(text: str) -> None:
    try:
        r = parse_range(text, np.arange(1326))
    except InputError as exc:
        assert str(exc)
        return
    assert 1 <= r.combos <= 1326
    assert np.all(np.diff(r.hands) > 0) and np.all((r.weights > 0) & (r.weights <= 1))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_fuzz_any_unicode(text: str) -> None:
    try:
        parse_range(text, np.arange(1326))
    except InputError as exc:
        assert len(str(exc)) < 200 + 12 * MAX_SHOWN  # repr may escape each shown char


@pytest.mark.parametrize("args,needle", [
    (["equity", "QQ+,XY"], "'XY'"),
    (["equity", "AsKs", "--vs", "AKs-QTs"], "AKs-QTs"),
    (["equity", "AsKs", "--vs", "AsQs"], "appears twice"),
    (["equity", "AA", "--vs", "AsAh", "--board", "Ad Ac 2c"], "no hand left"),
    (["preflop", "QQ+", "--vs", "AA", "-n", "3"], "heads-up"),
])
def test_cli_bad_ranges_exit_2_one_line(artifacts, args: list[str], needle: str,  # type: ignore[no-untyped-def]
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The first case of each command in a real process, the others in this one."""
    if args[0] == "preflop" or args[1:] == ["QQ+,XY"]:
        r = run_cli("--artifacts", str(artifacts), *args)
    else:
        r = run_here(capsys, "--artifacts", str(artifacts), *args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines
