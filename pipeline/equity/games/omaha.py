"""Omaha: a hand is exactly two of four hole cards plus exactly three of five board cards.

``score_omaha`` looks each of the 6 × 10 = 60 combinations up in the five-card table and
keeps the best; batches run in one parallel numba kernel. Omaha equity is the other games'
(:mod:`pipeline.equity.games.equity`; ``pipeline.equity.hand_api.omaha_equity`` is its typed door).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Union, overload

import numba as nb
import numpy as np

from pipeline.core.bits import cttz64
from pipeline.core.cards import BINOM, format_cards, parse_cards
from pipeline.errors import InputError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: One hand's cards: text (``"As Ks Qd Jd"``), ids or card names.
OneHand = Union[str, Sequence[int], Sequence[str]]

HOLE_PAIRS = np.array([(a, b) for a in range(4) for b in range(a + 1, 4)], dtype=np.int64)
BOARD_TRIPLES = np.array([(a, b, c) for a in range(5) for b in range(a + 1, 5)
                          for c in range(b + 1, 5)], dtype=np.int64)


@nb.njit(cache=True, nogil=True)
def _omaha_one(hole: np.ndarray, board: np.ndarray, five: np.ndarray, binom: np.ndarray,
               pairs: np.ndarray, triples: np.ndarray) -> int:
    """Best of the 60 two-plus-three hands (see :func:`_omaha_scratch`)."""
    return _omaha_scratch(hole, board, five, binom, pairs, triples, np.empty(10, np.int64))


@nb.njit(cache=True, nogil=True)
def _omaha_scratch(hole: np.ndarray, board: np.ndarray, five: np.ndarray, binom: np.ndarray,
                   pairs: np.ndarray, triples: np.ndarray, tm: np.ndarray) -> int:
    """Best of the 60 two-plus-three hands, ``tm`` being scratch for the 10 board-triple bitmaps.

    Each hand's colex index is read off its bitmap: walking the set bits low to high gives
    the cards in ascending order, so nothing is sorted."""
    for t in range(10):
        tm[t] = (np.int64(1) << board[triples[t, 0]]) | (np.int64(1) << board[triples[t, 1]]) \
            | (np.int64(1) << board[triples[t, 2]])
    best = 0
    for p in range(6):
        pm = (np.int64(1) << hole[pairs[p, 0]]) | (np.int64(1) << hole[pairs[p, 1]])
        for t in range(10):
            bits = pm | tm[t]
            idx = np.int64(0)
            for j in range(1, 6):
                idx += binom[cttz64(bits), j]
                bits &= bits - 1
            s = five[idx]
            if s > best:
                best = s
    return best


@nb.njit(cache=True, parallel=True)
def score_omaha_rows(holes: np.ndarray, boards: np.ndarray, five: np.ndarray, binom: np.ndarray,
                     pairs: np.ndarray, triples: np.ndarray, out: np.ndarray) -> None:
    """out[i] = best Omaha score of holes[i] (4 ids) with boards[i] (5 ids)."""
    n = holes.shape[0]
    chunk = 2048
    for ch in nb.prange((n + chunk - 1) // chunk):
        tm = np.empty(10, np.int64)  # one scratch buffer per chunk, not per hand
        for i in range(ch * chunk, min(n, (ch + 1) * chunk)):
            out[i] = _omaha_scratch(holes[i], boards[i], five, binom, pairs, triples, tm)


@overload
def score_omaha(tables: Tables, hole4: np.ndarray, board5: np.ndarray) -> np.ndarray | int: ...
@overload
def score_omaha(tables: Tables, hole4: OneHand, board5: OneHand) -> int: ...
def score_omaha(tables: Tables, hole4: OneHand | np.ndarray,
                board5: OneHand | np.ndarray) -> np.ndarray | int:
    """Best Omaha score (1..7462) of 4 hole cards with a 5-card board, or of (N,4)/(N,5) batches
    (uint16[N]). Single hands may be text or id lists.
    Raises ``ValueError`` on wrong counts or a card used twice.
    """
    five = tables.table(5)
    if isinstance(hole4, np.ndarray) and hole4.ndim == 2:
        holes = np.ascontiguousarray(hole4, dtype=np.int64)
        boards = np.ascontiguousarray(board5, dtype=np.int64)
        if holes.shape[1] != 4 or boards.shape != (holes.shape[0], 5):
            raise InputError(f"expected (N,4) holes and (N,5) boards, got {holes.shape} and {boards.shape}")
        both = np.concatenate([holes, boards], axis=1)
        if both.min(initial=0) < 0 or both.max(initial=0) > 51:
            raise InputError("card ids must be 0..51")
        srt = np.sort(both, axis=1)
        dup = (srt[:, 1:] == srt[:, :-1]).any(axis=1)
        if dup.any():
            i = int(np.flatnonzero(dup)[0])
            raise InputError(f"row {i} uses a card twice: {format_cards(both[i])}")
        out = np.empty(holes.shape[0], np.uint16)
        score_omaha_rows(holes, boards, five, BINOM, HOLE_PAIRS, BOARD_TRIPLES, out)
        return out
    h = parse_cards(hole4, count=4)
    b = parse_cards(board5, count=5)
    parse_cards(h + b)  # a card in both raises
    return int(_omaha_one(np.array(h, np.int64), np.array(b, np.int64), five, BINOM,
                          HOLE_PAIRS, BOARD_TRIPLES))


__all__ = ["score_omaha", "score_omaha_rows"]
