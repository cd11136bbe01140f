"""The short card in players' words (pipeline/videopoker/charts/plain.py), against the exact
solver: the 9/6 card of 12 lines (``vp chart --max-lines 12``) read as its words are written —
every hold of a kind a line names, first line first, the lowest mask on a tie — is played here
from the words' text; its holds' exact EVs come from the solver's integer counts
(``exact_hold_evs``, not the chart's float table), and what the words cost against the exact card
(whole and line by line) equals the answer's exact fractions. The per-line losses add up to the
card's cost exactly; the CLI prints what the answer holds."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_runner import run_main

from pipeline.answers import Context
from pipeline.answers.vp import chart, load_game
from pipeline.videopoker.charts.patterns import game_traits, hold_codes
from pipeline.videopoker.charts.plain import plain_kind
from pipeline.videopoker.solver.holds import exact_hold_evs
from pipeline.videopoker.tools.strategy_io import strategy_data

JACKS = "jacks-or-better-9-6"
SHORT = 12


@pytest.fixture(scope="module")
def short(artifacts: Path) -> dict[str, Any]:
    ctx = Context(artifacts)
    pt = load_game(JACKS)
    data, _ = strategy_data(pt, artifacts, ctx.deal_classes(pt.deck_size))
    return {"ctx": ctx, "pt": pt, "data": data, "info": chart(ctx, JACKS, max_lines=SHORT)}


def _names(words: str, kind: str) -> bool:
    """Whether a line's words name ``kind``, read as a player reads them."""
    for w in words.replace(", ", " or ").split(" or "):
        if kind == w or kind.startswith(w + " (") or (w == "any pair" and kind in ("high pair", "low pair")):
            return True
    return False


def _play(hands: np.ndarray, deal_cat: np.ndarray, pt: Any, words: list[str]) -> np.ndarray:
    """Every class's hold under a card given by its lines' words (first line that names a kind of
    one of the class's holds; the lowest mask on a tie)."""
    codes = hold_codes(hands, deal_cat, game_traits(pt))
    uniq, inv = np.unique(codes, return_inverse=True)
    far = len(words) + 1
    line = np.array([next((r for r, w in enumerate(words) if w and _names(w, plain_kind(int(c), game_traits(pt)))),
                          far) for c in uniq])
    per_hold = line[inv.reshape(codes.shape)]
    return np.argmin(per_hold, axis=1).astype(np.uint8)  # argmin: the first (lowest) mask


def _exact_gap(s: dict[str, Any], a: np.ndarray, b: np.ndarray) -> Fraction:
    """Return of holds ``a`` minus holds ``b``, from the solver's exact EVs of the classes where
    they differ (each deal's 32 hold EVs from the integer counts)."""
    pt, data = s["pt"], s["data"]
    pay_cat, counts = s["ctx"].counts(pt)
    assert (np.diff(data.hands.astype(np.int64), axis=1) > 0).all()  # colex rows: ascending cards
    total = Fraction(0)
    memo = s.setdefault("evs", {})  # class -> its 32 exact EVs (tests share the classes)
    for i in np.flatnonzero(a != b):
        if i not in memo:
            memo[i] = exact_hold_evs(data.hands[i:i + 1], pt, pay_cat, counts)[0]
        evs = memo[i]
        total += int(data.weight[i]) * (evs[int(a[i])] - evs[int(b[i])])
    return total / comb(pt.deck_size, 5)


def test_words_are_players_words(short: dict[str, Any]) -> None:
    words = [ln["players"] for ln in short["info"]["lines"]]
    assert words[1] == "4 to a royal" and words[4] == "any pair" and words[-1] == "draw five"
    assert "one high card" in words and "2 unsuited high cards" in words
    assert not any("penalty" in w or "high cards," in w for w in words)
    # the exact line stays beside: the solver's words still name penalty cards
    assert any("penalty" in ln["hold"] for ln in short["info"]["lines"])


def test_line_losses_add_up_to_the_cost(short: dict[str, Any]) -> None:
    info = short["info"]
    losses = [Fraction(ln["loss_exact"]) for ln in info["lines"]]
    assert sum(losses) == Fraction(info["cost_exact"])
    assert Fraction(info["cost_exact"]) == Fraction(info["optimal_return_exact"]) - Fraction(info["chart_return_exact"])
    assert all(x >= 0 for x in losses) and abs(float(losses[4]) - 0.0052231549) < 1e-9  # pairs


def test_line_losses_in_integers_are_each_lines_exact_return_gap(short: dict[str, Any],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``line_losses`` sums every line's deals in one integer pass; each line's loss is the exact
    return of the best holds minus the chart's on the classes that line decides (the first line
    naming one of a class's holds), judged line by line with ``exact_return``; the Python-int
    path taken when int64 sums could overflow gives the same."""
    from pipeline.answers.vp_chart import game_chart
    from pipeline.videopoker.charts import plain
    from pipeline.videopoker.charts.chart import exact_return

    data, pt = short["data"], short["pt"]
    card = game_chart(short["ctx"], pt, 40, False).chart
    codes = hold_codes(data.hands, data.deal_cat, game_traits(pt))
    uniq, inv = np.unique(codes, return_inverse=True)
    of = {c: i for i, ln in enumerate(card.lines) for c in ln.codes}
    line = np.array([of.get(int(c), len(card.lines)) for c in uniq])[inv.reshape(codes.shape)].min(axis=1)
    want = [exact_return(data.ev[sel], data.weight[sel], data.best[sel], pt)
            - exact_return(data.ev[sel], data.weight[sel], card.holds[sel], pt) if sel.any() else Fraction(0)
            for sel in (line == r for r in range(len(card.lines)))]
    assert plain.line_losses(data, card) == want and sum(want) > 0
    monkeypatch.setattr(plain, "INT64_SAFE", 0)
    assert plain.line_losses(data, card) == want


def test_worded_card_against_the_exact_solver(short: dict[str, Any]) -> None:
    """The card played from its words' text: its return below the exact card's, from the
    solver's exact EVs of the classes it plays differently, is the answer's ``vs_chart``."""
    data, pt, info = short["data"], short["pt"], short["info"]
    words = [ln["players"] for ln in info["lines"]]
    worded = _play(data.hands, data.deal_cat, pt, words)
    from pipeline.answers.vp_chart import game_chart

    card = game_chart(short["ctx"], pt, SHORT, False).chart
    assert int((worded != card.holds).sum()) > 0
    gap = _exact_gap(short, card.holds, worded)
    p = info["players"]
    assert gap == Fraction(p["vs_chart_exact"])
    assert Fraction(info["chart_return_exact"]) - gap == Fraction(p["return_exact"])
    assert Fraction(p["cost_exact"]) == Fraction(info["optimal_return_exact"]) - Fraction(p["return_exact"])


@pytest.mark.parametrize("line", [6, 9, 11])
def test_each_rewording_costs_what_it_says(short: dict[str, Any], line: int) -> None:
    """One line worded, the others exact: the exact card's line is replaced by one that names
    every hold of its words' kinds (later lines keep the rest)."""
    from pipeline.answers.vp_chart import game_chart

    data, pt, info = short["data"], short["pt"], short["info"]
    card = game_chart(short["ctx"], pt, SHORT, False).chart
    codes = hold_codes(data.hands, data.deal_cat, game_traits(pt))
    uniq, inv = np.unique(codes, return_inverse=True)
    of = {c: i for i, ln in enumerate(card.lines) for c in ln.codes}
    words = info["lines"][line - 1]["players"]
    at = np.array([line - 1 if _names(words, plain_kind(int(c), game_traits(pt)))
                   and of.get(int(c), SHORT + 1) > line - 1 else of.get(int(c), SHORT + 1) for c in uniq])
    holds = np.argmin(at[inv.reshape(codes.shape)], axis=1).astype(np.uint8)
    assert _exact_gap(short, card.holds, holds) == Fraction(info["lines"][line - 1]["players_cost_exact"])


def test_cli_prints_the_answer(artifacts: Path, capsys: pytest.CaptureFixture[str], short: dict[str, Any]) -> None:
    code, out, err = run_main(capsys, "-a", str(artifacts), "vp", "chart", JACKS, "--max-lines", "12", "--json")
    assert code == 0, err
    got = json.loads(out)
    for key in ("chart_return_exact", "cost_exact", "players"):
        assert got[key] == short["info"][key]
    assert [(ln["players"], ln["players_cost_exact"], ln["loss_exact"]) for ln in got["lines"]] == \
        [(ln["players"], ln["players_cost_exact"], ln["loss_exact"]) for ln in short["info"]["lines"]]
    code, text, err = run_main(capsys, "-a", str(artifacts), "vp", "chart", JACKS, "--max-lines", "12")
    assert "in players' words" in text and "one high card" in text
    assert f"= {got['players']['return_exact']}" in text


def test_long_charts_keep_the_solvers_words(short: dict[str, Any]) -> None:
    """The 40-line chart: no players' words (a long chart's splits are what it is for)."""
    info = chart(short["ctx"], JACKS)
    assert info["players"] is None and "players" not in info["lines"][0]
    assert sum(Fraction(ln["loss_exact"]) for ln in info["lines"]) == Fraction(info["cost_exact"])


@pytest.mark.full_tier  # derives Deuces Wild's 12-line chart: ~15 s of CPU
def test_wild_games_words(artifacts: Path) -> None:
    """Deuces Wild's short card: wild cards said once for a line of made hands, pairs and trips
    by their kind; the worded card loses nothing there (its exact return is the chart's)."""
    info = chart(Context(artifacts), "deuces-wild-full-pay", max_lines=SHORT)
    words = [ln["players"] for ln in info["lines"]]
    assert "4 to a royal" in words and "3 to a royal" in words and words[-1] == "draw five"
    made = [w for w in words if w.endswith("(with a deuce)")]
    assert len(made) == 1 and "with a deuce," not in made[0] and made[0].count(", ") >= 2
    assert not any("penalty" in w or "high card" in w for w in words)
    assert info["players"]["return_exact"] == info["chart_return_exact"]  # every rewording costs 0
    assert sum(Fraction(ln["loss_exact"]) for ln in info["lines"]) == Fraction(info["cost_exact"])
