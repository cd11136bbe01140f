"""Card ids, text parsing/formatting, bitmaps and the colex combination index.

Contracts (see DESIGN.md):

* card id ``c = 4*rank + suit``; rank 0..12 = ``23456789TJQKA``, suit 0..3 = ``cdhs``;
* a hand's bitmap has bit ``c`` set for each card (``uint64``);
* the colex index of ``k`` sorted cards ``c1 < ... < ck`` is ``C(c1,1) + ... + C(ck,k)``,
  a bijection onto ``0 .. C(52,k)-1``.

>>> parse_cards("As Ks")
[51, 47]
>>> format_cards([51, 47, 43, 39, 35])
'As Ks Qs Js Ts'
>>> colex_index([0, 1, 2, 3, 4])
0
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from math import comb

import numpy as np

from pipeline.errors import InputError, clip

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King", "Ace")
RANK_PLURALS = ("Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines",
                "Tens", "Jacks", "Queens", "Kings", "Aces")
from pipeline.core.constants import DECK_SIZE  # noqa: E402  (re-exported)

MAX_K = 7

#: ``BINOM[n, k] = C(n, k)`` for ``n < 53, k <= 7`` (the colex weights; int64 so kernels
#: index with it without mixed-sign promotion to float).
BINOM = np.array([[comb(n, k) for k in range(MAX_K + 1)] for n in range(DECK_SIZE + 1)],
                 dtype=np.int64)
#: Same table as Python ints, rows by k: ``COLEX_WEIGHTS[k][c] = C(c, k)`` (fast scalar path).
COLEX_WEIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(comb(c, k) for c in range(DECK_SIZE)) for k in range(MAX_K + 1))

COLEX_FORMULA = "index = C(c1,1) + C(c2,2) + ... + C(ck,k) for sorted card ids c1 < ... < ck"
CARD_ID_FORMULA = "card id = 4*rank + suit; rank 0..12 = 23456789TJQKA, suit 0..3 = cdhs"

_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs])", re.IGNORECASE)


def card_id(token: str) -> int:
    """Return the id of one card written like ``As``, ``td`` or ``10h``.

    >>> card_id("2c"), card_id("As"), card_id("10h")
    (0, 51, 34)
    """
    t = token.strip()
    m = _TOKEN.fullmatch(t)
    if not m:
        raise InputError(f"bad card {token!r}: expected rank 2-9/T/J/Q/K/A (or 10) then suit c/d/h/s")
    r = m.group(1).upper()
    rank = 8 if r == "10" else RANKS.index(r)
    return 4 * rank + SUITS.index(m.group(2).lower())


def parse_cards(text: str | Iterable[int] | Iterable[str], count: int | Sequence[int] | None = None
                ) -> list[int]:
    """Parse cards from text (``"AsKs"``, ``"As Ks"``, ``"AS,KS"``) or ids; return ids in order.

    ``count`` (an int or a collection of allowed ints) checks how many cards there are.
    Raises :class:`InputError` (a ``ValueError``) naming the bad token, a duplicate card, or the wrong count.
    """
    if isinstance(text, str):
        ids = _parse_text(text)
    else:
        ids = []
        for x in text:
            if isinstance(x, str):
                ids.extend(_parse_text(x))
            else:
                if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
                    raise InputError(f"bad card id {clip(x)}: card ids are integers 0..51")
                v = int(x)
                if not 0 <= v < DECK_SIZE:
                    raise InputError(f"bad card id {clip(x)}: must be 0..51")
                ids.append(v)
    seen: set[int] = set()
    for c in ids:
        if c in seen:
            raise InputError(f"duplicate card {card_text(c)}")
        seen.add(c)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(ids) not in allowed:
            want = " or ".join(str(a) for a in allowed)
            raise InputError(f"expected {want} cards, got {len(ids)}: {format_cards(ids) or '(none)'}")
    return ids


def _parse_text(text: str) -> list[int]:
    ids: list[int] = []
    # a UTF-8 byte-order mark (a file saved by some editors) separates like a space
    for word in re.split(r"[\s,;\ufeff]+", text.strip()):
        if not word:
            continue
        pos = 0
        while pos < len(word):
            m = _TOKEN.match(word, pos)
            if not m:
                if not word[pos].isalnum() and pos:
                    # 'AsKs-AhKh': the mark, not '-A', is what is wrong
                    raise InputError(f"bad card text {clip(word)} in {clip(text.strip())}: "
                                     f"{word[pos]!r} after {clip(word[:pos])} is not part of a card "
                                     "(write cards like As Kd, together or separated by spaces or commas)")
                bad = word[pos:pos + 2] if len(word) - pos >= 2 else word[pos:]
                raise InputError(f"bad card {clip(bad)} in {clip(text.strip())}: expected rank "
                                 "2-9/T/J/Q/K/A (or 10) then suit c/d/h/s")
            ids.append(card_id(m.group(0)))
            pos = m.end()
    return ids


def card_text(c: int) -> str:
    """Return the canonical text of card id ``c`` (``51 -> 'As'``)."""
    return RANKS[c >> 2] + SUITS[c & 3]


def format_cards(cards: Iterable[int]) -> str:
    """Return canonical text for card ids, space separated, in the given order."""
    return " ".join(card_text(int(c)) for c in cards)


def bitmap(cards: Iterable[int]) -> int:
    """Return the uint64 bitmap (as a Python int) with bit ``c`` set for each card."""
    b = 0
    for c in cards:
        b |= 1 << int(c)
    return b


def bitmap_cards(bits: int) -> list[int]:
    """Return the ascending card ids whose bits are set in ``bits``."""
    return [c for c in range(DECK_SIZE) if bits >> c & 1]


def colex_index(cards: Iterable[int]) -> int:
    """Return the colex index of a set of distinct cards (any order).

    >>> colex_index([51, 50, 49, 48, 47, 46, 45]) == comb(52, 7) - 1
    True
    """
    cs = sorted(int(c) for c in cards)
    return sum(COLEX_WEIGHTS[i + 1][c] for i, c in enumerate(cs))


def colex_cards(index: int, k: int) -> list[int]:
    """Inverse of :func:`colex_index`: the ascending ``k`` cards with that index."""
    if not 0 <= index < comb(DECK_SIZE, k):
        raise InputError(f"colex index {index} out of range for k={k}")
    out = []
    rest = index
    c = DECK_SIZE - 1
    for i in range(k, 0, -1):
        while comb(c, i) > rest:
            c -= 1
        out.append(c)
        rest -= comb(c, i)
        c -= 1
    return out[::-1]


def n_combinations(k: int, n: int = DECK_SIZE) -> int:
    """Return ``C(n, k)``, the number of ``k``-card hands (rows of a colex table)."""
    return comb(n, k)
