"""Flopzilla-style hit counts: for each live combo of a range on a 3-5 card board, its one made
hand and its draws, summed exactly over the range's weights. Definitions: ``docs/hits.md``.

One numba kernel classifies every combo of the range (no Python object per combo); the
weights are summed as integers over their common denominator, so every count is exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numba as nb
import numpy as np

from pipeline.core.cards import format_cards
from pipeline.core.category import Category
from pipeline.core.constants import ACE, FLUSH_CARDS, N_RANKS
from pipeline.core.fasteval import EvalTables, hand_score
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_MASKS
from pipeline.equity.ranges.parse import Range
from pipeline.errors import InputError

#: Made hands, strongest first; a combo holds exactly one (index = code in the kernel). A row
#: that is a whole hand category prints the category's name; the others name what the hole
#: cards make of the board (``docs/hits.md``).
MADE = (Category.STRAIGHT_FLUSH.label, Category.FOUR_OF_A_KIND.label, Category.FULL_HOUSE.label,
        Category.FLUSH.label, Category.STRAIGHT.label, "set", "trips", Category.TWO_PAIR.label,
        "overpair", "top pair, top kicker", "top pair, good kicker", "top pair, weak kicker",
        "pocket pair below top pair", "middle pair", "weak pair", "ace high", "nothing")
(SF, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, SET, TRIPS, TWO_PAIR, OVERPAIR, TP_TOP, TP_GOOD, TP_WEAK,
 PP_BELOW, MIDDLE, WEAK, ACE_HIGH, NOTHING) = range(len(MADE))
#: Draws; a combo holds any number of them (bit i of the kernel's draw flags).
DRAWS = ("flush draw, nut", "flush draw, non-nut", "open-ended straight draw", "gutshot",
         "overcards", "backdoor flush draw")
FD_NUT, FD_OTHER, OESD, GUTSHOT, OVERCARDS, BACKDOOR_FD = range(len(DRAWS))

#: Lowest score of each category used here (scores are ordered by category: 1,277 high cards,
#: 2,860 pairs, 858 two pairs, 858 trips, then 10 straights from 5,854).
STRAIGHT_MIN = 5854
FLUSH_MIN = 5864
FULL_HOUSE_MIN = 7141
QUADS_MIN = 7297
SF_MIN = 7453
#: A top-pair kicker is "top" when no unpaired rank beats it, "good" when at most this many do.
GOOD_KICKER_MAX_ABOVE = 2
#: Board sizes: flop, turn, river.
FLOP, TURN, RIVER = 3, 4, 5
#: Five ranks in a row make a straight; a window starting at bit w of the 14-bit rank mask
#: (bit 0 = ace low, bit r + 1 = rank r) covers w .. w + 4.
STRAIGHT_LEN = 5
N_WINDOWS = 10


@nb.njit(cache=True, inline="always")
def _rank_bits(ranks_mask: int) -> int:
    """13-bit rank mask -> 14-bit mask with the ace also below the deuce."""
    return ((ranks_mask << 1) | ((ranks_mask >> ACE) & 1)) & 0x3FFF


@nb.njit(cache=True)
def _has_straight(bits14: int, need: int) -> bool:
    """A five-rank window all present in ``bits14`` holding a bit of ``need`` (0: any)."""
    for w in range(N_WINDOWS):
        win = 0x1F << w
        if (bits14 & win) == win and (need == 0 or (need & win) != 0):
            return True
    return False


@nb.njit(cache=True)
def classify(holes: np.ndarray, board: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray,
             ranks: np.ndarray, flush: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(made-hand code, draw bit flags) of each row (two card ids) of ``holes`` on ``board``."""
    n = holes.shape[0]
    nb_cards = board.shape[0]
    made = np.empty(n, np.int8)
    draws = np.zeros(n, np.uint8)
    bc = np.zeros(N_RANKS, np.int64)
    bsuit = np.zeros(4, np.int64)
    bkey = np.int64(0)
    bmask = np.int64(0)
    branks = 0
    for c in board:
        bc[c >> 2] += 1
        bsuit[c & 3] += 1
        bkey += np.int64(card_keys[c])
        bmask |= np.int64(1) << c
        branks |= 1 << (c >> 2)
    board_score = hand_score(bkey, bmask, offsets, ranks, flush) if nb_cards == RIVER else 0
    board_quads = False
    d0 = -1
    d1 = -1
    for r in range(ACE, -1, -1):
        if bc[r] == 4:
            board_quads = True
        if bc[r] > 0:
            if d0 < 0:
                d0 = r
            elif d1 < 0:
                d1 = r
    board_plays = board_quads or board_score >= STRAIGHT_MIN
    for i in range(n):
        x, y = holes[i, 0], holes[i, 1]
        a, b = max(x >> 2, y >> 2), min(x >> 2, y >> 2)
        key = bkey + np.int64(card_keys[x]) + np.int64(card_keys[y])
        mask = bmask | (np.int64(1) << x) | (np.int64(1) << y)
        s = hand_score(key, mask, offsets, ranks, flush)
        improves = s > board_score
        m = NOTHING
        if s >= SF_MIN and improves:
            m = SF
        elif QUADS_MIN <= s < SF_MIN and (bc[a] == 3 or bc[b] == 3 or (a == b and bc[a] == 2)):
            # quads only when a hole card is one of the four (board quads + kicker are not)
            m = QUADS
        elif FULL_HOUSE_MIN <= s < QUADS_MIN and improves:
            m = FULL_HOUSE
        elif FLUSH_MIN <= s < FULL_HOUSE_MIN and improves:
            m = FLUSH
        elif STRAIGHT_MIN <= s < FLUSH_MIN and improves:
            m = STRAIGHT
        elif board_plays:
            # board quads or a board straight+ the hero cannot beat: the hole cards do not play
            m = NOTHING
        elif a == b:
            if bc[a] == 1:
                m = SET
            elif a > d0:
                m = OVERPAIR
            elif a > d1:
                m = PP_BELOW
            else:
                m = WEAK
        elif bc[a] >= 2 or bc[b] >= 2:
            m = TRIPS
        elif bc[a] == 1 and bc[b] == 1:
            m = TWO_PAIR
        elif a == d0 or b == d0:
            k = b if a == d0 else a
            above = 0
            for r in range(k + 1, N_RANKS):
                if r != d0 and bc[r] == 0:
                    above += 1
            m = TP_TOP if above == 0 else (TP_GOOD if above <= GOOD_KICKER_MAX_ABOVE else TP_WEAK)
        elif a == d1 or b == d1:
            m = MIDDLE
        elif bc[a] == 1 or bc[b] == 1:
            m = WEAK
        elif a == ACE:
            m = ACE_HIGH
        made[i] = m
        if nb_cards == RIVER:
            continue
        f = 0
        for suit in range(4):
            held = ((x & 3) == suit) + ((y & 3) == suit)
            total = bsuit[suit] + held
            if held and total == FLUSH_CARDS - 1:
                # nut: the hero holds the best card of the suit that is not on the board
                top = -1
                for r in range(ACE, -1, -1):
                    if (bmask >> (4 * r + suit)) & 1 == 0:
                        top = 4 * r + suit
                        break
                f |= 1 << (FD_NUT if (x == top or y == top) else FD_OTHER)
            elif held and total == FLUSH_CARDS - 2 and nb_cards == FLOP:
                f |= 1 << BACKDOOR_FD
        all14 = _rank_bits(branks | (1 << a) | (1 << b))
        if not _has_straight(all14, 0):
            own = 0
            for r in (a, b):
                if bc[r] == 0:
                    own |= 1 << r
            own14 = _rank_bits(own)
            outs = 0
            for r in range(N_RANKS):
                if own14 != 0 and _has_straight(all14 | _rank_bits(1 << r), own14):
                    outs += 1
            if outs >= 2:
                f |= 1 << OESD
            elif outs == 1:
                f |= 1 << GUTSHOT
        if a != b and b > d0:
            f |= 1 << OVERCARDS
        draws[i] = f
    return made, draws


@dataclass(frozen=True)
class HitRow:
    """One category: its name, live combos holding it and their weight sum (exact), and those
    combos as text, strongest cards first (``"As Ks"``; ``"Ah Kh:0.5"`` when weighted)."""

    name: str
    hands: int
    combos: Fraction
    combo_list: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hits:
    """Made hands (one per combo, summing to the live range) and draws (any number per combo)."""

    made: list[HitRow]
    draws: list[HitRow]
    live_hands: int
    live_combos: Fraction


def _exact_sums(weights: np.ndarray, groups: list[np.ndarray]) -> tuple[list[Fraction], Fraction]:
    """Exact weight sums over each boolean selector, via integers over a common denominator."""
    uniq = np.unique(weights)
    fr = [Fraction(repr(float(w))) for w in uniq]
    den = math.lcm(*(f.denominator for f in fr))
    num = np.array([f.numerator * (den // f.denominator) for f in fr], np.int64)
    ints = num[np.searchsorted(uniq, weights)]
    return [Fraction(int(ints[g].sum()), den) for g in groups], Fraction(int(ints.sum()), den)


@cache
def _hole_texts() -> tuple[str, ...]:
    """Text of each of the 1,326 two-card hands, higher card first (``"As Ks"``)."""
    return tuple(format_cards([int(b), int(a)]) for a, b in HOLE_CARDS)


def combo_texts(hands: np.ndarray, weights: np.ndarray) -> tuple[str, ...]:
    """The hands (colex indexes) as text, highest cards first; a weight other than 1 follows
    as ``:w``, the shortest decimal of the weight (the range syntax's suffix)."""
    texts = _hole_texts()
    order = np.argsort(-hands, kind="stable")  # colex: a higher index holds higher cards
    out = []
    for h, w in zip(hands[order].tolist(), weights[order].tolist()):
        out.append(texts[h] if w == 1 else f"{texts[h]}:{w!r}")
    return tuple(out)


def range_hits(rng: Range, board: list[int], dead: list[int], tables: EvalTables) -> Hits:
    """Made hands and draws of every live combo of ``rng`` on ``board`` (3-5 cards, distinct from
    ``dead``: the hits question's, checked when it was made,
    :data:`~pipeline.equity.question.MADE_BOARD_SIZES`)."""
    m = 0
    for c in board + dead:
        m |= 1 << c
    keep = (HOLE_MASKS[rng.hands] & np.uint64(m)) == 0
    if not keep.any():
        raise InputError(f"range {rng.text!r} has no hand left once the board and dead cards are removed")
    hands, weights = rng.hands[keep], rng.weights[keep]
    made, draws = classify(HOLE_CARDS[hands], np.asarray(board, np.int64), tables.card_keys,
                           tables.offsets, tables.ranks, tables.flush)
    groups = [made == k for k in range(len(MADE))] + \
             [(draws & np.uint8(1 << k)) != 0 for k in range(len(DRAWS))]
    sums, total = _exact_sums(weights, groups)
    counts = [int(g.sum()) for g in groups]
    rows = [HitRow(name, n, w, combo_texts(hands[g], weights[g]))
            for name, n, w, g in zip(MADE + DRAWS, counts, sums, groups)]
    return Hits(rows[:len(MADE)], rows[len(MADE):], int(hands.size), total)


__all__ = ["MADE", "DRAWS", "HitRow", "Hits", "classify", "combo_texts", "range_hits"]
