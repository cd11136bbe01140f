"""Three Card Poker (issue 40): the published figures reproduced exactly, the solver's counts
against an independent brute force over every deal, the catalog's names, pay edits and the
strategy a person can use (Q-6-4, found from the analysis)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from pipeline.casino.catalog import load_game, resolve_game
from pipeline.casino.families import three_card
from pipeline.casino.hands import three_card_table
from pipeline.casino.play import analyze, breakeven, grade, strategy_costs

#: Wizard of Odds, Three Card Poker (ante bonus 5-4-1, dealer qualifies with queen high)
PUBLISHED_EDGE = 0.0337
PUBLISHED_RISK = 0.0201
#: three-card hands by category, high card first (the published 16,440 / 3,744 / 1,096 / 720 / 52 / 48)
HAND_COUNTS = [16_440, 3_744, 1_096, 720, 52, 48]


@pytest.fixture(scope="module")
def game():
    return load_game("three card poker")


@pytest.fixture(scope="module")
def best(game):
    return analyze(game)


def test_hand_counts_of_the_three_card_ranking() -> None:
    assert three_card_table().category_counts().tolist() == HAND_COUNTS


def test_published_house_edge_and_element_of_risk(best) -> None:
    assert best.combinations == 22_100 * 18_424
    assert round(float(best.house_edge), 4) == PUBLISHED_EDGE
    assert round(float(best.element_of_risk), 4) == PUBLISHED_RISK
    assert best.house_edge == Fraction(686_689, 20_358_520)
    assert sum(r.combinations for r in best.rows) == best.combinations


def _brute_force_units(score: np.ndarray, q: int) -> tuple[int, int]:
    """(sum over every deal of the optimal net win, folded deals), by enumerating each player
    hand's 18,424 dealer hands with a plain comparison: no subset counting."""
    from pipeline.casino.subsets import colex_hands

    hands = colex_hands(3).astype(np.int64)
    bits = (np.int64(1) << hands).sum(axis=1)
    bonus = {5: 5, 4: 4, 3: 1}
    cat = three_card_table().ranking.category
    total, folded = 0, 0
    for i in range(len(hands)):
        d = score[(bits & bits[i]) == 0]
        p = int(score[i])
        nq = d < q
        win = int(((d < p) & ~nq).sum())
        lose = int(((d > p) & ~nq).sum())
        play = int(nq.sum()) + 2 * win - 2 * lose + len(d) * bonus.get(int(cat[p]), 0)
        if play > -len(d):
            total += play
        else:
            total -= len(d)
            folded += len(d)
    return total, folded


def test_solver_agrees_with_a_brute_force_over_every_deal(best) -> None:
    score = three_card_table().score.astype(np.int64)
    q = int(np.flatnonzero((three_card_table().ranking.category == 0)
                           & (three_card_table().ranking.ranks[:, 0] == 10))[0])
    total, folded = _brute_force_units(score, q)
    assert Fraction(total, best.combinations) == best.expected_return
    assert folded == next(r.combinations for r in best.rows if r.outcome == "fold")


def test_pair_plus_by_a_peer_evaluator() -> None:
    """pokerkit ranks the 22,100 hands' categories the same way (three-card poker has its own
    order: a straight beats a flush)."""
    counts = {}
    for cards in combinations(range(52), 3):
        ranks = sorted((c >> 2 for c in cards), reverse=True)
        flush = len({c & 3 for c in cards}) == 1
        straight = ranks[0] - ranks[2] == 2 and len(set(ranks)) == 3 or ranks == [12, 1, 0]
        kind = ("straight flush" if straight and flush else "three of a kind" if len(set(ranks)) == 1
                else "straight" if straight else "flush" if flush else "pair" if len(set(ranks)) == 2
                else "high card")
        counts[kind] = counts.get(kind, 0) + 1
    assert [counts[k] for k in ("high card", "pair", "flush", "straight", "three of a kind",
                                "straight flush")] == HAND_COUNTS


@pytest.mark.parametrize("name", ["3cp", "three card poker", "Three Card Poker", "three-card-poker"])
def test_found_by_common_name(name: str) -> None:
    assert resolve_game(name).stem == "three-card-poker"


def test_pay_edit_changes_the_edge_exactly(game, best) -> None:
    edited = load_game("3cp", ["straight=2"])
    assert edited.name == "Three Card Poker (edited: straight=2)" and edited.digest != game.digest
    a = analyze(edited)
    assert a.house_edge < best.house_edge
    assert float(a.house_edge) == pytest.approx(0.0011506239, abs=1e-9)


def test_q64_is_found_and_costs_nothing(game, best) -> None:
    costs = {s["name"]: s for s in strategy_costs(game, best)}
    assert costs["threshold"]["rules"][0] == "play Q-6-4 or better, fold worse"
    assert costs["threshold"]["cost_exact"] == "0/1"
    assert Fraction(costs["mimic the dealer"]["cost_exact"]) > 0


def test_grade_gives_the_exact_cost(game) -> None:
    g = grade(game, "Qs 6d 3c", "play")
    assert (g["best"], g["cost_exact"]) == ("fold", "1/392")
    g = grade(game, "Qs 6d 4c", "fold")
    assert (g["best"], g["optimal"]) == ("play", False) and Fraction(g["cost_exact"]) == Fraction(61, 9212)


def test_breakeven_of_the_straight_bonus(game) -> None:
    b = breakeven(game, "straight")
    x = Fraction(b["breakeven_exact"])
    table = game.tables["ante bonus"]
    lines = tuple(dataclasses.replace(ln, pays=x) if ln.hand == "straight" else ln for ln in table.lines)
    at_x = dataclasses.replace(game, tables={"ante bonus": dataclasses.replace(table, lines=lines)})
    assert three_card.analyze(at_x).house_edge == 0 and b["pays_now"] == 1 and 2 < x < 3
