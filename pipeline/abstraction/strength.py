"""Exact strength figures of every suit-isomorphic class, counted all hands at once per board.

One river computation (:func:`pipeline.equity.exact.allhands.board_showdown`) ranks every live hand
on a complete board against every disjoint opponent hand; everything here is sums of it:

- river: a class's ``2*wins + ties`` against the 990 opponent hands, one showdown per
  suit-canonical 5-card board (134,459 of them), written at each hand's class index;
- turn: for a 4-card board, each of the 48 river cards gives one showdown; a hand's figures
  are summed over the 46 river cards it does not hold: ``sum e``, ``sum e**2`` and a histogram
  of ``e`` (``e = 2*wins + ties`` of that river, in 0 .. 1,980);
- flop: the same over the 1,081 turn-river pairs of each canonical flop.

EHS = sum e / (completions * 1,980), EHS² = sum e² / (completions * 1,980²): exact integer
numerators with a known denominator. Histogram bin of a river equity ``e / 1,980`` with ``B``
bins is ``min(e * B // 1,980, B - 1)`` (integer arithmetic, so no float rounding can move a
hand across a bin edge).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM
from pipeline.core.combos import unrank_many
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, N_HOLE_PAIRS
from pipeline.core.parallel import even_chunk
from pipeline.equity.exact.allhands import board_showdown, showdown_scratch
from pipeline.equity.hands.symmetry import canonical_subsets, stabilizer, symmetrise_hands
from pipeline.query.abstraction.indexer import class_count, index_batch, index_row
from pipeline.query.abstraction.shapes import HOLE_SIZE, STREETS, TABLES, IndexerTables

#: Opponent hands on a river: C(52 - 2 - 5, 2).
RIVER_OPPONENTS = 990
#: ``2*wins + ties`` of a hand that beats every opponent: the equity denominator of one river.
RIVER_SCALE = 2 * RIVER_OPPONENTS
#: Marks a class no board has reached yet (larger than any ``2*wins + ties``).
UNSET = np.iinfo(np.uint16).max
#: Parallel work units of a pass.
N_CHUNKS = 64
#: A histogram count is written a byte at a time (one kernel for uint8 and uint16 counts).
BYTE_BITS = 8
BYTE_MASK = (1 << BYTE_BITS) - 1


def canonical_boards(k: int) -> tuple[np.ndarray, np.ndarray]:
    """The suit-canonical ``k``-card boards (sorted rows, int64) and how many boards each stands
    for (its orbit under the 24 suit permutations)."""
    perms = stabilizer([])
    avail = np.arange(DECK_SIZE, dtype=np.int64)
    w = canonical_subsets(avail, k, perms, BINOM)
    keep = np.flatnonzero(w)
    return avail[unrank_many(keep, k, DECK_SIZE)], w[keep].astype(np.int64)


@nb.njit(cache=True)
def board_mask(board: np.ndarray) -> np.uint64:
    """Bit mask of a row of card ids."""
    m = np.uint64(0)
    for c in board:
        m |= np.uint64(1) << np.uint64(c)
    return m


@nb.njit(cache=True, parallel=True)
def river_pass(boards: np.ndarray, board_w: np.ndarray, bins: int, table: np.ndarray,
               binom: np.ndarray, t: IndexerTables, out: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``out[class] = 2*wins + ties`` for every hand on every board row (5 sorted cards,
    suit-canonical, ``board_w`` boards each), and ``weight[class]`` = the raw situations the
    class stands for. Returns int64[N_CHUNKS, 1326, 2 + bins]: per hand, board-weighted sums of
    e, e² and the histogram of e (the preflop figures before suit symmetrisation).

    A class's situations all lie on one canonical board, so one thread owns each class; its
    weight is the board's orbit times the hands of that board in the class.
    """
    acc = np.zeros((N_CHUNKS, N_HOLE_PAIRS, 2 + bins), np.int64)
    for ch in nb.prange(N_CHUNKS):
        start, stop = even_chunk(boards.shape[0], N_CHUNKS, ch)
        board, parts, gap, live, keys, pa, pb, less_c, eq_c, lo, eq, srt = showdown_scratch()
        row = np.empty((1, HOLE_SIZE + BOARD_CARDS), np.int64)
        for bi in range(start, stop):
            w = board_w[bi]
            for j in range(BOARD_CARDS):
                board[j] = boards[bi, j]
                row[0, HOLE_SIZE + j] = board[j]
            n, _ = board_showdown(board, board_mask(board), table, binom, parts, gap, live, keys,
                                  pa, pb, less_c, eq_c, lo, eq, srt)
            for k in range(n):
                row[0, 0] = pa[k]
                row[0, 1] = pb[k]
                e = 2 * lo[k] + eq[k]
                idx = index_row(row, np.int64(0), t)
                out[idx] = e
                weight[idx] += w
                h = pa[k] + pb[k] * (pb[k] - 1) // 2
                acc[ch, h, 0] += w * e
                acc[ch, h, 1] += w * e * e
                acc[ch, h, 2 + min(e * bins // RIVER_SCALE, bins - 1)] += w
    return acc


@nb.njit(cache=True, parallel=True)
def _future_rows(boards: np.ndarray, to_come: int, bins: int, table: np.ndarray, binom: np.ndarray,
                 t: IndexerTables, idx: np.ndarray, s1: np.ndarray, s2: np.ndarray,
                 hist_bytes: np.ndarray, width: int) -> None:
    """Turn (``to_come`` = 1) or flop (2) figures of every hand on every board row, summed over
    every completion to a river. Board ``bi``'s hands fill rows ``bi * H ..`` (``H`` = pairs of
    the cards off the board), each with its class index in ``idx``.

    ``hist_bytes`` is the histogram's bytes (rows x ``bins * width``): counts ``width`` bytes
    wide, little-endian. One byte type for both streets compiles the kernel once, not once
    for the turn's uint8 and again for the flop's uint16."""
    k0 = boards.shape[1]
    m = DECK_SIZE - k0
    per_board = m * (m - 1) // 2
    for ch in nb.prange(N_CHUNKS):
        start, stop = even_chunk(boards.shape[0], N_CHUNKS, ch)
        board, parts, gap, live, keys, pa, pb, less_c, eq_c, lo, eq, srt = showdown_scratch()
        a1 = np.zeros(N_HOLE_PAIRS, np.int64)
        a2 = np.zeros(N_HOLE_PAIRS, np.int64)
        ah = np.zeros((N_HOLE_PAIRS, bins), np.int64)
        rest = np.empty(DECK_SIZE, np.int64)
        full = np.empty(BOARD_CARDS, np.int64)
        row = np.empty((1, HOLE_SIZE + k0), np.int64)
        for bi in range(start, stop):
            base = board_mask(boards[bi])
            n_rest = 0
            for c in range(DECK_SIZE):
                if not (base >> np.uint64(c)) & np.uint64(1):
                    rest[n_rest] = c
                    n_rest += 1
            a1[:] = 0
            a2[:] = 0
            ah[:] = 0
            for i in range(m):
                # the flop completes with a pair of cards, the turn with one (j == i)
                for j in range(i + 1 if to_come == 2 else i, m if to_come == 2 else i + 1):
                    for q in range(k0):
                        full[q] = boards[bi, q]
                    full[k0] = rest[i]
                    if to_come == 2:
                        full[k0 + 1] = rest[j]
                    board[:] = np.sort(full)
                    used = base | (np.uint64(1) << np.uint64(rest[i])) | (np.uint64(1) << np.uint64(rest[j]))
                    n, _ = board_showdown(board, used, table, binom, parts, gap, live, keys, pa, pb,
                                          less_c, eq_c, lo, eq, srt)
                    for k in range(n):
                        h = pa[k] + pb[k] * (pb[k] - 1) // 2
                        e = 2 * lo[k] + eq[k]
                        a1[h] += e
                        a2[h] += e * e
                        ah[h, min(e * bins // RIVER_SCALE, bins - 1)] += 1
            for q in range(k0):
                row[0, HOLE_SIZE + q] = boards[bi, q]
            r = bi * per_board
            for j in range(m):
                for i in range(j):
                    a = rest[i]
                    b = rest[j]
                    h = a + b * (b - 1) // 2
                    row[0, 0] = a
                    row[0, 1] = b
                    idx[r] = index_row(row, np.int64(0), t)
                    s1[r] = a1[h]
                    s2[r] = a2[h]
                    if width == 1:  # the turn: a count is its byte
                        for x in range(bins):
                            hist_bytes[r, x] = ah[h, x]
                    else:
                        for x in range(bins):
                            v = ah[h, x]
                            for byte in range(width):
                                hist_bytes[r, x * width + byte] = (v >> (BYTE_BITS * byte)) & BYTE_MASK
                    r += 1


def future_block(street: str, bins: int, boards: np.ndarray,
                 table7: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """Pure task: the turn or flop rows of a block of boards: ``(idx, s1, s2, hist)``, one row
    per (board, hand), board-major. Without ``table7`` (a Dask worker) the 7-card scores are
    computed in the process, once."""
    if table7 is None:
        from pipeline.core.evaluate import seven_scores

        table7 = seven_scores()
    boards = np.ascontiguousarray(boards, np.int64)
    m = DECK_SIZE - boards.shape[1]
    rows = len(boards) * (m * (m - 1) // 2)
    idx = np.empty(rows, np.int64)
    s1 = np.empty(rows, np.uint32)
    s2 = np.empty(rows, np.uint64)
    # little-endian spelled out so the kernel's byte writes mean the same on any host (on a
    # little-endian one it is the native type: same array, same bytes)
    hist = np.empty((rows, bins), np.dtype(_hist_dtype(street)).newbyteorder("<"))
    _future_rows(boards, BOARD_CARDS - boards.shape[1], bins, table7, BINOM, TABLES, idx, s1, s2,
                 hist.view(np.uint8), hist.itemsize)
    return idx, s1, s2, hist


def _hist_dtype(street: str) -> type[np.unsignedinteger]:
    """The narrowest type holding a histogram count (a turn hand has 46 rivers, a flop 1,081)."""
    return np.uint8 if COMPLETIONS[street] <= np.iinfo(np.uint8).max else np.uint16


@dataclass
class Figures:
    """Exact figures of every class of one street.

    ``value`` (river only): ``2*wins + ties`` against the 990 opponent hands. ``s1``, ``s2``,
    ``hist`` (other streets): sums over the ``completions`` rivers of ``e``, ``e**2`` and counts
    of ``e`` per bin, where ``e`` is that river's ``2*wins + ties``. ``weight``: the raw
    situations (ordered by nothing: sets of cards) each class stands for; 0 marks a class no
    board reached (only when the pass was given a subset of boards).
    """

    street: str
    bins: int
    completions: int
    weight: np.ndarray
    value: np.ndarray | None = None
    s1: np.ndarray | None = None
    s2: np.ndarray | None = None
    hist: np.ndarray | None = None

    def ehs(self) -> np.ndarray:
        """Mean river equity of each class (float64; exact numerator / known denominator)."""
        if self.value is not None:
            return self.value / RIVER_SCALE
        assert self.s1 is not None
        return self.s1 / (self.completions * RIVER_SCALE)

    def ehs2(self) -> np.ndarray:
        """Mean squared river equity of each class."""
        if self.value is not None:
            return (self.value.astype(np.float64) / RIVER_SCALE) ** 2
        assert self.s2 is not None
        return self.s2 / (self.completions * RIVER_SCALE ** 2)


#: Rivers a hand is summed over: the turn's 46 river cards, the flop's C(47, 2) turn-river pairs,
#: preflop's C(50, 5) boards.
COMPLETIONS = {"river": 1, "turn": 46, "flop": 1081, "preflop": 2_118_760}


def river_and_preflop(table7: np.ndarray, bins: int, boards: np.ndarray | None = None,
                      board_w: np.ndarray | None = None,
                      progress: Callable[[float], None] | None = None,
                      blocks: int = 1) -> tuple[Figures, Figures | None]:
    """River figures of every class and preflop figures of the 169 classes, in one pass over
    the suit-canonical 5-card boards. Given ``boards`` rows (each ``board_w`` boards), only the
    river classes they reach are set and there are no preflop figures (None): those need every
    board."""
    every = boards is None
    if boards is None:
        boards, board_w = canonical_boards(BOARD_CARDS)
    elif board_w is None:
        board_w = np.ones(len(boards), np.int64)
    boards = np.ascontiguousarray(boards, np.int64)
    n = class_count("river")
    value = np.full(n, UNSET, np.uint16)
    weight = np.zeros(n, np.uint8)
    acc = np.zeros((N_HOLE_PAIRS, 2 + bins), np.int64)
    for i in range(blocks):
        a, b = len(boards) * i // blocks, len(boards) * (i + 1) // blocks
        acc += river_pass(boards[a:b], board_w[a:b], bins, table7, BINOM, TABLES, value,
                          weight).sum(axis=0)
        if progress is not None:
            progress((i + 1) / blocks)
    river = Figures("river", bins, COMPLETIONS["river"], weight, value=value)
    if not every:
        return river, None
    # every board is the image of a canonical one: average the per-hand sums over the 24 suit
    # permutations, then each class of hands (169) takes its members' common figures
    per_hand = symmetrise_hands(acc, stabilizer([]))
    hands = np.array([[a, b] for b in range(DECK_SIZE) for a in range(b)], np.int64)
    cls = index_batch(hands, check=False)
    first = np.unique(cls, return_index=True)[1]
    counts = np.bincount(cls, minlength=class_count("preflop")).astype(np.uint8)
    pre = per_hand[first]
    preflop = Figures("preflop", bins, COMPLETIONS["preflop"], counts, s1=pre[:, 0].copy(),
                      s2=pre[:, 1].copy(), hist=pre[:, 2:].copy())
    return river, preflop


def future_figures(street: str, table7: np.ndarray | None, bins: int, boards: np.ndarray | None = None,
                   board_w: np.ndarray | None = None,
                   progress: Callable[[float], None] | None = None, blocks: int = 1,
                   run_blocks: Callable[[list[np.ndarray]], Iterable[tuple[np.ndarray, ...]]] | None = None
                   ) -> Figures:
    """Turn or flop figures of every class (or of the classes the given ``boards`` rows reach,
    each standing for ``board_w`` boards), exactly counted.

    The boards are cut into ``blocks``; ``run_blocks`` (default: one after another here) maps
    :func:`future_block` over them, e.g. on Dask workers. A class's rows all come from one
    board, so the scattered result is the same bytes however the blocks ran.
    """
    k = STREETS[street]
    if boards is None:
        boards, board_w = canonical_boards(k)
    elif board_w is None:
        board_w = np.ones(len(boards), np.int64)
    boards = np.ascontiguousarray(boards, np.int64)
    n = class_count(street)
    s1 = np.zeros(n, np.uint32)
    s2 = np.zeros(n, np.uint64)
    hist = np.zeros((n, bins), _hist_dtype(street))
    weight = np.zeros(n, np.int64)
    cuts = [len(boards) * i // blocks for i in range(blocks + 1)]
    parts = [boards[a:b] for a, b in zip(cuts, cuts[1:])]
    if run_blocks is None:
        def run_blocks(ps: list[np.ndarray]) -> Iterable[tuple[np.ndarray, ...]]:
            return (future_block(street, bins, p, table7) for p in ps)
    m = DECK_SIZE - k
    per_board = m * (m - 1) // 2
    for i, (idx, r1, r2, rh) in enumerate(run_blocks(parts)):
        s1[idx] = r1
        s2[idx] = r2
        hist[idx] = rh
        # a class's weight: its board's orbit times that board's hands in the class
        weight += np.bincount(idx, weights=np.repeat(board_w[cuts[i]:cuts[i + 1]], per_board),
                              minlength=n).astype(np.int64)
        if progress is not None:
            progress((i + 1) / blocks)
    return Figures(street, bins, COMPLETIONS[street], weight.astype(np.uint8), s1=s1, s2=s2, hist=hist)


__all__ = ["RIVER_OPPONENTS", "RIVER_SCALE", "UNSET", "COMPLETIONS", "Figures", "canonical_boards", "board_mask",
           "river_pass", "river_and_preflop", "future_block", "future_figures"]
