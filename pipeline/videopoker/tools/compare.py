"""Several games side by side (``vp compare``): return, variance, royal cycle, hit frequency and
the break-even royal of each.

Return, variance and the final-hand counts (for the hit frequency and the royal cycle) come
from the built ``paytables/<slug>.h5`` when it is current for the paytable file and solver
(read through :mod:`pipeline.videopoker.catalog.paytable_file`, the file's one owner); otherwise the
game is analysed now. The break-even royal is :func:`pipeline.videopoker.tools.breakeven.break_even`
at a 100% target on the 1-credit grid, starting from the same pay categories and counts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from pipeline.errors import InputError
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.solver.deals import DealClasses
from pipeline.videopoker.tools.breakeven import (
    DEFAULT_LINE,
    DEFAULT_STEP,
    PaySolver,
    break_even,
    exact_text,
    find_line,
)

#: most games one ``vp compare`` takes (each costs an exact break-even search, a few seconds)
MAX_GAMES = 8
#: the break-even target of the comparison: an even game
EVEN = Fraction(1)
#: coins of the max bet, for the meter column
COINS = 5


@dataclass
class GameFigures:
    """One column of ``vp compare``."""

    slug: str
    name: str
    return_exact: Fraction
    variance: float
    hit_frequency: Fraction
    royal_probability: Fraction | None
    break_even: Fraction | None      # smallest whole-credit royal pay reaching 100%
    break_even_note: str
    source: str
    seconds: float

    @property
    def royal_cycle(self) -> float | None:
        """Hands per royal flush under optimal play (1 / its probability)."""
        return float(1 / self.royal_probability) if self.royal_probability else None

    def as_json(self) -> dict[str, Any]:
        """The column as a JSON object (exact figures as ``num/den`` strings)."""
        p, b = self.royal_probability, self.break_even
        return {"slug": self.slug, "name": self.name, "return": float(self.return_exact),
                "return_exact": exact_text(self.return_exact), "variance": self.variance,
                "royal_cycle": self.royal_cycle,
                "royal_probability_exact": None if p is None else exact_text(p),
                "hit_frequency": float(self.hit_frequency),
                "hit_frequency_exact": exact_text(self.hit_frequency),
                "break_even_royal": None if b is None else float(b),
                "break_even_royal_coins": None if b is None else float(b * COINS),
                "break_even_note": self.break_even_note, "source": self.source,
                "seconds": round(self.seconds, 3)}


def check_games(games: list[str]) -> None:
    """``InputError`` for an empty, too long or repeating list of games (before any work)."""
    if not games:
        raise InputError("name at least one game (see `pokertables vp list`)")
    if len(games) > MAX_GAMES:
        raise InputError(f"{len(games)} games; compare at most {MAX_GAMES} at a time")
    seen = set()
    for g in games:
        key = g.strip().lower()
        if key in seen:
            raise InputError(f"game {g!r} is named twice")
        seen.add(key)


def game_figures(pt: Paytable, artifacts: Path,
                 classes_for: Callable[[int], DealClasses]) -> GameFigures:
    """The figures of one game (built artifact if current, else analysed now)."""
    from pipeline.videopoker.catalog.paytable_file import current_artifact, read_counts, read_summary
    from pipeline.videopoker.solver.analysis import analyze

    t0 = time.perf_counter()
    classes = classes_for(pt.deck_size)
    art = current_artifact(pt, artifacts)
    if art is not None:
        ret, var, finals, den = read_summary(art)
        counts = read_counts(art)
        source = "artifact"
    else:
        a = analyze(pt, classes)
        ret, var, finals, den = a.return_exact, float(a.variance), a.final_counts, a.denominator
        counts = (a.pay_category, a.counts)
        source = "computed now"
    hit = Fraction(sum(c for c, p in zip(finals, pt.pays) if p > 0), den)
    royal: Fraction | None = None
    be: Fraction | None = None
    note = ""
    try:
        line = find_line(pt, DEFAULT_LINE)
    except InputError:
        note = "no royal flush line"
    else:
        royal = Fraction(finals[line], den)
        try:
            be = break_even(PaySolver(pt, line, classes, counts), EVEN, DEFAULT_STEP).hi.pay
        except InputError as exc:
            note = str(exc)
    return GameFigures(pt.slug, pt.name, ret, var, hit, royal, be, note, source,
                       time.perf_counter() - t0)
