"""Counter-based random numbers for numba kernels: one stream per (seed, chunk).

Every Monte Carlo kernel (hold'em seats, Omaha, the preflop stage's all-hands pass) draws
from these, so a result depends only on the seed and the sample count, never on how chunks
were scheduled over threads. The generator is splitmix64; bounded integers use Lemire's
multiply-and-reject on 32-bit halves (no modulo bias). For hot loops, :func:`splitmix_fill` and
:func:`shuffle_positions` make a batch of outputs and of 16-bit Lemire draws (Fisher-Yates swap
positions) in vectorized loops, rejected draws marked for the caller to redraw.
"""

from __future__ import annotations

import numba as nb
import numpy as np

#: splitmix64 increment (the golden-ratio constant) and its two output multipliers.
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
#: Odd constant that spreads stream numbers over the seed space.
_STREAM_MIX = 0xD1B54A32D192ED03
#: 2**-53: a 53-bit integer times this is a uniform double in [0, 1).
_INV53 = 1.0 / 9007199254740992.0


@nb.njit(cache=True)
def splitmix(state: np.ndarray) -> np.uint64:
    """Next output of splitmix64 (state[0] is the counter)."""
    state[0] += np.uint64(_GAMMA)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def bits32(state: np.ndarray) -> np.uint64:
    """32 random bits; each 64-bit splitmix output serves two calls (state[1..2] buffer it)."""
    if state[2]:
        state[2] = np.uint64(0)
        return state[1]
    z = splitmix(state)
    state[1] = z & np.uint64(0xFFFFFFFF)
    state[2] = np.uint64(1)
    return z >> np.uint64(32)


@nb.njit(cache=True)
def below(state: np.ndarray, n: int) -> int:
    """Uniform integer in [0, n) without modulo bias (Lemire's multiply-and-reject, 32-bit)."""
    nn = np.uint64(n)
    mask = np.uint64(0xFFFFFFFF)
    m = bits32(state) * nn
    low = m & mask
    if low < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while low < t:
            m = bits32(state) * nn
            low = m & mask
    return int(m >> np.uint64(32))


@nb.njit(cache=True)
def seed_state(seed: int, stream: int) -> np.ndarray:
    """Independent generator state for (seed, stream): chunks never share a sequence start."""
    st = np.zeros(3, np.uint64)
    st[0] = np.uint64(seed) ^ (np.uint64(stream) * np.uint64(_STREAM_MIX))
    st[0] = splitmix(st)
    st[0] = splitmix(st) ^ np.uint64(stream)
    return st


@nb.njit(inline="always", cache=True)
def step(s: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Register form of splitmix64 for hot loops: (next state, output) from a state value."""
    s = s + np.uint64(_GAMMA)
    z = s
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return s, z ^ (z >> np.uint64(31))


@nb.njit(inline="always", cache=True)
def step_below(s: np.uint64, n: int) -> tuple[np.uint64, int]:
    """(next state, uniform integer in [0, n)) by Lemire's multiply-and-reject on the output's
    top 32 bits: exact for n < 2**32, one splitmix step unless the rare rejection fires."""
    nn = np.uint64(n)
    s, z = step(s)
    m = (z >> np.uint64(32)) * nn
    low = m & np.uint64(0xFFFFFFFF)
    if low < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while low < t:
            s, z = step(s)
            m = (z >> np.uint64(32)) * nn
            low = m & np.uint64(0xFFFFFFFF)
    return s, int(m >> np.uint64(32))


@nb.njit(inline="always", cache=True)
def step_uniform(s: np.uint64) -> tuple[np.uint64, float]:
    """(next state, uniform double in [0, 1))."""
    s, z = step(s)
    return s, float(z >> np.uint64(11)) * _INV53


#: Bits per bounded draw in the batch generator (four draws per 64-bit word).
DRAW_BITS = 16
#: Draws per 64-bit word in the batch generator.
DRAWS_PER_WORD = 64 // DRAW_BITS
#: Marks a rejected batch draw (every valid position is below 64).
REJECTED = 255


@nb.njit(cache=True)
def splitmix_fill(s: np.uint64, words: np.ndarray) -> np.uint64:
    """Fill ``words`` (uint64, any shape, C order) with the next splitmix64 outputs after state
    ``s`` and return the new state: the same sequence as calling :func:`step` repeatedly, but
    each output is a function of its counter alone, so the loop vectorizes."""
    flat = words.reshape(-1)
    gamma = np.uint64(_GAMMA)
    for k in range(flat.shape[0]):
        z = s + np.uint64(k + 1) * gamma
        z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
        flat[k] = z ^ (z >> np.uint64(31))
    return s + np.uint64(flat.shape[0]) * gamma


@nb.njit(cache=True)
def shuffle_positions(words: np.ndarray, n: int, need: int, out: np.ndarray) -> None:
    """Swap positions for ``need`` steps of a partial Fisher-Yates shuffle of ``n`` items, for
    a batch of ``out.shape[1]`` shuffles at once.

    ``out[i, d]`` (uint8) is ``i + u`` with ``u`` uniform in ``[0, n - i)``, drawn by Lemire's
    multiply-and-reject from a 16-bit slice of ``words[i // 4, d]`` (``words`` is uint64
    ``[ceil(need / 4), batch]``, every word fresh); a draw that Lemire's rule rejects (chance
    below n / 65536) is :data:`REJECTED` and must be redrawn by the caller from an independent
    stream. Nothing is biased: accepted values are exactly uniform. ``n`` must be at most 64.
    """
    batch = out.shape[1]
    lo_mask = np.uint32((1 << DRAW_BITS) - 1)
    for i in range(need):
        nn = np.uint32(n - i)
        limit = np.uint32(1 << DRAW_BITS) % nn  # Lemire's threshold: low parts below it reject
        shift = np.uint64(DRAW_BITS * (i % DRAWS_PER_WORD))
        row = words[i // DRAWS_PER_WORD]
        for d in range(batch):
            m = np.uint32((row[d] >> shift) & np.uint64(lo_mask)) * nn
            pos = np.uint8(i + (m >> np.uint32(DRAW_BITS)))
            out[i, d] = pos if (m & lo_mask) >= limit else np.uint8(REJECTED)


__all__ = ["splitmix", "bits32", "below", "seed_state", "step", "step_below", "step_uniform",
           "splitmix_fill", "shuffle_positions",
           "DRAW_BITS", "DRAWS_PER_WORD", "REJECTED"]
