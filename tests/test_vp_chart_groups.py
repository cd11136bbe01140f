"""``vp chart`` of a wild game, grouped by the wild cards dealt ("4 deuces", ... "no deuces"): the
groups hold exactly the deals with that many wild cards (counted here from binomials), the
grouped chart read group by group picks every deal's hold the chart picks (so the same exact
return), and the text wraps to the terminal width."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_main

from pipeline.answers import Context
from pipeline.videopoker.catalog.games import load_named
from pipeline.videopoker.charts.chart import derive_chart, exact_return
from pipeline.videopoker.charts.patterns import game_traits, hold_codes
from pipeline.videopoker.tools.chart_groups import wild_groups
from pipeline.videopoker.tools.strategy_io import strategy_data

#: wild cards in the deck, and the deck, of each game checked
WILD_GAMES = {"deuces-wild-full-pay": (4, 52), "double-joker-full-pay": (2, 54)}
HAND = 5
#: a terminal width the text must keep to
NARROW = 90


@pytest.fixture(scope="module")
def ctx(artifacts: Path) -> Context:
    return Context(artifacts)


@pytest.mark.parametrize("slug", sorted(WILD_GAMES))
def test_groups_read_as_the_chart(ctx: Context, slug: str) -> None:
    pt = load_named(slug)
    data, _ = strategy_data(pt, ctx.artifacts, ctx.deal_classes(pt.deck_size))
    chart = derive_chart(data)
    groups = wild_groups(chart, data)
    wilds, deck = WILD_GAMES[slug]
    assert [g.wilds for g in groups] == list(range(wilds, -1, -1))
    for g in groups:
        assert g.deals == comb(wilds, g.wilds) * comb(deck - wilds, HAND - g.wilds)
        assert g.deals == sum(ln.deals for ln in g.lines)
        nums = [ln.line for ln in g.lines]
        assert nums == sorted(nums)  # the chart's order
    for i, ln in enumerate(chart.lines):
        assert ln.deals == sum(x.deals for g in groups for x in g.lines if x.line == i + 1)
    # read the grouped chart: a deal with k wild cards takes the first line of group k holding
    # one of its patterns, and of that line the lowest hold mask (the chart's tie rule)
    codes = hold_codes(data.hands, data.deal_cat, game_traits(pt))
    hands = data.hands.astype(np.int64)
    k_of = (hands >= 52).sum(axis=1) if pt.wild == "joker" else ((hands >> 2) == 0).sum(axis=1)
    holds = np.full(len(hands), 255, np.int64)
    for g in groups:
        rank: dict[int, int] = {}
        for r, gl in enumerate(g.lines):
            for c in chart.lines[gl.line - 1].codes:
                rank.setdefault(int(c), r)
        sel = np.flatnonzero(k_of == g.wilds)
        holds[sel] = np.argmin(_ranks(codes[sel], rank), axis=1)
    assert (holds == chart.holds).all()
    assert exact_return(data.ev, data.weight, holds.astype(np.uint8), pt) == chart.return_exact
    if pt.wild == "deuces":
        # four deuces are always kept (every strategy card's first line)
        assert [ln.hold for ln in groups[0].lines] == ["four deuces"]


def _ranks(codes: np.ndarray, rank: dict[int, int]) -> np.ndarray:
    """``rank.get(code, len(rank) + 99)`` of every code (a lookup in the sorted keys)."""
    missing = len(rank) + 99
    if not rank:
        return np.full(codes.shape, missing, np.int64)
    keys = np.array(sorted(rank), np.int64)
    vals = np.array([rank[int(k)] for k in keys], np.int64)
    at = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
    return np.where(keys[at] == codes, vals[at], missing)


def test_no_groups_without_wild_cards(ctx: Context) -> None:
    from pipeline.answers.vp import chart

    info = chart(ctx, "jacks-or-better-9-6")
    assert info["groups"] == [] and len(info["lines"]) <= 40


def test_cli_text_by_deuces_within_the_width(artifacts: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(NARROW))
    code, out, err = run_main(capsys, "-a", str(artifacts), "vp", "chart", "deuces wild full pay")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Deuces Wild (full pay): strategy chart (") and "by deuces dealt" in lines[0]
    titles = [ln for ln in lines if ln.endswith("deals):")]
    assert titles == [f"{t} ({comb(4, k) * comb(48, 5 - k):,} deals):" for t, k in
                      (("4 deuces", 4), ("3 deuces", 3), ("2 deuces", 2), ("1 deuce", 1), ("no deuces", 0))]
    assert max(len(ln) for ln in lines[:-1]) <= NARROW  # the last line names a file path
    code, out, err = run_main(capsys, "-a", str(artifacts), "vp", "chart", "deuces-wild-full-pay", "--json")
    assert code == 0, err
    info = json.loads(out)
    assert [g["title"] for g in info["groups"]] == ["4 deuces", "3 deuces", "2 deuces", "1 deuce", "no deuces"]
    assert sum(g["deals"] for g in info["groups"]) == comb(52, 5)
