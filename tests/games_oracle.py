"""Brute-force equity of every game with pokerkit's hand evaluators as the oracle.

Hands are valued by pokerkit's lookups (``StandardLookup``, ``ShortDeckHoldemLookup``,
``EightOrBetterLookup``, ``RegularLookup``: a 5-card entry index, the lower the better for a
low) and combined the way pokerkit's hand classes combine them (best 5 of 7; Omaha: 2 of the
hole and 3 of the board). :func:`test_games_equity.test_oracle_is_pokerkits_hands` checks that
combination against pokerkit's own ``Hand.from_game`` classes. Every deal of the cards to come is
listed in Python and every pot split in Fractions: slow, but independent of the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

import pokerkit as pk
from pokerkit import lookups

from pipeline.core.cards import card_text

_CARDS = [next(iter(pk.Card.parse(card_text(c)))) for c in range(52)]
_LOOKUP = {"high": lookups.StandardLookup(), "short": lookups.ShortDeckHoldemLookup(),
           "low8": lookups.EightOrBetterLookup(), "razz": lookups.RegularLookup()}
#: (high kind, low kind or None, hole cards used in Omaha or None, board cards)
RULES = {
    "holdem": ("high", None, None, 5), "short-deck": ("short", None, None, 5),
    "omaha": ("high", None, 2, 5), "omaha5": ("high", None, 2, 5), "omaha6": ("high", None, 2, 5),
    "omaha-hi-lo": ("high", "low8", 2, 5), "stud": ("high", None, None, 0),
    "stud-hi-lo": ("high", "low8", None, 0), "razz": ("razz", None, None, 0),
}


#: pokerkit's value of each hand shape seen, by (kind, sorted ranks, all one suit)
_SHAPES: dict[tuple[str, tuple[int, ...], bool], int | None] = {}


def _shape_value(kind: str, ranks: tuple[int, ...], suited: bool, cards: tuple[int, ...]) -> int | None:
    """pokerkit's value of five cards (bigger is better; None when they are no hand) whose
    sorted ranks are ``ranks`` and that are ``suited`` (all of one suit) or not.

    pokerkit's lookups key every entry by the hand's rank multiset and whether its cards are
    suited (``Lookup._get_key``), so it is asked once per such shape: the same entries, found
    without a pokerkit call for each of the hundreds of thousands of card sets a game lists."""
    shape = (kind, ranks, suited)
    if shape not in _SHAPES:
        try:
            e = _LOOKUP[kind].get_entry([_CARDS[c] for c in sorted(cards)])
            _SHAPES[shape] = -e.index if kind in ("low8", "razz") else e.index
        except ValueError:
            _SHAPES[shape] = None
    return _SHAPES[shape]


@lru_cache(maxsize=1 << 20)
def five_value(kind: str, cards: tuple[int, ...]) -> int | None:
    """pokerkit's value of 5 sorted card ids (bigger is better), None when it is no hand."""
    return _shape_value(kind, tuple(sorted(c >> 2 for c in cards)), len({c & 3 for c in cards}) == 1, cards)


def best(kind: str, hole: tuple[int, ...], board: tuple[int, ...], omaha: int | None) -> int | None:
    """Best value of a seat: 2 hole + 3 board (Omaha) or best 5 of all its cards."""
    if omaha:
        # each board triple's ranks and suits once; a combination's shape from its two parts
        triples = [(tuple(c >> 2 for c in b), {c & 3 for c in b}, b) for b in combinations(board, 3)]
        vals = []
        for h in combinations(hole, 2):
            ranks = (h[0] >> 2, h[1] >> 2)
            suit = {h[0] & 3} if h[0] & 3 == h[1] & 3 else None
            for b_ranks, b_suits, b in triples:
                vals.append(_shape_value(kind, tuple(sorted(ranks + b_ranks)), b_suits == suit, h + b))
    else:
        vals = [five_value(kind, f) for f in combinations(sorted(hole + board), 5)]
    got = [v for v in vals if v is not None]
    return max(got) if got else None


@dataclass
class Totals:
    """Per seat: scoops, splits, nothing, pot share; and the deal count."""

    win: list[int]
    tie: list[int]
    lose: list[int]
    share: list[Fraction]
    deals: int


def brute_force(game: str, seats: list[list[tuple[int, ...]]], fill: list[int],
                board: tuple[int, ...], dead: tuple[int, ...], deck_low: int = 0) -> Totals:
    """Every assignment of the seats' hands (lists of possible known cards) and every deal of
    the board and each seat's ``fill`` cards to come, counted."""
    high, low, omaha, nboard = RULES[game]
    n = len(seats)
    t = Totals([0] * n, [0] * n, [0] * n, [Fraction(0)] * n, 0)
    for assign in product(*seats):
        used = set(board) | set(dead)
        if any(len(set(h)) != len(h) for h in assign):
            continue
        flat = [c for h in assign for c in h]
        if len(set(flat)) != len(flat) or used & set(flat):
            continue
        live = [c for c in range(4 * deck_low, 52) if c not in used and c not in flat]
        _deal(game, high, low, omaha, list(assign), fill, board, nboard, live, t)
    return t


def _deal(game: str, high: str, low: str | None, omaha: int | None, hands: list[tuple[int, ...]],
          fill: list[int], board: tuple[int, ...], nboard: int, live: list[int], t: Totals) -> None:
    def seats_from(i: int, rest: list[int], done: list[tuple[int, ...]], full_board: tuple[int, ...]):
        if i == len(hands):
            _settle(high, low, omaha, done, full_board, t)
            return
        for extra in combinations(rest, fill[i]):
            left = [c for c in rest if c not in extra]
            seats_from(i + 1, left, done + [hands[i] + extra], full_board)

    for more in combinations(live, nboard - len(board)):
        rest = [c for c in live if c not in more]
        seats_from(0, rest, [], board + more)


def _settle(high: str, low: str | None, omaha: int | None, hands: list[tuple[int, ...]],
            board: tuple[int, ...], t: Totals) -> None:
    his = [best(high, h, board, omaha) for h in hands]
    top = max(v for v in his if v is not None)
    winners = [i for i, v in enumerate(his) if v == top]
    los = [best(low, h, board, omaha) for h in hands] if low else [None] * len(hands)
    lo_vals = [v for v in los if v is not None]
    share = [Fraction(0)] * len(hands)
    if lo_vals:
        lo_top = max(lo_vals)
        lo_win = [i for i, v in enumerate(los) if v == lo_top]
        for i in winners:
            share[i] += Fraction(1, 2 * len(winners))
        for i in lo_win:
            share[i] += Fraction(1, 2 * len(lo_win))
    else:
        for i in winners:
            share[i] += Fraction(1, len(winners))
    t.deals += 1
    for i, s in enumerate(share):
        t.share[i] += s
        if s == 1:
            t.win[i] += 1
        elif s > 0:
            t.tie[i] += 1
        else:
            t.lose[i] += 1
