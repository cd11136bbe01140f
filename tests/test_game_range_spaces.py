"""A range with spaces means the same as with commas in every game (issue 37): Omaha's items and
short deck's hold'em tokens, counted against a brute force over every hand of the game's deck
(here, not by the parser), and the same through the CLI's ``range --game``."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from cli_runner import run_main

from pipeline.core.cards import RANKS, SUITS
from pipeline.equity.games.equity import game_range
from pipeline.equity.games.ranges import omaha_range, split_items
from pipeline.equity.games.spec import GAMES

#: every Omaha (4-card) hand as rank / suit arrays
_O4 = np.array(list(combinations(range(52), 4)), np.int64)
_RANK, _SUIT = _O4 >> 2, _O4 & 3


def _at_least(rank: str, n: int) -> np.ndarray:
    return (_RANK == RANKS.index(rank)).sum(axis=1) >= n


def _double_suited() -> np.ndarray:
    per_suit = np.stack([(_SUIT == s).sum(axis=1) for s in range(4)], axis=1)
    return (per_suit >= 2).sum(axis=1) >= 2


def _holds(card: str) -> np.ndarray:
    c = RANKS.index(card[0]) * 4 + SUITS.index(card[1])
    return (_O4 == c).any(axis=1)


#: (spaced, comma form, the hands by brute force)
OMAHA = [
    ("AAxx KKxx", "AAxx,KKxx", lambda: _at_least("A", 2) | _at_least("K", 2)),
    ("AAxx KKxx ds", "AAxx,KKxxds", lambda: _at_least("A", 2) | (_at_least("K", 2) & _double_suited())),
    ("AAxx ! AAAx  QQxx", "AAxx!AAAx,QQxx",
     lambda: (_at_least("A", 2) & ~_at_least("A", 3)) | _at_least("Q", 2)),
    ("As Ad Ks Kd, JJxx", "AsAdKsKd,JJxx",
     lambda: (_holds("As") & _holds("Ad") & _holds("Ks") & _holds("Kd")) | _at_least("J", 2)),
    ("AKQJ   T9 8 7", "AKQJ,T9,8,7",
     lambda: (_at_least("A", 1) & _at_least("K", 1) & _at_least("Q", 1) & _at_least("J", 1))
     | (_at_least("T", 1) & _at_least("9", 1)) | _at_least("8", 1) | _at_least("7", 1)),
]


@pytest.mark.parametrize("spaced, commas, brute", OMAHA, ids=[o[0] for o in OMAHA])
def test_omaha_spaces_split_items_like_commas(spaced: str, commas: str, brute: Any) -> None:
    want = int(brute().sum())
    a, b = omaha_range(spaced, 4, "omaha"), omaha_range(commas, 4, "omaha")
    assert a.combos == b.combos == want
    rows_a, w_a = game_range(spaced, GAMES["omaha"], "the hero")
    rows_b, w_b = game_range(commas, GAMES["omaha"], "the hero")
    assert rows_a.tolist() == rows_b.tolist() and w_a.tolist() == w_b.tolist()


def test_weights_with_spaces() -> None:
    """``AAxx : 0.5 KKxx`` is ``AAxx:0.5,KKxx``: the weight stays on its item."""
    a = omaha_range("AAxx : 0.5 KKxx", 4, "omaha")
    assert a.weighted == omaha_range("AAxx:0.5,KKxx", 4, "omaha").weighted
    both = int((_at_least("A", 2) & _at_least("K", 2)).sum())
    aces, kings = int(_at_least("A", 2).sum()), int(_at_least("K", 2).sum())
    assert a.weighted == pytest.approx(0.5 * (aces - both) + kings)  # KK's weight wins on AAKK


def test_split_items_joins_only_what_cannot_stand_alone() -> None:
    assert split_items("AAxx KKxx ds, QQ : 0.5") == ["AAxx", "KKxxds", "QQ:0.5"]
    assert split_items("As Ad Ks Kd") == ["AsAdKsKd"]
    assert split_items("AAxx ! AAAx KKxx") == ["AAxx!AAAx", "KKxx"]


def test_short_deck_spaces_like_commas() -> None:
    """Short deck reads hold'em tokens: ``TT+ AKs`` against a count over the 36-card deck."""
    deck = [c for c in range(52) if c >> 2 >= RANKS.index("6")]
    want = 0
    for a, b in combinations(deck, 2):
        ra, rb = sorted((a >> 2, b >> 2), reverse=True)
        if ra == rb and ra >= RANKS.index("T") or (ra, rb) == (12, 11) and a & 3 == b & 3:
            want += 1
    rules = GAMES["short-deck"]
    rows_a, _ = game_range("TT+ AKs", rules, "the hero")
    rows_b, _ = game_range("TT+,AKs", rules, "the hero")
    assert len(rows_a) == len(rows_b) == want == 5 * 6 + 4
    assert rows_a.tolist() == rows_b.tolist()


@pytest.mark.parametrize("game, hole", [("omaha", 4), ("omaha5", 5)])
def test_cli_range_with_spaces(artifacts: Any, capsys: pytest.CaptureFixture[str], game: str,
                               hole: int) -> None:
    """``pokertables range "AAxx KKxx" --game omaha`` counts what the comma form counts."""
    out = []
    for text in ("AAxx KKxx", "AAxx,KKxx"):
        code, o, err = run_main(capsys, "-a", str(artifacts), "range", text, "--game", game, "--json")
        assert code == 0, err
        out.append(json.loads(o)["combos"])
    assert out[0] == out[1] == omaha_range("AAxx,KKxx", hole, game).combos


def test_equity_with_spaces_is_the_comma_question(artifacts: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The equity command asks the same question: the same seats' numbers, deal for deal."""
    got = []
    for hero, vs in (("AAxx KKxx", "QQxx JJxx ds"), ("AAxx,KKxx", "QQxx,JJxxds")):
        code, o, err = run_main(capsys, "-a", str(artifacts), "equity", hero, "--vs", vs, "--game", "omaha",
                                "-b", "Ks 9d 4c", "--samples", "20000", "--seed", "1", "--json")
        assert code == 0, err
        got.append([(p["win"], p["tie"], p["equity"]) for p in json.loads(o)["players"]])
    assert got[0] == got[1]
