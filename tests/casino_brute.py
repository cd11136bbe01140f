"""Brute-force references for the casino games: every deal enumerated card by card (numba),
with none of the solver's counting (no subset counts, no inclusion–exclusion). Hands are valued
by the project's five-card score table (checked against pokerkit and phevaluator elsewhere);
the pays are written out here by hand."""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.cards import BINOM

#: pair ranks: tens (8) or better, sixes (4) to tens, jacks (9) or better
TEN, SIX, JACK = 8, 4, 9


def pay_units(category: np.ndarray, top: np.ndarray, table: str) -> np.ndarray:
    """int64 pay (to 1; -1 loses) of every score under a published pay table, by hand."""
    royal = (category == 8) & (top == 12)
    out = np.full(len(category), -1, np.int64)
    if table == "let-it-ride":
        pays = {8: 200, 7: 50, 6: 11, 5: 8, 4: 5, 3: 3, 2: 2}
        out[(category == 1) & (top >= TEN)] = 1
        royal_pay = 1000
    else:  # mississippi stud
        pays = {8: 100, 7: 40, 6: 10, 5: 6, 4: 4, 3: 3, 2: 2}
        out[(category == 1) & (top >= JACK)] = 1
        out[(category == 1) & (top >= SIX) & (top < JACK)] = 0
        royal_pay = 500
    for cat, pay in pays.items():
        out[category == cat] = pay
    out[royal] = royal_pay
    out[0] = 0
    return out


#: one machine-code version for every caller: left to infer, numba typed ``n`` as the literal
#: at each call site and compiled ``_index`` once for 5 and again for 4 (1.2 CPU s each)
@nb.njit(nb.int64(nb.int64[::1], nb.int64, nb.int64[:, ::1]), cache=True)
def _index(cards: np.ndarray, n: int, binom: np.ndarray) -> int:
    """Colex index of the first ``n`` entries of ``cards`` (sorted here, small insertion sort)."""
    s = cards[:n].copy()
    for i in range(1, n):
        j = i
        while j > 0 and s[j - 1] > s[j]:
            s[j - 1], s[j] = s[j], s[j - 1]
            j -= 1
    idx = 0
    for i in range(n):
        idx += binom[s[i], i + 1]
    return idx


@nb.njit(cache=True)
def let_it_ride(pay: np.ndarray, line: np.ndarray, binom: np.ndarray, out: np.ndarray) -> None:
    """out[bets, line] += deals, over every three cards, first and second community card: bet 1
    rides when the pay summed over the 1,176 two-card completions is positive, bet 2 when the
    pay summed over the 48 last cards is."""
    cards = np.empty(5, np.int64)
    lines = np.empty((52, 48), np.int64)
    v4 = np.zeros(52, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                cards[0], cards[1], cards[2] = a, b, c
                v3 = 0
                for d in range(52):
                    v4[d] = 0
                    if d == a or d == b or d == c:
                        continue
                    cards[3] = d
                    k = 0
                    for e in range(52):
                        if e == a or e == b or e == c or e == d:
                            continue
                        cards[4] = e
                        i = _index(cards, 5, binom)
                        lines[d, k] = line[i]
                        v4[d] += pay[i]
                        k += 1
                    v3 += v4[d]  # every two-card completion twice (d then e, e then d)
                for d in range(52):
                    if d == a or d == b or d == c:
                        continue
                    bets = 1 + (v3 > 0) + (v4[d] > 0)
                    for k in range(48):
                        out[bets, lines[d, k]] += 1


@nb.njit(cache=True)
def mississippi_stud(pay: np.ndarray, binom: np.ndarray) -> int:
    """Sum over every deal (two cards, then three community cards in order) of the net win in
    antes under optimal play, found by direct backward induction per deal prefix: the best of
    fold and 1x/2x/3x at each street, exact in integers (units of 1/117,600 of the ante)."""
    n4 = binom[52, 4]
    e5 = np.zeros(n4, np.int64)  # sum over the 48 fifth cards of the pay, per four cards
    cards = np.empty(5, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    cards[0], cards[1], cards[2], cards[3] = a, b, c, d
                    s = 0
                    for e in range(52):
                        if e == a or e == b or e == c or e == d:
                            continue
                        cards[4] = e
                        s += pay[_index(cards, 5, binom)]
                    e5[_index(cards, 4, binom)] = s
    total = 0
    for a in range(52):
        for b in range(a + 1, 52):
            best3 = -50 * 49 * 48  # fold: lose the ante, over every 50*49*48 continuation
            for bet3 in range(1, 4):
                v3 = 0
                for c in range(52):
                    if c == a or c == b:
                        continue
                    w3 = 1 + bet3
                    best4 = -w3 * 49 * 48
                    for bet4 in range(1, 4):
                        v4 = 0
                        for d in range(52):
                            if d == a or d == b or d == c:
                                continue
                            cards[0], cards[1], cards[2], cards[3] = a, b, c, d
                            m = e5[_index(cards, 4, binom)]
                            w4 = w3 + bet4
                            best5 = -w4 * 48
                            for bet5 in range(1, 4):
                                v = (w4 + bet5) * m
                                if v > best5:
                                    best5 = v
                            v4 += best5
                        if v4 > best4:
                            best4 = v4
                    v3 += best4
                if v3 > best3:
                    best3 = v3
            total += best3
    return total


@nb.njit(cache=True)
def caribbean_dealer(player: np.ndarray, up: int, score: np.ndarray, q: int, binom: np.ndarray) -> np.ndarray:
    """(not qualified, player wins, push, dealer wins) over the 163,185 dealer hands holding
    ``up`` and four other cards not in ``player``, each scored and compared directly."""
    p = score[_index(player, 5, binom)]
    out = np.zeros(4, np.int64)
    free = np.empty(46, np.int64)
    k = 0
    for c in range(52):
        if c != up and c != player[0] and c != player[1] and c != player[2] and c != player[3] \
                and c != player[4]:
            free[k] = c
            k += 1
    h = np.empty(5, np.int64)
    h[0] = up
    for i in range(46):
        for j in range(i + 1, 46):
            for m in range(j + 1, 46):
                for n in range(m + 1, 46):
                    h[1], h[2], h[3], h[4] = free[i], free[j], free[m], free[n]
                    d = score[_index(h, 5, binom)]
                    if d < q:
                        out[0] += 1
                    elif p > d:
                        out[1] += 1
                    elif p == d:
                        out[2] += 1
                    else:
                        out[3] += 1
    return out


__all__ = ["BINOM", "pay_units", "let_it_ride", "mississippi_stud", "caribbean_dealer"]
