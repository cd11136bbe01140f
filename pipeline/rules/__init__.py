"""Rule sets: which deck, which straights, which category order, suits, high or low.

A rule set is a TOML file found by name through :mod:`pipeline.registry` (built-in ones in
``pipeline/data/rules/``; see ``standard.toml`` there for every key). The
standard set's tables are the top-level ``five.h5``/``six.h5``/``seven.h5``; every other set
gets its own tables under ``artifacts/rules/<name>/`` with the same layout, indexed by the
colex index of *deck-local* card ids ``local = id - 4*lowest_rank`` (the deck is always the
top ranks, so the local id keeps ``4*rank + suit`` order). Scores are "higher is better" in
every rule set; for lowball a better low has the higher score.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.core.cards import RANKS, SUITS, card_text
from pipeline.core.category import CATEGORY_NAMES
from pipeline.core.files import read_toml_file
from pipeline.errors import ConfigError, InputError
from pipeline.registry import rule_set_names, rules_path

CATEGORIES = CATEGORY_NAMES  # the names an ``order`` lists
ACE_LOW_MODES = ("lowest", "second", "none")
LOW_MODES = ("none", "ace-to-five", "deuce-to-seven")
KEYS = {"name", "description", "ranks", "ace_low_straight", "order", "suit_order", "low", "seven"}


@dataclass(frozen=True)
class RuleSet:
    """A poker ranking rule set (immutable; load with :func:`load_rules`)."""

    name: str
    description: str
    ranks: str                 # ranks in play, a top segment of 23456789TJQKA
    ace_low_straight: str      # "lowest" | "second" | "none"
    order: tuple[str, ...]     # categories weakest..strongest
    suit_order: str            # "" or four suits weakest..strongest
    low: str                   # "none" | "ace-to-five" | "deuce-to-seven"
    seven: bool                # build a 7-card (best five of seven) table

    @property
    def lowest_rank(self) -> int:
        """Rank number (0 = deuce) of the lowest card in the deck."""
        return RANKS.index(self.ranks[0])

    @property
    def deck_size(self) -> int:
        """Cards in the deck (4 per rank)."""
        return 4 * len(self.ranks)

    @property
    def is_standard(self) -> bool:
        """True for the standard high rules on 52 cards (served by the top-level tables)."""
        return (self.ranks == RANKS and self.ace_low_straight == "lowest" and self.order == CATEGORIES
                and not self.suit_order and self.low == "none")

    def local_ids(self, cards: np.ndarray) -> np.ndarray:
        """Map standard card ids to deck-local ids; raises :class:`InputError` naming a card not in the deck."""
        arr = np.asarray(cards, dtype=np.int64)
        local = arr - 4 * self.lowest_rank
        bad = (local < 0) | (arr > 51)
        if bad.any():
            c = int(arr[bad].ravel()[0])
            raise InputError(f"card {card_text(c) if 0 <= c < 52 else c} is not in the {self.name} "
                             f"deck (ranks {self.ranks})")
        return local

    def params(self) -> dict[str, Any]:
        """The numeric parameters the key kernel takes."""
        rank_value = np.arange(13, dtype=np.int64)
        if self.low == "ace-to-five":
            rank_value = (np.arange(13, dtype=np.int64) + 1) % 13  # ace below the deuce
        cat_pos = np.array([self.order.index(c) for c in CATEGORIES], dtype=np.int64)
        suit_rank = np.array([self.suit_order.index(s) if self.suit_order else 0 for s in SUITS],
                             dtype=np.int64)
        return {
            "rank_value": rank_value,
            "straights": self.low != "ace-to-five",
            "flushes": self.low != "ace-to-five",
            "wheel": ACE_LOW_MODES.index(self.ace_low_straight) if self.low != "ace-to-five" else 2,
            "lowest": self.lowest_rank,
            "cat_pos": cat_pos,
            "suit_rank": suit_rank,
            "use_suits": bool(self.suit_order),
            "low": self.low != "none",
        }


def load_rules(source: str | Path) -> RuleSet:
    """Load a rule set by name (``short-deck``, found through :mod:`pipeline.registry`) or by
    path to a TOML file; :class:`ConfigError` names the file and the problem.

    >>> load_rules("short-deck").ranks
    '6789TJQKA'
    """
    p = Path(source) if isinstance(source, Path) or Path(source).suffix else rules_path(str(source))
    if not p.exists() and not p.is_symlink():
        raise InputError(f"rule set file {p} does not exist")
    data = read_toml_file(p, "rule set file")
    unknown = set(data) - KEYS
    if unknown:
        raise ConfigError(f"{p}: unknown key(s) {', '.join(sorted(unknown))}")
    ranks = str(data.get("ranks", RANKS)).upper()
    if not ranks or not RANKS.endswith(ranks) or len(ranks) < 5:
        raise ConfigError(f"{p}: ranks {ranks!r} must be the top ranks of 23456789TJQKA (at least 5)")
    order = tuple(data.get("order", CATEGORIES))
    if sorted(order) != sorted(CATEGORIES):
        raise ConfigError(f"{p}: order must list each of {', '.join(CATEGORIES)} once")
    ace = data.get("ace_low_straight", "lowest")
    if ace not in ACE_LOW_MODES:
        raise ConfigError(f"{p}: ace_low_straight {ace!r} must be one of {', '.join(ACE_LOW_MODES)}")
    suits = str(data.get("suit_order", "")).lower()
    if suits and sorted(suits) != sorted(SUITS):
        raise ConfigError(f"{p}: suit_order {suits!r} must name c, d, h, s once each, weakest first")
    low = data.get("low", "none")
    if low not in LOW_MODES:
        raise ConfigError(f"{p}: low {low!r} must be one of {', '.join(LOW_MODES)}")
    if low != "none" and suits:
        raise ConfigError(f"{p}: suit_order is not supported with lowball rules")
    return RuleSet(name=str(data.get("name", p.stem)), description=str(data.get("description", "")),
                   ranks=ranks, ace_low_straight=ace, order=order, suit_order=suits, low=low,
                   seven=bool(data.get("seven", False)))


def available_rules() -> list[str]:
    """Names of every known rule set (built-in and user folders)."""
    return rule_set_names()
