"""Family ``ultimate-texas-holdem``: Ultimate Texas Hold'em's ante, blind and Play bet.

Rules (``[rules]``): ``dealer_qualifies`` (default ``"pair"``: below it the ante pushes),
``preflop_bets`` (Play bet sizes before the flop, default ``[3, 4]``), ``flop_bet`` (2),
``river_bet`` (1), all whole multiples of the ante. Table ``blind`` (five-card hands, the best
five of the player's seven): paid when the player wins; a winning hand on no line pushes the
Blind; a losing hand loses it; a tie pushes everything.

The player sees two cards and checks or bets; after a check sees the flop and checks or bets;
after two checks sees the river and plays or folds (losing ante and blind). Solved exactly
over every deal by :mod:`pipeline.casino.uth` (one pass over the 1,755 flop classes, all
holes at once per board; docs/casino.md has the method). A solve takes seconds to minutes, so
the game is built on request (``[casino] on_request``) and its passes run on the build's
executor (Dask with ``--executor dask``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.casino.family import PlayerStrategy
from pipeline.casino.game import Game, TableSpec
from pipeline.casino.result import CasinoAnalysis, DecisionPoint, ReturnRow
from pipeline.casino.settings import check_settings, qualifier
from pipeline.casino.uth.analysis import CHECK, FLOP, FOLD, PREFLOP, RIVER, Analysis, analyse
from pipeline.casino.uth.analysis import ReturnRow as UthRow
from pipeline.casino.uth.points import flop_options, flop_point, preflop_options, preflop_point, river_options
from pipeline.casino.uth.rules import BLIND_TABLE, UthRules
from pipeline.casino.uth.solve import Totals, evaluator, solve_totals
from pipeline.casino.uth.strategy import rule_codes
from pipeline.casino.uth.strategy import strategies as uth_strategies
from pipeline.core.tasks import Tasks
from pipeline.errors import InputError

FAMILY = "ultimate-texas-holdem"
BASE_BET = "ante"
#: the standard game's options (a game file with other bet sizes: :func:`point_options`)
POINT_OPTIONS = {PREFLOP: preflop_options((3, 4)), FLOP: flop_options(2), RIVER: river_options(1)}
#: the cards dealt at the first decision (the trainer's deals): the player's two
FIRST_DEAL = (2,)
#: board cards at each decision point
BOARD_AT = {0: PREFLOP, 3: FLOP, 5: RIVER}
#: solves kept in this process (a build scores four strategies; each pass's totals ~40 MB)
CACHED_SOLVES = 4
_SOLVES: OrderedDict[tuple[Any, ...], Totals] = OrderedDict()
#: what the return table says of each street
STREET_TEXT = {PREFLOP: "{}x pre-flop", FLOP: "{}x flop", RIVER: "{}x river"}
RESULT_ORDER = {"win": 0, "tie": 1, "lose": 2}


def _whole(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 100:
        raise ValueError("must be a whole number of antes, 1 to 100")
    return int(v)


def _bets(v: object) -> tuple[int, ...]:
    if not isinstance(v, list) or not 1 <= len(v) <= 4:
        raise ValueError("must be a list of 1 to 4 bet sizes")
    out = tuple(sorted({_whole(x) for x in v}))
    if len(out) != len(v):
        raise ValueError("bet sizes must be distinct")
    return out


def check_rules(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The ``[rules]`` table checked, defaults filled in."""
    return check_settings(raw, {"dealer_qualifies": ("pair", qualifier("five")),
                                "preflop_bets": ([3, 4], _bets), "flop_bet": (2, _whole),
                                "river_bet": (1, _whole)})


def table_specs(rules: Mapping[str, Any]) -> dict[str, TableSpec]:
    """One table: the Blind (five-card ranking on the best five of seven; no line: push)."""
    return {BLIND_TABLE: TableSpec("five", required=True, otherwise=Fraction(0))}


def point_options(game: Game) -> dict[str, tuple[str, ...]]:
    """The options of each decision point under this game's bet sizes."""
    r = game.rules
    return {PREFLOP: preflop_options(tuple(r["preflop_bets"])), FLOP: flop_options(r["flop_bet"]),
            RIVER: river_options(r["river_bet"])}


def totals(rules: UthRules, river_code: int, flop_code: int, executor: Tasks | None = None) -> Totals:
    """The solve's pass for these rules and rule codes (remembered for the last few)."""
    key = (rules.key(), river_code, flop_code)
    hit = _SOLVES.get(key)
    if hit is None:
        hit = solve_totals(rules, evaluator(), river_rule=river_code, flop_rule=flop_code,
                           executor=executor)
        _SOLVES[key] = hit
        while len(_SOLVES) > CACHED_SOLVES:
            _SOLVES.popitem(last=False)
    _SOLVES.move_to_end(key)
    return hit


def _chart(rules: UthRules, t: Totals, strategy: PlayerStrategy | None) -> np.ndarray | None:
    """int64[1326] pre-flop decisions (0 check, else the bet) of the strategy's chart, if any."""
    choose = strategy.choose.get(PREFLOP) if strategy else None
    if choose is None:
        return None
    best = analyse(t, rules.line_names, rules.preflop_bets)
    point = preflop_point(best, t)
    picked = np.asarray(choose(point), np.int64)
    sizes = np.array((CHECK, *best.choices), np.int64)
    from pipeline.equity.hands.starting_hands import hand_classes

    cls = hand_classes()[0]
    return sizes[picked][cls]


def return_rows(an: Analysis, lines: tuple[str, ...]) -> tuple[ReturnRow, ...]:
    """The framework's return rows, by where the Play bet was made (largest first): wins by Blind
    line and dealer qualification, the push, then losses by qualification (the Blind line
    changes nothing there); the river folds last."""
    merged: dict[tuple[Any, ...], list[Any]] = {}
    for r in an.rows:
        line = lines.index(r.blind_line) if r.result == "win" else len(lines)
        key = (r.street == FOLD, -r.play, RESULT_ORDER[r.result], line, not r.dealer_qualifies)
        merged.setdefault(key, [_outcome(r, lines), r.net, Fraction(2 + r.play), 0])[3] += r.combinations
    return tuple(ReturnRow(o, net, bet, n) for _, (o, net, bet, n) in sorted(merged.items()))


def _outcome(r: UthRow, lines: tuple[str, ...]) -> str:
    """``4x pre-flop: straight flush wins, dealer qualified`` and the like (at most 52 chars)."""
    if r.street == FOLD:
        return "fold at the river"
    where = STREET_TEXT[r.street].format(r.play)
    if r.result == "tie":
        return f"{where}: push"
    qual = "dealer qualified" if r.dealer_qualifies else "dealer unqualified"
    if r.result == "lose":
        return f"{where}: dealer wins, {qual}"
    who = "player" if r.blind_line == lines[-1] else r.blind_line
    return f"{where}: {who} wins, {qual}"


def analyze(game: Game, strategy: PlayerStrategy | None = None, executor: Tasks | None = None) -> CasinoAnalysis:
    """The exact analysis over every deal (optimal play unless ``strategy``); ``executor`` runs
    the pass's tasks (default: this process)."""
    rules = UthRules.of(game)
    try:
        river_code, flop_code = rule_codes(strategy)
    except ValueError as exc:
        raise InputError(f"{game.name}: {exc}") from None
    t = totals(rules, river_code, flop_code, executor)
    an = analyse(t, rules.line_names, rules.preflop_bets, chart=_chart(rules, t, strategy))
    points: tuple[DecisionPoint, ...] = ()
    if strategy is None:
        points = (preflop_point(an, t), flop_point(t))
    notes = (f"deals count the flop apart from the turn and river (the player decides between "
             f"them): each of the {an.deals // 10:,} deals of unordered cards counts 10 times",
             f"exact ties between two choices (the smaller bet taken): river {t.ties[0]:,}, "
             f"flop {t.ties[1]:,} situations",
             "river decisions are not stored (about 10^8 classes): casino grade computes them")
    return CasinoAnalysis(game.slug, game.name, FAMILY, an.deals, return_rows(an, rules.line_names), points,
                          strategy.name if strategy else "optimal", BASE_BET, notes=notes)


def strategies(game: Game) -> tuple[PlayerStrategy, ...]:
    """The practical strategy (chart, flop and river rules), then each part alone."""
    return uth_strategies(tuple(game.rules["preflop_bets"]))


def decision_state(game: Game, cards: list[list[int]]) -> tuple[str, dict[str, int]]:
    """The player's two cards, then the board: none (pre-flop), the flop, or all five (river)."""
    flat = [c for g in cards for c in g]
    point = BOARD_AT.get(len(flat) - 2)
    if len(flat) < 2 or point is None:
        raise InputError(f"{game.name}: a hand is the player's two cards, then 0, 3 or 5 board "
                         f"cards (e.g. \"As Kd | 7c 8h 2s\"); got {len(flat)} cards")
    return point, {}


def grade_state(game: Game, point: str, cards: list[list[int]], context: Mapping[str, int],
                artifacts: Path | None = None) -> list[Fraction]:
    """Exact EVs of the point's options: pre-flop from the built artifact (or a solve now),
    flop and river computed now."""
    from pipeline.casino.uth.states import flop_values, river_values

    flat = [c for g in cards for c in g]
    hole, board = flat[:2], flat[2:]
    rules = UthRules.of(game)
    if point == PREFLOP:
        return _preflop_evs(game, hole, artifacts)
    sv = (flop_values if point == FLOP else river_values)(hole, board, rules, evaluator())
    return [sv.per_ante(o) for o in sv.values]


def _preflop_evs(game: Game, hole: list[int], artifacts: Path | None) -> list[Fraction]:
    from pipeline.casino.artifact import current_artifact, read_point
    from pipeline.equity.hands.starting_hands import hand_classes

    art = current_artifact(game, artifacts) if artifacts is not None else None
    p = read_point(art, PREFLOP) if art is not None else analyze(game).point(PREFLOP)
    cls = hand_classes()[0]
    a, b = sorted(hole)
    mine = cls[a + b * (b - 1) // 2]
    reps = p.cards.astype(np.int64)
    lo, hi = np.minimum(reps[:, 0], reps[:, 1]), np.maximum(reps[:, 0], reps[:, 1])
    row = int(np.flatnonzero(cls[lo + hi * (hi - 1) // 2] == mine)[0])
    return [p.ev_exact(row, o) for o in range(len(p.options))]


__all__ = ["FAMILY", "BASE_BET", "POINT_OPTIONS", "FIRST_DEAL", "check_rules", "table_specs", "point_options",
           "totals", "return_rows",
           "analyze", "strategies", "decision_state", "grade_state"]
