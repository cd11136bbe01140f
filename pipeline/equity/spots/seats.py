"""The seats of a question as the kernels read them: every seat's hands flattened into arrays.
Exact counting and Monte Carlo both take this one description."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Seats:
    """Flattened seat description for the kernels: seat p's hands are rows off[p]:off[p+1]."""

    off: np.ndarray
    hand_a: np.ndarray
    hand_b: np.ndarray
    hand_w: np.ndarray
    hand_m: np.ndarray
    n_random: int


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a question: its ``text`` as written ("" for cards given as ids), the
    ``label`` answers show, the cards of a one-hand seat (``hand``, in the order written; empty
    for a range or a random hand) and whether it is a random hand."""

    text: str
    label: str
    hand: tuple[int, ...] = ()
    random: bool = False


#: The seat of a random opponent.
RANDOM_SEAT = Seat("random", "random", (), True)

__all__ = ["RANDOM_SEAT", "Seat", "Seats"]
