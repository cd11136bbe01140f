"""Hold'em range forms pasted from other tools, read alongside PokerStove notation.

==============  ==================================================================
``A♠K♠``        Unicode suit symbols (♠♥♦♣, also ♤♡♢♧) are the letters s h d c
``[Ah Kd]``     a hand-history bracket around two cards is the combo ``AhKd``
``AxKx``        generic suits (ProPokerTools): w, x, y, z after a rank are suit variables;
                one letter is one suit, different letters are different suits: ``AxKx``
                is AKs, ``AxKy`` AKo, ``AxAy`` every AA; ``AhKx`` is Ah with any king
                (an explicit suit is not a variable: ``AhKx`` includes AhKh)
``xx``          any two cards (1,326 combos); ``Ax`` any hand holding an ace
``JJ+!AA``      ``!`` removes the hands of the tokens after it: QQ, KK, JJ
``15%vs3``      the top 15 % ordered by equity against three random hands (Equilab and
                PokerStove's order) instead of one; from preflop.h5's Monte Carlo column
``TT+ AKs``     spaces separate tokens as commas do (Flopzilla and GTO+ paste ranges so):
                ``A2s+ KJo+ 99-22`` is ``A2s+,KJo+,99-22``; two single cards in a row are
                one combo (``Ah Kd``), and a space beside ``:``, ``!``, ``-``, ``+``, ``%``,
                ``vs`` or a weight bracket (``KK : 0.5``, ``[50] AA``) joins its neighbours
==============  ==================================================================
"""

from __future__ import annotations

import functools
import re

import numpy as np

from pipeline.core.cards import RANKS, SUITS
from pipeline.equity.hands.starting_hands import HOLE_CARDS

#: Suit symbols people paste, as suit letters.
SUIT_SYMBOLS = {"♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c"}
_CARD = r"(?:10|[2-9TJQKAtjqka])[cdhsCDHS]"
_BRACKETED = re.compile(rf"\[\s*({_CARD})\s*,?\s*({_CARD})\s*\]")
#: Suit variables of the generic form.
SUIT_VARIABLES = "WXYZ"
_GENERIC = re.compile(r"([2-9TJQKAX])([CDHSWXYZ])([2-9TJQKAX])([CDHSWXYZ])")
_ANY_WITH = re.compile(r"([2-9TJQKAX])X")
#: ``N%vsK``: the top fraction against K random hands.
PCT_VS = re.compile(r"(\d+(?:\.\d*)?|\.\d+)%VS(\d+)", re.ASCII)
#: One card written alone (upper case; a suit variable too): two in a row are one combo.
_ONE_CARD = re.compile(r"(?:10|[2-9TJQKAX])[CDHSWXYZ]")
#: A word that ends a token's left part (what follows it belongs to the same token).
_JOINS_NEXT = (":", "!", "-", "VS")
#: A word that continues the token before it.
_JOINS_PREVIOUS = (":", "!", "-", "+", "%", "VS")
_OPEN_WORD = re.compile(r"\[[\d.]+\]")
_CLOSE_WORD = re.compile(r"\[/[\d.]+\]")


def normalize(text: str) -> str:
    """Suit symbols as letters and bracketed hand-history cards as one combo token."""
    for sym, letter in SUIT_SYMBOLS.items():
        text = text.replace(sym, letter)
    return _BRACKETED.sub(lambda m: m.group(1) + m.group(2), text)


def split_tokens(text: str) -> list[str]:
    """The range's tokens: comma-separated, and within each part space-separated words, with
    a word joined to its neighbour where it cannot stand alone (see the table above: two single
    cards, a weight, an exclusion, a run, ``+``, ``%``/``vs``, a weight bracket); every space
    inside a token is dropped. ``"TT+ AKs, QQ"`` is ``["TT+", "AKs", "QQ"]``."""
    out: list[str] = []
    for part in normalize(text).split(","):
        words: list[str] = []
        for word in part.split():
            up, prev = word.upper(), words[-1].upper() if words else ""
            join = bool(words) and (
                prev.endswith(_JOINS_NEXT) or up.startswith(_JOINS_PREVIOUS)
                or (_ONE_CARD.fullmatch(prev) is not None and _ONE_CARD.fullmatch(up) is not None)
                or (prev == "ANY" and up == "TWO")
                or _OPEN_WORD.fullmatch(prev) is not None or _CLOSE_WORD.fullmatch(word) is not None)
            if join:
                words[-1] += word
            else:
                words.append(word)
        out.extend(words)
    return out


def _fits(card: int, rank: str, suit: str, binding: dict[str, int]) -> bool:
    if rank != "X" and card >> 2 != RANKS.index(rank):
        return False
    s = card & 3
    if suit in SUIT_VARIABLES:
        if suit in binding:
            return binding[suit] == s
        if s in binding.values():
            return False  # two letters are two suits
        binding[suit] = s
        return True
    return s == SUITS.index(suit.lower())


@functools.lru_cache(maxsize=256)
def generic_hands(body: str) -> np.ndarray | None:
    """Hand indices of a generic-suit token (upper case: ``AXKX``, ``AHKX``, ``XX``, ``AX``),
    or None when ``body`` is not one."""
    if body == "XX":
        return np.arange(len(HOLE_CARDS))
    m = _ANY_WITH.fullmatch(body)
    if m:
        if m.group(1) == "X":
            return None
        r = RANKS.index(m.group(1))
        return np.flatnonzero((HOLE_CARDS[:, 0] >> 2 == r) | (HOLE_CARDS[:, 1] >> 2 == r))
    m = _GENERIC.fullmatch(body)
    if m is None or not any(ch in SUIT_VARIABLES for ch in (m.group(2), m.group(4))):
        return None
    (r1, s1), (r2, s2) = (m.group(1), m.group(2)), (m.group(3), m.group(4))
    keep = []
    for i, (a, b) in enumerate(HOLE_CARDS.tolist()):
        for x, y in ((a, b), (b, a)):
            binding: dict[str, int] = {}
            if _fits(x, r1, s1, binding) and _fits(y, r2, s2, binding):
                keep.append(i)
                break
    return np.array(keep, np.int64)


__all__ = ["normalize", "split_tokens", "generic_hands", "PCT_VS", "SUIT_SYMBOLS"]
