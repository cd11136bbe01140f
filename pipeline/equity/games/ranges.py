"""Omaha ranges (4, 5 and 6 hole cards): a documented subset of ProPokerTools' syntax.

Items are comma separated, case-insensitive, spaces ignored; each names a set of hands:

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
"""

from __future__ import annotations

import functools
import re
from itertools import combinations
from math import comb

import numpy as np

from pipeline.core.cards import RANKS, card_id, format_cards
from pipeline.errors import InputError, clip

#: Most hands one item may expand to before de-duplication (a pattern this wide is "random").
MAX_EXPANDED = 4_000_000
_ELEMENT = re.compile(r"(10|[2-9tjqka])([cdhs])?|x")
_WEIGHT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)")
#: Suitedness suffixes: the least number of suits holding two or more cards, and the most.
SUITEDNESS = {"ds": (2, 4), "ss": (1, 1)}


def _elements(body: str, hole: int, game: str, item: str) -> list[list[int]]:
    """Candidate cards of each element of a pattern (padded with ``x`` to ``hole``)."""
    out: list[list[int]] = []
    pos = 0
    while pos < len(body):
        m = _ELEMENT.match(body, pos)
        if m is None:
            raise InputError(f"bad {game} range item {clip(item)}: cannot read "
                             f"{clip(body[pos:])} (ranks AKQJT98765432, cards like As, x for "
                             "any card, ds/ss, !, :weight)")
        pos = m.end()
        if m.group(0) == "x":
            out.append(list(range(52)))
        elif m.group(2):
            out.append([card_id(m.group(0))])
        else:
            r = RANKS.index("T" if m.group(1) == "10" else m.group(1).upper())
            out.append([4 * r + s for s in range(4)])
    if not out or len(out) > hole:
        raise InputError(f"bad {game} range item {clip(item)}: a pattern names 1 to {hole} "
                         f"cards, got {len(out)}")
    out += [list(range(52))] * (hole - len(out))
    return out


def _expand(elements: list[list[int]], game: str, item: str) -> np.ndarray:
    """Card bitmaps (int64, unique, sorted) of every hand the elements describe."""
    fixed = [e for e in elements if len(e) < 52]
    n_any = len(elements) - len(fixed)
    partial = np.zeros(1, np.int64)
    for cands in fixed:
        bits = np.array([1 << c for c in cands], np.int64)
        grown = (partial[:, None] | bits[None, :]).ravel()
        # every partial hand has as many cards: one more card each, or a repeat to drop
        want = int(_popcount(partial[:1])[0]) + 1
        partial = np.unique(grown[_popcount(grown) == want])
        if partial.size == 0:
            return partial
    if n_any:
        size = partial.size * comb(52, n_any)
        if size > MAX_EXPANDED:
            raise InputError(f"{game} range item {clip(item)} is too wide to list "
                             f"({size:,} hands before removing repeats); use random")
        any_bits = np.array([sum(1 << c for c in cs) for cs in combinations(range(52), n_any)],
                            np.int64)
        grown = (partial[:, None] | any_bits[None, :]).ravel()
        want = int(_popcount(partial[:1])[0]) + n_any
        partial = np.unique(grown[_popcount(grown) == want])
    return partial


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each int64 (below 2**52)."""
    v = x.astype(np.uint64)
    c = np.zeros(v.shape, np.int64)
    for shift in range(0, 56, 8):
        c += _BYTE_POP[((v >> np.uint64(shift)) & np.uint64(0xFF)).astype(np.int64)]
    return c


_BYTE_POP = np.array([bin(i).count("1") for i in range(256)], np.int64)


def bits_to_rows(bits: np.ndarray, hole: int) -> np.ndarray:
    """int64[n, hole] ascending card ids of each bitmap."""
    rows = np.zeros((bits.size, hole), np.int64)
    rest = bits.astype(np.uint64).copy()
    for j in range(hole):
        low = rest & (~rest + np.uint64(1))
        rows[:, j] = np.log2(low.astype(np.float64)).astype(np.int64)
        rest ^= low
    return rows


def _suited_ok(bits: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Which hands have ``lo``..``hi`` suits holding two or more cards."""
    lane = sum(1 << (4 * r) for r in range(13))
    many = np.zeros(bits.shape, np.int64)
    for s in range(4):
        many += _popcount(bits & (lane << s)) >= 2
    return (many >= lo) & (many <= hi)


def _pattern(text: str, hole: int, game: str, item: str) -> np.ndarray:
    """Bitmaps of one ``!``-free pattern, suitedness suffix included."""
    suited = None
    for suffix, span in SUITEDNESS.items():
        if text.endswith(suffix) and len(text) > len(suffix):
            suited = span
            text = text[:-len(suffix)]
            break
    bits = _expand(_elements(text, hole, game, item), game, item)
    if suited is not None:
        bits = bits[_suited_ok(bits, *suited)]
    return bits


@functools.lru_cache(maxsize=256)
def parse_game_range(text: str, hole: int, game: str = "omaha") -> tuple[np.ndarray, np.ndarray]:
    """(int64[n, hole] ascending hands, float64[n] weights in (0, 1]) of an Omaha range.

    InputError names the item and the game when an item cannot be read or names no hand."""
    weights: dict[int, float] = {}
    for item in "".join(text.split()).split(","):
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
        parts = body.split("!")
        bits = _pattern(parts[0], hole, game, item)
        for ex in parts[1:]:
            bits = bits[~np.isin(bits, _pattern(ex, hole, game, item))]
        if bits.size == 0:
            raise InputError(f"{game} range item {clip(item)} names no hand")
        for b in bits.tolist():
            weights[b] = w
    keys = np.array(sorted(weights), np.int64)
    rows = bits_to_rows(keys, hole)
    ws = np.array([weights[k] for k in keys.tolist()], np.float64)
    rows.flags.writeable = False
    ws.flags.writeable = False
    return rows, ws


def describe(rows: np.ndarray) -> str:
    """A short label of a range's hands: the hand itself when there is one."""
    return format_cards(rows[0]) if len(rows) == 1 else f"{len(rows)} hands"




def range_listing(text: str, hole: int, game: str, known: list[int]) -> dict[str, object]:
    """``range --game omaha`` (and the other Omaha games): the range's hands, its weighted
    count, the hands left once ``known`` cards (board, dead) are removed, and ``text``: every
    hand as range text (``AsAdKsKd:0.5``), which reads back as the same hands and weights."""
    rows, w = parse_game_range(text, hole, game)
    mask = sum(1 << c for c in known)
    bits = np.array([sum(1 << int(c) for c in r) for r in rows], np.int64)
    live = (bits & mask) == 0
    items = ["".join(format_cards(r).split()) + ("" if x == 1 else f":{x:g}")
             for r, x in zip(rows, w.tolist())]
    return {"range": " ".join(text.split()), "game": game, "combos": int(len(rows)),
            "weighted": float(w.sum()), "live": int(live.sum()),
            "live_weighted": float(w[live].sum()), "text": ",".join(items)}


__all__ = ["parse_game_range", "bits_to_rows", "describe", "range_listing", "MAX_EXPANDED"]
