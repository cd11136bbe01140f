"""A game's strategy chart as the answers use it, made in one place: the chart the build
exported when it is asked for and current, else derived now; the index the trainer's feedback
looks deals up in (:mod:`pipeline.answers.vp_lines`); and, apart, the figures only ``vp chart``
shows: its exact per-line losses, its wild-card groups and the short card's players' words
(:mod:`pipeline.videopoker.charts.plain`).

Deriving an edited game's chart costs seconds: a process keeps the last charts it made
(:class:`pipeline.core.bytecache.BytesCache`), so ``vp chart`` and the trainer's chart line of one
game derive it once. The figures are a cache of their own, made on first asking: the trainer's
verdict reads only the index, and judging every line exactly costs more than the index does.
``vp chart`` asks for both at once (:func:`chart_and_figures`), which reads (or, for an edited
game, analyses) the game's chart inputs once for the two.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.answers import Context
from pipeline.answers.vp_lines import ChartIndex, make_index
from pipeline.core.bytecache import bytes_cache
from pipeline.videopoker.paytables.paytable import Paytable

if TYPE_CHECKING:
    from pipeline.videopoker.charts.chart import Chart, StrategyData
    from pipeline.videopoker.charts.plain import PlainCard
    from pipeline.videopoker.tools.chart_groups import WildGroup

#: charts kept per process, by the bytes of their arrays (a 52-card game's chart and index hold
#: about 2 MB: a trainer switches between a game and an edit or two)
KEEP_BYTES = 32 << 20
#: charts of at most this many lines get players' words (a short card; a long chart's lines
#: split by high cards and penalty cards, which players' coarser kinds would undo at a cost)
PLAIN_MAX_LINES = 20


@dataclass(frozen=True)
class GameChart:
    """A chart, where its figures came from, and the index the trainer reads."""

    chart: Chart
    source: str
    index: ChartIndex
    seconds: float               # what making it took


@dataclass(frozen=True)
class ChartFigures:
    """What ``vp chart`` shows of a chart beside its lines (the trainer needs none of it)."""

    losses: list[Fraction]       # exact return each line loses against optimal play
    groups: list[WildGroup]      # wild games: the lines by wild cards dealt ([] otherwise)
    plain: PlainCard | None      # the card in players' words (short cards only)
    seconds: float               # what judging them took


def _data(ctx: Context, pt: Paytable) -> tuple[StrategyData, str, Path | None]:
    """The game's chart inputs, where they came from and its current artifact: the artifact's
    arrays, else an analysis now with the subset counts the process keeps (the trainer's grade
    of an edited game has just counted them)."""
    from pipeline.videopoker.catalog.paytable_file import current_artifact, read_strategy_data
    from pipeline.videopoker.solver.analysis import analyze
    from pipeline.videopoker.tools.strategy_io import strategy_data_of

    art = current_artifact(pt, ctx.artifacts)
    if art is not None:
        return read_strategy_data(pt, art), f"artifact {ctx.shown(art)}", art
    a = analyze(pt, ctx.deal_classes(pt.deck_size), ctx.counts(pt))
    return strategy_data_of(a), "computed now (no current artifact)", None


def _chart_of(found: tuple[StrategyData, str, Path | None], max_lines: int, derive: bool,
              t0: float) -> GameChart:
    """:func:`game_chart`'s answer from the game's chart inputs (:func:`_data`'s), read since ``t0``."""
    from pipeline.videopoker.charts.chart import DEFAULT_MAX_LINES, derive_chart
    from pipeline.videopoker.tools.strategy_io import read_chart

    data, source, art = found
    made = read_chart(data, art) if art is not None and max_lines == DEFAULT_MAX_LINES \
        and not derive else None
    if made is None:
        made = derive_chart(data, max_lines)
    else:
        source += ", chart exported by the build, judged again"
    return GameChart(made, source, make_index(data, made), time.perf_counter() - t0)


def _figures_of(data: StrategyData, made: Chart) -> ChartFigures:
    """:func:`chart_figures`'s answer for the chart ``made`` from the game's chart inputs."""
    from pipeline.videopoker.charts.plain import line_losses, plain_card
    from pipeline.videopoker.tools.chart_groups import wild_groups

    t0 = time.perf_counter()
    plain = plain_card(data, made) if len(made.lines) <= PLAIN_MAX_LINES else None
    losses = [ln.loss for ln in plain.lines] if plain else line_losses(data, made)
    return ChartFigures(losses, wild_groups(made, data), plain, time.perf_counter() - t0)


@bytes_cache(KEEP_BYTES)
def game_chart(ctx: Context, pt: Paytable, max_lines: int, derive: bool) -> GameChart:
    """The chart of ``pt`` of at most ``max_lines`` lines and its index: the exported one when
    ``max_lines`` is the default, ``derive`` is off and the game's artifact is current, else
    derived now."""
    t0 = time.perf_counter()
    return _chart_of(_data(ctx, pt), max_lines, derive, t0)


@bytes_cache(KEEP_BYTES)
def chart_figures(ctx: Context, pt: Paytable, max_lines: int, derive: bool) -> ChartFigures:
    """The figures of :func:`game_chart`'s chart of the same arguments: every line's exact loss,
    the wild groups, and for a short card (at most ``PLAIN_MAX_LINES`` lines) its players'
    words. The game's chart inputs are read (or analysed, with the kept counts) again: kept
    with the chart they would hold about 36 MB per game (:func:`chart_and_figures` makes both
    from one reading)."""
    made = game_chart(ctx, pt, max_lines, derive).chart
    return _figures_of(_data(ctx, pt)[0], made)


def chart_and_figures(ctx: Context, pt: Paytable, max_lines: int, derive: bool) -> tuple[GameChart, ChartFigures]:
    """:func:`game_chart` and :func:`chart_figures` of the same arguments (each kept as they
    keep it), the game's chart inputs read at most once for the two: an edited game's analysis
    ran twice when the figures followed the chart."""
    key = (ctx, pt, max_lines, derive)
    gc, fig = game_chart.kept(*key), chart_figures.kept(*key)
    if gc is not None and fig is not None:
        return gc, fig
    t0 = time.perf_counter()
    found = _data(ctx, pt)
    if gc is None:
        gc = game_chart.keep(_chart_of(found, max_lines, derive, t0), *key)
    if fig is None:
        fig = chart_figures.keep(_figures_of(found[0], gc.chart), *key)
    return gc, fig


def chart_index(ctx: Context, pt: Paytable) -> ChartIndex:
    """The lookup index of ``pt``'s chart (``vp chart``'s default size, made as that command
    makes it, and shared with it)."""
    from pipeline.videopoker.charts.chart import DEFAULT_MAX_LINES

    return game_chart(ctx, pt, DEFAULT_MAX_LINES, False).index


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


__all__ = ["ChartFigures", "GameChart", "KEEP_BYTES", "PLAIN_MAX_LINES", "chart_and_figures", "chart_figures",
           "chart_index", "chart_line", "game_chart"]
