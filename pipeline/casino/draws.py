"""Shared by the games paid on the player's final five cards (Let It Ride, Mississippi Stud):
every five-card hand's pay line, the number of five-card hands holding each 2-, 3- and 4-card
subset by pay line (the video-poker subset counts), and card features the strategies a person
can use are written in (high cards, gaps, suits).

Everything is exact integers; the arrays are shared by every pay table of one ranking (the
pay line of a hand changes with the table, so the counts are per table, computed in well under
a second)."""

from __future__ import annotations

import functools

import numpy as np

from pipeline.casino.game import PayTable
from pipeline.casino.hands import five_card_scores
from pipeline.casino.subsets import colex_hands, subsets_of

#: ranks that count as high cards in the published strategies (ten or better / jack or better)
TEN, JACK, ACE = 8, 9, 12


def line_counts(table: PayTable) -> list[np.ndarray]:
    """``[counts0, ..., counts4]``, ``counts_k`` uint32[C(52, k), lines + 1]: the five-card hands
    holding each k-card subset, by the line of ``table`` that pays them (last column: no
    line) — video poker's subset-count kernel on the table's pay lines."""
    from pipeline.videopoker.solver.subsets import subset_counts

    line = table.line_of_score()[five_card_scores()].astype(np.uint8)
    return subset_counts(line, len(table.lines) + 1)


def spread(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For rows of ranks (``(n, k)``): (all distinct?, the smallest window of consecutive ranks
    holding them all, whether an ace in the row plays low in that window)."""
    r = np.sort(ranks, axis=1)
    distinct = (np.diff(r, axis=1) != 0).all(axis=1)
    high = r[:, -1] - r[:, 0] + 1
    low = np.where(r == ACE, -1, r)
    low.sort(axis=1)
    low_width = low[:, -1] - low[:, 0] + 1
    return distinct, np.minimum(high, low_width), (low_width < high) & (r[:, -1] == ACE)


def suited(cards: np.ndarray) -> np.ndarray:
    """Rows whose cards are all of one suit."""
    s = cards & 3
    return (s == s[:, :1]).all(axis=1)


@functools.cache
def subset_rows(k: int) -> tuple[np.ndarray, ...]:
    """For each (k + 1)-card hand (colex order), the colex indexes of its k-card subsets."""
    return tuple(subsets_of(colex_hands(k + 1), k))


__all__ = ["TEN", "JACK", "ACE", "line_counts", "spread", "suited", "subset_rows"]
