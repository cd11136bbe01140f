"""Monte Carlo equity of one :class:`~pipeline.equity.spot.Spot` on the 7-card score table.

Each sample deals the missing board cards and the random hands by a partial Fisher-Yates
shuffle of the live deck (:mod:`pipeline.core.deal`), with a counter-based generator per chunk,
so results depend only on ``seed`` and ``samples``, never on thread scheduling. Per player the
kernel keeps integer sums of the pot share (units of 1/SHARE_SCALE) and of its square, and the
standard error of the hero's equity comes from those exact moments.

(Seats holding weighted ranges are sampled by :mod:`pipeline.equity.montecarlo`.)
"""

from __future__ import annotations

import math
import time

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM
from pipeline.core.constants import BOARD_CARDS, SHARE_SCALE
from pipeline.core.deal import complete_board, partial_shuffle
from pipeline.core.parallel import even_chunk
from pipeline.core.rng import seed_state
from pipeline.equity.boardindex import index7_direct
from pipeline.equity.result import EquityResult
from pipeline.equity.spot import Spot, spot_result
from pipeline.equity.standing import add_score, rivals

#: Chunks the samples are split into (parallel work units; one generator stream each).
N_CHUNKS = 64
#: Per-player accumulator columns: win, tie, lose, share sum, share-squared sum.
WIN, TIE, LOSE, SHARE, SHARE2 = range(5)


@nb.njit(cache=True)
def _settle(acc: np.ndarray, p: int, beaten: bool, ties: int) -> None:
    """Add one showdown to player p's row of acc: lost, or won/tied with ``ties`` others."""
    if beaten:
        acc[p, LOSE] += 1
        return
    sh = SHARE_SCALE // (1 + ties)
    acc[p, WIN if ties == 0 else TIE] += 1
    acc[p, SHARE] += sh
    acc[p, SHARE2] += sh * sh


@nb.njit(cache=True, parallel=True)
def mc_kernel(fixed: np.ndarray, board0: np.ndarray, avail: np.ndarray, r: int, nr: int,
              samples: int, seed: int, n_chunks: int, table: np.ndarray,
              binom: np.ndarray) -> np.ndarray:
    """Monte Carlo counts per fixed player (hero first): int64[n_chunks, P, 5] of win, tie,
    lose, equity numerator (x SHARE_SCALE) and its sum of squares."""
    P = fixed.shape[0]
    need = r + 2 * nr
    acc = np.zeros((n_chunks, P, 5), np.int64)
    for ch in nb.prange(n_chunks):
        st = seed_state(seed, ch)
        deck = avail.copy()
        board = np.empty(BOARD_CARDS, np.int64)
        fs = np.empty(P, np.int64)
        lo, hi = even_chunk(samples, n_chunks, ch)
        for _ in range(hi - lo):
            partial_shuffle(st, deck, deck.shape[0], need)
            complete_board(board, board0, deck, r)
            if P == 1:
                # hero alone: stop at the first random hand that beats it
                s = table[index7_direct(board, fixed[0, 0], fixed[0, 1], binom)]
                beaten = False
                eq = 0
                for o in range(nr):
                    so = table[index7_direct(board, deck[r + 2 * o], deck[r + 2 * o + 1], binom)]
                    if so > s:
                        beaten = True
                        break
                    if so == s:
                        eq += 1
                _settle(acc[ch], 0, beaten, eq)
                continue
            best_r = 0
            n_best_r = 0
            for o in range(nr):
                so = table[index7_direct(board, deck[r + 2 * o], deck[r + 2 * o + 1], binom)]
                best_r, n_best_r = add_score(so, best_r, n_best_r)
            for p in range(P):
                fs[p] = table[index7_direct(board, fixed[p, 0], fixed[p, 1], binom)]
            for p in range(P):
                s = fs[p]
                beaten, eq = rivals(fs, p)
                beaten = beaten or best_r > s
                eq += n_best_r if best_r == s else 0
                _settle(acc[ch], p, beaten, eq)
    return acc


def run_mc(spot: Spot, table7: np.ndarray, samples: int, seed: int) -> EquityResult:
    """``samples`` seeded Monte Carlo deals of ``spot``, with the hero's standard error."""
    t0 = time.perf_counter()
    acc = mc_kernel(spot.fixed, np.array(spot.board, dtype=np.int64), spot.live,
                    spot.missing_board, spot.opponents, samples, seed, N_CHUNKS, table7,
                    BINOM).sum(axis=0)
    win, tie, lose, eqn, eqsq = (int(v) for v in acc[0])
    mean = eqn / (SHARE_SCALE * samples)
    second = eqsq / (SHARE_SCALE * SHARE_SCALE * samples)
    var = max(second - mean * mean, 0.0) * samples / max(samples - 1, 1)
    return spot_result(spot, "monte-carlo", acc, samples, time.perf_counter() - t0,
                       stderr=math.sqrt(var / samples), samples=samples, seed=seed,
                       counts={"win": win, "tie": tie, "lose": lose})


__all__ = ["mc_kernel", "run_mc", "N_CHUNKS"]
