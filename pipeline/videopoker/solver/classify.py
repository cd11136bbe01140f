"""Pay category of every 5-card deal under a paytable (natural, deuces wild, joker deck).

Two passes, both numba:

1. :func:`pattern_table` — the pay category depends only on the number ``w`` of wild cards,
   the multiset of the natural cards' ranks and whether the naturals share one suit. For each
   such pattern it tries every reading of the wild cards (each wild any rank; all wilds in
   the naturals' suit or not) and keeps the best-paying line, so "best use of the wilds"
   is exact and needs no hand-written wild-card rules. About 700k readings in all.
2. :func:`classify_deals` — one table lookup per deal (2,598,960, 2,869,685 or 3,162,510 deals).

Line semantics are documented in :mod:`pipeline.videopoker.paytables.paytable`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.evaluate import MBINOM
from pipeline.core.parallel import run_rows
from pipeline.videopoker.paytables.hands import (
    FIVE_KIND,
    FLUSH,
    FOUR_DEUCES,
    FOUR_KIND,
    FULL_HOUSE,
    PAIR,
    ROYAL,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_KIND,
    TWO_PAIR,
    WILD_ROYAL,
)
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.paytables.wild import WILD_CODE
from pipeline.videopoker.paytables.wild import is_wild as wild_card

#: :func:`pipeline.videopoker.paytables.wild.is_wild` compiled into the kernels here
is_wild = nb.njit(inline="always", cache=True)(wild_card)

# multiset-index table sizes C(12+n, n) for n = 0..5 natural cards
_MS_SIZE = np.array([1, 13, 91, 455, 1820, 6188], dtype=np.int64)


def pattern_offsets(max_wilds: int) -> np.ndarray:
    """Start of each wild count's block in the pattern table (2 entries per rank multiset)."""
    off = np.zeros(max_wilds + 2, dtype=np.int64)
    for w in range(max_wilds + 1):
        off[w + 1] = off[w] + 2 * _MS_SIZE[5 - w]
    return off


@nb.njit(cache=True)
def _line_of(cnt: np.ndarray, flush: bool, w: int, nat_rank: int, wild_mode: int,
             codes: np.ndarray, rmask: np.ndarray, kmask: np.ndarray) -> int:
    """First line matched by one reading (rank counts + flush flag); len(codes) if none."""
    n5 = n4 = n3 = n2 = n1 = 0
    q4 = q3 = q2 = r1 = -1
    lo = 13
    hi = -1
    for r in range(13):
        c = cnt[r]
        if c == 0:
            continue
        if r < lo:
            lo = r
        hi = r
        if c == 5:
            n5 += 1
        elif c == 4:
            n4 += 1
            q4 = r
        elif c == 3:
            n3 += 1
            q3 = r
        elif c == 2:
            n2 += 1
            q2 = r
        else:
            n1 += 1
            r1 = r
    straight = False
    if n1 == 5:
        if hi - lo == 4:
            straight = True
        elif cnt[12] == 1 and cnt[0] == 1 and cnt[1] == 1 and cnt[2] == 1 and cnt[3] == 1:
            straight = True  # the wheel A-2-3-4-5
    royal = straight and lo == 8
    sf = straight and flush
    for j in range(codes.shape[0]):
        code = codes[j]
        ok = False
        if code == ROYAL:
            ok = sf and royal and w == 0
        elif code == WILD_ROYAL:
            ok = sf and royal and w > 0
        elif code == FIVE_KIND:
            ok = n5 == 1
        elif code == FOUR_DEUCES:
            ok = wild_mode == 1 and w == 4 and ((kmask[j] >> nat_rank) & 1) == 1
        elif code == STRAIGHT_FLUSH:
            ok = sf
        elif code == FOUR_KIND:
            ok = n4 == 1 and ((rmask[j] >> q4) & 1) == 1 and ((kmask[j] >> r1) & 1) == 1
        elif code == FULL_HOUSE:
            ok = n3 == 1 and n2 == 1
        elif code == FLUSH:
            ok = flush and not straight
        elif code == STRAIGHT:
            ok = straight and not flush
        elif code == THREE_KIND:
            ok = n3 == 1 and n1 == 2 and ((rmask[j] >> q3) & 1) == 1
        elif code == TWO_PAIR:
            ok = n2 == 2
        elif code == PAIR:
            ok = n2 == 1 and n1 == 3 and ((rmask[j] >> q2) & 1) == 1
        if ok:
            return j
    return codes.shape[0]


@nb.njit(cache=True)
def _fill_patterns(max_wilds: int, wild_mode: int, codes: np.ndarray, rmask: np.ndarray,
                   kmask: np.ndarray, pays: np.ndarray, mbinom: np.ndarray,
                   offsets: np.ndarray, out: np.ndarray) -> None:
    nothing = codes.shape[0]
    nat = np.zeros(5, np.int64)
    cnt = np.zeros(13, np.int64)
    for w in range(max_wilds + 1):
        n = 5 - w
        total_n = 13 ** n
        total_w = 13 ** w
        for code_n in range(total_n):
            # decode a nondecreasing rank sequence (skip the others: each multiset once)
            x = code_n
            ok = True
            for i in range(n):
                nat[n - 1 - i] = x % 13
                x //= 13
            for i in range(1, n):
                if nat[i] < nat[i - 1]:
                    ok = False
            if not ok:
                continue
            idx = 0
            for i in range(n):
                idx += mbinom[nat[i] + i, i + 1]
            distinct = True
            for i in range(1, n):
                if nat[i] == nat[i - 1]:
                    distinct = False
            too_many = False
            for i in range(4, n):
                if nat[i] == nat[i - 4]:
                    too_many = True  # five naturals of one rank cannot be dealt
            nat_rank = nat[0] if n > 0 else 0
            for suited in range(2):
                slot = offsets[w] + 2 * idx + suited
                if too_many or (suited == 1 and not distinct):
                    out[slot] = nothing  # cannot be dealt; never looked up
                    continue
                best = nothing
                best_pay = pays[nothing]
                for code_w in range(total_w):
                    for r in range(13):
                        cnt[r] = 0
                    for i in range(n):
                        cnt[nat[i]] += 1
                    y = code_w
                    for _ in range(w):
                        cnt[y % 13] += 1
                        y //= 13
                    # w == 0: the suits are what they are; with wilds, a reading may make all
                    # five one suit (only if the naturals share it) or break the suit.
                    for fl in range(2):
                        flush = fl == 1
                        if w == 0 and flush != (suited == 1):
                            continue
                        if flush and suited == 0:
                            continue
                        if flush:
                            dup = False
                            for r in range(13):
                                if cnt[r] > 1:
                                    dup = True
                            if dup:
                                continue  # a suited reading has five different cards
                        j = _line_of(cnt, flush, w, nat_rank, wild_mode, codes, rmask, kmask)
                        p = pays[j]
                        if p > best_pay or (p == best_pay and j < best):
                            best = j
                            best_pay = p
                out[slot] = best


def pattern_table(pt: Paytable) -> np.ndarray:
    """uint8 pay category per (wild count, natural rank multiset, naturals suited) pattern."""
    codes, rmask, kmask = pt.line_arrays()
    pays, _ = pt.pay_units()
    mw = pt.max_wilds
    off = pattern_offsets(mw)
    out = np.empty(int(off[-1]), np.uint8)
    _fill_patterns(mw, WILD_CODE[pt.wild], codes, rmask, kmask, pays, MBINOM, off, out)
    return out


@nb.njit(cache=True, nogil=True)
def _classify(lo: int, hi: int, hands: np.ndarray, wild_mode: int, table: np.ndarray,
              offsets: np.ndarray, mbinom: np.ndarray, out: np.ndarray) -> None:
    """Rows ``lo:hi`` of :func:`classify_deals` (threads take chunks of rows: :func:`run_rows`)."""
    for i in range(lo, hi):
        w = 0
        k = 0
        idx = 0
        suit = -1
        suited = 1
        for t in range(5):
            c = np.int64(hands[i, t])
            if is_wild(c, wild_mode):
                w += 1
                continue
            # cards are ascending, so natural ranks arrive sorted: multiset index directly
            idx += mbinom[(c >> 2) + k, k + 1]
            k += 1
            s = c & 3
            if suit < 0:
                suit = s
            elif s != suit:
                suited = 0
        out[i] = table[offsets[w] + 2 * idx + suited]


def classify_deals(pt: Paytable, hands: np.ndarray) -> np.ndarray:
    """uint8 pay category of every row of ``hands`` (ascending card ids; 52, 53 = jokers)."""
    table = pattern_table(pt)
    off = pattern_offsets(pt.max_wilds)
    out = np.empty(hands.shape[0], np.uint8)
    run_rows(_classify, hands.shape[0], np.ascontiguousarray(hands), WILD_CODE[pt.wild], table, off,
             MBINOM, out)
    return out
