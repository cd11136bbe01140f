"""What every solver of the planner (:mod:`pipeline.equity.planner`) offers: for a question, a
:class:`Plan` (what answering it would cost, in estimated seconds, and how to answer it), or
None when the solver cannot answer that question."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipeline.equity.question import Question
from pipeline.equity.seating import Table
from pipeline.equity.spots.answer import Solution

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: Lookups per second the exact counters' cost estimates are converted with.
ENGINE_LOOKUPS_PER_S = 2.0e8
#: A table read costs nothing worth estimating.
FREE = 0.0


@dataclass(frozen=True, slots=True)
class Plan:
    """A solver's offer: its estimated ``seconds`` and the call that answers."""

    seconds: float
    run: Callable[[], Solution]


#: A solver: (question, its seats as ranges, the tables) -> its plan, or None.
Solver = Callable[[Question, Table, "Tables"], "Plan | None"]

__all__ = ["ENGINE_LOOKUPS_PER_S", "FREE", "Plan", "Solver"]
