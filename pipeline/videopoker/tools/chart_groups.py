"""A wild game's strategy chart split by the number of wild cards dealt ("4 deuces", "3 deuces",
... "no deuces"), the way strategy cards for Deuces Wild and Joker Poker are printed.

The split keeps the chart's meaning exactly: a deal is played by the first line whose pattern it
holds. Each line goes into the group of every wild count among the deals it decides, in the
chart's order; for a deal with k wild cards no line before its deciding one holds a pattern of
it, so within group k the first line it holds is the same deciding line. The per-group deals
and losses are those of the deals with that many wild cards (they add up to the chart's).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from pipeline.videopoker.charts.chart import Chart, StrategyData
from pipeline.videopoker.charts.patterns import game_traits, hold_codes
from pipeline.videopoker.paytables.wild import DEUCE_RANK, JOKER

#: what a wild card is called in a group's title
WILD_WORD = {"deuces": ("deuce", "deuces"), "joker": ("joker", "jokers")}


@dataclass(frozen=True)
class GroupLine:
    """A chart line within one wild-count group."""

    line: int          # the line's number in the whole chart (1-based)
    hold: str
    classes: int
    deals: int
    loss: float        # return lost on these deals vs optimal (per unit bet)

    def as_json(self) -> dict[str, Any]:
        """JSON object of the line (the chart's line keys)."""
        return {"line": self.line, "hold": self.hold, "classes": self.classes, "deals": self.deals,
                "loss": self.loss}


@dataclass(frozen=True)
class WildGroup:
    """The lines that decide the deals holding ``wilds`` wild cards, in the chart's order."""

    wilds: int
    title: str
    deals: int
    lines: list[GroupLine]

    def as_json(self) -> dict[str, Any]:
        """JSON object of the group."""
        return {"wilds": self.wilds, "title": self.title, "deals": self.deals,
                "lines": [ln.as_json() for ln in self.lines]}


def group_title(wild: str, k: int) -> str:
    """``"4 deuces"``, ``"1 deuce"``, ``"no deuces"``, ``"1 joker"``."""
    one, many = WILD_WORD[wild]
    return f"no {many}" if k == 0 else f"{k} {one if k == 1 else many}"


def deciding_lines(chart: Chart, data: StrategyData) -> np.ndarray:
    """int64[N]: the index of the line that decides each deal class (the first line holding
    one of the class's hold patterns), as the chart is read."""
    codes = hold_codes(data.hands, data.deal_cat, game_traits(data.paytable))
    line_of: dict[int, int] = {}
    for i, ln in enumerate(chart.lines):
        for c in ln.codes:
            line_of.setdefault(int(c), i)
    keys = np.array(sorted(line_of), np.int64)
    vals = np.array([line_of[int(k)] for k in keys], np.int64)
    none = len(chart.lines)
    pos = np.clip(np.searchsorted(keys, codes), 0, max(len(keys) - 1, 0))
    found = keys[pos] == codes if len(keys) else np.zeros(codes.shape, bool)
    per_hold = np.where(found, vals[pos], none)
    return per_hold.min(axis=1)


def wild_counts(data: StrategyData) -> np.ndarray:
    """int64[N]: the wild cards among each deal class's five cards."""
    hands = data.hands.astype(np.int64)
    if data.paytable.wild == "joker":
        return (hands >= JOKER).sum(axis=1)
    return (((hands >> 2) == DEUCE_RANK) & (hands < JOKER)).sum(axis=1)


def wild_groups(chart: Chart, data: StrategyData) -> list[WildGroup]:
    """The chart split by wild cards dealt, most wild cards first ([] for a game without wild
    cards)."""
    pt = data.paytable
    if pt.wild not in WILD_WORD:
        return []
    which = deciding_lines(chart, data)
    wilds = wild_counts(data)
    rows = np.arange(len(which))
    lost = (data.ev[rows, data.best] - data.ev[rows, chart.holds]) * data.weight
    deals_all = comb(pt.deck_size, 5)
    groups = []
    for k in range(pt.max_wilds, -1, -1):
        in_k = wilds == k
        if not in_k.any():
            continue
        lines = []
        for i in np.unique(which[in_k]).tolist():
            if i >= len(chart.lines):
                continue  # no line holds the deal (a chart always ends with a catch-all)
            sel = in_k & (which == i)
            lines.append(GroupLine(i + 1, chart.lines[i].text, int(sel.sum()),
                                   int(data.weight[sel].sum()), float(lost[sel].sum() / deals_all)))
        groups.append(WildGroup(k, group_title(pt.wild, k), int(data.weight[in_k].sum()), lines))
    return groups


__all__ = ["GroupLine", "WildGroup", "deciding_lines", "group_title", "wild_counts", "wild_groups"]
