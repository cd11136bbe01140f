"""A paytable's complete analysis, its summary (the published-style return table), the holds
of one deal, and the ``paytables/<slug>.h5`` artifact (written by the stage, read by the CLI).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np

from pipeline.core.cards import card_text, parse_cards
from pipeline.errors import ConfigError, InputError
from pipeline.videopoker.classify import classify_deals
from pipeline.videopoker.deals import DealClasses, deal_classes, deck_hands
from pipeline.videopoker.paytable import Paytable
from pipeline.videopoker.solve import draw_denominators, solve_holds
from pipeline.videopoker.subsets import subset_counts
from pipeline.videopoker.wild import JOKER

JOKER_TEXT = "Jk"


def vp_card_text(c: int) -> str:
    """Card text, with ``Jk`` for the joker (card 52)."""
    return JOKER_TEXT if int(c) >= JOKER else card_text(int(c))


def vp_cards_text(cards: Any) -> str:
    """Space-separated card text of a sequence of ids (joker as ``Jk``)."""
    return " ".join(vp_card_text(c) for c in cards)


def parse_deal(text: str, deck_size: int) -> list[int]:
    """Parse five cards of a deal (``Jk``/``joker`` allowed in joker games, twice with two
    jokers); ids in order (the first joker is 52, the second 53)."""
    ids: list[int] = []
    jokers = deck_size - 52
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        if word.lower() in ("jk", "joker", "jkr"):
            if jokers == 0:
                raise InputError(f"bad card {word!r}: the joker is only dealt in joker games")
            used = sum(1 for c in ids if c >= JOKER)
            if used >= jokers:
                raise InputError("duplicate card Jk" if jokers == 1 else
                                 f"too many jokers: the deck has {jokers}")
            ids.append(JOKER + used)
        else:
            for c in parse_cards(word):
                if c in ids:
                    raise InputError(f"duplicate card {card_text(c)}")
                ids.append(c)
    if len(ids) != 5:
        raise InputError(f"expected 5 cards, got {len(ids)}: {vp_cards_text(ids) or '(none)'}")
    return ids


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
    pay_cat = classify_deals(pt, deck_hands(pt.deck_size, 5))
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
    denominator = comb(pt.deck_size, 5) * big
    if sum(final_counts) != denominator:
        raise AssertionError("final-hand counts do not add up to the number of deals x draws")
    pay_list = pt.pays
    ret = sum((Fraction(c) * p for c, p in zip(final_counts, pay_list)), Fraction(0)) / denominator
    second = sum((Fraction(c) * p * p for c, p in zip(final_counts, pay_list)), Fraction(0)) / denominator
    seconds = time.perf_counter() - t0
    return Analysis(pt, classes, pay_cat, subsets, ev, best, best_num, best_counts, final_counts,
                    denominator, big * scale, ret, second - ret * ret, seconds, h.second,
                    h.second_num)


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


def _frac_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def hold_table(pt: Paytable, cards: list[int], pay_cat: Any, counts: Sequence[Any]
               ) -> list[dict[str, Any]]:
    """All 32 holds of one deal (cards in the user's order), best first.

    ``pay_cat`` and ``counts`` are the arrays of :func:`compute_counts` or the datasets of an
    artifact (:func:`artifact_counts`): only the 32 rows this deal needs are read.

    Each row: ``hold`` (held cards in the given order, or ``discard all``), ``positions``
    (1-based positions kept), ``held``, ``ev``, ``ev_exact``, ``cost`` and ``cost_exact`` (EV
    given up against the best hold, exactly as ``num/den``), ``best``. Equal EVs are ordered by
    the paytable's tie-break rule, so the first row is the solver's best hold.
    """
    order = sorted(range(5), key=lambda t: cards[t])
    hand = np.array([[cards[t] for t in order]], dtype=np.uint8)
    exact, moment2 = exact_hold_evs(hand, pt, pay_cat, counts)
    low_var = pt.tie_break == "low-variance"
    by_cards = pt.tie_break != "lowest-mask"
    # the solver's tie-break: equal EV -> (lower variance) -> (fewer cards) -> lower mask
    masks = sorted(range(32), key=lambda m: (-exact[m], moment2[m] if low_var else 0,
                                             bin(m).count("1") if by_cards else 0, m))
    top = exact[masks[0]]
    rows: list[dict[str, Any]] = []
    for i, m in enumerate(masks):
        positions = sorted(order[t] for t in range(5) if m >> t & 1)
        cost = top - exact[m]
        rows.append({"positions": [p + 1 for p in positions], "held": len(positions),
                     "hold": vp_cards_text(cards[p] for p in positions) or "discard all",
                     "ev": float(exact[m]), "ev_exact": _frac_text(exact[m]),
                     "cost": float(cost), "cost_exact": _frac_text(cost), "best": i == 0})
    return rows


def exact_hold_evs(hand: np.ndarray, pt: Paytable, pay_cat: Any, counts: Sequence[Any]
                   ) -> tuple[list[Fraction], list[Fraction]]:
    """Exact EV and exact second moment E[pay^2] of each of the 32 holds of one sorted deal
    (``hand`` uint8[1, 5] ascending; Python ints from the integer counts, for display)."""
    from pipeline.core.cards import COLEX_WEIGHTS

    cards = [int(c) for c in hand[0]]
    g: list[list[int]] = []
    for m in range(32):
        sub = [cards[t] for t in range(5) if m >> t & 1]
        k = len(sub)
        idx = sum(comb(c, i + 1) if c >= JOKER else COLEX_WEIGHTS[i + 1][c]
                  for i, c in enumerate(sub))
        if k == 5:
            row = [0] * pt.n_categories
            row[int(pay_cat[idx])] = 1
        else:
            row = [int(x) for x in counts[k][idx]]
        g.append(row)
    for b in range(5):
        for m in range(32):
            if not m >> b & 1:
                g[m] = [x - y for x, y in zip(g[m], g[m | 1 << b])]
    pays = pt.pays
    rest = pt.deck_size - 5
    ways = [comb(rest, 5 - bin(m).count("1")) for m in range(32)]
    evs = [sum((Fraction(n) * p for n, p in zip(g[m], pays)), Fraction(0)) / ways[m]
           for m in range(32)]
    m2 = [sum((Fraction(n) * p * p for n, p in zip(g[m], pays)), Fraction(0)) / ways[m]
          for m in range(32)]
    return evs, m2


def grade_hold(pt: Paytable, cards: list[int], held: list[int], pay_cat: Any,
               counts: Sequence[Any]) -> dict[str, Any]:
    """The cost of holding ``held`` (card ids, a subset of ``cards``) against the best hold.

    Returns ``hold``, ``ev``/``ev_exact``, ``best_hold``, ``best_ev``/``best_ev_exact``,
    ``cost``/``cost_exact`` (exact ``num/den``), ``rank`` (1 = an optimal hold; holds with a
    higher EV + 1) and ``optimal`` (cost is zero).
    """
    rows = hold_table(pt, cards, pay_cat, counts)
    want = sorted(cards.index(c) + 1 for c in held)
    mine = next(r for r in rows if r["positions"] == want)
    ev = Fraction(mine["ev_exact"])
    rank = 1 + sum(1 for r in rows if Fraction(r["ev_exact"]) > ev)
    best = rows[0]
    return {"hold": mine["hold"], "ev": mine["ev"], "ev_exact": mine["ev_exact"],
            "best_hold": best["hold"], "best_ev": best["ev"], "best_ev_exact": best["ev_exact"],
            "cost": mine["cost"], "cost_exact": mine["cost_exact"], "rank": rank,
            "optimal": mine["cost_exact"] == "0/1"}


def parse_hold(text: str, cards: list[int], deck_size: int) -> list[int]:
    """The held cards of a deal from ``"Js Jd"`` (cards, any order), ``"10010"`` (a 0/1 flag
    per position of the deal), ``"none"``/``"-"`` (discard all) or ``"all"``."""
    t = text.strip().lower()
    if t in ("none", "-", "discard", "discard all", "draw 5"):
        return []
    if t == "all":
        return list(cards)
    if re.fullmatch(r"[01]{5}", t):
        return [c for c, f in zip(cards, t) if f == "1"]
    if re.fullmatch(r"[0-9]+", t):
        raise InputError(f"bad hold {text!r}: a position mask has five 0/1 digits, e.g. 10010")
    held: list[int] = []
    jokers_in_deal = [c for c in cards if c >= JOKER]
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        if word.lower() in ("jk", "joker", "jkr"):
            free = [c for c in jokers_in_deal if c not in held]
            if not free:
                raise InputError(f"bad hold {text!r}: Jk is not in the deal "
                                 f"{vp_cards_text(cards)} (or held twice)")
            held.append(free[0])
            continue
        for c in parse_cards(word):
            if c not in cards:
                raise InputError(f"bad hold {text!r}: {card_text(c)} is not in the deal "
                                 f"{vp_cards_text(cards)}")
            if c in held:
                raise InputError(f"bad hold {text!r}: {card_text(c)} held twice")
            held.append(c)
    return held


# ---------------------------------------------------------------- the artifact
