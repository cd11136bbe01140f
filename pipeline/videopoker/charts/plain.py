"""A strategy chart in players' words ("3 to a royal", "one high card") beside the exact one,
and what each rewording costs, exactly.

The solver's lines name penalty cards and high-card counts ("A alone (straight penalty)");
players know coarser kinds. :func:`plain_kind` names each hold pattern's kind; a line's players'
words are the kinds of its patterns. Read as a player reads them, the words cover more holds than
the exact line: every pattern of those kinds, wherever the exact chart put it (or left it off).
So the worded card is a different strategy, and its return is judged exactly like the chart's:
each pattern goes to the first line whose words name its kind, each class plays the first line it
holds (the chart's tie rule), and the exact EVs of those holds are summed (Fractions).

Per line: ``cost`` is the exact return lost by rewording that line alone (the rest exact);
``loss`` the exact return the exact line loses against optimal play on the deals it decides
(these add up to the chart's cost). A kind named by an earlier line is not repeated: a line whose
kinds all come earlier is merged into that line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from pipeline.core.cards import RANKS
from pipeline.videopoker.charts.chart import Chart, StrategyData, ev_numerators, exact_return, n_held
from pipeline.videopoker.charts.patterns import (
    DISCARD,
    F_FAM,
    F_N,
    F_SET,
    F_W,
    FLUSH_DRAW,
    HIGH,
    MULTI,
    NO_HIGH,
    PAT,
    ROYAL_DRAW,
    SF_DRAW,
    STRAIGHT_DRAW,
    TEN,
    GameTraits,
    field,
    game_traits,
    hold_codes,
    pattern_base,
    pattern_name,
    pattern_variant,
)
from pipeline.videopoker.charts.search import compact_codes, line_holds
from pipeline.videopoker.solver.holds import DRAW_FIVE
from pipeline.videopoker.solver.solve import draw_denominators

#: cards a hold can draw: 0 to 5
DRAWS = 6
#: a sum of int64 terms is exact when the largest term times their count stays below this
INT64_SAFE = 2 ** 63


def _wild(traits: GameTraits, w: int) -> str:
    if not w:
        return ""
    if traits.wild == "joker":
        return " with the joker"
    return " with a deuce" if w == 1 else f" with {w} deuces"


def plain_kind(code: int, traits: GameTraits) -> str:
    """The players' name of a hold pattern: its family and size, without penalty cards or
    high-card counts ("3 to a royal", "4 to an outside straight", "suited 10/J", "one high
    card", "KQJ unsuited"); made hands and pairs keep the solver's name ("low pair")."""
    fam, w, n = field(code, F_FAM), field(code, F_W), field(code, F_N)
    wt = _wild(traits, w)
    if fam == DISCARD:
        return DRAW_FIVE
    if fam == PAT:
        return pattern_variant(code, traits)[0] + wt
    if fam == MULTI:
        return pattern_name(code, traits)
    if fam == ROYAL_DRAW:
        ranks = [TEN + r for r in range(5) if field(code, F_SET) >> r & 1]
        if n - w == 2 and not w and traits.high != NO_HIGH:
            if min(ranks) >= traits.high:
                return "2 suited high cards"
            if TEN in ranks:
                return f"suited 10/{RANKS[max(ranks)]}"
        return f"{n} to a royal{wt}"
    if fam == SF_DRAW:
        return f"{n} to a straight flush{wt}"
    if fam == FLUSH_DRAW:
        return f"{n} to a flush{wt}"
    if fam == STRAIGHT_DRAW:
        return pattern_base(code, traits)
    if fam == HIGH:
        if n == 1:
            return "one high card"
        if n == 2:
            return "2 unsuited high cards"
        return pattern_variant(code, traits)[0] + " unsuited"
    return pattern_base(code, traits)


@dataclass(frozen=True)
class PlainLine:
    """One line of the worded card: the exact line it words (1-based), the words (empty when
    every kind came earlier: ``merged_into`` names that line), and the exact costs."""

    line: int
    words: str
    merged_into: int | None
    cost: Fraction       # return lost by this rewording alone (the other lines exact)
    loss: Fraction       # return the exact line loses against optimal play


@dataclass(frozen=True)
class PlainCard:
    """A chart in players' words and its exact return."""

    lines: list[PlainLine]
    return_exact: Fraction


class _Holds:
    """Every class's hold under a chart given as the line of each hold pattern."""

    def __init__(self, data: StrategyData) -> None:
        self.traits = game_traits(data.paytable)
        self.uniq, self.pid = compact_codes(hold_codes(data.hands, data.deal_cat, self.traits))
        self.data = data

    def play(self, line_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(hold mask, deciding line) of every class; a pattern on no line has a line past all."""
        n = len(self.pid)
        holds, which = np.empty(n, np.uint8), np.empty(n, np.int64)
        line_holds(self.pid, line_of, holds, which)
        return holds, which

    def exact_lines(self, chart: Chart) -> np.ndarray:
        """The line of each hold pattern in ``chart`` (past the last line: on none)."""
        of = {c: i for i, ln in enumerate(chart.lines) for c in ln.codes}
        far = len(chart.lines) + 1
        return np.array([of.get(int(c), far) for c in self.uniq], np.int64)

    def value(self, holds: np.ndarray) -> Fraction:
        """Exact return of playing ``holds``."""
        d = self.data
        return exact_return(d.ev, d.weight, holds, d.paytable)


def line_losses(data: StrategyData, chart: Chart, h: _Holds | None = None) -> list[Fraction]:
    """Exact return each line of ``chart`` loses against optimal play on the deals it decides
    (they add up to the chart's cost). AssertionError when the chart's lines do not give the
    chart's holds (patterns made for another game)."""
    h = h or _Holds(data)
    holds, which = h.play(h.exact_lines(chart))
    if not np.array_equal(holds, chart.holds):
        raise AssertionError("the chart's lines do not give its holds")
    # one pass in integers: per line and cards drawn, the sum of weight x EV numerator of the
    # best hold and of the chart's (what exact_return sums per line, 3x faster than 40 calls)
    n, pt = len(chart.lines), data.paytable
    ways, _, _ = draw_denominators(pt.deck_size)
    _, scale = pt.pay_units()
    on = (which >= 0) & (which < n)
    ev, weight, key = data.ev[on], data.weight[on].astype(np.int64), which[on] * DRAWS
    sums = []
    for played in (data.best[on], holds[on]):
        terms = weight * ev_numerators(ev, played, pt)
        exact = len(terms) == 0 or int(np.abs(terms).max()) * len(terms) < INT64_SAFE
        acc = np.zeros(n * DRAWS, np.int64 if exact else object)
        np.add.at(acc, key + 5 - n_held(played), terms if exact else terms.astype(object))
        sums.append(acc.reshape(n, DRAWS))
    deals = comb(pt.deck_size, 5)
    return [sum((Fraction(int(sums[0][r, k]) - int(sums[1][r, k]), int(ways[k]) * scale) for k in range(DRAWS)),
                Fraction(0)) / deals for r in range(n)]


def plain_card(data: StrategyData, chart: Chart) -> PlainCard:
    """The chart in players' words, each rewording's exact cost and the worded card's return.

    AssertionError as :func:`line_losses`."""
    h = _Holds(data)
    exact = h.exact_lines(chart)
    losses = line_losses(data, chart, h)
    base = chart.return_exact
    kinds = [plain_kind(int(c), h.traits) for c in h.uniq]
    groups = {k: _group(int(c), h.traits) for k, c in zip(kinds, h.uniq)}
    made = {k for k, c in zip(kinds, h.uniq) if field(int(c), F_FAM) == PAT}
    worded = exact.copy()
    first_of: dict[str, int] = {}
    lines = []
    for r, ln in enumerate(chart.lines):
        own = list(dict.fromkeys(kinds[int(np.searchsorted(h.uniq, c))] for c in ln.codes))
        new = [k for k in own if k not in first_of]
        for k in new:
            first_of[k] = r
        widen = np.array([k in own for k in kinds]) & (exact > r)
        alone = exact.copy()
        alone[widen] = r
        worded[widen] = np.minimum(worded[widen], r)
        cost = base - h.value(h.play(alone)[0]) if widen.any() else Fraction(0)
        merged = None if new else first_of[own[0]] + 1
        lines.append(PlainLine(r + 1, _words(new, groups, made), merged, cost, losses[r]))
    return PlainCard(lines, h.value(h.play(worded)[0]))


def _group(code: int, traits: GameTraits) -> str | None:
    """The base name of the kinds a line may name at once: "pair" (high pair, low pair; pair
    (aces), pair (J-K)), "three of a kind" (of 2-T, of J-A); None for kinds that are not pairs,
    trips or quads."""
    return pattern_base(code, traits) if field(code, F_FAM) == MULTI else None


#: a wild card held, at the end of a made hand's kind ("flush with a deuce")
_WILD_TAIL = re.compile(r" with (?:a deuce|\d deuces|the joker)$")


def _words(new: list[str], groups: dict[str, str | None], made: set[str]) -> str:
    """A line's kinds as one text: a whole group by its name ("any pair", "three of a kind"),
    part of one by its variants ("pair (aces, J-K)"); made hands (all five cards) listed with
    commas, a wild card they share said once; other kinds joined by "or"."""
    members: dict[str, set[str]] = {}
    for k, g in groups.items():
        if g is not None:
            members.setdefault(g, set()).add(k)
    out: list[str] = []
    for k in new:
        g = groups.get(k)
        if g is None or len(members[g]) < 2:
            out.append(k)
        elif members[g] <= set(new):
            out.append("any pair" if g == "pair" else g)
        else:
            part = [m for m in new if groups.get(m) == g]
            tails = [m[len(g) + 2:-1] for m in part if m.startswith(g + " (") and m.endswith(")")]
            out.append(f"{g} ({', '.join(tails)})" if len(tails) == len(part) > 1 else k)
    out = list(dict.fromkeys(out))
    if not (new and all(k in made for k in new)):
        return " or ".join(out)
    wild = {m.group(0) if (m := _WILD_TAIL.search(k)) else "" for k in out}
    if len(out) > 1 and len(wild) == 1 and (tail := wild.pop()):
        return ", ".join(k[:-len(tail)] for k in out) + f" ({tail.strip()})"
    return ", ".join(out)


__all__ = ["PlainCard", "PlainLine", "line_losses", "plain_card", "plain_kind"]
