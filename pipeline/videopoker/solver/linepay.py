"""One line's pay moving over a range: the optimal strategy's exact final-hand counts at any pay
of the range from one pass over the deal classes (what a break-even search asks again and again).

With every other pay fixed, a hold's expected pay is linear in the moving line's pay ``p``:
``e(p) = (A + p * B) * mult`` with ``A`` the other lines' pays times the hold's final-hand
counts, ``B`` its count of the moving line and ``mult = L / C(R, cards drawn)``
(:mod:`pipeline.videopoker.solver.solve`). So one pass computes each deal class's 32 hold counts
once (the costly part of a solve: the subset-count rows each hold reads) and keeps only the holds
that can be best somewhere in ``[lo, hi]``: a hold some other hold beats at both ends (and
strictly at one) is beaten inside too. A class that keeps one hold plays it at every pay of the
range, so its final hands are added once into a constant; the others keep their few holds'
counts, and the counts at a pay are the constant plus each such class's best hold under the
paytable's tie rule, chosen exactly as the solver chooses (same integers, same rule).

The pay categories of a wild game depend on how the moving pay compares with the others
(:class:`pipeline.videopoker.tools.breakeven.PaySolver` keeps one range per such order); a range
serves pays whose order is the one its counts were made for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numba as nb
import numpy as np

from pipeline.core.parallel import run_rows
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.solver.deals import VP_BINOM, DealClasses
from pipeline.videopoker.solver.solve import TIE_CODES, better_hold, draw_denominators, hold_counts

#: parallel blocks of the scan (each keeps its own constant counts)
BLOCKS = 64
#: holds of a deal
HOLDS = 32
#: exact EVs (pay units x L) stay below this, as the solver's own check requires
LIMIT = 2 ** 62
#: ... and the low-variance rule's squared sums below this
SQUARE_LIMIT = 2 ** 63


@nb.njit(cache=True, nogil=True)
def _scan(b0: int, b1: int, hands: np.ndarray, weight: np.ndarray, c0: np.ndarray, c1: np.ndarray,
          c2: np.ndarray, c3: np.ndarray, c4: np.ndarray, pay_cat: np.ndarray, pays: np.ndarray,
          line: int, lo: int, hi: int, mult: np.ndarray, binom: np.ndarray, keep: np.ndarray,
          const: np.ndarray) -> None:
    """``keep[i]``: bit mask of the holds of deal ``i`` that may be best at some pay in
    ``[lo, hi]`` (pay units), 0 when only one may (its final hands, times the class weight and
    ``mult``, then go into ``const[block]``); the deals of blocks ``b0:b1`` (threads take
    blocks: :func:`run_rows`)."""
    n = hands.shape[0]
    k_cat = pays.shape[0]
    blocks = const.shape[0]
    g = np.empty((HOLDS, k_cat), np.int64)  # every slot rewritten for each deal
    kept = np.empty(HOLDS, np.int64)
    e_lo = np.empty(HOLDS, np.int64)
    e_hi = np.empty(HOLDS, np.int64)
    for blk in range(b0, b1):
        for i in range(blk * n // blocks, (blk + 1) * n // blocks):
            hold_counts(hands, i, c0, c1, c2, c3, c4, pay_cat, binom, g, kept)
            for m in range(HOLDS):
                a = np.int64(0)
                for p in range(k_cat):
                    if p != line:
                        a += pays[p] * g[m, p]
                f = mult[5 - kept[m]]
                e_lo[m] = (a + lo * g[m, line]) * f
                e_hi[m] = (a + hi * g[m, line]) * f
            top_lo = e_lo.max()
            top_hi = e_hi.max()
            mask = np.int64(0)
            for m in range(HOLDS):
                ok = e_lo[m] == top_lo or e_hi[m] == top_hi
                if not ok:
                    ok = True
                    for j in range(HOLDS):
                        if e_lo[j] >= e_lo[m] and e_hi[j] >= e_hi[m] and \
                                (e_lo[j] > e_lo[m] or e_hi[j] > e_hi[m]):
                            ok = False
                            break
                if ok:
                    mask |= np.int64(1) << m
            if mask & (mask - 1):
                keep[i] = mask
            else:
                keep[i] = 0
                m = 0
                while not (mask >> m) & 1:
                    m += 1
                f = weight[i] * mult[5 - kept[m]]
                for p in range(k_cat):
                    const[blk, p] += g[m, p] * f


@nb.njit(cache=True, nogil=True)
def _fill(j0: int, j1: int, hands: np.ndarray, deals: np.ndarray, keep: np.ndarray,
          starts: np.ndarray, c0: np.ndarray, c1: np.ndarray, c2: np.ndarray, c3: np.ndarray,
          c4: np.ndarray, pay_cat: np.ndarray, pays: np.ndarray, line: int, binom: np.ndarray,
          hold: np.ndarray, kept_out: np.ndarray, a_out: np.ndarray, q_out: np.ndarray,
          g_out: np.ndarray) -> None:
    """The kept holds of the deals ``deals[j0:j1]`` (rows ``starts[j]:starts[j + 1]``): hold
    mask, cards kept, the other lines' pay sum ``A`` and pay-square sum ``Q``, and all counts."""
    k_cat = pays.shape[0]
    g = np.empty((HOLDS, k_cat), np.int64)  # every slot rewritten for each deal
    kept = np.empty(HOLDS, np.int64)
    for j in range(j0, j1):
        hold_counts(hands, deals[j], c0, c1, c2, c3, c4, pay_cat, binom, g, kept)
        mask = keep[deals[j]]
        r = starts[j]
        for m in range(HOLDS):
            if (mask >> m) & 1:
                a = np.int64(0)
                q = np.int64(0)
                for p in range(k_cat):
                    if p != line:
                        a += pays[p] * g[m, p]
                        q += pays[p] * pays[p] * g[m, p]
                    g_out[r, p] = g[m, p]
                hold[r] = m
                kept_out[r] = kept[m]
                a_out[r] = a
                q_out[r] = q
                r += 1


@nb.njit(cache=True)
def _at(starts: np.ndarray, weight: np.ndarray, hold: np.ndarray, kept: np.ndarray,
        a: np.ndarray, q: np.ndarray, g: np.ndarray, line: int, pay: int, mult: np.ndarray,
        ways: np.ndarray, mode: int, best: np.ndarray, acc: np.ndarray) -> None:
    """Each range deal's best kept row at pay ``pay`` (units) into ``best``, and its final
    hands (times weight and ``mult``) added into ``acc``: :func:`better_hold`'s exact order."""
    e = np.empty(HOLDS, np.int64)
    s2 = np.zeros(HOLDS, np.int64)
    kk = np.empty(HOLDS, np.int64)
    k_cat = acc.shape[0]
    for j in range(starts.shape[0] - 1):
        r0 = starts[j]
        n = starts[j + 1] - r0
        for t in range(n):
            r = r0 + t
            e[t] = (a[r] + pay * g[r, line]) * mult[5 - kept[r]]
            s2[t] = q[r] + pay * pay * g[r, line]
            kk[t] = kept[r]
        b = 0
        for t in range(1, n):
            # the rows of a deal are in hold-mask order, so comparing row numbers compares masks
            if better_hold(t, np.int64(b), e, kk, s2, ways, mode):
                b = t
        best[j] = r0 + b
        f = weight[j] * mult[5 - kept[r0 + b]]
        for p in range(k_cat):
            acc[p] += g[r0 + b, p] * f


@dataclass(frozen=True)
class LineRange:
    """The holds that can be best for one line's pay in ``[lo, hi]`` (see the module doc)."""

    line: int
    lo: Fraction
    hi: Fraction
    scale: int              # pay units per credit of the range's pays
    pays: np.ndarray        # int64[K] pay units (the moving line's entry unused)
    const: np.ndarray       # int64[K] final hands of the classes that keep one hold
    deals: np.ndarray       # int64[M] the classes that keep several (ascending)
    weight: np.ndarray      # int64[M] their weights
    starts: np.ndarray      # int64[M + 1] their rows
    hold: np.ndarray        # int64[R] hold mask of each row
    kept: np.ndarray        # int64[R] cards it keeps
    a: np.ndarray           # int64[R] sum of the other lines' pay units x counts
    q: np.ndarray           # int64[R] sum of their squares x counts (low-variance rule)
    g: np.ndarray           # int64[R, K] final-hand counts of the hold
    deck_size: int
    tie_break: str

    def units(self, pay: Fraction) -> int:
        """``pay`` in the range's units (``ValueError`` when it is not a whole number of them)."""
        u = pay * self.scale
        if u.denominator != 1:
            raise ValueError(f"pay {pay} is not on the range's grid of 1/{self.scale}")
        return int(u)

    def counts_at(self, pay: Fraction) -> tuple[list[int], np.ndarray]:
        """Exact final-hand counts of the optimal strategy at ``pay`` (over ``C(deck, 5) * L``,
        as :func:`pipeline.videopoker.solver.analysis.analyze` gives them) and the chosen row
        of every range class."""
        if not self.lo <= pay <= self.hi:
            raise ValueError(f"pay {pay} outside the range [{self.lo}, {self.hi}]")
        ways, mult, _ = draw_denominators(self.deck_size)
        best = np.empty(len(self.deals), np.int64)
        acc = np.zeros(len(self.pays), np.int64)
        _at(self.starts, self.weight, self.hold, self.kept, self.a, self.q, self.g, self.line,
            self.units(pay), mult, ways, TIE_CODES[self.tie_break], best, acc)
        return [int(x) for x in self.const + acc], best

    def ev(self, rows: np.ndarray, pay: Fraction) -> np.ndarray:
        """float64 EV per credit of ``rows`` at ``pay``, computed as the solver's ``ev`` table is
        (the exact integer pay sum over the draws, then divided), so equal to its floats."""
        ways, _, _ = draw_denominators(self.deck_size)
        s = self.a[rows] + self.units(pay) * self.g[rows, self.line]
        return s / ways[5 - self.kept[rows]] / self.scale


class RangeTooLarge(ValueError):
    """The range's pay units would overflow the exact 64-bit arithmetic at a pay it must serve."""


def line_range(pt: Paytable, line: int, classes: DealClasses,
               counts: tuple[np.ndarray, list[np.ndarray]], lo: Fraction, hi: Fraction,
               grid: Fraction = Fraction(1), must: tuple[Fraction, ...] = ()) -> LineRange:
    """The :class:`LineRange` of line ``line`` of ``pt`` over pays ``[lo, hi]``, from the pay
    categories and subset counts ``counts`` (those of the pays' order in a wild game).

    Pays are counted in units of ``1 / scale``: the lcm of the denominators of the other pays,
    ``grid``, ``lo`` and the pays in ``must``, so those and every multiple of ``grid`` are
    whole. ``hi`` is lowered to the largest pay whose units keep every hold's exact EV within
    the solver's 64-bit bound (:func:`pipeline.videopoker.solver.analysis.check_pays`'s); a pay
    of ``must`` above that raises :class:`RangeTooLarge`.
    """
    scale = lcm(*(p.denominator for j, p in enumerate(pt.pays) if j != line),
                grid.denominator, lo.denominator, *(p.denominator for p in must))
    pays = np.array([0 if j == line else int(p * scale) for j, p in enumerate(pt.pays)], np.int64)
    ways, mult, big = draw_denominators(pt.deck_size)
    top = (LIMIT - 1) // big  # largest pay units whose EVs stay below the bound
    if pt.tie_break == "low-variance":
        top = min(top, math.isqrt(SQUARE_LIMIT - 1) // int(ways[5]))
    if int(pays.max()) > top or any(p * scale > top for p in must):
        raise RangeTooLarge(f"pays of {pt.name} at 1/{scale} credit do not fit 64-bit EVs")
    hi = min(hi, Fraction(top, scale))
    hi_u = math.floor(hi * scale)
    pay_cat, sub = counts
    n = len(classes)
    keep = np.zeros(n, np.int64)
    const = np.zeros((BLOCKS, len(pays)), np.int64)
    run_rows(_scan, BLOCKS, classes.hands, classes.weight, sub[0], sub[1], sub[2], sub[3], sub[4],
             pay_cat, pays, line, int(lo * scale), hi_u, mult, VP_BINOM, keep, const)
    deals = np.flatnonzero(keep).astype(np.int64)
    sizes = np.array([bin(int(m)).count("1") for m in keep[deals]], np.int64)
    starts = np.zeros(len(deals) + 1, np.int64)
    np.cumsum(sizes, out=starts[1:])
    rows = int(starts[-1])
    hold = np.empty(rows, np.int64)
    kept = np.empty(rows, np.int64)
    a = np.empty(rows, np.int64)
    q = np.empty(rows, np.int64)
    g = np.empty((rows, len(pays)), np.int64)
    run_rows(_fill, len(deals), classes.hands, deals, keep, starts, sub[0], sub[1], sub[2], sub[3],
             sub[4], pay_cat, pays, line, VP_BINOM, hold, kept, a, q, g)
    return LineRange(line, lo, Fraction(hi_u, scale), scale, pays, const.sum(axis=0), deals,
                     classes.weight[deals].astype(np.int64), starts, hold, kept, a, q, g,
                     pt.deck_size, pt.tie_break)
