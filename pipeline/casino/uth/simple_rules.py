"""Decision rules a person can follow at the flop and the river, as kernels the pass plugs in.

The solve computes the exact value of any rule set the same way as the optimal one: the pass
(:mod:`pipeline.casino.uth.flop_pass`) asks these functions instead of comparing values, and
every earlier decision re-optimises against them. Rule codes (0 is optimal play):

``WIZARD`` (1), after the Wizard of Odds' published practical strategy:

* flop, bet 2x with: a hidden pair, except pocket deuces (a pocket pair, or a hole card
  pairing a flop card); two pair or better made with a hole card (so pocket deuces bet when
  they make two pair or trips); any straight or flush (five cards always use both hole
  cards); four to a flush including a hole card of that suit ranked ten or higher.
* river, play 1x with: a hidden pair or better (a pocket pair, a hole card pairing the board,
  or a final hand of a higher category than the board's own); or fewer than 21 dealer outs.
  A dealer out is an unseen card (not the player's, not on the board) that, with the board,
  makes a 6-card hand beating the player's 7 cards. A card that only ties is no out: counted
  as half an out, the rule folded board-playing hands on two-pair boards, where most dealer
  hands tie and playing wins (a sample of random rivers lost five times as much that way).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.core.fasteval import hand_score

#: Rule-set codes (0 = optimal: decide by exact value).
OPTIMAL, WIZARD = 0, 1
RULE_CODES = {"optimal": OPTIMAL, "wizard": WIZARD}
#: Number of 5-card score classes per category, high card .. straight flush (score ranges are
#: consecutive, weakest first).
CATEGORY_SIZES = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)
#: CATEGORY_FLOOR[c] = the lowest score of category c (0 high card .. 8 straight flush).
CATEGORY_FLOOR = np.cumsum((1,) + CATEGORY_SIZES[:-1]).astype(np.int64)
PAIR, TWO_PAIR, STRAIGHT = 1, 2, 4
#: "Fewer than 21 dealer outs".
MAX_OUTS = 21
#: Rank index of the ten (ranks 0..12 = 2..A): a "hidden ten or better" to a four-flush.
TEN = 8
#: Rank bits of A-2-3-4-5 (the wheel straight).
WHEEL_MASK = 0x100F
#: Slots of the per-board scratch: 52 six-card scores by card id, then the sorted ones, then
#: the board's category and rank mask.
_S6, _SORTED = 0, 52
_BOARD_CAT, _BOARD_RANKS, _N_SORTED = 104, 105, 106


@nb.njit(cache=True, inline="always")
def category(score: int) -> int:
    """Category 0..8 of a score."""
    c = 0
    for k in range(1, 9):
        if score >= CATEGORY_FLOOR[k]:
            c = k
    return c


@nb.njit(cache=True)
def _score(key: int, mask: int, offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray) -> int:
    """:func:`hand_score` as a call, not inlined: the rule's 48 scores per board are few, and
    each inlined copy of the scorer lengthened the pass's compile."""
    return hand_score(key, mask, offsets, ranks, flush)


@nb.njit(cache=True)
def board_outs_scratch() -> np.ndarray:
    """Per-thread buffer of :func:`prepare_river_rule`."""
    return np.zeros(_N_SORTED + 1, np.int64)


@nb.njit(cache=True)
def prepare_river_rule(rule: int, board: np.ndarray, live: np.ndarray, n_live: int, bkey: int,
                       bmask: int, card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                       flush: np.ndarray, out: np.ndarray) -> None:
    """What the river rule needs once per board: the board's category and ranks, and the
    6-card score of the board with each live card (the dealer-outs count), also sorted.
    ``rule`` is the rule's code (every rule so far needs the same)."""
    out[_BOARD_CAT] = category(_score(bkey, bmask, offsets, ranks, flush))
    rmask = 0
    for q in range(5):
        rmask |= 1 << (board[q] >> 2)
    out[_BOARD_RANKS] = rmask
    for i in range(n_live):
        c = live[i]
        s = _score(np.int64(bkey) + np.int64(card_keys[c]), np.int64(bmask) | (np.int64(1) << c),
                   offsets, ranks, flush)
        out[_S6 + c] = s
        j = _SORTED + i  # insertion sort: 47 keys (numba's np.sort took seconds to compile)
        while j > _SORTED and out[j - 1] > s:
            out[j] = out[j - 1]
            j -= 1
        out[j] = s
    out[_N_SORTED] = n_live


@nb.njit(cache=True, inline="always")
def _count_above(sorted_s: np.ndarray, lo: int, hi: int, s: int) -> int:
    """How many of sorted_s[lo:hi] exceed s (binary search)."""
    a = lo
    b = hi
    while a < b:
        mid = (a + b) >> 1
        if sorted_s[mid] > s:
            b = mid
        else:
            a = mid + 1
    return hi - a


@nb.njit(cache=True)
def dealer_outs(a: int, b: int, s7: int, out: np.ndarray) -> int:
    """Unseen cards whose 6-card hand with the board beats the player's 7-card score ``s7``
    (hole {a, b})."""
    n = out[_N_SORTED]
    above = _count_above(out, _SORTED, _SORTED + n, s7)
    for c in (a, b):  # the player's own cards are not unseen
        if out[_S6 + c] > s7:
            above -= 1
    return above


@nb.njit(cache=True)
def river_rule_plays(rule: int, a: int, b: int, s7: int, board: np.ndarray, out: np.ndarray) -> bool:
    """Whether rule ``rule`` plays the river with hole {a, b} (7-card score ``s7``) on the board
    :func:`prepare_river_rule` described in ``out``."""
    ra = a >> 2
    rb = b >> 2
    cat = category(s7)
    rmask = out[_BOARD_RANKS]
    hidden = cat >= PAIR and (ra == rb or (rmask >> ra) & 1 == 1 or (rmask >> rb) & 1 == 1
                              or cat > out[_BOARD_CAT])
    if hidden:
        return True
    return dealer_outs(a, b, s7, out) < MAX_OUTS


@nb.njit(cache=True)
def flop_rule_bets(rule: int, a: int, b: int, board: np.ndarray) -> bool:
    """Whether rule ``rule`` bets at the flop with hole {a, b} on the flop ``board[:3]``."""
    ra = a >> 2
    rb = b >> 2
    fr = 0
    suits = np.zeros(4, np.int64)
    for q in range(3):
        fr |= 1 << (board[q] >> 2)
        suits[board[q] & 3] += 1
    pocket = ra == rb
    hidden = pocket or (fr >> ra) & 1 == 1 or (fr >> rb) & 1 == 1
    if hidden and not (pocket and ra == 0):
        return True
    suits[a & 3] += 1
    suits[b & 3] += 1
    for c in (a, b):
        if suits[c & 3] == 4 and (c >> 2) >= TEN:
            return True
    if suits[a & 3] == 5:
        return True  # a flush (uses both hole cards)
    if pocket:  # pocket deuces: bet when they make two pair or trips, not on a lone pair
        return _distinct(fr) < 3 or (fr & 1) == 1
    mask = fr | (1 << ra) | (1 << rb)
    if _distinct(mask) < 5:
        return False
    for lo in range(9):
        if (mask >> lo) & 0x1F == 0x1F:
            return True
    return (mask & WHEEL_MASK) == WHEEL_MASK


@nb.njit(cache=True, inline="always")
def _distinct(mask: int) -> int:
    """Number of bits set among the 13 rank bits."""
    n = 0
    for r in range(13):
        n += (mask >> r) & 1
    return n


__all__ = ["OPTIMAL", "WIZARD", "RULE_CODES", "CATEGORY_SIZES", "CATEGORY_FLOOR", "category",
           "board_outs_scratch", "prepare_river_rule", "dealer_outs", "river_rule_plays",
           "flop_rule_bets"]
