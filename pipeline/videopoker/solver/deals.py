"""Every k-card hand of a 52-, 53- or 54-card deck by colex, and the suit-canonical deal classes.

Two deals are in one class when a relabelling of the suits (one of 24) maps one onto the
other; they then have the same strategy and the same EVs. The classes are *derived*: each
deal's canonical form relabels its suits so that the suits' 13-bit rank masks come in
decreasing order (clubs gets the largest mask, then diamonds, hearts, spades); the class
weight is the number of deals with that form. A joker (card 52; with two jokers also card
53) has no suit, and the two jokers of the 54-card deck are interchangeable: a canonical deal
holding one joker holds card 52. For 52 cards this gives 134,459 classes whose weights sum to
2,598,960.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb
from pathlib import Path

import numba as nb
import numpy as np

from pipeline.core.cards import MAX_K
from pipeline.core.combos import hands_range
from pipeline.core.parallel import run_rows

#: Decks the video poker code handles: 52 cards, plus one joker (53) or two jokers (54).
VP_DECKS = (52, 53, 54)
#: ``VP_BINOM[n, k] = C(n, k)`` for ``n <= 54``: the colex weights over the largest deck
#: (core's ``BINOM`` stops at the 52-card deck's ids).
VP_BINOM = np.array([[comb(n, k) for k in range(MAX_K + 1)] for n in range(max(VP_DECKS) + 1)],
                    dtype=np.int64)


@lru_cache(maxsize=16)
def deck_hands(deck_size: int, k: int) -> np.ndarray:
    """Every k-card hand of cards ``0..deck_size-1`` as uint8[C(deck_size,k), k] in colex order.

    Cached per process (read-only); row ``i`` has colex index ``i``.
    """
    if deck_size not in VP_DECKS or not 0 <= k <= 5:
        raise ValueError(f"deck_hands: deck {deck_size} / k {k} not supported (52-54 cards, k 0..5)")
    if k == 0:
        out = np.zeros((1, 0), np.uint8)
    elif deck_size <= 53:
        out = hands_range(k, 0, comb(deck_size, k), deck_size)
    else:
        # colex: the hands without the last card come first, then those holding it, ordered
        # by their other k-1 cards (core's colex tables stop at card 52, so build it up)
        last = deck_size - 1
        with_last = np.hstack([deck_hands(last, k - 1),
                               np.full((comb(last, k - 1), 1), last, np.uint8)])
        out = np.vstack([deck_hands(last, k), with_last])
    out.setflags(write=False)
    return out


@nb.njit(cache=True, nogil=True)
def _canonical(lo: int, hi: int, hands: np.ndarray, binom: np.ndarray, out: np.ndarray) -> None:
    """Rows ``lo:hi`` of :func:`canonical_index` (threads take chunks of rows: :func:`run_rows`)."""
    for i in range(lo, hi):
        masks = np.zeros(4, np.int64)
        joker = 0
        for t in range(5):
            c = np.int64(hands[i, t])
            if c >= 52:
                joker += 1
            else:
                masks[c & 3] |= np.int64(1) << (c >> 2)
        # sort the four suit masks in decreasing order (insertion sort of 4)
        for a in range(1, 4):
            v = masks[a]
            b = a - 1
            while b >= 0 and masks[b] < v:
                masks[b + 1] = masks[b]
                b -= 1
            masks[b + 1] = v
        # the canonical deal gives suit s the s-th largest mask; cards ascend by id = 4r + s
        idx = np.int64(0)
        j = 1
        for r in range(13):
            for s in range(4):
                if (masks[s] >> r) & 1:
                    idx += binom[4 * r + s, j]
                    j += 1
        # jokers are interchangeable: the canonical deal uses the lowest joker ids
        for t in range(joker):
            idx += binom[52 + t, j]
            j += 1
        out[i] = idx


@dataclass(frozen=True)
class DealClasses:
    """Suit-canonical deal classes of a deck: representative cards, weights, colex indexes."""

    deck_size: int
    hands: np.ndarray     # uint8[N, 5] ascending card ids of the representative
    weight: np.ndarray    # int64[N] deals in the class
    index5: np.ndarray    # int64[N] colex index of the representative (ascending)

    def __len__(self) -> int:
        return int(self.hands.shape[0])


def canonical_index(hands: np.ndarray) -> np.ndarray:
    """int64 colex index of each deal's canonical (suit-relabelled) representative."""
    arr = np.ascontiguousarray(hands, dtype=np.uint8).view()
    arr.flags.writeable = False  # one kernel specialization for table and computed deals
    out = np.empty(arr.shape[0], np.int64)
    run_rows(_canonical, arr.shape[0], arr, VP_BINOM, out)
    return out


@lru_cache(maxsize=3)
def deal_classes(deck_size: int = 52) -> DealClasses:
    """The suit-canonical classes of all 5-card deals of a 52-, 53- or 54-card (jokers) deck."""
    hands = deck_hands(deck_size, 5)
    canon = canonical_index(hands)
    weight_all = np.bincount(canon, minlength=hands.shape[0])
    reps = np.flatnonzero(weight_all)
    # a representative is itself canonical, so its row in ``hands`` is the class's cards
    cls = DealClasses(deck_size, np.ascontiguousarray(hands[reps]), weight_all[reps].astype(np.int64),
                      reps.astype(np.int64))
    for a in (cls.hands, cls.weight, cls.index5):
        a.setflags(write=False)
    return cls


RANK_PATTERNS = ("five singletons", "one pair", "two pair", "three of a kind", "full house",
                 "four of a kind")


def rank_pattern(hands: np.ndarray) -> np.ndarray:
    """int8 rank pattern of each deal (index into ``RANK_PATTERNS``; -1 for deals with a joker).

    Cards are ascending, so ranks are sorted: equal neighbours give the multiplicities.
    """
    r = hands.astype(np.int64) >> 2
    eq = r[:, 1:] == r[:, :-1]
    distinct = 5 - eq.sum(axis=1)
    run3 = (eq[:, :-1] & eq[:, 1:]).any(axis=1)           # three equal in a row
    run4 = (eq[:, :-2] & eq[:, 1:-1] & eq[:, 2:]).any(axis=1)
    out = np.select([distinct == 5, distinct == 4, (distinct == 3) & ~run3, distinct == 3,
                     (distinct == 2) & ~run4, distinct == 2], [0, 1, 2, 3, 4, 5], -1).astype(np.int8)
    out[(r == 13).any(axis=1)] = -1
    return out


def read_classes(path: Path | str, deck_size: int = 52) -> DealClasses:
    """Deal classes from ``vp_classes.h5`` (groups ``/deck53``, ``/deck54`` hold the joker decks')."""
    from pipeline.query.artifacts import read_datasets

    group = "" if deck_size == 52 else f"deck{deck_size}/"
    d = read_datasets(path, [f"{group}{name}" for name in ("hands", "weight", "index5")])
    return DealClasses(deck_size, d[f"{group}hands"], d[f"{group}weight"].astype(np.int64),
                       d[f"{group}index5"].astype(np.int64))
