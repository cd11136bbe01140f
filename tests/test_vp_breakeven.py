"""``vp breakeven`` and ``vp compare``: the search's answer is the grid point it claims, the
shared pay categories equal a fresh analysis (wild cards included, across other lines' pays),
the return is monotone and convex in the pay, and bad input gets one error line and exit 2.

Published figures are checked in ``test_vp_breakeven_published.py``. The command-line tests
use an empty artifacts folder (deal classes derived, games analysed now), so they need no
build and prove the commands write nothing.
"""

from __future__ import annotations

import functools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_main

from pipeline.errors import InputError
from pipeline.videopoker.paytables.paytable import load_paytable
from pipeline.videopoker.solver.analysis import analyze, compute_counts
from pipeline.videopoker.solver.deals import deal_classes
from pipeline.videopoker.tools.breakeven import (
    MAX_TABLE_ROWS,
    PaySolver,
    break_even,
    find_line,
    parse_amount,
    parse_target,
    pay_table,
    strategy_changes,
    table_pays,
    with_pay,
)

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def _counts(slug: str) -> tuple[np.ndarray, list[np.ndarray]]:
    """The game's own pay categories and subset counts, once per module (``vp sweep`` passes
    them the same way); a wild game's solver still recomputes them when the pay order moves."""
    return compute_counts(load_paytable(slug))


def _solver(slug: str, line: str = "royal flush") -> PaySolver:
    pt = load_paytable(slug)
    return PaySolver(pt, find_line(pt, line), deal_classes(pt.deck_size), _counts(slug))


def test_the_answer_is_the_smallest_grid_pay_reaching_the_target() -> None:
    s = _solver("jacks-or-better-8-5")
    for target, step in ((Fraction(1), Fraction(1)), (Fraction("0.995"), Fraction("0.01")),
                         (Fraction("0.98"), Fraction(25))):
        found = break_even(s, target, step)
        assert found.hi.pay % step == 0 and found.hi.ret >= target
        assert found.lo is not None and found.lo.pay == found.hi.pay - step and found.lo.ret < target
        assert found.lo.pay <= found.lower <= found.upper <= found.hi.pay
    assert s.solves < 20  # Newton steps from above, not a scan


def test_shared_categories_equal_a_fresh_analysis_in_a_wild_game() -> None:
    """Deuces wild: moving the royal below four deuces (200) and the wild royal (25) changes
    which line a hand's best reading pays; the solver re-derives the categories then."""
    s = _solver("deuces-wild-full-pay")
    for pay in (Fraction(100), Fraction(25)):  # below four deuces; tied with the wild royal
        fresh = analyze(with_pay(s.pt, s.line, pay), s.classes)
        assert s.point(pay).ret == fresh.return_exact, pay


def test_return_is_monotone_and_convex_in_the_pay() -> None:
    s = _solver("bonus-poker-8-5")
    rows = pay_table(s, table_pays(Fraction(0), Fraction(2400), Fraction(400)))
    ret = [Fraction(r["return_exact"]) for r in rows]
    assert all(b >= a for a, b in zip(ret, ret[1:]))
    assert all(c - b >= b - a for a, b, c in zip(ret, ret[1:], ret[2:]))
    assert rows[2]["classes_changed"] == 0 and rows[-1]["classes_changed"] > 0  # row 2 = 800


def test_a_target_met_at_pay_zero_and_another_line() -> None:
    found = break_even(_solver("jacks-or-better-9-6"), Fraction("0.9"))
    assert found.hi.pay == 0 and found.lo is None
    fh = break_even(_solver("jacks-or-better-8-5", "full house"), Fraction(1))
    assert fh.hi.pay == 11 and fh.lo is not None and fh.lo.ret < 1 <= fh.hi.ret


def test_strategy_changes_are_real_improvements() -> None:
    s = _solver("jacks-or-better-9-6")
    ch = strategy_changes(s.analysis(Fraction(800)), s.analysis(Fraction(976)))
    assert ch["classes"] == 1320 and ch["deals"] == 25572 and ch["return_gain"] > 0
    top = ch["top"][0]
    assert (top.old_hold, top.new_hold) == ("Jc Jd", "Jc Qc Kc") and top.gain > 0
    assert sum(c.deals for c in ch["top"]) <= ch["deals"]


def test_unreachable_target_names_the_maximum() -> None:
    with pytest.raises(InputError, match="paying up to 1000 per credit"):
        break_even(_solver("jacks-or-better-8-5"), Fraction(1), Fraction(1), Fraction(1000))


@pytest.mark.parametrize("text,want", [("1", Fraction(1)), ("1.0", Fraction(1)),
                                       ("99.5%", Fraction(199, 200)), ("0.995", Fraction(199, 200))])
def test_targets_read_exactly(text: str, want: Fraction) -> None:
    assert parse_target(text) == want


@pytest.mark.parametrize("text", ["0", "-1", "5.01", "nan", "inf", "-inf", "abc", "", "1/0"])
def test_bad_targets(text: str) -> None:
    with pytest.raises(InputError, match="^target "):  # the field; the CLI says --target
        parse_target(text)


@pytest.mark.parametrize("text", ["-1", "0.0001", "1e7", "nan"])
def test_bad_pays(text: str) -> None:
    with pytest.raises(InputError, match="^step "):  # the field; the CLI says --step
        parse_amount(text, "step")


def test_table_bounds() -> None:
    assert len(table_pays(Fraction(800), Fraction(1600), None)) == 11
    with pytest.raises(InputError, match=f"at most {MAX_TABLE_ROWS}"):
        table_pays(Fraction(0), Fraction(1000), Fraction(1))
    with pytest.raises(InputError, match="below start"):
        table_pays(Fraction(900), Fraction(800), None)


@pytest.mark.parametrize("args,needle", [
    (["breakeven", "no-such-game"], "unknown paytable"),
    (["breakeven", "jacks-or-better-8-5", "--line", "five aces"], "not a line"),
    (["breakeven", "bonus-poker-8-5", "--line", "four of a kind"], "several lines"),
    (["breakeven", "jacks-or-better-8-5", "--target", "0"], "--target"),
    (["breakeven", "jacks-or-better-8-5", "--target", "nan"], "--target"),
    (["breakeven", "jacks-or-better-8-5", "--target", "7"], "--target"),
    (["breakeven", "jacks-or-better-8-5", "--step", "0"], "--step"),
    (["breakeven", "jacks-or-better-8-5", "--max-pay", "1000"], "does not reach 100%"),
    (["breakeven", "jacks-or-better-8-5", "--start", "900"], "go with --table"),
    (["breakeven", "jacks-or-better-8-5", "--table", "--start", "0", "--stop", "9999", "--step", "1"],
     "rows"),
    (["compare"], "Missing argument"),
    (["compare", "jacks-or-better-9-6", "jacks-or-better-9-6"], "named twice"),
    (["compare", "jacks-or-better-9-6", "nope"], "unknown paytable"),
])
def test_cli_bad_input_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                     needle: str) -> None:
    # in this process: an error needs no fresh interpreter, whose start costs seconds each time
    code, out, err = run_main(capsys, "-a", str(tmp_path), "vp", *args)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and out == ""
    if args != ["compare"]:  # click's own usage error has its usage lines
        assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert needle in err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.full_tier  # builds or solves for seconds: not the fast tier
def test_cli_breakeven_table_and_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # in this process (the CLI's pipes and exit codes have tests of their own): three fresh
    # interpreters cost seconds each and solve the same games again
    def vp(*args: str) -> str:
        code, out, err = run_main(capsys, "-a", str(tmp_path), "vp", *args)
        assert code == 0, err
        return out

    out = json.loads(vp("breakeven", "jacks-or-better-9-6", "--json"))
    assert out["break_even"] == 976 and out["below"]["pay"] == 975
    assert out["meters"][1] == {"coins": 5, "coins_paid": 4880.0, "bet": 5.0, "paid": 4880.0}
    assert out["strategy_changes"]["classes"] == 1320 and out["exact_break_even"] == "45110169982/46219759"
    text = vp("breakeven", "jacks-or-better-9-6", "--table", "--stop", "1000", "--step", "100")
    assert [ln.split()[0] for ln in text.splitlines()[2:5]] == ["800", "900", "1,000"]
    games = json.loads(vp("compare", "jacks-or-better-9-6", "deuces-wild-full-pay", "--json"))["games"]
    assert [g["break_even_royal"] for g in games] == [976, 451]
    assert [g["source"] for g in games] == ["computed now"] * 2
    assert round(games[0]["return"], 6) == 0.995439 and round(games[0]["royal_cycle"]) == 40391
    assert list(tmp_path.iterdir()) == []
