"""A paytable's complete analysis: the optimal strategy of every deal class, the exact return,
variance and final-hand distribution (:func:`analyze`), and the published-style return table
(:func:`summary_dict`). One deal's holds are :mod:`pipeline.videopoker.solver.holds`'; the artifact is
:mod:`pipeline.videopoker.catalog.paytable_file`'s.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from pipeline.core.cancel import checkpoint
from pipeline.errors import ConfigError, InputError
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.solver.classify import classify_deals
from pipeline.videopoker.solver.deals import DealClasses, deal_classes, deck_hands
from pipeline.videopoker.solver.solve import draw_denominators, solve_holds
from pipeline.videopoker.solver.subsets import subset_counts


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


@dataclass
class Analysis:
    """Everything one paytable's optimal-strategy analysis produces."""

    paytable: Paytable
    classes: DealClasses
    pay_category: np.ndarray       # uint8[C(deck,5)] by colex
    counts: list[np.ndarray]       # counts[k]: uint32[C(deck,k), K]
    ev: np.ndarray                 # float64[N, 32] EV of every hold of every class
    best: np.ndarray               # uint8[N] best hold mask
    best_num: np.ndarray           # int64[N] exact best EV over L * scale
    best_counts: np.ndarray        # int64[N, K] final-hand counts of the best hold
    final_counts: list[int]        # per category, over ``denominator``
    denominator: int               # C(deck, 5) * L
    ev_denominator: int            # L * scale
    return_exact: Fraction
    variance: Fraction
    seconds: float
    second: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint8))      # uint8[N]
    second_num: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))  # int64[N]

    def error_cost(self) -> np.ndarray:
        """float64[N]: EV lost by the second-best hold (0 where every hold ties the best)."""
        return (self.best_num - self.second_num) / self.ev_denominator

    def summary(self) -> dict[str, Any]:
        """The return table as the CLI's JSON object."""
        return summary_dict(self.paytable, self.final_counts, self.denominator, self.seconds)


def check_pays(pt: Paytable) -> None:
    """Reject pays so large that exact EVs would overflow int64 (``ValueError`` naming the line)."""
    units, _ = pt.pay_units()
    ways, _, big = draw_denominators(pt.deck_size)
    for ln, u in zip(pt.lines, units):
        # the largest int64 in the solver is a hold's EV times L * scale, at most pay * L;
        # the low-variance rule compares (sum of pay^2 over draws) * C(R, d) <= (pay * C(R,5))^2
        too_big = int(u) * big >= 2 ** 62 or (
            pt.tie_break == "low-variance" and (int(u) * int(ways[5])) ** 2 >= 2 ** 63)
        if too_big:
            raise ConfigError(f"{pt.source or pt.name}:{ln.text_line}: pays {ln.pays} too large "
                             "(or too finely fractional) for exact 64-bit arithmetic")


def compute_counts(pt: Paytable) -> tuple[np.ndarray, list[np.ndarray]]:
    """Pay category of every deal and the subset-count arrays for a paytable."""
    check_pays(pt)
    checkpoint()
    pay_cat = classify_deals(pt, deck_hands(pt.deck_size, 5))
    checkpoint()
    counts = subset_counts(pay_cat, pt.n_categories, pt.deck_size)
    return pay_cat, counts


def analyze(pt: Paytable, classes: DealClasses | None = None,
            counts: tuple[np.ndarray, list[np.ndarray]] | None = None) -> Analysis:
    """Optimal strategy, exact return, variance and final-hand distribution of a paytable.

    ``classes`` defaults to the derived suit classes of the paytable's deck. ``counts`` may
    pass ``compute_counts`` of a paytable with the same lines (only the pays differing, no wild
    cards): they do not depend on the pays, so a pay sweep computes them once.
    """
    if classes is None:
        classes = deal_classes(pt.deck_size)
    if classes.deck_size != pt.deck_size:
        raise InputError(f"deal classes are for {classes.deck_size} cards, paytable needs {pt.deck_size}")
    t0 = time.perf_counter()
    if counts is None:
        pay_cat, subsets = compute_counts(pt)
    else:
        check_pays(pt)
        pay_cat, subsets = counts
    pays, scale = pt.pay_units()
    h = solve_holds(classes.hands, subsets, pay_cat, pays, scale, pt.deck_size, pt.tie_break)
    ev, best, best_num, best_counts = h.ev, h.best, h.best_num, h.best_counts
    ways, mult, big = draw_denominators(pt.deck_size)
    draws = 5 - np.array([bin(m).count("1") for m in range(32)], dtype=np.int64)
    factor = classes.weight * mult[draws[best]]
    # int64 is safe: each class adds at most 48 * L per category, in all <= C(54,5) * L < 2^63
    final = (best_counts * factor[:, None]).sum(axis=0)
    final_counts = [int(x) for x in final]
    denominator = checked_total(final_counts, pt.deck_size)
    pay_list = pt.pays
    ret = sum((Fraction(c) * p for c, p in zip(final_counts, pay_list)), Fraction(0)) / denominator
    second = sum((Fraction(c) * p * p for c, p in zip(final_counts, pay_list)), Fraction(0)) / denominator
    seconds = time.perf_counter() - t0
    return Analysis(pt, classes, pay_cat, subsets, ev, best, best_num, best_counts, final_counts,
                    denominator, big * scale, ret, second - ret * ret, seconds, h.second,
                    h.second_num)


def checked_total(final_counts: list[int], deck_size: int) -> int:
    """The number of deals x draws, ``C(deck, 5) * L``, which ``final_counts`` must add up to
    (an internal error if they do not: a solve lost or doubled some final hands)."""
    total = comb(deck_size, 5) * draw_denominators(deck_size)[2]
    if sum(final_counts) != total:
        raise AssertionError("final-hand counts do not add up to the number of deals x draws")
    return total


def summary_dict(pt: Paytable, final_counts: list[int], denominator: int, seconds: float
                 ) -> dict[str, Any]:
    """JSON shape of ``vp analyze``: name, return, return_exact, variance, total_combinations,
    lines (hand, pays, combinations, probability, return; last is ``nothing``), seconds."""
    pays = pt.pays
    ret = sum((Fraction(c) * p for c, p in zip(final_counts, pays)), Fraction(0)) / denominator
    second = sum((Fraction(c) * p * p for c, p in zip(final_counts, pays)), Fraction(0)) / denominator
    lines = []
    for label, p, c in zip(pt.labels, pays, final_counts):
        lines.append({"hand": label, "pays": _num(p), "combinations": int(c),
                      "probability": c / denominator, "return": float(p * c / denominator)})
    return {"name": pt.name, "return": float(ret),
            "return_exact": f"{ret.numerator}/{ret.denominator}",
            "variance": float(second - ret * ret), "total_combinations": int(denominator),
            "lines": lines, "seconds": round(seconds, 4)}
