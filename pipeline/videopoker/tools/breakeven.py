"""Break-even pays: the smallest pay of one paytable line (a progressive royal's meter) at which
the optimal-strategy return reaches a target, and the return against that pay.

Every figure is an exact solve of the paytable with only that line's pay changed: the final-hand
counts of the optimal strategy at that pay, equal to a full analysis's
(:func:`pipeline.videopoker.solver.analysis.analyze`), read from a line range
(:mod:`pipeline.videopoker.solver.linepay`: one pass over the deal classes keeps the holds that
can be best somewhere in the pays searched, then each pay is a lookup). What does not depend on
the pay is reused, as ``vp sweep`` does: the deal classes are loaded once, and the pay
categories with their subset counts are computed once per *order* of the pays. Without wild
cards they never depend on the pays; with wild cards a hand is paid by its best reading, which
depends only on how the lines' pays compare (higher, equal, lower), so they are recomputed (with
a range of their own) only when the changed pay crosses another line's pay.

The search. ``f(p)``, the optimal return when the line pays ``p``, is the largest of the
returns of all strategies, each linear in ``p`` with slope ``P(line)`` >= 0: so ``f`` is
non-decreasing, convex and piecewise linear, and the line's probability under the optimal
strategy at ``p`` is a slope of a tangent below ``f``. Its root ``p + (target - f(p)) / P``
is therefore a pay where the return is at least the target. The search runs that Newton step
from above (each step lands on or above the break-even, on the pay grid), then proves the
grid point below falls short; bisection takes over if the steps stall. The answer is exact
on the grid of ``step`` (default 1 credit per credit bet, i.e. 5 coins on a 5-coin bet): the
smallest multiple of ``step`` whose exact return reaches the target. From the two grid points
around it, convexity also bounds the real break-even (secant root below, tangent roots above);
when the strategy is the same at both, the bounds meet and the exact break-even is a fraction.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.core.cancel import checkpoint, share
from pipeline.core.strict_numbers import strict_fraction
from pipeline.errors import ConfigError, InputError, clip
from pipeline.videopoker.paytables.hands import HAND_NAMES
from pipeline.videopoker.paytables.paytable import MAX_PAY, MAX_PAY_DENOMINATOR, Paytable
from pipeline.videopoker.tools.changes import EV_TIE, group_changes, strategy_changes

if TYPE_CHECKING:  # the solver's modules load numba: imported where a solve happens
    from pipeline.videopoker.solver.analysis import Analysis
    from pipeline.videopoker.solver.deals import DealClasses
    from pipeline.videopoker.solver.linepay import LineRange

#: the line ``vp breakeven`` moves when none is named
DEFAULT_LINE = "royal flush"
#: the grid of the search: pays are whole credits per credit bet unless ``--step`` says otherwise
DEFAULT_STEP = Fraction(1)
#: highest pay (per credit bet) the search tries before calling a target unreachable
MAX_SEARCH_PAY = Fraction(100_000)
#: a target return is a fraction of the bet in (0, MAX_TARGET]
MAX_TARGET = Fraction(5)
#: most rows of ``--table`` (each is one exact solve, about half a second)
MAX_TABLE_ROWS = 101
#: rows of a default ``--table``: from the paytable's pay to twice it
DEFAULT_TABLE_ROWS = 11
#: Newton steps before the search falls back to bisection (never reached in practice)
MAX_NEWTON = 60
#: full analyses kept in memory besides the paytable's own (each holds ~50 MB of EVs)
KEEP = 2


def parse_amount(text: str | float, field: str, *, pay: bool = True) -> Fraction:
    """A number the user typed as an exact fraction (``"0.995"``, ``"99.5%"``, ``"976"``).

    ``pay`` amounts must be in ``[0, MAX_PAY]`` with at most three decimals (what a paytable
    accepts); other amounts only need to be finite. ``InputError`` names the field and value.
    """
    what = f"{{{field}}}"  # the field, as each door names it (pipeline.errors.InputError)
    got = clip(str(text))
    raw = str(text).strip()
    scale = Fraction(1)
    if raw.endswith("%"):
        raw, scale = raw[:-1].strip(), Fraction(1, 100)
    try:  # ASCII digits only: Fraction() reads "٨" as 8 and "8_0" as 80
        value = strict_fraction(raw) * scale
    except ValueError:
        raise InputError(what + " must be a finite number, got {got}", field, got=got) from None
    if pay:
        if value < 0:
            raise InputError(what + " must not be negative, got {got}", field, got=got)
        if value > MAX_PAY:
            raise InputError(what + " {got} is more than {most} per credit", field, got=got,
                             most=f"{MAX_PAY:,}")
        if MAX_PAY_DENOMINATOR % value.denominator:
            raise InputError(what + " {got}: at most 3 decimal places", field, got=got)
    return value


def parse_target(text: str | float) -> Fraction:
    """The target return as a fraction of the bet: ``1``, ``1.0``, ``100%``; in (0, 5]."""
    t = parse_amount(text, "target", pay=False)
    if not 0 < t <= MAX_TARGET:
        raise InputError("{target} must be above 0 and at most {most} ({pct} of the bet), got "
                         "{got}", "target", most=MAX_TARGET, pct=percent(MAX_TARGET),
                         got=clip(str(text)))
    return t


def percent(x: Fraction) -> str:
    """``100%``, ``99.5%``: a target as people write it."""
    return f"{float(x) * 100:.10g}%"


def find_line(pt: Paytable, text: str) -> int:
    """Index of the line named ``text``: its label (``four aces``) or, when one line has it, its
    hand (``royal flush``); case and spacing do not matter. ``InputError`` lists the lines."""
    want = " ".join(str(text).lower().split())
    for i, ln in enumerate(pt.lines):
        if ln.label.lower() == want:
            return i
    by_hand = [i for i, ln in enumerate(pt.lines) if ln.hand == want]
    if len(by_hand) == 1:
        return by_hand[0]
    lines = ", ".join(repr(ln.label) for ln in pt.lines)
    why = "several lines pay it, name one" if by_hand else \
        "a hand" if want in HAND_NAMES else "not a line"
    raise InputError("{line} {got}: {why} of {name} (lines: {lines})", "line", got=clip(text),
                     why=why, name=pt.name, lines=lines)


def with_pay(pt: Paytable, line: int, pay: Fraction) -> Paytable:
    """The paytable with line ``line`` paying ``pay`` (named after the change)."""
    lines = list(pt.lines)
    lines[line] = replace(lines[line], pays=pay)
    return replace(pt, lines=tuple(lines), name=f"{pt.name} [{lines[line].label} {pay_text(pay)}]")


def pay_text(p: Fraction) -> str:
    """``976``, ``975.5``: a pay as the paytables write it."""
    return str(p.numerator) if p.denominator == 1 else f"{float(p):g}"


def exact_text(x: Fraction) -> str:
    """``num/den``: the exact form the JSON answers use."""
    return f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class Point:
    """One exact solve: the pay, the optimal return, the line's probability (the slope)."""

    pay: Fraction
    ret: Fraction
    slope: Fraction

    def as_json(self) -> dict[str, Any]:
        """``pay``, ``return`` (float and exact) and the line's probability and cycle."""
        return {"pay": float(self.pay), "pay_exact": exact_text(self.pay),
                "return": float(self.ret), "return_exact": exact_text(self.ret),
                "line_probability": float(self.slope),
                "line_cycle": float(1 / self.slope) if self.slope else None}


class PaySolver:
    """Exact solves of one paytable with one line's pay changed (see the module doc).

    A point (return and slope at a pay) comes from a :class:`~pipeline.videopoker.solver.linepay.LineRange`:
    one pass over the deal classes per order of the pays (one for a game without wild cards)
    keeps the holds that can be best anywhere in the pays asked (``span``), and then every pay
    of it is a lookup of milliseconds. ``analysis`` is a full solve (every hold's EV) where one
    is wanted. ``own_counts``: the final-hand counts at the paytable's own pay when a solve
    already made them (the build's), so its point needs no pass.
    """

    def __init__(self, pt: Paytable, line: int, classes: DealClasses,
                 counts: tuple[np.ndarray, list[np.ndarray]] | None = None,
                 own_counts: list[int] | None = None) -> None:
        self.pt, self.line, self.classes = pt, line, classes
        self.own = pt.lines[line].pays
        self.solves = 0
        self.seconds = 0.0
        self._counts: dict[tuple[int, ...], tuple[np.ndarray, list[np.ndarray]]] = {}
        if counts is not None:
            self._counts[self._order(self.own)] = counts
        self._own_counts = own_counts
        self._points: dict[Fraction, Point] = {}
        self._full: OrderedDict[Fraction, Analysis] = OrderedDict()
        self._ranges: list[tuple[tuple[int, ...], LineRange]] = []
        self._span: tuple[Fraction, Fraction] | None = None
        self.grid = Fraction(1)

    def _order(self, pay: Fraction) -> tuple[int, ...]:
        """What the pay categories depend on: nothing without wild cards; with them, how
        ``pay`` compares with every other line's pay (and with 0, the pay of nothing)."""
        if self.pt.wild == "none":
            return ()
        return tuple((pay > p) - (pay < p) for j, p in enumerate(self.pt.pays) if j != self.line)

    def check(self, pay: Fraction) -> None:
        """``ConfigError`` if the solver's exact 64-bit arithmetic cannot take this pay."""
        from pipeline.videopoker.solver.analysis import check_pays

        check_pays(with_pay(self.pt, self.line, pay))

    def span(self, lo: Fraction, hi: Fraction, grid: Fraction) -> None:
        """The pays the next points will be asked at: ``[lo, hi]``, on multiples of ``grid``
        (and the paytable's own pay)."""
        self._span, self.grid = (lo, hi), grid

    def counts(self, pay: Fraction) -> tuple[np.ndarray, list[np.ndarray]]:
        """Pay categories and subset counts at ``pay`` (shared by every pay of its order)."""
        from pipeline.videopoker.solver.analysis import compute_counts

        key = self._order(pay)
        if key not in self._counts:
            self._counts[key] = compute_counts(with_pay(self.pt, self.line, pay))
        return self._counts[key]

    def analysis(self, pay: Fraction) -> Analysis:
        """The full analysis at ``pay`` (the paytable's own pay and the latest ones are kept)."""
        from pipeline.videopoker.solver.analysis import analyze

        if pay in self._full:
            self._full.move_to_end(pay)
            return self._full[pay]
        t0 = time.perf_counter()
        variant = with_pay(self.pt, self.line, pay)
        a = analyze(variant, self.classes, self.counts(pay))
        if pay not in self._points:
            self.solves += 1
            self._points[pay] = Point(pay, a.return_exact,
                                      Fraction(a.final_counts[self.line], a.denominator))
        self.seconds += time.perf_counter() - t0
        self._full[pay] = a
        extra = [p for p in self._full if p != self.own]
        while len(extra) > KEEP:
            del self._full[extra.pop(0)]
        return a

    def range_at(self, pay: Fraction) -> LineRange | None:
        """The line range serving ``pay`` (made now if none does), or None when the range's
        pay units would not fit the exact 64-bit arithmetic (then points are full solves)."""
        from pipeline.videopoker.solver.linepay import RangeTooLarge, line_range

        key = self._order(pay)
        for k, r in self._ranges:
            if k == key and r.lo <= pay <= r.hi:
                try:
                    r.units(pay)
                    return r
                except ValueError:
                    continue
        lo, hi = self._span if self._span is not None and \
            self._span[0] <= pay <= self._span[1] else (Fraction(0), MAX_SEARCH_PAY)
        lo, hi = min(lo, pay), max(hi, pay)
        # a wild game's pay categories hold between the other pays next to this one
        for p in self.pt.pays[:self.line] + self.pt.pays[self.line + 1:]:
            if self.pt.wild != "none":
                if p <= pay:
                    lo = max(lo, p)
                if p >= pay:
                    hi = min(hi, p)
        try:
            r = line_range(self.pt, self.line, self.classes, self.counts(pay), lo, hi, self.grid,
                           (self.own, pay))
        except RangeTooLarge:
            return None
        self._ranges.append((key, r))
        return r

    def point(self, pay: Fraction) -> Point:
        """Return and slope at ``pay`` (solved once per pay)."""
        from pipeline.videopoker.solver.analysis import checked_total

        if pay not in self._points:
            checkpoint()
            t0 = time.perf_counter()
            if pay == self.own and self._own_counts is not None:
                counts = self._own_counts
            else:
                r = self.range_at(pay)
                if r is None:
                    self.analysis(pay)
                    return self._points[pay]
                counts = r.counts_at(pay)[0]
            den = checked_total(counts, self.pt.deck_size)
            pays = with_pay(self.pt, self.line, pay).pays
            ret = sum((Fraction(c) * p for c, p in zip(counts, pays)), Fraction(0)) / den
            self._points[pay] = Point(pay, ret, Fraction(counts[self.line], den))
            self.solves += 1
            self.seconds += time.perf_counter() - t0
        return self._points[pay]

    def changes(self, before: Fraction, after: Fraction) -> dict[str, Any]:
        """:func:`strategy_changes` from the pay ``before`` to ``after``: from one line range
        when one serves both pays, else from two full analyses."""
        r = self.range_at(after)
        if r is None or self._order(before) != self._order(after) or not r.lo <= before <= r.hi:
            return strategy_changes(self.analysis(before), self.analysis(after))
        _, rows_before = r.counts_at(before)
        _, rows_after = r.counts_at(after)
        n = len(self.classes)
        old = np.zeros(n, np.int64)
        new = np.zeros(n, np.int64)
        gain = np.zeros(n, np.float64)
        old[r.deals] = r.hold[rows_before]
        new[r.deals] = r.hold[rows_after]
        gain[r.deals] = r.ev(rows_after, after) - r.ev(rows_before, after)
        return group_changes(self.classes.hands, self.classes.weight, self.pt.deck_size, old, new,
                             gain)


def max_admissible(solver: PaySolver, step: Fraction, cap: Fraction) -> Fraction:
    """The largest multiple of ``step`` up to ``cap`` the exact arithmetic takes for the line."""
    def ok(k: int) -> bool:
        try:
            solver.check(k * step)
            return True
        except ConfigError:
            return False

    lo, hi = 0, math.floor(cap / step)
    if ok(hi):
        return hi * step
    while hi - lo > 1:  # ok(lo) holds: a pay of 0 always fits
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo * step


@dataclass
class Search:
    """The answer of :func:`break_even`: the grid points around the break-even and bounds."""

    target: Fraction
    step: Fraction
    hi: Point                  # smallest grid pay whose return reaches the target
    lo: Point | None           # the grid pay below it (None when hi is 0)
    lower: Fraction            # the real break-even lies in [lower, upper]
    upper: Fraction

    @property
    def exact(self) -> Fraction | None:
        """The exact break-even pay, when the bounds meet (None when the target is met even
        at a pay of 0: the break-even is then no pay at all)."""
        return self.lower if self.lower == self.upper and self.lo is not None else None


def _ceil(x: Fraction, step: Fraction) -> Fraction:
    return math.ceil(x / step) * step


def _tangent_root(p: Point, target: Fraction) -> Fraction | None:
    """Where the tangent at ``p`` reaches the target (a pay whose return is at least it)."""
    return p.pay + (target - p.ret) / p.slope if p.slope > 0 else None


def break_even(solver: PaySolver, target: Fraction, step: Fraction = DEFAULT_STEP,
               max_pay: Fraction = MAX_SEARCH_PAY) -> Search:
    """The smallest multiple of ``step`` (up to ``max_pay``) at which the line's pay makes the
    optimal return reach ``target``; ``InputError`` if no pay up to ``max_pay`` does."""
    cap = max_admissible(solver, step, max_pay)
    own = solver.point(solver.own)
    # every pay the search asks lies between a grid pay known to fall short (or 0) and the
    # tangent root (or the pay itself when it reaches the target): one line range serves them
    if own.ret < target:
        root = _tangent_root(own, target)
        solver.span(math.floor(own.pay / step) * step,
                    cap if root is None else min(_ceil(root, step), cap), step)
    else:
        solver.span(Fraction(0), _ceil(own.pay, step), step)
    lo_k = -1                 # a grid index whose pay is known to fall short (-1: none)
    hi: Point | None = None   # a grid point known to reach the target
    top = own                 # where the next Newton step starts (at or above the break-even)
    if own.ret < target:
        lo_k = math.floor(own.pay / step)  # below the paytable's pay: shorter still
        root = _tangent_root(own, target)
        guess = cap if root is None else min(_ceil(root, step), cap)
        top = hi = solver.point(guess)
        if top.ret < target:
            label = solver.pt.lines[solver.line].label
            why = "" if cap == max_pay else \
                " (the largest pay the exact 64-bit arithmetic takes for this game)"
            raise InputError(f"the return of {solver.pt.name} does not reach {percent(target)} "
                             f"with {label} paying up to {pay_text(cap)} per credit{why}: "
                             f"{float(top.ret):.4%} there")
    for _ in range(MAX_NEWTON):
        root = _tangent_root(top, target)
        cand = top.pay - step if root is None else max(Fraction(0), _ceil(root, step))
        if hi is not None and cand >= hi.pay:
            cand = hi.pay - step  # the step stalls: is the grid point below still enough?
        if cand < 0 or math.floor(cand / step) <= lo_k:
            break
        p = solver.point(cand)
        if p.ret < target:
            lo_k = math.floor(cand / step)
            break
        top = hi = p
    if hi is None:  # the paytable's own pay reaches the target and sits off the grid
        hi = solver.point(_ceil(own.pay, step))
    hi_k = int(hi.pay / step)
    while hi_k - lo_k > 1:  # bisection: only when the Newton steps ran out
        mid = (hi_k + lo_k) // 2
        p = solver.point(mid * step)
        if p.ret >= target:
            hi, hi_k = p, mid
        else:
            lo_k = mid
    lo = solver.point(hi.pay - step) if hi.pay > 0 else None
    return Search(target, step, hi, lo, *_bounds(lo, hi, target))


def _bounds(lo: Point | None, hi: Point, target: Fraction) -> tuple[Fraction, Fraction]:
    """Convexity bounds on the real break-even between the grid points ``lo`` and ``hi``."""
    if lo is None:
        return hi.pay, hi.pay
    upper = hi.pay
    for p in (lo, hi):
        root = _tangent_root(p, target)
        if root is not None and lo.pay <= root < upper:
            upper = root
    lower = lo.pay + (target - lo.ret) * (hi.pay - lo.pay) / (hi.ret - lo.ret)
    return max(lower, lo.pay), upper


def meter(pay: Fraction, coins: int, bet: Fraction | None) -> dict[str, Any]:
    """The pay in a machine's terms: coins on a ``coins``-coin bet, and dollars for a ``bet``."""
    out: dict[str, Any] = {"coins": coins, "coins_paid": float(pay * coins)}
    if bet is not None:
        out.update({"bet": float(bet), "paid": float(pay * bet)})
    return out


def table_pays(start: Fraction, stop: Fraction, step: Fraction | None) -> list[Fraction]:
    """The pays of ``--table``: ``start`` to ``stop`` by ``step`` (default: 10 steps)."""
    if stop < start:
        raise InputError("{stop} {b} is below {start} {a}", "stop", b=pay_text(stop),
                         a=pay_text(start))
    if step is None:
        step = (stop - start) / (DEFAULT_TABLE_ROWS - 1) if stop > start else Fraction(1)
        step = max(Fraction(math.ceil(step * MAX_PAY_DENOMINATOR), MAX_PAY_DENOMINATOR),
                   Fraction(1, MAX_PAY_DENOMINATOR))
    if step <= 0:
        raise InputError("{step} must be above 0", "step")
    rows = math.floor((stop - start) / step) + 1
    if rows > MAX_TABLE_ROWS:
        raise InputError("{start} {a} to {stop} {b} by {by} is {rows} rows; at most {most} "
                         "(each is an exact solve)", "start", a=pay_text(start), b=pay_text(stop),
                         by=pay_text(step), rows=f"{rows:,}", most=MAX_TABLE_ROWS)
    return [start + i * step for i in range(rows)]


def pay_table(solver: PaySolver, pays: list[Fraction]) -> list[dict[str, Any]]:
    """One row per pay: the exact optimal return, the line's cycle, and how many deal classes
    (and deals) play differently from the paytable's own pay."""
    parts = len(pays) + 1  # the paytable's own pay, then each row: one share of the progress each
    with share(0.0, 1 / parts):
        base = solver.analysis(solver.own)
    deals = comb(solver.pt.deck_size, 5)
    out = []
    for i, pay in enumerate(pays):
        checkpoint((i + 1) / parts, f"row {i + 1} of {len(pays)}")
        try:
            solver.check(pay)
        except ConfigError:
            top = max_admissible(solver, Fraction(1, MAX_PAY_DENOMINATOR), Fraction(MAX_PAY))
            raise InputError(f"pay {pay_text(pay)} is too large for exact 64-bit arithmetic in "
                             f"{solver.pt.name} (at most {pay_text(top)})") from None
        with share((i + 1) / parts, (i + 2) / parts):
            a = solver.analysis(pay)
        rows = np.arange(len(a.best))
        changed = (a.best != base.best) & (a.ev[rows, a.best] - a.ev[rows, base.best] > EV_TIE)
        out.append({**solver.point(pay).as_json(), "classes_changed": int(changed.sum()),
                    "deals_changed": int(a.classes.weight[changed].sum()),
                    "deal_fraction_changed": float(a.classes.weight[changed].sum() / deals)})
    return out
