"""What a range holds: per starting-hand class its weight, combos and live combos (after the
board and dead cards), the 13x13 grid layout, and the classes each ``N%`` token chose.

Weighted counts are exact :class:`fractions.Fraction` sums of the weights as written (a weight
``0.33`` counts 33/100), so no float rounding enters a total.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from pipeline.core.cards import format_cards
from pipeline.core.constants import N_HAND_CLASSES, N_HOLE_PAIRS, N_RANKS
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_MASKS, hand_classes
from pipeline.equity.ranges.parse import Range, Strength, percent_choices

#: Rows and columns of the grid (A..2).
GRID_SIDE = N_RANKS


@dataclass(frozen=True)
class ClassRow:
    """One starting-hand class of a range."""

    name: str          # "AKs", "QQ", "T9o"
    row: int           # grid row, 0 = Ace
    col: int           # grid column, 0 = Ace
    weight: Fraction   # mean weight of the class's combos in the range (the weight when uniform)
    mixed: bool        # True when the class's combos carry different weights, or only some of
    #                    the class's combos are in the range (``AsKs``): ``name:weight`` would
    #                    not read back as the same combos
    combos: int        # combos of the class in the range (weight > 0)
    live: int          # of those, combos touching no board or dead card
    live_weighted: Fraction
    #: for a mixed class, its combos in the range with their weights (``("As Ks", 1)``), so the
    #: grid still reads back as the range; empty otherwise
    hands: tuple[tuple[str, Fraction], ...] = ()

    @property
    def text(self) -> str:
        """The class as range text that reads back as the same combos and weights:
        ``QQ:0.5`` when uniform and complete, else its combos (``AsKs:1,AhKh:0.5``)."""
        if not self.mixed:
            return f"{self.name}:{_decimal(self.weight)}"
        return ",".join(f"{h.replace(' ', '')}:{_decimal(w)}" for h, w in self.hands)


@dataclass(frozen=True)
class RangeGrid:
    """A range by class, with totals and the ``N%`` choices."""

    rows: list[ClassRow]
    combos: int
    weighted: Fraction
    live: int
    live_weighted: Fraction
    #: live hands of all 1,326 (those touching no board or dead card)
    live_hands: int
    #: (token, names of the classes it chose, strongest first, combos) for each ``N%`` token
    percent: list[tuple[str, list[str], int]]


def _decimal(w: Fraction) -> str:
    """A weight as range text: ``1``, ``0.5`` (weights are written with few decimals)."""
    return str(w.numerator) if w.denominator == 1 else repr(float(w))


def exact_weight(w: float) -> Fraction:
    """The weight as the user wrote it (shortest decimal of the float), exactly."""
    return Fraction(repr(float(w)))


def live_mask(cards: list[int]) -> np.ndarray:
    """Boolean[1326]: hands touching none of ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return (HOLE_MASKS & np.uint64(m)) == 0


def range_grid(rng: Range, text: str, strength: Strength, removed: list[int]) -> RangeGrid:
    """The grid of ``rng`` (parsed from ``text``) with the hands touching ``removed`` dead."""
    cls, names, rows, cols, _ = hand_classes()
    size = np.bincount(cls, minlength=N_HAND_CLASSES)  # 6 pairs, 4 suited, 12 offsuit
    live = live_mask(removed)
    w = np.zeros(N_HOLE_PAIRS, np.float64)
    w[rng.hands] = rng.weights
    inr = w > 0
    combos = np.bincount(cls[inr], minlength=N_HAND_CLASSES)
    live_n = np.bincount(cls[inr & live], minlength=N_HAND_CLASSES)
    out: list[ClassRow] = []
    weighted = Fraction(0)
    live_weighted = Fraction(0)
    for k in np.flatnonzero(combos):
        # few distinct weights per class: sum exactly per distinct value, not per combo
        sel = inr & (cls == k)
        ws, n_all = np.unique(w[sel], return_counts=True)
        tot = sum((exact_weight(x) * int(n) for x, n in zip(ws, n_all)), Fraction(0))
        lw = Fraction(0)
        if live_n[k]:
            wl, nl = np.unique(w[sel & live], return_counts=True)
            lw = sum((exact_weight(x) * int(n) for x, n in zip(wl, nl)), Fraction(0))
        weighted += tot
        live_weighted += lw
        mixed = bool(len(ws) > 1 or combos[k] < size[k])
        members = tuple((format_cards(sorted(int(c) for c in HOLE_CARDS[h])[::-1]),
                         exact_weight(w[h])) for h in np.flatnonzero(sel)) if mixed else ()
        out.append(ClassRow(names[k], int(rows[k]), int(cols[k]), tot / int(combos[k]), mixed,
                            int(combos[k]), int(live_n[k]), lw, members))
    out.sort(key=lambda r: (r.row, r.col))
    percent = []
    choices = percent_choices(text, strength)
    if choices:
        key = np.asarray(strength() if callable(strength) else strength, np.int64)
        # a class's combos are equal by suit symmetry: its key is any combo's
        class_key = np.zeros(N_HAND_CLASSES, np.int64)
        class_key[cls] = key
        for token, hands in choices:
            chosen = np.flatnonzero(np.bincount(cls[hands], minlength=N_HAND_CLASSES))
            chosen = chosen[np.argsort(-class_key[chosen], kind="stable")]
            percent.append((token, [names[k] for k in chosen], int(hands.size)))
    return RangeGrid(out, int(inr.sum()), weighted, int((inr & live).sum()), live_weighted,
                     int(live.sum()), percent)


__all__ = ["ClassRow", "RangeGrid", "range_grid", "live_mask", "exact_weight",
           "GRID_SIDE"]
