"""Slow, independent reference for the tests: a 5-card classifier and best-5-of-k by brute force.

Written from the rules of poker only (it shares nothing with ``pipeline.core.evaluate``); the one
thing it takes from the design card is the card encoding ``id = 4*rank + suit``.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np

from pipeline.core.constants import SHARE_SCALE

#: first score of each category 0..8 (high card .. straight flush) and one past the last
CATEGORY_STARTS = (1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453, 7463)


def key5(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Comparable value of five cards: (category, tie-break ranks...), bigger is stronger."""
    ranks = [c >> 2 for c in cards]
    flush = len({c & 3 for c in cards}) == 1
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    distinct = sorted(counts, reverse=True)
    top = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:   # A-2-3-4-5: the Five is the top card
            top = 3
    if top >= 0 and flush:
        return (8, top)
    if shape == [4, 1]:
        return (7, *by_count)
    if shape == [3, 2]:
        return (6, *by_count)
    if flush:
        return (5, *distinct)
    if top >= 0:
        return (4, top)
    if shape == [3, 1, 1]:
        return (3, *by_count)
    if shape == [2, 2, 1]:
        return (2, *by_count)
    if shape == [2, 1, 1, 1]:
        return (1, *by_count)
    return (0, *distinct)


@lru_cache(maxsize=1)
def score_of_key() -> dict[tuple[int, ...], int]:
    """Number the distinct 5-card values 1..N in increasing strength (N should be 7,462)."""
    keys = set()
    for ms in combinations_with_replacement(range(13), 5):
        if max(Counter(ms).values()) > 4:
            continue
        seen: Counter[int] = Counter()
        cards = []
        for r in ms:                     # give repeated ranks different suits
            cards.append(4 * r + seen[r])
            seen[r] += 1
        if len(set(ms)) == 5:
            cards[0] = 4 * ms[0] + 1       # 5 distinct ranks: break the (all clubs) flush
            keys.add(key5([4 * r for r in ms]))  # and add the flush version
        keys.add(key5(cards))
    return {k: i + 1 for i, k in enumerate(sorted(keys))}


def ref_score(hand: list[int] | tuple[int, ...]) -> int:
    """Score (1..7462, higher is stronger) of the best 5 cards in a 5-, 6- or 7-card hand."""
    table = score_of_key()
    return table[max(key5(c) for c in combinations(hand, 5))]


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``n`` uniformly random k-card hands (distinct cards, random order) as int64[n, k]."""
    out = np.empty((0, k), np.int64)
    while len(out) < n:
        draw = rng.integers(0, 52, size=(2 * (n - len(out)) + 16, k))
        s = np.sort(draw, axis=1)
        ok = (np.diff(s, axis=1) != 0).all(axis=1)
        out = np.concatenate([out, draw[ok]])
    return out[:n]


def colex(hands: np.ndarray) -> np.ndarray:
    """Colex index of each row (the contract formula, written with numpy and math.comb)."""
    k = hands.shape[1]
    binom = np.array([[comb(n, j) for j in range(k + 1)] for n in range(53)], np.int64)
    s = np.sort(hands, axis=1)
    return sum(binom[s[:, j], j + 1] for j in range(k))


def brute(table7: np.ndarray, hands: list[list[int]], board: list[int], dead: list[int]
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Every completion of the board, every seat scored by the dense 7-card table: per seat
    (wins, ties, pot share in SHARE_SCALE units) and the number of boards."""
    used = {c for h in hands for c in h} | set(board) | set(dead)
    live = [c for c in range(52) if c not in used]
    need = 5 - len(board)
    combos = list(combinations(live, need))
    nb = len(combos)
    rest = np.array(combos, np.int64).reshape(nb, need)
    full = np.concatenate([np.tile(np.array(board, np.int64), (nb, 1)), rest], axis=1)
    scores = np.stack([table7[colex(np.concatenate([full, np.tile(np.array(h), (nb, 1))], axis=1))]
                       for h in hands], axis=1).astype(np.int64)
    best = scores.max(axis=1, keepdims=True)
    top = scores == best
    k = top.sum(axis=1)
    win = (top & (k == 1)[:, None]).sum(axis=0)
    tie = (top & (k > 1)[:, None]).sum(axis=0)
    share = (top * (SHARE_SCALE // k)[:, None]).sum(axis=0)
    return win, tie, share, nb
