"""The ``ace-high-only`` rule set (the classic judge problem's ranking, ZOJ 1111 / UVa 10315):
A-2-3-4-5 is not a straight but ace high; checked against a brute-force reference."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_here
from refpoker import key5

from pipeline.core.cards import parse_cards
from pipeline.query.tables import Tables

ROOT = Path(__file__).resolve().parent.parent


def key_ace_high(cards: list[int]) -> tuple[int, ...]:
    """Brute-force value under ace-high-only: the reference key, except A-2-3-4-5 is no straight."""
    ranks = sorted({c >> 2 for c in cards}, reverse=True)
    if ranks == [12, 3, 2, 1, 0]:
        return (5, *ranks) if len({c & 3 for c in cards}) == 1 else (0, *ranks)
    return key5(cards)


@pytest.fixture(scope="module")
def aho(artifacts: Path) -> Tables:
    return Tables(artifacts, rules="ace-high-only")


def test_wheel_is_ace_high(aho: Tables) -> None:
    wheel = aho.score5("Ah 2c 3d 4s 5h")
    assert aho.category_name(wheel) == "high card"
    assert wheel < aho.score5("6c 2d 3h 4s 5c")                 # the lowest straight
    assert wheel > aho.score5("Kh Qc Jd 9s 8h")                 # ace high beats king high
    assert wheel < aho.score5("Ac Kd 3h 4s 5c")                 # A-K... beats A-5...
    assert aho.category_name(aho.score5("Ah 2h 3h 4h 5h")) == "flush"


def test_agrees_with_brute_force_on_random_pairs(aho: Tables) -> None:
    rng = np.random.default_rng(1111)
    hands = [rng.choice(52, 5, replace=False).tolist() for _ in range(4000)]
    # make sure wheels, suited and not, are among them
    hands += [parse_cards("Ah 2c 3d 4s 5h"), parse_cards("As 2s 3s 4s 5s"), parse_cards("6c 2d 3h 4s 5c"),
              parse_cards("Ad Kc 5h 4s 3c"), parse_cards("2h 3h 4h 5h 6h")]
    scores = aho.score5(np.array(hands))
    keys = [key_ace_high(h) for h in hands]
    order = sorted(range(len(hands)), key=lambda i: keys[i])
    for a, b in zip(order, order[1:]):
        if keys[a] == keys[b]:
            assert scores[a] == scores[b]
        else:
            assert scores[a] < scores[b], (hands[a], hands[b])


def test_showdown_and_eval_with_ace_high_only(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = ("Ah 2c 3d 4s 5h Kh Kc 7d 8s 9c\n"    # wheel vs a pair of kings
             "Ah 2c 3d 4s 5h As Kd 9h 7c 3s\n")   # wheel vs A-K-9-7-3
    std = run_here(capsys, "-a", str(artifacts), "showdown", stdin=lines)
    assert std.stdout.splitlines() == ["Black wins.", "Black wins."]   # hold'em: the wheel is a straight
    aho = run_here(capsys, "-a", str(artifacts), "showdown", "--rules", "ace-high-only", stdin=lines)
    assert aho.returncode == 0, aho.stderr
    assert aho.stdout.splitlines() == ["White wins.", "White wins."]
    r = run_here(capsys, "-a", str(artifacts), "eval", "Ah 2c 3d 4s 5h", "--rules", "ace-high-only", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["category_name"] == "high card"
