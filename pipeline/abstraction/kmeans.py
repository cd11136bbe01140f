"""Weighted k-means (L2) of real vectors: the river's OCHS buckets.

Lloyd's iterations with Hamerly's bounds (Euclidean distance is a metric, so a centre that
moved by ``shift`` changes any distance by at most that), k-means++ seeding shared with the
EMD buckets (:func:`pipeline.abstraction.buckets.seed_centres`, squared distances here). Points
are float32, centres float64 means; every sum runs over a fixed partition of the rows
(:data:`N_CHUNKS`) and the partial sums are added in chunk order, so a seed gives the same
bytes on any number of threads. Weights are the raw situations each point stands for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from pipeline.abstraction.buckets import DEFAULT_ITERATIONS, N_CHUNKS, seed_centres
from pipeline.core.parallel import even_chunk
from pipeline.errors import InputError

#: The mean-gap bound stops a scan only past the best distance by this factor, so float
#: rounding of the bound cannot skip a centre at (nearly) the same distance.
PRUNE_SLACK = 1.0 + 1e-9


@dataclass(frozen=True)
class MeansClustering:
    """``labels`` (uint16) per point, ``centres`` (float64 means), the objective (weighted sum
    of squared L2 distances to the centres) and the same for a random assignment with the same
    bucket sizes (each bucket at its own mean)."""

    labels: np.ndarray
    centres: np.ndarray
    objective: float
    random_objective: float
    iterations: int


@nb.njit(cache=True, inline="always")
def _sq(x: np.ndarray, i: int, c: np.ndarray, j: int) -> float:
    s = 0.0
    for q in range(x.shape[1]):
        d = np.float64(x[i, q]) - c[j, q]
        s += d * d
    return s


@nb.njit(cache=True, parallel=True)
def _assign(x: np.ndarray, c: np.ndarray, labels: np.ndarray, upper: np.ndarray,
            lower: np.ndarray, shift: np.ndarray, half_gap: np.ndarray, first: bool) -> int:
    """Nearest centre of every row, skipping rows whose bounds prove their centre still nearest;
    ``upper``/``lower`` bound the (Euclidean) distance to the row's centre and to its second
    nearest. Returns the rows whose label changed."""
    moved = np.zeros(N_CHUNKS, np.int64)
    k = c.shape[0]
    top_shift = 0.0
    for j in range(k):
        top_shift = max(top_shift, shift[j])
    for ch in nb.prange(N_CHUNKS):
        lo, hi = even_chunk(x.shape[0], N_CHUNKS, ch)
        for i in range(lo, hi):
            a = labels[i]
            if not first:
                upper[i] += shift[a]
                lower[i] -= top_shift
                z = max(lower[i], half_gap[a])
                if upper[i] <= z:
                    continue
                upper[i] = np.sqrt(_sq(x, i, c, a))
                if upper[i] <= z:
                    continue
            best = np.inf
            second = np.inf
            arg = 0
            for j in range(k):
                dj = _sq(x, i, c, j)
                if dj < best:
                    second = best
                    best = dj
                    arg = j
                elif dj < second:
                    second = dj
            if arg != a:
                moved[ch] += 1
                labels[i] = arg
            upper[i] = np.sqrt(best)
            lower[i] = np.sqrt(second)
    return int(moved.sum())


@nb.njit(cache=True, parallel=True)
def _sums(x: np.ndarray, w: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """Per chunk and bucket: the weighted sums of the members' coordinates, then their weight
    (float64[N_CHUNKS, k, d + 1])."""
    d = x.shape[1]
    acc = np.zeros((N_CHUNKS, k, d + 1), np.float64)
    for ch in nb.prange(N_CHUNKS):
        lo, hi = even_chunk(x.shape[0], N_CHUNKS, ch)
        for i in range(lo, hi):
            j = labels[i]
            wi = np.float64(w[i])
            for q in range(d):
                acc[ch, j, q] += wi * x[i, q]
            acc[ch, j, d] += wi
    return acc


@nb.njit(cache=True, parallel=True)
def _cost(x: np.ndarray, w: np.ndarray, c: np.ndarray, labels: np.ndarray) -> float:
    part = np.zeros(N_CHUNKS, np.float64)
    for ch in nb.prange(N_CHUNKS):
        lo, hi = even_chunk(x.shape[0], N_CHUNKS, ch)
        for i in range(lo, hi):
            part[ch] += w[i] * _sq(x, i, c, labels[i])
    total = 0.0
    for ch in range(N_CHUNKS):
        total += part[ch]
    return total


@nb.njit(cache=True, parallel=True)
def _sq_distances(x: np.ndarray, centre: np.ndarray, out: np.ndarray) -> None:
    c = centre.reshape((1, centre.shape[0]))
    for i in nb.prange(x.shape[0]):
        out[i] = _sq(x, i, c, 0)


@nb.njit(cache=True)
def _centre_gaps(c: np.ndarray, old: np.ndarray, shift: np.ndarray, half_gap: np.ndarray) -> None:
    """How far each centre moved, and half the distance to its nearest other centre."""
    k = c.shape[0]
    for j in range(k):
        shift[j] = np.sqrt(_sq(c, j, old, j))
        g = np.inf
        for m in range(k):
            if m != j:
                g = min(g, _sq(c, j, c, m))
        half_gap[j] = np.sqrt(g) / 2


def _means(x: np.ndarray, w: np.ndarray, labels: np.ndarray, k: int, keep: np.ndarray) -> np.ndarray:
    """Each bucket's weighted mean; an empty bucket keeps its row of ``keep``."""
    acc = _sums(x, w, labels, k)
    total = acc[0].copy()
    for ch in range(1, N_CHUNKS):   # in chunk order: the same sums on any thread count
        total += acc[ch]
    out = keep.astype(np.float64, copy=True)
    full = total[:, -1] > 0
    out[full] = total[full, :-1] / total[full, -1:]
    return out


@nb.njit(cache=True, parallel=True)
def _nearest(x: np.ndarray, c: np.ndarray, labels: np.ndarray) -> None:
    """Nearest centre of every row (ties: the lowest index), visiting the centres in order of
    how far their coordinate mean is from the row's: ``|x - c|² >= d (mean x - mean c)²``
    (Cauchy-Schwarz), so the scan stops once that bound passes the best distance. OCHS rows
    spread mostly along their mean, so a row visits a few of the centres."""
    k, d = c.shape
    means = np.empty(k, np.float64)
    for j in range(k):
        means[j] = c[j].sum() / d
    order = np.argsort(means)
    sorted_means = means[order]
    for i in nb.prange(x.shape[0]):
        mx = 0.0
        for q in range(d):
            mx += x[i, q]
        mx /= d
        hi = np.searchsorted(sorted_means, mx)
        lo = hi - 1
        best = np.inf
        arg = 0
        while lo >= 0 or hi < k:
            # the side whose next centre mean is closer goes first
            if hi >= k or (lo >= 0 and mx - sorted_means[lo] <= sorted_means[hi] - mx):
                j = order[lo]
                gap = mx - sorted_means[lo]
                lo -= 1
            else:
                j = order[hi]
                gap = sorted_means[hi] - mx
                hi += 1
            if d * gap * gap > best * PRUNE_SLACK:
                break
            dj = _sq(x, i, c, j)
            if dj < best or (dj == best and j < arg):
                best = dj
                arg = j
        labels[i] = arg


def kmeans_l2(x: np.ndarray, weight: np.ndarray, k: int, seed: int,
              iterations: int = DEFAULT_ITERATIONS, sample: int | None = None) -> MeansClustering:
    """Cluster rows of ``x`` (float32) into ``k`` buckets minimising the weighted squared L2
    distance to the bucket means; deterministic for a seed.

    With ``sample`` (fewer than the rows), Lloyd's iterations run on that many rows drawn
    uniformly with the seed (each keeping its weight), then every row takes its nearest final
    centre; the objectives are over all rows either way."""
    n = len(x)
    if not 1 <= k <= n:
        raise InputError(f"buckets must be 1 .. {n:,} (the points), got {k}")
    x = np.ascontiguousarray(x, np.float32)
    w = np.asarray(weight, np.int64)
    rng = np.random.default_rng(seed)
    if sample is not None and sample < n:
        pick = np.sort(rng.choice(n, size=sample, replace=False))
        xs, ws = np.ascontiguousarray(x[pick]), w[pick]
    else:
        xs, ws = x, w
    m = len(xs)
    centres = seed_centres(xs, ws, k, rng, _sq_distances).astype(np.float64)
    labels = np.zeros(m, np.int64)
    upper = np.zeros(m, np.float64)
    lower = np.zeros(m, np.float64)
    shift = np.zeros(k, np.float64)
    half_gap = np.zeros(k, np.float64)
    it = 0
    while it < iterations:
        moved = _assign(xs, centres, labels, upper, lower, shift, half_gap, it == 0)
        it += 1
        if moved == 0 and it > 1:
            break
        new = _means(xs, ws, labels, k, centres)
        _centre_gaps(new, centres, shift, half_gap)
        centres = new
    if xs is not x:
        del upper, lower
        labels = np.empty(n, np.int64)
        _nearest(x, centres, labels)
    objective = _cost(x, w, centres, labels)
    shuffled = rng.permutation(labels)
    random_centres = _means(x, w, shuffled, k, np.zeros_like(centres))
    random_objective = _cost(x, w, random_centres, shuffled)
    return MeansClustering(labels.astype(np.uint16), centres, objective, random_objective, it)


__all__ = ["MeansClustering", "kmeans_l2"]
