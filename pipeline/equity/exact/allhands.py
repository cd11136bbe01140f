"""Preflop counts of all 1,326 hands at once: exact heads-up, and Monte Carlo against 2..9 hands.

Both passes are board-major: each board is prepared once and every live two-card hand is scored
on it, so one board serves hundreds of hands. They feed the ``preflop`` stage, and the heads-up
table answers every preflop question of one hand against one random hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numba as nb
import numpy as np
from numba import get_num_threads

from pipeline.core.cards import BINOM
from pipeline.core.combos import unrank_many
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, MAX_OPPONENTS, N_HOLE_PAIRS, SHARE_SCALE
from pipeline.core.deal import partial_shuffle
from pipeline.core.fasteval import EvalTables, hand_key, hand_score
from pipeline.core.parallel import even_chunk, run_chunks
from pipeline.core.rng import seed_state
from pipeline.equity.hands.boardindex import board_scratch, index7, prepare_board
from pipeline.equity.hands.standing import add_score
from pipeline.equity.hands.symmetry import canonical_subsets, stabilizer, symmetrise_hands
from pipeline.errors import InputError

#: Chunks a pass is split into (parallel work units; Monte Carlo: one generator stream each).
N_CHUNKS = 64
#: Sort keys pack a score above a pair's index; 11 bits hold the 1,326 pair indices.
_PAIR_BITS = 11
_PAIR_MASK = (1 << _PAIR_BITS) - 1
#: Above the pair index a key holds the hand's group (:func:`group_showdown`), then the score.
_GROUP_BITS = 8
_GROUP_MASK = (1 << _GROUP_BITS) - 1
_SCORE_SHIFT = _GROUP_BITS + _PAIR_BITS
#: Most groups :func:`group_showdown` takes.
MAX_GROUPS = 1 << _GROUP_BITS
#: Blocks the heads-up pass is cut into when progress is reported (the result is the same).
_PROGRESS_BLOCKS = 16


@nb.njit(cache=True)
def showdown_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                np.ndarray, np.ndarray]:
    """Per-thread buffers for :func:`board_showdown`: ``(board, parts, gap, live, keys, pa, pb,
    less_c, eq_c, lo, eq, srt)``."""
    board, parts, gap = board_scratch()
    return (board, parts, gap, np.empty(DECK_SIZE, np.int64), np.empty(N_HOLE_PAIRS, np.int64),
            np.empty(N_HOLE_PAIRS, np.int64), np.empty(N_HOLE_PAIRS, np.int64),
            np.zeros(DECK_SIZE, np.int64), np.zeros(DECK_SIZE, np.int64),
            np.empty(N_HOLE_PAIRS, np.int64), np.empty(N_HOLE_PAIRS, np.int64),
            np.empty(N_HOLE_PAIRS, np.int64))


#: Group labels of the ungrouped showdown: every hand in group 0.
_ONE_GROUP = np.zeros(N_HOLE_PAIRS, np.int64)


@nb.njit(cache=True)
def board_showdown(board: np.ndarray, used: np.uint64, table: np.ndarray, binom: np.ndarray,
                   parts: np.ndarray, gap: np.ndarray, live: np.ndarray, keys: np.ndarray,
                   pa: np.ndarray, pb: np.ndarray, less_c: np.ndarray, eq_c: np.ndarray,
                   lo: np.ndarray, eq: np.ndarray, srt: np.ndarray) -> tuple[int, int]:
    """Every live two-card hand against every disjoint live hand on one complete board.

    ``board`` holds 5 sorted cards, ``used`` is a mask of the board and dead cards. Fills
    ``pa[i] < pb[i]``, ``lo[i]`` (opponent hands it beats) and ``eq[i]`` (hands it ties) for
    i < n and returns ``(n, opponents)``: the live hands and each one's disjoint opponent hands.
    It is :func:`group_showdown` with every hand in one group.
    """
    totals = np.empty(2, np.int64)
    n = group_showdown(board, used, table, binom, parts, gap, live, keys, pa, pb, _ONE_GROUP,
                       less_c.reshape((DECK_SIZE, 1)), eq_c.reshape((DECK_SIZE, 1)),
                       totals[:1], totals[1:], lo.reshape((N_HOLE_PAIRS, 1)),
                       eq.reshape((N_HOLE_PAIRS, 1)), srt)
    m = 0
    for c in range(DECK_SIZE):
        m += not (used >> np.uint64(c)) & np.uint64(1)
    return n, (m - 2) * (m - 3) // 2


@nb.njit(cache=True)
def group_showdown(board: np.ndarray, used: np.uint64, table: np.ndarray, binom: np.ndarray,
                   parts: np.ndarray, gap: np.ndarray, live: np.ndarray, keys: np.ndarray,
                   pa: np.ndarray, pb: np.ndarray, group: np.ndarray, less_c: np.ndarray,
                   eq_c: np.ndarray, less_g: np.ndarray, eq_g: np.ndarray, lo: np.ndarray,
                   eq: np.ndarray, srt: np.ndarray) -> int:
    """Every live two-card hand against the disjoint live hands of each group, on one board.

    ``group[h]`` (0 .. G-1, by two-card colex index) labels the opponent hands; ``less_c`` and
    ``eq_c`` are int64[52, G], ``less_g``/``eq_g`` int64[G], ``lo``/``eq`` int64[>= 1326, G].
    The live hands are scored once and sorted; sweeping scores upward with per-(card, group)
    counters gives, for hand {a, b}, the hands of group g below it that avoid a and b by
    inclusion-exclusion (all - with a - with b; the pair {a, b} itself is never below itself).
    Fills ``pa[i] < pb[i]``, ``lo[i, g]`` (hands of group g it beats) and ``eq[i, g]`` (ties)
    for i < n and returns n. Afterwards ``less_c[c, g]`` counts the live hands of group g
    holding card c and ``less_g[g]`` those of group g, which :func:`group_opponents` turns
    into each hand's opponents per group.
    """
    prepare_board(board, binom, parts, gap)
    m = 0
    for c in range(DECK_SIZE):
        if not (used >> np.uint64(c)) & np.uint64(1):
            live[m] = c
            m += 1
    # score every live pair, keyed for one sort (score above pair index)
    n = 0
    for i in range(m):
        a = live[i]
        for j in range(i + 1, m):
            b = live[j]
            pa[n] = a
            pb[n] = b
            g = group[a + ((b * (b - 1)) >> 1)]
            keys[n] = (((np.int64(table[index7(a, b, parts, gap, binom)]) << _GROUP_BITS) | g)
                       << _PAIR_BITS) | n
            n += 1
    # copied in a loop: assigning an array to a slice compiles numba's shape-mismatch message
    # (its string formatting, about 2 CPU seconds in each process that compiles it)
    ordered = np.sort(keys[:n])
    for t in range(n):
        srt[t] = ordered[t]
    n_groups = less_g.shape[0]
    less_c[:] = 0
    less_g[:] = 0
    eq_g[:] = 0
    g0 = 0
    while g0 < n:
        s0 = srt[g0] >> _SCORE_SHIFT
        g1 = g0
        while g1 < n and (srt[g1] >> _SCORE_SHIFT) == s0:
            k = srt[g1] & _PAIR_MASK
            h = (srt[g1] >> _PAIR_BITS) & _GROUP_MASK
            eq_c[pa[k], h] += 1
            eq_c[pb[k], h] += 1
            eq_g[h] += 1
            g1 += 1
        for t in range(g0, g1):
            k = srt[t] & _PAIR_MASK
            a = pa[k]
            b = pb[k]
            for g in range(n_groups):
                lo[k, g] = less_g[g] - less_c[a, g] - less_c[b, g]
                eq[k, g] = eq_g[g] - eq_c[a, g] - eq_c[b, g]
            # the hand itself is in its group's tie count once and was subtracted twice
            eq[k, (srt[t] >> _PAIR_BITS) & _GROUP_MASK] += 1
        for t in range(g0, g1):
            k = srt[t] & _PAIR_MASK
            h = (srt[t] >> _PAIR_BITS) & _GROUP_MASK
            eq_c[pa[k], h] = 0
            eq_c[pb[k], h] = 0
            less_c[pa[k], h] += 1
            less_c[pb[k], h] += 1
            less_g[h] += 1
            eq_g[h] = 0
        g0 = g1
    return n


@nb.njit(cache=True)
def group_opponents(a: int, b: int, group: np.ndarray, less_c: np.ndarray, less_g: np.ndarray,
                    out: np.ndarray) -> None:
    """``out[g]`` = live hands of group g disjoint from hand {a, b}, from the counters a
    :func:`group_showdown` sweep leaves (all - with a - with b + the hand itself)."""
    for g in range(less_g.shape[0]):
        out[g] = less_g[g] - less_c[a, g] - less_c[b, g]
    out[group[a + ((b * (b - 1)) >> 1)]] += 1


@nb.njit(cache=True, nogil=True)
def _hu_chunk(ch: int, boards: np.ndarray, weights: np.ndarray, dead: np.uint64, table: np.ndarray,
              binom: np.ndarray, acc: np.ndarray) -> None:
    """Chunk ``ch`` of :func:`_hu_all_hands` into ``acc[ch]``."""
    n_chunks = acc.shape[0]
    start, stop = even_chunk(boards.shape[0], n_chunks, ch)
    board, parts, gap, live, keys, pa, pb, less_c, eq_c, lo, eq, srt = showdown_scratch()
    for bi in range(start, stop):
        w = weights[bi]
        bm = dead
        for k in range(BOARD_CARDS):
            board[k] = boards[bi, k]
            bm |= np.uint64(1) << np.uint64(board[k])
        n, disjoint = board_showdown(board, bm, table, binom, parts, gap, live, keys, pa, pb,
                                     less_c, eq_c, lo, eq, srt)
        for k in range(n):
            h = pa[k] + pb[k] * (pb[k] - 1) // 2
            acc[ch, h, 0] += w * lo[k]
            acc[ch, h, 1] += w * eq[k]
            acc[ch, h, 2] += w * (disjoint - lo[k] - eq[k])


def _hu_all_hands(boards: np.ndarray, weights: np.ndarray, dead: np.uint64, table: np.ndarray,
                  binom: np.ndarray, n_chunks: int) -> np.ndarray:
    """Weighted win/tie/lose counts of every two-card hand against every disjoint hand, summed
    over the boards (rows of ``boards``, sorted) by :func:`board_showdown`. Returns
    int64[n_chunks, 1326, 3]. The chunks run on threads (:func:`run_chunks`: no
    ``parallel=True`` wrapper to compile)."""
    acc = np.zeros((n_chunks, N_HOLE_PAIRS, 3), np.int64)
    run_chunks(lambda ch: _hu_chunk(ch, boards, weights, dead, table, binom, acc), n_chunks,
               get_num_threads())
    return acc


def heads_up_all_hands(table7: np.ndarray, dead: Sequence[int] = (),
                       progress: Callable[[float], None] | None = None) -> np.ndarray:
    """Exact preflop win/tie/lose counts of all 1,326 hands against one random hand.

    Returns int64[1326, 3] by two-card colex index; a hand's row sums to
    C(50-d, 2) * C(48-d, 5) deals (d dead cards; 2,097,572,400 with none), hands touching a
    dead card are all zero. Boards are enumerated once per orbit of the suit permutations
    that fix the dead set (134,459 boards with no dead cards), then counts are symmetrised.
    """
    dead_l = sorted({int(c) for c in dead})
    perms = stabilizer([dead_l])
    avail = np.array([c for c in range(DECK_SIZE) if c not in set(dead_l)], dtype=np.int64)
    w = canonical_subsets(avail, BOARD_CARDS, perms, BINOM)
    keep = np.flatnonzero(w)
    boards = avail[unrank_many(keep, BOARD_CARDS, len(avail))]
    weights = w[keep]
    dmask = np.uint64(sum(1 << c for c in dead_l))
    acc = np.zeros((N_HOLE_PAIRS, 3), np.int64)
    nblk = _PROGRESS_BLOCKS if progress else 1
    for i in range(nblk):
        a, b = len(boards) * i // nblk, len(boards) * (i + 1) // nblk
        part = _hu_all_hands(np.ascontiguousarray(boards[a:b]), weights[a:b], dmask, table7,
                             BINOM, N_CHUNKS)
        acc += part.sum(axis=0)
        if progress:
            progress((i + 1) / nblk)
    return symmetrise_hands(acc, perms)


_HU_CACHE: dict[tuple[int, int, tuple[int, ...]], np.ndarray] = {}


def heads_up_cached(table7: np.ndarray, dead: Sequence[int]) -> np.ndarray:
    """:func:`heads_up_all_hands` remembered per table and dead set (32 KB each): every
    preflop heads-up question after the first is then a row lookup."""
    key = (table7.__array_interface__["data"][0], table7.shape[0], tuple(sorted(dead)))
    hit = _HU_CACHE.get(key)
    if hit is None:
        hit = _HU_CACHE[key] = heads_up_all_hands(table7, dead)
    return hit


def mc_all_hands(nr: int, samples: int, seed: int, stream0: int, n_chunks: int,
                 card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                 flush: np.ndarray) -> np.ndarray:
    """Preflop Monte Carlo for every hero hand at once against ``nr`` random hands.

    Each sample deals a board and ``nr`` hands from the full deck; every two-card hand from
    the remaining cards is then a hero whose deal is uniform given that it avoids those cards,
    so one sample serves hundreds of hands. Scoring uses the cache-resident evaluator
    (:mod:`pipeline.core.fasteval`): the board's key is summed once, each hand adds its two
    cards, so the hundreds of lookups per sample never leave the L2 cache. Returns
    int64[n_chunks, 1326, 4]: observations, wins, ties, equity numerator (x SHARE_SCALE), per
    chunk (the chunks are the batches for the batch-means standard error); chunk ``ch`` draws
    from stream ``stream0 + ch``.
    """
    acc = np.zeros((n_chunks, N_HOLE_PAIRS, 4), np.int64)
    # the chunks run on threads (no parallel=True wrapper to compile)
    run_chunks(lambda ch: _mc_chunk(ch, nr, samples, seed, stream0, card_keys, offsets, ranks,
                                    flush, acc), n_chunks, get_num_threads())
    return acc


@nb.njit(cache=True, nogil=True)
def _mc_chunk(ch: int, nr: int, samples: int, seed: int, stream0: int, card_keys: np.ndarray,
              offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, acc: np.ndarray) -> None:
    """Chunk ``ch`` of :func:`mc_all_hands` into ``acc[ch]``."""
    n_chunks = acc.shape[0]
    need = BOARD_CARDS + 2 * nr
    one = np.uint64(1)
    st = seed_state(seed, stream0 + ch)
    deck = np.arange(DECK_SIZE).astype(np.int64)
    out = acc[ch]
    lo_s, hi_s = even_chunk(samples, n_chunks, ch)
    for _ in range(hi_s - lo_s):
        partial_shuffle(st, deck, DECK_SIZE, need)
        bkey, bmask = hand_key(deck, BOARD_CARDS, card_keys)
        best = 0
        nbest = 0
        for o in range(nr):
            a = deck[BOARD_CARDS + 2 * o]
            b = deck[BOARD_CARDS + 1 + 2 * o]
            so = hand_score(bkey + card_keys[a] + card_keys[b],
                            bmask | (one << np.uint64(a)) | (one << np.uint64(b)),
                            offsets, ranks, flush)
            best, nbest = add_score(so, best, nbest)
        tie_share = SHARE_SCALE // (1 + nbest)
        m = DECK_SIZE - need
        for i in range(m):
            a = deck[need + i]
            ka = bkey + card_keys[a]
            ma = bmask | (one << np.uint64(a))
            for j in range(i + 1, m):
                b = deck[need + j]
                s = hand_score(ka + card_keys[b], ma | (one << np.uint64(b)),
                               offsets, ranks, flush)
                lo = min(a, b)
                hi = max(a, b)
                h = lo + hi * (hi - 1) // 2
                win = np.int64(s > best)
                tie = np.int64(s == best)
                out[h, 0] += 1
                out[h, 1] += win
                out[h, 2] += tie
                out[h, 3] += win * SHARE_SCALE + tie * tie_share


def multiway_all_hands(tables: EvalTables, opponents: int, samples: int, seed: int,
                       stream0: int = 0) -> np.ndarray:
    """Monte Carlo preflop counts of every hand against ``opponents`` random hands.

    ``samples`` deals (board + opponents) are split over :data:`N_CHUNKS` batches; returns
    int64[N_CHUNKS, 1326, 4] (observations, wins, ties, equity numerator x SHARE_SCALE).
    Rounds with different ``stream0`` are independent, so callers can add rounds until a
    target error.
    """
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise InputError(f"opponents must be 1..{MAX_OPPONENTS}, got {opponents}")
    return mc_all_hands(opponents, samples, seed, stream0, N_CHUNKS, *tables)


__all__ = ["board_showdown", "group_showdown", "group_opponents", "showdown_scratch", "MAX_GROUPS",
           "heads_up_all_hands", "heads_up_cached", "mc_all_hands", "multiway_all_hands", "N_CHUNKS"]
