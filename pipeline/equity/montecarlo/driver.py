"""Monte Carlo equity for every seat: hands, weighted ranges and random hands, with stopping rules.

Every deal gives each seat holding a range (a named hand is a range of one) a hand by
weight, with the PokerStove/Equilab convention for ranges that collide: an assignment of hands
is as likely as the product of its weights among the assignments that share no card. The
board cards to come and the random seats' hands are a uniform draw from the cards left. The
board's evaluator key is summed once; each seat adds its two cards' keys and looks its score
up in the cache-resident tables (:mod:`pipeline.core.fasteval`). Three kernels do this, by
table shape:

* every seat one known hand or random: :func:`pipeline.equity.montecarlo.fixed.fixed_chunk`;
* ranges whose compatible assignments can be listed (:data:`~pipeline.equity.montecarlo.ranged.JOINT_MAX`):
  :func:`pipeline.equity.montecarlo.ranged.joint_chunk` draws one row of that list per deal;
* wider ranges: :func:`pipeline.equity.montecarlo.ranged.range_chunk` draws each seat's hand and
  redraws the whole assignment when two hands share a card.

Each chunk counts, per deal, the set of seats holding the best hand; per seat, win/tie/lose
counts and integer sums of the pot share (units of 1/2520) and of its square follow from
those counts, so means and variances come out of exact integer moments (additive over chunks
and threads). Chunk ``k`` of a run always uses generator stream ``k``, so a result depends only
on the seed and the sample count, never on the number of threads.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba as nb
import numpy as np

from pipeline.core.cancel import checkpoint
from pipeline.core.constants import MAX_SAMPLES, SHARE_SCALE
from pipeline.core.parallel import claim, run_chunks
from pipeline.core.rng import seed_state
from pipeline.equity.montecarlo.fixed import fixed_chunk, hist_to_sums
from pipeline.equity.montecarlo.ranged import joint_chunk, prepare_joint, prepare_seats, range_chunk
from pipeline.equity.montecarlo.stopping import DEFAULT_SAMPLES
from pipeline.equity.spots.seats import Seats

#: Deals per chunk (one generator stream each).
CHUNK = 4096
#: Chunks per parallel round when running to a target error or a time limit.
ROUND_CHUNKS = 16
#: Seconds of work per parallel round for a sample count (progress and Ctrl-C between rounds).
ROUND_SECONDS = 0.25
#: Deals per chunk when running to a target error or a time limit (small first rounds, so a
#: loose target does not overshoot by much).
TARGET_CHUNK = 1024
#: Per-seat accumulator columns: win, tie, lose, share sum, share-squared sum.
WIN, TIE, LOSE, SHARE, SHARE2 = range(5)
N_COLS = 5
#: Give up on one deal after this many conflicting assignment draws in a row (ranges that
#: hardly or never coexist): about 50 ms, so an impossible spot is an error, not a hang.
MAX_TRIES = 1_000_000


@nb.njit(cache=True, inline="always")
def _play_chunk(deals: int, seed: int, stream: int, board0_key: np.uint64,
                board0_mask: np.uint64, r: int, deck: np.ndarray, n_random: int,
                keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                hk: np.ndarray, hm: np.ndarray, multi: np.ndarray, lo: np.ndarray,
                size: np.ndarray, hand_w: np.ndarray, thr: np.ndarray, ck: np.ndarray,
                cm: np.ndarray, tk: np.ndarray, tm: np.ndarray, tdeck: np.ndarray,
                tthr: np.ndarray, acc: np.ndarray) -> int:
    """One chunk on generator stream ``stream`` into acc[P, N_COLS]; returns its tries.
    Inlined into :func:`mc_worker`, its only caller: compiled on its own, the three chunk
    kernels it calls were optimised and turned into machine code once more in its library
    and again in mc_worker's (numba links a callee's code into each caller's library)."""
    st = seed_state(seed, stream)
    hist = np.zeros(1 << acc.shape[0], np.int64)
    if multi.shape[0] == 0:
        # every seat one hand or random: the batch kernel of mcfixed
        fixed_chunk(deals, st[0], board0_key, board0_mask, r, deck.copy(), hk, hm, n_random,
                    keys, offsets, ranks, flush, hist)
        tries = deals
    elif tthr.shape[0] > 0:
        # few enough assignments of the ranges to list the compatible ones
        tries = joint_chunk(deals, st[0], board0_key, board0_mask, r,
                            deck.shape[0] - 2 * multi.shape[0], hk.copy(), hm.copy(), multi, tk,
                            tm, tdeck, tthr, n_random, keys, offsets, ranks, flush, hist)
    else:
        tries = range_chunk(deals, st[0], board0_key, board0_mask, r, deck.copy(), hk.copy(),
                            hm.copy(), multi, lo, size, hand_w, thr, ck, cm, n_random, keys,
                            offsets, ranks, flush, hist, MAX_TRIES)
    if tries >= 0:
        hist_to_sums(hist, deals, acc)
    return tries


@nb.njit(cache=True, nogil=True)
def mc_worker(counter: np.ndarray, sizes: np.ndarray, seed: int, stream0: int,
              board0_key: np.uint64, board0_mask: np.uint64, r: int, deck: np.ndarray,
              n_random: int, keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
              flush: np.ndarray, ranged: tuple[np.ndarray, ...], acc: np.ndarray,
              tries: np.ndarray) -> None:
    """Chunks of a round, ``stream0 + k`` for chunk k (sizes[k] deals), each taken by number
    from ``counter`` (:func:`claim`) until all are: its per-seat sums into acc[k]
    (int64[chunks, P, N_COLS], zero) and its assignment draws into tries[k] (-1 if it gave up
    on conflicting ranges). Seats are the ranged ones, described by ``ranged``
    (:func:`ranged_seats`), followed by ``n_random`` random hands; ``deck`` is uint8.

    ``nogil``: :func:`mc_round` calls it once on each of numba's threads, so a thread the
    machine slows down delays no other, and chunk k is always played on stream ``stream0 + k``
    into its own slot, so the result does not depend on which thread played what. (Not a
    ``parallel=True`` loop: its wrapper cost seconds of compiling for nothing.)
    """
    hk, hm, multi, lo, size, hand_w, thr, ck, cm, tk, tm, tdeck, tthr = ranged
    nch = sizes.shape[0]
    for _ in range(nch):  # at most every chunk
        ch = claim(counter, 1)
        if ch >= nch:
            break
        tries[ch] = _play_chunk(sizes[ch], seed, stream0 + ch, board0_key, board0_mask, r, deck,
                                n_random, keys, offsets, ranks, flush, hk, hm, multi, lo, size,
                                hand_w, thr, ck, cm, tk, tm, tdeck, tthr, acc[ch])


def mc_round(sizes: np.ndarray, seed: int, stream0: int, board0_key: np.uint64,
             board0_mask: np.uint64, r: int, deck: np.ndarray, n_random: int, keys: np.ndarray,
             offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
             ranged: tuple[np.ndarray, ...], workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Chunks ``stream0 .. stream0 + len(sizes) - 1`` (sizes[i] deals each) on ``workers``
    threads (:func:`mc_worker`): (int64[chunks, P, N_COLS] per-seat sums, int64[chunks]
    assignment draws, -1 where a chunk gave up): sum them."""
    nch = sizes.shape[0]
    acc = np.zeros((nch, ranged[0].shape[0] + n_random, N_COLS), np.int64)
    tries = np.zeros(nch, np.int64)
    counter = np.zeros(1, np.int64)
    threads = max(1, min(nch, workers))
    run_chunks(lambda _: mc_worker(counter, sizes, seed, stream0, board0_key, board0_mask, r,
                                   deck, n_random, keys, offsets, ranks, flush, ranged, acc,
                                   tries), threads, threads)
    return acc, tries


@dataclass
class McTotals:
    """Summed Monte Carlo counts: sums[P, N_COLS] (Python-int exact in int64), deals, tries."""

    sums: np.ndarray
    deals: int
    tries: int
    stopped: str

    def stderr(self) -> np.ndarray:
        """Standard error of each seat's mean pot share (sample variance / deals)."""
        n = self.deals
        out = np.zeros(self.sums.shape[0])
        if n < 2:
            return out + math.inf
        for p in range(self.sums.shape[0]):
            s1 = int(self.sums[p, SHARE])
            s2 = int(self.sums[p, SHARE2])
            var = (n * s2 - s1 * s1) / (n * (n - 1) * SHARE_SCALE * SHARE_SCALE)
            out[p] = math.sqrt(max(var, 0.0) / n)
        return out


def stop_note(tot: McTotals, stderr: float | None, time_limit: float | None) -> str | None:
    """What the answer must say about why sampling stopped (None for a plain sample count)."""
    if tot.stopped == "stderr":
        return f"stopped when every seat's stderr was below {stderr}"
    if tot.stopped == "time":
        return f"stopped at the {time_limit} s time limit"
    if tot.stopped == "max-samples":
        worst = float(tot.stderr().max())
        return (f"stopped at the {tot.deals:,}-deal cap before reaching the target: the largest "
                f"stderr is {worst:.2g}")
    return None


def drive_rounds(play: Callable[[np.ndarray, int], tuple[np.ndarray, int]], seats: int,
                 samples: int | None = None, target: float | None = None,
                 time_limit: float | None = None, max_samples: int = MAX_SAMPLES,
                 progress: Callable[[float, str], None] | None = None) -> McTotals:
    """Play rounds of chunks until ``samples`` deals, every seat's stderr <= ``target``, or
    ``time_limit`` s (or ``max_samples`` deals, said in ``stopped``).

    ``play(sizes, stream0)`` deals chunk ``stream0 + i`` with ``sizes[i]`` deals on generator
    stream ``stream0 + i`` and returns (int64[seats, N_COLS] summed counts, assignment draws).
    Chunks are numbered from 0 whatever the stopping rule, so ``samples`` deals with the same
    seed give the same counts on any number of threads; the target rule checks between rounds.
    """
    sums = np.zeros((seats, N_COLS), np.int64)
    done = 0
    tries = 0
    next_chunk = 0
    t0 = time.perf_counter()
    round_s, round_deals = 0.0, 1
    stopped = "samples"
    while True:
        checkpoint()  # a server's deadline or cancel: stop between rounds
        if samples is not None:
            left = samples - done
            if left <= 0:
                break
            # rounds of about ROUND_SECONDS at the last round's pace (the first one short, as
            # it also loads the kernels): every round ends in a join and a Python step
            pace = round_deals / round_s if round_s > 0 else 0.0
            n_ch = min(-(-left // CHUNK), max(4 * ROUND_CHUNKS, int(pace * ROUND_SECONDS / CHUNK)))
            sizes = np.full(n_ch, CHUNK, np.int64)
            sizes[-1] = left - CHUNK * (n_ch - 1) if left < CHUNK * n_ch else CHUNK
        else:
            n_ch = ROUND_CHUNKS
            if target is not None and done > 0:
                tot = McTotals(sums, done, tries, "")
                worst = float(tot.stderr().max())
                # stderr ~ 1/sqrt(n): aim 10% past the estimate, in whole chunks (worst may be
                # inf after too few deals: then one more round of the usual size)
                want = done * (worst / target) ** 2 * 1.1 - done
                n_ch = int(min(max(-(-want // TARGET_CHUNK), 1), 64 * ROUND_CHUNKS)) \
                    if math.isfinite(want) else ROUND_CHUNKS
            elif time_limit is not None and done > 0:
                # the last round's pace: the first round also paid for loading the kernels
                per_deal = round_s / round_deals
                left_s = time_limit - (time.perf_counter() - t0)
                n_ch = int(min(max(left_s / per_deal / TARGET_CHUNK, 1), 64 * ROUND_CHUNKS))
                n_ch = max(1, min(n_ch, int(0.25 / per_deal / TARGET_CHUNK) + 1))
            n_ch = max(1, min(n_ch, -(-(max_samples - done) // TARGET_CHUNK)))
            sizes = np.full(n_ch, TARGET_CHUNK, np.int64)
        t_round = time.perf_counter()
        acc, tr = play(sizes, next_chunk)
        round_s = time.perf_counter() - t_round
        round_deals = int(sizes.sum())
        sums += acc
        tries += tr
        done += round_deals
        next_chunk += n_ch
        elapsed = time.perf_counter() - t0
        tot = McTotals(sums, done, tries, "")
        if samples is not None:
            frac = done / samples
        elif target is not None:
            worst = float(tot.stderr().max())
            frac = min(1.0, (target / worst) ** 2) if worst > 0 else 1.0
            if worst <= target:
                stopped = "stderr"
                frac = 1.0
        else:
            frac = min(1.0, elapsed / time_limit) if time_limit else 1.0
        if time_limit is not None and elapsed >= time_limit:
            stopped = "time"
            frac = 1.0
        if done >= max_samples and samples is None and frac < 1.0:
            stopped = "max-samples"
            frac = 1.0
        if progress is not None:
            progress(frac, f"{done:,} deals")
        if frac >= 1.0 and samples is None:
            break
    return McTotals(sums, done, tries, stopped)


def ranged_seats(seats: Seats, deck: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, ...]:
    """What the kernels read about the ranged seats, made once per run (the joint table can
    take a millisecond): :func:`~pipeline.equity.montecarlo.ranged.prepare_seats` with the seats'
    weights, then :func:`~pipeline.equity.montecarlo.ranged.prepare_joint` (empty for wide ranges)."""
    hk, hm, multi, lo, size, ck, cm, thr = prepare_seats(seats.off, seats.hand_a, seats.hand_b,
                                                         seats.hand_w, seats.hand_m, keys)
    joint = prepare_joint(deck, multi, lo, size, seats.hand_w, ck, cm)
    return (hk, hm, multi, lo, size, seats.hand_w, thr, ck, cm, *joint)


def run_mc(seats: Seats, board0_key: int, board0_mask: int, r: int, deck: np.ndarray,
           keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
           seed: int, samples: int | None = None, target: float | None = None,
           time_limit: float | None = None, max_samples: int = MAX_SAMPLES,
           progress: Callable[[float, str], None] | None = None) -> McTotals:
    """Hold'em seats dealt until a stopping rule holds (see :func:`drive_rounds`)."""
    P = seats.off.shape[0] - 1 + seats.n_random
    deck8 = np.ascontiguousarray(deck, dtype=np.uint8)
    ranged = ranged_seats(seats, deck8, keys)

    def play(sizes: np.ndarray, stream0: int) -> tuple[np.ndarray, int]:
        acc, tr = mc_round(sizes, seed, stream0, np.uint64(board0_key), np.uint64(board0_mask),
                           r, deck8, seats.n_random, keys, offsets, ranks, flush, ranged,
                           nb.get_num_threads())
        if (tr < 0).any():
            from pipeline.errors import InputError

            raise InputError("the ranges hardly ever fit together without sharing a card "
                             f"(over {MAX_TRIES:,} tries for one deal); narrow them")
        return acc.sum(axis=0), int(tr.sum())

    return drive_rounds(play, P, samples, target, time_limit, max_samples, progress)


__all__ = ["DEFAULT_SAMPLES", "CHUNK", "Seats", "McTotals", "mc_round", "mc_worker", "ranged_seats", "run_mc",
           "drive_rounds", "stop_note"]
