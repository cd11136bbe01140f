"""Hand-by-hand breakdown of the hero's range: each combo's (and class's) share of the deals
and its equity against the other seats, through the one engine.

*Frequency* of a combo h = the share of all weighted deals of the spot in which the hero holds
h: ``w(h) * A(h) / sum over h' of w(h') * A(h')``, where A(h) is the weighted number of ways
to give every other range seat a hand that shares no card with h, the board, the dead cards or
each other (product of their weights). Random seats, the board's missing cards and the random
hands then come from a deck of the same size whatever h is, so they scale every A(h) alike and
drop out. A(h) is counted exactly (integers for unit weights).

Each combo's win/tie/lose/equity is the planner's answer to the question with the hero holding
that combo (:func:`pipeline.equity.planner.solve`: exact when the spot is, else Monte Carlo with
a standard error; one enumeration gives every combo's row when the spot is answered by
enumerating its ranges). The range total is the frequency-weighted mean of the rows, which is the
engine's range answer exactly when the rows are exact (the deals split by the hero's hand).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from pipeline.core.cards import format_cards
from pipeline.core.constants import SHARE_SCALE
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_MASKS, hand_classes
from pipeline.equity.montecarlo.stopping import DEFAULT_SAMPLES
from pipeline.equity.planner import solve
from pipeline.equity.question import EXACT_SECONDS, Budget, Question
from pipeline.equity.ranges.grid import exact_weight
from pipeline.equity.seating import Table, seat_table
from pipeline.equity.spots.answer import Answer, Json, Method, SeatRow
from pipeline.equity.spots.seats import Seat
from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: Assignment visits the frequency count may make (hero combos x other seats' products).
MAX_ASSIGNMENT_VISITS = 2_000_000_000
#: Monte Carlo rows get at least this many deals each.
MIN_ROW_SAMPLES = 2_000
#: the seat split when none is named
HERO = 0


@dataclass(frozen=True)
class BreakdownRow:
    """One combo or class of the hero's range."""

    label: str
    weight: float
    frequency: float
    win: float
    tie: float
    lose: float
    equity: float
    stderr: float | None
    combos: int = 1
    #: exact rows with unit weights: the frequency and equity as fractions
    frequency_exact: Fraction | None = None
    equity_exact: Fraction | None = None
    #: the combos counted with their weights (a class's: the sum of its members' weights, so
    #: ``AQs:0.5`` is 2 of its 4 combos); None: ``weight`` (one combo)
    weighted: Fraction | None = None

    def to_json(self) -> dict[str, Json]:
        """The row as the command line's JSON object (fractions as ``"p/q"`` text)."""
        weighted = self.weighted if self.weighted is not None else exact_weight(self.weight)
        out: dict[str, Json] = {"hand": self.label, "combos": self.combos, "weight": self.weight,
                               "weighted": int(weighted) if weighted.denominator == 1 else float(weighted),
                               "frequency": self.frequency, "win": self.win, "tie": self.tie,
                               "lose": self.lose, "equity": self.equity, "stderr": self.stderr}
        if self.frequency_exact is not None and self.equity_exact is not None:
            out["frequency_exact"] = str(self.frequency_exact)
            out["equity_exact"] = str(self.equity_exact)
        return out


@dataclass(frozen=True)
class Breakdown:
    """The range's answer with its rows per combo and per class, each sorted by equity."""

    result: Answer
    combos: list[BreakdownRow]
    classes: list[BreakdownRow]
    #: the seat whose range is split (0 = the hero)
    seat: int = 0

    def to_json(self) -> dict[str, Json]:
        """The engine's JSON answer plus ``breakdown: {seat, player, range, combos: [...],
        classes: [...]}`` (``player``: the seat's name in ``players``, ``hero`` or ``vsN``)."""
        out = self.result.to_json()
        p = self.result.players[self.seat]
        out["breakdown"] = {"seat": self.seat, "player": p.player, "range": p.range,
                            "combos": [r.to_json() for r in self.combos],
                            "classes": [r.to_json() for r in self.classes]}
        return out


def breakdown(q: Question, tables: Tables) -> Breakdown:
    """The answer with seat ``q.breakdown``'s range split by that seat's combo (see the module
    docstring); seat 0 is the hero, 1.. the named opponents in order, then the random ones.

    Monte Carlo rows share the deals: ``samples`` (default :data:`DEFAULT_SAMPLES`) split over
    the combos, at least :data:`MIN_ROW_SAMPLES` each; ``stderr`` asks it of every row instead.
    """
    seat = q.breakdown or HERO
    plain = replace(q, breakdown=None)
    if seat == HERO:
        return _seat_breakdown(plain, tables)
    # the seat's combos are the hero's of the same deal with that seat moved first; the other
    # seats' answers come from the question as asked
    bd = _seat_breakdown(plain.with_first(seat), tables)
    res = solve(plain, tables)
    row = replace(bd.result.players[0], player=res.players[seat].player)
    res = replace(res, players=tuple(row if i == seat else p for i, p in enumerate(res.players)))
    return Breakdown(res, bd.combos, bd.classes, seat)


def equity_breakdown(tables: Tables, hero: str, vs: Sequence[str] = (),
                     opponents: int | None = None, board: str = "", dead: str = "",
                     exact: bool | None = None, samples: int | None = None,
                     stderr: float | None = None, seed: int | None = None,
                     seat: int = HERO) -> Breakdown:
    """:func:`breakdown` of a question given as text (:meth:`Question.parse`)."""
    return breakdown(Question.parse(hero, list(vs), opponents, board, dead, exact=bool(exact),
                                    samples=samples, stderr=stderr, seed=seed, breakdown=seat),
                     tables)


def _seat_breakdown(q: Question, tables: Tables) -> Breakdown:
    """The hero range's answer split by the hero's combo."""
    table = seat_table(q, tables)
    b = q.budget
    mc_rows = b.monte_carlo
    res = solve(replace(q, budget=Budget(b.exact, b.samples if mc_rows else None, b.stderr, None,
                                         b.seed)), tables)
    split = None if mc_rows else _one_pass(tables, table, res)
    if split is None:
        rows, hands, sampled = _combo_by_combo(tables, q, table)
    else:
        (rows, hands), sampled = split, 0
    classes = _classes(rows, hands)
    result = _total(res, rows, sampled)
    key = lambda r: (-r.equity, r.label)  # noqa: E731
    return Breakdown(result, sorted(rows, key=key), sorted(classes, key=key))


def _one_pass(tables: Tables, table: Table, res: Answer
              ) -> tuple[list[BreakdownRow], np.ndarray] | None:
    """Every combo's row from one enumeration of the spot (:mod:`pipeline.equity.exact.per_hand`),
    when the spot is answered by enumerating its ranges; else None."""
    from pipeline.equity.exact.per_hand import DEALS, split_cost, split_rows

    h = table.seats[0]
    if (res.method is not Method.EXACT or res.source is not None or h.is_single or sum(table.random) > 1
            or split_cost(table.seats, table.board, table.dead) > EXACT_SECONDS):
        return None
    h_i, h_f = split_rows(table.seats, table.board, table.dead, tables.eval_tables())
    keep = np.flatnonzero(h_i[:, DEALS] > 0)
    if keep.size == 0:
        raise InputError("no hero hand can be dealt alongside the other seats", field="hero")
    unit = all(s.unit_weights for s in table.seats)
    total_i = int(h_i[keep, DEALS].sum())
    total_f = float(h_f[keep, DEALS].sum())
    rows = []
    for k in keep:
        a, b = (int(c) for c in HOLE_CARDS[h.hands[k]])
        f_exact = e_exact = None
        win, tie, lose, share, n = (int(v) for v in h_i[k]) if unit else (float(v) for v in h_f[k])
        if unit:
            f_exact = Fraction(int(n), total_i)
            e_exact = Fraction(int(share), SHARE_SCALE * int(n))
            freq = float(f_exact)
        else:
            freq = n / total_f
        rows.append(BreakdownRow(format_cards([b, a]), float(h.weights[k]), freq, win / n, tie / n,
                                 lose / n, share / (SHARE_SCALE * n), None, 1, f_exact, e_exact))
    return rows, h.hands[keep]


def _combo_by_combo(tables: Tables, q: Question, table: Table
                    ) -> tuple[list[BreakdownRow], np.ndarray, int]:
    """Every combo's row asked of the engine as its own question; the combos' frequencies
    from a walk over the other range seats. Also the Monte Carlo deals the rows took."""
    from pipeline.equity.hands.assignments import count_assignments

    h = table.seats[0]
    others = [s for s, r in zip(table.seats[1:], table.random[1:]) if not r]
    hero_m = np.ascontiguousarray(HOLE_MASKS[h.hands])
    off = np.zeros(len(others) + 1, np.int64)
    off[1:] = np.cumsum([s.combos for s in others])
    visits = h.combos * math.prod(s.combos for s in others)
    if visits > MAX_ASSIGNMENT_VISITS:
        raise InputError("{breakdown} would visit {visits} hand assignments to weigh the combos "
                         "(limit {limit}); narrow the ranges", field="breakdown",
                         visits=f"{visits:.2g}", limit=f"{MAX_ASSIGNMENT_VISITS:.0e}")
    hand_m = np.ascontiguousarray(np.concatenate([HOLE_MASKS[s.hands] for s in others])
                                  if others else np.zeros(0, np.uint64))
    hand_w = np.ascontiguousarray(np.concatenate([s.weights for s in others])
                                  if others else np.zeros(0))
    a_i = np.zeros(h.combos, np.int64)
    a_f = np.zeros(h.combos)
    count_assignments(hero_m, off, hand_m, hand_w, a_i, a_f)
    unit = all(s.unit_weights for s in table.seats)
    keep = np.flatnonzero(a_i > 0)
    if keep.size == 0:
        raise InputError("no hero hand can be dealt alongside the other seats", field="hero")
    b = q.budget
    row_samples = None
    if b.samples is not None and b.stderr is None:
        row_samples = max(MIN_ROW_SAMPLES, (b.samples or DEFAULT_SAMPLES) // keep.size)
    row_budget = Budget(b.exact, row_samples, b.stderr, None, b.seed)
    total_i = int((a_i[keep]).sum())
    total_f = float((h.weights[keep] * a_f[keep]).sum())
    rows: list[BreakdownRow] = []
    sampled = 0
    for k in keep:
        lo, hi = (int(c) for c in HOLE_CARDS[h.hands[k]])
        label = format_cards([hi, lo])
        # the combo's question: the hero holds it (cards as ids, nothing to read again)
        r = solve(replace(q, seats=(Seat("", label, (hi, lo)), *q.seats[1:]), budget=row_budget),
                  tables)
        sampled += r.samples or 0
        freq = float(h.weights[k] * a_f[k] / total_f)
        f_exact = e_exact = None
        c = r.counts
        if unit and r.method is Method.EXACT and c is not None and c.equity_numerator is not None \
                and c.equity_denominator is not None:
            f_exact = Fraction(int(a_i[k]), total_i)
            e_exact = Fraction(c.equity_numerator, c.equity_denominator)
        rows.append(BreakdownRow(label, float(h.weights[k]), freq, r.win, r.tie, r.lose, r.equity,
                                 r.stderr, 1, f_exact, e_exact))
    return rows, h.hands[keep], sampled


def _classes(rows: list[BreakdownRow], hands: np.ndarray) -> list[BreakdownRow]:
    """Frequency-weighted means of the rows of each starting-hand class (``AKs``, ``QQ``)."""
    cls, names, *_ = hand_classes()
    groups: dict[int, list[BreakdownRow]] = {}
    for row, hand in zip(rows, hands):
        groups.setdefault(int(cls[hand]), []).append(row)
    out = []
    for c, members in groups.items():
        f = sum(r.frequency for r in members)
        mean = {k: sum(r.frequency * getattr(r, k) for r in members) / f
                for k in ("win", "tie", "lose", "equity")}
        se = None
        if any(r.stderr is not None for r in members):
            se = math.sqrt(sum((r.frequency * (r.stderr or 0.0)) ** 2 for r in members)) / f
        f_ex = e_ex = None
        if all(r.frequency_exact is not None for r in members):
            f_ex = sum((r.frequency_exact for r in members if r.frequency_exact is not None),
                       Fraction(0))
            e_ex = sum((r.frequency_exact * r.equity_exact for r in members
                        if r.frequency_exact is not None and r.equity_exact is not None),
                       Fraction(0)) / f_ex
        w = sum(r.weight for r in members) / len(members)
        weighted = sum((exact_weight(r.weight) for r in members), Fraction(0))
        out.append(BreakdownRow(names[c], w, f, mean["win"], mean["tie"], mean["lose"],
                                mean["equity"], se, len(members), f_ex, e_ex, weighted))
    return out


def _total(res: Answer, rows: list[BreakdownRow], sampled: int) -> Answer:
    """The hero's answer ``res`` made the frequency-weighted mean of the rows; the other seats
    keep the engine's range answer (exact spots), or the rows' own samples."""
    win, tie, lose, equity = (sum(r.frequency * getattr(r, k) for r in rows)
                              for k in ("win", "tie", "lose", "equity"))
    stderr, method, samples = res.stderr, res.method, res.samples
    if any(r.stderr is not None for r in rows):
        stderr = math.sqrt(sum((r.frequency * (r.stderr or 0.0)) ** 2 for r in rows))
        method, samples = Method.MONTE_CARLO, sampled
    hero: SeatRow = replace(res.players[0], win=win, tie=tie, lose=lose, equity=equity,
                            stderr=stderr)
    return replace(res, win=win, tie=tie, lose=lose, equity=equity, stderr=stderr, method=method,
                   samples=samples, players=(hero, *res.players[1:]))


__all__ = ["Breakdown", "BreakdownRow", "breakdown", "equity_breakdown", "MAX_ASSIGNMENT_VISITS"]
