"""The English text of a strategy chart's lines ("4 to an outside straight, 0-2 high cards").

Each line is a set of hold patterns (:mod:`pipeline.videopoker.charts.patterns`); its text names the
family, the high cards and the penalty cards the way published charts do.
"""

from __future__ import annotations

from math import comb

import numpy as np

from pipeline.videopoker.charts.patterns import (
    F_FAM,
    F_N,
    F_W,
    FLUSH_PENALTY,
    HIGH,
    MULTI,
    PAT,
    PENALTY_TEXT,
    ROYAL_DRAW,
    STRAIGHT_PENALTY,
    GameTraits,
    family_key,
    pattern_base,
    pattern_variant,
)
from pipeline.videopoker.charts.patterns import field as code_field


def _high_range(mains: list[str]) -> str:
    nums = sorted({int(m.split()[0]) for m in mains})
    if len(nums) > 1 and nums == list(range(nums[0], nums[-1] + 1)):
        return f"{nums[0]}-{nums[-1]} high cards"
    return " or ".join(str(x) for x in nums) + (" high card" if nums == [1] else " high cards")


def _penalty_phrase(pens: set[int], universe: set[int]) -> str:
    if pens >= universe:
        return ""
    phrases = []
    for bit, word in ((FLUSH_PENALTY, "flush"), (STRAIGHT_PENALTY, "straight")):
        if all(not p & bit for p in pens) and any(u & bit for u in universe):
            phrases.append(f"no {word} penalty")
        elif all(p & bit for p in pens) and any(not u & bit for u in universe):
            phrases.append(f"{word} penalty")
    described = {u for u in universe if all(
        (("no " in ph) != bool(u & (FLUSH_PENALTY if "flush" in ph else STRAIGHT_PENALTY)))
        for ph in phrases)}
    if phrases and described == pens & universe:
        return ", ".join(phrases)
    rest = universe - pens
    if rest == {0}:
        return "with a penalty card"
    if len(rest) < len(pens):
        return "not with " + " or ".join(PENALTY_TEXT[p] for p in sorted(rest))
    return " or ".join(PENALTY_TEXT[p] for p in sorted(pens))


def _fmt(c0: int, traits: GameTraits, mains: list[str], all_mains: set[str]) -> str:
    """Text of one family line restricted to some variants (no penalty qualifier)."""
    fam = code_field(c0, F_FAM)
    base = pattern_base(c0, traits)
    w = code_field(c0, F_W)
    if fam == PAT:
        return ", ".join(mains) + (base[len("pat hand"):] if w and traits.wild != "deuces" or
                                   w and not any("deuces" in m for m in mains) else "")
    if fam == HIGH and code_field(c0, F_N) == 1:
        return " or ".join(mains) + " alone"
    if fam == HIGH:
        return "unsuited " + " or ".join(mains)
    if fam == ROYAL_DRAW and code_field(c0, F_N) == 2 and w == 0:
        return "suited " + " or ".join(mains)
    if fam == ROYAL_DRAW:
        n_nat = code_field(c0, F_N) - w
        return base + ("" if len(set(mains)) == comb(5, n_nat) else f" ({', '.join(mains)})")
    if fam == MULTI:
        groups = {m for m in mains if m}
        if not groups or groups >= {m for m in all_mains if m}:
            return base
        if groups <= {"high", "low"}:
            return " or ".join(sorted(groups)) + " " + base
        return f"{base} ({', '.join(sorted(groups))})"
    if mains and mains[0].startswith("lowest card"):
        order = "A3456789TJQK" if traits.wild == "deuces" else "A23456789TJQK"
        ranks = sorted((m.split()[-1] for m in mains), key=order.index)
        idx = [order.index(x) for x in ranks]
        span = f"{ranks[0]}-{ranks[-1]}" if len(ranks) > 2 and idx == list(
            range(idx[0], idx[-1] + 1)) else ", ".join(ranks)
        return f"{base}, lowest card {span}"
    if mains and mains[0].endswith(("high card", "high cards")):
        return f"{base}, {_high_range(mains)}"
    return base


def line_text(codes: list[int], traits: GameTraits, universe: dict[int, set[int]],
              universe_mains: dict[int, set[tuple[str, int]]]) -> str:
    """Readable text of one chart line (a run of patterns of one family).

    Variants that share a penalty qualifier are written together: "suited KQ or KJ (no
    penalty card); suited QJ".
    """
    c0 = codes[0]
    by_main: dict[str, set[int]] = {}
    for c in codes:
        main, pen = pattern_variant(c, traits)
        by_main.setdefault(main, set()).add(pen)
    all_mains = {m for m, _ in universe_mains.get(family_key(c0), set())}
    groups: dict[str, list[str]] = {}
    for m, pens in by_main.items():
        q = "" if -1 in pens else _penalty_phrase(pens, universe.get(hash((family_key(c0), m)),
                                                                       set()))
        groups.setdefault(q, []).append(m)
    parts = [_fmt(c0, traits, ms, all_mains) + (f" ({q})" if q else "")
             for q, ms in sorted(groups.items(), key=lambda kv: kv[0] != "")]
    return "; ".join(parts)


def pattern_universe(uniq: np.ndarray, traits: GameTraits
              ) -> tuple[dict[int, set[int]], dict[int, set[tuple[str, int]]]]:
    out: dict[int, set[int]] = {}
    mains: dict[int, set[tuple[str, int]]] = {}
    for c in uniq.tolist():
        main, pen = pattern_variant(c, traits)
        out.setdefault(hash((family_key(c), main)), set()).add(pen)
        mains.setdefault(family_key(c), set()).add((main, pen))
    return out, mains


__all__ = ["line_text", "pattern_universe"]
