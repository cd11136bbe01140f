"""``vp breakeven``'s answer as one object (:class:`BreakEven`): the search's grid points and
bounds, the strategy changes at the break-even, the solves it took. It is made by a search now
(:func:`solve_break_even`) or read back from what the build stored in the paytable's artifact
(:meth:`BreakEven.from_record`), and turned into JSON in one place (:meth:`BreakEven.as_json`),
so a stored answer prints exactly what the search would.

The build stores the break-even of the lines in :data:`STORED_LINES` at the defaults of
``vp breakeven`` (an even game, whole credits, the search's highest pay): ``vp compare`` and
``vp breakeven GAME`` read it instead of searching (:func:`stored_answer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pipeline.errors import InputError
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.tools.breakeven import (
    DEFAULT_LINE,
    DEFAULT_STEP,
    MAX_SEARCH_PAY,
    PaySolver,
    Point,
    Search,
    break_even,
    exact_text,
    find_line,
    meter,
)
from pipeline.videopoker.tools.changes import Change

if TYPE_CHECKING:
    from pipeline.videopoker.solver.analysis import Analysis

#: the target of the stored searches (and ``vp breakeven``'s default): an even game
EVEN = Fraction(1)
#: the lines whose break-even the build stores (``vp breakeven``'s default, ``vp compare``'s)
STORED_LINES = (DEFAULT_LINE,)


@dataclass(frozen=True)
class BreakEven:
    """A break-even search's whole answer for line ``line`` of ``pt``."""

    pt: Paytable
    line: int
    own: Point                # the paytable's own pay
    search: Search
    changes: dict[str, Any]   # :func:`pipeline.videopoker.tools.changes.group_changes`'s
    solves: int

    def as_json(self, coins: int, bets: list[Fraction]) -> dict[str, Any]:
        """``vp breakeven --json`` without ``seconds`` (the meters for ``coins`` and ``bets``)."""
        found, goal = self.search, self.search.target
        return {
            "name": self.pt.name, "slug": self.pt.slug, "line": self.pt.lines[self.line].label,
            "target": float(goal), "target_exact": exact_text(goal), "step": float(found.step),
            "paytable": self.own.as_json(), "break_even": float(found.hi.pay),
            "break_even_exact": exact_text(found.hi.pay), "at_break_even": found.hi.as_json(),
            "below": found.lo.as_json() if found.lo is not None else None,
            "exact_break_even": None if found.exact is None else exact_text(found.exact),
            "exact_break_even_bounds": [float(found.lower), float(found.upper)],
            "meters": [meter(found.hi.pay, coins, b) for b in bets],
            "strategy_changes": {**self.changes, "top": [c.as_json() for c in self.changes["top"]]},
            "solves": self.solves}

    def to_record(self) -> dict[str, Any]:
        """Everything the answer holds, exact fractions as ``num/den`` (JSON for the artifact)."""
        s = self.search
        return {"line": self.pt.lines[self.line].label, "target": exact_text(s.target),
                "step": exact_text(s.step), "own": _point(self.own), "hi": _point(s.hi),
                "lo": None if s.lo is None else _point(s.lo), "lower": exact_text(s.lower),
                "upper": exact_text(s.upper), "solves": self.solves,
                "changes": {**self.changes, "top": [c.as_json() for c in self.changes["top"]]}}

    @classmethod
    def from_record(cls, pt: Paytable, rec: dict[str, Any]) -> BreakEven:
        """The answer :meth:`to_record` wrote, for the paytable ``pt`` it was made for."""
        lo = rec["lo"]
        search = Search(Fraction(rec["target"]), Fraction(rec["step"]), _read_point(rec["hi"]),
                        None if lo is None else _read_point(lo), Fraction(rec["lower"]),
                        Fraction(rec["upper"]))
        ch = rec["changes"]
        changes = {**ch, "top": [Change.from_json(c) for c in ch["top"]]}
        return cls(pt, find_line(pt, rec["line"]), _read_point(rec["own"]), search, changes,
                   int(rec["solves"]))


def _point(p: Point) -> list[str]:
    return [exact_text(p.pay), exact_text(p.ret), exact_text(p.slope)]


def _read_point(x: list[str]) -> Point:
    return Point(Fraction(x[0]), Fraction(x[1]), Fraction(x[2]))


def solve_break_even(solver: PaySolver, target: Fraction, step: Fraction = DEFAULT_STEP,
                     max_pay: Fraction = MAX_SEARCH_PAY) -> BreakEven:
    """Search the break-even (:func:`pipeline.videopoker.tools.breakeven.break_even`) and the
    strategy changes from the paytable's pay to it; ``InputError`` when the target is out of
    reach."""
    found = break_even(solver, target, step, max_pay)
    changes = solver.changes(solver.own, found.hi.pay)
    return BreakEven(solver.pt, solver.line, solver.point(solver.own), found, changes,
                     solver.solves)


def stored_break_evens(a: Analysis) -> dict[str, Any]:
    """What the build stores for a solved paytable: per line of :data:`STORED_LINES` it has,
    the record of its search at the defaults, or ``{"error": message}`` when the target is
    out of reach. The search starts from the analysis's pay categories, counts and return."""
    out: dict[str, Any] = {}
    for name in STORED_LINES:
        try:
            line = find_line(a.paytable, name)
        except InputError:
            continue  # the game has no such line
        solver = PaySolver(a.paytable, line, a.classes, (a.pay_category, a.counts),
                           own_counts=a.final_counts)
        try:
            out[a.paytable.lines[line].label] = solve_break_even(solver, EVEN).to_record()
        except InputError as exc:
            out[a.paytable.lines[line].label] = {"error": str(exc)}
    return out


def stored_answer(pt: Paytable, line: int, stored: dict[str, Any] | None) -> BreakEven | None:
    """The stored answer for line ``line`` of ``pt`` (None when the build stored none);
    ``InputError`` with the search's own message when the stored search found the target out
    of reach."""
    rec = (stored or {}).get(pt.lines[line].label)
    if rec is None:
        return None
    if "error" in rec:
        raise InputError(str(rec["error"]))
    return BreakEven.from_record(pt, rec)


def is_stored_question(target: Fraction, step: Fraction, max_pay: Fraction) -> bool:
    """Whether a search with these settings is the one the build stored."""
    return target == EVEN and step == DEFAULT_STEP and max_pay == MAX_SEARCH_PAY
