"""Shape tables of the suit-isomorphic hold'em indexer (:mod:`pipeline.query.abstraction.indexer`).

A situation is a 2-card hole and a k-card board. Per suit, its hole ranks ``H`` (``m1`` of them)
and board ranks ``B`` (``m2``, disjoint from ``H``) give the suit's *shape* ``(m1, m2)``, coded
``m1 * SHAPE_RADIX + m2``. A *configuration* is the ascending 4-tuple of the four suits' shape
codes; its shapes sum to ``(2, k)``. Configurations of a board size are numbered in the
lexicographic order of their tuples and the classes of configuration ``c`` take the index range
``CONFIG_OFFSET[c] .. CONFIG_OFFSET[c] + CONFIG_COUNT[c] - 1`` of its street.

Everything here is small: the largest array is the configuration lookup by shape tuple
(``int16[18**4]``, ~210 kB, of which a kernel touches one cache line per configuration).
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import comb, prod
from typing import NamedTuple

import numpy as np

from pipeline.core.cards import BINOM, colex_index
from pipeline.core.constants import BOARD_CARDS, N_RANKS, N_SUITS

#: Hole cards of a hold'em hand (one group of the imperfect-recall indexer).
HOLE_SIZE = 2
#: Street name -> board size; the only situations :func:`class_count` and the API accept.
STREETS: dict[str, int] = {"preflop": 0, "flop": 3, "turn": 4, "river": BOARD_CARDS}
#: Shape code = m1 * SHAPE_RADIX + m2 (m2 runs 0..BOARD_CARDS).
SHAPE_RADIX = BOARD_CARDS + 1
#: Shape codes run 0 .. N_SHAPES - 1 (m1 runs 0..HOLE_SIZE).
N_SHAPES = (HOLE_SIZE + 1) * SHAPE_RADIX
#: Bits per suit lane in the kernels' suit-major rank masks (bit ``RANK_BITS * suit + rank``).
RANK_BITS = 16
#: The 13 rank bits of one suit lane.
RANK_MASK = (1 << N_RANKS) - 1
#: A suit's sort key is ``shape << SUIT_INDEX_BITS | per-suit index`` (index < 36,036 < 2**16).
SUIT_INDEX_BITS = 16
SUIT_INDEX_MASK = (1 << SUIT_INDEX_BITS) - 1
#: Entry of :data:`CONFIG_OF_KEY` for a shape tuple that is no configuration.
NO_CONFIG = -1


def shape_of(code: int) -> tuple[int, int]:
    """``(m1, m2)`` of a shape code."""
    return divmod(code, SHAPE_RADIX)


def shape_size(code: int) -> int:
    """Per-suit situations of a shape: ``C(13, m1) * C(13 - m1, m2)``."""
    m1, m2 = shape_of(code)
    return comb(N_RANKS, m1) * comb(N_RANKS - m1, m2)


def multichoose(n: int, j: int) -> int:
    """Multisets of size ``j`` from ``n`` items: ``C(n + j - 1, j)``."""
    return comb(n + j - 1, j) if n else int(j == 0)


def shape_groups(shapes: tuple[int, ...]) -> list[tuple[int, int]]:
    """Runs of equal codes in an ascending shape tuple: ``[(shape, count), ...]`` in order."""
    out: list[tuple[int, int]] = []
    for s in shapes:
        if out and out[-1][0] == s:
            out[-1] = (s, out[-1][1] + 1)
        else:
            out.append((s, 1))
    return out


def configurations(k: int) -> list[tuple[int, ...]]:
    """Configurations of board size ``k`` in index order (lexicographic over ascending tuples)."""
    out = []
    for shapes in combinations_with_replacement(range(N_SHAPES), N_SUITS):
        m = [shape_of(s) for s in shapes]
        if sum(a for a, _ in m) == HOLE_SIZE and sum(b for _, b in m) == k:
            out.append(shapes)
    return out


def config_count(shapes: tuple[int, ...]) -> int:
    """Classes of one configuration: product over its shape groups of ``multichoose(N, j)``."""
    return prod(multichoose(shape_size(s), j) for s, j in shape_groups(shapes))


def config_key(shapes: tuple[int, ...]) -> int:
    """Lookup key of an ascending shape tuple: base-:data:`N_SHAPES` digits, first most significant."""
    key = 0
    for s in shapes:
        key = key * N_SHAPES + s
    return key


class IndexerTables(NamedTuple):
    """The arrays the indexer kernels read (a few kB touched per street)."""

    colex13: np.ndarray        # uint16[8192]: colex index of a rank mask's set bits (<= 5 of them)
    binom: np.ndarray          # int64[53, 8]: C(n, k) (pipeline.core.cards.BINOM)
    ms_binom: np.ndarray       # int64[rows, 5]: C(n, i) for the multiset terms of repeated shapes
    ms_count: np.ndarray       # int64[N_SHAPES, 5]: multichoose(shape size, j)
    shape_size: np.ndarray     # int64[N_SHAPES]: per-suit situations of each shape
    config_of_key: np.ndarray  # int16[N_SHAPES**4]: configuration id of a shape tuple, or -1
    config_shapes: np.ndarray  # int64[n_configs, 4]: ascending shape codes of each configuration
    config_offset: np.ndarray  # int64[n_configs]: first class index of each configuration in its street
    street_config: np.ndarray  # int64[BOARD_CARDS + 2]: configs of board size k are [k] .. [k+1]-1


def _build() -> tuple[IndexerTables, dict[int, int]]:
    # only masks of at most BOARD_CARDS ranks are ever looked up (a suit's hole or board ranks)
    colex13 = np.zeros(1 << N_RANKS, np.uint16)
    for size in range(BOARD_CARDS + 1):
        for ranks in combinations(range(N_RANKS), size):
            colex13[sum(1 << r for r in ranks)] = colex_index(ranks)
    all_shapes: list[tuple[int, ...]] = []
    offsets: list[int] = []
    street_config = [0]
    totals: dict[int, int] = {}
    for k in range(BOARD_CARDS + 1):
        total = 0
        for shapes in configurations(k):
            all_shapes.append(shapes)
            offsets.append(total)
            total += config_count(shapes)
        street_config.append(len(all_shapes))
        totals[k] = total
    config_of_key = np.full(N_SHAPES ** N_SUITS, NO_CONFIG, np.int16)
    for c, shapes in enumerate(all_shapes):
        config_of_key[config_key(shapes)] = c
    # multiset terms C(a + i - 1, i), i >= 2, occur only for shapes that repeat in a configuration
    repeat_max = max((shape_size(s) for shapes in all_shapes for s, j in shape_groups(shapes) if j > 1),
                     default=1)
    ms_rows = repeat_max + N_SUITS
    ms_binom = np.array([[comb(n, i) for i in range(N_SUITS + 1)] for n in range(ms_rows)], np.int64)
    ms_count = np.array([[multichoose(shape_size(s), j) for j in range(N_SUITS + 1)] for s in range(N_SHAPES)],
                        np.int64)
    sizes = np.array([shape_size(s) for s in range(N_SHAPES)], np.int64)
    tables = IndexerTables(colex13, BINOM, ms_binom, ms_count, sizes, config_of_key,
                           np.array(all_shapes, np.int64), np.array(offsets, np.int64),
                           np.array(street_config, np.int64))
    return tables, totals


#: The kernels' tables, built once on import (a few milliseconds).
TABLES, _TOTALS = _build()
#: Classes per board size 0..5 (the closed form: sum over configurations of their counts).
COUNTS_BY_BOARD: dict[int, int] = dict(_TOTALS)

__all__ = ["HOLE_SIZE", "STREETS", "SHAPE_RADIX", "N_SHAPES", "RANK_BITS",
           "RANK_MASK", "SUIT_INDEX_BITS", "SUIT_INDEX_MASK", "NO_CONFIG", "IndexerTables", "TABLES",
           "COUNTS_BY_BOARD", "shape_of", "shape_size", "multichoose", "shape_groups", "configurations",
           "config_count", "config_key"]
