"""``pipeline.core.parallel.claim``: threads taking chunk numbers from one shared counter."""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.parallel import ROW_CHUNKS_PER_THREAD, claim, run_rows


@nb.njit(parallel=True)
def _take_all(n: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    counter = np.zeros(1, np.int64)
    taken = np.zeros(n, np.int64)
    per_worker = np.zeros(workers, np.int64)
    for w in nb.prange(workers):
        while True:
            i = claim(counter, 1)
            if i >= n:
                break
            taken[i] += 1
            per_worker[w] += 1
    return taken, per_worker


def test_every_number_is_claimed_once_on_any_thread_count() -> None:
    n = 200_003
    most = int(getattr(nb.config, "NUMBA_NUM_THREADS", 1))
    for threads in sorted({1, min(2, most), most}):
        start = nb.get_num_threads()
        nb.set_num_threads(threads)
        try:
            taken, per_worker = _take_all(n, threads)
        finally:
            nb.set_num_threads(start)
        assert taken.min() == 1 and taken.max() == 1
        assert per_worker.sum() == n


def test_claim_steps_by_its_increment() -> None:
    @nb.njit
    def steps() -> tuple[int, int, int]:
        c = np.zeros(1, np.int64)
        a = claim(c, 5)
        b = claim(c, 3)
        return a, b, c[0]

    assert steps() == (0, 5, 8)


@nb.njit(nogil=True)
def _mark(lo: int, hi: int, seen: np.ndarray, calls: np.ndarray) -> None:
    for i in range(lo, hi):
        seen[i] += 1
    calls[0] += 1  # only counted: the chunks may run side by side


def test_run_rows_covers_every_row_once() -> None:
    """``run_rows`` (the build's kernels on threads): each row of 0..n-1 in exactly one chunk,
    for any row count (none, fewer rows than chunks, many) and thread count."""
    for n in (0, 1, 3, 7, 8, 9, 1000, 100_003):
        for threads in (1, 2, 3):
            seen = np.zeros(n, np.int64)
            calls = np.zeros(1, np.int64)
            run_rows(_mark, n, seen, calls, threads=threads)
            assert seen.tolist() == [1] * n
            assert 1 <= calls[0] <= max(1, min(n, threads * ROW_CHUNKS_PER_THREAD))
