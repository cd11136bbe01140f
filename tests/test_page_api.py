"""The page's own endpoints (pipeline/serve/page_api.py), in process (no browser): the range grid
the server counts for the page, the hits table with combined categories, the trainer's draw and
the session tally, each against a brute force over the cards; and the page's script stays thin
(plain ES modules under 400 lines, none parsing, counting or writing poker text)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from serve_harness import Client, running_server

from pipeline.core.cards import parse_cards
from pipeline.equity.ranges.parse import parse_range

STATIC = Path(__file__).resolve().parent.parent / "pipeline" / "serve" / "static"
#: no script of the page may be longer (issue 41: split by view)
MAX_SCRIPT_LINES = 400
#: what a second engine in JavaScript would be called: card parsing, the class grid, combo
#: counting, the range writer, exact fractions
ENGINE_WORDS = ("parseCards", "classOf", "comboClass", "classCombos", "rangeText", "CLASS_COMBOS",
                "BigInt", "class Frac", "gcd(")


@pytest.fixture(scope="module")
def client(artifacts: Path) -> Iterator[Client]:
    """The real server on a free loopback port."""
    with running_server(artifacts) as c:
        yield c


def post(client: Client, path: str, body: dict[str, Any]) -> Any:
    r = client.post(f"/api/{path}", body)
    assert r.status == 200, r.raw
    return r.body


def test_scripts_are_small_modules_without_an_engine() -> None:
    scripts = sorted((STATIC / "js").glob("*.js"))
    assert len(scripts) >= 5 and not (STATIC / "app.js").exists()
    for js in scripts:
        text = js.read_text()
        assert len(text.splitlines()) <= MAX_SCRIPT_LINES, js.name
        for word in ENGINE_WORDS:
            assert word not in text, (js.name, word)
    assert '<script type="module" src="js/main.js">' in (STATIC / "index.html").read_text()


def test_range_format_counts_every_cell_as_the_cards_do(client: Client) -> None:
    v = post(client, "range/format", {"range": "KK,AQs+", "board": "Kh 7c 2d", "dead": "As",
                                      "paint": [{"hand": "AKs", "weight": 0.5}, {"hand": "QhQd", "weight": 1}],
                                      "cell": "KK"})
    assert v["text"] == "KK,AKs:0.5,AQs,QhQd"
    removed = set(parse_cards("Kh 7c 2d As"))
    r = parse_range(v["text"])
    weights = dict(zip(r.hands.tolist(), r.weights.tolist()))
    from pipeline.equity.hands.starting_hands import HOLE_CARDS

    live = {h: w for h, w in weights.items() if not set(HOLE_CARDS[h].tolist()) & removed}
    assert v["combos"] == len(weights) and v["live"] == len(live)
    assert Fraction(str(v["live_weighted"])) == sum(Fraction(str(w)) for w in live.values())
    hands_left = sum(1 for a, b in combinations(range(52), 2) if not {a, b} & removed)
    assert v["live_hands"] == hands_left == 1128  # C(48, 2)
    assert v["live_percent"] == pytest.approx(100 * float(sum(live.values())) / hands_left, abs=1e-12)
    kk = next(c for c in v["cells"] if c["class"] == "KK")
    assert (kk["combos"], kk["live"], kk["blocked"], kk["fill"]) == (6, 3, 3, 1.0)
    assert [c["hand"] for c in v["cell"]["combos"] if c["live"]] == ["Ks Kd", "Ks Kc", "Kd Kc"]
    qq = next(c for c in v["cells"] if c["class"] == "QQ")
    assert qq["mixed"] and qq["fill"] == pytest.approx(1 / 6)
    assert v["board"] == ["Kh", "7c", "2d"] and v["dead"] == ["As"]


def test_range_format_of_nothing_is_the_empty_grid(client: Client) -> None:
    v = post(client, "range/format", {"range": ""})
    assert v["text"] == "" and v["combos"] == 0 and len(v["cells"]) == 169
    assert [c["class"] for c in v["cells"][:3]] == ["AA", "AKs", "AQs"]
    # the picker's deck comes from the server too: four suits of 13, aces first, every card once
    assert [len(row) for row in v["deck"]] == [13] * 4 and v["deck"][0][:2] == ["As", "Ks"]
    assert sorted(parse_cards(" ".join(c for row in v["deck"] for c in row))) == list(range(52))
    erased = post(client, "range/format", {"range": "AA,KK", "paint": [{"hand": "AA", "weight": 0}]})
    assert erased["text"] == "KK"


def test_combined_draws_and_cumulative_against_the_category_lists(client: Client) -> None:
    v = post(client, "hits/view", {"range": "QQ+,AKs,AhJh,T9s,98s,87s,JTs,QJs,76s", "board": "Kh 9h 8c"})
    by = {f"{r['kind']}:{r['category']}": r for r in v["made"] + v["draws"] + v["combined"]}
    sets = {k: set(r["combo_list"]) for k, r in by.items() if r["kind"] != "combined"}
    fd = sets["draw:flush draw, nut"] | sets["draw:flush draw, non-nut"]
    pair = set().union(*(sets[f"made:{c}"] for c in ("overpair", "top pair, top kicker", "top pair, good kicker",
                                                       "top pair, weak kicker", "pocket pair below top pair",
                                                       "middle pair", "weak pair")))
    want = {"flush draw + gutshot": fd & sets["draw:gutshot"],
            "flush draw + open-ended": fd & sets["draw:open-ended straight draw"],
            "flush draw + pair": fd & pair,
            "pair + any draw": pair & (fd | sets["draw:gutshot"] | sets["draw:open-ended straight draw"])}
    for name, combos in want.items():
        assert set(by[f"combined:{name}"]["combo_list"]) == combos, name
        assert by[f"combined:{name}"]["combos"] == len(combos)
    assert by["combined:flush draw + open-ended"]["combos"] > 0 and by["combined:flush draw + pair"]["combos"] > 0
    running = 0.0
    for r in v["made"]:
        running += r["percent"]
        assert r["cumulative"] == pytest.approx(running, abs=1e-9)
    assert v["made"][-1]["cumulative"] == pytest.approx(100)
    assert v["by_class"]["AJs"]["combo_list"] == ["Ah Jh"]
    assert "draw:flush draw, nut" in v["by_class"]["AJs"]["rows"]


def test_equity_per_category_adds_up_to_the_range(client: Client) -> None:
    v = post(client, "hits/view", {"range": "QQ+,AKs,T9s", "board": "Ks 9d 4c", "vs": "random"})
    made = [r for r in v["made"] if r["combos"]]
    total = sum(Fraction(r["equity_exact"]) * Fraction(str(r["combos"])) for r in made)
    # unit weights and no card shared with the board: each combo meets the same opponents
    assert float(total / sum(Fraction(str(r["combos"])) for r in made)) == pytest.approx(v["equity"], abs=1e-12)
    eq = post(client, "equity", {"hero": "KK", "vs": ["random"], "board": "Ks 9d 4c"})
    assert next(r for r in made if r["category"] == "set")["equity"] == pytest.approx(eq["equity"], abs=1e-12)


def _brute_ev(deal: list[int], held: list[int], pays: dict[str, Fraction]) -> Fraction:
    """Mean pay per coin over every draw (the held cards kept), by classifying each final hand."""
    from pipeline.videopoker.catalog.games import load_named
    from pipeline.videopoker.solver.classify import classify_deals

    pt = load_named("jacks-or-better-9-6")
    rest = [c for c in range(52) if c not in deal]
    finals = [sorted(held + list(new)) for new in combinations(rest, 5 - len(held))]
    cats = classify_deals(pt, np.array(finals, np.uint8))
    lines = [ln.label for ln in pt.lines]
    total = sum((pays[lines[c]] for c in cats.tolist() if c < len(lines)), Fraction(0))
    return total / len(finals)


def test_draw_plays_the_hold_out_on_every_line(client: Client) -> None:
    d = post(client, "vp/draw", {"seed": 42, "hand": 2, "hold": "1,2", "lines": 10, "coins": 3})
    deal = post(client, "vp/deal", {"seed": 42, "count": 2})["deals"][1]
    assert d["deal"] == deal and d["held"] == [1, 2] and len(d["lines"]) == 10
    cards = deal.split()
    for ln in d["lines"]:
        final = ln["final"].split()
        assert final[:2] == cards[:2] and len(set(final)) == 5 and not set(final[2:]) & set(cards)
        assert ln["won"] == 3 * ln["pays"]
    assert d["won"] == sum(ln["won"] for ln in d["lines"]) and d["bet"] == 30
    assert len({ln["final"] for ln in d["lines"]}) > 1  # independent draws
    single = post(client, "vp/draw", {"seed": 42, "hand": 2, "hold": f"{cards[0]} {cards[1]}"})
    assert single["lines"][0] == {**d["lines"][0], "won": d["lines"][0]["won"] // 3 * 5}
    pt = post(client, "vp/analyze", {"paytable": "jacks-or-better-9-6"})
    pays = {ln["hand"]: Fraction(str(ln["pays"])) for ln in pt["lines"]}
    ev = _brute_ev(parse_cards(deal), parse_cards(" ".join(cards[:2])), pays)
    assert Fraction(d["grade"]["ev_exact"]) == ev
    assert Fraction(d["expected_exact"]) == ev * 3 * 10


def test_tally_sums_exactly(client: Client) -> None:
    hands = [{"ev_exact": "1/2", "best_ev_exact": "3/4", "coins": 5, "lines": 1, "won": 5},
             {"ev_exact": "2/3", "best_ev_exact": "2/3", "coins": 1, "lines": 10, "won": 0}]
    t = post(client, "vp/tally", {"hands": hands})
    bet = 5 + 10
    assert t["mistakes"] == 1 and t["bet"] == bet and t["won"] == 5
    assert Fraction(t["cost_exact"]) == Fraction(1, 4) * 5
    assert Fraction(t["return_achieved_exact"]) == (Fraction(1, 2) * 5 + Fraction(2, 3) * 10) / bet
    assert t["cost_percent"] == pytest.approx(100 * 1.25 / bet)
    bad = client.post("/api/vp/tally", {"hands": [{**hands[0], "ev_exact": "x"}]})
    assert bad.status == 400 and "hands[0]" in bad.body["error"]


@pytest.mark.parametrize("body, needle", [
    ({"range": "AA:KK"}, "AA:KK"), ({"range": "AA", "board": "Kh Kh"}, "Kh"),
    ({"range": "AA", "paint": [{"hand": "XX9", "weight": 1}]}, "XX9"),
    ({"range": "AA", "cell": "AKx"}, "AKx"),
])
def test_range_format_errors_name_the_value(client: Client, body: dict[str, Any], needle: str) -> None:
    r = client.post("/api/range/format", body)
    assert r.status == 400 and needle in r.body["error"]
    assert re.fullmatch(r"[^\n]{5,300}", r.body["error"])
