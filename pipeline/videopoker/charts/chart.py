"""A strategy chart derived from the optimal strategy, and its exact return.

A chart is an ordered list of lines; each line is a set of hold patterns (:mod:`.patterns`).
A player finds the first line whose pattern the deal contains and keeps those cards; when the
line fits several holds, the one whose highest card is lowest (lowest hold mask).

Derivation (see docs/ALGORITHM.md, "Strategy charts"):

1. every hold of every deal class gets its pattern; per class and pattern the hold the tie rule
   picks and its EV (from ``strategy/ev``);
2. precedence from the data: for every class the pattern with the highest EV should come before
   every other pattern present; a violated pair costs weight x EV lost. A greedy weighted
   feedback-arc-set order (Eades-Lin-Smyth) is the start; insertion moves judged on the true
   cost (weight x EV lost of the pattern the order actually picks) improve it until no move pays;
3. lines: adjacent patterns of one family merge into one line ("4 to an outside straight, 0-2
   high cards"); while there are more lines than allowed, the move (drop a line, or join a
   pattern to a sibling line) with the least EV lost per line saved is made — penalty-card
   variants stay separate lines (exceptions) only where that pays;
4. judged exactly: the chart's hold for all classes, the exact EV numerators recovered from
   ``strategy/ev`` (``ev * C(R, d) * scale`` is an integer below 2^50), weighted: an exact
   Fraction.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from pipeline.errors import ArtifactError
from pipeline.videopoker.charts.patterns import (
    DISCARD,
    F_FAM,
    family_key,
    game_traits,
    hold_codes,
)
from pipeline.videopoker.charts.patterns import field as code_field
from pipeline.videopoker.charts.search import (
    apply_move,
    compact_codes,
    entries,
    fas_matrix,
    first_second,
    improve,
    inverted,
    line_holds,
    mean_ev,
    move_gains,
    refresh,
    set_delta,
)
from pipeline.videopoker.charts.text import line_text, pattern_universe
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.solver.solve import draw_denominators

DEFAULT_MAX_LINES = 40
#: the exported chart gets more lines (in steps of ``CHART_LINE_STEP``, up to
#: ``MAX_EXPORT_LINES``) until it costs at most this against optimal play: 0.02 points
CHART_COST_TARGET = Fraction(2, 10_000)
CHART_LINE_STEP = 10
MAX_EXPORT_LINES = 80
LEGEND = ("high cards: the ranks of the lowest paying pair; ways: how many different straights "
          "the held cards can still make (open = 2); flush penalty: a discarded card of a held "
          "card's suit; straight penalty: a discarded card that would fit a straight with the held "
          "cards; lowest card: the lowest natural card held (A when the ace plays low)")
TIE_RULE = ("when a line fits several holds, keep the one whose highest card is lowest "
            "(lowest hold mask)")
_EPS = 1e-7              # gains below this (weight x EV units) are float noise
_MAX_ROUNDS = 30
_HELD = np.array([m.bit_count() for m in range(32)], dtype=np.int64)


@dataclass(frozen=True)
class StrategyData:
    """What a chart needs of a paytable's analysis (arrays by deal class)."""

    paytable: Paytable
    hands: np.ndarray      # uint8[N, 5]
    weight: np.ndarray     # int64[N]
    ev: np.ndarray         # float64[N, 32]
    best: np.ndarray       # uint8[N]
    deal_cat: np.ndarray   # pay category of each class's own five cards


@dataclass
class ChartLine:
    """One line of a chart."""

    text: str
    codes: list[int]
    classes: int = 0       # deal classes this line decides
    deals: int = 0         # deals (weighted classes) this line decides
    loss: float = 0.0      # return lost on those deals vs optimal (per unit bet)


@dataclass
class Chart:
    """A derived chart, the hold it picks for every class, and its exact return."""

    name: str
    lines: list[ChartLine]
    holds: np.ndarray                 # uint8[N] hold mask the chart picks
    return_exact: Fraction
    optimal_exact: Fraction
    seconds: float
    patterns: int                     # size of the pattern vocabulary of this game
    notes: list[str] = field(default_factory=list)

    @property
    def cost(self) -> Fraction:
        """Optimal return minus the chart's return (per unit bet)."""
        return self.optimal_exact - self.return_exact

    def as_dict(self) -> dict[str, Any]:
        """JSON shape of ``vp chart``."""
        r, o, c = self.return_exact, self.optimal_exact, self.cost
        return {"name": self.name, "lines": [
            {"line": i + 1, "hold": ln.text, "classes": ln.classes, "deals": ln.deals,
             "loss": ln.loss} for i, ln in enumerate(self.lines)],
            "chart_return": float(r), "chart_return_exact": f"{r.numerator}/{r.denominator}",
            "optimal_return": float(o), "optimal_return_exact": f"{o.numerator}/{o.denominator}",
            "cost": float(c), "cost_exact": f"{c.numerator}/{c.denominator}",
            "tie_rule": TIE_RULE, "patterns": self.patterns, "seconds": round(self.seconds, 4)}


# ------------------------------------------------------------------ exact EVs

def ev_numerators(ev: np.ndarray, holds: np.ndarray, pt: Paytable) -> np.ndarray:
    """int64 exact numerators ``s`` of the EVs of the given holds: EV = s / (C(R, d) * scale).

    ``ev`` is float64[N, 32] (``strategy/ev``), ``holds`` uint8[N]. The solver stored
    ``s / C(R, d) / scale``; ``s`` is an integer below 2^50, so rounding recovers it exactly
    (checked: the rounding residue must be far below 1/2).
    """
    ways, _, _ = draw_denominators(pt.deck_size)
    _, scale = pt.pay_units()
    rows = np.arange(ev.shape[0])
    d = 5 - _HELD[holds.astype(np.int64)]
    x = ev[rows, holds.astype(np.int64)] * ways[d].astype(np.float64) * scale
    s = np.rint(x)
    if s.size and (np.abs(x - s).max() > 1e-3 or s.max() >= 2.0 ** 50):
        raise ArtifactError("strategy/ev does not hold exact EVs of this paytable")
    return s.astype(np.int64)


def exact_return(ev: np.ndarray, weight: np.ndarray, holds: np.ndarray, pt: Paytable) -> Fraction:
    """Exact return of playing ``holds`` (uint8[N]) on every class: sum of weight x EV / deals."""
    ways, _, _ = draw_denominators(pt.deck_size)
    _, scale = pt.pay_units()
    s = ev_numerators(ev, holds, pt)
    d = 5 - _HELD[holds.astype(np.int64)]
    total = Fraction(0)
    for k in range(6):
        sel = d == k
        if sel.any():
            # int64 is safe: weight <= 24, s < 2^50 / 24 / N is not guaranteed, so use Python ints
            acc = int(np.dot(weight[sel].astype(object), s[sel].astype(object)))
            total += Fraction(acc, int(ways[k]) * scale)
    return total / comb(pt.deck_size, 5)


# ------------------------------------------------------------------ orders and lines

def _greedy_fas(mat: np.ndarray) -> np.ndarray:
    """Eades-Lin-Smyth greedy order for a weighted feedback arc set: largest out - in first."""
    n = mat.shape[0]
    delta = mat.sum(axis=1) - mat.sum(axis=0)
    left = np.ones(n, bool)
    order = np.empty(n, np.int64)
    for t in range(n):
        cand = np.where(left, delta, -np.inf)
        u = int(np.argmax(cand))
        order[t] = u
        left[u] = False
        delta -= mat[:, u] - mat[u, :]
    return order


class _State:
    """The working arrays of a derivation (one paytable)."""

    def __init__(self, data: StrategyData) -> None:
        traits = game_traits(data.paytable)
        codes = hold_codes(data.hands, data.deal_cat, traits)
        self.traits = traits
        self.uniq, self.pid = compact_codes(codes)
        n, n_pat = codes.shape[0], len(self.uniq)
        self.n_pat = n_pat
        self.w = data.weight.astype(np.float64)
        self.ent_p = np.empty((n, 32), np.int32)
        self.ent_ev = np.full((n, 32), -np.inf)
        self.ent_m = np.empty((n, 32), np.uint8)
        self.k = np.empty(n, np.int64)
        entries(self.pid, data.ev, self.ent_p, self.ent_ev, self.ent_m, self.k)
        self.inv_start, self.inv_cls, self.inv_slot = inverted(self.ent_p, self.k, n_pat)
        self.keys = np.array([family_key(int(c)) for c in self.uniq], dtype=np.int64)
        self.order = np.arange(n_pat, dtype=np.int64)
        self.pos = np.arange(n_pat, dtype=np.int64)
        self.first = np.empty(n, np.int64)
        self.second = np.empty(n, np.int64)
        self.mark = np.zeros(n, np.int64)
        self.stamp = 0
        self.discard = int(np.flatnonzero([code_field(int(c), F_FAM) == DISCARD
                                           for c in self.uniq])[0])

    def set_order(self, order: np.ndarray) -> None:
        self.order = np.ascontiguousarray(order, dtype=np.int64)
        self.pos = np.empty_like(self.order)
        self.pos[self.order] = np.arange(self.n_pat)
        first_second(self.ent_p, self.k, self.pos, self.first, self.second)

    def total_lost(self) -> float:
        """Weighted EV lost by the current order against each class's best pattern."""
        rows = np.arange(self.ent_p.shape[0])
        return float((self.w * (self.ent_ev.max(axis=1) - self.ent_ev[rows, self.first])).sum())

    def improve(self) -> int:
        return int(improve(self.ent_p, self.ent_ev, self.k, self.w, self.inv_start, self.inv_cls,
                            self.inv_slot, self.order, self.pos, self.first, self.second,
                            _MAX_ROUNDS, _EPS))

    def live(self) -> np.ndarray:
        """Deals (weight) whose first pattern is each pattern."""
        rows = np.arange(self.ent_p.shape[0])
        fp = self.ent_p[rows, self.first]
        return np.bincount(fp, weights=self.w, minlength=self.n_pat)

    def runs(self) -> list[list[int]]:
        """Lines: consecutive live patterns of one family (discard everything always last)."""
        live = self.live() > 0
        out: list[list[int]] = []
        for p in self.order.tolist():
            if p == self.discard:
                break
            if not live[p]:
                continue
            if out and self.keys[out[-1][-1]] == self.keys[p]:
                out[-1].append(p)
            else:
                out.append([p])
        out.append([self.discard])
        return out

    def gains(self, p: int) -> np.ndarray:
        n_pat = self.n_pat
        acc_e, acc_l, g = np.empty(n_pat), np.empty(n_pat), np.empty(n_pat)
        move_gains(p, self.ent_p, self.ent_ev, self.w, self.inv_start, self.inv_cls, self.inv_slot,
               self.pos, self.first, self.second, acc_e, acc_l, g)
        return g

    def move(self, p: int, j: int) -> None:
        apply_move(self.order, self.pos, p, j)
        refresh(p, self.ent_p, self.k, self.inv_start, self.inv_cls, self.pos, self.first,
                 self.second)


def _candidates(st: _State, runs: list[list[int]]) -> list[tuple[float, tuple[int, ...], int]]:
    """(EV lost per line saved, patterns of a line, anchor) for every line: anchor -1 drops the
    line, ``+a`` / ``-(a+2)`` moves it right after / before the line of pattern ``a``."""
    out = []
    for r, run in enumerate(runs[:-1]):
        for anchor in [-1] + [x for r2, run2 in enumerate(runs[:-1]) if r2 != r
                              and st.keys[run2[0]] == st.keys[run[0]] for x in (run2[-1], -(run2[0] + 2))]:
            score = _score(st, runs, tuple(run), anchor)
            if score is not None:
                out.append((score, tuple(run), anchor))
    return out


def _newpos(st: _State, pats: tuple[int, ...], anchor: int) -> np.ndarray:
    newpos = st.pos.astype(np.float64)
    offs = np.arange(len(pats)) * 1e-3
    if anchor == -1:
        tgt = float(st.n_pat + 1)
    elif anchor >= 0:
        tgt = newpos[anchor] + 0.01
    else:
        tgt = newpos[-anchor - 2] - 0.5
    newpos[list(pats)] = tgt + offs
    return newpos


def _score(st: _State, runs: list[list[int]], pats: tuple[int, ...], anchor: int) -> float | None:
    """EV lost per line saved by a move, or None when the move no longer saves a line."""
    r = next((i for i, run in enumerate(runs[:-1]) if tuple(run) == pats), -1)
    if r < 0:
        return None
    a = anchor if anchor >= 0 else -anchor - 2
    if anchor != -1 and not any(a in run and st.keys[run[0]] == st.keys[pats[0]]
                                for i, run in enumerate(runs[:-1]) if i != r):
        return None
    merge = 0 < r < len(runs) - 2 and st.keys[runs[r - 1][0]] == st.keys[runs[r + 1][0]]
    saves = 2 if merge else 1
    st.stamp += 1
    lost = set_delta(np.array(pats, np.int64), _newpos(st, pats, anchor), st.ent_p, st.ent_ev,
                      st.k, st.w, st.inv_start, st.inv_cls, st.first, st.mark, st.stamp)
    return lost / saves


def _reduce_lines(st: _State, max_lines: int) -> None:
    """Drop or regroup whole lines until the chart has at most ``max_lines`` lines.

    Lazy greedy: the move with the least EV lost per line saved (a line dropped — its patterns go
    after "discard everything" —, or moved next to a line of its own family so the two merge);
    a stale candidate is re-scored before it is used.
    """
    import heapq

    runs = st.runs()
    heap = [(sc, i, pats, anc) for i, (sc, pats, anc) in enumerate(_candidates(st, runs))]
    heapq.heapify(heap)
    tick = len(heap)
    for _ in range(20 * st.n_pat):
        if len(runs) <= max_lines:
            return
        if not heap:
            heap = [(sc, tick + i, p, a) for i, (sc, p, a) in enumerate(_candidates(st, runs))]
            tick += len(heap)
            heapq.heapify(heap)
            if not heap:
                return
        _, _, pats, anc = heapq.heappop(heap)
        sc = _score(st, runs, pats, anc)
        if sc is None:
            continue
        if heap and sc > heap[0][0] + _EPS:
            heapq.heappush(heap, (sc, tick, pats, anc))
            tick += 1
            continue
        st.order = np.ascontiguousarray(np.argsort(_newpos(st, pats, anc), kind="stable"))
        st.pos[st.order] = np.arange(st.n_pat)
        for p in pats:
            refresh(p, st.ent_p, st.k, st.inv_start, st.inv_cls, st.pos, st.first, st.second)
        runs = st.runs()
        new_runs = [tuple(r) for r in runs[:-1]]
        known = {h[2] for h in heap}
        for r in new_runs:
            if r not in known:   # lines made by the merge: their own moves
                for sc2, p2, a2 in _candidates_for(st, runs, r):
                    heapq.heappush(heap, (sc2, tick, p2, a2))
                    tick += 1


def _candidates_for(st: _State, runs: list[list[int]], run: tuple[int, ...]
                    ) -> list[tuple[float, tuple[int, ...], int]]:
    out = []
    anchors = [-1] + [x for run2 in runs[:-1] if tuple(run2) != run
                      and st.keys[run2[0]] == st.keys[run[0]] for x in (run2[-1], -(run2[0] + 2))]
    for anchor in anchors:
        sc = _score(st, runs, run, anchor)
        if sc is not None:
            out.append((sc, run, anchor))
    return out


# ------------------------------------------------------------------ the chart

def _check_lines(max_lines: int) -> None:
    if max_lines < 2:
        from pipeline.errors import InputError
        raise InputError("{max_lines} {n}: a chart needs at least 2 lines", "max_lines",
                         n=max_lines)


def derive_chart(data: StrategyData, max_lines: int = DEFAULT_MAX_LINES) -> Chart:
    """Derive a chart of at most ``max_lines`` lines and judge it exactly."""
    _check_lines(max_lines)
    return chart_maker(data)(max_lines)


def chart_maker(data: StrategyData) -> Callable[[int], Chart]:
    """``derive_chart(data, n)`` for any ``n``, the work that does not depend on ``n`` done once.

    The patterns, the start order and its improvement are the same for every line count; each
    call restores the improved order and reduces the lines from there (``_reduce_lines``
    changes only the order, the positions and each class's first and second pattern).
    """
    t0 = time.perf_counter()
    st = _State(data)
    # two starts, the cheaper one is improved: the greedy feedback-arc-set order of the
    # pairwise precedence graph, and the patterns by their mean EV where present
    starts = [_greedy_fas(fas_matrix(st.ent_p, st.ent_ev, st.k, st.w, st.n_pat)),
              np.argsort(-mean_ev(st.ent_p, st.ent_ev, st.k, st.w, st.n_pat), kind="stable")]
    costs = []
    for order in starts:
        st.set_order(order)
        costs.append(st.total_lost())
    st.set_order(starts[int(np.argmin(costs))])
    st.improve()
    saved = st.order.copy(), st.pos.copy(), st.first.copy(), st.second.copy()
    shared = time.perf_counter() - t0

    def make(max_lines: int) -> Chart:
        _check_lines(max_lines)
        t1 = time.perf_counter()
        st.order, st.pos = saved[0].copy(), saved[1].copy()
        st.first[:], st.second[:] = saved[2], saved[3]
        # seconds: the shared part plus this line count's own
        return _finish(st, data, max_lines, t1 - shared)

    return make


def _finish(st: _State, data: StrategyData, max_lines: int, t0: float) -> Chart:
    """Reduce the improved order to ``max_lines`` lines, then judge the chart exactly."""
    _reduce_lines(st, max_lines)
    runs = st.runs()
    line_of = np.full(st.n_pat, len(runs) + 1, np.int64)
    for r, run in enumerate(runs):
        line_of[run] = r
    holds = np.empty(len(data.weight), np.uint8)
    which = np.empty(len(data.weight), np.int64)
    line_holds(st.pid, line_of, holds, which)
    pt = data.paytable
    ret = exact_return(data.ev, data.weight, holds, pt)
    opt = exact_return(data.ev, data.weight, data.best, pt)
    universe, universe_mains = pattern_universe(st.uniq, st.traits)
    rows = np.arange(len(holds))
    lost = (data.ev[rows, data.best] - data.ev[rows, holds]) * data.weight
    deals = comb(pt.deck_size, 5)
    lines = []
    for r, run in enumerate(runs):
        sel = which == r
        codes = [int(st.uniq[p]) for p in run]
        lines.append(ChartLine(line_text(codes, st.traits, universe, universe_mains), codes, int(sel.sum()),
                               int(data.weight[sel].sum()), float(lost[sel].sum() / deals)))
    return Chart(pt.name, lines, holds, ret, opt, time.perf_counter() - t0, st.n_pat)


def n_held(holds: np.ndarray) -> np.ndarray:
    """Cards kept by each hold mask."""
    return _HELD[holds.astype(np.int64)]


__all__ = [
    "DEFAULT_MAX_LINES",
    "LEGEND",
    "TIE_RULE",
    "Chart",
    "ChartLine",
    "StrategyData",
    "chart_maker",
    "derive_chart",
    "ev_numerators",
    "exact_return",
    "n_held",
]
