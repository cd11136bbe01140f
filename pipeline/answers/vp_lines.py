"""Which line of a game's strategy chart decides a deal: the trainer's feedback names it
("line 12 of the chart: 4 to a flush").

The chart is ``vp chart``'s (the one the build exported, or derived now for an edited game); a
deal's suit class is found by its canonical colex index, the hold the chart picks for that class
gives a hold pattern, and the pattern belongs to exactly one line. A server keeps the last few
games' charts (deriving one for an edited game costs seconds; a lookup then costs microseconds).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.answers import Context
from pipeline.videopoker.paytables.paytable import Paytable

if TYPE_CHECKING:
    from pipeline.videopoker.charts.patterns import GameTraits

#: charts kept per process (a trainer switches between a game and an edit or two)
KEEP = 4


@dataclass(frozen=True)
class ChartIndex:
    """A game's chart and what finding a deal's line needs: class keys, the chart's hold per
    class, each class's cards and own pay category, the line of each hold pattern."""

    lines: tuple[str, ...]
    index5: np.ndarray
    holds: np.ndarray
    hands: np.ndarray
    deal_cat: np.ndarray
    line_of: dict[int, int]
    traits: GameTraits


_charts: OrderedDict[tuple[str, str], ChartIndex] = OrderedDict()
_lock = threading.Lock()


def chart_index(ctx: Context, pt: Paytable) -> ChartIndex:
    """The chart of ``pt`` (``vp chart``'s default size) indexed for lookups, kept per process."""
    from pipeline.answers.vp import players_words
    from pipeline.videopoker.catalog.paytable_file import current_artifact
    from pipeline.videopoker.charts.chart import derive_chart
    from pipeline.videopoker.charts.patterns import game_traits
    from pipeline.videopoker.solver.deals import canonical_index
    from pipeline.videopoker.tools.strategy_io import read_chart, strategy_data

    key = (str(ctx.artifacts), pt.digest)
    with _lock:
        if key in _charts:
            _charts.move_to_end(key)
            return _charts[key]
    data, _ = strategy_data(pt, ctx.artifacts, ctx.deal_classes(pt.deck_size))
    art = current_artifact(pt, ctx.artifacts)
    made = read_chart(data, art) if art is not None else None
    if made is None:
        made = derive_chart(data)
    index5 = canonical_index(data.hands)
    order = np.argsort(index5)
    line_of = {code: i for i, ln in enumerate(made.lines) for code in ln.codes}
    ci = ChartIndex(tuple(players_words(ln.text) for ln in made.lines), index5[order], made.holds[order],
                    data.hands[order], np.asarray(data.deal_cat)[order], line_of, game_traits(pt))
    with _lock:
        _charts[key] = ci
        while len(_charts) > KEEP:
            _charts.popitem(last=False)
    return ci


def chart_line(ctx: Context, pt: Paytable, cards: list[int]) -> dict[str, Any]:
    """The chart line that decides the deal ``cards`` (card ids): ``{"line": n (1-based),
    "hold": its text}``."""
    from pipeline.videopoker.charts.patterns import hold_codes
    from pipeline.videopoker.solver.deals import canonical_index

    ci = chart_index(ctx, pt)
    key = canonical_index(np.array([sorted(cards)], np.uint8))[0]
    row = int(np.searchsorted(ci.index5, key))
    if row >= len(ci.index5) or ci.index5[row] != key:
        raise AssertionError(f"deal class {key} is not among the game's classes")
    codes = hold_codes(ci.hands[row:row + 1], ci.deal_cat[row:row + 1], ci.traits)
    line = ci.line_of[int(codes[0, int(ci.holds[row])])]
    return {"line": line + 1, "hold": ci.lines[line]}


__all__ = ["chart_index", "chart_line", "ChartIndex"]
