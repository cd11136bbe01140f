"""Exact equity of one hand against named hands and up to 3 random hands, counted, not dealt.

Board completions are enumerated once per orbit of the suit permutations that fix every known
card set, weighted by orbit size (:mod:`pipeline.equity.hands.symmetry`). On each complete board the
face-up hands are scored directly, and the ordered tuples of random opponent hands that stay
below (or tie) a score are counted by inclusion-exclusion (:mod:`pipeline.equity.exact.disjoint`).
One random opponent needs no tuples: its hands are counted by rank pair, and only the hands
that can make a flush are scored one by one (:func:`one_random_counts`).
Preflop heads-up against one random hand is a row of the all-hands table instead
(:mod:`pipeline.equity.exact.allhands`).

Counts are integers: ``deals`` counts ordered deals (opponent seats are distinct) and equity
is an integer numerator over ``SHARE_SCALE * deals``.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from numba import get_num_threads

from pipeline.core.bits import ctpop64
from pipeline.core.cards import BINOM
from pipeline.core.combos import colex_chunk
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, FLUSH_CARDS, N_HOLE_PAIRS, N_RANKS, N_SUITS, SHARE_SCALE
from pipeline.core.fasteval import RANK_KEY_MASK, SUIT_LANE, EvalTables, hand_key, hand_score, rank_score
from pipeline.core.parallel import claim, run_chunks
from pipeline.equity.exact.allhands import heads_up_cached
from pipeline.equity.exact.disjoint import MAX_EXACT_RANDOM, tuple_poly, tuple_scratch
from pipeline.equity.exact.enumerate import count_fixed
from pipeline.equity.exact.headsup_preflop import headsup_preflop
from pipeline.equity.hands.boardindex import score_live_pairs
from pipeline.equity.hands.standing import rivals
from pipeline.equity.hands.starting_hands import hole_index
from pipeline.equity.hands.symmetry import orbit_step, stabilizer
from pipeline.equity.spots.spot import Spot

#: Chunks the board completions are split into (parallel work units).
N_CHUNKS = 64
#: Spots estimated below this many evaluations run on the calling thread, in one chunk
#: (about 0.2 ms: waking the pool and 64 chunks' scratch would cost more than they save).
SERIAL_LOOKUPS = 50_000
#: Per-player accumulator columns: win, tie, lose, equity numerator.
WIN, TIE, LOSE, SHARE = range(4)



@nb.njit(cache=True)
def one_random_counts(live: np.ndarray, m: int, bkey: np.uint64, bmask: np.uint64, keys: np.ndarray,
                      offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, fs: np.ndarray,
                      below: np.ndarray, equal: np.ndarray, ent_s: np.ndarray,
                      ent_n: np.ndarray, rank_n: np.ndarray) -> None:
    """For each fixed score ``fs[p]``: how many two-card hands from the m live cards score below
    it (``below[p]``) and equal to it (``equal[p]``) on the complete board ``bkey``/``bmask``.

    A hand that cannot make a flush scores by its ranks alone, so the hands of one rank pair
    share a score: one evaluation counts all of them. Only hands that can reach five cards of
    the board's longest suit f are scored one by one: none while f has at most 2 board cards,
    the two-f-card hands with 3, every hand holding an f card with 4, every hand with 5. The
    counts are the same integers as scoring every hand (``ent_s``/``ent_n`` are scratch of
    at least ``N_HOLE_PAIRS + N_RANKS ** 2`` entries, ``rank_n`` of ``2 * N_RANKS``)."""
    f = 0
    most = 0
    for t in range(N_SUITS):
        n_t = ctpop64(bmask & (np.uint64(SUIT_LANE) << np.uint64(t)))
        if n_t > most:
            f = t
            most = n_t
    need = FLUSH_CARDS - most  # cards of suit f a hand must hold to make a flush
    n_ent = 0
    if need > 0:
        cnt = rank_n[:N_RANKS]  # live cards of each rank that cannot help a flush
        fl = rank_n[N_RANKS:]  # need 2: the live f card of each rank (0 or 1)
        cnt[:] = 0
        fl[:] = 0
        for i in range(m):
            c = live[i]
            if not (need <= 2 and (c & 3) == f):
                cnt[c >> 2] += 1
        if need == 2:
            for i in range(m):
                if (live[i] & 3) == f:
                    fl[live[i] >> 2] = 1
        for r1 in range(N_RANKS):
            for r2 in range(r1, N_RANKS):
                if r1 == r2:
                    mult = cnt[r1] * (cnt[r1] - 1) // 2 + cnt[r1] * fl[r1]
                else:
                    # need 2: one f card is harmless, so f cards join the rank counts here
                    mult = (cnt[r1] + fl[r1]) * (cnt[r2] + fl[r2]) - fl[r1] * fl[r2]
                if mult == 0:
                    continue
                k = np.int64(bkey + keys[N_SUITS * r1] + keys[N_SUITS * r2])
                ent_s[n_ent] = rank_score(k & RANK_KEY_MASK, offsets, ranks)
                ent_n[n_ent] = mult
                n_ent += 1
    # hands that may flush, scored one by one: none when need > 2, every pair when the board
    # is a flush, else the pairs of f cards, and with need 1 each f card with each other card
    one = np.uint64(1)
    for i in range(m if need <= 2 else 0):
        a = live[i]
        a_f = (a & 3) == f
        if need > 0 and not a_f:
            continue
        ka = bkey + keys[a]
        ma = bmask | (one << np.uint64(a))
        for j in range(m):
            b = live[j]
            b_f = (b & 3) == f
            # each pair once: both scored cards in index order, or a non-f partner
            if (j <= i and (need <= 0 or b_f)) or (need == 2 and not b_f):
                continue
            ent_s[n_ent] = hand_score(ka + keys[b], ma | (one << np.uint64(b)), offsets, ranks, flush)
            ent_n[n_ent] = 1
            n_ent += 1
    for p in range(fs.shape[0]):
        lo = 0
        eq = 0
        for e in range(n_ent):
            if ent_s[e] < fs[p]:
                lo += ent_n[e]
            elif ent_s[e] == fs[p]:
                eq += ent_n[e]
        below[p] = lo
        equal[p] = eq


@nb.njit(cache=True, inline="always")
def _board_chunk(ch: int, n_chunks: int, fixed: np.ndarray, b0key: np.uint64, b0mask: np.uint64,
                 avail: np.ndarray, r: int, nr: int, total_tuples: int, perms: np.ndarray,
                 keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                 binom: np.ndarray, acc: np.ndarray, wsum: np.ndarray) -> None:
    """Chunk ``ch`` of the board completions into ``acc[ch]`` and ``wsum[ch]`` (see
    :func:`exact_kernel`). Scores come from the cache-resident evaluator: the board's key is
    summed once and every hand adds its two cards. Inlined into :func:`_board_tasks`, its one
    caller: compiled on its own, its code was optimised and generated again in each library
    that links it (:func:`_board_tasks`', and a serial kernel's of its own)."""
    P = fixed.shape[0]
    n = avail.shape[0]
    start, stop, pos = colex_chunk(binom[n, r], n_chunks, ch, 0, r, n, binom)
    x = np.empty(BOARD_CARDS, np.int64)
    work = np.empty(BOARD_CARDS, np.int64)
    fs = np.empty(P, np.int64)
    live = np.empty(DECK_SIZE, np.int64)
    pair_s = np.empty(N_HOLE_PAIRS, np.int64)
    dL, dE, NL, NE, poly = tuple_scratch()
    below = np.empty(P, np.int64)
    equal = np.empty(P, np.int64)
    ent_s = np.empty(N_HOLE_PAIRS + N_RANKS * N_RANKS, np.int64)
    ent_n = np.empty(N_HOLE_PAIRS + N_RANKS * N_RANKS, np.int64)
    rank_n = np.empty(2 * N_RANKS, np.int64)
    m = 0
    for idx in range(start, stop):
        w = orbit_step(idx > start, avail, pos, r, perms, binom, x, work)
        if w == 0:
            continue
        dealt_key, dealt_mask = hand_key(x, r, keys)
        bkey = b0key + dealt_key
        bmask = b0mask | dealt_mask
        for p in range(P):
            a = fixed[p, 0]
            b = fixed[p, 1]
            fs[p] = hand_score(bkey + keys[a] + keys[b],
                               bmask | (np.uint64(1) << np.uint64(a)) | (np.uint64(1) << np.uint64(b)),
                               offsets, ranks, flush)
        if nr > 0:
            # the live cards are avail minus this completion (pos is ascending)
            m = 0
            t = 0
            for i in range(n):
                if t < r and pos[t] == i:
                    t += 1
                    continue
                live[m] = avail[i]
                m += 1
            if nr == 1:
                # np.int64: m starts as a literal 0, which would compile a second
                # specialization of each callee (typed before m's loop widens it)
                one_random_counts(live, np.int64(m), bkey, bmask, keys, offsets, ranks, flush, fs, below,
                                  equal, ent_s, ent_n, rank_n)
            else:
                score_live_pairs(live, np.int64(m), bkey, bmask, keys, offsets, ranks, flush, pair_s)
        for p in range(P):
            s = fs[p]
            greater, eqf = rivals(fs, p)
            if greater:
                acc[ch, p, LOSE] += w * total_tuples
                continue
            if nr == 1:
                poly[0] = below[p]
                poly[1] = equal[p]
            elif nr > 1:
                tuple_poly(pair_s, np.int64(m), nr, s, dL, dE, NL, NE, poly)
            else:
                poly[:] = 0
                poly[0] = 1
            tot = 0
            for j in range(nr + 1):
                c = poly[j]
                tot += c
                acc[ch, p, WIN if j + eqf == 0 else TIE] += w * c
                acc[ch, p, SHARE] += w * c * (SHARE_SCALE // (1 + j + eqf))
            acc[ch, p, LOSE] += w * (total_tuples - tot)
        wsum[ch] += w


@nb.njit(cache=True, nogil=True)
def _board_tasks(counter: np.ndarray, n_chunks: int, fixed: np.ndarray, board0: np.ndarray,
                 avail: np.ndarray, r: int, nr: int, total_tuples: int, perms: np.ndarray,
                 keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                 binom: np.ndarray, acc: np.ndarray, wsum: np.ndarray) -> None:
    """Chunks of :func:`_board_chunk`, each taken by number from ``counter`` (:func:`claim`)
    until ``n_chunks`` are taken: one call per thread (a Python call per chunk would cost more
    than a small spot's whole count)."""
    b0key, b0mask = hand_key(board0, board0.shape[0], keys)
    while True:
        ch = claim(counter, 1)
        if ch >= n_chunks:
            break
        _board_chunk(ch, n_chunks, fixed, b0key, b0mask, avail, r, nr, total_tuples, perms, keys,
                     offsets, ranks, flush, binom, acc, wsum)


def exact_kernel(fixed: np.ndarray, board0: np.ndarray, avail: np.ndarray, r: int, nr: int,
                 total_tuples: int, perms: np.ndarray, keys: np.ndarray, offsets: np.ndarray,
                 ranks: np.ndarray, flush: np.ndarray, binom: np.ndarray,
                 n_chunks: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact weighted counts per fixed player (hero first): int64[n_chunks, P, 4] of
    win, tie, lose, equity numerator (x SHARE_SCALE), and the weight (board completions) per
    chunk. One :func:`_board_tasks` per thread (:func:`run_chunks`; a ``parallel=True`` loop's
    wrapper cost seconds of compiling)."""
    acc = np.zeros((n_chunks, fixed.shape[0], 4), np.int64)
    wsum = np.zeros(n_chunks, np.int64)
    counter = np.zeros(1, np.int64)
    threads = max(1, min(n_chunks, get_num_threads()))
    run_chunks(lambda _: _board_tasks(counter, n_chunks, fixed, board0, avail, r, nr, total_tuples,
                                      perms, keys, offsets, ranks, flush, binom, acc, wsum),
               threads, threads)
    return acc, wsum


def exact_serial(fixed: np.ndarray, board0: np.ndarray, avail: np.ndarray, r: int, nr: int,
                 total_tuples: int, perms: np.ndarray, keys: np.ndarray, offsets: np.ndarray,
                 ranks: np.ndarray, flush: np.ndarray, binom: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`exact_kernel` in one chunk on this thread: a small spot costs less than waking
    the pool. The same compiled :func:`_board_tasks` (one kernel to compile, not two)."""
    acc = np.zeros((1, fixed.shape[0], 4), np.int64)
    wsum = np.zeros(1, np.int64)
    _board_tasks(np.zeros(1, np.int64), 1, fixed, board0, avail, r, nr, total_tuples, perms, keys,
                 offsets, ranks, flush, binom, acc, wsum)
    return acc, wsum


def ordered_tuples(m: int, n: int) -> int:
    """Ordered ways to deal n two-card hands from m cards."""
    t = 1
    for i in range(n):
        t *= math.comb(m - 2 * i, 2)
    return t


def is_heads_up_preflop(spot: Spot) -> bool:
    """Whether ``spot`` is one hand vs one random hand before the flop (a row of the all-hands
    table, :func:`pipeline.equity.exact.allhands.heads_up_all_hands`)."""
    return spot.missing_board == BOARD_CARDS and spot.opponents == 1 and not spot.vs


def exact_cost(spot: Spot) -> float:
    """Estimated 7-card lookups of an exact enumeration of ``spot`` (inf if not supported)."""
    n = len(spot.live)
    r = spot.missing_board
    if spot.opponents > MAX_EXACT_RANDOM:
        return math.inf
    if is_heads_up_preflop(spot):
        # board-major all-hands pass: canonical boards x live pairs
        g = len(stabilizer([spot.dead]))
        return (math.comb(DECK_SIZE - len(spot.dead), BOARD_CARDS) / g
                * math.comb(DECK_SIZE - BOARD_CARDS - len(spot.dead), 2))
    boards = math.comb(n, r) / len(spot.group())
    m = n - r
    per: float = 1 + len(spot.vs)
    if spot.opponents:
        per += math.comb(m, 2) * (1 + (0.3 * (1 + len(spot.vs)) if spot.opponents >= 2 else 0))
    return boards * per


def is_two_hands_preflop(spot: Spot) -> bool:
    """Whether ``spot`` is one hand vs one named hand before the flop, no dead cards (the count
    of :func:`pipeline.equity.exact.headsup_preflop.headsup_preflop`)."""
    return (spot.missing_board == BOARD_CARDS and spot.opponents == 0 and len(spot.vs) == 1
            and not spot.dead)


def _two_hands_preflop(spot: Spot, evaluator: EvalTables) -> tuple[np.ndarray, int]:
    """Per-player (win, tie, lose, equity numerator) of two named hands over all C(48, 5) boards."""
    out = np.zeros(4, np.int64)
    (a0, a1), (b0, b1) = spot.hole, spot.vs[0]
    headsup_preflop(a0, a1, b0, b1, *evaluator, BINOM, out)
    wa, wb, tie = (int(v) for v in out[:3])
    half = SHARE_SCALE // 2
    acc = np.array([[wa, tie, wb, SHARE_SCALE * wa + half * tie],
                    [wb, tie, wa, SHARE_SCALE * wb + half * tie]], dtype=np.int64)
    return acc, wa + wb + tie


def _named_hands(spot: Spot, evaluator: EvalTables) -> tuple[np.ndarray, int]:
    """Face-up hands only: the rank-first board walk of :mod:`pipeline.equity.exact.enumerate`, which
    evaluates once per rank pattern instead of once per board (3 hands preflop: 9 ms against
    130 ms for the orbit walk; a flop spot 0.03 ms against 0.19 ms). A spot is checked when it
    is made, so the walk's own checks are skipped."""
    dead_mask = 0
    for c in spot.dead:
        dead_mask |= 1 << c
    got = count_fixed(spot.fixed.astype(np.uint8), np.array(spot.board, np.uint8), dead_mask,
                      evaluator)
    lose = got.boards - got.win - got.tie
    acc = np.stack([got.win, got.tie, lose, got.share], axis=1)
    return acc, got.boards


def exact_counts(spot: Spot, table7: np.ndarray, evaluator: EvalTables) -> tuple[np.ndarray, int]:
    """Exact counts of ``spot``: (int64[P, 4] win, tie, lose, equity numerator of hero and the
    named hands in order, deals). Face-up hands only: two preflop by rank multisets plus flush
    corrections (about 1 ms), more or with a board by the rank-first walk. With random hands:
    the orbit walk on ``evaluator``, except heads-up preflop, a row of the all-hands table of
    ``table7`` (``seven.h5``, memory-mapped)."""
    if is_two_hands_preflop(spot):
        acc, deals = _two_hands_preflop(spot, evaluator)
    elif spot.opponents == 0:
        acc, deals = _named_hands(spot, evaluator)
    elif is_heads_up_preflop(spot):
        win, tie, lose = (int(v) for v in heads_up_cached(table7, spot.dead)[hole_index(*spot.hole)])
        acc = np.array([[win, tie, lose, SHARE_SCALE * win + SHARE_SCALE // 2 * tie]], dtype=np.int64)
        deals = win + tie + lose
    else:
        live = spot.live
        r = spot.missing_board
        tuples = ordered_tuples(len(live) - r, spot.opponents)
        args = (spot.fixed, np.array(spot.board, dtype=np.int64), live, r, spot.opponents, tuples,
                spot.group(), *evaluator, BINOM)
        if exact_cost(spot) < SERIAL_LOOKUPS:
            acc_c, wsum = exact_serial(*args)
        else:
            acc_c, wsum = exact_kernel(*args, N_CHUNKS)
        acc = acc_c.sum(axis=0)
        completions = int(wsum.sum())
        if completions != math.comb(len(live), r):
            raise AssertionError("orbit weights do not cover every board")  # cannot happen
        deals = completions * tuples
    win, tie, lose = (int(v) for v in acc[0, :3])
    if win + tie + lose != deals:
        raise AssertionError("exact counts do not add up")  # cannot happen
    return acc, deals


__all__ = ["exact_kernel", "exact_cost", "exact_counts", "ordered_tuples", "is_heads_up_preflop",
           "is_two_hands_preflop",
           "N_CHUNKS"]
