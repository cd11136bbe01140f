"""The search kernels of the strategy chart (:mod:`pipeline.videopoker.charts.chart`): the per-class
(pattern, EV) entries, their inverted index, and the insertion moves that improve an order.

Plain numba functions over arrays: the chart's state object owns the arrays and calls these.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True)
def _compact(codes: np.ndarray, table_keys: np.ndarray, table_ids: np.ndarray, pid: np.ndarray,
             firsts: np.ndarray) -> int:
    """Number the distinct codes in order of appearance (open-addressing hash table)."""
    mask = table_keys.shape[0] - 1
    n = 0
    for i in range(codes.shape[0]):
        for m in range(codes.shape[1]):
            c = codes[i, m]
            h = (c * 0x9E3779B97F4A7C15) >> 17 & mask
            while True:
                if table_ids[h] < 0:
                    table_keys[h] = c
                    table_ids[h] = n
                    firsts[n] = c
                    n += 1
                    break
                if table_keys[h] == c:
                    break
                h = (h + 1) & mask
            pid[i, m] = table_ids[h]
    return n


def compact_codes(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sorted distinct codes, int32 pattern id of every entry into them)."""
    size = 1 << 16
    keys = np.zeros(size, np.int64)
    ids = np.full(size, -1, np.int64)
    pid = np.empty(codes.shape, np.int32)
    firsts = np.empty(size // 2, np.int64)
    n = _compact(codes, keys, ids, pid, firsts)
    if n >= size // 2:
        raise AssertionError("more hold patterns than the pattern table holds")
    uniq = firsts[:n]
    srt = np.argsort(uniq)
    rank = np.empty(n, np.int32)
    rank[srt] = np.arange(n, dtype=np.int32)
    return uniq[srt], rank[pid]


@nb.njit(cache=True)
def entries(pid: np.ndarray, ev: np.ndarray, ent_p: np.ndarray, ent_ev: np.ndarray,
             ent_m: np.ndarray, k: np.ndarray) -> None:
    """Per class: the distinct patterns present, each with its lowest-mask hold and that EV."""
    for i in range(pid.shape[0]):
        n = 0
        for m in range(32):
            p = pid[i, m]
            seen = False
            for j in range(n):
                if ent_p[i, j] == p:
                    seen = True
                    break
            if not seen:
                ent_p[i, n] = p
                ent_ev[i, n] = ev[i, m]
                ent_m[i, n] = m
                n += 1
        k[i] = n


@nb.njit(cache=True)
def inverted(ent_p: np.ndarray, k: np.ndarray, n_pat: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pattern -> the (class, slot) pairs where it is present (counting sort)."""
    start = np.zeros(n_pat + 1, np.int64)
    for i in range(ent_p.shape[0]):
        for j in range(k[i]):
            start[ent_p[i, j] + 1] += 1
    for p in range(n_pat):
        start[p + 1] += start[p]
    fill = start[:-1].copy()
    cls = np.empty(start[n_pat], np.int64)
    slot = np.empty(start[n_pat], np.int64)
    for i in range(ent_p.shape[0]):
        for j in range(k[i]):
            p = ent_p[i, j]
            cls[fill[p]] = i
            slot[fill[p]] = j
            fill[p] += 1
    return start, cls, slot


@nb.njit(cache=True)
def set_delta(pats: np.ndarray, newpos: np.ndarray, ent_p: np.ndarray, ent_ev: np.ndarray,
               k: np.ndarray, w: np.ndarray, inv_start: np.ndarray, inv_cls: np.ndarray,
               first: np.ndarray, mark: np.ndarray, stamp: int) -> float:
    """EV lost (weighted) if the patterns ``pats`` take the positions ``newpos``; only classes
    holding one of them can change their first pattern."""
    total = 0.0
    moved = np.zeros(newpos.shape[0], np.bool_)
    for p in pats:
        moved[p] = True
    for p in pats:
        for t in range(inv_start[p], inv_start[p + 1]):
            i = inv_cls[t]
            if mark[i] == stamp:
                continue
            fp = ent_p[i, first[i]]
            # unchanged unless the first pattern moves or p now comes before it
            if not moved[fp] and newpos[p] > newpos[fp]:
                continue
            mark[i] = stamp
            bj = 0
            for j in range(1, k[i]):
                if newpos[ent_p[i, j]] < newpos[ent_p[i, bj]]:
                    bj = j
            total += w[i] * (ent_ev[i, first[i]] - ent_ev[i, bj])
    return total


@nb.njit(cache=True)
def mean_ev(ent_p: np.ndarray, ent_ev: np.ndarray, k: np.ndarray, w: np.ndarray,
             n_pat: int) -> np.ndarray:
    """Weighted mean EV of each pattern's hold over the deals that contain the pattern."""
    num = np.zeros(n_pat)
    den = np.zeros(n_pat)
    for i in range(ent_p.shape[0]):
        for j in range(k[i]):
            num[ent_p[i, j]] += w[i] * ent_ev[i, j]
            den[ent_p[i, j]] += w[i]
    return num / np.maximum(den, 1.0)


@nb.njit(cache=True)
def fas_matrix(ent_p: np.ndarray, ent_ev: np.ndarray, k: np.ndarray, w: np.ndarray,
                n_pat: int) -> np.ndarray:
    """W[a, b] = sum of weight x (EV lost) over classes whose best pattern a competes with b."""
    mat = np.zeros((n_pat, n_pat))
    for i in range(ent_p.shape[0]):
        b = 0
        for j in range(1, k[i]):
            if ent_ev[i, j] > ent_ev[i, b]:
                b = j
        for j in range(k[i]):
            if j != b:
                mat[ent_p[i, b], ent_p[i, j]] += w[i] * (ent_ev[i, b] - ent_ev[i, j])
    return mat


@nb.njit(cache=True)
def _first_second_one(i: int, ent_p: np.ndarray, k: np.ndarray, pos: np.ndarray,
                      first: np.ndarray, second: np.ndarray) -> None:
    f = -1
    s = -1
    for j in range(k[i]):
        q = pos[ent_p[i, j]]
        if f < 0 or q < pos[ent_p[i, f]]:
            s = f
            f = j
        elif s < 0 or q < pos[ent_p[i, s]]:
            s = j
    first[i] = f
    second[i] = s


@nb.njit(cache=True, parallel=True)
def first_second(ent_p: np.ndarray, k: np.ndarray, pos: np.ndarray, first: np.ndarray,
                  second: np.ndarray) -> None:
    for i in nb.prange(ent_p.shape[0]):
        # np.int64: a prange index is also typed uint64 in the parallel body
        _first_second_one(np.int64(i), ent_p, k, pos, first, second)


@nb.njit(cache=True)
def move_gains(p: int, ent_p: np.ndarray, ent_ev: np.ndarray, w: np.ndarray, inv_start: np.ndarray,
           inv_cls: np.ndarray, inv_slot: np.ndarray, pos: np.ndarray, first: np.ndarray,
           second: np.ndarray, acc_e: np.ndarray, acc_l: np.ndarray, gains: np.ndarray) -> None:
    """gains[j] = cost saved by moving pattern p to position j (negative: EV lost)."""
    n_pat = pos.shape[0]
    pp = pos[p]
    for j in range(n_pat):
        acc_e[j] = 0.0
        acc_l[j] = 0.0
    for t in range(inv_start[p], inv_start[p + 1]):
        i = inv_cls[t]
        sl = inv_slot[t]
        f = first[i]
        if ent_p[i, f] != p:
            acc_e[pos[ent_p[i, f]]] += w[i] * (ent_ev[i, sl] - ent_ev[i, f])
        else:
            s = second[i]
            if s >= 0:
                acc_l[pos[ent_p[i, s]]] += w[i] * (ent_ev[i, s] - ent_ev[i, sl])
    gains[pp] = 0.0
    run = 0.0
    for j in range(pp - 1, -1, -1):
        run += acc_e[j]
        gains[j] = run
    run = 0.0
    for j in range(pp + 1, n_pat):
        run += acc_l[j]
        gains[j] = run


@nb.njit(cache=True)
def apply_move(order: np.ndarray, pos: np.ndarray, p: int, j: int) -> None:
    pp = pos[p]
    if j < pp:
        for t in range(pp, j, -1):
            order[t] = order[t - 1]
    else:
        for t in range(pp, j):
            order[t] = order[t + 1]
    order[j] = p
    lo = min(pp, j)
    hi = max(pp, j)
    for t in range(lo, hi + 1):
        pos[order[t]] = t


@nb.njit(cache=True)
def refresh(p: int, ent_p: np.ndarray, k: np.ndarray, inv_start: np.ndarray, inv_cls: np.ndarray,
             pos: np.ndarray, first: np.ndarray, second: np.ndarray) -> None:
    """Recompute the first and second pattern of every class that holds pattern p."""
    for t in range(inv_start[p], inv_start[p + 1]):
        _first_second_one(inv_cls[t], ent_p, k, pos, first, second)


@nb.njit(cache=True)
def improve(ent_p: np.ndarray, ent_ev: np.ndarray, k: np.ndarray, w: np.ndarray,
             inv_start: np.ndarray, inv_cls: np.ndarray, inv_slot: np.ndarray, order: np.ndarray,
             pos: np.ndarray, first: np.ndarray, second: np.ndarray, max_rounds: int,
             eps: float) -> int:
    """Insertion local search on the true cost; returns the number of moves made."""
    n_pat = order.shape[0]
    acc_e = np.empty(n_pat)
    acc_l = np.empty(n_pat)
    gains = np.empty(n_pat)
    moves = 0
    for _ in range(max_rounds):
        improved = False
        for p in range(n_pat):
            if inv_start[p + 1] == inv_start[p]:
                continue
            move_gains(p, ent_p, ent_ev, w, inv_start, inv_cls, inv_slot, pos, first, second,
                   acc_e, acc_l, gains)
            j = int(np.argmax(gains))
            if gains[j] > eps:
                apply_move(order, pos, p, j)
                refresh(p, ent_p, k, inv_start, inv_cls, pos, first, second)
                moves += 1
                improved = True
        if not improved:
            break
    return moves


@nb.njit(cache=True)
def line_holds(pid: np.ndarray, line_of: np.ndarray, out_hold: np.ndarray,
                out_line: np.ndarray) -> None:
    """Per class: the first line with a pattern present, and its lowest-mask hold."""
    for i in range(pid.shape[0]):
        best_l = line_of.shape[0] + 1
        best_m = 0
        for m in range(32):
            ln = line_of[pid[i, m]]
            if ln < best_l:
                best_l = ln
                best_m = m
        out_hold[i] = best_m
        out_line[i] = best_l


__all__ = [
    "compact_codes", "entries", "inverted", "set_delta", "mean_ev", "fas_matrix",
    "first_second", "move_gains", "apply_move", "refresh", "improve", "line_holds"]
