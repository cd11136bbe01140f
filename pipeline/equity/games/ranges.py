"""Omaha ranges (4, 5 and 6 hole cards): a documented subset of ProPokerTools' syntax.

Items are separated by commas or spaces (``AAxx KKxx`` is ``AAxx,KKxx``, as hold'em's
``TT+ AKs`` is ``TT+,AKs``), case-insensitive; a space beside ``:`` or ``!``, before ``ds``/``ss``
or between single cards (``As Ad Ks Kd``) joins its neighbours into one item (:func:`split_items`).
Each item names a set of hands:

===============  =================================================================
``AAxx``         at least two aces: each element a rank (any suit), a card or ``x``
``AA``           the same: a pattern shorter than the hand is padded with ``x``
``AKQJ``         one card of each rank (the four of them)
``AsAdxx``       exact cards and ranks mix (``As``, ``Ad``, two more cards)
``AAxxds``       ``ds``: two suits hold two or more cards each (4 cards: 2-2)
``AKQJss``       ``ss``: exactly one suit holds two or more cards
``AAxx!AAAx``    ``!`` removes hands that also match a pattern (several ``!`` allowed)
``AAxx:0.5``     a weight in 0..1 on the item
``AsAdKsKd``     one hand
===============  =================================================================

A hand named by two items takes the weight of the last one (as hold'em ranges do).
``random`` is handled by the engine (a seat dealt from the deck), not here.

A pattern is read as what a hand must hold: its exact cards, at least so many cards of each
rank (exact cards included) and, with ``ds``/``ss``, how many suits hold two or more cards. A
range is kept compact (:class:`OmahaRange`), its hands grouped by rank multiset
(:mod:`.rank_classes`): where ranks alone decide (``AAxx``, ``AKQxxx``, ``!AAAx``) a whole
multiset takes one weight and counts ``prod C(4, m_r)`` hands, none listed. Only the multisets
an exact card or a suit suffix can split are listed hand by hand (at most
:data:`MAX_EXPANDED` hands). Listing the whole range is on request, in blocks
(:meth:`OmahaRange.chunks`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pipeline.core.bytecache import bytes_cache
from pipeline.core.cards import RANKS, card_id, card_text, format_cards
from pipeline.equity.games.rank_classes import (
    N_RANKS,
    N_SUITS,
    class_sizes,
    hands_of,
    live_sizes,
    multisets,
)
from pipeline.equity.spots.answer import Json
from pipeline.errors import InputError, clip

if TYPE_CHECKING:
    from pipeline.equity.ranges.parse import Strength

#: Most hands the multisets an exact card or a suit suffix splits may hold: they are listed.
MAX_EXPANDED = 4_000_000
#: Hands per block when a range is listed.
CHUNK = 1 << 16
#: Hands of a range an answer shows when the whole list was not asked for.
SHOWN = 12
#: bytes of parsed ranges kept for reuse, per cache (a range split into its double-suited
#: hands holds about 50 MB: kept by count, 64 of them grew a server by gigabytes)
RANGE_CACHE_BYTES = 32 << 20
_ELEMENT = re.compile(r"(10|[2-9tjqka])([cdhs])?|x")
_WEIGHT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)", re.ASCII)
#: Suitedness suffixes: the least number of suits holding two or more cards, and the most.
SUITEDNESS = {"ds": (2, 4), "ss": (1, 1)}
_DECK = 52


@dataclass(frozen=True)
class Pattern:
    """What a hand must hold: every card of the bitmap ``cards``, at least ``need[r]`` cards
    of rank ``r`` (exact cards included) and, when ``suited`` is (lo, hi), lo..hi suits
    holding two or more cards."""

    cards: int
    need: tuple[int, ...]
    suited: tuple[int, int] | None = None

    @property
    def per_hand(self) -> bool:
        """Whether hands of one rank multiset can differ (exact cards or a suit suffix)."""
        return bool(self.cards) or self.suited is not None


@dataclass(frozen=True)
class Item:
    """One comma-separated item: the hands of ``include`` not in any of ``exclude`` (None: a
    pattern no hand matches), at ``weight``."""

    include: Pattern | None
    exclude: tuple[Pattern | None, ...]
    weight: float
    text: str


def _pattern(text: str, hole: int, game: str, item: str) -> Pattern | None:
    """The :class:`Pattern` of one ``!``-free pattern (suitedness suffix included); None when
    no hand can match (a card named twice, five of a rank)."""
    suited = None
    for suffix, span in SUITEDNESS.items():
        if text.endswith(suffix) and len(text) > len(suffix):
            suited = span
            text = text[:-len(suffix)]
            break
    cards: list[int] = []
    need = [0] * N_RANKS
    n, pos = 0, 0
    while pos < len(text):
        m = _ELEMENT.match(text, pos)
        if m is None:
            raise InputError(f"bad {game} range item {clip(item)}: cannot read "
                             f"{clip(text[pos:])} (ranks AKQJT98765432, cards like As, x for "
                             "any card, ds/ss, !, :weight)")
        pos = m.end()
        n += 1
        if m.group(0) == "x":
            continue
        if m.group(2):
            cards.append(card_id(m.group(0)))
            need[cards[-1] >> 2] += 1
        else:
            need[RANKS.index("T" if m.group(1) == "10" else m.group(1).upper())] += 1
    if not n or n > hole:
        raise InputError(f"bad {game} range item {clip(item)}: a pattern names 1 to {hole} "
                         f"cards, got {n}")
    if len(set(cards)) < len(cards) or max(need) > N_SUITS:
        return None
    return Pattern(sum(1 << c for c in cards), tuple(need), suited)


#: a word that is one card: two in a row are one pattern (``As Ad`` is ``AsAd``)
_ONE_CARD = re.compile(r"(?:10|[2-9tjqka])[cdhs]", re.IGNORECASE)


def split_items(text: str) -> list[str]:
    """The items of a range: comma-separated, and within each part space-separated words; a
    word joins its neighbour where it cannot stand alone (after or before ``:`` / ``!``, a lone
    ``ds``/``ss``, a card after a card). ``"AAxx KKxx ds, QQ : 0.5"`` is
    ``["AAxx", "KKxxds", "QQ:0.5"]``; an empty part stays empty (an error later)."""
    out: list[str] = []
    for part in text.split(","):
        words: list[str] = []
        cards_run = False  # the last word is lone cards only ("As", "As Ad" joined)
        for word in part.split():
            card = _ONE_CARD.fullmatch(word) is not None
            join = bool(words) and (words[-1].endswith((":", "!")) or word.startswith((":", "!"))
                                    or word.lower() in SUITEDNESS or (cards_run and card))
            if join:
                words[-1] += word
                cards_run = cards_run and card
            else:
                words.append(word)
                cards_run = card
        out.extend(words or [""])
    return out


def _items(text: str, hole: int, game: str) -> list[Item]:
    out = []
    for item in split_items(text):
        # parsed in lower case; messages quote the item as typed
        body, w = item.lower(), 1.0
        if not body:
            raise InputError(f"empty item in the {game} range {clip(text)}")
        if ":" in body:
            body, wt = body.rsplit(":", 1)
            if not _WEIGHT.fullmatch(wt) or not 0 < float(wt) <= 1:
                raise InputError(f"bad weight in {game} range item {clip(item)}: a number in "
                                 "(0, 1] after ':'")
            w = float(wt)
        first, *rest = body.split("!")
        out.append(Item(_pattern(first, hole, game, item),
                        tuple(_pattern(ex, hole, game, item) for ex in rest), w, item))
    return out


@dataclass(frozen=True)
class OmahaRange:
    """An Omaha range, compact: whole rank multisets (``classes``, indexes into
    :func:`multisets`, each with one weight) and hands weighed one by one (``hands``, card
    bitmaps, in multisets ``hand_class``). Arrays are read-only (ranges are shared)."""

    text: str
    hole: int
    classes: np.ndarray
    class_w: np.ndarray
    hands: np.ndarray
    hand_w: np.ndarray
    hand_class: np.ndarray

    @property
    def combos(self) -> int:
        """Hands in the range."""
        return int(class_sizes(self.hole)[self.classes].sum()) + len(self.hands)

    @property
    def weighted(self) -> float:
        """Hands in the range, each counted with its weight."""
        return float((class_sizes(self.hole)[self.classes] * self.class_w).sum()
                     + self.hand_w.sum())

    def live(self, known: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(int64 per class, bool per hand): the class's hands, and whether the hand, hold
        none of the ``known`` cards (a bitmap)."""
        return live_sizes(self.hole, self.classes, known), (self.hands & known) == 0

    def live_counts(self, known: int = 0) -> tuple[int, float]:
        """(hands, weighted hands) holding none of the ``known`` cards."""
        n, ok = self.live(known)
        return (int(n.sum() + ok.sum()),
                float((n * self.class_w).sum() + self.hand_w[ok].sum()))

    def chunks(self, size: int = CHUNK) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Every hand in listing order, in blocks of about ``size``: (card bitmaps, weights)."""
        owners = np.union1d(self.classes, self.hand_class)
        count = np.zeros(len(owners), np.int64)
        count[np.searchsorted(owners, self.classes)] = class_sizes(self.hole)[self.classes]
        np.add.at(count, np.searchsorted(owners, self.hand_class), 1)
        ends = np.cumsum(count)
        start = 0
        while start < len(owners):
            base = int(ends[start - 1]) if start else 0
            stop = max(start + 1, int(np.searchsorted(ends, base + size, "right")))
            block = owners[start:stop]
            cls = self.classes[np.isin(self.classes, block)]
            bits, owner, _ = hands_of(self.hole, cls)
            w = self.class_w[np.searchsorted(self.classes, owner)]
            own = np.isin(self.hand_class, block)
            # multisets in listing order; a multiset is whole or listed hand by hand, not both
            order = np.argsort(np.concatenate([owner, self.hand_class[own]]), kind="stable")
            yield (np.concatenate([bits, self.hands[own]])[order],
                   np.concatenate([w, self.hand_w[own]])[order])
            start = stop

    def first(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The first ``n`` hands in listing order (or all, if fewer): (bitmaps, weights)."""
        bits: list[np.ndarray] = []
        ws: list[np.ndarray] = []
        for b, w in self.chunks(n):
            bits.append(b)
            ws.append(w)
            if sum(len(x) for x in bits) >= n:
                break
        if not bits:
            return np.zeros(0, np.int64), np.zeros(0)
        return np.concatenate(bits)[:n], np.concatenate(ws)[:n]

    def rows(self, known: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """(int64[n, hole] ascending card ids, float64[n] weights) of the hands holding none
        of the ``known`` cards, by card bitmap: the list the exact kernel walks."""
        parts = [(b[(b & known) == 0], w[(b & known) == 0]) for b, w in self.chunks()]
        bits = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
        w = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0)
        order = np.argsort(bits)
        return bits_to_rows(bits[order], self.hole), w[order]


def _resolve(items: list[Item], hole: int, game: str, text: str) -> OmahaRange:
    """The weight of every hand: the last item naming it (module docstring)."""
    ms = multisets(hole)
    patterns = {p for it in items for p in (it.include, *it.exclude) if p is not None}
    ok: dict[Pattern, np.ndarray] = {
        p: np.asarray((ms >= np.array(p.need, np.uint8)).all(axis=1)) for p in patterns}
    none = np.zeros(len(ms), bool)
    split = np.zeros(len(ms), bool)
    for p in patterns:
        if p.per_hand:
            split |= ok[p]
    split_idx = np.flatnonzero(split)
    listed = int(class_sizes(hole)[split_idx].sum())
    if listed > MAX_EXPANDED:
        raise InputError(f"{game} range {clip(text)} is too wide to list: its exact cards or "
                         f"ds/ss split {listed:,} hands (at most {MAX_EXPANDED:,}); use ranks "
                         "(AKxx) or random")
    bits, owner, many = hands_of(hole, split_idx)

    def member(p: Pattern | None) -> tuple[np.ndarray, np.ndarray]:
        """(per multiset, per listed hand) whether ``p`` matches."""
        if p is None:
            return none, np.zeros(len(bits), bool)
        hand = ok[p][owner]
        if p.cards:
            hand &= (bits & p.cards) == p.cards
        if p.suited is not None:
            hand &= (many >= p.suited[0]) & (many <= p.suited[1])
        return ok[p], hand

    w = np.zeros(len(ms))
    hw = np.zeros(len(bits))
    for it in items:
        whole, hand = member(it.include)
        for ex in it.exclude:
            ex_whole, ex_hand = member(ex)
            whole, hand = whole & ~ex_whole, hand & ~ex_hand
        if not ((whole & ~split).any() or hand.any()):
            raise InputError(f"{game} range item {clip(it.text)} names no hand")
        w = np.where(whole, it.weight, w)
        hw = np.where(hand, it.weight, hw)
    classes = np.flatnonzero(~split & (w > 0))
    keep = hw > 0
    arrays = (classes, w[classes], bits[keep], hw[keep], owner[keep])
    for a in arrays:
        a.flags.writeable = False
    return OmahaRange(" ".join(text.split()), hole, *arrays)


@bytes_cache(RANGE_CACHE_BYTES)
def omaha_range(text: str, hole: int, game: str = "omaha") -> OmahaRange:
    """The compact :class:`OmahaRange` of range text ``text`` for ``hole`` cards.

    InputError names the item and the game when an item cannot be read, names no hand, or
    splits too many hands to list.

    >>> omaha_range("AKQxxx,AKJxxx,AQJxxx,KQJxxx", 6, "omaha6").combos
    2867872
    """
    return _resolve(_items(text, hole, game), hole, game, text)


def count_combos(text: str, game: str, strength: Strength = None) -> int:
    """Hands range ``text`` names in ``game`` (``holdem``, ``short-deck`` or an Omaha game),
    counted without listing any: what a caller checks before it asks for more. ``strength``
    orders hold'em hands for ``N%`` tokens (as :func:`pipeline.equity.ranges.parse.parse_range`).
    InputError for bad text, an unknown game or one without ranges (stud games).

    >>> count_combos("AAxx", "omaha"), count_combos("QQ+,AKs", "holdem")
    (6961, 22)
    """
    from pipeline.equity.games.spec import get_game

    g = get_game(game)
    if g is not None and g.ranges == "omaha":
        return omaha_range(text, g.hole, g.name).combos
    if g is not None and g.ranges != "holdem":
        raise InputError(f"{g.name} has no ranges: a seat is its known cards")
    from pipeline.equity.hands.starting_hands import HOLE_CARDS
    from pipeline.equity.ranges.parse import parse_range

    hands = parse_range(text, strength).hands
    if g is None:
        return len(hands)
    return int((HOLE_CARDS[hands].min(axis=1) >> 2 >= g.lowest_rank).sum())


@bytes_cache(RANGE_CACHE_BYTES)
def parse_game_range(text: str, hole: int, game: str = "omaha") -> tuple[np.ndarray, np.ndarray]:
    """(int64[n, hole] ascending hands by card bitmap, float64[n] weights in (0, 1]) of an
    Omaha range: every hand listed (:meth:`OmahaRange.rows`). Read-only."""
    rows, ws = omaha_range(text, hole, game).rows()
    rows.flags.writeable = False
    ws.flags.writeable = False
    return rows, ws


def bits_to_rows(bits: np.ndarray, hole: int) -> np.ndarray:
    """int64[n, hole] ascending card ids of each bitmap."""
    rows = np.zeros((bits.size, hole), np.int64)
    rest = bits.astype(np.uint64).copy()
    for j in range(hole):
        low = rest & (~rest + np.uint64(1))
        rows[:, j] = np.log2(low.astype(np.float64)).astype(np.int64)
        rest ^= low
    return rows


#: Each card's two-character text as bytes, by card id.
_CODES = np.array([card_text(c) for c in range(_DECK)], "S2")


def hand_texts(bits: np.ndarray, w: np.ndarray, hole: int) -> list[str]:
    """Range text of each hand (``AsAdKsKd``, ``:0.5`` after a weight below 1), in one array
    operation per block rather than a string per card."""
    text = np.ascontiguousarray(_CODES[bits_to_rows(bits, hole)]).view(f"S{2 * hole}").ravel()
    out = text.astype(str)
    for x in np.unique(w[w != 1]).tolist():
        out = np.where(w == x, np.char.add(out, f":{x:g}"), out)
    return list(out.tolist())


def listing(r: OmahaRange) -> Iterator[str]:
    """The range's hands as range text, in blocks (each block's hands comma-separated; blocks
    join with a comma): reads back as the same hands and weights."""
    for bits, w in r.chunks():
        yield ",".join(hand_texts(bits, w, r.hole))


def describe(rows: np.ndarray) -> str:
    """A short label of a range's hands: the hand itself when there is one."""
    return format_cards(rows[0]) if len(rows) == 1 else f"{len(rows)} hands"


def range_listing(text: str, hole: int, game: str, known: list[int],
                  listed: bool = False) -> dict[str, Json]:
    """``range --game omaha`` (and the other Omaha games): the range's weighted count, the
    hands left once ``known`` cards (board, dead) are removed, ``shown``: its first
    :data:`SHOWN` hands as range text, and with ``listed`` ``text``: every hand
    (``AsAdKsKd:0.5``), which reads back as the same hands and weights."""
    r = omaha_range(text, hole, game)
    live, live_w = r.live_counts(sum(1 << c for c in known))
    bits, w = r.first(SHOWN)
    out: dict[str, Json] = {
        "range": r.text, "game": game, "combos": r.combos, "weighted": r.weighted,
        "live": live, "live_weighted": live_w,
        "shown": hand_texts(bits, w, hole)}
    if listed:
        out["text"] = ",".join(listing(r))
    return out


__all__ = ["OmahaRange", "omaha_range", "count_combos", "parse_game_range", "bits_to_rows",
           "describe", "range_listing", "listing", "hand_texts", "MAX_EXPANDED"]
