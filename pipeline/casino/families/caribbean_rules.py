"""Caribbean Stud strategies a person can use, as code, each scored exactly by the solver: the
ace-king chart by the dealer's up card (derived from optimal play: per up-card rank, and
whether it pairs one of the player's cards, the weakest ace-king hand worth a raise), the
published three rules of thumb, and simpler rules (Wizard of Odds' comparison list)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pipeline.casino.family import PlayerStrategy
from pipeline.casino.game import Game
from pipeline.casino.hands import five_card_ranking
from pipeline.casino.result import DecisionPoint
from pipeline.core.cards import RANKS

POINT = "raise or fold"
JACK, QUEEN, KING, ACE = 9, 10, 11, 12


def _features(p: DecisionPoint) -> dict[str, np.ndarray]:
    rk = five_card_ranking()
    from pipeline.casino.hands import five_card_scores
    from pipeline.casino.subsets import colex

    score = five_card_scores()[colex(p.cards)].astype(np.int64)
    ranks = rk.ranks[score].astype(np.int64)            # significance order
    cat = rk.category[score]
    up = p.context["up_card"] >> 2
    ak = (cat == 0) & (ranks[:, 0] == ACE) & (ranks[:, 1] == KING)
    match = (ranks == up[:, None]).any(axis=1)
    return {"score": score, "ranks": ranks, "pair_up": cat > 0, "ak": ak, "up": up, "match": match}


def _rule(fn: Callable[[dict[str, np.ndarray]], np.ndarray]) -> Callable[[DecisionPoint], np.ndarray]:
    def choose(p: DecisionPoint) -> np.ndarray:
        f = _features(p)
        return (f["pair_up"] | (f["ak"] & fn(f))).astype(np.uint8)
    return choose


def _thumb(f: dict[str, np.ndarray]) -> np.ndarray:
    r, up = f["ranks"], f["up"]
    has = lambda rank: (r == rank).any(axis=1)  # noqa: E731
    one = (up <= QUEEN) & f["match"]
    two = (up >= KING) & (has(QUEEN) | has(JACK))
    three = ~f["match"] & has(QUEEN) & (up < r[:, 3])
    return one | two | three


def _chart(point: DecisionPoint) -> tuple[np.ndarray, list[str]]:
    """Per (up-card rank, matches a player's card) the score threshold among ace-king hands that
    maximises the exact return, and the chart's lines."""
    f = _features(point)
    gain = (point.ev_num[:, 1] - point.ev_num[:, 0]) * point.weight
    thresholds = np.full((13, 2), 1 << 20, np.int64)
    lines = []
    for u in range(13):
        parts = []
        for m in (0, 1):
            sel = f["ak"] & (f["up"] == u) & (f["match"] == bool(m))
            if not sel.any():
                continue
            sc = f["score"][sel]
            order = np.unique(sc)
            per = np.zeros(len(order), np.int64)
            np.add.at(per, np.searchsorted(order, sc), gain[sel])
            suffix = np.concatenate([np.cumsum(per[::-1])[::-1], [0]])
            best = int(np.argmax(suffix))
            thresholds[u, m] = order[best] if best < len(order) else 1 << 20
            rk = five_card_ranking().ranks[order[best]] if best < len(order) else None
            text = "no ace-king" if rk is None else "-".join(RANKS[x] for x in rk) + " or better"
            parts.append(f"{'when it pairs one of your cards' if m else 'otherwise'}: {text}")
        lines.append(f"dealer shows {RANKS[u]}: raise ace-king " + "; ".join(parts))
    return thresholds, lines


def chart_strategy(point: DecisionPoint) -> PlayerStrategy:
    """Raise any pair or better; fold below ace-king; ace-king by the chart derived from
    ``point`` (the game's optimal raise-or-fold point)."""
    thresholds, lines = _chart(point)

    def choose(p: DecisionPoint) -> np.ndarray:
        f = _features(p)
        t = thresholds[f["up"], f["match"].astype(np.int64)]
        return (f["pair_up"] | (f["ak"] & (f["score"] >= t))).astype(np.uint8)

    rules = ("raise any pair or better; fold less than ace-king; ace-king by the dealer's up card "
             "(ranks: your five cards high to low):", *lines)
    return PlayerStrategy("ace-king chart", rules, {POINT: choose})


def _threshold(hand: str) -> Callable[[DecisionPoint], np.ndarray]:
    """Raise every hand at least as strong as ``hand`` (five ranks, high card)."""
    from pipeline.casino.hands import five_card_scores
    from pipeline.casino.subsets import colex
    from pipeline.core.cards import parse_cards

    t = int(five_card_scores()[colex(np.array([sorted(parse_cards(hand))]))][0])

    def choose(p: DecisionPoint) -> np.ndarray:
        return (_features(p)["score"] >= t).astype(np.uint8)
    return choose


def all_strategies(game: Game, point: DecisionPoint) -> tuple[PlayerStrategy, ...]:
    """The chart derived from ``point`` first, then the published comparison list."""
    return (
        chart_strategy(point),
        PlayerStrategy("three rules of thumb", (
            "raise any pair or better; fold less than ace-king; raise ace-king when:",
            "the dealer's card is a 2 to a queen and pairs one of yours;",
            "the dealer's card is an ace or king and you hold a queen or jack;",
            "the dealer's card pairs none of yours, you hold a queen, and it is below your fourth "
            "highest card"), {POINT: _rule(_thumb)}),
        PlayerStrategy("A-K-J-8-3 or better", ("raise A-K-J-8-3 or better, fold the rest",),
                       {POINT: _threshold("As Kd Jc 8h 3s")}),
        PlayerStrategy("matching rank", ("raise any pair or better, and ace-king when one of your cards "
                                         "pairs the dealer's",), {POINT: _rule(lambda f: f["match"])}),
        PlayerStrategy("pair or better", ("raise any pair or better, fold the rest",),
                       {POINT: _rule(lambda f: np.zeros(len(f["up"]), bool))}),
        PlayerStrategy("ace-king or better", ("raise ace-king or better, fold the rest",),
                       {POINT: _rule(lambda f: np.ones(len(f["up"]), bool))}),
        PlayerStrategy("raise everything", ("never fold",),
                       {POINT: lambda p: np.ones(len(p.weight), np.uint8)}),
    )
