"""Hold'em hand ranges in PokerStove / Equilab / PioSolver notation, parsed into arrays.

Forms (separated by commas or spaces, case-insensitive; ``forms.split_tokens``):

==============  ==========================================================
``QQ``          the 6 combos of a pair
``QQ+``         QQ, KK, AA (18 combos);  ``22-66`` (either order) 30 combos
``AKs``         4 suited combos; ``AKo`` 12 offsuit; ``AK`` all 16
``AQs+``        the kicker climbs to one below the top card: AQs, AKs
``K9o+``        K9o .. KQo;  ``A5s-A2s`` / ``KTs-K7s`` a kicker run (same top card)
``AsKs``        one explicit combo (``10`` accepted for ``T``)
``T9s-54s``     a connector span (same gap, both cards step): T9s 98s 87s 76s 65s 54s
``random``      every hand (also ``any``, ``any two``): 1,326 combos
``15%``         the top 15 % of the 1,326 hands by heads-up equity vs a random hand
``KK:0.5``      a weight in 0..1 (PioSolver style) on any token
``[50]..[/50]`` Flopzilla/GTO+ bracket: weight 50 % on every token from ``[50]`` to ``[/50]``
==============  ==========================================================

A combo named twice takes the weight of its last mention. A bracket's weight is a percentage
(0..100); brackets do not nest, must close with the same number, and their tokens carry no
``:w`` of their own. The top-% ordering is the exact
heads-up equity of each hand against one random hand (``preflop.h5``, integer counts, so no
rounding decides the order); hands of equal equity (the combos of one class are equal by
suit symmetry) are taken or left together, and the prefix whose combo count is nearest to
``p * 1326`` is chosen (a tie between two prefixes takes the smaller).

A range is two arrays: sorted hand indices (colex ``a + C(b, 2)``, 0..1325) and float64
weights in (0, 1]. Card removal (board, dead cards, named hands) filters them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Protocol, Union

import numpy as np

from pipeline.core.cards import RANKS, card_id, format_cards, parse_cards
from pipeline.core.constants import N_HOLE_PAIRS
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_HIGH, HOLE_LOW, HOLE_MASKS, HOLE_SUITED, hole_index
from pipeline.equity.ranges.forms import PCT_VS, generic_hands, split_tokens
from pipeline.errors import InputError


class StrengthOrder(Protocol):
    """The ``N%`` ordering (int64[1326], larger is stronger) against ``opponents`` random hands,
    read when a token needs it (:func:`pipeline.equity.seating.strength_loader`)."""

    def __call__(self, opponents: int = 1) -> np.ndarray: ...


#: What orders hands for ``N%`` tokens: the heads-up order itself, a reader of the order
#: against any number of opponents, or None (no preflop table: ``N%`` is refused).
Strength = Union[np.ndarray, StrengthOrder, None]

#: Longest token quoted back in an error message.
MAX_SHOWN = 24
_RANK = "[2-9TJQKA]"
_COMBO = re.compile(r"(10|[2-9TJQKA])([CDHS])(10|[2-9TJQKA])([CDHS])")
_PAIR = re.compile(rf"({_RANK})\1(\+)?")
_PAIR_RUN = re.compile(rf"({_RANK})\1-({_RANK})\2")
_TWO = re.compile(rf"({_RANK})({_RANK})([SO])?(\+)?")
_TWO_RUN = re.compile(rf"({_RANK})({_RANK})([SO])?-({_RANK})({_RANK})([SO])?")
_PCT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)%", re.ASCII)
_WEIGHT = re.compile(r"(\d+(?:\.\d*)?|\.\d+)", re.ASCII)
_OPEN = re.compile(r"\[(\d+(?:\.\d*)?|\.\d+)\]", re.ASCII)
_CLOSE = re.compile(r"\[/(\d+(?:\.\d*)?|\.\d+)\]", re.ASCII)
#: Bodies meaning every hand (``any two`` is one token ``ANYTWO``: see ``split_tokens``).
_EVERY = ("RANDOM", "ANY", "ANYTWO")
#: A bracket weight is a percentage.
PERCENT = 100.0
#: Card-removed ranges kept per process (:meth:`Range.without`; a small spot asked again and
#: again removes the same cards from the same ranges).
REMOVED_CACHE = 256


@dataclass(frozen=True, eq=False)
class Range:
    """A weighted set of two-card hands: ``hands`` (sorted int64 colex indices) and
    ``weights`` (float64 in (0, 1]), with the text it came from.

    Equality and hashing are by identity (the arrays have no truth value), so a range can key
    a cache; the derived flags are computed once per range."""

    text: str
    hands: np.ndarray
    weights: np.ndarray
    #: the two cards in the order the user wrote them, for a range that is one explicit hand
    given: tuple[int, ...] = ()

    @functools.cached_property
    def combos(self) -> int:
        """Number of hands with a positive weight."""
        return int(self.hands.shape[0])

    @functools.cached_property
    def is_single(self) -> bool:
        """True when the range is one hand of weight 1 (a named hand)."""
        return self.combos == 1

    @functools.cached_property
    def is_random(self) -> bool:
        """True when every one of the 1,326 hands is in with weight 1."""
        return self.combos == N_HOLE_PAIRS and self.unit_weights

    @functools.cached_property
    def unit_weights(self) -> bool:
        """True when every weight is 1 (then exact results are integer counts)."""
        return bool(np.all(self.weights == 1.0))

    def cards(self, i: int = 0) -> list[int]:
        """The two card ids of the range's i-th hand (as written, for one explicit hand)."""
        if self.given and self.is_single:
            return list(self.given)
        a, b = (int(c) for c in HOLE_CARDS[self.hands[i]])
        return [b, a]

    def label(self) -> str:
        """Short text for output: the hand for a single combo, else the range text."""
        return self._label

    @functools.cached_property
    def _label(self) -> str:
        return format_cards(self.cards()) if self.is_single else self.text

    def without(self, mask: int, why: str) -> Range:
        """The range minus every hand touching a card of ``mask``; InputError if that empties it.
        Read-only arrays: the answer is cached per (range, mask) and shared."""
        got = _removed(self, mask)
        if got is None:
            raise InputError(f"range {_shown(self.text)!r} has no hand left once {why} are removed")
        return got


@functools.lru_cache(maxsize=REMOVED_CACHE)
def _removed(r: Range, mask: int) -> Range | None:
    """``r`` minus the hands touching ``mask`` (``r`` itself when none does), None if empty."""
    keep = (HOLE_MASKS[r.hands] & np.uint64(mask)) == 0
    if keep.all():
        return r
    if not keep.any():
        return None
    hands, weights = r.hands[keep], r.weights[keep]
    hands.flags.writeable = False
    weights.flags.writeable = False
    return Range(r.text, hands, weights, r.given)


def _shown(token: str) -> str:
    return token if len(token) <= MAX_SHOWN else token[:MAX_SHOWN] + "..."


def _bad(token: str, why: str) -> InputError:
    return InputError(f"bad range token {_shown(token)!r} (hold'em): {why}")


def _rank(ch: str) -> int:
    return RANKS.index(ch)


def _class_hands(high: int, low: int, suit: str | None) -> np.ndarray:
    """Hand indices of the class high-low with suitedness 's', 'o' or None (both)."""
    if high == low:
        sel = (HOLE_HIGH == high) & (HOLE_LOW == high)
    else:
        sel = (HOLE_HIGH == high) & (HOLE_LOW == low)
        if suit == "S":
            sel &= HOLE_SUITED
        elif suit == "O":
            sel &= ~HOLE_SUITED
    return np.flatnonzero(sel)


def _token_hands(body: str, raw: str, strength: Strength) -> np.ndarray:
    """Hand indices named by one token body (upper case, no spaces, no weight)."""
    if body in _EVERY:
        return np.arange(N_HOLE_PAIRS)
    m = _PCT.fullmatch(body)
    if m:
        return _top_fraction(float(m.group(1)), raw, strength)
    m = PCT_VS.fullmatch(body)
    if m:
        return _top_fraction(float(m.group(1)), raw, strength, int(m.group(2)))
    m = _COMBO.fullmatch(body)
    if m:
        a = card_id(m.group(1) + m.group(2))
        b = card_id(m.group(3) + m.group(4))
        if a == b:
            raise InputError(f"duplicate card {format_cards([a])} in range token {_shown(raw)!r}")
        return np.array([hole_index(a, b)])
    m = _PAIR.fullmatch(body)
    if m:
        r = _rank(m.group(1))
        top = 12 if m.group(2) else r
        return np.concatenate([_class_hands(x, x, None) for x in range(r, top + 1)])
    m = _PAIR_RUN.fullmatch(body)
    if m:
        lo, hi = sorted((_rank(m.group(1)), _rank(m.group(2))))
        return np.concatenate([_class_hands(x, x, None) for x in range(lo, hi + 1)])
    m = _TWO.fullmatch(body)
    if m:
        high, low = _rank(m.group(1)), _rank(m.group(2))
        if high == low:
            raise _bad(raw, "a pair has no suited/offsuit form")
        if high < low:
            high, low = low, high
        top = high - 1 if m.group(4) else low
        return np.concatenate([_class_hands(high, k, m.group(3)) for k in range(low, top + 1)])
    m = _TWO_RUN.fullmatch(body)
    if m:
        h1, k1, s1, h2, k2, s2 = (m.group(1), m.group(2), m.group(3), m.group(4), m.group(5),
                                  m.group(6))
        ranks = [_rank(x) for x in (h1, k1, h2, k2)]
        if ranks[0] < ranks[1] or ranks[2] < ranks[3]:
            raise _bad(raw, "write the higher card first in a run like A5s-A2s")
        if s1 != s2:
            raise _bad(raw, "both ends of a span need the same s/o suffix, e.g. A5s-A2s, T9s-54s")
        if ranks[0] == ranks[2]:
            lo, hi = sorted((ranks[1], ranks[3]))
            return np.concatenate([_class_hands(ranks[0], k, s1) for k in range(lo, hi + 1)])
        gap = ranks[0] - ranks[1]
        if ranks[2] - ranks[3] != gap:
            raise _bad(raw, "a span keeps the top card (A5s-A2s) or the gap between the cards "
                            "(T9s-54s, KQo-JTo)")
        # a connector span: both cards step down together
        lo, hi = sorted((ranks[0], ranks[2]))
        return np.concatenate([_class_hands(t, t - gap, s1) for t in range(lo, hi + 1)])
    generic = generic_hands(body)
    if generic is not None:
        if generic.size == 0:
            raise _bad(raw, "no hand has these cards (one suit letter is one suit)")
        return generic
    if "-" in body and all(_COMBO.fullmatch(part) for part in body.split("-")):
        raise _bad(raw, "a span runs between hand classes (A5s-A2s, T9s-54s), not combos: list "
                        "the combos (AsKs,AhKh) or give their class (AK)")
    if re.search(r"[2-9TJQKA][CDHS]", body):
        # it looks like cards: say what is wrong with them as cards
        try:
            cards = parse_cards(raw)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        if len(cards) != 2:
            raise InputError("expected 2 hole cards, got {n}: {cards} (hold'em; other games: "
                             "{game})", "hero", n=len(cards), cards=format_cards(cards))
    raise _bad(raw, "expected a hand class (QQ, AKs, AKo, AK), a run (QQ+, AQs+, 22-66, "
                    "A5s-A2s, T9s-54s), a combo (AsKs), generic suits (AxKx, xx), random, any two, "
                    "or a top fraction (15%, 15%vs3)")


def _top_fraction(pct: float, raw: str, strength: Strength, opponents: int = 1) -> np.ndarray:
    """The top ``pct`` percent of hands by equity vs ``opponents`` random hands (see module
    doc; ``strength(opponents)`` gives the order for more than one)."""
    if not 0 < pct <= 100:
        raise _bad(raw, "a top fraction must be above 0% and at most 100%")
    if strength is None:
        raise InputError(f"range token {_shown(raw)!r} needs the preflop table (preflop.h5); "
                         "build it with `pokertables build preflop`")
    if opponents != 1 and not callable(strength):
        raise _bad(raw, "only the order against one random hand is available here")
    if opponents == 1 or not callable(strength):
        got = strength() if callable(strength) else strength
    else:
        try:
            got = strength(opponents)
        except InputError as exc:
            raise _bad(raw, str(exc)) from None
    key = np.asarray(got, dtype=np.int64)
    order = np.argsort(-key, kind="stable")
    srt = key[order]
    # prefixes end where the key changes: equal-equity hands go together
    ends = np.flatnonzero(np.append(srt[1:] != srt[:-1], True)) + 1
    target = pct / 100 * N_HOLE_PAIRS
    best = ends[int(np.argmin(np.abs(ends - target)))]
    return np.sort(order[:best])


def _bracket_weight(num: str, raw: str) -> float:
    pct = float(num)
    if not 0 <= pct <= PERCENT:
        raise _bad(raw, "a bracket weight is a percentage from 0 to 100")
    return pct / PERCENT


def _weighted_tokens(tokens: list[str]) -> list[tuple[str, str, float]]:
    """(raw token, body without weight or brackets, weight) of each token, brackets resolved."""
    out: list[tuple[str, str, float]] = []
    bracket: tuple[str, str] | None = None  # (number, token that opened it)
    for raw in tokens:
        body = raw
        m = _OPEN.match(body)
        if m:
            if bracket is not None:
                raise _bad(raw, f"bracket [{bracket[0]}] is still open (brackets do not nest)")
            bracket = (m.group(1), raw)
            body = body[m.end():]
        m = _CLOSE.search(body)
        closing = m is not None and m.end() == len(body)
        if m is not None and closing:
            if bracket is None:
                raise _bad(raw, f"[/{m.group(1)}] closes no open bracket")
            if float(m.group(1)) != float(bracket[0]):
                raise _bad(raw, f"[/{m.group(1)}] does not close [{bracket[0]}]")
            body = body[:m.start()]
        if "[" in body or "]" in body:
            raise _bad(raw, "a weight bracket is written [50]KK,QQ[/50]")
        if bracket is not None:
            if ":" in body:
                raise _bad(raw, f"a token inside [{bracket[0]}]...[/{bracket[0]}] takes the "
                                "bracket's weight, not its own")
            w = _bracket_weight(bracket[0], bracket[1])
        else:
            body, sep, wtxt = body.partition(":")
            w = 1.0
            if sep:
                if not _WEIGHT.fullmatch(wtxt):
                    raise _bad(raw, f"weight {_shown(wtxt)!r} is not a number in 0..1")
                w = float(wtxt)
                if not 0 <= w <= 1:
                    raise _bad(raw, "a weight must be between 0 and 1")
        if not body:
            raise _bad(raw, "no hand inside the bracket" if bracket is not None else
                       "no hand before the weight (a weight follows a hand: KK:0.5)")
        out.append((raw, body, w))
        if closing:
            bracket = None
    if bracket is not None:
        raise _bad(bracket[1], f"bracket [{bracket[0]}] is never closed with [/{bracket[0]}]")
    return out


def percent_choices(text: str, strength: Strength) -> list[tuple[str, np.ndarray]]:
    """Each ``N%`` token of a range text with the hand indices it chose (before later tokens
    override weights), in the order written; for showing what a top fraction expanded to."""
    tokens = split_tokens(text)
    out = []
    for raw, body, _ in _weighted_tokens(tokens):
        for part in body.split("!")[:1]:
            m = _PCT.fullmatch(part) or PCT_VS.fullmatch(part.upper())
            if m:
                vs = int(m.group(2)) if m.re is PCT_VS else 1
                out.append((raw, _top_fraction(float(m.group(1)), raw, strength, vs)))
    return out


def parse_range(text: str, strength: Strength = None) -> Range:
    """Parse range text into a :class:`Range`; raises :class:`InputError` naming a bad token.

    ``strength`` (int64[1326], or a callable returning it) orders hands for ``N%`` tokens:
    larger is stronger (use :func:`pipeline.equity.tables.preflop.hand_strength`).
    """
    if not isinstance(text, str):
        raise InputError(f"a range must be text, got {type(text).__name__}")
    weights = np.zeros(N_HOLE_PAIRS, np.float64)
    named = np.zeros(N_HOLE_PAIRS, bool)
    last_combo = None
    tokens = split_tokens(text)
    for raw, body, w in _weighted_tokens(tokens):
        first, *excluded = body.upper().split("!")
        if not first or not all(excluded):
            raise _bad(raw, "exclusion is written HANDS!HANDS, e.g. JJ+!AA")
        hands = _token_hands(first, raw, strength)
        for ex in excluded:
            hands = np.setdiff1d(hands, _token_hands(ex, raw, strength))
        if hands.size == 0:
            raise _bad(raw, "the exclusion leaves no hand")
        weights[hands] = w
        named[hands] = True
        last_combo = _COMBO.fullmatch(body.upper())
    if not named.any():
        raise InputError(f"empty range {_shown(text.strip())!r}: name at least one hand")
    idx = np.flatnonzero(weights > 0)
    if idx.size == 0:
        raise InputError(f"range {_shown(text.strip())!r} has weight 0 on every hand")
    given: tuple[int, ...] = ()
    if len(tokens) == 1 and last_combo is not None and idx.size == 1:
        given = (card_id(last_combo.group(1) + last_combo.group(2)),
                 card_id(last_combo.group(3) + last_combo.group(4)))
    return Range(" ".join(text.split()), idx.astype(np.int64), weights[idx], given)


#: Search steps :func:`ranges_fit` takes before it gives up.
FIT_BUDGET = 200_000


@functools.lru_cache(maxsize=REMOVED_CACHE)
def ranges_fit(ranged: tuple[Range, ...]) -> bool | None:
    """Whether some assignment gives every range a hand with no card shared (None when the
    search gave up: the exact and Monte Carlo kernels find out themselves)."""
    masks = [[int(m) for m in HOLE_MASKS[s.hands]] for s in sorted(ranged, key=lambda s: s.combos)]
    budget = [FIT_BUDGET]

    def dfs(i: int, used: int) -> bool | None:
        if i == len(masks):
            return True
        for m in masks[i]:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if not m & used:
                got = dfs(i + 1, used | m)
                if got is None or got:
                    return got
        return False

    return dfs(0, 0)


def single_hand(cards: list[int]) -> Range:
    """The range holding exactly the two given cards."""
    a, b = cards
    return Range(format_cards([a, b]), np.array([hole_index(a, b)], np.int64),
                 np.ones(1, np.float64), (a, b))


__all__ = ["Range", "Strength", "StrengthOrder", "parse_range", "percent_choices", "ranges_fit",
           "single_hand", "MAX_SHOWN"]
