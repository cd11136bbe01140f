"""Issue 29, item 4: a paytable line whose hands earlier lines all take is refused (a royal
below the straight flush was accepted, and ``vp breakeven`` then said the royal "does not reach
100 %" instead of refusing the game). The verdict is checked against the solver's own line
matcher (:func:`pipeline.videopoker.solver.classify._line_of`) over every natural hand."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement

import numpy as np
import pytest
from cli_runner import run_main

from pipeline.errors import ConfigError
from pipeline.videopoker.paytables.hands import (
    FLUSH,
    FOUR_KIND,
    FULL_HOUSE,
    PAIR,
    ROYAL,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_KIND,
    TWO_PAIR,
)
from pipeline.videopoker.paytables.paytable import ALL_RANKS, Line, covering_lines, parse_paytable
from pipeline.videopoker.solver.classify import _line_of


def _toml(*lines: str, wild: str = "none") -> str:
    body = "".join(f"[[line]]\n{ln}\n" for ln in lines)
    return f'name = "t"\nwild = "{wild}"\n{body}'


@pytest.mark.parametrize("wild,lines,needle", [
    ("none", ['hand = "straight flush"\npays = 50', 'hand = "royal flush"\npays = 800'],
     "line 2: royal flush: every hand it pays is paid first by line 1 (straight flush)"),
    ("deuces", ['hand = "royal flush"\npays = 800', 'hand = "straight flush"\npays = 9',
                'hand = "wild royal flush"\npays = 25'], "line 3: wild royal flush"),
    ("none", ['hand = "three of a kind"\npays = 3', 'hand = "three of a kind"\nranks = "A"\npays = 5'],
     "line 2: three aces"),
    ("none", ['hand = "four of a kind"\nranks = "A"\npays = 80',
              'hand = "four of a kind"\nranks = "23456789TJQK"\npays = 25',
              'hand = "four of a kind"\nranks = "A"\nkicker = "234"\npays = 160'], "line 3: four aces with 2-4"),
    ("none", ['hand = "pair"\nranks = "JQKA"\npays = 1', 'hand = "pair"\nranks = "QK"\npays = 2'], "line 2"),
    ("deuces", ['hand = "four deuces"\npays = 200', 'hand = "four deuces"\nkicker = "A"\npays = 400'],
     "line 2: four deuces with A"),
])
def test_a_line_that_can_never_pay_is_refused(wild: str, lines: list[str], needle: str) -> None:
    with pytest.raises(ConfigError, match="could never pay") as err:
        parse_paytable(_toml(*lines, wild=wild), "mine.toml")
    assert needle in str(err.value) and str(err.value).startswith("mine.toml:"), err.value


@pytest.mark.parametrize("lines", [
    ['hand = "royal flush"\npays = 800', 'hand = "straight flush"\npays = 50'],
    ['hand = "four of a kind"\nranks = "A"\nkicker = "234"\npays = 160',
     'hand = "four of a kind"\nranks = "A"\npays = 80'],
    ['hand = "three of a kind"\nranks = "A"\npays = 5', 'hand = "three of a kind"\npays = 3'],
    ['hand = "pair"\nranks = "QK"\npays = 2', 'hand = "pair"\nranks = "JQKA"\npays = 1'],
])
def test_a_line_some_hand_reaches_is_kept(lines: list[str]) -> None:
    assert len(parse_paytable(_toml(*lines)).lines) == len(lines)


def _natural_readings() -> list[tuple[np.ndarray, bool]]:
    """Every natural five-card hand's (rank counts, flush): ranks with at most four of a kind,
    a flush only on five different ranks."""
    out = []
    for ranks in combinations_with_replacement(range(13), 5):
        cnt = np.bincount(ranks, minlength=13).astype(np.int64)
        if cnt.max() > 4:
            continue
        out.append((cnt, False))
        if cnt.max() == 1:
            out.append((cnt, True))
    return out


def _reachable(lines: list[Line], readings: list[tuple[np.ndarray, bool]]) -> bool:
    """Whether the last line is the first match of some natural hand (the solver's matcher)."""
    codes = np.array([ln.code for ln in lines], np.int64)
    rmask = np.array([ln.ranks for ln in lines], np.int64)
    kmask = np.array([ln.kicker for ln in lines], np.int64)
    last = len(lines) - 1
    return any(_line_of(cnt, flush, 0, 0, 0, codes, rmask, kmask) == last for cnt, flush in readings)


def _some_ranks(rng: np.random.Generator) -> int:
    """A random non-empty rank set, often most ranks (so later lines are often covered)."""
    while True:
        mask = int(sum(1 << r for r in range(13) if rng.random() < 0.7))
        if mask:
            return mask


def test_the_verdict_equals_the_solvers_matcher_on_random_tables() -> None:
    """Random natural tables (royal, straight flush, quads, trips and pairs with random rank and
    kicker filters, the unfiltered hands): a line is refused exactly when no natural hand is
    first matched by it."""
    rng = np.random.default_rng(2904)
    readings = _natural_readings()
    plain = (ROYAL, STRAIGHT_FLUSH, FULL_HOUSE, FLUSH, STRAIGHT, TWO_PAIR)
    checked = refused = 0
    for _ in range(100):
        lines: list[Line] = []
        for _ in range(int(rng.integers(2, 7))):
            code = int(rng.choice([*plain, FOUR_KIND, FOUR_KIND, THREE_KIND, PAIR, PAIR]))
            ranks = kicker = ALL_RANKS
            if code in (FOUR_KIND, THREE_KIND, PAIR) and rng.random() < 0.6:
                ranks = _some_ranks(rng)
            if code == FOUR_KIND and rng.random() < 0.4:
                kicker = _some_ranks(rng)
            if any((ln.code, ln.ranks, ln.kicker) == (code, ranks, kicker) for ln in lines):
                continue  # an exact duplicate has its own message
            line = Line("", code, Fraction(1), ranks, kicker)
            dead = bool(covering_lines(lines, code, ranks, kicker))
            assert dead == (not _reachable([*lines, line], readings)), (lines, line)
            checked += 1
            refused += dead
            if not dead:
                lines.append(line)
    assert checked > 150 and 10 < refused < checked - 10  # both verdicts were exercised


def test_breakeven_refuses_the_game_instead_of_a_wrong_answer(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    f = tmp_path / "upside-down.toml"
    f.write_text(_toml('hand = "straight flush"\npays = 50', 'hand = "royal flush"\npays = 800',
                       'hand = "four of a kind"\npays = 25', 'hand = "full house"\npays = 9',
                       'hand = "flush"\npays = 6', 'hand = "straight"\npays = 4',
                       'hand = "three of a kind"\npays = 3', 'hand = "two pair"\npays = 2',
                       'hand = "pair"\nranks = "JQKA"\npays = 1'))
    code, out, err = run_main(capsys, "-a", str(tmp_path / "art"), "vp", "breakeven", str(f))
    assert code == 2 and out == "" and "could never pay" in err and "line 2: royal flush" in err, err
