"""Several games side by side (``vp compare``): return, variance, royal cycle, hit frequency and
the break-even royal of each.

Return, variance and the final-hand counts (for the hit frequency and the royal cycle) come
from the built ``paytables/<slug>.h5`` when it is current for the paytable file and solver
(read through :mod:`pipeline.videopoker.catalog.paytable_file`, the file's one owner); otherwise the
game is analysed now. The break-even royal is the one the build stored
(:mod:`pipeline.videopoker.tools.breakeven_answer`), else searched now
(:func:`pipeline.videopoker.tools.breakeven.break_even` at a 100% target on the 1-credit grid,
starting from the same pay categories and counts).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.errors import InputError
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.tools.breakeven import DEFAULT_LINE, DEFAULT_STEP, PaySolver, exact_text, find_line

if TYPE_CHECKING:
    from pipeline.videopoker.solver.analysis import Analysis
    from pipeline.videopoker.solver.deals import DealClasses

#: most games one ``vp compare`` takes (a game without a current artifact costs an exact
#: analysis and break-even search, a second or two)
MAX_GAMES = 8
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
    """The figures of one game: from the built artifact when it is current (its break-even
    royal included, as the build's search found it), else analysed and searched now."""
    from pipeline.videopoker.catalog.paytable_file import current_artifact, read_break_even, read_summary
    from pipeline.videopoker.tools.breakeven_answer import EVEN, solve_break_even, stored_answer

    t0 = time.perf_counter()
    art = current_artifact(pt, artifacts)
    a = None
    if art is not None:
        ret, var, finals, den = read_summary(art)
        source = "artifact"
    else:
        from pipeline.videopoker.solver.analysis import analyze

        a = analyze(pt, classes_for(pt.deck_size))
        ret, var, finals, den = a.return_exact, float(a.variance), a.final_counts, a.denominator
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
            found = stored_answer(pt, line, read_break_even(art)) if art is not None else None
            if found is None:
                found = solve_break_even(_solver(pt, line, art, a, classes_for), EVEN, DEFAULT_STEP)
            be = found.search.hi.pay
        except InputError as exc:
            note = str(exc)
    return GameFigures(pt.slug, pt.name, ret, var, hit, royal, be, note, source,
                       time.perf_counter() - t0)


def _solver(pt: Paytable, line: int, art: Path | None, a: Analysis | None,
            classes_for: Callable[[int], DealClasses]) -> PaySolver:
    """A pay solver for the royal, from the analysis just made or the artifact's counts."""
    from pipeline.videopoker.catalog.paytable_file import read_counts

    classes = classes_for(pt.deck_size)
    if a is not None:
        return PaySolver(pt, line, classes, (a.pay_category, a.counts), own_counts=a.final_counts)
    assert art is not None
    return PaySolver(pt, line, classes, read_counts(art))
