"""Buckets: weighted k-medians of equity histograms under the earth mover's distance.

For histograms over the same ordered bins, EMD is the L1 distance between their cumulative
sums (times the bin width). So each class becomes its integer CDF (counts of rivers at or below
each bin edge, the last bin dropped: it always holds every completion), the assignment step
takes the nearest centre in L1 — exactly EMD — and the update step takes, per coordinate, the
weighted median of the members' CDFs: the minimiser of summed L1, so the objective (weighted
EMD to the centres) never increases. Coordinate-wise medians of non-decreasing vectors are
non-decreasing, so every centre is itself a CDF.

Everything is integer and every reduction is exact, so a seed gives the same buckets on any
number of threads. Weights are the raw situations each class stands for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numba as nb
import numpy as np

from pipeline.core.parallel import even_chunk
from pipeline.errors import InputError

#: Parallel work units of the assignment step.
N_CHUNKS = 64
#: Points the k-means++ seeding picks from (a weighted sample of this many per bucket).
SEED_SAMPLE_PER_BUCKET = 50
#: Lloyd iterations at most; the loop stops earlier once no class changes bucket.
DEFAULT_ITERATIONS = 25
#: Integers below this add up exactly in float32, in any order.
EXACT_FLOAT32 = 1 << 24


@dataclass(frozen=True)
class Clustering:
    """Buckets of one street: ``labels`` per class, ``centres`` (integer CDFs), the weighted
    EMD objective (in completions x bins; divide by ``completions * bins`` for equity units)
    and the same objective for a random assignment with the same bucket sizes."""

    labels: np.ndarray
    centres: np.ndarray
    objective: int
    random_objective: int
    iterations: int


@nb.njit(cache=True, inline="always")
def _l1(x: np.ndarray, i: int, c: np.ndarray, j: int) -> float:
    # float32 sums of integers below 2**24 are exact, in any order: SIMD without rounding
    s = np.float32(0.0)
    for q in range(x.shape[1]):
        s += abs(x[i, q] - c[j, q])
    return float(s)


@nb.njit(cache=True, parallel=True)
def _assign(x: np.ndarray, c: np.ndarray, labels: np.ndarray, upper: np.ndarray,
            lower: np.ndarray, shift: np.ndarray, half_gap: np.ndarray, first: bool) -> int:
    """Nearest centre (L1) of every row, skipping rows whose bounds prove their centre is still
    nearest (Hamerly's bounds: L1 is a metric, so a centre that moved by ``shift`` changes any
    distance by at most that). ``upper``/``lower`` bound the distance to the row's centre and to
    its second-nearest. Returns the rows whose label changed."""
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
                upper[i] = _l1(x, i, c, a)
                if upper[i] <= z:
                    continue
            best = np.inf
            second = np.inf
            arg = 0
            for j in range(k):
                dj = _l1(x, i, c, j)
                if dj < best:
                    second = best
                    best = dj
                    arg = j
                elif dj < second:
                    second = dj
            if arg != a:
                moved[ch] += 1
                labels[i] = arg
            upper[i] = best
            lower[i] = second
    return int(moved.sum())


@nb.njit(cache=True)
def _centre_gaps(c: np.ndarray, old: np.ndarray, shift: np.ndarray, half_gap: np.ndarray) -> None:
    """How far each centre moved, and half the distance to its nearest other centre."""
    k = c.shape[0]
    for j in range(k):
        shift[j] = _l1(c, j, old, j)
        g = np.inf
        for m in range(k):
            if m != j:
                g = min(g, _l1(c, j, c, m))
        half_gap[j] = g / 2


@nb.njit(cache=True)
def _medians(x: np.ndarray, w: np.ndarray, labels: np.ndarray, k: int, top: int) -> np.ndarray:
    """Per bucket and coordinate, the weighted median of the members' values (0..top): the
    smallest value whose cumulative weight reaches half the bucket's weight. Empty buckets get
    -1 in their first coordinate."""
    n, d = x.shape
    counts = np.zeros((k, d, top + 1), np.int64)
    total = np.zeros(k, np.int64)
    for i in range(n):
        j = labels[i]
        total[j] += w[i]
        for q in range(d):
            counts[j, q, x[i, q]] += w[i]
    out = np.zeros((k, d), np.int64)
    for j in range(k):
        if total[j] == 0:
            out[j, 0] = -1
            continue
        for q in range(d):
            acc = 0
            for v in range(top + 1):
                acc += counts[j, q, v]
                if 2 * acc >= total[j]:
                    out[j, q] = v
                    break
    return out


@nb.njit(cache=True)
def _medians_by_sorting(x: np.ndarray, w: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """:func:`_medians` for values too large to count per value (same result, by sorting)."""
    n, d = x.shape
    out = np.zeros((k, d), np.int64)
    order = np.argsort(labels, kind="mergesort")
    start = 0
    for j in range(k):
        stop = start
        while stop < n and labels[order[stop]] == j:
            stop += 1
        if stop == start:
            out[j, 0] = -1
            continue
        members = order[start:stop]
        total = 0
        for i in members:
            total += w[i]
        vals = np.empty(stop - start, np.int64)
        for q in range(d):
            for t in range(stop - start):
                vals[t] = x[members[t], q]
            acc = 0
            for t in np.argsort(vals, kind="mergesort"):
                acc += w[members[t]]
                if 2 * acc >= total:
                    out[j, q] = vals[t]
                    break
        start = stop
    return out


#: Largest value the weighted medians count per value (above it they sort).
COUNTED_TOP = 1 << 16


def _bucket_medians(x: np.ndarray, w: np.ndarray, labels: np.ndarray, k: int, top: int) -> np.ndarray:
    if top <= COUNTED_TOP:
        return _medians(x, w, labels, k, top)
    return _medians_by_sorting(x, w, labels, k)


@nb.njit(cache=True, parallel=True)
def _distances(x: np.ndarray, centre: np.ndarray, out: np.ndarray) -> None:
    for i in nb.prange(x.shape[0]):
        s = np.int64(0)
        for q in range(x.shape[1]):
            s += abs(np.int64(x[i, q]) - np.int64(centre[q]))
        out[i] = s


def cdf_rows(hist: np.ndarray) -> np.ndarray:
    """Integer CDFs of histogram rows, the last (constant) column dropped."""
    top = int(hist.sum(axis=1, dtype=np.int64).max(initial=0))
    dtype = next(t for t in (np.uint8, np.uint16, np.uint32) if top <= np.iinfo(t).max)
    return np.cumsum(hist[:, :-1], axis=1, dtype=np.int64).astype(dtype)


def seed_centres(x: np.ndarray, w: np.ndarray, k: int, rng: np.random.Generator,
                 distances: Callable[[np.ndarray, np.ndarray, np.ndarray], None] | None = None
                 ) -> np.ndarray:
    """k-means++ seeding on a weighted sample of the rows: each next centre is drawn with
    probability weight x ``distances`` to the nearest centre so far (L1 by default, as suits
    k-medians; k-means passes squared L2)."""
    distances = _distances if distances is None else distances
    m = min(len(x), SEED_SAMPLE_PER_BUCKET * k)
    p = w / w.sum()
    pick = rng.choice(len(x), size=m, replace=False, p=p) if m < len(x) else np.arange(len(x))
    pick.sort()
    sample = np.ascontiguousarray(x[pick])
    sw = w[pick].astype(np.float64)
    centres = np.empty((k, x.shape[1]), x.dtype if x.dtype.kind == "f" else np.int64)
    centres[0] = sample[int(rng.choice(m, p=sw / sw.sum()))]
    best = np.full(m, np.inf)
    dist = np.empty(m, np.float64)
    for j in range(1, k):
        distances(sample, centres[j - 1], dist)
        np.minimum(best, dist, out=best)
        score = sw * best
        if score.sum() <= 0:   # fewer distinct rows than buckets: repeat one (it stays empty)
            centres[j] = sample[int(rng.integers(m))]
            continue
        centres[j] = sample[int(rng.choice(m, p=score / score.sum()))]
    return centres


def distinct_rows(hist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``hist`` (sorted) and, per row of ``hist``, its distinct row's index.
    Classes with equal histograms are equal points: 13,960,050 turn classes hold 1,317,777
    distinct histograms."""
    h = np.ascontiguousarray(hist)
    keyed = h.view(np.dtype((np.void, h.dtype.itemsize * h.shape[1]))).ravel()
    _, first, inverse = np.unique(keyed, return_index=True, return_inverse=True)
    return h[first], inverse.ravel()


def kmedians_emd(hist: np.ndarray, weight: np.ndarray, k: int, seed: int,
                 iterations: int = DEFAULT_ITERATIONS) -> Clustering:
    """Cluster histogram rows into ``k`` buckets minimising the weighted EMD to the centres.

    Equal rows are clustered once, weighted by their summed weights (the objective is the same
    sum), then every row takes its distinct row's bucket."""
    n = len(hist)
    if not 1 <= k <= n:
        raise InputError(f"buckets must be 1 .. {n:,} (the classes), got {k}")
    w_all = np.asarray(weight, np.int64)
    uniq, inverse = distinct_rows(np.asarray(hist))
    w = np.bincount(inverse, weights=w_all, minlength=len(uniq)).astype(np.int64)
    x = cdf_rows(uniq)
    top = int(uniq[0].sum(dtype=np.int64))
    # float32 sums of integers stay exact below 2**24; a larger total (preflop) takes float64
    fdt = np.float32 if top * x.shape[1] < EXACT_FLOAT32 else np.float64
    xf = x.astype(fdt)
    rng = np.random.default_rng(seed)
    centres = seed_centres(x, w, min(k, len(uniq)), rng)
    if len(centres) < k:   # fewer distinct rows than buckets: the extra buckets stay empty
        centres = np.vstack([centres, np.repeat(centres[:1], k - len(centres), axis=0)])
    m = len(uniq)
    labels = np.zeros(m, np.int64)
    upper = np.zeros(m, np.float64)
    lower = np.zeros(m, np.float64)
    shift = np.zeros(k, np.float64)
    half_gap = np.zeros(k, np.float64)
    it = 0
    while it < iterations:
        cf = centres.astype(fdt)
        moved = _assign(xf, cf, labels, upper, lower, shift, half_gap, it == 0)
        it += 1
        if moved == 0 and it > 1:
            break
        new = _bucket_medians(x, w, labels, k, top)
        empty = new[:, 0] < 0
        new[empty] = centres[empty]   # an empty bucket keeps its centre (it may win rows back)
        _centre_gaps(new.astype(fdt), cf, shift, half_gap)
        centres = new
    objective = _labelled_cost(x, w, centres, labels)
    full = labels[inverse]
    # baseline: the same bucket sizes, classes dealt to buckets at random, each bucket at its
    # best (median) centre
    x_all = x[inverse]
    shuffled = rng.permutation(full)
    rc = _bucket_medians(x_all, w_all, shuffled, k, top)
    rc[rc[:, 0] < 0] = 0
    random_objective = _labelled_cost(x_all, w_all, rc, shuffled)
    return Clustering(full.astype(np.uint16), centres, objective, random_objective, it)


@nb.njit(cache=True, parallel=True)
def _labelled_cost(x: np.ndarray, w: np.ndarray, c: np.ndarray, labels: np.ndarray) -> int:
    cost = np.zeros(N_CHUNKS, np.int64)
    for ch in nb.prange(N_CHUNKS):
        lo, hi = even_chunk(x.shape[0], N_CHUNKS, ch)
        for i in range(lo, hi):
            s = np.int64(0)
            for q in range(x.shape[1]):
                s += abs(np.int64(x[i, q]) - np.int64(c[labels[i], q]))
            cost[ch] += s * w[i]
    return int(cost.sum())


__all__ = ["Clustering", "cdf_rows", "distinct_rows", "kmedians_emd", "seed_centres", "DEFAULT_ITERATIONS",
           "N_CHUNKS"]
