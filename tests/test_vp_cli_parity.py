"""The ``vp`` commands speak as players do (issue 37, item 7): the game positional wherever ``vp
analyze`` takes it, pay lines by their short names (royal, sf, 4K, fh ...) with the edited pays
per credit stated, holds by card or by position, one name for keeping no card ("draw five"),
``vp compare --pay`` and ``vp draw`` (the trainer's hand played out), each against the long form
or the answer the API gives."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_runner import one_error_line, run_main

from pipeline.answers import Context
from pipeline.answers.vp_play import draw
from pipeline.errors import InputError
from pipeline.videopoker.catalog.games import load_named
from pipeline.videopoker.paytables.edit import edit_pays

JACKS = "jacks-or-better-9-6"
DEAL = "Js Jd 5h 8c Qs"


def cli(capsys: pytest.CaptureFixture[str], artifacts: Path, *args: str) -> Any:
    code, out, err = run_main(capsys, "-a", str(artifacts), *args)
    assert code == 0, err
    return json.loads(out) if "--json" in args else out


def test_pay_line_short_names() -> None:
    pt = load_named(JACKS)
    short = edit_pays(pt, ["royal=4000", "SF=100", "4K=50", "fh=8", "trips=4", "2p=3"])
    long = edit_pays(pt, ["royal flush=4000", "straight flush=100", "four of a kind=50", "full house=8",
                          "three of a kind=4", "two pair=3"])
    assert short.lines == long.lines and short.name == long.name
    assert short.name == ("Jacks or Better 9/6 (edited: royal flush=4000, straight flush=100, "
                          "four of a kind=50, full house=8, three of a kind=4, two pair=3)")
    assert edit_pays(pt, ["quads=40"]).lines == edit_pays(pt, ["four of a kind=40"]).lines
    with pytest.raises(InputError, match="ambiguous"):  # double double bonus pays five kinds of quads
        edit_pays(load_named("double-double-bonus-9-6"), ["4K=60"])
    with pytest.raises(InputError, match="'deuces'"):
        edit_pays(pt, ["deuces=100"])


def test_edited_pays_stated_per_credit(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, artifacts, "vp", "deal", "9/6 jacks", "--seed", "1", "--pay", "4K=50", "--pay", "fh=8")
    assert out.splitlines()[1] == ("edited: four of a kind pays 50 per credit (was 25); "
                                   "full house pays 8 per credit (was 9)")


def test_game_positional_as_in_analyze(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    by_option = cli(capsys, artifacts, "vp", "deal", "-p", JACKS, "--seed", "42", "-n", "3", "--json")
    assert cli(capsys, artifacts, "vp", "deal", "9/6 jacks", "--seed", "42", "-n", "3", "--json") == by_option
    g = cli(capsys, artifacts, "vp", "grade", DEAL, "Js Qs", "8/5 jacks", "--json")
    assert g == {**cli(capsys, artifacts, "vp", "grade", DEAL, "Js Qs", "-p", "jacks-or-better-8-5", "--json"),
                 "seconds": g["seconds"]} and g["name"] == "Jacks or Better 8/5"
    h = cli(capsys, artifacts, "vp", "hold", DEAL, "8/5 jacks", "--json")
    assert h["name"] == "Jacks or Better 8/5" and h["cards"] == DEAL
    code, out, err = run_main(capsys, "-a", str(artifacts), "vp", "deal", "8/5 jacks", "-p", JACKS)
    assert code == 2 and out == "" and "two games named" in one_error_line(err)


def test_holds_by_card_or_position(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    want = cli(capsys, artifacts, "vp", "grade", DEAL, "Js Qs", "--json")
    for hold in ("1,5", "1 5", "5,1", "10001", "Qs Js"):
        g = cli(capsys, artifacts, "vp", "grade", DEAL, hold, "--json")
        assert (g["hold"], g["cost_exact"]) == (want["hold"], want["cost_exact"]), hold
    five = [cli(capsys, artifacts, "vp", "grade", DEAL, h, "--json") for h in ("draw five", "none", "discard all")]
    assert {g["hold"] for g in five} == {"draw five"} and len({g["cost_exact"] for g in five}) == 1
    holds = cli(capsys, artifacts, "vp", "hold", DEAL, "--json")["holds"]
    assert [r["hold"] for r in holds if not r["held"]] == ["draw five"]
    chart = cli(capsys, artifacts, "vp", "chart", JACKS, "--json")
    assert chart["lines"][-1]["hold"] == "draw five"
    code, out, err = run_main(capsys, "-a", str(artifacts), "vp", "grade", DEAL, "1,1")
    assert code == 2 and out == "" and "'1,1'" in one_error_line(err)


def test_vp_draw_is_the_answer(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    got = cli(capsys, artifacts, "vp", "draw", "9/6 jacks", "--seed", "42", "--hand", "2", "--hold", "1,2",
              "--lines", "10", "--coins", "3", "--json")
    want = draw(Context(artifacts), 42, 2, "5s 5h", JACKS, lines=10, coins=3)
    assert {**got, "grade": None} == {**want, "grade": None}
    assert got["grade"]["ev_exact"] == want["grade"]["ev_exact"]
    assert Fraction(got["expected_exact"]) == 30 * Fraction(got["grade"]["ev_exact"])
    text = cli(capsys, artifacts, "vp", "draw", "--seed", "42", "--hand", "2", "--hold", "1,2")
    assert f"chart line {want['chart_line']['line']}: {want['chart_line']['hold']}" in text
    assert f"final: {want['lines'][0]['final']}" in text


def test_compare_with_pay(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """9/6 with full house 8 and flush 5 is 8/5: the edited column equals the shipped 8/5's."""
    out = cli(capsys, artifacts, "vp", "compare", "9/6 jacks", "8/5 jacks", "--pay", "fh=8", "--pay", "fl=5",
              "--json")
    games = out["games"]
    assert [g["name"] for g in games] == ["Jacks or Better 9/6",
                                          "Jacks or Better 9/6 (edited: full house=8, flush=5)",
                                          "Jacks or Better 8/5"]
    assert [g["edited"] for g in games] == [False, True, False]
    assert games[1]["source"] == "computed now"  # an edited game never matches a built artifact
    figures = ("return_exact", "variance", "hit_frequency_exact", "royal_probability_exact", "break_even_royal")
    assert {k: games[1][k] for k in figures} == {k: games[2][k] for k in figures}
