"""The chart line that decides a deal (pipeline/answers/vp_lines.py, vp_chart.py), against the chart's own
per-line counts: every deal class looked up, weighted, gives each line exactly the deals ``vp
chart`` says it decides, for the built 9/6 game and for an edited one (derived now)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.answers import Context
from pipeline.answers.vp import chart, load_game
from pipeline.answers.vp_chart import chart_index, chart_line
from pipeline.core.cards import parse_cards

JACKS = "jacks-or-better-9-6"


@pytest.mark.parametrize("pay", [[], ["full house=8"]])
def test_lines_decide_the_deals_the_chart_counts(artifacts: Path, pay: list[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """... and the chart is made once for both: ``vp chart`` and the trainer's index share it
    (an edited game's chart is derived once, not once per caller); the index alone judges no
    line's loss (the trainer's verdict waits for none), ``vp chart`` judges them once."""
    import pipeline.videopoker.catalog.paytable_file as pf
    import pipeline.videopoker.charts.chart as chart_mod
    import pipeline.videopoker.charts.plain as plain
    import pipeline.videopoker.solver.analysis as analysis
    from pipeline.videopoker.catalog.paytable_file import current_artifact
    from pipeline.videopoker.charts.patterns import hold_codes

    made: list[str] = []
    for mod, name, what in [(chart_mod, "derive_chart", "derive"), (pf, "read_strategy_data", "data"),
                            (analysis, "analyze", "data"), (plain, "line_losses", "losses")]:
        fn = getattr(mod, name)
        monkeypatch.setattr(mod, name, lambda *a, _f=fn, _w=what, **k: made.append(_w) or _f(*a, **k))
    ctx = Context(artifacts)
    pt = load_game(JACKS, pay)
    ci = chart_index(ctx, pt)
    # derived when no current artifact holds the exported chart (an edit; frozen artifacts
    # older than this code), else read
    assert made == (["data", "derive"] if pay or current_artifact(pt, artifacts) is None else ["data"])
    made.clear()
    want = chart(ctx, JACKS, pay=pay)
    assert made == ["data", "losses"]
    made.clear()
    assert chart_index(ctx, pt) is ci and chart(ctx, JACKS, pay=pay)["lines"] == want["lines"]
    assert made == []
    assert list(ci.lines) == [ln["hold"] for ln in want["lines"]]
    codes = hold_codes(ci.hands, ci.deal_cat, ci.traits)
    picked = codes[np.arange(len(ci.holds)), ci.holds.astype(np.int64)]
    line = np.array([ci.line_of[int(c)] for c in picked])
    weight = ctx.deal_classes(pt.deck_size).weight
    order = np.argsort(ctx.deal_classes(pt.deck_size).index5)
    assert np.array_equal(ctx.deal_classes(pt.deck_size).index5[order], ci.index5)
    deals = np.bincount(line, weights=weight[order], minlength=len(ci.lines))
    assert deals.astype(np.int64).tolist() == [ln["deals"] for ln in want["lines"]]


def test_a_deal_and_its_suit_relabelling_share_a_line(artifacts: Path) -> None:
    ctx = Context(artifacts)
    pt = load_game(JACKS)
    a = chart_line(ctx, pt, parse_cards("Ah Kh Qh Jh 2c"))
    b = chart_line(ctx, pt, parse_cards("As Ks Qs Js 2d"))
    assert a == b and a["hold"].startswith("4 to a royal")
    assert chart_line(ctx, pt, parse_cards("As Ad 7c 4h 2s"))["hold"] == "high pair"
