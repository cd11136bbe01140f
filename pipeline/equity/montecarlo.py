"""Monte Carlo equity for every seat: hands, weighted ranges and random hands, with stopping rules.

One deal:

1. every seat holding a range (a named hand is a range of one) draws a hand by weight -
   uniform index, kept with probability equal to its weight; if two seats' hands share a
   card the whole assignment is thrown away and drawn again. Seats draw independently, so
   an assignment is accepted with probability proportional to the product of its weights
   among the non-conflicting ones: exactly the PokerStove/Equilab convention;
2. the missing board cards and the random seats' hands come from one partial Fisher-Yates
   shuffle of the live deck, skipping the assigned cards (a drawn card that is taken is
   moved out of the pool and the draw repeated, so every draw is uniform over the cards
   still free). Every assignment leaves the same number of free cards, so all board and
   random-hand completions are equally likely whatever was assigned;
3. the board's evaluator key is summed once; each seat adds its two cards' keys and looks
   its score up in the cache-resident tables (:mod:`pipeline.core.fasteval`).

When every seat holds one known hand or a random hand (no ranges), chunks run the batch
kernel of :mod:`pipeline.equity.mcfixed` instead: same sampling (one partial Fisher-Yates
shuffle of the live deck per deal), with the random numbers of a batch of deals made in
vectorized loops.

Per seat the kernel keeps integer sums of the pot share (units of 1/2520) and of its
square, so means and variances come out of exact integer moments (no rounding, unlike a
float running variance, and additive over chunks and threads). Chunk ``k`` of a run always
uses generator stream ``k``, so a result depends only on the seed and the sample count.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numba as nb
import numpy as np

from pipeline.core.constants import MAX_SAMPLES, SHARE_SCALE
from pipeline.core.fasteval import hand_key, hand_score
from pipeline.core.rng import seed_state, step_below, step_below_buffered, step_uniform
from pipeline.equity.mcfixed import fixed_chunk, hist_to_sums
from pipeline.equity.standing import add_score

#: Default Monte Carlo sample count: shares lie in [0, 1] so a seat's variance is <= 1/4 and
#: 0.5 / sqrt(300,000) < 0.1 percentage point.
DEFAULT_SAMPLES = 300_000
#: Deals per chunk (one generator stream each).
CHUNK = 4096
#: Chunks per parallel round when running to a target error or a time limit.
ROUND_CHUNKS = 16
#: Deals per chunk when running to a target error or a time limit (small first rounds, so a
#: loose target does not overshoot by much).
TARGET_CHUNK = 1024
#: Per-seat accumulator columns: win, tie, lose, share sum, share-squared sum.
WIN, TIE, LOSE, SHARE, SHARE2 = range(5)
N_COLS = 5
#: Give up on one deal after this many conflicting assignment draws in a row (ranges that
#: hardly or never coexist): about 50 ms, so an impossible spot is an error, not a hang.
MAX_TRIES = 1_000_000
#: Bounds of the stopping rules: a target standard error below MIN_STDERR would need more than
#: MAX_SAMPLES deals for any seat near 50 %; MAX_SECONDS is one hour.
MIN_STDERR = 1e-5
MAX_STDERR = 0.5
MAX_SECONDS = 3600.0


@nb.njit(cache=True)
def _deal_chunk(deals: int, s: np.uint64, board0_key: np.uint64, board0_mask: np.uint64,
                r: int, deck: np.ndarray, ranged: np.ndarray, off: np.ndarray,
                hand_a: np.ndarray, hand_b: np.ndarray, hand_w: np.ndarray,
                hand_m: np.ndarray, n_random: int, keys: np.ndarray, offsets: np.ndarray,
                ranks: np.ndarray, flush: np.ndarray, acc: np.ndarray) -> int:
    """Play ``deals`` deals into acc[P, N_COLS]; returns assignment draws (tries) made, or -1
    when the ranges kept conflicting. The generator state lives in a register (``s``)."""
    n_ranged = ranged.shape[0]
    P = n_ranged + n_random
    sc = np.empty(P, np.int64)
    hk = np.empty(n_ranged, np.uint64)
    hm = np.empty(n_ranged, np.uint64)
    wins = np.zeros(P, np.int64)
    ties = np.zeros(P, np.int64)
    shares = np.zeros(P, np.int64)
    squares = np.zeros(P, np.int64)
    n_deck = deck.shape[0]
    need = r + 2 * n_random
    tries = 0
    one = np.uint64(1)
    buf = np.uint64(0)
    # seats holding one hand each never redraw: their cards and keys are set once
    fixed_only = True
    fixed_used = np.uint64(0)
    for q in range(n_ranged):
        p = ranged[q]
        if off[p + 1] - off[p] != 1:
            fixed_only = False
        else:
            k = off[p]
            hk[q] = keys[hand_a[k]] + keys[hand_b[k]]
            hm[q] = hand_m[k]
            fixed_used |= hand_m[k]
    for _ in range(deals):
        used = fixed_used
        fails = 0
        while not fixed_only:
            tries += 1
            used = np.uint64(0)
            ok = True
            for q in range(n_ranged):
                p = ranged[q]
                lo = off[p]
                size = off[p + 1] - lo
                k = lo
                if size > 1:
                    while True:
                        s, j = step_below(s, size)
                        k = lo + j
                        w = hand_w[k]
                        if w >= 1.0:
                            break
                        s, u = step_uniform(s)
                        if u < w:
                            break
                m = hand_m[k]
                if m & used:
                    ok = False
                    break
                used |= m
                hk[q] = keys[hand_a[k]] + keys[hand_b[k]]
                hm[q] = m
            if ok:
                break
            fails += 1
            if fails > MAX_TRIES:
                return -1
        if fixed_only:
            tries += 1
        n = n_deck
        for i in range(need):
            while True:
                s, buf, j = step_below_buffered(s, buf, n - i)
                j += i
                c = deck[j]
                if not (used >> np.uint64(c)) & one:
                    break
                deck[j] = deck[n - 1]
                deck[n - 1] = c
                n -= 1
            deck[j] = deck[i]
            deck[i] = c
        dealt_key, dealt_mask = hand_key(deck, r, keys)
        bkey = board0_key + dealt_key
        bmask = board0_mask | dealt_mask
        best = 0
        nbest = 0
        for q in range(n_ranged):
            v = hand_score(bkey + hk[q], bmask | hm[q], offsets, ranks, flush)
            sc[q] = v
            best, nbest = add_score(v, best, nbest)
        for t in range(n_random):
            a = deck[r + 2 * t]
            b = deck[r + 2 * t + 1]
            v = hand_score(bkey + keys[a] + keys[b],
                           bmask | (one << np.uint64(a)) | (one << np.uint64(b)),
                           offsets, ranks, flush)
            sc[n_ranged + t] = v
            best, nbest = add_score(v, best, nbest)
        sh = SHARE_SCALE // nbest
        for p in range(P):
            if sc[p] == best:
                if nbest == 1:
                    wins[p] += 1
                else:
                    ties[p] += 1
                shares[p] += sh
                squares[p] += sh * sh
    for p in range(P):
        acc[p, 0] += wins[p]
        acc[p, 1] += ties[p]
        acc[p, 2] += deals - wins[p] - ties[p]
        acc[p, 3] += shares[p]
        acc[p, 4] += squares[p]
    return tries


@nb.njit(cache=True)
def _fixed_seats(ranged: np.ndarray, off: np.ndarray, hand_a: np.ndarray, hand_b: np.ndarray,
                 hand_m: np.ndarray, keys: np.ndarray) -> tuple[bool, np.ndarray, np.ndarray]:
    """(every ranged seat holds one hand, their card-key sums, their masks)."""
    n_ranged = ranged.shape[0]
    hk = np.zeros(n_ranged, np.uint64)
    hm = np.zeros(n_ranged, np.uint64)
    for q in range(n_ranged):
        k = off[ranged[q]]
        if off[ranged[q] + 1] - k != 1:
            return False, hk, hm
        hk[q] = keys[hand_a[k]] + keys[hand_b[k]]
        hm[q] = hand_m[k]
    return True, hk, hm


@nb.njit(cache=True)
def _play_chunk(deals: int, seed: int, stream: int, board0_key: np.uint64,
                board0_mask: np.uint64, r: int, deck: np.ndarray, ranged: np.ndarray,
                off: np.ndarray, hand_a: np.ndarray, hand_b: np.ndarray, hand_w: np.ndarray,
                hand_m: np.ndarray, n_random: int, keys: np.ndarray, offsets: np.ndarray,
                ranks: np.ndarray, flush: np.ndarray, fixed_only: bool, hk: np.ndarray,
                hm: np.ndarray, acc: np.ndarray) -> int:
    """One chunk on generator stream ``stream`` into acc[P, N_COLS]; returns its tries."""
    st = seed_state(seed, stream)
    if fixed_only:
        # every seat one hand or random: the batch kernel of mcfixed
        hist = np.zeros(1 << acc.shape[0], np.int64)
        fixed_chunk(deals, st[0], board0_key, board0_mask, r, deck.astype(np.uint8), hk, hm,
                    n_random, keys, offsets, ranks, flush, hist)
        hist_to_sums(hist, deals, acc)
        return deals
    return _deal_chunk(deals, st[0], board0_key, board0_mask, r, deck.copy(), ranged, off,
                       hand_a, hand_b, hand_w, hand_m, n_random, keys, offsets, ranks, flush, acc)


@nb.njit(cache=True, parallel=True)
def mc_round(sizes: np.ndarray, seed: int, stream0: int, board0_key: np.uint64,
             board0_mask: np.uint64, r: int, deck: np.ndarray, ranged: np.ndarray,
             off: np.ndarray, hand_a: np.ndarray, hand_b: np.ndarray, hand_w: np.ndarray,
             hand_m: np.ndarray, n_random: int, keys: np.ndarray, offsets: np.ndarray,
             ranks: np.ndarray, flush: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Chunks ``stream0 .. stream0 + len(sizes) - 1`` (sizes[i] deals each), in parallel.

    Returns (int64[chunks, P, N_COLS] per-seat sums, int64[chunks] assignment draws; -1 if
    a chunk gave up on conflicting ranges). Seats are the ranged ones (``ranged`` lists their
    indices into ``off``) followed by ``n_random`` random hands.
    """
    nch = sizes.shape[0]
    acc = np.zeros((nch, ranged.shape[0] + n_random, N_COLS), np.int64)
    tries = np.zeros(nch, np.int64)
    fixed_only, hk, hm = _fixed_seats(ranged, off, hand_a, hand_b, hand_m, keys)
    # the chunk is a separate function: the same kernels inlined into the parallel loop body
    # ran about 15 % slower
    for ch in nb.prange(nch):
        tries[ch] = _play_chunk(sizes[ch], seed, stream0 + ch, board0_key, board0_mask, r, deck,
                                ranged, off, hand_a, hand_b, hand_w, hand_m, n_random, keys,
                                offsets, ranks, flush, fixed_only, hk, hm, acc[ch])
    return acc, tries


@dataclass
class Seats:
    """Flattened seat description for the kernels: seat p's hands are rows off[p]:off[p+1]."""

    off: np.ndarray
    hand_a: np.ndarray
    hand_b: np.ndarray
    hand_w: np.ndarray
    hand_m: np.ndarray
    n_random: int


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


def check_stop_rule(samples: int | None, stderr: float | None, time_limit: float | None) -> None:
    """:class:`InputError` unless at most one rule is given and it is a finite number in range
    (the one check every Monte Carlo door uses, hold'em and Omaha alike)."""
    from pipeline.errors import InputError, clip

    if sum(v is not None for v in (samples, stderr, time_limit)) > 1:
        raise InputError("choose one of --samples, --stderr and --time")
    if samples is not None and (isinstance(samples, bool) or not 1 <= samples <= MAX_SAMPLES):
        raise InputError(f"--samples must be 1 .. {MAX_SAMPLES:,}, got {clip(str(samples))}")
    if stderr is not None and not (math.isfinite(stderr) and MIN_STDERR <= stderr <= MAX_STDERR):
        raise InputError(f"--stderr must be a number from {MIN_STDERR:g} to {MAX_STDERR:g}, got "
                         f"{clip(str(stderr))} (below {MIN_STDERR:g} needs over {MAX_SAMPLES:,} deals)")
    if time_limit is not None and not (math.isfinite(time_limit) and 0 < time_limit <= MAX_SECONDS):
        raise InputError(f"--time must be more than 0 and at most {MAX_SECONDS:g} seconds, got "
                         f"{clip(str(time_limit))}")


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
    stopped = "samples"
    while True:
        if samples is not None:
            left = samples - done
            if left <= 0:
                break
            n_ch = min(-(-left // CHUNK), 4 * ROUND_CHUNKS)
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
                per_deal = (time.perf_counter() - t0) / done
                left_s = time_limit - (time.perf_counter() - t0)
                n_ch = int(min(max(left_s / per_deal / TARGET_CHUNK, 1), 64 * ROUND_CHUNKS))
                n_ch = max(1, min(n_ch, int(0.25 / per_deal / TARGET_CHUNK) + 1))
            n_ch = max(1, min(n_ch, -(-(max_samples - done) // TARGET_CHUNK)))
            sizes = np.full(n_ch, TARGET_CHUNK, np.int64)
        acc, tr = play(sizes, next_chunk)
        sums += acc
        tries += tr
        done += int(sizes.sum())
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


def run_mc(seats: Seats, board0_key: int, board0_mask: int, r: int, deck: np.ndarray,
           keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
           seed: int, samples: int | None = None, target: float | None = None,
           time_limit: float | None = None, max_samples: int = MAX_SAMPLES,
           progress: Callable[[float, str], None] | None = None) -> McTotals:
    """Hold'em seats dealt until a stopping rule holds (see :func:`drive_rounds`)."""
    P = seats.off.shape[0] - 1 + seats.n_random
    ranged = np.arange(seats.off.shape[0] - 1, dtype=np.int64)
    deck = np.ascontiguousarray(deck, dtype=np.int64)

    def play(sizes: np.ndarray, stream0: int) -> tuple[np.ndarray, int]:
        acc, tr = mc_round(sizes, seed, stream0, np.uint64(board0_key), np.uint64(board0_mask),
                           r, deck, ranged, seats.off, seats.hand_a, seats.hand_b, seats.hand_w,
                           seats.hand_m, seats.n_random, keys, offsets, ranks, flush)
        if (tr < 0).any():
            from pipeline.errors import InputError

            raise InputError("the ranges hardly ever fit together without sharing a card "
                             f"(over {MAX_TRIES:,} tries for one deal); narrow them")
        return acc.sum(axis=0), int(tr.sum())

    return drive_rounds(play, P, samples, target, time_limit, max_samples, progress)


__all__ = ["DEFAULT_SAMPLES", "CHUNK", "Seats", "McTotals", "mc_round", "run_mc", "drive_rounds", "check_stop_rule",
           "stop_note"]
