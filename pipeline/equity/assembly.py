"""Answers from what the solvers found: a hold'em seat's row from its numbers, the random
seats' share, and the one :class:`~pipeline.equity.spots.answer.Answer` made of a question, a
solution and the time it took."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pipeline.equity.question import Question
from pipeline.equity.seating import Table
from pipeline.equity.spots.answer import Answer, SeatRow, Solution

#: One seat's numbers: win, tie, lose (None where the method leaves them unknown), equity, stderr.
Numbers = tuple[float | None, float | None, float | None, float, float | None]


def answer_of(q: Question, sol: Solution, seconds: float) -> Answer:
    """The answer to ``q``: the hero's numbers on top, every seat's row, what was counted."""
    hero, others = q.seats[0], q.seats[1:]
    named = [s for s in others if not s.random]
    h = sol.rows[0]
    return Answer(
        hole=hero.hand, board=q.board, dead=q.dead, vs=tuple(s.hand for s in named if s.hand),
        opponents=len(others), method=sol.method, win=h.win or 0.0, tie=h.tie or 0.0,
        lose=h.lose or 0.0, equity=h.equity or 0.0, stderr=h.stderr, seconds=seconds,
        players=sol.rows, deals=sol.deals, samples=sol.samples, seed=sol.seed, counts=sol.counts,
        hero_range=None if hero.hand else hero.label, game=q.game, source=sol.source,
        note=sol.note, vs_text=tuple(s.label for s in named))


def seat_rows(table: Table, nums: Sequence[Numbers]) -> tuple[SeatRow, ...]:
    """A row per hold'em seat from its numbers (seat names ``hero``, ``vs1`` ...)."""
    out = []
    for i, (s, rnd, n) in enumerate(zip(table.seats, table.random, nums)):
        label = "random" if rnd else s.label()
        out.append(SeatRow("hero" if i == 0 else f"vs{i}", label, s.combos, n[0], n[1], n[2], n[3],
                           n[4], hand=label if s.is_single and not rnd else None))
    return tuple(out)


def symmetric_random(table: Table, known: Mapping[int, float]) -> dict[int, float]:
    """Equity of random seats: they are exchangeable, so they split what the others leave."""
    rest = 1.0 - sum(known.values())
    rnd = [i for i in range(len(table.seats)) if i not in known]
    return {i: rest / len(rnd) for i in rnd}


__all__ = ["Numbers", "answer_of", "seat_rows", "symmetric_random"]
