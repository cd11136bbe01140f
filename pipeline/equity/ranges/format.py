"""The range writer: a :class:`~pipeline.equity.ranges.parse.Range` as compact range text, the
inverse of :func:`~pipeline.equity.ranges.parse.parse_range` (``parse_range(format_range(r))``
holds the same hands with the same weights, bit for bit).

A class whose combos all share one weight is written by its class, and runs of such classes
with one weight are joined the way people write them: ``TT+``, ``77-55``, ``ATs+``,
``A5s-A2s``, ``KQo``. A weight below 1 follows as ``:w``, the shortest decimal that reads back
as the same float (never an exponent: the parser reads plain decimals). A class holding only
some of its combos, or combos of different weights, is written combo by combo (``AsKs``,
``AhKh:0.5``), highest cards first.

>>> from pipeline.equity.ranges.parse import parse_range
>>> format_range(parse_range("QQ+,AKs,A5s-A2s,KK:0.5"))
'AA,KK:0.5,QQ,AKs,A5s-A2s'
>>> format_range(parse_range("AA,AsAh:0.5,T9s"))
'T9s,AsAh:0.5,AsAd,AsAc,AhAd,AhAc,AdAc'
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from pipeline.core.cards import RANKS, card_text
from pipeline.core.constants import N_HAND_CLASSES, N_HOLE_PAIRS
from pipeline.equity.hands.starting_hands import HOLE_CARDS, hand_classes
from pipeline.equity.ranges.parse import Range

#: ranks from the ace down, as the grid's rows and columns run
TOP = len(RANKS) - 1
#: what every hand at one weight is written as
EVERY = "random"


@functools.cache
def _classes() -> tuple[np.ndarray, tuple[str, ...]]:
    """(class of each hand, class names in grid order)."""
    cls, names, _, _, _ = hand_classes()
    return cls, tuple(names)


@functools.cache
def _by_class() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(class of each hand, the hands ordered by class, where each class starts in that order)."""
    cls = _classes()[0]
    order = np.argsort(cls, kind="stable")
    starts = np.searchsorted(cls[order], np.arange(N_HAND_CLASSES))
    return cls, order, starts


def weight_text(w: float) -> str:
    """A weight as range text: ``""`` for 1, else ``":0.5"`` (the shortest plain decimal that
    parses back to the same float)."""
    if w == 1:
        return ""
    return ":" + np.format_float_positional(float(w), unique=True, trim="-")


def _combo_text(h: int) -> str:
    a, b = (int(c) for c in HOLE_CARDS[h])
    return card_text(b) + card_text(a)  # the higher card first


def _class_index(row: int, col: int) -> int:
    return row * len(RANKS) + col


def _runs(cells: list[int], weight: dict[int, float]) -> list[tuple[int, int, float]]:
    """The runs of equal weight along ``cells`` (strongest first), as (first position, last
    position, weight)."""
    out = []
    i = 0
    while i < len(cells):
        w = weight.get(cells[i])
        if w is None:
            i += 1
            continue
        j = i
        while j + 1 < len(cells) and weight.get(cells[j + 1]) == w:
            j += 1
        out.append((i, j, w))
        i = j + 1
    return out


def _write(runs: list[tuple[int, int, float]], cells: list[int], suffix: Callable[[str], str],
           out: list[str]) -> None:
    """Append each run as text: ``QQ+``/``ATs+`` when it starts at the top, ``77-55``/
    ``A5s-A2s`` otherwise, the class alone when it is one; ``suffix`` rewrites a class name
    (drops the ``s``/``o`` of a run both suits share)."""
    names = _classes()[1]
    for i, j, w in runs:
        a, b = suffix(names[cells[i]]), suffix(names[cells[j]])
        text = a if i == j else b + "+" if i == 0 else f"{a}-{b}"
        out.append(text + weight_text(w))


def format_weights(weights: np.ndarray) -> str:
    """Range text of float64[1326] weights (0 = not in the range); ``""`` for no hand."""
    w = np.asarray(weights, np.float64)
    if w.shape != (N_HOLE_PAIRS,):
        raise ValueError(f"weights of {N_HOLE_PAIRS} hands expected, got shape {w.shape}")
    cls, order, starts = _by_class()
    inside = w > 0
    ws = w[order]  # the hands' weights grouped by class, class after class
    n_in = np.add.reduceat(inside[order].astype(np.int64), starts)
    lo, hi = np.minimum.reduceat(ws, starts), np.maximum.reduceat(ws, starts)
    # a class written by its name: every combo in, all at one weight
    whole = {k: float(lo[k]) for k in np.flatnonzero((lo == hi) & (lo > 0)).tolist()}
    mixed = np.flatnonzero((n_in > 0) & ~((lo == hi) & (lo > 0))).tolist()
    out: list[str] = []
    if len(whole) == N_HAND_CLASSES and len(set(whole.values())) == 1:
        return EVERY + weight_text(next(iter(whole.values())))
    pairs = [_class_index(i, i) for i in range(len(RANKS))]
    _write(_runs(pairs, whole), pairs, str, out)
    for row in range(TOP):
        # kickers of the card of this row, from one below it down to the deuce
        suited = [_class_index(row, col) for col in range(row + 1, len(RANKS))]
        offsuit = [_class_index(col, row) for col in range(row + 1, len(RANKS))]
        rs, ro = _runs(suited, whole), _runs(offsuit, whole)
        if rs == ro:  # both suits alike: ``AT+``, ``A5-A2``, ``KQ``
            _write(rs, suited, lambda n: n[:2], out)
        else:
            _write(rs, suited, str, out)
            _write(ro, offsuit, str, out)
    for k in mixed:
        hands = np.flatnonzero((cls == k) & inside)
        for h in sorted(hands.tolist(), reverse=True):  # colex: higher cards first
            out.append(_combo_text(h) + weight_text(w[h]))
    return ",".join(out)


def format_range(r: Range) -> str:
    """Compact range text holding exactly ``r``'s hands and weights (see the module doc)."""
    w = np.zeros(N_HOLE_PAIRS, np.float64)
    w[r.hands] = r.weights
    return format_weights(w)


__all__ = ["format_range", "format_weights", "weight_text"]
