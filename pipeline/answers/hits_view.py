"""The page's hits table: ``hits --json`` (the CLI's answer, unchanged) with what Flopzilla shows
beside it, all computed here: each category's classes (the grid cells its combos sit in) and
cumulative share (made hands, strongest first), combined categories (flush draw + gutshot,
pair + draw, ...), each class's categories (a click on a grid cell selects that class's combos)
and, against an opponent range, each category's equity.

Combined categories count a combo once when it holds every part (exact weight sums, as
``hits``); their definitions are :data:`COMBINED`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from pipeline.answers import Context
from pipeline.answers.equity import PERCENT, hits, number
from pipeline.equity.hands.starting_hands import HOLE_CARDS, hand_classes
from pipeline.equity.ranges import hits as h
from pipeline.errors import InputError

#: one pair made with a hole card (not trips, two pair or better, not ace high or nothing)
ONE_PAIR = (h.OVERPAIR, h.TP_TOP, h.TP_GOOD, h.TP_WEAK, h.PP_BELOW, h.MIDDLE, h.WEAK)
FLUSH_DRAW = (1 << h.FD_NUT) | (1 << h.FD_OTHER)
STRAIGHT_DRAW = (1 << h.OESD) | (1 << h.GUTSHOT)

Sel = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _has(bits: int) -> Sel:
    return lambda made, draws: (draws & np.uint8(bits)) != 0


def _pair(made: np.ndarray, draws: np.ndarray) -> np.ndarray:
    return np.isin(made, ONE_PAIR)


def _both(a: Sel, b: Sel) -> Sel:
    return lambda made, draws: a(made, draws) & b(made, draws)


def _either(a: Sel, b: Sel) -> Sel:
    return lambda made, draws: a(made, draws) | b(made, draws)


def _pair_or_better(made: np.ndarray, draws: np.ndarray) -> np.ndarray:
    return made <= h.WEAK


_FD, _SD = _has(FLUSH_DRAW), _has(STRAIGHT_DRAW)
_OESD, _GUT, _OVER = _has(1 << h.OESD), _has(1 << h.GUTSHOT), _has(1 << h.OVERCARDS)
#: combined categories: (name, which combos hold it)
COMBINED: tuple[tuple[str, Sel], ...] = (
    ("flush draw + open-ended", _both(_FD, _OESD)),
    ("flush draw + gutshot", _both(_FD, _GUT)),
    ("flush draw + pair", _both(_FD, _pair)),
    ("open-ended + pair", _both(_OESD, _pair)),
    ("gutshot + pair", _both(_GUT, _pair)),
    ("flush draw + overcards", _both(_FD, _OVER)),
    ("straight draw + overcards", _both(_SD, _OVER)),
    ("pair + any draw", _both(_pair, _either(_FD, _SD))),
    ("any flush or straight draw", _either(_FD, _SD)),
    ("pair or better", _pair_or_better),
    ("pair or better, or a draw", _either(_pair_or_better, _either(_FD, _SD))),
)


def exact_sums(weights: np.ndarray, groups: list[np.ndarray]) -> tuple[list[Fraction], Fraction]:
    """Exact weight sums over each boolean selector and in all: the weights as written (the
    shortest decimal of each float), added as integers over their common denominator."""
    uniq = np.unique(weights)
    fr = [Fraction(repr(float(w))) for w in uniq]
    den = math.lcm(*(f.denominator for f in fr))
    ints = np.array([f.numerator * (den // f.denominator) for f in fr], np.int64)[np.searchsorted(uniq, weights)]
    return [Fraction(int(ints[g].sum()), den) for g in groups], Fraction(int(ints.sum()), den)


def _classify(ctx: Context, range: str, board: str, dead: str
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(live hands, their weights, made code, draw flags) of the range on the board."""
    from pipeline.equity.question import MADE_BOARD_SIZES, board_and_dead
    from pipeline.equity.ranges.parse import parse_range
    from pipeline.equity.seating import strength_loader

    rng = parse_range(range, strength_loader(ctx.tables))
    b, d = board_and_dead(board, dead, MADE_BOARD_SIZES)
    m = 0
    for c in b + d:
        m |= 1 << c
    from pipeline.equity.hands.starting_hands import HOLE_MASKS

    keep = (HOLE_MASKS[rng.hands] & np.uint64(m)) == 0
    hands, weights = rng.hands[keep], rng.weights[keep]
    t = ctx.tables().eval_tables()
    made, draws = h.classify(HOLE_CARDS[hands], np.asarray(b, np.int64), t.card_keys, t.offsets,
                             t.ranks, t.flush)
    return hands, weights, made, draws


def _classes_of(hands: np.ndarray) -> list[str]:
    cls, names, _, _, _ = hand_classes()
    return sorted({names[k] for k in cls[hands].tolist()}, key=names.index)


def hits_view(ctx: Context, range: str, board: str, dead: str = "", vs: str | None = None,
              samples: int | None = None, seed: int | None = None) -> dict[str, Any]:
    """``hits --json`` plus, for each made and draw row, ``classes`` and (made rows)
    ``cumulative`` (% of the live range holding this category or a stronger one); ``combined``
    (rows of :data:`COMBINED` with combos, %, classes, combo_list); ``by_class`` (each class's
    live combos and the rows they fall in); with ``vs`` (an opponent range, ``random`` for a
    random hand) ``equity`` on every row: the category's combos' equity against it."""
    from pipeline.equity.question import Ask, Question

    out: dict[str, Any] = hits(ctx, Question.parse(range, board=board, dead=dead, ask=Ask.HITS))
    hands, weights, made, draws = _classify(ctx, range, board, dead)
    groups = [made == k for k, _ in enumerate(h.MADE)] + \
             [(draws & np.uint8(1 << k)) != 0 for k, _ in enumerate(h.DRAWS)] + \
             [sel(made, draws) for _, sel in COMBINED]
    sums, total = exact_sums(weights, groups)
    rows = out["made"] + out["draws"]
    running = Fraction(0)
    for i, row in enumerate(rows):
        row["classes"] = _classes_of(hands[groups[i]])
        if row["kind"] == "made":
            running += sums[i]
            row["cumulative"] = float(PERCENT * running / total)
    n = len(rows)
    out["combined"] = [
        {"kind": "combined", "category": name, "combos": number(sums[n + j]),
         "hands": int(groups[n + j].sum()), "percent": float(PERCENT * sums[n + j] / total),
         "classes": _classes_of(hands[groups[n + j]]),
         "combo_list": list(h.combo_texts(hands[groups[n + j]], weights[groups[n + j]]))}
        for j, (name, _) in enumerate(COMBINED)]
    cls, names, _, _, _ = hand_classes()
    by_class: dict[str, dict[str, Any]] = {}
    every = rows + out["combined"]
    for k in sorted(set(cls[hands].tolist())):
        sel = cls[hands] == k
        by_class[names[k]] = {
            "combo_list": list(h.combo_texts(hands[sel], weights[sel])),
            "rows": [f"{r['kind']}:{r['category']}" for r, g in zip(every, groups) if (g & sel).any()]}
    out["by_class"] = by_class
    if vs is not None:
        _equity_by_row(ctx, out, every, groups, hands, range, vs, board, dead, samples, seed)
    return out


def _equity_by_row(ctx: Context, out: dict[str, Any], rows: list[dict[str, Any]],
                   groups: list[np.ndarray], hands: np.ndarray, range: str, vs: str, board: str,
                   dead: str, samples: int | None, seed: int | None) -> None:
    """Each row's equity against ``vs``: the range split by combo (``equity --breakdown``), each
    combo's share of the deals times its equity, summed over the row's combos (exact when the
    breakdown is)."""
    from pipeline.answers.equity import equity
    from pipeline.core.cards import parse_cards
    from pipeline.equity.hands.starting_hands import hole_index
    from pipeline.equity.question import Question

    bd: dict[str, Any] = equity(ctx, Question.parse(range, [vs], board=board, dead=dead,
                                                    samples=samples, seed=seed, breakdown=0))
    by_hand: dict[int, dict[str, Any]] = {}
    for c in bd["breakdown"]["combos"]:
        a, b = parse_cards(c["hand"])
        by_hand[hole_index(a, b)] = c
    missing = [int(x) for x in hands.tolist() if int(x) not in by_hand]
    if missing:
        raise InputError("the breakdown lacks some of the range's live combos")  # pragma: no cover
    exact = all("equity_exact" in c for c in by_hand.values())
    for row, g in zip(rows, groups):
        picked = [by_hand[int(x)] for x in hands[g].tolist()]
        if not picked:
            row["equity"] = None
            continue
        if exact:
            f = [Fraction(c["frequency_exact"]) for c in picked]
            e = sum((fi * Fraction(c["equity_exact"]) for fi, c in zip(f, picked)), Fraction(0))
            row["equity"] = float(e / sum(f))
            row["equity_exact"] = str(e / sum(f))
        else:
            f2 = [c["frequency"] for c in picked]
            row["equity"] = sum(fi * c["equity"] for fi, c in zip(f2, picked)) / sum(f2)
    out["vs"] = vs
    out["equity"] = bd["equity"]
    out["method"] = bd["method"]


__all__ = ["hits_view", "COMBINED"]
