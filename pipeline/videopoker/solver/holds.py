"""One deal's 32 holds, exactly: the EV and second moment of each hold from the subset counts
(inclusion-exclusion over the held cards), the holds best first under the paytable's tie rule
with what each costs against the best, and the grade of one chosen hold.

The counts are :func:`pipeline.videopoker.solver.analysis.compute_counts`'s arrays or a built
artifact's datasets (:func:`pipeline.videopoker.catalog.paytable_file.artifact_counts`): only the 32 rows
this deal needs are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import Any, Protocol

import numpy as np

from pipeline.videopoker.paytables.deal_text import vp_cards_text
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.paytables.wild import JOKER

#: the one name of the hold that keeps no card (the CLI, the API and the page say it alike)
DRAW_FIVE = "draw five"


class Rows(Protocol):
    """Per-deal pay categories or one hold size's subset counts, indexed by a subset's colex
    index: an array, or a dataset of an open paytable artifact (only the rows a deal needs are
    read)."""

    def __getitem__(self, index: int, /) -> Any: ...


def _frac_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def hold_table(pt: Paytable, cards: list[int], pay_cat: Rows, counts: Sequence[Rows]
               ) -> list[dict[str, Any]]:
    """All 32 holds of one deal (cards in the user's order), best first.

    ``pay_cat`` and ``counts`` are the arrays of :func:`compute_counts` or the datasets of an
    artifact (:func:`artifact_counts`): only the 32 rows this deal needs are read.

    Each row: ``hold`` (held cards in the given order, or ``draw five``), ``positions``
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
                     "hold": vp_cards_text(cards[p] for p in positions) or DRAW_FIVE,
                     "ev": float(exact[m]), "ev_exact": _frac_text(exact[m]),
                     "cost": float(cost), "cost_exact": _frac_text(cost), "best": i == 0})
    return rows


def exact_hold_evs(hand: np.ndarray, pt: Paytable, pay_cat: Rows, counts: Sequence[Rows]
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


def grade_hold(pt: Paytable, cards: list[int], held: list[int], pay_cat: Rows,
               counts: Sequence[Rows]) -> dict[str, Any]:
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
