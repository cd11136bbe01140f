"""The hold patterns of a strategy chart: every hold of every deal described as a player sees it.

A hold (the cards kept) gets exactly one pattern, packed into an int64 code by :func:`hold_codes`
and named by :func:`pattern_name`. Families, tried in this order:

* ``discard`` — keep nothing; ``wilds`` — only wild cards (deuces / the joker);
* ``pat`` — all five cards, by the deal's pay line ("flush", "full house", …);
* ``multi`` — naturals with a repeated rank (pair, two pair, trips, quads), by the rank group of
  the repeated rank (groups come from the paytable's rank-restricted lines: "high pair" /
  "low pair" in Jacks or Better, "aces" / "2-4" / "5-K" in bonus games), kickers kept, wilds;
* ``royal`` — suited naturals all T..A: "n to a royal flush" by the exact ranks ("suited QJ");
* ``sflush`` — suited and straight-possible: "n to a straight flush", by the number of straights
  the cards can still make (2 = open), high cards;
* ``flush`` — suited, no straight: "n to a flush" by high cards;
* ``straight`` — unsuited, at least 4 cards towards one straight: open / inside, high cards;
* ``high`` — unsuited high cards only ("KQJ unsuited", "J alone");
* ``other`` — anything else, by size.

High cards are the ranks of the lowest paying pair (J-A in Jacks or Better; none in Deuces
Wild). Royal, straight-flush (3 cards or fewer) and high-card holds carry two penalty bits:
a discarded natural of a held suit (flush penalty) and a discarded rank that would fit a
straight with the held ranks (straight penalty); the chart keeps a penalty split only where it
pays for its line.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from pipeline.core.cards import RANKS
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
    WILD_ROYAL,
)
from pipeline.videopoker.paytables.paytable import Paytable, rank_set_text
from pipeline.videopoker.paytables.wild import WILD_CODE
from pipeline.videopoker.paytables.wild import is_wild as wild_card

#: :func:`pipeline.videopoker.paytables.wild.is_wild` compiled into the kernels here
is_wild = nb.njit(inline="always", cache=True)(wild_card)

# families (bits 0-3 of a code)
DISCARD, WILDS, PAT, MULTI, ROYAL_DRAW, SF_DRAW, FLUSH_DRAW, STRAIGHT_DRAW, HIGH, OTHER = range(10)
FAMILY_NAMES = ("discard", "wilds", "pat", "multi", "royal", "sflush", "flush", "straight", "high",
                "other")
# bit fields of a code: (shift, width)
F_FAM, F_W, F_N, F_A, F_B, F_C, F_SET, F_PEN, F_X = (
    (0, 4), (4, 3), (7, 3), (10, 5), (15, 4), (19, 4), (23, 13), (36, 2), (38, 2))
NO_HIGH = 13            # high-card threshold meaning "no rank is a high card"
TEN = 8                 # rank index of the ten: royal cards are TEN..ACE
ACE = 12
ACE_LOW = 13            # "lowest card" code of an ace playing low
FLUSH_PENALTY, STRAIGHT_PENALTY = 1, 2
_PAT_HANDS = {ROYAL, WILD_ROYAL, FIVE_KIND, FOUR_DEUCES, STRAIGHT_FLUSH, FOUR_KIND, FULL_HOUSE,
              FLUSH, STRAIGHT}


def field(code: int, f: tuple[int, int]) -> int:
    """One bit field of a pattern code."""
    return (int(code) >> f[0]) & ((1 << f[1]) - 1)


@nb.njit(cache=True)
def _windows(rmask: int) -> int:
    """Straights (5-rank windows, ace low or high) that contain every rank of ``rmask``."""
    n = 0
    for low in range(-1, 9):
        ok = True
        for r in range(13):
            if (rmask >> r) & 1:
                inside = low <= r <= low + 4 or (r == 12 and low == -1)
                if not inside:
                    ok = False
                    break
        if ok:
            n += 1
    return n


@nb.njit(cache=True)
def _lowest(rmask: int) -> int:
    """Lowest held rank; ACE_LOW when an ace plays low (the others are 3-5)."""
    lo = 13
    for r in range(13):
        if (rmask >> r) & 1:
            lo = r
            break
    if (rmask >> 12) & 1 and rmask < (1 << 4) | (1 << 12):
        return ACE_LOW
    return lo


@nb.njit(cache=True, nogil=True)
def _codes(lo: int, hi: int, hands: np.ndarray, deal_cat: np.ndarray, wild: int, high: int,
           group: np.ndarray, kgroup: np.ndarray, out: np.ndarray) -> None:
    """Rows ``lo:hi`` of :func:`hold_codes` (threads take chunks of rows: :func:`run_rows`)."""
    for i in range(lo, hi):
        nat_r = np.zeros(5, np.int64)
        nat_s = np.zeros(5, np.int64)
        disc_r = np.zeros(5, np.int64)
        disc_s = np.zeros(5, np.int64)
        cnt = np.zeros(13, np.int64)
        for m in range(32):
            w = 0
            n = 0
            nd = 0
            for t in range(5):
                c = np.int64(hands[i, t])
                wild_card = is_wild(c, wild)
                if (m >> t) & 1:
                    if wild_card:
                        w += 1
                    else:
                        nat_r[n] = c >> 2
                        nat_s[n] = c & 3
                        n += 1
                elif not wild_card:
                    disc_r[nd] = c >> 2
                    disc_s[nd] = c & 3
                    nd += 1
            tot = n + w
            fam = OTHER
            a = 0
            b = 0
            cc = 0
            rset = 0
            pen = 0
            x = 0
            cnt[:] = 0
            rmask = 0
            suited = True
            nhigh = 0
            for j in range(n):
                cnt[nat_r[j]] += 1
                rmask |= 1 << nat_r[j]
                if nat_s[j] != nat_s[0]:
                    suited = False
                if nat_r[j] >= high:
                    nhigh += 1
            if tot == 0:
                fam = DISCARD
            elif tot == 5:
                fam = PAT
                a = deal_cat[i]
            elif n == 0:
                fam = WILDS
            else:
                mx = 0
                for r in range(13):
                    mx = max(mx, cnt[r])
                if mx >= 2:
                    fam = MULTI
                    npairs = 0
                    trip = -1
                    quad = -1
                    p1 = -1
                    p2 = -1
                    kick = -1
                    nk = 0
                    for r in range(13):
                        if cnt[r] == 4:
                            quad = r
                        elif cnt[r] == 3:
                            trip = r
                        elif cnt[r] == 2:
                            npairs += 1
                            if p1 < 0:
                                p2 = r
                                p1 = r
                            else:
                                p1 = r   # p1 = higher pair, p2 = lower
                        elif cnt[r] == 1:
                            nk += 1
                            kick = r
                    if quad >= 0:
                        a = 4
                        b = group[quad]
                    elif trip >= 0:
                        a = 3
                        b = group[trip]
                    elif npairs == 2:
                        a = 2
                        b = group[p1]
                        cc = group[p2]
                    else:
                        a = 1
                        b = group[p1]
                    if nk > 0 and a != 2:
                        cc = kgroup[kick] if nk == 1 else 15
                    x = nk
                else:
                    # np.int64: rmask starts as a literal 0 (a second specialization otherwise)
                    win = _windows(np.int64(rmask)) if n > 0 else 0
                    one_suit = suited and (n >= 2 or w >= 1)
                    royal_ranks = (rmask >> TEN) << TEN == rmask
                    if one_suit and royal_ranks and tot >= 2:
                        fam = ROYAL_DRAW
                        rset = rmask >> TEN
                    elif one_suit and win > 0 and tot >= 2:
                        fam = SF_DRAW
                        a = win
                        b = nhigh if high < NO_HIGH else _lowest(np.int64(rmask))
                    elif one_suit and tot >= 3:
                        fam = FLUSH_DRAW
                        b = nhigh
                    elif (not suited) and win > 0 and tot >= 4:
                        fam = STRAIGHT_DRAW
                        a = win
                        b = nhigh if high < NO_HIGH else _lowest(np.int64(rmask))
                    elif nhigh == n and w == 0 and not (suited and n >= 2):
                        fam = HIGH
                        rset = rmask
                    else:
                        fam = OTHER
                        a = min(31, win)
                        b = nhigh
                        x = 1 if suited and n >= 2 else 0
                    if tot <= 3 and (fam == ROYAL_DRAW or fam == HIGH or fam == SF_DRAW):
                        for j in range(nd):
                            for q in range(n):
                                if disc_s[j] == nat_s[q]:
                                    pen |= FLUSH_PENALTY
                            r = disc_r[j]
                            if cnt[r] == 0 and _windows(rmask | (1 << r)) > 0:
                                pen |= STRAIGHT_PENALTY
            out[i, m] = (fam | (w << 4) | (tot << 7) | (a << 10) | (b << 15) | (cc << 19)
                         | (np.int64(rset) << 23) | (np.int64(pen) << 36) | (np.int64(x) << 38))


@dataclass(frozen=True)
class GameTraits:
    """What the pattern vocabulary needs from a paytable."""

    wild: str
    high: int                     # lowest high-card rank (NO_HIGH: none)
    group: np.ndarray             # int64[13] rank group of a repeated rank
    group_ranks: tuple[int, ...]  # rank mask of each group
    kgroup: np.ndarray            # int64[13] kicker group
    kgroup_ranks: tuple[int, ...]
    labels: tuple[str, ...]       # pay category labels
    hands: tuple[int, ...]        # hand code of each pay line
    paying_pair: int              # rank mask of the paying pairs (0: none)


def _groups(sig: list[tuple[int, ...]]) -> tuple[np.ndarray, tuple[int, ...]]:
    keys: list[tuple[int, ...]] = []
    g = np.zeros(13, np.int64)
    for r in range(13):
        if sig[r] not in keys:
            keys.append(sig[r])
        g[r] = keys.index(sig[r])
    masks = tuple(sum(1 << r for r in range(13) if g[r] == k) for k in range(len(keys)))
    return g, masks


def game_traits(pt: Paytable) -> GameTraits:
    """High-card threshold and rank groups of a paytable (see the module doc)."""
    pair_ranks = [ln.ranks for ln in pt.lines if ln.code == PAIR]
    paying = 0
    for msk in pair_ranks:
        paying |= msk
    high = min((r for r in range(13) if paying >> r & 1), default=NO_HIGH)
    ranked = [ln for ln in pt.lines if ln.code in (FOUR_KIND, THREE_KIND, PAIR)]
    group, gmasks = _groups([tuple((ln.ranks >> r) & 1 for ln in ranked) for r in range(13)])
    kick = [ln for ln in pt.lines if ln.code in (FOUR_KIND, FOUR_DEUCES)]
    kgroup, kmasks = _groups([tuple((ln.kicker >> r) & 1 for ln in kick) for r in range(13)])
    return GameTraits(pt.wild, high, group, gmasks, kgroup, kmasks, tuple(pt.labels),
                      tuple(ln.code for ln in pt.lines), paying)


def hold_codes(hands: np.ndarray, deal_cat: np.ndarray, traits: GameTraits) -> np.ndarray:
    """int64[N, 32]: the pattern code of every hold (bit t = keep card t) of every deal."""
    out = np.empty((hands.shape[0], 32), np.int64)
    run_rows(_codes, hands.shape[0], np.ascontiguousarray(hands, dtype=np.uint8),
             np.ascontiguousarray(deal_cat, np.int64), WILD_CODE[traits.wild], traits.high,
             traits.group, traits.kgroup, out)
    return out


# ------------------------------------------------------------------ names

def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _wild_text(traits: GameTraits, w: int) -> str:
    if w == 0:
        return ""
    if traits.wild == "joker":
        return " with the joker"
    return f" with {_plural(w, 'deuce')}"


def _ranks_desc(mask: int) -> str:
    return "".join(RANKS[r] for r in range(12, -1, -1) if mask >> r & 1)


def _group_text(traits: GameTraits, g: int, word: str) -> str:
    masks = traits.group_ranks
    if len(masks) == 1:
        return word
    m = masks[g]
    if word == "pair" and len(masks) == 2 and traits.paying_pair:
        return "high pair" if m & traits.paying_pair else "low pair"
    return f"{word} of {rank_set_text(m)}"


_MADE = {1: ("pair", "three of a kind", "four of a kind"), 3: ("three of a kind", "four of a kind"),
         4: ("four of a kind",)}
_RANK_WORDS = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
               "jacks", "queens", "kings", "aces")


def _multi_text(code: int, traits: GameTraits, shape: int, w: int) -> str:
    if shape == 2:
        txt = "two pair"
    else:
        txt = _MADE[shape][min(w, len(_MADE[shape]) - 1)]
    nk = field(code, F_X)
    if nk:
        kg = field(code, F_C)
        if nk == 1 and shape != 2 and len(traits.kgroup_ranks) > 1 and kg < len(traits.kgroup_ranks):
            txt += f" + {rank_set_text(traits.kgroup_ranks[kg])} kicker"
        else:
            txt += f" + {_plural(nk, 'kicker')}"
    return txt


def _multi_group(code: int, traits: GameTraits) -> str:
    """The rank group of a repeated rank: 'high' / 'low' (pairs of Jacks or Better), 'aces', '2-4'."""
    masks = traits.group_ranks
    shape = field(code, F_A)
    if len(masks) == 1 or shape == 2:
        return ""
    g = field(code, F_B)
    m = masks[g] if g < len(masks) else 0
    if shape == 1 and field(code, F_W) == 0 and len(masks) == 2 and traits.paying_pair:
        return "high" if m & traits.paying_pair else "low"
    ranks = [r for r in range(13) if m >> r & 1]
    return _RANK_WORDS[ranks[0]] if len(ranks) == 1 else rank_set_text(m)


def family_key(code: int) -> int:
    """The code with its variant fields cleared: adjacent lines with one key merge into one."""
    fam = field(code, F_FAM)
    keep = ~(3 << F_PEN[0])
    if fam in (ROYAL_DRAW, HIGH):
        keep &= ~(((1 << 13) - 1) << F_SET[0])
    if fam in (SF_DRAW, FLUSH_DRAW, STRAIGHT_DRAW):
        keep &= ~(15 << F_B[0])
    if fam == PAT:
        keep &= ~(31 << F_A[0])
    if fam == MULTI:
        keep &= ~(15 << F_B[0])
        if field(code, F_A) == 2:
            keep &= ~(15 << F_C[0])
    return int(code) & keep


def pattern_base(code: int, traits: GameTraits) -> str:
    """Name of a pattern's family line (what stays when variants merge)."""
    fam = field(code, F_FAM)
    w = field(code, F_W)
    tot = field(code, F_N)
    a = field(code, F_A)
    wt = _wild_text(traits, w)
    if fam == DISCARD:
        return "discard everything"
    if fam == WILDS:
        return "the joker alone" if traits.wild == "joker" else f"{_plural(w, 'deuce')} only"
    if fam == PAT:
        return f"pat hand{wt}"
    if fam == MULTI:
        return _multi_text(code, traits, a, w) + wt
    if fam == ROYAL_DRAW:
        return f"{tot} to a royal flush{wt}"
    if fam == SF_DRAW:
        if tot == 4:
            kind = "open" if a >= 2 else "inside"
            return f"4 to a straight flush, {kind}{wt}"
        return f"{tot} to a straight flush, {_plural(a, 'way')}{wt}"
    if fam == FLUSH_DRAW:
        return f"{tot} to a flush{wt}"
    if fam == STRAIGHT_DRAW:
        kind = "outside" if a >= 2 else "inside"
        return f"{tot} to an {kind} straight{wt}"
    if fam == HIGH:
        n = tot
        return "high card alone" if n == 1 else f"{n} unsuited high cards"
    suited = " suited" if field(code, F_X) else ""
    return f"other {tot}-card hold{suited}{wt}"


def pattern_variant(code: int, traits: GameTraits) -> tuple[str, int]:
    """The variant of a pattern inside its family line: (ranks / high cards / pat label, penalty).

    The penalty is -1 for families without penalty bits.
    """
    fam = field(code, F_FAM)
    pen = field(code, F_PEN) if field(code, F_N) <= 3 and fam in (ROYAL_DRAW, HIGH, SF_DRAW) else -1
    if fam == PAT:
        cat = field(code, F_A)
        lab = traits.labels[cat]
        return (lab if cat < len(traits.hands) and traits.hands[cat] in _PAT_HANDS
                else f"all five: {lab}"), pen
    if fam == MULTI:
        return _multi_group(code, traits), pen
    if fam == ROYAL_DRAW:
        return _ranks_desc(field(code, F_SET) << TEN), pen
    if fam == HIGH:
        return _ranks_desc(field(code, F_SET)), pen
    if fam in (SF_DRAW, FLUSH_DRAW, STRAIGHT_DRAW) and traits.high != NO_HIGH:
        return _plural(field(code, F_B), "high card"), pen
    if fam in (SF_DRAW, STRAIGHT_DRAW):
        lo = field(code, F_B)
        return f"lowest card {'A' if lo == ACE_LOW else RANKS[lo]}", pen
    return "", pen


PENALTY_TEXT = ("no penalty card", "flush penalty", "straight penalty", "flush+straight penalty")


def pattern_name(code: int, traits: GameTraits) -> str:
    """Readable name of one pattern: family line plus its variant."""
    main, pen = pattern_variant(code, traits)
    if field(code, F_FAM) == MULTI and main in ("high", "low"):
        return f"{main} pair" + pattern_base(code, traits)[len("pair"):]
    parts = [x for x in (main, PENALTY_TEXT[pen] if pen >= 0 else "") if x]
    return pattern_base(code, traits) + (f" ({', '.join(parts)})" if parts else "")


def family_of(code: int) -> str:
    """Family name of a code ('royal', 'multi', …)."""
    return FAMILY_NAMES[field(code, F_FAM)]
