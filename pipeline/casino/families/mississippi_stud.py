"""Family ``mississippi-stud``: Mississippi Stud.

Ante; two cards to the player; three community cards shown one at a time. Before each (3rd,
4th and 5th street) the player folds, losing every bet so far, or bets one of ``bets`` times
the ante (default 1, 2, 3). Every bet is paid on the final five cards by table ``pays`` (a line
paying 0 pushes; a hand on no line loses every bet). House edge per unit of the ante.

Method: backward induction in integers over the deals (1,326 two-card hands x 50 x 49 x 48
community cards in order: 155,937,600). At 5th street the state is the four cards and the
amount wagered; the EV of betting b is (wagered + b) x E[pay | four cards], from the
video-poker subset counts (five-card hands holding each 4-card subset, by pay line). At 4th
street (three cards, wagered) each option sums the best 5th-street values of the 49 four-card
supersets; at 3rd street (two cards) each sums the 4th-street values of the 50 three-card
supersets. EVs at each point are the hand's whole net from there (wagered bets included).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.casino.draws import line_counts, subset_rows
from pipeline.casino.family import PlayerStrategy, optimal
from pipeline.casino.game import Game, TableSpec
from pipeline.casino.result import CasinoAnalysis, DecisionPoint, rows_from_counts
from pipeline.casino.settings import check_settings, multiples
from pipeline.casino.subsets import colex, colex_hands, supersets
from pipeline.errors import InputError

FAMILY = "mississippi-stud"
#: the card groups dealt at the first decision (the trainer deals these)
FIRST_DEAL = (2,)
BASE_BET = "ante"
STREETS = ("3rd street", "4th street", "5th street")
#: cards seen at each street, and the cards still to come after it (in order)
SEEN = (2, 3, 4)
TO_COME = (50 * 49 * 48, 49 * 48, 48)
FOLD = "fold"


def check_rules(raw: Mapping[str, Any]) -> dict[str, Any]:
    """``bets``: the bet sizes allowed on each street, in antes (default [1, 2, 3])."""
    rules = check_settings(raw, {"bets": ([1, 2, 3], multiples)})
    if any(b.denominator != 1 for b in rules["bets"]):
        raise ValueError("bets = ...: whole multiples of the ante only")
    return rules


def point_options(game: Game) -> dict[str, tuple[str, ...]]:
    """Each decision point's options, in tie-break order."""
    return {s: options(game) for s in STREETS}


def table_specs(rules: Mapping[str, Any]) -> dict[str, TableSpec]:
    """One table, ``pays``, on the final five cards; a hand on no line loses every bet."""
    return {"pays": TableSpec("five")}


def options(game: Game) -> tuple[str, ...]:
    """``1x``, ``2x``... for the game's bet sizes, then ``fold``: the tie-break order (an exact
    tie is played as the smaller bet, and a bet rather than a fold, as the published average
    bet of 3.59 antes counts it)."""
    return (*(f"{int(b)}x" for b in game.rules["bets"]), FOLD)




def _wagers(game: Game) -> list[np.ndarray]:
    """The amounts possibly wagered before each street (ante included), ascending."""
    bets = [int(b) for b in game.rules["bets"]]
    out = [np.array([1])]
    for _ in range(2):
        out.append(np.unique(out[-1][:, None] + np.array(bets)[None, :]))
    return out


def _solve(game: Game, strategy: PlayerStrategy | None) -> tuple[list[DecisionPoint], list[np.ndarray],
                                                                   np.ndarray]:
    """(points, chosen option per state of each point, counts of the 4-card sets by line)."""
    table = game.tables["pays"]
    scale = game.pay_scale()
    units = np.array([int(p * scale) for p in table.amounts()], np.int64)
    c = line_counts(table)
    c4 = c[4].astype(np.int64)
    m4 = c4 @ units                                   # E[pay | 4 cards] * 48 * scale
    bets = np.array([int(b) for b in game.rules["bets"]], np.int64)
    wagers = _wagers(game)
    choose = dict(strategy.choose) if strategy else {}
    opts = options(game)
    points: list[DecisionPoint] = []
    chosen: list[np.ndarray] = []
    value_next: np.ndarray | None = None              # best value per (state, wager) of the next street
    for street in (2, 1, 0):
        k = SEEN[street]
        cards = colex_hands(k)
        n, w = len(cards), wagers[street]
        ev = np.empty((n, len(w), len(opts)), np.int64)
        ev[:, :, len(bets)] = -w[None, :] * TO_COME[street] * scale
        if street < 2:
            assert value_next is not None
            # every next card: the best values of the (k + 1)-card supersets, summed once per
            # wager of the next street (each bet then picks its column)
            ahead = value_next[supersets(k)].sum(axis=1)
        for j, b in enumerate(bets):
            if street == 2:
                ev[:, :, j] = (w[None, :] + b) * m4[:, None]
            else:
                ev[:, :, j] = ahead[:, np.searchsorted(wagers[street + 1], w + b)]
        name = STREETS[street]
        point = DecisionPoint(name, opts, f"the {k} cards seen (ascending); context: wagered so far",
                              np.repeat(cards, len(w), axis=0), np.ones(n * len(w), np.int64),
                              ev.reshape(n * len(w), len(opts)), TO_COME[street] * scale,
                              {"wagered": np.tile(w, n).astype(np.int64)})
        pick = choose.get(name, optimal)(point).astype(np.int64)
        value_next = ev.reshape(n * len(w), len(opts))[np.arange(n * len(w)), pick].reshape(n, len(w))
        points.insert(0, point)
        chosen.insert(0, pick.reshape(n, len(w)))
    return points, chosen, c4


def analyze(game: Game, strategy: PlayerStrategy | None = None) -> CasinoAnalysis:
    """The exact analysis over all 155,937,600 deals (optimal play unless ``strategy``)."""
    points, chosen, c4 = _solve(game, strategy)
    bets = np.array([*(int(b) for b in game.rules["bets"]), 0], np.int64)  # option index -> bet
    fold_option = len(bets) - 1
    wagers = _wagers(game)
    top = int(wagers[2].max() + bets.max())
    flow = np.ones((1326, 1), np.int64)                # deals reaching each state, per wager
    rows: list[tuple[str, Fraction, Fraction]] = []
    counts: list[int] = []
    for street in range(3):
        k, w = SEEN[street], wagers[street]
        pick = chosen[street]
        fold = pick == fold_option
        for j, wager in enumerate(w):
            rows.append((f"fold on {STREETS[street]}, {wager} wagered", Fraction(-int(wager)), Fraction(int(wager))))
            counts.append(int(flow[fold[:, j], j].sum()) * TO_COME[street])
        if street == 2:
            break
        nxt = wagers[street + 1]
        nflow = np.zeros((len(colex_hands(k + 1)), len(nxt)), np.int64)
        target = np.searchsorted(nxt, w[None, :] + bets[pick]).clip(0, len(nxt) - 1)
        live = np.where(fold, 0, flow)
        ids = np.arange(len(nflow))
        for idx in subset_rows(k):  # each (k + 1)-card set from each of its k-card subsets
            for j in range(len(w)):
                nflow[ids, target[idx, j]] += live[idx, j]  # one entry per row: no repeats
        flow = nflow
    final = np.zeros((top + 1, c4.shape[1]), np.int64)
    pick = chosen[2]
    for j, wager in enumerate(wagers[2]):
        for o in range(fold_option):
            mine = pick[:, j] == o
            final[wager + bets[o]] += flow[mine, j] @ c4[mine]
    table = game.tables["pays"]
    for total in range(top, 0, -1):
        for li, (label, pay) in enumerate(zip(table.labels(), table.amounts())):
            name = "loses" if label == "otherwise" else label
            rows.append((f"{name}, {total} wagered", pay * total, Fraction(total)))
            counts.append(int(final[total, li]))
    return CasinoAnalysis(game.slug, game.name, FAMILY, 1326 * TO_COME[0], rows_from_counts(rows, counts),
                          tuple(points), strategy.name if strategy else "optimal", BASE_BET)


def strategies(game: Game) -> tuple[PlayerStrategy, ...]:
    """The published point-count strategy (for the usual bet sizes 1x-3x), scored exactly."""
    from pipeline.casino.families.mississippi_rules import published_rules

    if tuple(game.rules["bets"]) != (1, 2, 3):
        return ()
    return (published_rules(game),)


def decision_state(game: Game, cards: list[list[int]]) -> tuple[str, dict[str, int]]:
    """Two cards: 3rd street; three: 4th; four: 5th. The amount wagered so far is not in the
    cards: the EVs are given for ``wagered`` = 1 + the smallest bets (1x each street)."""
    n = sum(len(g) for g in cards)
    if n not in SEEN:
        raise InputError(f"{game.name}: a hand is 2 cards (3rd street), 3 (4th) or 4 (5th), "
                         f"written 'hole | community', got {n}")
    street = SEEN.index(n)
    smallest = int(min(game.rules["bets"]))
    return STREETS[street], {"wagered": 1 + smallest * street}


def grade_state(game: Game, point: str, cards: list[list[int]], context: Mapping[str, int],
                artifacts: Path | None = None) -> list[Fraction]:
    """Exact EVs (the hand's whole net, wagered bets included) of every option at this state."""
    points, _, _ = _solve(game, None)
    p = points[STREETS.index(point)]
    row_cards = int(colex(np.array([sorted(c for g in cards for c in g)]))[0])
    w = _wagers(game)[STREETS.index(point)]
    if context["wagered"] not in w:
        raise InputError(f"wagered {context['wagered']} cannot happen before {point}; possible: "
                         f"{', '.join(map(str, w))}")
    row = row_cards * len(w) + int(np.searchsorted(w, context["wagered"]))
    return [p.ev_exact(row, o) for o in range(len(p.options))]
