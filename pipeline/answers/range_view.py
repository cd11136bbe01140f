"""The page's range grid as the server computes it: a range (text, then cells painted on the grid
at a weight) written back as compact range text by the range writer
(:mod:`pipeline.equity.ranges.format`), with every one of the 169 cells counted (combos in the
range, live after the board and dead cards, blocked, weighted) and the totals as combos and as a
share of all hands. The page draws these numbers and computes none of them.

>>> from pipeline.answers import Context
>>> v = range_view(Context("artifacts"), "KK", board="Kh 7c 2d", paint=[("AKs", 0.5)])
>>> v["text"], v["combos"], v["weighted"], v["live_weighted"], v["live_percent"]
('KK,AKs:0.5', 10, 8, 4.5, 0.3...)
>>> [c for c in v["cells"] if c["class"] == "KK"][0]["blocked"]
3
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.answers import Context
from pipeline.answers.equity import number
from pipeline.core.cards import format_cards
from pipeline.core.constants import N_HAND_CLASSES, N_HOLE_PAIRS, N_RANKS, N_SUITS
from pipeline.equity.hands.starting_hands import HOLE_CARDS, hand_classes
from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.equity.ranges.parse import Strength

#: the most cells one request may paint (every class and every combo of a few)
MAX_PAINT = N_HOLE_PAIRS
PERCENT = 100
#: the card picker's rows as players read a deck: spades, hearts, diamonds, clubs (suit ids
#: 3..0), aces first
DECK_ROWS = [[format_cards([4 * rank + suit]) for rank in range(N_RANKS - 1, -1, -1)]
             for suit in range(N_SUITS - 1, -1, -1)]


def painted_weights(text: str, paint: Sequence[tuple[str, float]], strength: Strength) -> np.ndarray:
    """float64[1326]: the range ``text`` (empty: no hand) with each ``(token, weight)`` of
    ``paint`` applied in order (a token is any range token: ``AKs``, ``AsKs``, ``QQ+``; weight 0
    takes its hands out)."""
    from pipeline.equity.ranges.parse import parse_range

    w = np.zeros(N_HOLE_PAIRS, np.float64)
    if text.strip():
        r = parse_range(text, strength)
        w[r.hands] = r.weights
    if len(paint) > MAX_PAINT:
        raise InputError(f"paint: at most {MAX_PAINT} cells at once, got {len(paint)}")
    for token, weight in paint:
        if not 0 <= weight <= 1:
            raise InputError(f"paint weight {weight!r} for {token!r}: give a weight from 0 to 1")
        w[parse_range(token, strength).hands] = weight
    return w


def range_view(ctx: Context, range: str, board: str = "", dead: str = "",
               paint: Sequence[tuple[str, float]] = (), cell: str | None = None) -> dict[str, Any]:
    """The grid of ``range`` with ``paint`` applied: ``text`` (the range writer's text of the
    result, ``""`` when empty), ``cells`` (169, grid order: class, row, col, size, combos, live,
    blocked, weight, weighted, live_weighted, fill, live_fill, mixed), the totals, ``percent``
    (weighted combos as % of all 1,326 hands) and ``live_percent`` (live weighted combos as % of
    the hands the board and dead cards leave), the board and dead cards as lists, ``deck`` (the
    52 cards' texts in the card picker's rows), and with ``cell`` (a class name) that class's
    combos one by one (``hand``, ``weight``, ``live``)."""
    from pipeline.equity.question import board_and_dead
    from pipeline.equity.ranges.format import format_weights
    from pipeline.equity.ranges.grid import exact_weight, live_mask
    from pipeline.equity.seating import strength_loader

    w = painted_weights(range, paint, strength_loader(ctx.tables))
    b, d = board_and_dead(board, dead, (0, 1, 2, 3, 4, 5))
    live = live_mask(b + d)
    cls, names, rows, cols, _ = hand_classes()
    size = np.bincount(cls, minlength=N_HAND_CLASSES)
    inside = w > 0
    cells = []
    tot = [Fraction(0), Fraction(0)]  # weighted, live weighted
    for k, name in enumerate(names):
        sel = cls == k
        ws = w[sel & inside]
        weighted = sum((exact_weight(x) for x in ws.tolist()), Fraction(0))
        live_w = sum((exact_weight(x) for x in w[sel & inside & live].tolist()), Fraction(0))
        n, n_live = int(ws.size), int(np.count_nonzero(sel & inside & live))
        tot[0] += weighted
        tot[1] += live_w
        cells.append({"class": name, "row": int(rows[k]), "col": int(cols[k]), "size": int(size[k]),
                      "combos": n, "live": n_live, "blocked": n - n_live,
                      "weight": float(weighted / n) if n else 0.0,
                      "weighted": number(weighted), "live_weighted": number(live_w),
                      "fill": float(weighted / int(size[k])), "live_fill": float(live_w / int(size[k])),
                      "mixed": bool(n and (n < size[k] or np.unique(ws).size > 1))})
    live_hands = int(np.count_nonzero(live))
    out: dict[str, Any] = {
        "text": format_weights(w), "board": [format_cards([c]) for c in b],
        "dead": [format_cards([c]) for c in d], "cells": cells,
        "combos": int(np.count_nonzero(inside)), "weighted": number(tot[0]),
        "live": int(np.count_nonzero(inside & live)), "live_weighted": number(tot[1]),
        "live_hands": live_hands, "percent": float(PERCENT * tot[0] / N_HOLE_PAIRS),
        "live_percent": float(PERCENT * tot[1] / live_hands), "deck": DECK_ROWS}
    if cell is not None:
        out["cell"] = _cell_combos(cell, names, cls, w, live)
    return out


def _cell_combos(name: str, names: list[str], cls: np.ndarray, w: np.ndarray,
                 live: np.ndarray) -> dict[str, Any]:
    """One class's combos, highest cards first: each one's text, weight and whether it is live."""
    if name not in names:
        raise InputError(f"cell {name[:12]!r}: not a hand class (AA, AKs, AKo ...)")
    hands = sorted(np.flatnonzero(cls == names.index(name)).tolist(), reverse=True)
    return {"class": name, "combos": [
        {"hand": format_cards([int(HOLE_CARDS[h][1]), int(HOLE_CARDS[h][0])]),
         "weight": float(w[h]), "live": bool(live[h])} for h in hands]}


__all__ = ["range_view", "painted_weights", "MAX_PAINT"]
