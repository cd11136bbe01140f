"""Hold'em range forms pasted from other tools (pipeline/equity/ranges/forms.py): each names the
combos it should (counted here from the cards), round-trips through ``pokertables range``
(text -> combos -> text -> the same combos and weights), and a bad form is one error line."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import pytest
from cli_runner import run_main

from pipeline.core.cards import RANKS, SUITS
from pipeline.equity.ranges.parse import parse_range
from pipeline.errors import InputError

HANDS = list(combinations(range(52), 2))


def _count(pred: Any) -> int:
    return sum(1 for a, b in HANDS if pred(a, b))


def _r(c: int) -> str:
    return RANKS[c >> 2]


def _s(c: int) -> str:
    return SUITS[c & 3]


FORMS = [
    ("A♠K♠", 1), ("K♥ Q♦", 1), ("[Ah Kd]", 1), ("[Ah Kd],[Qs Qc]", 2),
    ("AxKx", _count(lambda a, b: {_r(a), _r(b)} == {"A", "K"} and _s(a) == _s(b))),
    ("AxKy", _count(lambda a, b: {_r(a), _r(b)} == {"A", "K"} and _s(a) != _s(b))),
    ("AhKx", _count(lambda a, b: {RANKS[a >> 2] + _s(a), RANKS[b >> 2] + _s(b)} & {"Ah"}
                    and {_r(a), _r(b)} == {"A", "K"})),
    ("AxAy", 6), ("xx", 1326), ("Ax", _count(lambda a, b: "A" in (_r(a), _r(b)))),
    ("JJ+!AA", 18), ("22+!QQ+", 13 * 6 - 18), ("AK!AxKx", 12), ("xx!Ax", 1326 - 198),
    ("AxKx:0.5,JJ+!KK", 4 + 18),
]


@pytest.mark.parametrize("text, combos", FORMS, ids=[f[0] for f in FORMS])
def test_form_names_its_combos(text: str, combos: int) -> None:
    assert parse_range(text).combos == combos


@pytest.mark.parametrize("text, combos", FORMS, ids=[f[0] for f in FORMS])
def test_form_round_trips_through_the_range_command(
        artifacts: Any, capsys: pytest.CaptureFixture[str], text: str, combos: int) -> None:
    code, out, err = run_main(capsys, "-a", str(artifacts), "range", text, "--json")
    assert code == 0, err
    got = json.loads(out)
    back = ",".join(c["text"] for c in got["classes"])
    a, b = parse_range(text), parse_range(back)
    assert got["combos"] == combos
    assert a.hands.tolist() == b.hands.tolist() and a.weights.tolist() == b.weights.tolist()


def test_top_fraction_against_three_is_the_multiway_order(artifacts: Any, tables: Any) -> None:
    """``8%vs3`` takes whole classes by equity against three random hands: suited broadways
    climb above small pairs, which lead the heads-up order."""
    from pipeline.answers import Context
    from pipeline.answers.equity import range_answer

    one = range_answer(Context(artifacts), "8%")
    three = range_answer(Context(artifacts), "8%vs3")
    c1 = {c["class"] for c in one["classes"]}
    c3 = {c["class"] for c in three["classes"]}
    assert c1 != c3 and "KJs" in c3 and "KJs" not in c1
    assert abs(three["combos"] - 0.08 * 1326) <= 12 and three["percent"][0]["token"] == "8%vs3"


@pytest.mark.parametrize("text, shown", [("AxAx", "AxAx"), ("JJ+!", "JJ+!"), ("AA!AA", "AA!AA"),
                                         ("5%vs11", "5%vs11")])
def test_bad_forms_are_one_error_naming_the_form(artifacts: Any, capsys: pytest.CaptureFixture[str],
                                                text: str, shown: str) -> None:
    if "%" not in text:
        with pytest.raises(InputError):
            parse_range(text)
    code, out, err = run_main(capsys, "-a", str(artifacts), "range", text)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error:") and shown in lines[0]


#: ranges pasted with spaces between tokens, and the same ranges written with commas
SPACED = [
    ("TT+ AKs", "TT+,AKs",
     _count(lambda a, b: (_r(a) == _r(b) and _r(a) in "TJQKA")
            or ({_r(a), _r(b)} == {"A", "K"} and _s(a) == _s(b)))),
    ("A2s+ KJo+ 99-22", "A2s+,KJo+,99-22",
     _count(lambda a, b: ("A" in (_r(a), _r(b)) and _r(a) != _r(b) and _s(a) == _s(b))
            or ({_r(a), _r(b)} in ({"K", "J"}, {"K", "Q"}) and _s(a) != _s(b))
            or (_r(a) == _r(b) and _r(a) in "23456789"))),
    ("As Ks Qh Qd", "AsKs,QhQd", 2),
    ("KK : 0.5  AKs", "KK:0.5,AKs", 10),
    ("[50] AA KK [/50] QQ", "[50]AA,KK[/50],QQ", 18),
    ("JJ+ ! AA 22 - 44", "JJ+!AA,22-44", 18 + 18),
    ("tt+ aks, 99", "TT+,AKs,99", 40),
    ("any two", "random", 1326),
]


@pytest.mark.parametrize("spaced, commas, combos", SPACED, ids=[s[0] for s in SPACED])
def test_spaces_separate_tokens_as_commas_do(spaced: str, commas: str, combos: int) -> None:
    a, b = parse_range(spaced), parse_range(commas)
    assert a.combos == combos
    assert a.hands.tolist() == b.hands.tolist() and a.weights.tolist() == b.weights.tolist()


def test_spaced_range_through_the_cli(artifacts: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``range`` and ``equity`` read ``TT+ AKs`` as ``TT+,AKs``; a bad word is named as typed."""
    got = []
    for text in ("TT+ AKs", "TT+,AKs"):
        code, out, err = run_main(capsys, "-a", str(artifacts), "equity", "AhAd", "--vs", text, "--json")
        assert code == 0, err
        got.append(json.loads(out))
    # AhAd blocks five AA combos, AhKh and AdKd
    assert got[0]["players"][1]["combos"] == got[1]["players"][1]["combos"] == 34 - 5 - 2
    assert got[0]["win"] == got[1]["win"] and got[0]["tie"] == got[1]["tie"]
    code, out, err = run_main(capsys, "-a", str(artifacts), "range", "TT+ AKx")
    assert code == 2 and "'AKx'" in err and "TT+" not in err
